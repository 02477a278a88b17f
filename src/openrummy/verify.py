"""Proving a fair deal from a game record: the seed commitment and the whole deal.

A server commits to a secret seed when a game starts by publishing a SHA-256 digest, and
reveals the seed when the game ends. :func:`verify_deal` then checks a record against that
commitment and recomputes the deal from the seed alone:

* the commitment covers the deal terms: the seed, the preset, the option overrides and the
  number of players (scheme ``sha256-deal``; records of the older ``sha256-utf8`` scheme
  commit to the seed only, and the check says so);
* every round's deck is the seed's shuffle under the record's rules, the first dealer is the
  seed's cut, and fields the seed decides (``decks``, ``first_dealer``) may only repeat what
  the seed gives; ``standings`` (which the seed does not decide) are refused;
* the actions replay on a match built from the seed and the rules only, so every card dealt,
  drawn or turned came from the committed seed, every action was legal, and the match ends
  with the recorded result;
* the record is complete (unless an honest partial check is asked for).

    >>> terms = deal_terms("00" * 32, game="robbers", options={}, players=2)
    >>> terms[:40]
    '{"game":"robbers","options":{},"players"'
    >>> deal_commitment("00" * 32, game="robbers", options={}, players=2) == seed_commitment(terms)
    True
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openrummy.errors import RecordError, RummyError
from openrummy.record import GameRecord
from openrummy.rules import preset_names

__all__ = [
    "LEGACY_SCHEME",
    "SCHEME",
    "DealCheck",
    "check_commitment",
    "deal_commitment",
    "deal_terms",
    "scheme_of",
    "seed_commitment",
    "verify_deal",
]

SCHEME = "sha256-deal"
"""SHA-256 (hex) of the UTF-8 text of :func:`deal_terms`: seed, preset, overrides, players."""

LEGACY_SCHEME = "sha256-utf8"
"""SHA-256 (hex) of the seed's text alone: proves the seed, not the preset or options."""


def seed_commitment(text: int | str) -> str:
    """SHA-256 of ``str(text)`` in UTF-8, as 64 hex digits."""
    return hashlib.sha256(str(text).encode("utf-8")).hexdigest()


def deal_terms(seed: int | str, *, game: str, options: Mapping[str, Any], players: int) -> str:
    """The text a ``sha256-deal`` commitment hashes: canonical JSON (sorted keys, no spaces).

    ``game`` is the preset name and ``options`` the overrides exactly as the record writes
    them; ``seed`` is the seed's text.
    """
    terms = {"game": game, "options": dict(options), "players": players, "seed": str(seed)}
    return json.dumps(terms, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def deal_commitment(seed: int | str, *, game: str, options: Mapping[str, Any], players: int) -> str:
    """The ``sha256-deal`` commitment to a game's deal terms."""
    return seed_commitment(deal_terms(seed, game=game, options=options, players=players))


def scheme_of(seed: int | str, digest: str) -> str:
    """Which scheme a stored commitment was made with (the legacy one hashes the seed alone)."""
    return LEGACY_SCHEME if _same(seed_commitment(seed), digest) else SCHEME


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a, b.strip().lower())


def _record_commitment(record: GameRecord, scheme: str) -> str:
    if scheme == LEGACY_SCHEME:
        return seed_commitment(record.seed)
    return deal_commitment(
        record.seed, game=record.game, options=record.options, players=len(record.players)
    )


