"""The terminal table's parts without a screen: the turn builder, the Indian hand, the words,
saving and resuming, and ``rummy play``'s errors."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers.tui import settle
from openrummy.cards import Card
from openrummy.cli import app as cli
from openrummy.events import EventCode
from openrummy.games.views import IndianView, ManipulationView
from openrummy.melds import Meld
from openrummy.messages import LANGS, catalogue
from openrummy.rules import IndianRules, ManipulationRules, find_preset
from openrummy.tui import LocalSession, RummyApp, Setup, t
from openrummy.tui.indian import IndianHand
from openrummy.tui.manip import ManipTurn
from openrummy.tui.text import card_text, default_lang

runner = CliRunner()


def manip_view(table: list[str], hand: str) -> ManipulationView:
    from openrummy.games.manipulation import Phase

    return ManipulationView(
        game="robbers",
        seat=0,
        players=2,
        dealer=1,
        current=0,
        phase=Phase.START,
        table=tuple(Meld.parse(m) for m in table),
        hand_sizes=(len(hand.split()), 5),
        stock=40,
        discard_top=None,
        discard_size=0,
        opened=(True, True),
        pass_count=0,
        retrieved=(0, 0),
        time_left=None,
        legal=frozenset(),
        hand=tuple(Card.parse(c) for c in hand.split()),
    )


def robbers() -> ManipulationRules:
    rules = find_preset("robbers")
    assert isinstance(rules, ManipulationRules)
    return rules


def ids_of(turn: ManipTurn, cards: str) -> list[str]:
    out: list[str] = []
    for text in cards.split():
        item = next(
            it
            for it in [*turn.hand, *(i for m in turn.melds for i in m.items)]
            if str(it.card) == text and it.id not in out
        )
        out.append(item.id)
    return out


def test_moves_undo_and_reset_follow_the_physical_cards() -> None:
    turn = ManipTurn(robbers())
    turn.load(manip_view(["[5H 6H 7H]"], "8H 4S 4D 4C"))
    assert turn.move(ids_of(turn, "8H"), "m0") is None
    assert turn.melds[0].text() == "[5H 6H 7H 8H]"
    assert turn.move(ids_of(turn, "4S 4D 4C"), "new") is None
    assert turn.table_texts() == ("[5H 6H 7H 8H]", "[4S 4D 4C]")
    assert turn.play_text() == "play [5H 6H 7H 8H] [4S 4D 4C]"
    assert turn.hand == [] and turn.dirty
    assert turn.undo() and turn.table_texts() == ("[5H 6H 7H 8H]",)
    turn.reset()
    assert turn.table_texts() == ("[5H 6H 7H]",) and len(turn.hand) == 4
    assert not turn.dirty and not turn.undo()


def test_melds_the_others_changed_are_marked_until_the_turn_changes_them() -> None:
    turn = ManipTurn(robbers())
    before = manip_view(["[5H 6H 7H]", "[9S 9D 9C]"], "2S").table
    turn.load(manip_view(["[5H 6H 7H 8H]", "[9S 9D 9C]", "[JC QC KC]"], "2S"), before)
    assert turn.fresh_melds == {"m0", "m2"}
    turn.load(manip_view(["[5H 6H 7H 8H]"], "2S"))
    assert turn.fresh_melds == set()


def test_table_cards_stay_on_the_table_and_bad_targets_change_nothing() -> None:
    turn = ManipTurn(robbers())
    turn.load(manip_view(["[5H 6H 7H]"], "8H"))
    before = turn.table_texts()
    assert turn.move(ids_of(turn, "5H"), "hand") == "ui.table_stays"
    assert turn.move(ids_of(turn, "8H"), "m9") == "ui.no_such_meld"
    assert turn.move([], "new") == "ui.nothing_selected"
    assert turn.table_texts() == before and not turn.can_undo


def test_split_and_join_melds() -> None:
    turn = ManipTurn(robbers())
    turn.load(manip_view(["[3C 4C 5C 6C 7C 8C]", "[9C 10C JC]"], "2S"))
    assert turn.split("m0", 3)
    assert turn.table_texts() == ("[3C 4C 5C]", "[6C 7C 8C]", "[9C 10C JC]")
    assert not turn.split("m0", 0) and not turn.split("m0", 3)
    second = turn.melds[1].id
    assert turn.join(second)
    assert turn.table_texts() == ("[3C 4C 5C]", "[6C 7C 8C 9C 10C JC]")
    assert not turn.join(turn.melds[-1].id)


def test_each_meld_is_judged_by_the_engine_with_its_reason() -> None:
    turn = ManipTurn(robbers())
    turn.load(manip_view([], "5H 6H 9S 9D"))
    turn.move(ids_of(turn, "5H 6H"), "new")
    turn.move(ids_of(turn, "9S 9D"), "new")
    check = turn.check(opened=True)
    assert [m.valid for m in check.melds] == [False, False]
    assert check.melds[0].problem is not None
    assert check.melds[0].problem.key == "meld.too_short"


def test_a_joker_swap_is_a_retrieval_of_the_play() -> None:
    turn = ManipTurn(robbers())
    turn.load(manip_view(["[5H JK=6H 7H]"], "6H 6S"))
    joker = next(it.id for it in turn.melds[0].items if it.card.is_joker)
    assert turn.swap(ids_of(turn, "6S")[0], joker) == "ui.swap_mismatch"
    assert turn.swap(ids_of(turn, "6H")[0], joker) is None
    assert turn.melds[0].text() == "[5H 6H 7H]"
    assert [str(it.card) for it in turn.hand] == ["6S", "JK"]
    assert turn.play_text() == "play [5H 6H 7H] retrieve 0:6H<-6H"
    assert turn.undo() and turn.retrievals == []


def test_an_ambiguous_joker_offers_its_identities() -> None:
    turn = ManipTurn(robbers())
    turn.load(manip_view([], "9C 10C JK"))
    turn.move(ids_of(turn, "9C 10C JK"), "new")
    check = turn.check(opened=True)
    assert not check.melds[0].valid
    choices = [str(m) for m in check.melds[0].choices]
    assert choices == ["[JK=8C 9C 10C]", "[9C 10C JK=JC]"]
    assert turn.choose_identity(turn.melds[0].id, check.melds[0].choices[1])
    assert turn.check(opened=True).melds[0].valid
    assert turn.melds[0].text() == "[9C 10C JK=JC]"


def indian_view(hand: str, indicator: str = "10D") -> IndianView:
    from openrummy.games.indian import IndianPhase, SeatStatus

    return IndianView(
        game="indian13",
        seat=0,
        players=2,
        dealer=1,
        current=0,
        phase=IndianPhase.DISCARD,
        indicator=Card.parse(indicator),
        wild_rank=10,
        hand_sizes=(len(hand.split()), 13),
        stock=50,
        discard_pile=(),
        statuses=(SeatStatus.ACTIVE, SeatStatus.ACTIVE),
        draws=(1, 0),
        penalties=(None, None),
        taken=None,
        may_discard_taken=True,
        legal=frozenset(),
        hand=tuple(Card.parse(c) for c in hand.split()),
    )


def test_indian_groups_deadwood_auto_arrange_and_the_declaration_check() -> None:
    rules = find_preset("indian13")
    assert isinstance(rules, IndianRules)
    hand = IndianHand(rules)
    cards = "2H 3H 4H 5S 6S 7S 8S 9C 9D 9H KS KH KD QC"
    hand.load(indian_view(cards))
    loose_points = hand.judge().deadwood.points
    for hc in hand.cards():
        if str(hc.card) in ("2H", "3H", "4H"):
            hand.toggle(hc.id)
    assert hand.group_selected()
    judged = hand.judge()
    assert [g.kind for g in judged.groups] == ["PURE_SEQUENCE"]
    auto = hand.judge(auto=True)
    assert hand.auto_arrange(auto)
    assert auto.auto is not None and auto.auto.declare and auto.auto.discard == Card.parse("QC")
    qc = next(hc for hc in hand.cards() if str(hc.card) == "QC")
    verdict = hand.judge(finish=qc.card).declaration
    assert verdict is not None and verdict.valid
    assert hand.declare_text(qc).startswith("declare QC [")
    ks = next(hc for hc in hand.cards() if str(hc.card) == "KS")
    bad = hand.judge(finish=ks.card).declaration
    assert bad is not None and not bad.valid and bad.problem is not None
    assert loose_points == 80  # capped while nothing is grouped
    # A card leaving the hand leaves its group; a new one comes in loose.
    hand.load(indian_view(cards.replace("QC", "AS")))
    assert "QC" not in [str(hc.card) for hc in hand.cards()]
    assert [str(hc.card) for hc in hand.loose][-1] == "AS"


def test_every_word_of_the_app_is_in_both_languages_with_the_same_slots() -> None:
    words = catalogue()["ui"]
    used = set()
    for path in Path("src/openrummy/tui").glob("*.py"):
        used |= set(re.findall(r'"((?:ui|key)\.[a-z_]+)"', path.read_text(encoding="utf-8")))
    from openrummy.games.indian import SeatStatus

    used |= {f"status.{s.value}" for s in SeatStatus}
    used |= {f"kind.{k}" for k in ("PURE_SEQUENCE", "SEQUENCE", "SET")}
    assert used <= set(words), used - set(words)
    for key, entry in words.items():
        # An entry that says card has a tile form (or is marked as never at a tile table).
        assert set(entry) - {"tiles", "tile_tables"} == set(LANGS), key
        for form in (entry, entry.get("tiles", entry)):
            assert set(form) >= set(LANGS), key
            slots = [set(re.findall(r"\{(\w+)\}", form[lang])) for lang in LANGS]
            assert slots[0] == slots[1], key
    assert t("ui.saved", "de", path="x.json").startswith("Gespeichert in x.json")
    assert t("no.such.key") == "no.such.key"


def test_the_language_follows_the_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert default_lang() == "de"
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert default_lang() == "en"


def test_monochrome_cards_have_no_colour_but_show_the_selection() -> None:
    plain = card_text(Card.parse("10H"), "en", mono=True, selected=True)
    assert plain.plain.startswith("[10♥]")
    styles = [span.style for span in plain.spans if not isinstance(span.style, str)]
    assert styles and all(s.color is None and s.bgcolor is None for s in styles)
    assert any(s.reverse for s in styles)
    coloured = card_text(Card.parse("10H"), "de")
    assert coloured.spans and all(
        not isinstance(span.style, str) and span.style.color is not None for span in coloured.spans
    )
    assert card_text(Card.parse("QS"), "de").plain.strip() == "D♠"


def test_a_saved_game_resumes_where_it_was(tmp_path: Path) -> None:
    session = LocalSession(Setup(game="rummikub", bots=("simple",), seed=2))
    session.apply(session.parse("draw"))
    while session.bot_to_move:
        session.step_bot()
    path = tmp_path / "game.json"
    session.save(path)
    again = LocalSession.resume(path)
    assert again.view() == session.view()
    assert again.kinds == [None, "simple"] and again.names == session.names
    with pytest.raises(Exception, match="cannot read"):
        LocalSession.resume(tmp_path / "missing.json")


def test_watching_bots_only_plays_on_by_itself() -> None:
    async def main() -> list[EventCode]:
        setup = Setup(game="rummikub", players=2, bots=("simple",), seed=5, human=False)
        app = RummyApp(setup, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(200):
                await pilot.pause()
                await app.workers.wait_for_complete()
                if len(app.session.events) >= 6:
                    break
            assert app.session.view().hand is None  # a spectator sees no hand
            return [e.code for e in app.session.events]

    codes = asyncio.run(main())
    assert len(codes) >= 6


def test_the_german_table_at_80_by_24_in_monochrome(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")

    async def main() -> str:
        app = RummyApp(Setup(game="rummikub", bots=("simple",), seed=4), lang="de", bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert app.mono and app.session.my_turn
            await pilot.press("question_mark")
            help_text = str(app.screen.query_one("Static").render())
            await pilot.press("escape")
            before = len(app.session.events)
            await pilot.press("p")  # nothing placed: said, nothing sent
            message = str(app.table.message)
            assert len(app.session.events) == before
            return help_text + "\n" + message

    text = asyncio.run(main())
    assert "Leertaste" in text and "Noch nichts gelegt" in text


def test_play_says_what_is_wrong_without_a_traceback() -> None:
    res = runner.invoke(cli, ["play", "--game", "nosuchgame"])
    assert res.exit_code == 2 and "error:" in res.output and "Traceback" not in res.output
    res = runner.invoke(cli, ["play", "--game", "rummikub", "--vs", "nosuchbot"])
    assert res.exit_code == 2 and "unknown bot" in res.output
    res = runner.invoke(cli, ["play", "--server", "http://127.0.0.1:9"])
    assert res.exit_code == 2 and "--table ID" in res.output
    res = runner.invoke(cli, ["play", "--link", "http://127.0.0.1:9/#/replay/x"])
    assert res.exit_code == 2 and "#/t/ID" in res.output and "Traceback" not in res.output
    res = runner.invoke(cli, ["play", "--lang", "fr"])
    assert res.exit_code == 2 and "en or de" in res.output


def test_a_dialog_leaves_the_footer_as_it_was() -> None:
    """Closing a dialog over an unchanged table does not rebuild the footer's keys (the
    rebuild was most of a dialog's cost); the keys stay what the table binds."""
    from openrummy.tui.app import Help, KeyFooter

    async def main() -> tuple[list[object], list[object], int]:
        app = RummyApp(Setup(game="indian13", bots=("simple",), seed=3), bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            footer = app.table.query_one(KeyFooter)
            before: list[object] = list(footer.children)
            await pilot.press("question_mark")
            assert isinstance(app.screen, Help)
            await pilot.press("escape")
            await pilot.pause()
            return before, list(footer.children), len(app.table.KEYS)

    before, after, keys = asyncio.run(main())
    assert before and after == before
    assert len(before) == keys  # one key per binding shown (every Indian key is shown)
