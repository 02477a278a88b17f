"""The hint and the gestures agree, in Chromium: the player to move presses Hint on the real
page, carries out the hint's steps with the mouse as docs/web.md describes them (drag a card
onto a meld or onto *New meld*, drop a card on the joker it stands for, choose a joker's
identity under its meld) and presses Done; the server accepts the play, and the table and
the hand after it are the hint's.

The games are seeded and played on the real server: every seat is a person's seat, held by
this test's own WebSocket connections, which play the greedy bot's moves (computed on a copy
of the match, the same deal from the same seed) until the page's player is to move in a
chosen position. Nothing of the server is changed but the deal (``seeded_serve.py``).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from helpers.e2e import HANG_GUARD_MS, Server, new_page, shot
from helpers.hints import SWAPS_BEFORE_OPENING
from openrummy.bots import make_bot
from openrummy.cards import Card
from openrummy.games.families import new_match
from openrummy.melds import Meld
from openrummy.rules import find_preset
from openrummy.server.jobs import hint as server_hint
from openrummy.solve import best_play
from openrummy.solve.explain import Step, StepKind, card_label, explain_steps

GUARD = 30.0
"""Seconds a message of the server may take: a guard against hangs, never a measurement."""


@dataclass
class Outcome:
    """What one position showed: for the coverage checks and the report."""

    preset: str
    opened: bool
    swap: bool
    swap_first: bool
    toasts: list[str] = field(default_factory=list)
    seconds: float = 0.0


class Seats:
    """The test's WebSocket connections, one per seat: they keep every seat present and play
    the seats' moves that the page does not."""

    def __init__(self, url: str, table_id: str, tokens: list[str]) -> None:
        ws_url = url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
        self.conns: list[ClientConnection] = []
        self.seqs: list[int] = []
        self.views: list[dict[str, Any]] = []
        self.ids = 0
        self.stack = contextlib.ExitStack()
        for token in tokens:
            ws = self.stack.enter_context(connect(ws_url, open_timeout=GUARD, max_size=None))
            ws.send(json.dumps({"type": "hello", "token": token}))
            while True:
                msg = json.loads(ws.recv(timeout=GUARD))
                if msg["type"] == "welcome":
                    break
            self.conns.append(ws)
            self.seqs.append(int(msg["seq"]))
            self.views.append(msg["view"])

    def pump(self, seq: int) -> None:
        """Read every connection up to the update ``seq``."""
        for s, ws in enumerate(self.conns):
            while self.seqs[s] < seq:
                msg = json.loads(ws.recv(timeout=GUARD))
                if msg["type"] == "error":
                    raise AssertionError(f"seat {s}: {msg}")
                if msg["type"] in ("update", "welcome"):
                    self.seqs[s] = int(msg["seq"])
                    self.views[s] = msg["view"]

    def act(self, seat: int, action: str) -> None:
        self.ids += 1
        seq = self.seqs[seat]
        self.conns[seat].send(
            json.dumps({"type": "action", "id": f"t{self.ids}", "seq": seq, "action": action})
        )
        self.pump(seq + 1)

    def close(self) -> None:
        self.stack.close()


def _tokens(server: Server, preset: str, players: int, seed: str) -> tuple[str, list[str]]:
    """A table of ``players`` people's seats, started with the deal of ``seed``."""
    body = {
        "preset": preset,
        "seats": [{"kind": "human"}] * players,
        "creator_seat": 0,
        "creator_name": "Seat 1",
        "bot_pause": 0,
    }
    r = httpx.post(f"{server.url}/api/tables", json=body, timeout=GUARD)
    assert r.status_code == 201, r.text
    created = r.json()
    tid: str = created["table"]["id"]
    tokens = [str(created["seat_token"])]
    for s in range(1, players):
        r = httpx.post(
            f"{server.url}/api/tables/{tid}/join",
            json={"name": f"Seat {s + 1}", "seat": s},
            timeout=GUARD,
        )
        assert r.status_code == 200, r.text
        tokens.append(str(r.json()["token"]))
    server.next_seed(seed)
    r = httpx.post(
        f"{server.url}/api/tables/{tid}/start",
        headers={"Authorization": f"Bearer {created['creator_token']}"},
        timeout=GUARD,
    )
    assert r.status_code == 200, r.text
    return tid, tokens


