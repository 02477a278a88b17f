"""The hint and the gestures agree: a player who follows the table solver's hint with the web
table's documented gestures (drag to a meld or to New meld, drop a card on the joker it
stands for, choose a joker's identity) builds a play the engine accepts.

The positions come from seeded games of greedy bots (Robbers' Rummy and Rummikub, players
who have opened and players who have not); the gestures run on the page's own turn model
(``web/js/manip.js``) in node, with a stand-in DOM (``tests/js/hint_gestures.mjs``).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

import openrummy
from helpers.hints import SWAPS_BEFORE_OPENING
from openrummy.bots import make_bot
from openrummy.games.families import new_match
from openrummy.melds import Meld
from openrummy.messages import CATALOGUE_PATH
from openrummy.rules import find_preset
from openrummy.server.web import rules_info
from openrummy.solve import best_play
from openrummy.solve.explain import StepKind, explain_steps

WEB_JS = Path(openrummy.__file__).parent / "web" / "js"
SCRIPT = Path(__file__).parent / "js" / "hint_gestures.mjs"


def _position(match: Any, rules: Any) -> dict[str, Any] | None:
    """The seat to move, if it has something to play: its view, the hint's steps."""
    seat = match.current
    view = match.view(seat).to_json()
    if "play" not in view["legal"]:
        return None
    table = [Meld.parse("[" + " ".join(m) + "]") for m in view["table"]]
    play = best_play(rules, table, list(match.game.hands[seat]), opened=bool(view["opened"][seat]))
    if play.is_pass:
        return None
    steps = explain_steps(list(play.before), list(play.table), rules.meld_rules)
    return {
        "match": match.copy(),
        "seat": seat,
        "opened": bool(view["opened"][seat]),
        "input": {
            "view": view,
            "rules": rules_info(rules),
            "steps": [
                {
                    "takes": [[i, [str(c) for c in cs]] for i, cs in st.takes],
                    "from_hand": [str(c) for c in st.from_hand],
                    "target": st.target,
                    "swap": st.kind is StepKind.SWAP_JOKER,
                    "result": str(st.result),
                }
                for st in steps
            ],
        },
    }


def _game(preset: str, players: int, seed: str, turns: set[int]) -> list[dict[str, Any]]:
    """Greedy bots play a seeded game; the positions at the given turns."""
    rules = find_preset(preset)
    match: Any = new_match(rules, players, seed=seed)
    bots = [make_bot("greedy", rules, s) for s in range(players)]
    out = []
    for turn in range(max(turns) + 1):
        if match.is_over:
            break
        if turn in turns and (pos := _position(match, rules)) is not None:
            out.append(pos)
        match.apply(bots[match.current].choose(match.view(match.current)))
    return out


def _positions(preset: str, want: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    game = 0
    while len(out) < want:
        found = _game(preset, 2, f"hint-gestures-{preset}-{game}", set(range(0, 60, 3)))
        out.extend(found[: want - len(out)])
        game += 1
    return out


@pytest.mark.parametrize(
    "count",
    [pytest.param(40, id="40"), pytest.param(200, id="200", marks=pytest.mark.slow)],
)
def test_hints_carried_out_by_gestures_are_accepted(count: int) -> None:
    swaps = [p for seed, turn in SWAPS_BEFORE_OPENING for p in _game("robbers", 4, seed, {turn})]
    assert len(swaps) == len(SWAPS_BEFORE_OPENING)
    assert all(not p["opened"] and any(s["swap"] for s in p["input"]["steps"]) for p in swaps)
    rest = count - len(swaps)
    positions = swaps + _positions("robbers", rest // 2) + _positions("rummikub", rest - rest // 2)
    # Every hint with a joker swap is followed twice: in the order of its steps, and with
    # the swap first (the card dropped on the joker before the joker is moved on).
    positions += [
        {**p, "input": {**p["input"], "swap_first": True}}
        for p in positions
        if any(s["swap"] for s in p["input"]["steps"])
    ]
    payload = {
        "catalogue": json.loads(CATALOGUE_PATH.read_text(encoding="utf-8")),
        "positions": [p["input"] for p in positions],
    }
    done = subprocess.run(
        ["node", str(SCRIPT), str(WEB_JS)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=True,
    )
    results = json.loads(done.stdout)
    assert len(results) == len(positions)
    refused = []
    for pos, res in zip(positions, results, strict=True):
        match = pos["match"]
        action = match.parse_action(res["play"], pos["seat"])
        if not match.is_legal(action):
            refused.append((res["play"], [str(v) for v in match.game.check_play(action)]))
    assert not refused, refused[:5]
    # The positions hold what the hint must get right: players who have not opened.
    assert sum(not p["opened"] for p in positions) >= count // 10
    # Before opening the joker stays on the table, and the player is told why at once.
    told = [
        res["toasts"]
        for pos, res in zip(positions, results, strict=True)
        if pos["input"].get("swap_first") and not pos["opened"]
    ]
    assert len(told) >= len(swaps)
    for toasts in told:
        assert any(
            "stays on the table (you may retrieve a joker only after you have opened)" in t
            for t in toasts
        ), toasts