def check_commitment(record: GameRecord, published: str | None = None) -> tuple[str, str]:
    """Check the revealed seed (and deal terms) against the commitment; ``(digest, scheme)``.

    ``published`` is the commitment the checker saw during play (the safest source); without
    it the one the record carries in ``meta["fairness"]`` is used. Raises
    :class:`RecordError` saying what does not match.
    """
    fair = record.meta.get("fairness") if isinstance(record.meta, dict) else None
    carried = fair.get("commitment") if isinstance(fair, dict) else None
    scheme = fair.get("scheme", SCHEME) if isinstance(fair, dict) else SCHEME
    if published is None and carried is None:
        raise RecordError("the record carries no seed commitment (meta.fairness.commitment)")
    if scheme not in (SCHEME, LEGACY_SCHEME):
        raise RecordError(
            f"unknown commitment scheme {scheme!r} (known: {SCHEME}, {LEGACY_SCHEME})"
        )
    if carried is not None and not isinstance(carried, str):
        raise RecordError("meta.fairness.commitment must be a hex string")
    if published is not None and carried is not None and not _same(carried, published):
        raise RecordError(
            f"the record's commitment {carried} is not the one published ({published.strip()})"
        )
    digest = (published if published is not None else str(carried)).strip().lower()
    if record.seed is None or record.seed == "":
        raise RecordError("the record does not reveal its seed")
    got = _record_commitment(record, scheme)
    if _same(got, digest):
        return digest, scheme
    if scheme == LEGACY_SCHEME:
        raise RecordError(
            f"the seed does not match the commitment: sha256(seed) = {got}, committed {digest}"
        )
    raise RecordError(_deal_mismatch(record, digest, got))


def _deal_mismatch(record: GameRecord, digest: str, got: str) -> str:
    """Say which deal term differs from the committed ones, where that can be found."""
    seed, n = record.seed, len(record.players)
    if _same(seed_commitment(seed), digest):
        return (
            f"the commitment {digest} is sha256 of the seed alone (scheme {LEGACY_SCHEME}), "
            f"not of the deal terms (scheme {SCHEME})"
        )
    for game in preset_names():
        if game != record.game and _same(
            deal_commitment(seed, game=game, options=record.options, players=n), digest
        ):
            return f"game: the record says {record.game!r}, the commitment was made for {game!r}"
    if record.options and _same(
        deal_commitment(seed, game=record.game, options={}, players=n), digest
    ):
        return f"options: the record adds {record.options}, the commitment was made with none"
    for other in range(2, 9):
        if other != n and _same(
            deal_commitment(seed, game=record.game, options=record.options, players=other),
            digest,
        ):
            return f"players: the record has {n}, the commitment was made for {other}"
    return (
        f"the deal terms do not match the commitment: they hash to {got}, committed {digest} "
        "(the seed, the preset, the options or the number of players differ)"
    )


@dataclass(frozen=True, slots=True)
class DealCheck:
    """What :func:`verify_deal` found. ``ok`` only when ``problems`` is empty."""

    commitment: str
    """The commitment checked against ("" when that check failed)."""
    scheme: str
    published: bool
    """Whether the commitment came from the checker (``--commitment``), not from the record."""
    actions: int
    """Actions replayed from the seed."""
    rounds: int
    """Rounds (hands) dealt from the seed."""
    finished: bool
    problems: tuple[str, ...]
    match: Any = None
    """The match replayed from the seed alone (``None`` if it could not be set up)."""

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def partial(self) -> bool:
        """Verified, but the game is not finished: only what was played is proven."""
        return self.ok and not self.finished

    def summary(self) -> list[str]:
        """The verdict in a few lines for people."""
        if not self.ok:
            return [f"not verified: {p}" for p in self.problems]
        source = (
            "the commitment you gave"
            if self.published
            else "the commitment the record carries (give --commitment to check it "
            "against the one published at the start)"
        )
        what = (
            "seed, preset, options and number of players"
            if self.scheme == SCHEME
            else f"seed only (scheme {LEGACY_SCHEME}: the preset and options are not committed)"
        )
        lines = [
            f"verified: {self.commitment} = sha256 of the {what}, {source}",
            f"verified: {self.rounds} deck{'s' if self.rounds != 1 else ''} and the first dealer "
            f"recomputed from the seed; {self.actions} actions replay from them",
        ]
        if self.finished:
            lines.append("verified: the game is complete and ends with the recorded result")
        else:
            lines.append(
                f"PARTIAL: the game is not finished; only its first {self.actions} actions "
                "are verified"
            )
        return lines

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "partial": self.partial,
            "commitment": self.commitment,
            "scheme": self.scheme,
            "published": self.published,
            "actions": self.actions,
            "rounds": self.rounds,
            "finished": self.finished,
            "problems": list(self.problems),
        }