def _table_key(melds: list[Meld], rules: Any) -> list[str]:
    return sorted(str(m.normalized(rules.meld_rules)) for m in melds)


class Player:
    """The person at the page: one Chromium page for every position of the run."""

    def __init__(self, server: Server, page: Any) -> None:
        self.server = server
        self.page = page
        self.sent: list[str] = []
        self.toasts: list[str] = []
        self.table_id: str | None = None
        self.jokers_taken = [0, 0]
        """Jokers taken as a step names them: all, and those of two or more in their meld."""
        page.on("websocket", self._watch)

    def _watch(self, ws: Any) -> None:
        def sent(payload: str | bytes) -> None:
            msg = json.loads(payload)
            if msg.get("type") == "action":
                self.sent.append(str(msg["action"]))

        ws.on("framesent", sent)

    def sit(self, table_id: str, seat: int, token: str) -> None:
        """Take the seat (the page keeps seat tokens in localStorage, as after a join)."""
        self.page.evaluate(
            "([id, keys]) => localStorage.setItem(`openrummy.table.${id}`, JSON.stringify(keys))",
            [table_id, {"seat": seat, "token": token, "name": f"Seat {seat + 1}"}],
        )
        self.page.goto(f"{self.server.url}/#/t/{table_id}")
        self.table_id = table_id

    # -- aiming and dragging ------------------------------------------------------------------
    def settled(self) -> None:
        """Wait until the table on show has been judged (the page's check of this table)."""
        self.page.wait_for_selector('.table-melds[aria-busy="false"]', state="attached")

    def aim(self, selector: str) -> tuple[float, float]:
        """The middle of the element, scrolled into view where nothing covers it (the hand's
        dock stays at the bottom of the window)."""
        for _ in range(40):
            point = self.page.evaluate(
                """sel => {
                  const el = document.querySelector(sel);
                  if (!el) return null;
                  let box = el.getBoundingClientRect();
                  const hit = (b) => {
                    const x = b.left + b.width / 2, y = b.top + b.height / 2;
                    const under = document.elementFromPoint(x, y);
                    return under && (under === el || el.contains(under)) ? [x, y] : null;
                  };
                  const p = hit(box);
                  if (p) return p;
                  el.scrollIntoView({block: "center", inline: "center"});
                  return hit(el.getBoundingClientRect());
                }""",
                selector,
            )
            if point:
                return float(point[0]), float(point[1])
            time.sleep(0.05)
        raise AssertionError(f"{selector} is not to be seen on the page")

    def drag(self, source: str, target: str) -> None:
        """Press on ``source``, move in steps (as a hand would) and release on ``target``."""
        x, y = self.aim(source)
        m = self.page.mouse
        m.move(x, y)
        m.down()
        m.move(x + 12, y + 12, steps=3)
        tx, ty = self.aim(target)
        m.move(tx, ty, steps=6)
        m.up()

    def drag_until(self, source: str, target: str, done: str) -> None:
        """Drag, then wait for ``done`` (a JS condition); a gesture lost to a re-render (the
        page answered the server meanwhile) is made again, as a person would."""
        for attempt in range(3):
            self.settled()
            self.drag(source, target)
            try:
                self.page.wait_for_function(done, timeout=5_000)
                return
            except Exception:
                if attempt == 2:
                    raise

    # -- the hint's steps ---------------------------------------------------------------------
    def hand_card(self, card: str, skip: set[str]) -> str:
        ids: list[str] = self.page.locator(f'#hand [data-card="{card}"]').evaluate_all(
            "els => els.map(e => e.dataset.id)"
        )
        free = [i for i in ids if i not in skip]
        assert free, f"no {card} in the hand"
        return free[0]

    def table_joker(self, meld: int, named: str, view: dict[str, Any], skip: set[str]) -> str:
        """The joker a step takes from the meld ``meld`` of the turn's start, the one the
        step names (``JK=O11``: the joker standing for O11 there): of the meld's jokers, the
        one the page shows with that identity, else the one that stood for it at the start;
        with the swaps done first (not in the hint's order) it may have moved on already."""
        ident = named.split("=")[1] if "=" in named else ""
        found: list[list[str]] = self.page.locator(
            f'.table-melds [data-id^="t{meld}-"][data-card="JK"]'
        ).evaluate_all(
            """els => els.map(e => [
              e.dataset.id, e.dataset.ident || "", e.closest(".meld")?.dataset.drop || "",
            ])"""
        )
        free = [(jid, now, where) for jid, now, where in found if jid not in skip]
        lying = [(jid, now) for jid, now, where in free if where == f"meld:m{meld}"]
        gone = [jid for jid, _now, where in free if where != f"meld:m{meld}"]
        pick = (
            [jid for jid, now in lying if now == ident]
            or [jid for jid, _now in lying if _start_ident(view, jid) == ident]
            or [jid for jid in gone if _start_ident(view, jid) == ident]
            or gone
        )
        assert pick, f"no joker {named} from meld {meld} on the page: {free}"
        self.jokers_taken[0] += 1
        self.jokers_taken[1] += len(lying) > 1
        return pick[0]

    def table_card(self, meld: int, card: str, skip: set[str]) -> str:
        """A card the step takes from the meld ``meld`` of the turn's start: as the steps
        count (``solve.explain``), the last such card of it that the meld still holds, else
        one that has moved on (a joker: :meth:`table_joker`)."""
        ids: list[str] = self.page.locator(
            f'.table-melds [data-id^="t{meld}-"][data-card="{card}"]'
        ).evaluate_all(
            """(els, meld) => [
              ...els.filter(e => e.closest(".meld").dataset.drop === meld).reverse(),
              ...els.filter(e => e.closest(".meld").dataset.drop !== meld),
            ].map(e => e.dataset.id)""",
            f"meld:m{meld}",
        )
        free = [i for i in ids if i not in skip]
        assert free, f"no {card} from meld {meld} on the table"
        return free[0]

    def melds(self) -> list[str]:
        keys: list[str] = self.page.locator(".table-melds .meld").evaluate_all(
            "els => els.map(e => e.dataset.drop)"
        )
        return keys

    def place(self, card_id: str, target: str | None) -> str:
        """Drag the card onto the meld ``target`` (its + slot: the card goes to the end, never
        onto a joker) or, with None, onto New meld; the meld it is in now."""
        src = f'[data-id="{card_id}"]'
        if target is None:
            before = set(self.melds())
            self.drag_until(
                src,
                "#new-meld",
                f"[...document.querySelectorAll('.table-melds .meld')].some(m => "
                f"!{json.dumps(sorted(before))}.includes(m.dataset.drop) && "
                f"m.querySelector('[data-id=\"{card_id}\"]'))",
            )
            new = [k for k in self.melds() if k not in before]
            assert len(new) == 1, new
            return new[0]
        self.drag_until(
            src,
            f'.table-melds .slot[data-drop="{target}"]',
            f'!!document.querySelector(\'.table-melds .meld[data-drop="{target}"] '
            f'[data-id="{card_id}"]\')',
        )
        return target

    def swap(self, natural_id: str, joker_id: str, target: str) -> None:
        """Drop the natural card on the joker it stands for; what the page said at once."""
        self.drag_until(
            f'[data-id="{natural_id}"]',
            f'[data-id="{joker_id}"]',
            f'!!document.querySelector(\'.table-melds .meld[data-drop="{target}"] '
            f'[data-id="{natural_id}"]\')',
        )
        self.toasts += self.page.locator("#toasts .toast").all_inner_texts()

    def identify(self, target: str, result: Meld) -> None:
        """Make the meld's jokers stand for what the hint says: choose under the meld when it
        asks; a joker that stands for something else (still valid: the check keeps it) is
        dragged to the end of its meld, which opens it again, and then chosen."""
        meld = self.page.locator(f'.table-melds .meld[data-drop="{target}"]')
        want = sorted(str(it.represents or "") for it in result.items if it.card.is_joker)
        for _ in range(6):
            self.settled()
            cards = sorted(
                meld.locator(".card").evaluate_all("els => els.map(e => e.dataset.card)")
            )
            if cards != sorted(str(c) for c in result.cards):
                return  # not the hint's meld yet: a later step finishes it
            choice = meld.locator("select.joker-choice")
            if choice.count():
                options: list[str] = choice.locator("option").evaluate_all(
                    "els => els.map(e => e.value).filter(Boolean)"
                )
                items = sorted(str(it) for it in result.items)
                fits = [o for o in options if sorted(str(i) for i in Meld.parse(o).items) == items]
                assert fits, f"the hint's {result} is not among the choices {options}"
                choice.select_option(fits[0])
                continue
            jokers: list[list[str]] = meld.locator('.card[data-card="JK"]').evaluate_all(
                "els => els.map(e => [e.dataset.id, e.dataset.ident || ''])"
            )
            if sorted(ident for _id, ident in jokers) == want:
                return
            for jid, ident in jokers:
                if ident not in want:
                    self.drag_until(
                        f'[data-id="{jid}"]',
                        f'.table-melds .slot[data-drop="{target}"]',
                        f"document.querySelector('[data-id=\"{jid}\"]')?.dataset.ident !== "
                        f"{json.dumps(ident)}",
                    )
                    break
        raise AssertionError(f"{target} does not become {result}: {meld.inner_html()}")

    def follow(
        self,
        steps: list[Step],
        messages: list[dict[str, Any]],
        view: dict[str, Any],
        swap_first: bool,
    ) -> None:
        """Carry out the hint's steps with the mouse (see tests/js/hint_gestures.mjs, the
        same steps on the page's turn model in node); what a step takes from the table as
        its message on the page names it (a joker by what it stands for)."""
        used: set[str] = set()
        pairs = list(zip(steps, messages, strict=True))
        order = [k for k, st in enumerate(steps) if swap_first and st.kind is StepKind.SWAP_JOKER]
        order += [k for k in range(len(steps)) if k not in order]
        for st, msg in (pairs[k] for k in order):
            target = None if st.target is None else f"meld:m{st.target}"
            if target is not None and target not in self.melds():
                target = None
            hand = [str(c) for c in st.from_hand]
            if st.kind is StepKind.SWAP_JOKER and target is not None:
                # The joker of a set may stand for another missing suit than the card's: the
                # joker that stands for the card first, else one of the meld of its rank.
                jokers = self.page.locator(
                    f'.table-melds .meld[data-drop="{target}"] .card[data-card="JK"]'
                ).evaluate_all("els => els.map(e => e.dataset.id)")
                for c in list(hand):
                    ident = {
                        j: _start_ident(view, j)
                        for j in jokers
                        if _start_ident(view, j) is not None
                    }
                    rank = Card.parse(c).rank
                    pick = [j for j, i in ident.items() if i == c] or [
                        j for j, i in ident.items() if i is not None and Card.parse(i).rank == rank
                    ]
                    if pick:
                        natural = self.hand_card(c, used)
                        self.swap(natural, pick[0], target)
                        used.add(natural)
                        hand.remove(c)
                        break
            parts = [p for p in msg["parts"] if p["reason"] == "step.take"]
            assert len(parts) == len(st.takes), (st, parts)
            for (meld, cards), part in zip(st.takes, parts, strict=True):
                assert sorted(it.split("=")[0] for it in part["cards"]) == sorted(
                    str(c) for c in cards
                ), (st, part)
                for item in part["cards"]:
                    card = item.split("=")[0]
                    if card == "JK":
                        cid = self.table_joker(meld, item, view, used)
                    else:
                        cid = self.table_card(meld, card, used)
                    used.add(cid)
                    target = self.place(cid, target)
            for c in hand:
                cid = self.hand_card(c, used)
                used.add(cid)
                target = self.place(cid, target)
            if target is not None:
                self.identify(target, st.result)


