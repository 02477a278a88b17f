"""Primitive actions for the manipulation games: build the table card by card.

``rummikub_v0.env(action_mode="primitive")`` (and ``robbers_v0``) plays Rummikub or Robbers'
Rummy with a fixed-size discrete action space whose actions move one card at a time on a
*workbench*: the seat to move's working copy of the table, ``S`` meld slots plus a pool (the
hand, and the table cards taken up this turn). The table is judged only when the seat
commits (RULES.md §2.1); in between it may be in any state.

Action ids (``K = 53`` card kinds, ``S`` slots, ``C = 29`` interpretations; see
docs/envs.md for the rationale)::

    0  DRAW      draw from the stock (ends the turn; the workbench is dropped)
    1  PASS      pass (empty stock)
    2  COMMIT    submit the workbench as the play (masked unless the engine accepts it)
    3  END       end the turn (play–draw–play turn model)
    4  RESET     put the workbench back to the turn start (the turn goes on)
    5  TAKE      take the top of the discard pile (discard-pile variant)
    6 + k                      DISCARD a card of kind k (discard-pile variant)
    PLACE0 + s·K + k           PLACE a card of kind k from the pool in slot s
    PICK0  + s·K + k           PICK a card of kind k from slot s into the pool
    ASSIGN0 + s·C + c          ASSIGN interpretation c to slot s (c < 13: a run starting at
                               rank c + 1; c ≥ 13: a set whose jokers complete the suits of
                               the bit mask c − 13, ♠ = 1, ♥ = 2, ♦ = 4, ♣ = 8)

PLACE into an empty slot is offered for the lowest empty slot only (a new meld). A slot's
interpretation fixes the identities of its jokers; after any PLACE or PICK it is the first
valid one in code order until an ASSIGN picks another. The mask never holds COMMIT unless
the engine's own commit check accepts the play (and the rule's retrievals, which the
workbench derives for jokers left in the pool), and always holds one of DRAW, PASS, END or a
DISCARD. At most ``turn_cap`` workbench actions (PLACE, PICK, ASSIGN, RESET) are allowed per
turn; after that only COMMIT (when valid) and the turn-ending actions remain.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

import gymnasium
import numpy as np
import numpy.typing as npt

from openrummy.cards import Card, Suit
from openrummy.errors import ConfigError, IllegalActionError
from openrummy.games.actions import (
    Action,
    ActionKind,
    Discard,
    Draw,
    EndTurn,
    Pass,
    Play,
    Retrieval,
    TakeDiscard,
)
from openrummy.games.manipulation import ManipulationGame
from openrummy.melds import Meld, MeldItem, MeldKind, joker_meld_item
from openrummy.messages import Reason
from openrummy.rules.manipulation import ManipulationRules, Mobility, ReplacementSource

from ._spaces import CARD_KINDS, Floats, Mask, card_kinds, encode
from .aec import Observation, RummyEnv

__all__ = [
    "ACTION_MODES",
    "CODES",
    "COMMIT",
    "DISCARD0",
    "DRAW",
    "END",
    "PASS",
    "RESET",
    "TAKE",
    "PrimitiveLayout",
    "PrimitiveRummyEnv",
    "Workbench",
    "find_commit",
    "make_manipulation_env",
    "plan",
]

DRAW, PASS, COMMIT, END, RESET, TAKE = 0, 1, 2, 3, 4, 5
DISCARD0: Final = 6
CODES: Final = 29
"""Interpretations of a slot: 13 run starts and 16 set suit masks."""
_RUN_CODES: Final = 13
_K: Final = CARD_KINDS
_JK: Final = 52

Ints = npt.NDArray[np.int16]


@dataclass(frozen=True, slots=True)
class PrimitiveLayout:
    """Where each action group starts, for ``slots`` meld slots."""

    slots: int
    place0: int = field(init=False)
    pick0: int = field(init=False)
    assign0: int = field(init=False)
    size: int = field(init=False)
    """How many actions there are."""

    def __post_init__(self) -> None:
        place0 = DISCARD0 + _K
        object.__setattr__(self, "place0", place0)
        object.__setattr__(self, "pick0", place0 + self.slots * _K)
        object.__setattr__(self, "assign0", place0 + 2 * self.slots * _K)
        object.__setattr__(self, "size", place0 + 2 * self.slots * _K + self.slots * CODES)

    def place(self, slot: int, kind: int) -> int:
        return self.place0 + slot * _K + kind

    def pick(self, slot: int, kind: int) -> int:
        return self.pick0 + slot * _K + kind

    def assign(self, slot: int, code: int) -> int:
        return self.assign0 + slot * CODES + code

    def describe(self, action: int) -> str:
        """The action's name in the layout above (``place 3 R7``), for logs and errors."""
        names = {DRAW: "draw", PASS: "pass", COMMIT: "commit", END: "end", RESET: "reset"}
        if action in names:
            return names[action]
        if action == TAKE:
            return "take"
        if DISCARD0 <= action < self.place0:
            return f"discard {action - DISCARD0}"
        if self.place0 <= action < self.pick0:
            s, k = divmod(action - self.place0, _K)
            return f"place {s} {k}"
        if self.pick0 <= action < self.assign0:
            s, k = divmod(action - self.pick0, _K)
            return f"pick {s} {k}"
        s, c = divmod(action - self.assign0, CODES)
        return f"assign {s} {c}"