def verify_deal(
    record: GameRecord, published: str | None = None, *, allow_unfinished: bool = False
) -> DealCheck:
    """Check that the record's whole deal follows from its committed seed (module docstring).

    Every problem found is listed (``DealCheck.problems``); a game that is not finished is
    a problem unless ``allow_unfinished``.
    """
    problems: list[str] = []
    digest, scheme = "", SCHEME
    try:
        digest, scheme = check_commitment(record, published)
    except RecordError as e:
        problems.append(str(e))
    if record.standings:
        problems.append(
            "standings: the record starts from given standings, which the seed does not decide"
        )
    seeded = dataclasses.replace(record, decks=None, first_dealer=None)
    try:
        match = seeded.new_match()
    except RecordError as e:
        problems.append(f"rules: {e}")
        return DealCheck(digest, scheme, published is not None, 0, 0, False, tuple(problems))
    if record.first_dealer is not None and record.first_dealer != match.first_dealer:
        problems.append(
            f"first_dealer: the record says seat {record.first_dealer}, "
            f"the seed's cut gives seat {match.first_dealer}"
        )
    decks = record.decks or []
    dealt: list[Sequence[Any]] = [match.game.initial_deck]
    game = match.game
    replayed = 0
    for i, action in enumerate(record.actions):
        try:
            match.apply(action)
        except RummyError as e:
            problems.append(
                f"action {i} (seat {action.seat}: {action}) does not replay from the seed: {e}"
            )
            break
        replayed += 1
        if match.game is not game:
            game = match.game
            dealt.append(game.initial_deck)
    rounds = len(dealt)
    for k, deck in enumerate(decks):
        if k >= rounds:
            problems.append(
                f"decks: round {k + 1}: the record lists a deck for a round that was never dealt"
            )
            continue
        if mismatch := _deck_mismatch(deck, dealt[k]):
            problems.append(f"decks: round {k + 1}: {mismatch}")
    finished = match.outcome is not None and replayed == len(record.actions)
    got = match.outcome.to_json() if match.outcome is not None else None
    if got is not None and record.result is not None:
        # What a newer engine adds to an outcome (such as ``decision``) is not in an older
        # record: compare what the record says.
        got = {k: v for k, v in got.items() if k in record.result}
    if replayed == len(record.actions):
        if record.result is not None and got != record.result:
            problems.append(f"result: {_result_mismatch(record.result, got)}")
        elif record.result is None and got is not None:
            problems.append("result: the record has none, but its actions finish the game")
        elif not finished and not allow_unfinished:
            problems.append(
                f"unfinished: the record stops after {replayed} actions, in round {rounds}, "
                "before the game ends (--allow-unfinished checks what was played)"
            )
    return DealCheck(
        digest,
        scheme,
        published is not None,
        replayed,
        rounds,
        finished,
        tuple(problems),
        match,
    )


def _deck_mismatch(recorded: Sequence[str], seeded: Sequence[Any]) -> str:
    cards = [str(c) for c in seeded]
    if list(recorded) == cards:
        return ""
    if len(recorded) != len(cards):
        return f"the record's deck has {len(recorded)} cards, the seed's {len(cards)}"
    at = next(i for i, (a, b) in enumerate(zip(recorded, cards, strict=True)) if a != b)
    return (
        f"the record's deck differs from the seed's shuffle from card {at + 1} on "
        f"(record {recorded[at]}, seed {cards[at]})"
    )


def _result_mismatch(recorded: Mapping[str, Any], replayed: Mapping[str, Any] | None) -> str:
    if replayed is None:
        return "the record claims a result, but its actions stop before the game ends"
    keys = sorted(set(recorded) | set(replayed))
    diffs = [
        f"{k} recorded {recorded.get(k)!r}, replayed {replayed.get(k)!r}"
        for k in keys
        if recorded.get(k) != replayed.get(k)
    ]
    return "; ".join(diffs)
