"""A game record judged decision by decision, each from what its seat knew at the time.

For every action a seat chose, :func:`analyse_record` states the **facts** found by the exact
solvers and estimates the **win chance** before and after the decision by play-outs:

* manipulation games (Robbers' Rummy, Rummikub): the exact best play for the seat's hand and
  the table (:func:`openrummy.solve.best_play`: most cards, then most value) against what was
  played: cards and points left unplaced, a missed opening, a missed going-out;
* Indian Rummy: the draw choice (stock or discard) by the exact expected least deadwood after
  the best throw (the mean over every card the seat has not seen), the throw against the
  best throw (:func:`openrummy.solve.hand.analyse_draw`), a missed declaration, drops.

The win chance "before" is the best of the alternatives tried (what was played, the greedy
bot's choice, the exact best throw or draw), the chance "after" that of what was played, in
the same sampled worlds; the drop between them grades the decision with lichess's thresholds
(:mod:`openrummy.analysis.grades`). A deliberate hold-back that pays in the play-outs is
therefore not called a mistake. A decision with a single sensible option (a forced draw) is
"good" without play-outs.
"""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from openrummy.bots.base import read_view
from openrummy.bots.manipulation_ladder import GreedyBot
from openrummy.cards import Card
from openrummy.errors import RecordError, RummyError
from openrummy.games.actions import (
    Action,
    ActionKind,
    Declare,
    Discard,
    Draw,
    Drop,
    Play,
    TakeDiscard,
    kind_of,
)
from openrummy.games.commit import commit_violations
from openrummy.games.indian import IndianGame, IndianPhase
from openrummy.games.manipulation import ManipulationGame, Phase
from openrummy.games.views import IndianView, ManipulationView
from openrummy.messages import Reason
from openrummy.record import GameRecord
from openrummy.rules import IndianRules, ManipulationRules
from openrummy.solve import best_play
from openrummy.solve.hand import analyse_draw, throw_value

from .grades import Grade, accuracy, grade, mean_accuracy
from .winchance import (
    WinChance,
    indian_after_throw,
    playout,
    sample_indian_world,
    sample_manipulation_world,
    wilson,
)

__all__ = ["AnalysisSettings", "Decision", "GameAnalysis", "analyse_record"]

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class AnalysisSettings:
    """How hard the win-chance estimate works (the facts are exact whatever these are)."""

    samples: int = 8
    """Sampled worlds per decision at least (0: facts only, no win chance, no grades)."""
    max_samples: int = 32
    """Sampled worlds per decision at most: a decision whose alternatives differ gets more
    worlds, 4 at a time, until the drop between them is clear of the grade thresholds (its
    interval falls in one grade) or this many were played out."""
    seed: int = 0
    """The sampling seed: the same seed gives the same estimate."""
    max_turns: int = 30
    """Actions a play-out runs before the round is judged by cards (or deadwood) left."""
    rounds: frozenset[int] | None = None
    """Only these rounds (0 first); ``None``: every round."""
    span: tuple[int, int] | None = None
    """Only the actions ``lo <= index < hi`` (the others are replayed, not judged); ``None``:
    every action. :mod:`openrummy.analysis.parallel` splits a record into spans."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One action a seat chose, judged from that seat's knowledge."""

    index: int
    """The action's index in the record."""
    round: int
    seat: int
    """The match seat that acted."""
    action: str
    """What was played, in the action notation."""
    forced: bool
    """True when there was one sensible option only (nothing to place, draw)."""
    best: str | None = None
    """The exact best alternative (a play, a throw, ``take`` or ``draw``) when it differs."""
    facts: tuple[Reason, ...] = ()
    """What the exact solvers found (unplaced cards, a missed going-out, ...)."""
    before: WinChance | None = None
    after: WinChance | None = None
    grade: Grade | None = None
    accuracy: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "round": self.round,
            "seat": self.seat,
            "action": self.action,
            "forced": self.forced,
            "best": self.best,
            "facts": [f.to_json() for f in self.facts],
            "before": self.before.to_json() if self.before else None,
            "after": self.after.to_json() if self.after else None,
            "grade": self.grade.value if self.grade else None,
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
        }


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """The analysis of a record: every decision, and each player's accuracy."""

    game: str
    players: tuple[str, ...]
    decisions: tuple[Decision, ...]
    finished: bool
    """False when the record stops before the match's end (analysed up to its last action)."""
    actions: int
    settings: AnalysisSettings = field(default_factory=AnalysisSettings)

    def accuracy(self, seat: int) -> float | None:
        """The mean accuracy of ``seat``'s graded decisions (``None``: none graded)."""
        return mean_accuracy(
            d.accuracy for d in self.decisions if d.seat == seat and d.accuracy is not None
        )

    def counts(self, seat: int) -> dict[Grade, int]:
        """How many decisions of ``seat`` got each grade."""
        out = dict.fromkeys(Grade, 0)
        for d in self.decisions:
            if d.seat == seat and d.grade is not None:
                out[d.grade] += 1
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": list(self.players),
            "finished": self.finished,
            "actions": self.actions,
            "samples": self.settings.samples,
            "seed": self.settings.seed,
            "accuracy": [
                None if (a := self.accuracy(s)) is None else round(a, 1)
                for s in range(len(self.players))
            ],
            "grades": [
                {g.value: n for g, n in self.counts(s).items()} for s in range(len(self.players))
            ],
            "decisions": [d.to_json() for d in self.decisions],
        }


