"""The games registered with OpenSpiel pass OpenSpiel's own random-simulation test."""

from __future__ import annotations

import pyspiel
import pytest

from openrummy.envs.openspiel import GAMES, register


@pytest.mark.parametrize(
    "preset",
    [p if p.startswith("indian") else pytest.param(p, marks=pytest.mark.slow) for p in GAMES],
)
def test_openspiel_random_simulation(preset: str) -> None:
    register()
    register()  # a second registration changes nothing
    game = pyspiel.load_game(f"openrummy_{preset}")
    assert game.num_distinct_actions() == (110 if preset.startswith("indian") else 65)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    state = game.new_initial_state()
    player = state.current_player()
    assert state.legal_actions(player) and state.observation_tensor(player)
    hand = " ".join(map(str, state.env.match.game.hands[1 - player]))
    assert hand not in state.observation_string(player), "no other hand in an observation"