def _start_ident(view: dict[str, Any], item_id: str) -> str | None:
    """What a table joker (``t<meld>-<k>``) stood for at the start of the turn."""
    m, k = (int(x) for x in item_id[1:].split("-"))
    token = str(view["table"][m][k])
    return token.split("=")[1] if "=" in token else None


@dataclass
class Game:
    """A seeded game at one table: the page plays the seat ``seat`` where the hint has a
    play (at most ``take`` positions, from ``start``, each ``every``-th of that seat's
    turns), this test's connections play every other move as the greedy bots would."""

    preset: str
    players: int
    seed: str
    take: int
    seat: int | None = None
    at_turn: int | None = None
    swap_first: bool = False


def play_game(player: Player, game: Game, out: list[Outcome]) -> None:
    server = player.server
    rules: Any = find_preset(game.preset)
    match: Any = new_match(rules, game.players, seed=game.seed)
    bots = [make_bot("greedy", rules, s) for s in range(game.players)]
    tid, tokens = _tokens(server, game.preset, game.players, game.seed)
    seats = Seats(server.url, tid, tokens)
    try:
        sat = False
        taken = 0
        turn = 0
        round_index = match.round_index
        while taken < game.take and not match.is_over and match.round_index == round_index:
            mover = match.current
            view = match.view(mover).to_json()
            wanted = (game.at_turn is None or turn == game.at_turn) and (
                game.seat is None or mover == game.seat
            )
            play = None
            if wanted and "play" in view["legal"]:
                table = [Meld.parse("[" + " ".join(m) + "]") for m in view["table"]]
                hand = [Card.parse(c) for c in view["hand"]]
                opened = bool(view["opened"][mover])
                play = best_play(rules, table, hand, opened=opened)
                if play.is_pass:
                    play = None
            if play is None:
                assert game.at_turn is None or turn < game.at_turn, "the position has no play"
                action = bots[mover].choose(match.view(mover))
                seats.act(mover, str(action))
                match.apply(action)
                turn += 1
                continue
            if not sat:
                player.sit(tid, mover, tokens[mover])
                game.seat = mover
                sat = True
            began = time.perf_counter()
            outcome = Outcome(
                game.preset,
                bool(view["opened"][mover]),
                any(
                    st.kind is StepKind.SWAP_JOKER
                    for st in explain_steps(list(play.before), list(play.table), rules.meld_rules)
                ),
                game.swap_first,
            )
            action_text = play_hint(player, seats, rules, match, view, play, game.swap_first)
            outcome.toasts = list(player.toasts)
            # The play the page sent is the hint's: its table, and the hand it leaves.
            action = match.parse_action(action_text, mover)
            sent = list(action.table)
            assert _table_key(sent, rules) == _table_key(list(play.table), rules), (
                action_text,
                [str(m) for m in play.table],
                view["table"],
            )
            left = (
                Counter(Card.parse(c) for c in view["hand"])
                + Counter(c for m in play.before for c in m.cards)
                - Counter(c for m in sent for c in m.cards)
            )
            assert sorted(map(str, left.elements())) == sorted(map(str, play.hand)), action_text
            # The server accepted it: its view of the seat is the engine's after the play.
            assert match.is_legal(action), action_text
            match.apply(action)
            mine, theirs = match.view(mover).to_json(), seats.views[mover]
            for key in ("table", "hand", "opened", "hand_sizes", "current"):
                assert theirs[key] == mine[key], (key, theirs[key], mine[key], action_text)
            outcome.seconds = time.perf_counter() - began
            out.append(outcome)
            taken += 1
            turn += 1
    finally:
        seats.close()