# -- the walk through a record ----------------------------------------------------------------
def analyse_record(
    record: GameRecord,
    settings: AnalysisSettings = AnalysisSettings(),
    *,
    progress: Progress | None = None,
) -> GameAnalysis:
    """Judge every decision of ``record`` (see the module docstring).

    Raises :class:`~openrummy.errors.RecordError` for a record whose rules or match cannot be
    built or whose actions do not replay. A record that stops before the match ends is
    analysed up to its last action (``finished`` is False).
    """
    match = record.new_match()
    rules = match.rules
    decisions: list[Decision] = []
    total = len(record.actions)
    for i, action in enumerate(record.actions):
        if progress is not None:
            progress(i, total)
        if match.outcome is not None:
            raise RecordError(f"action {i} comes after the end of the match")
        round_no = match.round_index
        wanted = (settings.rounds is None or round_no in settings.rounds) and (
            settings.span is None or settings.span[0] <= i < settings.span[1]
        )
        game = match.game
        seat = action.seat
        local = match.seats.index(seat) if seat in match.seats else None
        judge: _Judge | None = None
        if wanted and local is not None and kind_of(action) not in _NOT_DECISIONS:
            rng_seed = f"{settings.seed}/{i}"
            action_local = _local(action, local)
            if isinstance(game, ManipulationGame) and isinstance(rules, ManipulationRules):
                judge = _ManipulationJudge(rules, game, local, action_local, settings, rng_seed)
            elif isinstance(game, IndianGame) and isinstance(rules, IndianRules):
                judge = _IndianJudge(rules, game, local, action_local, settings, rng_seed)
        try:
            result = match.apply(action)
        except RummyError as e:
            raise RecordError(f"action {i} (seat {seat}: {action}) does not replay: {e}") from e
        if judge is not None:
            decisions.append(judge.decide(i, round_no, seat, result.accepted))
    if progress is not None:
        progress(total, total)
    return GameAnalysis(
        game=record.game,
        players=tuple(record.players),
        decisions=tuple(decisions),
        finished=match.outcome is not None,
        actions=total,
        settings=settings,
    )


_NOT_DECISIONS = {ActionKind.TIMEOUT, ActionKind.ABANDON, ActionKind.SHOW, None}


def _local(action: Action, local: int) -> Action:
    return dataclasses.replace(action, seat=local)


