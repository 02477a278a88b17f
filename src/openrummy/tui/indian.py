"""An Indian Rummy hand as the player arranges it, with no screen.

The player sorts the hand into groups (the melds they mean to show) and loose cards; the
engine's :func:`openrummy.games.judge.judge_hand` says which groups are melds, what the
deadwood would cost, the solver's own grouping (Auto-arrange) and, before a declaration,
whether it would be valid with the chosen finish card.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from openrummy.cards import Card
from openrummy.games.judge import HandJudgement, judge_hand
from openrummy.games.views import IndianView
from openrummy.rules import IndianRules

__all__ = ["HandCard", "IndianHand"]


@dataclass(slots=True)
class HandCard:
    id: str
    card: Card


@dataclass(slots=True)
class IndianHand:
    """The hand in the player's groups; ``loose`` are the cards in no group."""

    rules: IndianRules
    groups: list[list[HandCard]] = field(default_factory=list)
    loose: list[HandCard] = field(default_factory=list)
    selected: set[str] = field(default_factory=set)
    indicator: Card | None = None
    _next: int = 0
    _judged: tuple[tuple[object, ...], HandJudgement] | None = None

    def load(self, view: IndianView) -> None:
        """Follow the view's hand: cards that left are taken out, new ones join the loose
        cards, the rest keep their groups."""
        self.indicator = view.indicator
        pool = list(view.hand or ())
        groups: list[list[HandCard]] = []
        for g in self.groups:
            kept = []
            for hc in g:
                if hc.card in pool:
                    pool.remove(hc.card)
                    kept.append(hc)
            if kept:
                groups.append(kept)
        loose = []
        for hc in self.loose:
            if hc.card in pool:
                pool.remove(hc.card)
                loose.append(hc)
        for c in pool:
            self._next += 1
            loose.append(HandCard(f"c{self._next}", c))
        self.groups, self.loose = groups, loose
        self.selected &= {hc.id for hc in self.cards()}

    def cards(self) -> list[HandCard]:
        return [hc for g in self.groups for hc in g] + self.loose

    def find(self, card_id: str) -> HandCard | None:
        return next((hc for hc in self.cards() if hc.id == card_id), None)

    def toggle(self, card_id: str) -> None:
        if card_id in self.selected:
            self.selected.discard(card_id)
        elif self.find(card_id) is not None:
            self.selected.add(card_id)

    def _take(self, ids: set[str]) -> list[HandCard]:
        taken = [hc for hc in self.cards() if hc.id in ids]
        self.groups = [[hc for hc in g if hc.id not in ids] for g in self.groups]
        self.groups = [g for g in self.groups if g]
        self.loose = [hc for hc in self.loose if hc.id not in ids]
        return taken

    def group_selected(self) -> bool:
        """The selected cards become a group of their own."""
        if not self.selected:
            return False
        taken = self._take(set(self.selected))
        self.groups.append(sorted(taken, key=lambda hc: hc.card.sort_key()))
        self.selected.clear()
        return True

    def ungroup(self, card_ids: set[str]) -> bool:
        """Cards back to the loose ones."""
        if not card_ids:
            return False
        self.loose.extend(self._take(card_ids))
        self.selected.clear()
        return True

    def auto_arrange(self, judgement: HandJudgement) -> bool:
        """Take the solver's grouping (``judge(auto=True).auto``)."""
        auto = judgement.auto
        if auto is None:
            return False
        pool = self.cards()
        groups: list[list[HandCard]] = []
        for g in auto.groups:
            group: list[HandCard] = []
            for c in g:
                hc = next(h for h in pool if h.card == c)
                pool.remove(hc)
                group.append(hc)
            groups.append(group)
        self.groups, self.loose = groups, pool
        self.selected.clear()
        return True

    def group_texts(self) -> list[list[str]]:
        return [[str(hc.card) for hc in g] for g in self.groups]

    def judge(self, *, finish: Card | None = None, auto: bool = False) -> HandJudgement:
        """The engine's judgement of the groups (cached per grouping)."""
        assert self.indicator is not None
        key = (tuple(map(tuple, self.group_texts())), tuple(str(h.card) for h in self.loose))
        full = (*key, str(finish), auto)
        if self._judged is not None and self._judged[0] == full:
            return self._judged[1]
        groups = self.group_texts()
        if finish is not None and self.loose:
            # The declaration shows the loose cards as one more group (see declare_text).
            groups = [*groups, [str(hc.card) for hc in self.loose]]
        result = judge_hand(
            self.rules,
            [hc.card for hc in self.cards()],
            self.indicator,
            groups=groups,
            finish=str(finish) if finish is not None else None,
            auto=auto,
        )
        self._judged = (full, result)
        return result

    def declare_text(self, finish: HandCard) -> str:
        """The declaration: ``finish`` face down, the other cards shown in their groups (the
        loose cards as one group, which the engine judges)."""
        groups = [[hc for hc in g if hc.id != finish.id] for g in self.groups]
        loose = [hc for hc in self.loose if hc.id != finish.id]
        shown = [g for g in groups if g] + ([loose] if loose else [])
        body = " ".join("[" + " ".join(str(hc.card) for hc in g) + "]" for g in shown)
        return f"declare {finish.card} {body}".strip()