class MeldBook:
    """The valid interpretations of every slot content, computed once per content.

    A content is the sorted tuple of its card kinds (the joker, 52, last); its
    interpretations are ``(code, meld)`` pairs, the meld normalized, in code order, one per
    distinct meld. Validity is the engine's own (:meth:`Meld.is_valid`).
    """

    def __init__(self, rules: ManipulationRules) -> None:
        self.rules = rules
        self.mr = rules.meld_rules
        self.kinds = card_kinds(rules)
        self.tile = rules.tiles
        self.max_len = max(14 if self.mr.ace_both_ends else 13, self.mr.set_max)
        self._cache: dict[tuple[int, ...], tuple[tuple[int, Meld], ...]] = {}

    def interpretations(self, key: tuple[int, ...]) -> tuple[tuple[int, Meld], ...]:
        got = self._cache.get(key)
        if got is None:
            got = self._compute(key)
            if len(self._cache) > 200_000:
                self._cache.clear()
            self._cache[key] = got
        return got

    def _compute(self, key: tuple[int, ...]) -> tuple[tuple[int, Meld], ...]:
        n = len(key)
        if n < self.mr.min_len or n > self.max_len:
            return ()
        jokers = key.count(_JK)
        naturals = key[: n - jokers]
        if not naturals:
            return ()
        ranks = {k % 13 + 1 for k in naturals}
        suits = {k // 13 for k in naturals}
        if len(ranks) > 1 and len(suits) > 1:
            return ()
        candidates: list[tuple[int, Meld]] = []
        if len(suits) == 1:
            (suit,) = suits
            for start in range(1, 14):
                meld = self._run(naturals, jokers, suit, start)
                if meld is not None:
                    candidates.append((start - 1, meld))
        if len(ranks) == 1 and n <= self.mr.set_max and len(suits) == len(naturals):
            (rank,) = ranks
            have = sum(1 << s for s in suits)
            for mask in range(16):
                if mask & have == have and mask.bit_count() == n:
                    candidates.append((_RUN_CODES + mask, self._set(naturals, rank, mask ^ have)))
        out: list[tuple[int, Meld]] = []
        seen: set[Meld] = set()
        for code, meld in candidates:
            if not meld.is_valid(self.mr):
                continue
            norm = meld.normalized(self.mr)
            if norm not in seen:
                seen.add(norm)
                out.append((code, norm))
        return tuple(out)

    def _natural(self, kind: int) -> MeldItem:
        card = self.kinds[kind]
        assert card is not None
        return MeldItem.natural(card)

    def _run(self, naturals: Sequence[int], jokers: int, suit: int, start: int) -> Meld | None:
        window = [(p - 1) % 13 + 1 for p in range(start, start + len(naturals) + jokers)]
        missing = Counter(window)
        for k in naturals:
            r = k % 13 + 1
            if missing[r] <= 0:
                return None
            missing[r] -= 1
        items = [self._natural(k) for k in naturals]
        for r, m in missing.items():
            items += [joker_meld_item(Card(r, Suit(suit), self.tile))] * m
        return Meld(tuple(items))

    def _set(self, naturals: Sequence[int], rank: int, joker_suits: int) -> Meld:
        items = [self._natural(k) for k in naturals]
        for s in range(4):
            if joker_suits >> s & 1:
                items.append(joker_meld_item(Card(rank, Suit(s), self.tile)))
        return Meld(tuple(items))

    def code_of(self, meld: Meld) -> int | None:
        """The interpretation code of a valid table meld (``None``: not one of ours)."""
        key = tuple(sorted(c.index for c in meld.cards))
        norm = meld.normalized(self.mr)
        for code, m in self.interpretations(key):
            if m == norm:
                return code
        return None


class Workbench:
    """The seat to move's working table for one turn, in small arrays.

    ``counts[s, k]`` cards of kind ``k`` in slot ``s``; ``pool[k]`` cards of kind ``k`` the
    seat holds now (its hand and the table cards taken up); ``before`` and ``now`` the table's
    card counts at turn start and now. Each slot's validity is looked up in the
    :class:`MeldBook` when the slot changes, so a step costs a few array updates.
    """

    def __init__(self, rules: ManipulationRules, slots: int, cap: int) -> None:
        self.rules = rules
        self.book = MeldBook(rules)
        self.layout = PrimitiveLayout(slots)
        self.slots = slots
        self.cap = cap
        self.counts = np.zeros((slots, _K), np.int16)
        self.sizes = np.zeros(slots, np.int16)
        self.pool = np.zeros(_K, np.int16)
        self.before = np.zeros(_K, np.int16)
        self.now = np.zeros(_K, np.int16)
        self.items: list[list[int]] = [[] for _ in range(slots)]
        self.chosen: list[int | None] = [None] * slots
        self.fixed: list[Meld | None] = [None] * slots
        self.valid = np.ones(slots, bool)
        self.frozen = np.zeros(slots, bool)
        self.codes = np.full(slots, -1, np.int16)
        self.assign_ok = np.zeros((slots, CODES), np.int8)
        self.work = np.zeros(self.layout.size, np.int8)
        """The PLACE, PICK and ASSIGN parts of the mask, kept up to date by every action (the
        other entries stay zero); :meth:`fill_mask` computes the same from scratch."""
        self._place = self.work[self.layout.place0 : self.layout.pick0].reshape(slots, _K)
        self.features = np.zeros(_K + slots * _K + slots + 1, np.float32)
        """The workbench part of the mover's observation: the pool, the slots' counts, each
        slot's interpretation plus one and the workbench actions of this turn."""
        self._code_at = _K + slots * _K
        self.steps = 0
        self.version = 0
        self.playing = False
        self.changed = False
        self._start_table: tuple[Meld, ...] = ()
        self._start_hand: tuple[Card, ...] = ()
        self._frozen = False
        self.deficit = 0
        self.surplus = 0
        self._first = 0

    # -- loading --------------------------------------------------------------------------
    def load(
        self, table: Sequence[Meld], hand: Sequence[Card], *, frozen: bool, playing: bool
    ) -> None:
        """Start a turn: ``table`` in the first slots, ``hand`` in the pool. ``frozen``: the
        turn-start melds may not change (Rummikub before its opening); ``playing``: a play is
        allowed now."""
        if len(table) > self.slots:
            raise ConfigError(
                f"the table holds {len(table)} melds; the workbench has {self.slots} slots"
            )
        self.counts[:] = 0
        self.sizes[:] = 0
        self.pool[:] = 0
        self.valid[:] = True
        self.frozen[:] = False
        self.codes[:] = -1
        self.assign_ok[:] = 0
        for s in range(self.slots):
            self.items[s] = []
            self.chosen[s] = None
            self.fixed[s] = None
        for c in hand:
            self.pool[c.index] += 1
        for s, meld in enumerate(table):
            kinds = sorted(c.index for c in meld.cards)
            self.items[s] = kinds
            self.sizes[s] = len(kinds)
            for k in kinds:
                self.counts[s, k] += 1
            code = self.book.code_of(meld)
            if code is None:
                self.fixed[s] = meld.normalized(self.book.mr)
            else:
                self.chosen[s] = code
            self.frozen[s] = frozen
            self._refresh(s)
        self.before[:] = self.counts.sum(axis=0)
        self.now[:] = self.before
        self._start_table = tuple(table)
        self._start_hand = tuple(hand)
        self._frozen = frozen
        self.deficit = 0
        self.surplus = 0
        self._first = self._find_first()
        self.steps = 0
        self.playing = playing
        self.changed = False
        self.version += 1
        self.work[:] = 0
        self.fill_mask(self.work)
        f = self.features
        f[:_K] = self.pool
        f[_K : self._code_at] = self.counts.ravel()
        f[self._code_at : -1] = self.codes
        f[self._code_at : -1] += 1
        f[-1] = 0

    def reset(self) -> None:
        """Put the turn-start table and hand back (the turn goes on; the step counts)."""
        steps = self.steps
        self.load(self._start_table, self._start_hand, frozen=self._frozen, playing=self.playing)
        self.steps = steps + 1
        self.features[-1] = self.steps

    # -- one slot -------------------------------------------------------------------------
    def _refresh(self, s: int) -> None:
        items = self.items[s]
        row = self.assign_ok[s]
        row[:] = 0
        if not items:
            self.valid[s] = True
            self.codes[s] = -1
            return
        if self.fixed[s] is not None:
            self.valid[s] = True
            self.codes[s] = -1
            for c, _ in self.book.interpretations(tuple(items)):
                row[c] = 1
            return
        interps = self.book.interpretations(tuple(items))
        if not interps:
            self.valid[s] = False
            self.codes[s] = -1
            return
        code = self.chosen[s]
        if code is None or all(c != code for c, _ in interps):
            code = interps[0][0]
        self.valid[s] = True
        self.codes[s] = code
        for c, _ in interps:
            if c != code:
                row[c] = 1

    def meld(self, s: int) -> Meld | None:
        """The meld slot ``s`` holds under its interpretation (``None``: empty or invalid)."""
        if not self.items[s]:
            return None
        fixed = self.fixed[s]
        if fixed is not None:
            return fixed
        code = int(self.codes[s])
        for c, m in self.book.interpretations(tuple(self.items[s])):
            if c == code:
                return m
        return None

    def first_empty(self) -> int:
        """The lowest empty slot (``-1``: none)."""
        return self._first

    def _find_first(self) -> int:
        items = self.items
        for s in range(self.slots):
            if not items[s]:
                return s
        return -1

    # -- actions --------------------------------------------------------------------------
    @property
    def active(self) -> bool:
        """Workbench actions are allowed now (a play is, and the turn cap is not reached)."""
        return self.playing and self.steps < self.cap

    def _open(self, s: int, first: int) -> bool:
        n = self.sizes[s]
        return s == first or (0 < n < self.book.max_len and not self.frozen[s])

    def _rows(self, s: int, first: int, full: bool) -> None:
        """Recompute slot ``s``'s PLACE row (and with ``full`` its PICK and ASSIGN rows)."""
        p = self.layout
        w = self.work
        at = p.place0 + s * _K
        if self._open(s, first):
            np.greater(self.pool, 0, out=w[at : at + _K])
        else:
            w[at : at + _K] = 0
        if full:
            frozen = self.frozen[s]
            at = p.pick0 + s * _K
            if frozen:
                w[at : at + _K] = 0
            else:
                np.greater(self.counts[s], 0, out=w[at : at + _K])
            at = p.assign0 + s * CODES
            w[at : at + CODES] = 0 if frozen else self.assign_ok[s]

    def _update(self, s: int, k: int, first_before: int) -> None:
        """Bring :attr:`work` and :attr:`features` up to date after slot ``s`` and pool kind
        ``k`` changed."""
        first = self.first_empty()
        pool = self.pool[k]
        f = self.features
        f[k] = pool
        f[_K + s * _K + k] = self.counts[s, k]
        f[self._code_at + s] = self.codes[s] + 1
        if pool == 0:
            self._place[:, k] = 0
        elif pool == 1:
            self._place[:, k] = self._open_vector(first)
        self._rows(s, first, True)
        if first_before not in (s, first) and first_before >= 0:
            self._rows(first_before, first, False)
        if first >= 0 and first != s:
            self._rows(first, first, False)

    def _open_vector(self, first: int) -> npt.NDArray[np.bool_]:
        sizes = self.sizes
        open_ = (sizes > 0) & (sizes < self.book.max_len) & ~self.frozen
        if first >= 0:
            open_[first] = True
        return open_

    def place(self, s: int, k: int) -> None:
        first_before = self.first_empty()
        self.pool[k] -= 1
        self.counts[s, k] += 1
        self.sizes[s] += 1
        items = self.items[s]
        items.append(k)
        items.sort()
        if s == self._first:
            self._first = self._find_first()
        if k != _JK and self.now[k] < self.before[k]:
            self.deficit -= 1
        if self.now[k] >= self.before[k]:
            self.surplus += 1
        self.now[k] += 1
        self.chosen[s] = None
        self.fixed[s] = None
        self._refresh(s)
        self._update(s, k, first_before)
        self._moved()

    def pick(self, s: int, k: int) -> None:
        first_before = self.first_empty()
        self.pool[k] += 1
        self.counts[s, k] -= 1
        self.sizes[s] -= 1
        self.items[s].remove(k)
        if not self.items[s] and (self._first < 0 or s < self._first):
            self._first = s
        self.now[k] -= 1
        if k != _JK and self.now[k] < self.before[k]:
            self.deficit += 1
        if self.now[k] >= self.before[k]:
            self.surplus -= 1
        self.chosen[s] = None
        self.fixed[s] = None
        self._refresh(s)
        self._update(s, k, first_before)
        self._moved()

    def assign(self, s: int, code: int) -> None:
        self.chosen[s] = code
        self.fixed[s] = None
        self._refresh(s)
        self._rows(s, self.first_empty(), True)
        self.features[self._code_at + s] = self.codes[s] + 1
        self._moved()

    def _moved(self) -> None:
        self.steps += 1
        self.features[-1] = self.steps
        self.changed = True
        self.version += 1

    def table(self) -> tuple[Meld, ...] | None:
        """The workbench as a table (``None`` while a slot is not a valid meld)."""
        if not self.valid.all():
            return None
        out: list[Meld] = []
        for s in range(self.slots):
            if self.items[s]:
                m = self.meld(s)
                if m is None:
                    return None
                out.append(m)
        return tuple(out)

    def fill_mask(self, out: Mask) -> None:
        """Write the PLACE, PICK and ASSIGN parts of the mask into ``out`` (a whole mask),
        computed from scratch, as if workbench actions were allowed now (:attr:`active`)."""
        p = self.layout
        sizes = self.sizes
        open_ = (sizes > 0) & (sizes < self.book.max_len)
        frozen = self.frozen
        any_frozen = bool(frozen.any())
        if any_frozen:
            open_ &= ~frozen
        first = self._find_first()
        if first >= 0:
            open_[first] = True
        np.logical_and(
            open_[:, None],
            (self.pool > 0)[None, :],
            out=out[p.place0 : p.pick0].reshape(self.slots, _K),
        )
        pick = out[p.pick0 : p.assign0].reshape(self.slots, _K)
        np.greater(self.counts, 0, out=pick)
        assign = out[p.assign0 :].reshape(self.slots, CODES)
        assign[:] = self.assign_ok
        if any_frozen:
            pick[frozen] = 0
            assign[frozen] = 0


class PrimitiveRummyEnv(RummyEnv):
    """:class:`~openrummy.envs.aec.RummyEnv` with primitive actions (module docstring).

    ``turn_cap``: workbench actions per turn (default ``2·N + S``, N the deck's cards, S the
    slots: enough to take up every table card, lay every card and assign every slot, so every
    legal table stays reachable). ``slots``: meld slots (default ``N // 3``, the most melds a
    table can hold).
    """

    def __init__(
        self,
        preset: str = "rummikub",
        options: Mapping[str, object] | None = None,
        *,
        turn_cap: int | None = None,
        slots: int | None = None,
        max_steps: int = 200_000,
        **kw: object,
    ) -> None:
        super().__init__(preset, options, max_steps=max_steps, **kw)  # type: ignore[arg-type]
        rules = self.rules
        if not isinstance(rules, ManipulationRules):
            raise ConfigError("primitive actions are for the manipulation games")
        deck = int(self._deck.sum())
        n_slots = deck // rules.meld_rules.min_len if slots is None else slots
        cap = 2 * deck + n_slots if turn_cap is None else turn_cap
        if n_slots < 1 or cap < 1:
            raise ConfigError("slots and turn_cap must be at least 1")
        self.bench = Workbench(rules, n_slots, cap)
        self.prim = self.bench.layout
        self.n_actions = self.prim.size
        copies = float(max(self._deck))
        low, high = self.layout.bounds()
        extra_low = np.zeros(_K + n_slots * _K + n_slots + 1, np.float32)
        extra_high = np.concatenate(
            [
                np.full(_K + n_slots * _K, copies, np.float32),
                np.full(n_slots, float(CODES), np.float32),
                np.array([float(cap)], np.float32),
            ]
        )
        self._work_size = extra_low.size
        for a in self.possible_agents:
            self.observation_spaces[a] = gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(
                        np.concatenate([low, extra_low]),
                        np.concatenate([high, extra_high]),
                        dtype=np.float32,
                    ),
                    "action_mask": gymnasium.spaces.Box(0, 1, (self.n_actions,), np.int8),
                }
            )
            self.action_spaces[a] = gymnasium.spaces.Discrete(self.n_actions)
        self._base: dict[int, Floats] = {}
        self._mask_cache: tuple[int, Mask] | None = None
        self._commit: tuple[int, Play | None] | None = None
        self._kinds: frozenset[ActionKind] = frozenset()

    # -- engine side ----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: Mapping[str, object] | None = None) -> None:
        super().reset(seed, options)
        self._reload()

    def play(self, action: Action) -> dict[str, float]:
        """Apply an engine action (see :meth:`RummyEnv.play`) and load the next turn into the
        workbench; an illegal action raises and changes nothing, the workbench included."""
        rewards = super().play(action)
        self._reload()
        return rewards

    def _reload(self) -> None:
        """The engine moved: load the next turn into the workbench."""
        self._base = {}
        self._mask_cache = None
        self._commit = None
        game = self.match.game
        assert isinstance(game, ManipulationGame)
        self._kinds = frozenset() if self.match.is_over else game.legal_kinds()
        playing = ActionKind.PLAY in self._kinds
        seat = game.current
        frozen = not game.opened[seat] and not game.rules.opening.allow_table_play_same_turn
        self.bench.load(game.table, game.hands[seat], frozen=frozen, playing=playing)

    # -- PettingZoo API -------------------------------------------------------------------
    def observe(self, agent: str) -> Observation:
        seat = self.possible_agents.index(agent)
        base = self._base.get(seat)
        if base is None:
            base = encode(self.match.view(seat), self.layout, self._deck)
            self._base[seat] = base
        if not self.match.is_over and seat == self.match.current:
            obs = np.concatenate((base, self.bench.features))
            mask = self.mask().copy()
        else:
            obs = np.concatenate((base, np.zeros(self._work_size, np.float32)))
            mask = np.zeros(self.n_actions, np.int8)
        return {"observation": obs, "action_mask": mask}

    def mask(self) -> Mask:
        """The mask of the seat to move (module docstring)."""
        b = self.bench
        cached = self._mask_cache
        if cached is not None and cached[0] == b.version:
            return cached[1]
        kinds = self._kinds
        mask = b.work.copy() if b.active else np.zeros(self.n_actions, np.int8)
        mask[DRAW] = ActionKind.DRAW in kinds
        mask[PASS] = ActionKind.PASS in kinds
        mask[END] = ActionKind.END in kinds
        mask[TAKE] = ActionKind.TAKE in kinds
        mask[COMMIT] = self.commit_play() is not None
        mask[RESET] = b.playing and b.changed and b.steps < b.cap
        if ActionKind.DISCARD in kinds:
            mask[DISCARD0 : DISCARD0 + _K] = b.pool > 0
        self._mask_cache = (b.version, mask)
        return mask

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = -1 if action is None else int(action)
        mask = self.mask()
        if not 0 <= a < self.n_actions or not mask[a]:
            raise IllegalActionError(Reason.of("env.masked_action", index=a))
        self._cumulative_rewards[agent] = 0.0
        engine = self._engine_action(a)
        if engine is not None:
            self.play(engine)
        else:
            self._work(a)
            self.steps += 1
            for x in self.agents:
                self.rewards[x] = 0.0
            if self.steps >= self.max_steps:
                self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._fill_infos()

    def _engine_action(self, a: int) -> Action | None:
        if a >= self.prim.place0:
            return None
        seat = self.match.current
        if a == DRAW:
            return Draw(seat)
        if a == PASS:
            return Pass(seat)
        if a == END:
            return EndTurn(seat)
        if a == TAKE:
            return TakeDiscard(seat)
        if a == COMMIT:
            play = self.commit_play()
            assert play is not None
            return Play(seat, play.table, play.retrievals)
        if DISCARD0 <= a < DISCARD0 + _K:
            card = self.bench.book.kinds[a - DISCARD0]
            assert card is not None
            return Discard(seat, card)
        return None

    def _work(self, a: int) -> None:
        b = self.bench
        p = self.prim
        if a == RESET:
            b.reset()
        elif a < p.pick0:
            b.place(*divmod(a - p.place0, _K))
        elif a < p.assign0:
            b.pick(*divmod(a - p.pick0, _K))
        else:
            b.assign(*divmod(a - p.assign0, CODES))

    # -- the commit -----------------------------------------------------------------------
    def commit_play(self) -> Play | None:
        """The play COMMIT submits now (in the round's seat numbers), or ``None`` when the
        engine would not accept the workbench (checked by the engine's commit checks, the
        retrievals of jokers left in the pool derived here)."""
        b = self.bench
        cached = self._commit
        if cached is not None and cached[0] == b.version:
            return cached[1]
        play = self._find_commit()
        self._commit = (b.version, play)
        return play

    def _find_commit(self) -> Play | None:
        b = self.bench
        rules = self.rules
        assert isinstance(rules, ManipulationRules)
        if not b.playing or not b.changed or b.deficit:
            return None
        if rules.play.require_hand_card and not b.surplus:
            return None
        table = b.table()
        if table is None:
            return None
        game = self.match.game
        assert isinstance(game, ManipulationGame)
        return find_commit(game, rules, table, b.before, b.now)


