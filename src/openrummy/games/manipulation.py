"""The manipulation engine: one round of Robbers' Rummy, Rummikub or Vatikan (RULES.md §2–§4).

The engine is pure and deterministic: all chance comes from the seeded RNG given at creation
(or from an explicit stacked deck), all time from the actions' ``at`` stamps or an injected
clock. Nothing else changes a game than :meth:`ManipulationGame.apply`.

    >>> from openrummy.rules import find_preset
    >>> game = ManipulationGame(find_preset("robbers"), players=3, seed=7)
    >>> len(game.hands[0]), game.stock_size, game.current == (game.dealer + 1) % 3
    (13, 69, True)
    >>> result = game.apply(Draw(seat=game.current))
    >>> result.accepted, game.stock_size
    (True, 68)

A play that breaks the rules is a *failure*: under ``fail.mode = PENALIZE`` (the rules) the
table and hand are restored, the player draws the penalty and the turn ends; the result still
carries every violation. Under ``REJECT`` (bots, learning) :class:`PlayRejected` is raised and
nothing changes.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import random
import secrets
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import combinations
from typing import TYPE_CHECKING, cast

from openrummy.cards import Card, Suit, shuffle, standard_deck, tile_set
from openrummy.errors import ConfigError, IllegalActionError
from openrummy.events import Event, EventCode
from openrummy.melds import Meld, MeldRules
from openrummy.messages import Reason
from openrummy.rules.common import FirstDealer, FirstPlayer, ScoringMode
from openrummy.rules.manipulation import (
    FailMode,
    ManipulationRules,
    MeldOwnership,
    OpeningType,
    StalemateScoring,
    StalemateWinner,
    TurnModel,
)

from .actions import (
    Abandon,
    Action,
    ActionKind,
    Discard,
    Draw,
    EndTurn,
    Pass,
    Play,
    TakeDiscard,
    Timeout,
    kind_of,
    parse_action,
)
from .commit import PlayAnalysis, Violation, analyze_play, opening_required
from .jsonvalue import JsonObject
from .legal import LegalActions

if TYPE_CHECKING:
    from .candidates import CandidateMenu
    from .views import ManipulationView

__all__ = [
    "ActionKind",
    "LegalActions",
    "ManipulationGame",
    "Outcome",
    "Phase",
    "PlayPosition",
    "PlayRejected",
    "Result",
    "Termination",
    "cut_for_dealer",
]


@dataclass(frozen=True, slots=True)
class PlayPosition:
    """The part of a round that the commit checks of one seat's play read (RULES.md §2.2),
    in notation: the table with its owners, the seat's hand, whether it has opened (now and
    at the turn's start), whose turn it is.

    ``check_play(rules, play)`` answers exactly what ``ManipulationGame.check_play`` answered
    when the position was taken. It is a few short strings: a server sends it to a worker
    process in microseconds, where the whole game (its stock, its history) takes
    milliseconds to pickle.

    >>> from openrummy.rules import find_preset
    >>> rules = find_preset("robbers")
    >>> game = ManipulationGame(rules, 2, seed=1)
    >>> position = game.play_position(game.current)
    >>> play = Play(game.current, game.table)
    >>> position.check_play(rules, play) == game.check_play(play)
    True
    """

    seat: int
    current: int
    over: bool
    table: tuple[str, ...]
    owners: tuple[int | None, ...]
    hand: tuple[str, ...]
    opened: bool
    opened_before_turn: bool
    turn_started_at: float | None

    def check_play(self, rules: ManipulationRules, play: Play) -> list[Violation]:
        """Every commit check ``play`` would have failed in the position (empty: accepted)."""
        if self.over:
            raise IllegalActionError("the round is over")
        if play.seat != self.seat or play.seat != self.current:
            raise IllegalActionError(f"it is seat {self.current}'s turn, not seat {play.seat}'s")
        elapsed = None
        if play.at is not None and self.turn_started_at is not None:
            elapsed = play.at - self.turn_started_at
        return analyze_play(
            rules,
            table_before=tuple(Meld.parse(m) for m in self.table),
            hand=[Card.parse(c) for c in self.hand],
            table_after=play.table,
            opened=self.opened,
            retrievals=play.retrievals,
            elapsed=elapsed,
            mover=play.seat,
            owners_before=self.owners,
            opened_before_turn=self.opened_before_turn,
        ).violations


class Phase(Enum):
    START = "START"
    """Turn start: play, draw (or take the discard), pass on an empty stock."""
    PLAYED = "PLAYED"
    """Play–draw–play: after the first accepted play (draw once, or end)."""
    DREW = "DREW"
    """Play–draw–play: after the draw (play again, or end)."""
    DISCARD = "DISCARD"
    """Discard-pile variant: after drawing, one card must be discarded."""
    OVER = "OVER"


class Termination(Enum):
    OUT = "OUT"
    """A player emptied the hand ("Aus!", "Rummikub!")."""
    STALEMATE = "STALEMATE"
    """The stock is empty and a full cycle passed without an accepted play (§2.6)."""


class PlayRejected(IllegalActionError):
    """A play refused under ``fail.mode = REJECT``; nothing changed. Its reason holds the
    violations as data (``violations`` keeps them with their rule codes for programs)."""

    def __init__(self, violations: Sequence[Violation]):
        self.violations = tuple(violations)
        super().__init__(Reason.of("play_rejected", violations=tuple(v.why for v in violations)))


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a round ended: who won and every seat's round score."""

    termination: Termination
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    penalties: tuple[int, ...]
    """Penalty value of each hand at the end (before bonuses)."""

    def to_json(self) -> JsonObject:
        return {
            "termination": self.termination.value,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "hands": [[str(c) for c in h] for h in self.hands],
            "penalties": list(self.penalties),
        }


