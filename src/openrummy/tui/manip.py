"""A manipulation turn being built (Robbers' Rummy, Rummikub, Vatikan), with no screen.

The player takes the table apart and puts it together again; the turn is one transaction,
the complete new table plus any joker swaps (RULES.md §2.1), sent as one ``play`` action.
Every card keeps an id of its own while it moves, so the cursor and the selection follow the
physical card. Each change is judged by :func:`openrummy.games.judge.check_table` (meld by
meld, then the commit checks C1-C8); the app only draws what this model says.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from openrummy.cards import Card
from openrummy.games.actions import Play
from openrummy.games.judge import PlayChecker, TableCheck, check_table
from openrummy.games.views import ManipulationView
from openrummy.melds import Meld, MeldItem
from openrummy.rules import ManipulationRules

__all__ = ["Item", "ManipTurn", "WorkMeld"]


@dataclass(slots=True)
class Item:
    """One physical card of the turn: where it started and what a joker stands for."""

    id: str
    card: Card
    ident: Card | None = None
    origin: str = "hand"
    """``hand`` or ``table``."""
    start_meld: int | None = None
    start_ident: Card | None = None
    retrieved: bool = False

    def token(self) -> str:
        if self.card.is_joker and self.ident is not None:
            return f"{self.card}={self.ident}"
        return str(self.card)


@dataclass(slots=True)
class WorkMeld:
    id: str
    items: list[Item] = field(default_factory=list)

    def text(self) -> str:
        return "[" + " ".join(it.token() for it in self.items) + "]"


@dataclass(slots=True)
class _Snapshot:
    melds: list[WorkMeld]
    hand: list[Item]
    retrievals: list[tuple[str, str]]


class ManipTurn:
    """The table and hand of one seat while it builds a turn; undo, reset, joker swaps."""

    def __init__(self, rules: ManipulationRules, lang: str = "en") -> None:
        self.rules = rules
        self.lang = lang
        self.melds: list[WorkMeld] = []
        self.hand: list[Item] = []
        self.retrievals: list[tuple[str, str]] = []
        """(joker id, notation ``i:X<-Y``) of each swap made this turn."""
        self.selected: set[str] = set()
        self._start = _Snapshot([], [], [])
        self._undo: list[_Snapshot] = []
        self._next = 0
        self._check: tuple[tuple[str, ...], TableCheck] | None = None
        self.fresh_melds: set[str] = set()
        """Melds new or changed since this seat last saw the table (the others' moves)."""

    # -- from the engine's view ----------------------------------------------------------------
    def load(self, view: ManipulationView, previous: tuple[Meld, ...] | None = None) -> None:
        """Start a turn (or refresh between turns) from the seat's view, keeping the order the
        player gave the hand; ``previous`` is the table as the seat last saw it."""
        old = [it for it in self._start.hand if it.origin == "hand"]
        pool = list(view.hand or ())
        hand: list[Item] = []
        for it in old:
            if it.card in pool:
                pool.remove(it.card)
                hand.append(Item(it.id, it.card))
        hand.extend(Item(self._id("h"), c) for c in pool)
        melds: list[WorkMeld] = []
        for m, meld in enumerate(view.table):
            items = [
                Item(
                    f"t{m}.{k}",
                    it.card,
                    ident=it.represents if it.card.is_joker else None,
                    origin="table",
                    start_meld=m,
                    start_ident=it.represents if it.card.is_joker else None,
                )
                for k, it in enumerate(meld.items)
            ]
            melds.append(WorkMeld(f"m{m}", items))
        seen = {str(m) for m in previous} if previous is not None else None
        self.fresh_melds = (
            {f"m{m}" for m, meld in enumerate(view.table) if str(meld) not in seen}
            if seen is not None
            else set()
        )
        self._start = _Snapshot(melds, hand, [])
        self.reset()

    def _id(self, prefix: str) -> str:
        self._next += 1
        return f"{prefix}{self._next}"

    # -- state ---------------------------------------------------------------------------------
    def _snapshot(self) -> _Snapshot:
        return _Snapshot(copy.deepcopy(self.melds), copy.deepcopy(self.hand), list(self.retrievals))

    def _restore(self, snap: _Snapshot) -> None:
        self.melds = copy.deepcopy(snap.melds)
        self.hand = copy.deepcopy(snap.hand)
        self.retrievals = list(snap.retrievals)
        self.selected.clear()

    def _step(self) -> None:
        """Remember the turn before a change (for Undo)."""
        self._undo.append(self._snapshot())

    def reset(self) -> None:
        """Back to the table and hand the turn started with."""
        self._restore(self._start)
        self._undo.clear()

    def undo(self) -> bool:
        """Take back the last step; False when there is none."""
        if not self._undo:
            return False
        self._restore(self._undo.pop())
        return True

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def dirty(self) -> bool:
        return self.table_texts() != tuple(m.text() for m in self._start.melds) or bool(
            self.retrievals
        )

    def find(self, item_id: str) -> tuple[Item, WorkMeld | None] | None:
        for m in self.melds:
            for it in m.items:
                if it.id == item_id:
                    return it, m
        for it in self.hand:
            if it.id == item_id:
                return it, None
        return None

    def meld(self, meld_id: str) -> WorkMeld | None:
        return next((m for m in self.melds if m.id == meld_id), None)

    def toggle(self, item_id: str) -> None:
        if item_id in self.selected:
            self.selected.discard(item_id)
        elif self.find(item_id) is not None:
            self.selected.add(item_id)

    # -- building ------------------------------------------------------------------------------
    def move(self, ids: list[str], target: str) -> str | None:
        """Move cards to ``hand``, ``new`` (a new meld) or a meld's id; the ui key of why not,
        or ``None`` when they moved."""
        found = [f for f in (self.find(i) for i in ids) if f is not None]
        if not found:
            return "ui.nothing_selected"
        if target == "hand" and any(it.origin == "table" and not it.retrieved for it, _ in found):
            return "ui.table_stays"
        dest_meld = None if target in ("hand", "new") else self.meld(target)
        if target not in ("hand", "new") and dest_meld is None:
            return "ui.no_such_meld"
        self._step()
        for it, m in found:
            (m.items if m is not None else self.hand).remove(it)
            if it.card.is_joker and m is not dest_meld:
                it.ident = None
        if target == "hand":
            self.hand.extend(it for it, _ in found)
        elif target == "new":
            self.melds.append(WorkMeld(self._id("n"), [it for it, _ in found]))
        else:
            assert dest_meld is not None
            dest_meld.items.extend(it for it, _ in found)
            self._order(dest_meld)
        self.melds = [m for m in self.melds if m.items]
        self.selected.clear()
        return None

    def _order(self, meld: WorkMeld) -> None:
        """Sort a meld's natural cards by rank when they form a run of one suit (jokers keep
        their place among them by identity), so moved cards land where they belong."""
        naturals = [it for it in meld.items if not it.card.is_joker]
        if not naturals or len({it.card.suit for it in naturals}) != 1:
            return
        if any(it.card.is_joker and it.ident is None for it in meld.items):
            return

        def rank(it: Item) -> int:
            card = it.ident if it.card.is_joker and it.ident is not None else it.card
            return card.rank

        meld.items.sort(key=rank)

    def split(self, meld_id: str, at: int) -> bool:
        """Split a meld before its ``at``-th card: the tail becomes a meld of its own."""
        m = self.meld(meld_id)
        if m is None or not 0 < at < len(m.items):
            return False
        self._step()
        tail = m.items[at:]
        del m.items[at:]
        self.melds.insert(self.melds.index(m) + 1, WorkMeld(self._id("n"), tail))
        self.selected.clear()
        return True

    def join(self, meld_id: str) -> bool:
        """Join a meld with the next one on the table."""
        m = self.meld(meld_id)
        if m is None:
            return False
        k = self.melds.index(m)
        if k + 1 >= len(self.melds):
            return False
        self._step()
        m.items.extend(self.melds.pop(k + 1).items)
        self._order(m)
        return True

    def swap(self, natural_id: str, joker_id: str) -> str | None:
        """Swap a table joker for the natural it stands for (RULES.md §2.4): the natural takes
        its place, the joker comes to the hand to be played again. The ui key of why not, or
        ``None``; the engine still judges the swap as part of the play."""
        j = self.find(joker_id)
        n = self.find(natural_id)
        if j is None or n is None:
            return "ui.swap_pick"
        joker, jmeld = j
        natural, nmeld = n
        if not joker.card.is_joker or natural.card.is_joker or jmeld is None:
            return "ui.swap_pick"
        if joker.origin != "table" or joker.start_meld is None or joker.start_ident is None:
            return "ui.swap_pick"
        if natural.card != joker.start_ident and not self._fits_set(jmeld, natural.card, joker):
            return "ui.swap_mismatch"
        self._step()
        (nmeld.items if nmeld is not None else self.hand).remove(natural)
        jmeld.items[jmeld.items.index(joker)] = natural
        src = "@table" if natural.origin == "table" else ""
        text = f"{joker.start_meld}:{joker.start_ident}<-{natural.card}{src}"
        joker.ident = None
        joker.retrieved = True
        self.hand.append(joker)
        self.retrievals.append((joker.id, text))
        self.melds = [m for m in self.melds if m.items]
        self.selected.clear()
        return None

    @staticmethod
    def _fits_set(meld: WorkMeld, card: Card, joker: Item) -> bool:
        """In a set, a joker may be replaced by any missing suit of its rank."""
        ident = joker.start_ident
        naturals = [it.card for it in meld.items if not it.card.is_joker]
        if ident is None or card.rank != ident.rank or not naturals:
            return False
        return all(c.rank == ident.rank for c in naturals) and card.suit not in {
            c.suit for c in naturals
        }

    def choose_identity(self, meld_id: str, meld: Meld) -> bool:
        """Give a meld's jokers the identities of ``meld`` (one of the check's choices)."""
        m = self.meld(meld_id)
        if m is None or len(meld) != len(m.items):
            return False
        jokers = [it for it in m.items if it.card.is_joker]
        idents = [mi for mi in meld.items if mi.card.is_joker]
        if len(jokers) != len(idents):
            return False
        self._step()
        by_card: dict[str, list[Item]] = {}
        for it in m.items:
            by_card.setdefault(str(it.card), []).append(it)
        ordered: list[Item] = []
        for mi in meld.items:
            it = by_card[str(mi.card)].pop(0)
            if it.card.is_joker:
                it.ident = mi.represents
            ordered.append(it)
        m.items = ordered
        return True

    def apply_play(self, play: Play) -> None:
        """Lay out a whole play (the Hint): its table from the cards in the turn, as one step."""
        self._step()
        pool: dict[str, list[Item]] = {}
        for it in [*self._start.hand, *(i for m in self._start.melds for i in m.items)]:
            pool.setdefault(str(it.card), []).append(copy.copy(it))
        melds: list[WorkMeld] = []
        for k, meld in enumerate(play.table):
            items: list[Item] = []
            for mi in meld.items:
                # Prefer the card that already sat in this meld, then any other.
                cands = pool[str(mi.card)]
                pick = next((c for c in cands if c.start_meld == k), cands[0])
                cands.remove(pick)
                if pick.card.is_joker:
                    pick.ident = mi.represents
                items.append(pick)
            start = self._start.melds[k].id if k < len(self._start.melds) else self._id("n")
            melds.append(WorkMeld(start, items))
        self.melds = melds
        self.hand = [it for items in pool.values() for it in items]
        self.retrievals = []
        self.selected.clear()

    # -- the transaction -----------------------------------------------------------------------
    def table_texts(self) -> tuple[str, ...]:
        return tuple(m.text() for m in self.melds)

    def hand_only(self) -> list[bool]:
        return [all(it.origin == "hand" for it in m.items) for m in self.melds]

    def play_text(self) -> str:
        text = "play " + (" ".join(self.table_texts()) or "[]")
        if self.retrievals:
            text += " retrieve " + " ".join(r for _, r in self.retrievals)
        return text

    def check(
        self, *, opened: bool, game: PlayChecker | None = None, seat: int | None = None
    ) -> TableCheck:
        """The engine's judgement of the table as it stands (cached per table); identities
        the engine found as the only ones that fit are adopted."""
        key = (*self.table_texts(), *(r for _, r in self.retrievals), str(opened))
        if self._check is not None and self._check[0] == key:
            return self._check[1]
        result = check_table(
            self.rules,
            list(self.table_texts()),
            opened=opened,
            hand_only=self.hand_only(),
            retrievals=[r for _, r in self.retrievals],
            game=game,
            seat=seat,
        )
        for m, mc in zip(self.melds, result.melds, strict=True):
            if mc.valid and mc.meld != m.text():
                self._adopt(m, Meld.parse(mc.meld))
        key = (*self.table_texts(), *(r for _, r in self.retrievals), str(opened))
        self._check = (key, result)
        return result

    def _adopt(self, m: WorkMeld, meld: Meld) -> None:
        """Take the engine's order and joker identities for a valid meld."""
        by_card: dict[str, list[Item]] = {}
        for it in m.items:
            by_card.setdefault(str(it.card), []).append(it)
        ordered: list[Item] = []
        for mi in meld.items:
            cands = by_card.get(str(mi.card))
            if not cands:
                return
            it = cands.pop(0)
            if it.card.is_joker:
                it.ident = mi.represents
            ordered.append(it)
        m.items = ordered

    def meld_items(self, m: WorkMeld) -> list[MeldItem]:
        return [MeldItem.parse(it.token()) for it in m.items]