def find_commit(
    game: ManipulationGame,
    rules: ManipulationRules,
    table: tuple[Meld, ...],
    before: Ints,
    now: Ints,
) -> Play | None:
    """The play of ``table`` that the engine accepts for the seat to move (``None``: none).

    ``before`` and ``now`` are the table's card counts at turn start and in ``table``: jokers
    taken up from the table and left in the pool are retrievals, and a bounded search looks
    for replacements that the rules allow. The cheap conditions (a play allowed now, the
    workbench changed, no table card missing, a card from the hand) are the caller's.
    """
    seat = game.current
    lifted = int(before[_JK] - now[_JK])
    if lifted <= 0:
        play = Play(seat, table)
        if not game.check_play(play):
            return play
        if rules.joker.mobility is not Mobility.ONLY_VIA_REPLACEMENT:
            return None
    return _with_retrievals(game, rules, table, max(lifted, 0), before, now)


def _with_retrievals(
    game: ManipulationGame,
    rules: ManipulationRules,
    table: tuple[Meld, ...],
    lifted: int,
    before: Ints,
    now: Ints,
    budget: int = 256,
) -> Play | None:
    """A play of ``table`` with retrievals that the engine accepts (a bounded search)."""
    if not rules.joker.retrieval:
        return None
    mr = rules.meld_rules
    placed = {k for k in range(_JK) if now[k] > before[k]}
    on_table = {k for k in range(_JK) if before[k] > 0}
    from_table_ok = rules.joker.replacement_source is ReplacementSource.HAND_OR_TABLE
    options: list[list[Retrieval]] = []
    for i, meld in enumerate(game.table):
        kind = meld.kind(mr)
        naturals = {it.card.suit for it in meld.items if not it.is_wild}
        for it in meld.items:
            if not it.card.is_joker or it.represents is None:
                continue
            ident = it.represents
            assert ident.suit is not None
            suits = [ident.suit]
            if kind is MeldKind.SET and rules.joker.set_suit_flexible:
                suits += [s for s in Suit if s != ident.suit and s not in naturals]
            mine: list[Retrieval] = []
            for s in suits:
                x = Card(ident.rank, s, rules.tiles)
                if x.index in placed:
                    mine.append(Retrieval(i, ident, x))
                if from_table_ok and x.index in on_table:
                    mine.append(Retrieval(i, ident, x, from_table=True))
            if mine:
                options.append(mine)
    tries = 0
    for n in range(max(lifted, 1), len(options) + 1):
        for jokers in itertools.combinations(options, n):
            for combo in itertools.product(*jokers):
                tries += 1
                if tries > budget:
                    return None
                play = Play(game.current, table, tuple(combo))
                if not game.check_play(play):
                    return play
    return None