@dataclass(frozen=True, slots=True)
class Result:
    """What :meth:`ManipulationGame.apply` did."""

    action: Action
    accepted: bool
    """False for a failed play (or a timeout/abandon): it was reverted and penalised."""
    violations: tuple[Violation, ...] = ()
    drawn: int = 0
    event: Event = field(default_factory=lambda: Event(EventCode.PASSED))
    """What happened, as data (``str(result.event)`` in English words)."""
    after: tuple[Event, ...] = ()
    """What followed in a match: the round's end, the match's end."""

    @property
    def events(self) -> tuple[Event, ...]:
        return (self.event, *self.after)


_INDIAN_ONLY = frozenset({ActionKind.DROP, ActionKind.DECLARE, ActionKind.SHOW})


def cut_for_dealer(
    rng: random.Random, players: int, rule: FirstDealer, *, tiles: bool = False
) -> int:
    """Who deals first: each player cuts a card; highest (or lowest) deals.

    Aces count low, jokers and ties cut again (RULES.md §3.1, proposal).
    """
    if rule is FirstDealer.RANDOM:
        return rng.randrange(players)
    contenders = list(range(players))
    deck = tile_set() if tiles else standard_deck(1, 0)
    while True:
        pool = deck[:]
        shuffle(rng, pool)
        cuts = {p: pool[i].rank for i, p in enumerate(contenders)}
        best = (max if rule is FirstDealer.HIGH_CUT else min)(cuts.values())
        contenders = [p for p in contenders if cuts[p] == best]
        if len(contenders) == 1:
            return contenders[0]