def _graded(d: Decision, before: WinChance | None, after: WinChance | None) -> Decision:
    if d.forced:
        return Decision(
            d.index,
            d.round,
            d.seat,
            d.action,
            True,
            d.best,
            d.facts,
            before,
            after,
            Grade.GOOD,
            100.0,
        )
    if before is None or after is None:
        return Decision(d.index, d.round, d.seat, d.action, False, d.best, d.facts, before, after)
    return Decision(
        d.index,
        d.round,
        d.seat,
        d.action,
        False,
        d.best,
        d.facts,
        before,
        after,
        grade(before.value, after.value),
        accuracy(before.value, after.value),
    )


class _Judge(ABC):
    """Facts taken before the action is applied; the decision made once its effect is known."""

    @abstractmethod
    def decide(self, index: int, round_no: int, seat: int, accepted: bool) -> Decision:
        """The decision of ``seat`` at action ``index``, once the action was applied."""


Deal = Callable[[int, int], tuple[Any, Action | None] | None]
"""``deal(k, c)``: sampled world ``k`` for candidate ``c`` and the candidate's first action
(``None``: the world already holds it), or ``None`` when no world could be dealt."""

Z = 1.645
"""The paired drop's interval half-width in standard errors (90 %, two-sided) that must fall
in one grade before the sampling stops early."""


def _settled(drops: Sequence[float]) -> bool:
    """Whether the mean of the paired drops is clear of the grade thresholds."""
    n = len(drops)
    mean = sum(drops) / n
    var = sum((d - mean) ** 2 for d in drops) / (n - 1) if n > 1 else 1.0
    half = Z * (var / n) ** 0.5
    lo, hi = max(0.0, mean - half), min(1.0, mean + half)
    return grade(lo, 0.0) is grade(hi, 0.0)


def _estimate(
    deal: Deal, seat: int, candidates: int, settings: AnalysisSettings
) -> list[WinChance] | None:
    """Each candidate's win chance over the same sampled worlds (common random numbers):
    ``settings.samples`` worlds, then 4 more at a time while the drop from the best candidate
    to the first (what was played) is not clear of the grade thresholds, up to
    ``settings.max_samples``. ``None`` if no world was dealt."""
    shares: list[list[float]] = [[] for _ in range(candidates)]
    limit = max(settings.samples, settings.max_samples)
    k = 0
    while k < limit:
        row: list[float] = []
        for c in range(candidates):
            got = deal(k, c)
            if got is None:
                break
            world, first = got
            row.append(playout(world, seat, first, max_turns=settings.max_turns))
        k += 1
        if len(row) == candidates:
            for c, v in enumerate(row):
                shares[c].append(v)
        n = len(shares[0])
        if k < settings.samples or n == 0 or (k - settings.samples) % 4:
            continue
        if candidates == 1:
            break
        means = [sum(v) / n for v in shares]
        best = max(range(candidates), key=lambda c: means[c])
        if best == 0 or _settled([b - a for a, b in zip(shares[0], shares[best], strict=True)]):
            break
    n = len(shares[0])
    if n == 0:
        return None
    return [wilson(sum(v) / n, n) for v in shares]


