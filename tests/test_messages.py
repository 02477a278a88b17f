"""The message catalogue: every event code and reason has words in English and German, and
every template names only parameters its message carries."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

import openrummy
from helpers import indian_rules, manipulation_rules
from openrummy.bots import make_bot, play_match
from openrummy.events import Event, EventCode, Violation
from openrummy.games.families import new_match
from openrummy.messages import LANGS, Reason, catalogue, placeholders, render
from openrummy.rules import find_preset

CAT = catalogue()

SAMPLES: dict[str, Any] = {
    "seat": 1,
    "seats": [0, 2],
    "card": "7H",
    "cards": ["7H", "JK"],
    "meld": "[5H 6H JK=7H]",
    "melds": ["[AS AH AD]", "[JC QC KC]"],
    "number": 3,
    "text": "3-5-6-7",
    "flag": True,
    "message": {"reason": "meld.run_too_short", "count": 3},
    "messages": [{"code": "C4", "reason": "no_hand_card"}, {"code": "C6", "reason": "abandoned"}],
}
WORD_SAMPLES = {"stage": "middle", "into": "new_meld_2", "step": "step.split"}


def sample(params: list[str], number: int = 3) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for p in params:
        kind = CAT["params"][p]
        if kind == "word":
            out[p] = WORD_SAMPLES[p]
        elif kind == "number":
            out[p] = number
        else:
            out[p] = SAMPLES[kind]
    return out


def entries() -> list[tuple[str, str, dict[str, Any]]]:
    return [("events", k, e) for k, e in CAT["events"].items()] + [
        ("reasons", k, e) for k, e in CAT["reasons"].items()
    ]


def test_every_event_code_has_an_entry_and_every_entry_a_code() -> None:
    assert set(CAT["events"]) == {c.value for c in EventCode}


@pytest.mark.parametrize(("section", "key", "entry"), entries(), ids=lambda x: str(x)[:40])
def test_templates_name_only_the_parameters_of_their_code(
    section: str, key: str, entry: dict[str, Any]
) -> None:
    for p in entry["params"]:
        assert p in CAT["params"], f"{key}: parameter {p!r} has no type"
    assert set(entry) <= {"params", "parts", "tiles", "tile_tables", *LANGS}, key
    for form in (entry, entry.get("tiles", entry)):
        for lang in LANGS:
            assert form[lang].strip(), f"{key} has no {lang} template"
            for name, _forms in placeholders(form[lang]):
                assert name in entry["params"], f"{key} ({lang}) names {name!r}, not a parameter"
    for part in entry.get("parts", ()):
        spec = CAT["parts"][part]
        assert spec["when"] in entry["params"]
        for form in (spec, spec.get("tiles", spec)):
            for lang in LANGS:
                for name, _forms in placeholders(form[lang]):
                    assert name in entry["params"], f"{key}'s part {part} names {name!r}"


@pytest.mark.parametrize(("section", "key", "entry"), entries(), ids=lambda x: str(x)[:40])
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("number", [1, 2])
def test_every_code_renders_in_both_languages(
    section: str, key: str, entry: dict[str, Any], lang: str, number: int
) -> None:
    data = sample(entry["params"], number)
    data = {"code": key, **data} if section == "events" else {"reason": key, **data}
    text = render(data, lang)
    names = render(data, lang, ["Ann", "Bo", "Cy"])
    assert text and "{" not in text and "}" not in text and "#" not in text
    if "{seat" in entry[lang]:
        assert "Bo" in names and "Platz" not in names and "seat 1" not in names


def test_words_are_translated() -> None:
    for key, word in CAT["words"].items():
        assert set(word) >= set(LANGS), key
        assert set(word.get("tiles", word)) >= set(LANGS), key
    for p, kind in CAT["params"].items():
        if kind == "word":
            assert WORD_SAMPLES[p] in CAT["words"]


def test_seats_are_named() -> None:
    e = {"code": "discarded", "seat": 1, "card": "10H"}
    assert render(e) == "seat 1 discarded 10H"
    assert render(e, "de") == "Platz 1 hat 10H abgeworfen"
    assert render(e, "de", ["Ann", "Bo"]) == "Bo hat 10H abgeworfen"


def test_nested_violations_render_without_rule_codes() -> None:
    v = Violation.of(
        "C1",
        "invalid_meld",
        meld="[3S 5S 6S 7S]",
        problem=Reason.of("meld.not_consecutive", ranks="3-5-6-7"),
    )
    assert (
        str(v) == "C1: [3S 5S 6S 7S] is not valid: 3-5-6-7 is not a sequence of consecutive ranks"
    )
    assert v.render("de") == "[3S 5S 6S 7S] ist ungültig: 3-5-6-7 ist keine lückenlose Folge"
    event = Event(EventCode.PLAY_FAILED, 0, violations=(v,), penalty=3)
    assert Event.from_json(event.to_json()) == event
    assert render(event.to_json(), "de", ["Ann"]) == (
        "Der Zug von Ann ist misslungen ([3S 5S 6S 7S] ist ungültig: 3-5-6-7 ist keine "
        "lückenlose Folge); 3 Strafkarten gezogen"
    )


def test_unknown_codes_render_as_themselves() -> None:
    assert render({"code": "from_the_future", "seat": 0}) == "from_the_future"
    assert render({"reason": "future.reason"}) == "future.reason"


def _check_message(data: dict[str, Any]) -> None:
    """A message the engine emitted: known code or reason, parameters all declared."""
    section, key = ("reasons", "reason") if "reason" in data else ("events", "code")
    entry = CAT[section][data[key]]
    for key, value in data.items():
        if key in ("code", "reason"):
            continue
        assert key in entry["params"], f"{data} carries {key!r}, not a parameter of its code"
        kind = CAT["params"][key]
        if kind == "message":
            _check_message(value)
        elif kind == "messages":
            for v in value:
                _check_message(v)
    for lang in LANGS:
        render(data, lang)


@pytest.mark.parametrize(
    ("preset", "players", "bots"),
    [
        ("robbers", 3, ["random", "simple", "random"]),
        ("rummikub", 2, ["random", "simple"]),
        ("indian13", 3, ["random", "simple", "random"]),
    ],
)
def test_emitted_events_match_the_catalogue(preset: str, players: int, bots: list[str]) -> None:
    rules = find_preset(preset)
    match: Any = new_match(rules, players, seed=7)
    seen: set[str] = set()

    def on_action(action: Any, result: Any) -> None:
        for event in result.events:
            data = event.to_json()
            _check_message(data)
            assert Event.from_json(data) == event
            seen.add(data["code"])

    play_match(match, [make_bot(b, rules, i) for i, b in enumerate(bots)], on_action=on_action)
    assert "round_over" in seen and "match_over" in seen


def test_illegal_actions_say_why_as_data() -> None:
    from openrummy.errors import IllegalActionError
    from openrummy.games.actions import Pass

    match: Any = new_match(manipulation_rules("robbers"), 2, seed=1)
    with pytest.raises(IllegalActionError) as err:
        match.apply(Pass(match.current))
    why = err.value.why
    assert why is not None and why.key == "illegal.pass_with_stock"
    assert str(err.value) == "you may pass only when the stock is empty"
    assert render(why, "de") == "passen darfst du nur, wenn der Talon leer ist"


def _with_labels(data: Any, cards: dict[str, str], melds: dict[str, str]) -> Any:
    """A message with its cards and melds as the page labels them (``7♥``, ``[5♥ 6♥ …]``)."""
    if isinstance(data, list):
        return [_with_labels(v, cards, melds) for v in data]
    if not isinstance(data, dict):
        return data
    out: dict[str, Any] = {}
    for key, value in data.items():
        kind = CAT["params"].get(key)
        if kind == "card":
            out[key] = cards[value]
        elif kind == "cards":
            out[key] = [cards[v] for v in value]
        elif kind == "meld":
            out[key] = melds[value]
        elif kind == "melds":
            out[key] = [melds[v] for v in value]
        else:
            out[key] = _with_labels(value, cards, melds)
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_words_every_message_as_the_engine_does(lang: str) -> None:
    """The web page's messages.js and :func:`render` read the same catalogue the same way."""
    messages: list[dict[str, Any]] = []
    for section, key, entry in entries():
        for number in (1, 2):
            data = sample(entry["params"], number)
            head = {"code": key} if section == "events" else {"reason": key}
            messages.append({"message": {**head, **data}, "names": None})
            messages.append({"message": {**head, **data}, "names": ["Ann", "Bo", "Cy"]})
    payload = {
        "catalogue": CAT,
        "lang": lang,
        "messages": messages,
        "cards": sorted({SAMPLES["card"], *SAMPLES["cards"]}),
        "melds": sorted({SAMPLES["meld"], *SAMPLES["melds"]}),
    }
    web = Path(openrummy.__file__).parent / "web" / "js"
    script = Path(__file__).parent / "js" / "render_messages.mjs"
    done = subprocess.run(
        ["node", str(script), str(web)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=True,
    )
    page = json.loads(done.stdout)
    for m, text in zip(messages, page["texts"], strict=True):
        labelled = _with_labels(m["message"], page["cards"], page["melds"])
        assert text == render(labelled, lang, m["names"]), m


# What a Rummikub table shows: its tiles, melds and a nested reason about tiles.
TILE_SAMPLES: dict[str, Any] = {
    **SAMPLES,
    "card": "R7",
    "cards": ["R7", "JK"],
    "meld": "[R5 R6 JK=R7]",
    "melds": ["[R1 O1 B1]", "[K11 K12 K13]"],
}
CARD_WORDS = re.compile(r"\bcards?\b|karte|\bC\d+:", re.IGNORECASE)


def _at_tile_tables(section: str, key: str) -> bool:
    return CAT[section][key].get("tile_tables", True) is not False


@pytest.mark.parametrize("lang", LANGS)
def test_a_tile_table_never_says_card(lang: str) -> None:
    """Every message a Rummikub table can show, worded by the engine and by the page at a tile
    table, says tile and rack (Stein, Bänkchen), never card (Karte), and names no rule code.
    An entry that says card either has a ``tiles`` form or is marked ``"tile_tables": false``
    (Indian Rummy, discard piles, the command line's research bots and positions)."""
    messages: list[dict[str, Any]] = []
    for section, key, entry in entries():
        if not _at_tile_tables(section, key):
            continue
        for number in (1, 2):
            data = {
                p: (WORD_SAMPLES[p] if CAT["params"][p] == "word" else v)
                for p, v in sample(entry["params"], number).items()
            }
            data.update(
                {
                    p: TILE_SAMPLES[CAT["params"][p]]
                    for p in entry["params"]
                    if CAT["params"][p] in ("card", "cards", "meld", "melds")
                }
            )
            for part in entry.get("parts", ()):
                # A part a tile table never shows (the card an Indian timeout discards).
                if not _at_tile_tables("parts", part):
                    data.pop(CAT["parts"][part]["when"], None)
            head = {"code": key} if section == "events" else {"reason": key}
            messages.append({"message": {**head, **data}, "names": ["Ann", "Bo", "Cy"]})
    assert len(messages) > 300
    tiles = sorted({TILE_SAMPLES["card"], *TILE_SAMPLES["cards"]})
    melds = sorted({TILE_SAMPLES["meld"], *TILE_SAMPLES["melds"]})
    payload = {
        "catalogue": CAT,
        "lang": lang,
        "tiles": True,
        "messages": messages,
        "cards": tiles,
        "melds": melds,
    }
    web = Path(openrummy.__file__).parent / "web" / "js"
    script = Path(__file__).parent / "js" / "render_messages.mjs"
    done = subprocess.run(
        ["node", str(script), str(web)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=True,
    )
    page = json.loads(done.stdout)
    assert page["cards"]["R7"] == ("red 7" if lang == "en" else "rot 7")
    said = []
    for m, text in zip(messages, page["texts"], strict=True):
        labelled = _with_labels(m["message"], page["cards"], page["melds"])
        assert text == render(labelled, lang, m["names"], tiles=True), m
        said.append(text)
    wrong = [t for t in said if CARD_WORDS.search(t)]
    assert not wrong, wrong[:5]
    for key, word in CAT["words"].items():
        assert not CARD_WORDS.search(word.get("tiles", word)[lang]), key
    # The same entries at a card table keep their card words.
    assert render({"code": "drew", "seat": 0}, lang) != render(
        {"code": "drew", "seat": 0}, lang, tiles=True
    )


def test_every_server_error_code_has_words_in_both_languages() -> None:
    from openrummy.server.errors import ErrorCode

    for code in ErrorCode:
        entry = CAT["reasons"][f"server.{code.value}"]
        assert all(entry[lang].strip() for lang in LANGS), code


def test_bad_input_errors_carry_their_reason_in_both_languages() -> None:
    from openrummy.cards import Card
    from openrummy.errors import IllegalActionError, NotationError
    from openrummy.solve.hand import InvalidHandError, check_hand

    rules = indian_rules("indian13")
    with pytest.raises(NotationError) as bad_card:
        Card.parse("XX")
    with pytest.raises(InvalidHandError) as bad_hand:
        check_hand([Card.parse("3H")] * 3, rules, rules.wilds(Card.parse("2C")))
    match: Any = new_match(rules, 2, seed=1)
    with pytest.raises(IllegalActionError) as no_seat:
        match.view(5)
    with pytest.raises(NotationError) as bad_seat:
        openrummy.Position.parse("robbers | hand 3S | opened 4")
    with pytest.raises(NotationError) as nested:
        openrummy.Position.parse("robbers | hand 3S 4X")
    with pytest.raises(NotationError) as bad_action:
        match.parse_action("jump", seat=0)
    expected = [
        (bad_seat, "opened: 4 is not a seat (0 to 1)", "opened: 4 ist kein Platz (0 bis 1)"),
        (nested, "hand: '4X' is not a card or tile", "hand: '4X' ist weder Karte noch Stein"),
        (bad_action, "'jump' is not an action", "'jump' ist kein Zug"),
        (bad_card, "'XX' is not a card or tile", "'XX' ist weder Karte noch Stein"),
        (bad_hand, "a hand of 3 cards: indian13 needs 13", "eine Hand mit 3 Karten"),
        (no_seat, "there is no seat 5", "es gibt keinen Platz 5"),
    ]
    for err, en, de in expected:
        why = err.value.why
        assert why is not None
        assert str(err.value).startswith(en)
        assert render(why, "de").startswith(de)


def test_every_bot_is_described_in_both_languages() -> None:
    from openrummy.bots import bot_infos

    # The package's own bots (a test may register a bot of its own, e.g. the sim tests'
    # "dying" bot, in the same process).
    ours = [i for i in bot_infos() if getattr(i.factory, "__module__", "").startswith("openrummy.")]
    assert len(ours) >= 10
    for info in ours:
        (family,) = info.families
        entry = CAT["reasons"][f"bot.{family}.{info.name}"]
        assert entry["en"] == info.description
        assert entry["de"].strip() and info.describe("de") == entry["de"]