class ManipulationGame:
    """One round of a manipulation game, from the deal to OUT or STALEMATE.

    Create it with a seed (the deck is shuffled from it), with an explicit ``deck`` in draw
    order (stacked deck, for reproducible scenarios), or with :meth:`from_position`.
    ``clock`` (seconds) is read only to stamp actions that come without ``at``.
    """

    def __init__(
        self,
        rules: ManipulationRules,
        players: int,
        *,
        seed: int | str | None = None,
        deck: Sequence[Card] | None = None,
        dealer: int | None = None,
        clock: Callable[[], float] | None = None,
        started_at: float | None = None,
    ) -> None:
        rules.check_players(players)
        self.rules = rules
        self.players = players
        self.seed: int | str = secrets.randbits(63) if seed is None else seed
        self.clock = clock
        rng = random.Random(self.seed)
        if dealer is None:
            if rules.deal.first_player is FirstPlayer.HIGHEST_TILE:
                dealer = (
                    cut_for_dealer(rng, players, FirstDealer.HIGH_CUT, tiles=True) - 1
                ) % players
            else:
                dealer = cut_for_dealer(rng, players, rules.deal.first_dealer, tiles=rules.tiles)
        if not 0 <= dealer < players:
            raise ConfigError(f"dealer {dealer} is not a seat of a {players}-player game")
        self.dealer = dealer
        full = self.full_deck(rules)
        if deck is None:
            order = full[:]
            rng.shuffle(order)
        else:
            order = list(deck)
            if Counter(order) != Counter(full):
                raise ConfigError(
                    "a stacked deck must hold exactly the game's cards "
                    f"({len(full)} cards, {len(order)} given)"
                )
        self.initial_deck: tuple[Card, ...] = tuple(order)
        size = rules.hand_size(players)
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        for i in range(size * players):
            self.hands[(dealer + 1 + i) % players].append(order[i])
        rest = order[size * players :]
        self._stock: list[Card] = rest[::-1]  # top of the stock is the end of the list
        self.discard_pile: list[Card] = []
        if rules.discard_pile.enabled and self._stock:
            self.discard_pile.append(self._stock.pop())
        self.table: tuple[Meld, ...] = ()
        self.owners: tuple[int | None, ...] = ()
        starts_open = not opening_required(rules)
        self.opened: list[bool] = [starts_open] * players
        self.current = (dealer + 1) % players
        self.phase = Phase.START
        self.pass_count = 0
        self.retrieved: list[int] = [0] * players
        self.history: list[Action] = []
        self.outcome: Outcome | None = None
        self.turn_started_at: float | None = (
            started_at if started_at is not None else (clock() if clock else None)
        )
        self.started_at = self.turn_started_at
        self.last_result: Result | None = None
        self._turn_drew = False
        self._opened_at_turn_start = self.opened[self.current]

    # -- alternative construction ---------------------------------------------------------
    @staticmethod
    def full_deck(rules: ManipulationRules) -> list[Card]:
        if rules.tiles:
            return tile_set(rules.deck.standard_decks, rules.deck.printed_jokers)
        return standard_deck(rules.deck.standard_decks, rules.deck.printed_jokers)

    @classmethod
    def from_position(
        cls,
        rules: ManipulationRules,
        *,
        hands: Sequence[Sequence[Card]],
        table: Sequence[Meld] = (),
        stock: Sequence[Card] = (),
        discard_pile: Sequence[Card] = (),
        opened: Sequence[bool] | None = None,
        current: int = 0,
        owners: Sequence[int | None] | None = None,
        clock: Callable[[], float] | None = None,
        started_at: float | None = None,
    ) -> ManipulationGame:
        """A game in an explicit position (tests, puzzles, the solver's CLI).

        ``stock`` is in draw order (first = top). The cards need not make a full deck, but
        no card may appear more often than the deck holds it.
        """
        players = len(hands)
        game = cls.__new__(cls)
        if not rules.players.min <= players <= rules.players.max:
            rules.check_players(players)
        mr = rules.meld_rules
        for m in table:
            reason = m.check(mr)
            if reason is not None:
                raise ConfigError(f"table meld {m} is not valid: {reason}")
        everything: Counter[Card] = Counter()
        for h in hands:
            everything.update(h)
        for m in table:
            everything.update(m.cards)
        everything.update(stock)
        everything.update(discard_pile)
        full = Counter(cls.full_deck(rules))
        for card, n in everything.items():
            if n > full[card]:
                raise ConfigError(f"the position holds {n} × {card}; the deck has {full[card]}")
        game.rules = rules
        game.players = players
        game.seed = 0
        game.clock = clock
        game.dealer = (current - 1) % players
        game.initial_deck = ()
        game.hands = [list(h) for h in hands]
        game._stock = list(stock)[::-1]
        game.discard_pile = list(discard_pile)
        game.table = tuple(m.normalized(mr) for m in table)
        if rules.meld.ownership is MeldOwnership.OWNED:
            game.owners = tuple(owners) if owners is not None else (None,) * len(table)
        else:
            game.owners = (None,) * len(table)
        game.opened = (
            list(opened) if opened is not None else [not opening_required(rules)] * players
        )
        game.current = current
        game.phase = Phase.START
        game.pass_count = 0
        game.retrieved = [0] * players
        game.history = []
        game.outcome = None
        game.turn_started_at = (
            started_at if started_at is not None else (clock() if clock else None)
        )
        game.started_at = game.turn_started_at
        game.last_result = None
        game._turn_drew = False
        game._opened_at_turn_start = game.opened[current]
        return game

    def copy(self) -> ManipulationGame:
        """An independent copy (for search): cards, melds and rules are immutable values and
        are shared; every list is copied."""
        other = copy.copy(self)
        other.hands = [list(h) for h in self.hands]
        other._stock = list(self._stock)
        other.discard_pile = list(self.discard_pile)
        other.opened = list(self.opened)
        other.retrieved = list(self.retrieved)
        other.history = list(self.history)
        return other

    # -- queries --------------------------------------------------------------------------
    @property
    def stock_size(self) -> int:
        return len(self._stock)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock in draw order (hidden information: never show it to players)."""
        return tuple(reversed(self._stock))

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def all_cards(self) -> Counter[Card]:
        """Every card in every zone (conservation: constant over the round)."""
        c: Counter[Card] = Counter(self._stock)
        c.update(self.discard_pile)
        for h in self.hands:
            c.update(h)
        for m in self.table:
            c.update(m.cards)
        return c

    def legal_actions(self) -> LegalActions:
        """What the player to move may do now (see :class:`~openrummy.games.legal.LegalActions`).

        A play is in it when it passes every commit check; iterating lists every other
        action but ``timeout``; :meth:`candidate_plays` generates valid plays.
        """
        seat = self.current if self.outcome is None else -1
        return LegalActions(seat, self.legal_kinds(), self._listed, self._valid)

    def _listed(self) -> Iterator[Action]:
        kinds = self.legal_kinds()
        s = self.current
        simple: dict[ActionKind, Callable[[], Action]] = {
            ActionKind.DRAW: lambda: Draw(s),
            ActionKind.TAKE: lambda: TakeDiscard(s),
            ActionKind.PASS: lambda: Pass(s),
            ActionKind.END: lambda: EndTurn(s),
            ActionKind.ABANDON: lambda: Abandon(s),
        }
        for kind, make in simple.items():
            if kind in kinds:
                yield make()
        if ActionKind.DISCARD in kinds:
            for card in sorted(set(self.hands[s]), key=Card.sort_key):
                yield Discard(s, card)

    def _valid(self, action: Action) -> bool:
        if not self.is_legal(action):
            return False
        return not isinstance(action, Play) or not self._analyze(action).violations

    def is_legal(self, action: Action) -> bool:
        """True when :meth:`apply` would take ``action`` (it raises exactly when this is False).

        A play that fails the commit checks is legal under ``fail.mode = PENALIZE``: it is
        applied as a failure (reverted, penalty draw). Under ``REJECT`` it is not legal.
        """
        reason = self._illegal(action)
        if reason is not None:
            return False
        if isinstance(action, Play) and self.rules.fail.mode is FailMode.REJECT:
            return not self._analyze(action).violations
        return True

    def candidate_plays(self, limit: int = 20) -> Iterator[Play]:
        """Up to ``limit`` different plays that pass every commit check, the solver's best first.

        After the solver's play (most cards, then most value) come plays that put one new
        meld from the hand on the table or lay one hand card off on a meld, as far as they
        pass the checks. Nothing is generated when no play is allowed now.
        """
        if ActionKind.PLAY not in self.legal_kinds() or limit <= 0:
            return
        from openrummy.errors import RummyError
        from openrummy.solve.table import best_play

        seat = self.current
        hand = self.hands[seat]
        seen: set[Play] = set()

        def fresh(table: Sequence[Meld]) -> Play | None:
            play = Play(seat, tuple(table))
            if play in seen or self._analyze(play).violations:
                return None
            seen.add(play)
            return play

        try:
            best = best_play(
                self.rules, self.table, hand, opened=self.opened[seat], keep_melds=False
            )
        except RummyError:
            best = None
        if best is not None and best.count:
            play = fresh(best.table)
            if play is not None:
                yield play
        must_open = not self.opened[seat] and opening_required(self.rules)
        for table in self.small_tables(opening=must_open):
            if len(seen) >= limit:
                return
            play = fresh(table)
            if play is not None:
                yield play

    def candidate_menu(self, limit: int = 20, *, solver: bool = True) -> CandidateMenu:
        """The plays of :meth:`candidate_plays` as a sequence whose length is known at once;
        the solver's play is searched for only when needed (see
        :mod:`openrummy.games.candidates`). ``solver=False``: the small plays only."""
        from .candidates import CandidateMenu

        return CandidateMenu(self, limit, solver=solver)

    def play_checker(self, seat: int) -> Callable[[Play], bool]:
        """A test of ``seat``'s plays against the commit checks of this position, kept for
        this position (a snapshot: later actions do not change its answers).

        While the game is still at that position, the game remembers what the test found,
        so applying a play that was tested does not check it again (the checks are a pure
        function of the position and the play)."""
        rules = self.rules
        table = self.table
        hand = tuple(self.hands[seat])
        opened = self.opened[seat]
        owners = self.owners
        opened_before = self._opened_at_turn_start
        started = self.turn_started_at
        at = (seat, table, owners, hand, opened, opened_before, started)
        checked: dict[Play, PlayAnalysis] = {}

        def valid(play: Play) -> bool:
            elapsed = None
            if play.at is not None and started is not None:
                elapsed = play.at - started
            analysis = analyze_play(
                rules,
                table_before=table,
                hand=hand,
                table_after=play.table,
                opened=opened,
                retrievals=play.retrievals,
                elapsed=elapsed,
                mover=seat,
                owners_before=owners,
                opened_before_turn=opened_before,
            )
            if self._position(seat) == at:
                checked[play] = analysis
                self._checked = (at, checked)
            return not analysis.violations

        return valid

    _checked: tuple[tuple[object, ...], dict[Play, PlayAnalysis]] | None = None
    """Plays tested by a :meth:`play_checker` and what it found, with the position (see
    :meth:`_position`) they were tested in."""

    def _position(self, seat: int) -> tuple[object, ...]:
        """What the commit checks of ``seat``'s play read of the game (besides the rules)."""
        return (
            seat,
            self.table,
            self.owners,
            tuple(self.hands[seat]),
            self.opened[seat],
            self._opened_at_turn_start,
            self.turn_started_at,
        )

    def small_tables(self, *, opening: bool = False) -> Iterator[tuple[Meld, ...]]:
        """Tables one small step from the current one for the seat to move: a new meld of
        three hand cards, or one lay-off (not yet checked against the commit rules).

        ``opening=True`` (a seat that must still open) leaves out tables that cannot pass
        the opening check C5: every lay-off (it lays no meld from the hand) and, under a
        points opening, every trio whose cards cannot be worth the threshold even at each
        card's highest opening value. The rest come in the same order."""
        mr = self.rules.meld_rules
        hand = sorted(set(self.hands[self.current]), key=Card.sort_key)
        need = 0
        worth = [0] * len(hand)
        if opening and self.rules.opening.type is OpeningType.POINTS:
            need = self.rules.opening.threshold
            worth = [self.rules.opening_bound(c) for c in hand]
        # Only printed jokers are wild here: the naturals of a set share a rank (one card
        # of each suit at most: the hand's kinds are distinct), those of a run a suit and
        # lie within three ranks in a row (K-A-2 counted too: a superset of every ace
        # rule). A trio with the joker (at most one: distinct kinds) pairs it with two
        # such naturals. Trios come in the order of itertools.combinations.
        by_rank: dict[int, list[int]] = {}
        by_suit: dict[object, dict[int, int]] = {}
        joker = -1
        for i, c in enumerate(hand):
            if c.is_joker:
                joker = i
            else:
                by_rank.setdefault(c.rank, []).append(i)
                by_suit.setdefault(c.suit, {})[c.rank] = i
        found: set[tuple[int, ...]] = set()
        for members in by_rank.values():
            found.update(combinations(members, 3))
            if joker >= 0:
                found.update(tuple(sorted((joker, a, b))) for a, b in combinations(members, 2))
        for at in by_suit.values():
            for r, a in at.items():
                near = at.get(r % 13 + 1)
                far = at.get((r + 1) % 13 + 1)
                if near is not None and far is not None:
                    found.add(tuple(sorted((a, near, far))))
                if joker >= 0:
                    for other in (near, far):
                        if other is not None:
                            found.add(tuple(sorted((joker, a, other))))
        trios = list(found)
        trios.sort()
        for i, j, k in trios:
            if need and worth[i] + worth[j] + worth[k] < need:
                continue
            for option in _trio_melds(hand[i], hand[j], hand[k], mr):
                yield (*self.table, option)
        if opening:
            return
        kinds = set(hand)
        tiles = self.rules.tiles
        for i, meld in enumerate(self.table):
            for card, grown_melds in _meld_lay_offs(meld, mr, tiles):
                if card in kinds:
                    for grown in grown_melds:
                        table = list(self.table)
                        table[i] = grown
                        yield tuple(table)

    def legal_kinds(self) -> frozenset[ActionKind]:
        """Every kind of action the player to move may take now (empty once the round is over)."""
        if self.outcome is not None:
            return frozenset()
        stock = bool(self._stock)
        pile = bool(self.discard_pile) and self.rules.discard_pile.enabled
        timer = self.rules.turn.time_limit_s is not None
        kinds: set[ActionKind] = set()
        if self.phase is Phase.START:
            kinds.add(ActionKind.PLAY)
            kinds.add(ActionKind.ABANDON)
            kinds.add(ActionKind.DRAW if stock else ActionKind.PASS)
            if pile:
                kinds.add(ActionKind.TAKE)
        elif self.phase is Phase.PLAYED:
            kinds.add(ActionKind.END)
            if stock:
                kinds.add(ActionKind.DRAW)
        elif self.phase is Phase.DREW:
            kinds.update((ActionKind.PLAY, ActionKind.END, ActionKind.ABANDON))
        elif self.phase is Phase.DISCARD:
            kinds.add(ActionKind.DISCARD)
        if timer:
            kinds.add(ActionKind.TIMEOUT)
        return frozenset(kinds)

    def time_left(self, now: float | None = None) -> float | None:
        limit = self.rules.turn.time_limit_s
        if limit is None or self.turn_started_at is None:
            return None
        if now is None:
            if self.clock is None:
                return None
            now = self.clock()
        return max(0.0, limit - (now - self.turn_started_at))

    def parse_action(self, text: str, seat: int | None = None) -> Action:
        """Read an action in text notation (``"play [5H 6H 7H]"``) for ``seat`` (default: the
        seat to move). ``str(action)`` gives the text back."""
        return parse_action(text, seat=self.current if seat is None else seat)

    def check_play(self, play: Play) -> list[Violation]:
        """Every commit check ``play`` would fail now (empty: it would be accepted)."""
        self._require_turn(play)
        return list(self._analyze(play).violations)

    def can_play(self, play: Play) -> bool:
        return not self.check_play(play)

    def play_position(self, seat: int) -> PlayPosition:
        """What :meth:`check_play` reads of the game for a play of ``seat``, as notation: a
        worker judges a play from it without a copy of the game (see :class:`PlayPosition`)."""
        return PlayPosition(
            seat=seat,
            current=self.current,
            over=self.outcome is not None,
            table=tuple(str(m) for m in self.table),
            owners=tuple(self.owners),
            hand=tuple(str(c) for c in self.hands[seat]),
            opened=bool(self.opened[seat]),
            opened_before_turn=bool(self._opened_at_turn_start),
            turn_started_at=self.turn_started_at,
        )

    def _analyze(self, play: Play) -> PlayAnalysis:
        checked = self._checked
        if checked is not None:
            found = checked[1].get(play)
            if found is not None and checked[0] == self._position(play.seat):
                return found
        elapsed = None
        if play.at is not None and self.turn_started_at is not None:
            elapsed = play.at - self.turn_started_at
        return analyze_play(
            self.rules,
            table_before=self.table,
            hand=self.hands[play.seat],
            table_after=play.table,
            opened=self.opened[play.seat],
            retrievals=play.retrievals,
            elapsed=elapsed,
            mover=play.seat,
            owners_before=self.owners,
            opened_before_turn=self._opened_at_turn_start,
        )

    # -- applying actions -----------------------------------------------------------------
    def apply(self, action: Action) -> Result:
        """Validate and apply ``action``; raise :class:`IllegalActionError` if not allowed now.

        An illegal action changes nothing. A failed play is applied as the rules' failure
        (revert + penalty draw) and reported in the result.
        """
        reason = self._illegal(action)
        if reason is not None:
            raise IllegalActionError(reason)
        kind = kind_of(action)
        assert kind is not None
        if action.at is None and self.clock is not None:
            action = dataclasses.replace(action, at=self.clock())
        handler = getattr(self, f"_do_{kind.value}")
        result: Result = handler(action)
        self.history.append(action)
        self.last_result = result
        return result

    def _require_turn(self, action: Action) -> None:
        reason = self._not_your_turn(action)
        if reason is not None:
            raise IllegalActionError(reason)

    def _not_your_turn(self, action: Action) -> str | None:
        if self.outcome is not None:
            return "the round is over"
        kind = kind_of(action)
        if kind is None or kind in _INDIAN_ONLY:
            return f"{action!r} is not an action of this game"
        if not 0 <= action.seat < self.players:
            return f"there is no seat {action.seat} in a {self.players}-player game"
        if action.seat != self.current:
            return f"it is seat {self.current}'s turn, not seat {action.seat}'s"
        return None

    def _illegal(self, action: Action) -> str | Reason | None:
        """Why ``action`` may not be applied now (``None``: it may; a play's commit checks are
        the failure rule's business, not legality's)."""
        reason = self._not_your_turn(action)
        if reason is not None:
            return reason
        kind = kind_of(action)
        assert kind is not None
        if kind not in self.legal_kinds():
            return self._why_not(kind)
        if isinstance(action, Discard) and action.card not in self.hands[action.seat]:
            return Reason.of("not_in_hand", card=str(action.card))
        if isinstance(action, Timeout):
            limit = self.rules.turn.time_limit_s
            at = action.at if action.at is not None else (self.clock() if self.clock else None)
            if limit is not None and at is not None and self.turn_started_at is not None:
                elapsed = at - self.turn_started_at
                if elapsed < limit:
                    return f"the turn timer has not run out ({limit - elapsed:.1f} s left)"
        return None

    def _why_not(self, kind: ActionKind) -> Reason:
        phase = self.phase
        if kind is ActionKind.DRAW:
            if not self._stock:
                return Reason.of("illegal.stock_empty")
            if phase is Phase.DREW:
                return Reason.of("illegal.drew_already")
            return Reason.of("illegal.turn_over")
        if kind is ActionKind.PASS:
            return Reason.of("illegal.pass_with_stock")
        if kind is ActionKind.TAKE:
            return Reason.of("illegal.no_discard_pile")
        if kind is ActionKind.DISCARD:
            return Reason.of("illegal.discard_after_draw")
        if kind is ActionKind.END:
            return Reason.of("illegal.end_too_early")
        if kind is ActionKind.TIMEOUT:
            return Reason.of("illegal.no_timer")
        if kind is ActionKind.PLAY:
            if phase is Phase.DISCARD:
                return Reason.of("illegal.discard_first")
            return Reason.of("illegal.no_play_now")
        return Reason.of("illegal.not_now", action=kind.value)

    def _do_play(self, play: Play) -> Result:
        seat = play.seat
        analysis = self._analyze(play)
        if analysis.violations:
            if self.rules.fail.mode is FailMode.REJECT:
                raise PlayRejected(analysis.violations)
            return self._fail(play, analysis.violations)
        hand = self.hands[seat]
        for card, n in analysis.placed.items():
            for _ in range(n):
                hand.remove(card)
        hand.extend(analysis.lifted.elements())
        self.table = analysis.table
        self.owners = analysis.owners
        self.retrieved[seat] += analysis.retrieved
        opened_now = False
        if analysis.opens and not self.opened[seat]:
            self.opened[seat] = True
            opened_now = True
        self.pass_count = 0
        event = Event(
            EventCode.OPENED if opened_now else EventCode.PLACED,
            seat,
            placed=sum(analysis.placed.values()),
            value=analysis.opening_value if opened_now else None,
            melds=analysis.opening_melds if opened_now else (),
            retrieved=analysis.retrieved,
            out=not hand,
        )
        if not hand:
            self._finish_out(seat)
            return Result(play, True, event=event)
        if self.rules.turn.model is TurnModel.PLAY_DRAW_PLAY and self.phase is Phase.START:
            self.phase = Phase.PLAYED
        else:
            self._end_turn(play.at)
        return Result(play, True, event=event)

    def _fail(self, action: Action, violations: Sequence[Violation]) -> Result:
        """Failure (§2.5): the table and hand are as at turn start; draw the penalty."""
        seat = action.seat
        stock_was_empty = not self._stock
        n = 0 if self._turn_drew else min(self.rules.fail.penalty_draw, len(self._stock))
        for _ in range(n):
            self.hands[seat].append(self._stock.pop())
        if stock_was_empty:
            self.pass_count += 1
        elif not self._stock:
            self.pass_count = 0
        self._end_turn(action.at)
        code = {Timeout: EventCode.TIMED_OUT, Abandon: EventCode.ABANDONED}.get(
            type(action), EventCode.PLAY_FAILED
        )
        return Result(
            action,
            False,
            tuple(violations),
            drawn=n,
            event=Event(code, seat, violations=tuple(violations), penalty=n),
        )

    def _do_draw(self, action: Draw) -> Result:
        card = self._stock.pop()
        self.hands[action.seat].append(card)
        self._turn_drew = True
        if not self._stock:
            self.pass_count = 0
        if self.rules.discard_pile.enabled:
            self.phase = Phase.DISCARD
        elif self.rules.turn.model is TurnModel.PLAY_DRAW_PLAY:
            self.phase = Phase.DREW
        else:
            self._end_turn(action.at)
        return Result(action, True, drawn=1, event=Event(EventCode.DREW, action.seat))

    def _do_take(self, action: TakeDiscard) -> Result:
        card = self.discard_pile.pop()
        self.hands[action.seat].append(card)
        self._turn_drew = True
        if not self._stock:
            # Taking from the pile with an empty stock places nothing: for the stalemate rule it
            # counts as a pass, or the round could go on for ever (RULES.md §2.6 is silent).
            self.pass_count += 1
        self.phase = Phase.DISCARD
        return Result(
            action, True, drawn=1, event=Event(EventCode.TOOK_DISCARD, action.seat, card=card)
        )

    def _do_discard(self, action: Discard) -> Result:
        hand = self.hands[action.seat]
        hand.remove(action.card)
        self.discard_pile.append(action.card)
        self._end_turn(action.at)
        return Result(action, True, event=Event(EventCode.DISCARDED, action.seat, card=action.card))

    def _do_pass(self, action: Pass) -> Result:
        self.pass_count += 1
        self._end_turn(action.at)
        return Result(action, True, event=Event(EventCode.PASSED, action.seat))

    def _do_end(self, action: EndTurn) -> Result:
        self._end_turn(action.at)
        return Result(action, True, event=Event(EventCode.ENDED_TURN, action.seat))

    def _do_timeout(self, action: Timeout) -> Result:
        limit = self.rules.turn.time_limit_s
        assert limit is not None
        if self.phase in (Phase.PLAYED, Phase.DREW):
            # Nothing is pending: the accepted play stands and the turn simply ends.
            self._end_turn(action.at)
            return Result(action, True, event=Event(EventCode.TIMED_OUT, action.seat))
        if self.phase is Phase.DISCARD:
            # The draw stands; the most recently drawn card is discarded for the player.
            card = self.hands[action.seat][-1]
            self.hands[action.seat].pop()
            self.discard_pile.append(card)
            self._end_turn(action.at)
            return Result(action, True, event=Event(EventCode.TIMED_OUT, action.seat, card=card))
        return self._fail(action, [Violation.of("C8", "time_ran_out", limit=limit)])

    def _do_abandon(self, action: Abandon) -> Result:
        return self._fail(action, [Violation.of("C0", "abandoned")])

    def _end_turn(self, at: float | None) -> None:
        n = self.players
        self.current = (self.current + 1) % n
        self.phase = Phase.START
        self._turn_drew = False
        self._opened_at_turn_start = self.opened[self.current]
        if at is not None:
            self.turn_started_at = at
        if not self._stock and self.pass_count >= n:
            self._finish_stalemate()

    # -- round end and scoring (§3.5, §4.5) -----------------------------------------------
    def penalty(self, seat: int) -> int:
        return sum(self.rules.penalty_value(c) for c in self.hands[seat])

    def _finish_out(self, winner: int) -> None:
        pens = [self.penalty(s) for s in range(self.players)]
        mode = self.rules.scoring.mode
        if mode is ScoringMode.PENALTY_LOW:
            scores = [0 if s == winner else pens[s] for s in range(self.players)]
        elif mode is ScoringMode.ZERO_SUM_HIGH:
            scores = [-pens[s] for s in range(self.players)]
            scores[winner] = sum(pens) - pens[winner]
        else:
            scores = [0] * self.players
        self._set_outcome(Termination.OUT, (winner,), scores, pens)

    def _finish_stalemate(self) -> None:
        n = self.players
        pens = [self.penalty(s) for s in range(n)]
        counts = [len(h) for h in self.hands]
        if self.rules.stalemate.winner_rule is StalemateWinner.FEWEST_CARDS:
            keys = [(counts[s], pens[s]) for s in range(n)]
        else:
            keys = [(pens[s], 0) for s in range(n)]
        best = min(keys)
        winners = tuple(s for s in range(n) if keys[s] == best)
        mode = self.rules.scoring.mode
        sc = self.rules.stalemate.scoring
        if mode is ScoringMode.PENALTY_LOW:
            if sc is StalemateScoring.ALL_COUNT:
                scores = pens[:]
            else:
                scores = [0 if s in winners else pens[s] for s in range(n)]
        elif mode is ScoringMode.ZERO_SUM_HIGH:
            vw = pens[winners[0]]
            scores = [0] * n
            pot = 0
            for s in range(n):
                if s in winners:
                    continue
                diff = pens[s] - vw
                pot += diff
                scores[s] = -(diff if sc is StalemateScoring.ZERO_SUM_DIFFS else pens[s])
            share, extra = divmod(pot, len(winners))
            order = sorted(winners, key=lambda s: (s - self.dealer - 1) % n)
            for k, s in enumerate(order):
                scores[s] = share + (1 if k < extra else 0)
        else:
            scores = [0] * n
        self._set_outcome(Termination.STALEMATE, winners, scores, pens)

    def _set_outcome(
        self, termination: Termination, winners: tuple[int, ...], scores: list[int], pens: list[int]
    ) -> None:
        bonus = self.rules.scoring.joker_retrieval_bonus
        if bonus and self.rules.scoring.mode is ScoringMode.PENALTY_LOW:
            scores = [scores[s] - bonus * self.retrieved[s] for s in range(self.players)]
        self.phase = Phase.OVER
        self.outcome = Outcome(
            termination,
            winners,
            tuple(scores),
            tuple(tuple(h) for h in self.hands),
            tuple(pens),
        )

    # -- views ----------------------------------------------------------------------------
    def view(self, seat: int | None, *, now: float | None = None) -> ManipulationView:
        """What ``seat`` may see (``None``: a spectator, who sees no hand).

        Hidden: other hands, the stock order. Once the round is over, every hand is shown
        (the cards are counted in the open). ``view.to_json()`` is what the server sends.
        """
        from .views import LastAction, ManipulationView

        if seat is not None and not 0 <= seat < self.players:
            raise IllegalActionError(f"there is no seat {seat}")
        last = self.last_result
        return ManipulationView(
            game=self.rules.name,
            seat=seat,
            players=self.players,
            dealer=self.dealer,
            current=self.current,
            phase=self.phase,
            table=self.table,
            hand_sizes=tuple(len(h) for h in self.hands),
            stock=len(self._stock),
            discard_top=self.discard_pile[-1] if self.discard_pile else None,
            discard_size=len(self.discard_pile),
            opened=tuple(self.opened),
            pass_count=self.pass_count,
            retrieved=tuple(self.retrieved),
            time_left=self.time_left(now),
            legal=self.legal_kinds(),
            hand=None if seat is None else tuple(sorted(self.hands[seat], key=Card.sort_key)),
            outcome=self.outcome.to_json() if self.outcome else None,
            owners=self.owners if self.rules.meld.ownership is MeldOwnership.OWNED else None,
            last=None
            if last is None
            else LastAction(
                seat=last.action.seat,
                action=_public_action(last.action),
                accepted=last.accepted,
                violations=tuple(x.to_json() for x in last.violations),
                event=last.event.to_json(),
            ),
        )

    def __repr__(self) -> str:
        return (
            f"<ManipulationGame {self.rules.name} players={self.players} current={self.current} "
            f"phase={self.phase.value} stock={len(self._stock)}>"
        )