class _ManipulationJudge(_Judge):
    def __init__(
        self,
        rules: ManipulationRules,
        game: ManipulationGame,
        local: int,
        action: Action,
        settings: AnalysisSettings,
        rng_seed: str,
    ) -> None:
        self.rules = rules
        self.local = local
        self.action = action
        view = game.view(local)
        assert isinstance(view, ManipulationView) and view.hand is not None
        self.view = view
        self.hand = list(view.hand)
        self.table_before = Counter(c for m in view.table for c in m.cards)
        legal = set(view.legal) - {ActionKind.TIMEOUT, ActionKind.ABANDON}
        self.best = None
        if ActionKind.PLAY in legal:
            try:
                self.best = best_play(
                    rules, view.table, self.hand, opened=bool(view.opened[local]), keep_melds=False
                )
            except RummyError:
                self.best = None
        can_place = self.best is not None and self.best.count > 0
        if not can_place:
            legal.discard(ActionKind.PLAY)
        self.forced = len(legal) <= 1
        self.win: tuple[WinChance, WinChance] | None = None
        if not self.forced and settings.samples > 0 and view.phase is Phase.START:
            greedy = self._greedy(rules, view, local)
            candidates: list[Action] = [action]
            if greedy != action:
                candidates.append(greedy)
            worlds: dict[int, ManipulationGame | None] = {}

            def deal(k: int, c: int) -> tuple[Any, Action | None] | None:
                if k not in worlds:
                    rng = random.Random(f"{rng_seed}/{k}")
                    worlds[k] = sample_manipulation_world(rules, view, rng)
                w = worlds[k]
                return None if w is None else (w.copy(), candidates[c])

            got = _estimate(deal, local, len(candidates), settings)
            if got is not None:
                self.win = (max(got, key=lambda w: w.value), got[0])

    def _greedy(self, rules: ManipulationRules, view: ManipulationView, local: int) -> Action:
        """The greedy bot's choice, from the best play already solved when it passes the
        engine's commit checks (the bot's own rule), else from the bot."""
        best = self.best
        if best is not None and best.count > 0:
            pos = read_view(view)
            violations = commit_violations(
                rules,
                table_before=pos.table,
                hand=pos.hand,
                table_after=best.table,
                opened=pos.opened,
                mover=local,
                owners_before=pos.owners,
            )
            if not violations:
                return Play(local, best.table)
        return GreedyBot(rules).choose(view)

    def decide(self, index: int, round_no: int, seat: int, accepted: bool) -> Decision:
        rules, best = self.rules, self.best
        facts: list[Reason] = []
        placed: Counter[Card] = Counter()
        if isinstance(self.action, Play) and accepted:
            after = Counter(c for m in self.action.table for c in m.cards)
            placed = after - self.table_before
        count = sum(placed.values())
        value = sum(rules.penalty_value(c) * n for c, n in placed.items())
        best_text: str | None = None
        better = best is not None and (
            best.count > count or (best.count == count and best.value > value)
        )
        if best is not None and best.count > 0 and better:
            best_text = str(Play(seat, best.table))
            facts.append(
                Reason.of(
                    "analysis.unplaced",
                    count=best.count - count,
                    points=max(0, best.value - value),
                )
            )
            if not self.view.opened[self.local] and count == 0:
                facts.append(Reason.of("analysis.missed_opening", value=best.value))
            if best.count == len(self.hand) and count < len(self.hand):
                facts.append(Reason.of("analysis.missed_out"))
        d = Decision(index, round_no, seat, str(self.action), self.forced, best_text, tuple(facts))
        if self.win is None:
            return _graded(d, None, None)
        return _graded(d, *self.win)


