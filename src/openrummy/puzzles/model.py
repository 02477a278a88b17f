"""A puzzle as a value: the position, the task, the stored solution and the difficulty.

Puzzles are stored one per line as JSON (``docs/puzzles.md`` shows the fields); their ``id``
is a hash of the position, so the same position generated twice is one puzzle.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Any

from openrummy.cards import Card, parse_cards
from openrummy.errors import NotationError, RummyError
from openrummy.melds import Meld

__all__ = [
    "SHIPPED",
    "Difficulty",
    "Puzzle",
    "PuzzleError",
    "PuzzleKind",
    "dump_puzzles",
    "load_puzzles",
    "shipped_puzzles",
]


class PuzzleError(RummyError):
    """A puzzle file or a puzzle line that cannot be read."""


class PuzzleKind(Enum):
    PLACE_ALL = "place_all"
    """Robbers' Rummy, Rummikub: place every card of the hand, rearranging the table."""
    DECLARE = "declare"
    """Indian: the hand after the draw declares; which card goes, how the rest is grouped."""
    SAFE_THROW = "safe_throw"
    """Indian: exactly one throw leaves the least deadwood; the next best is clearly worse."""
    WINNING_DRAW = "winning_draw"
    """Indian: taking the discard lets the hand declare; the stock rarely would."""


@dataclass(frozen=True, slots=True)
class Difficulty:
    """What makes a puzzle hard, from its solution."""

    steps: int = 0
    """Steps of the solution (:func:`openrummy.solve.explain.explain_steps`)."""
    touched: int = 0
    """Table melds the solution changes."""
    jokers: int = 0
    """Jokers (or wild cards) that move or take a new identity."""
    effort: int = 0
    """Solver effort: the cards the exact search weighs (table and hand)."""

    def rating(self) -> int:
        """The starting Glicko-2 rating of a puzzle with this difficulty (800 to 2600)."""
        raw = 900 + 110 * self.steps + 70 * self.touched + 150 * self.jokers + 6 * self.effort
        return max(800, min(2600, raw))


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle; which fields matter depends on ``kind``."""

    kind: PuzzleKind
    game: str
    """The rules' preset name."""
    hand: tuple[Card, ...]
    table: tuple[Meld, ...] = ()
    solution: tuple[Meld, ...] = ()
    """The table after the solution (place_all) or the declared groups (declare, winning_draw)."""
    card: Card | None = None
    """The card to throw (declare: the finish card; safe_throw: the one throw)."""
    draw: str | None = None
    """winning_draw: ``take`` (the discard) or ``draw`` (the stock)."""
    indicator: Card | None = None
    discard: tuple[Card, ...] = ()
    """Indian: the discard pile, bottom to top."""
    near_miss: tuple[Meld, ...] = ()
    """place_all: the best table that changes no meld (it only adds cards); it places fewer."""
    difficulty: Difficulty = field(default_factory=Difficulty)
    rating: int = 1500
    source: str = ""
    """Where it comes from: ``seed:N`` or a game record's analysis."""

    @property
    def id(self) -> str:
        """A hash of the position (kind, rules, table, hand, indicator, discard pile)."""
        key = json.dumps(
            [
                self.kind.value,
                self.game,
                sorted(str(m) for m in self.table),
                sorted(str(c) for c in self.hand),
                str(self.indicator) if self.indicator else None,
                [str(c) for c in self.discard],
            ]
        )
        return hashlib.sha1(key.encode()).hexdigest()[:12]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind.value,
            "game": self.game,
            "hand": [str(c) for c in self.hand],
        }
        if self.table:
            out["table"] = [str(m) for m in self.table]
        if self.indicator is not None:
            out["indicator"] = str(self.indicator)
        if self.discard:
            out["discard"] = [str(c) for c in self.discard]
        if self.solution:
            out["solution"] = [str(m) for m in self.solution]
        if self.card is not None:
            out["card"] = str(self.card)
        if self.draw is not None:
            out["draw"] = self.draw
        if self.near_miss:
            out["near_miss"] = [str(m) for m in self.near_miss]
        d = self.difficulty
        out["difficulty"] = {
            "steps": d.steps,
            "touched": d.touched,
            "jokers": d.jokers,
            "effort": d.effort,
        }
        out["rating"] = self.rating
        out["source"] = self.source
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Puzzle:
        try:
            d = data.get("difficulty") or {}
            indicator = data.get("indicator")
            card = data.get("card")
            puzzle = cls(
                kind=PuzzleKind(data["kind"]),
                game=str(data["game"]),
                hand=tuple(parse_cards(" ".join(data["hand"]))),
                table=tuple(Meld.parse(m) for m in data.get("table", ())),
                solution=tuple(Meld.parse(m) for m in data.get("solution", ())),
                card=Card.parse(card) if card else None,
                draw=data.get("draw"),
                indicator=Card.parse(indicator) if indicator else None,
                discard=tuple(Card.parse(c) for c in data.get("discard", ())),
                near_miss=tuple(Meld.parse(m) for m in data.get("near_miss", ())),
                difficulty=Difficulty(
                    int(d.get("steps", 0)),
                    int(d.get("touched", 0)),
                    int(d.get("jokers", 0)),
                    int(d.get("effort", 0)),
                ),
                rating=int(data.get("rating", 1500)),
                source=str(data.get("source", "")),
            )
        except (KeyError, ValueError, TypeError, NotationError) as e:
            raise PuzzleError(f"not a puzzle: {e}") from e
        if "id" in data and data["id"] != puzzle.id:
            raise PuzzleError(f"puzzle {data['id']}: its id does not match its position")
        return puzzle