@functools.lru_cache(maxsize=65_536)
def _trio_melds(a: Card, b: Card, c: Card, mr: MeldRules) -> tuple[Meld, ...]:
    """The valid melds of three cards (their jokers given every identity that fits), each
    in normal form: the new melds of :meth:`ManipulationGame.small_tables`, remembered
    (a hand keeps most of its trios from turn to turn)."""
    meld = Meld.of((a, b, c))
    options = meld.assignments(mr) if a.is_joker or b.is_joker or c.is_joker else [meld]
    return tuple(option.normalized(mr) for option in options if option.is_valid(mr))


@functools.lru_cache(maxsize=16_384)
def _meld_lay_offs(
    meld: Meld, mr: MeldRules, tiles: bool
) -> tuple[tuple[Card, tuple[Meld, ...]], ...]:
    """Every natural card (tiles or cards) that can be laid off on ``meld``, in hand order
    (:meth:`Card.sort_key`), with the melds it makes (:func:`_lay_offs`); remembered, as
    table melds stay for many turns."""
    ranks = {it.identity.rank for it in meld.items}
    suits = {it.identity.suit for it in meld.items}
    # the cards :func:`_lay_offs` looks at: the set's rank in a suit none of its naturals
    # has, the run's suit at a rank next to one of its ranks (K-A counts) that it does
    # not hold (a natural that repeats a set's suit or a run's rank makes no meld, but
    # for the second ace of A-2-...-K-A under ``ace_both_ends``)
    fits: set[tuple[Suit, int]] = set()
    if len(ranks) == 1:
        (rank,) = ranks
        taken = {it.card.suit for it in meld.items if not it.is_wild}
        fits.update((suit, rank) for suit in Suit if suit not in taken)
    if len(suits) == 1 and None not in suits:
        suit = cast(Suit, next(iter(suits)))
        near = {r % 13 + 1 for r in ranks} | {(r + 11) % 13 + 1 for r in ranks}
        held = ranks - {1} if mr.ace_both_ends else ranks
        fits.update((suit, r) for r in (range(1, 14) if len(ranks) == 1 else near - held))
    out: list[tuple[Card, tuple[Meld, ...]]] = []
    for suit, rank in sorted(fits):
        card = Card(rank, suit, tiles)
        grown = _lay_offs(meld, card, mr)
        if grown:
            out.append((card, grown))
    return tuple(out)


def _lay_offs(meld: Meld, card: Card, mr: MeldRules) -> tuple[Meld, ...]:
    """``meld`` grown by the natural ``card`` at its end, then at its start, where that is a
    valid meld, in normal form (the lay-offs of :meth:`ManipulationGame.small_tables`;
    :func:`_meld_lay_offs` remembers them per meld)."""
    from openrummy.melds import MeldItem

    ranks = {it.identity.rank for it in meld.items}
    suits = {it.identity.suit for it in meld.items}
    if card.is_joker or (ranks != {card.rank} and suits != {card.suit}):
        return ()
    # a run grows only by a rank next to one of its ranks (K-A counts)
    if (
        len(ranks) > 1
        and card.rank % 13 + 1 not in ranks
        and (card.rank + 11) % 13 + 1 not in ranks
    ):
        return ()
    out: list[Meld] = []
    for grown in (
        Meld((*meld.items, MeldItem.natural(card))),
        Meld((MeldItem.natural(card), *meld.items)),
    ):
        if grown.is_valid(mr):
            out.append(grown.normalized(mr))
    return tuple(out)


def _public_action(action: Action) -> str:
    """An action as others may see it (plays and discards are public; draws are not)."""
    return str(action)