def plan(env: PrimitiveRummyEnv, table: Sequence[Meld]) -> list[int]:
    """The primitive actions that turn the workbench into ``table`` and commit it.

    Each wanted meld keeps the slot it overlaps most; every card that is in the wrong slot
    is picked up first, then every missing card placed, every slot assigned its
    interpretation, and COMMIT closes the list. The actions are computed on a copy of the
    workbench (from its present state). ``ValueError`` when ``table`` cannot be
    built from the table and the pool (such as a card the seat does not have).
    """
    import copy

    b = copy.deepcopy(env.bench)
    p = b.layout
    mr = b.book.mr
    out: list[int] = []
    wanted = [m.normalized(mr) for m in table]
    want_kinds = [Counter(c.index for c in m.cards) for m in wanted]
    free = set(range(b.slots))
    home: list[int | None] = [None] * len(wanted)
    # Largest overlaps first, each slot used once.
    pairs = sorted(
        (
            (-sum((want_kinds[j] & Counter(b.items[s])).values()), j, s)
            for j in range(len(wanted))
            for s in range(b.slots)
            if b.items[s]
        ),
    )
    for neg, j, s in pairs:
        if neg == 0:
            break
        if home[j] is None and s in free:
            home[j] = s
            free.discard(s)
    keep: dict[int, Counter[int]] = {s: Counter() for s in range(b.slots)}
    for j, h in enumerate(home):
        if h is not None:
            keep[h] = want_kinds[j]
    for s in range(b.slots):
        extra = Counter(b.items[s]) - keep[s]
        for k in sorted(extra.elements()):
            out.append(p.pick(s, k))
            b.pick(s, k)
    for j, m in enumerate(wanted):
        slot = home[j]
        if slot is None:
            slot = b.first_empty()
            if slot < 0:
                raise ValueError("more melds than slots")
            home[j] = slot
        s = slot
        need = want_kinds[j] - Counter(b.items[s])
        for k in sorted(need.elements()):
            if b.pool[k] <= 0:
                raise ValueError(f"card kind {k} is not in the pool")
            out.append(p.place(s, k))
            b.place(s, k)
        if b.meld(s) != m:
            code = next((c for c, x in b.book.interpretations(tuple(b.items[s])) if x == m), None)
            if code is None:
                raise ValueError(f"{m} is not a meld the workbench can express")
            out.append(p.assign(s, code))
            b.assign(s, code)
    out.append(COMMIT)
    return out


ACTION_MODES: Final = ("macro", "primitive")


def make_manipulation_env(
    preset: str, options: Mapping[str, object] | None, name: str, **kw: object
) -> RummyEnv:
    """A manipulation game's environment in ``action_mode`` (a keyword of ``kw``: ``macro``,
    the default, or ``primitive``); :class:`ConfigError` for another mode."""
    mode = kw.pop("action_mode", "macro")
    if mode not in ACTION_MODES:
        raise ConfigError(f"action_mode {mode!r}: use one of {', '.join(ACTION_MODES)}")
    if mode == "primitive":
        return PrimitiveRummyEnv(preset, options, family="manipulation", name=name, **kw)  # type: ignore[arg-type]
    return RummyEnv(preset, options, family="manipulation", name=name, **kw)  # type: ignore[arg-type]