class _IndianJudge(_Judge):
    def __init__(
        self,
        rules: IndianRules,
        game: IndianGame,
        local: int,
        action: Action,
        settings: AnalysisSettings,
        rng_seed: str,
    ) -> None:
        self.rules = rules
        self.local = local
        self.action = action
        view = game.view(local)
        assert isinstance(view, IndianView) and view.hand is not None
        self.view = view
        hand = list(view.hand)
        wilds = rules.wilds(view.indicator)
        self.facts: list[Reason] = []
        self.best: str | None = None
        self.forced = False
        self.win: tuple[WinChance, WinChance] | None = None
        sampling = settings.samples > 0
        candidates: list[Action] = [action]
        self.can_declare = False
        if view.phase is IndianPhase.START:
            legal = view.legal
            top = view.discard_top
            if isinstance(action, Drop):
                self.facts.append(Reason.of("analysis.dropped"))
            if ActionKind.TAKE in legal and top is not None:
                take = throw_value([*hand, top], rules, wilds)
                draw = self._expected_draw(hand, wilds)
                took = isinstance(action, TakeDiscard)
                mine, other = (take.points, draw) if took else (draw, take.points)
                if mine > other + 0.05 and not isinstance(action, Drop):
                    self.best = "draw" if took else "take"
                    self.facts.append(
                        Reason.of(
                            "analysis.draw_worse",
                            action="take" if took else "draw",
                            points=round(mine, 1),
                            value=round(other, 1),
                        )
                    )
                if take.declares and not took:
                    self.facts.append(Reason.of("analysis.missed_take_declare", card=str(top)))
                for alt in (TakeDiscard(local), Draw(local)):
                    if alt not in candidates:
                        candidates.append(alt)
            else:
                self.forced = not (ActionKind.DROP in legal or isinstance(action, Drop))
            if sampling and not self.forced:
                hands: dict[int, IndianGame | None] = {}

                def deal(k: int, c: int) -> tuple[Any, Action | None] | None:
                    if k not in hands:
                        rng = random.Random(f"{rng_seed}/{k}")
                        hands[k] = sample_indian_world(rules, view, rng)
                    w = hands[k]
                    return None if w is None else (w.copy(), candidates[c])

                got = _estimate(deal, local, len(candidates), settings)
                if got is not None:
                    self.win = (max(got, key=lambda w: w.value), got[0])
        elif view.phase is IndianPhase.DISCARD:
            analysis = analyse_draw(hand, rules, wilds)
            allowed = set(hand)
            taken = view.taken
            if taken is not None and not view.may_discard_taken and hand.count(taken) < 2:
                allowed.discard(taken)
            options = [o for o in analysis.options if o.card in allowed]
            best = min(options, key=lambda o: (o.arrangement.points, o.arrangement.raw))
            can_declare = analysis.declare_with is not None
            if isinstance(action, Discard):
                chosen = next((o for o in analysis.options if o.card == action.card), None)
                if can_declare:
                    self.facts.append(
                        Reason.of("analysis.missed_declaration", card=str(analysis.declare_with))
                    )
                    self.best = f"declare {analysis.declare_with}"
                elif chosen is not None and chosen.arrangement.points > best.arrangement.points:
                    self.best = f"discard {best.card}"
                    self.facts.append(
                        Reason.of(
                            "analysis.throw_worse",
                            card=str(action.card),
                            points=chosen.arrangement.points,
                            value=best.arrangement.points,
                            best=str(best.card),
                        )
                    )
                if sampling:
                    cards = [action.card]
                    if best.card != action.card:
                        cards.append(best.card)
                    got = self._throws(cards, settings, rng_seed, local)
                    if got is not None:
                        top_chance = max(got, key=lambda w: w.value)
                        if can_declare:
                            top_chance = WinChance.exact(1.0)
                        self.win = (top_chance, got[0])
            self.can_declare = can_declare

    def _expected_draw(self, hand: list[Card], wilds: Any) -> float:
        from .winchance import _hidden_indian

        unseen = Counter(_hidden_indian(self.rules, self.view))
        total = sum(unseen.values())
        if total == 0:
            return 0.0
        acc = 0.0
        for card, n in unseen.items():
            acc += n * throw_value([*hand, card], self.rules, wilds).points
        return acc / total

    def _throws(
        self, cards: Sequence[Card], settings: AnalysisSettings, rng_seed: str, local: int
    ) -> list[WinChance] | None:
        def deal(k: int, c: int) -> tuple[Any, Action | None] | None:
            rng = random.Random(f"{rng_seed}/{k}")
            w = indian_after_throw(self.rules, self.view, cards[c], rng)
            return None if w is None else (w, None)

        return _estimate(deal, local, len(cards), settings)

    def decide(self, index: int, round_no: int, seat: int, accepted: bool) -> Decision:
        d = Decision(
            index, round_no, seat, str(self.action), self.forced, self.best, tuple(self.facts)
        )
        if isinstance(self.action, Declare):
            # a valid declaration wins the hand; an invalid one is penalised
            if accepted:
                return _graded(d, WinChance.exact(1.0), WinChance.exact(1.0))
            if self.can_declare:
                return _graded(d, WinChance.exact(1.0), WinChance.exact(0.0))
            return _graded(d, None, None)
        if self.win is None:
            return _graded(d, None, None)
        return _graded(d, *self.win)