SHIPPED = ("rummikub", "robbers", "indian")
"""The shipped sets (package data ``openrummy/puzzles/data/<name>.jsonl.gz``)."""


def dump_puzzles(puzzles: Iterable[Puzzle], path: str | Path) -> int:
    """Write puzzles as gzip-compressed JSON lines (byte-for-byte reproducible)."""
    n = 0
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz:
        for p in puzzles:
            gz.write((json.dumps(p.to_json(), ensure_ascii=False) + "\n").encode())
            n += 1
    return n


def _read_lines(lines: Iterable[str], where: str) -> Iterator[Puzzle]:
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as e:
            raise PuzzleError(f"{where}, line {no}: not JSON ({e.msg})") from e
        if not isinstance(data, dict):
            raise PuzzleError(f"{where}, line {no}: not a JSON object")
        try:
            yield Puzzle.from_json(data)
        except PuzzleError as e:
            raise PuzzleError(f"{where}, line {no}: {e}") from e


def load_puzzles(path: str | Path) -> list[Puzzle]:
    """Puzzles from a JSON-lines file (``.gz``: compressed)."""
    p = Path(path)
    try:
        if p.suffix == ".gz":
            with gzip.open(p, "rt", encoding="utf-8") as f:
                return list(_read_lines(f, str(p)))
        return list(_read_lines(p.read_text(encoding="utf-8").splitlines(), str(p)))
    except (OSError, EOFError) as e:
        raise PuzzleError(f"cannot read {p}: {e}") from e


def shipped_puzzles(name: str | None = None) -> list[Puzzle]:
    """The shipped puzzles of one set (``rummikub``, ``robbers``, ``indian``) or of all."""
    names = SHIPPED if name is None else (name,)
    out: list[Puzzle] = []
    for n in names:
        if n not in SHIPPED:
            raise PuzzleError(f"no shipped puzzle set {n!r} (sets: {', '.join(SHIPPED)})")
        res = resources.files("openrummy.puzzles").joinpath("data", f"{n}.jsonl.gz")
        with res.open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as f:
            out.extend(_read_lines(f, f"{n}.jsonl.gz"))
    return out