def play_hint(
    player: Player,
    seats: Seats,
    rules: Any,
    match: Any,
    view: dict[str, Any],
    play: Any,
    swap_first: bool,
) -> str:
    """The page's player presses Hint, follows it with gestures and presses Done; the play
    the page sent."""
    page = player.page
    seat = int(view["seat"])
    assert [str(m) for m in play.before] == [
        str(Meld.parse("[" + " ".join(m) + "]")) for m in view["table"]
    ], "the solver's table before the play is the view's, meld for meld"
    # The page shows this turn: its player to move, the hand and the table of the view.
    page.wait_for_function(
        "([hand, table]) => document.querySelector('#turn-status')?.classList.contains('mine')"
        " && document.querySelectorAll('#hand .card').length === hand"
        " && document.querySelectorAll('.table-melds .meld .card').length === table"
        " && !document.querySelector('.modal')",
        arg=[len(view["hand"]), sum(len(m) for m in view["table"])],
        timeout=HANG_GUARD_MS,
    )
    player.settled()
    player.toasts.clear()
    # Hint: the page shows the server's hint, which is the solver's best play here.
    with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        page.click("#hint-btn")
    hint = answer.value.json()
    want = server_hint(rules, match.view(seat).to_json(), "en")
    assert hint["table"] == want["table"] and hint["step_messages"] == want["step_messages"]
    steps = explain_steps(list(play.before), list(play.table), rules.meld_rules)
    assert len(steps) == len(hint["step_messages"])
    page.wait_for_function(
        f"document.querySelectorAll('#hint-panel ol.steps li').length === {len(steps)}"
    )
    # A joker a step takes is named by what it stands for, in the data and in the words.
    texts = page.locator("#hint-panel ol.steps li").all_inner_texts()
    for text, msg in zip(texts, hint["step_messages"], strict=True):
        for part in msg["parts"]:
            if part["reason"] == "step.take":
                for item in part["cards"]:
                    if item.startswith("JK"):
                        assert "=" in item, part
                        assert f"Joker={card_label(item.split('=')[1])}" in text, (text, part)
    player.follow(steps, hint["step_messages"], view, swap_first)
    player.settled()
    sent = len(player.sent)
    seq = seats.seqs[seat]
    page.click("#done-btn")
    deadline = time.monotonic() + GUARD
    while len(player.sent) == sent:
        if page.locator(".modal").count():
            raise AssertionError(
                f"Done would fail: {page.inner_text('.modal')}\nhint: {hint['table']}\n"
                f"steps: {hint['steps']}\ntable: {view['table']}"
            )
        assert time.monotonic() < deadline, "Done sent nothing"
        page.wait_for_timeout(50)
    seats.pump(seq + 1)
    return player.sent[-1]


def _swaps(count: int) -> list[Game]:
    """The deals with a joker swap before opening (two of them in the default tier), every
    other one carried out with the card dropped on the joker first."""
    return [
        Game("robbers", 4, seed, 1, at_turn=turn, swap_first=k % 2 == 0)
        for k, (seed, turn) in enumerate(SWAPS_BEFORE_OPENING[: 2 if count < 50 else None])
    ]


PER_GAME = 6
"""Positions taken from one game at most (more deals, more kinds of positions)."""


@pytest.mark.parametrize(
    "count",
    [pytest.param(14, id="14"), pytest.param(200, id="200", marks=pytest.mark.slow)],
)
def test_hints_carried_out_by_gestures_are_accepted(
    server: Server, browser: Any, count: int
) -> None:
    page = new_page(browser, height=1400)
    page.goto(server.url)
    page.wait_for_selector("#create-btn")
    player = Player(server, page)
    out: list[Outcome] = []
    # A position where hint and gestures disagree ends its game (the copy of the match
    # no longer follows the server's); the run goes on with the next game and reports all.
    failed: list[str] = []

    def play(game: Game) -> None:
        try:
            play_game(player, game, out)
        except Exception as e:
            failed.append(f"{game.seed} (position {len(out)}): {e}")
            page.goto(server.url)
            page.reload()

    for game in _swaps(count):
        play(game)
        assert out and out[-1].swap and not out[-1].opened, (game, failed)
    rest = count - len(out)
    for preset, want in (("robbers", rest // 2), ("rummikub", rest - rest // 2)):
        # Two seats, the page's player on either; a round that ends early gives fewer
        # positions, and the next seed makes them up.
        g = 0
        done = len(out) + want
        while len(out) < done:
            assert g < want, f"{preset}: too few positions in {g} games"
            game = Game(preset, 2, f"hint-browser-{preset}-{g}", min(PER_GAME, done - len(out)))
            game.seat = g % 2
            play(game)
            g += 1
    assert not failed, "\n\n".join(failed)
    shot(page, "40-hint-by-gestures")
    assert len(out) == count
    for preset in ("robbers", "rummikub"):
        assert any(o.preset == preset and not o.opened for o in out), preset
        assert any(o.preset == preset and o.opened for o in out), preset
    swaps = [o for o in out if o.swap and not o.opened]
    assert swaps and any(o.swap_first for o in swaps)
    # Before opening the joker stays on the table, and the player is told why at once.
    for o in swaps:
        if o.swap_first:
            assert any(
                "stays on the table (you may retrieve a joker only after you have opened)" in t
                for t in o.toasts
            ), o.toasts
    assert not page.js_errors
    print(
        f"{len(out)} positions, {sum(o.seconds for o in out) / len(out):.2f} s each "
        f"(wall clock, Hint to the server's update); jokers taken as named: "
        f"{player.jokers_taken[0]} ({player.jokers_taken[1]} of two in a meld)"
    )
