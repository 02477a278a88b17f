"""Screenshots of a full Robbers' Rummy table in the browser, at 1366×900 and 1920×1080.

A person plays against three computer players on a fresh ``rummy serve`` (temporary SQLite
database, bots without pauses) until the table holds at least ``--melds`` melds and it is the
person's turn; on each of their turns they draw (so the hand grows too), or with
``--follow-hints`` follow the hint (*Apply to the table*, *Done*) when there is one. Then the page is shot at each window size, as the window shows it (no scrolling), and
the script checks that the whole hand and the Done button are inside the window:

    .venv/bin/python scripts/web_screenshots.py            # artifacts/screenshots/web-robbers-*.png

It needs Debian's Chromium and Playwright, as the browser tests do (``make setup`` installs
them). Exit status 1 when the hand is not fully visible at a size.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from helpers.e2e import CHROMIUM, CHROMIUM_ARGS, ensure_chromium, free_port  # noqa: E402

SIZES = [(1366, 900), (1920, 1080)]


def _serve(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = dict(os.environ, OPENRUMMY_BOT_PAUSE="0", XDG_DATA_HOME=str(tmp))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "openrummy.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            f"sqlite+aiosqlite:///{tmp / 'shots.sqlite3'}",
            "--log-level",
            "warning",
        ],
        env=env,
        cwd=ROOT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                return proc, url
        time.sleep(0.2)
    proc.kill()
    raise SystemExit("rummy serve did not start")


def _seq(url: str, tid: str) -> int:
    seq: int = httpx.get(f"{url}/api/tables/{tid}/view", timeout=30).json()["seq"]
    return seq


def _fill_table(page: Any, url: str, tid: str, melds: int, turns: int, hints: bool) -> int:
    """Play the person's turns until the table holds ``melds`` melds; the count reached."""
    for _ in range(turns):
        page.wait_for_function(
            "document.querySelector('#turn-status')?.classList.contains('mine')"
            " || document.querySelector('#round-summary')",
            timeout=120_000,
        )
        if page.locator("#round-summary").count():
            raise SystemExit("the round ended before the table was full: try again")
        count = int(page.locator(".table-melds .meld").count())
        if count >= melds:
            return count
        before = _seq(url, tid)
        if hints:
            page.click("#hint-btn")
            page.wait_for_selector("#hint-panel")
        if hints and page.locator("#apply-hint").count():
            page.click("#apply-hint")
            page.wait_for_selector("#done-btn:not([disabled])")
            page.click("#done-btn")
        else:
            page.click("#draw-btn")
        deadline = time.monotonic() + 60
        while _seq(url, tid) == before and time.monotonic() < deadline:
            time.sleep(0.1)
    raise SystemExit(f"no {melds} melds after {turns} turns: try again")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--melds", type=int, default=10, help="melds on the table (10)")
    parser.add_argument("--turns", type=int, default=60, help="turns at most (60)")
    parser.add_argument("--bot", default="greedy", help="the computer players' level (greedy)")
    parser.add_argument(
        "--follow-hints", action="store_true", help="the person plays the hint (else draws)"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "artifacts" / "screenshots")
    args = parser.parse_args(argv)
    ensure_chromium()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = _serve(Path(tmp))
        try:
            created = httpx.post(
                f"{url}/api/tables",
                json={
                    "preset": "robbers",
                    "match_format": "SINGLE_ROUND",
                    "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": args.bot}] * 3,
                    "creator_seat": 0,
                    "creator_name": "Ann",
                    "bot_pause": 0,
                    "title": "A full table",
                },
                timeout=30,
            ).json()
            tid = created["table"]["id"]
            httpx.post(
                f"{url}/api/tables/{tid}/start",
                headers={"Authorization": f"Bearer {created['creator_token']}"},
                timeout=30,
            ).raise_for_status()
            keys = {"seat": 0, "token": created["seat_token"], "creator": created["creator_token"]}
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
                )
                context = browser.new_context(
                    locale="en-US", viewport={"width": 1366, "height": 900}
                )
                context.set_default_timeout(60_000)
                page = context.new_page()
                page.goto(url)
                page.evaluate(
                    "([k, v]) => localStorage.setItem(k, v)",
                    [f"openrummy.table.{tid}", json.dumps(keys)],
                )
                page.goto(f"{url}/#/t/{tid}")
                count = _fill_table(page, url, tid, args.melds, args.turns, args.follow_hints)
                hand = int(page.locator("#hand .card").count())
                for width, height in SIZES:
                    page.set_viewport_size({"width": width, "height": height})
                    page.evaluate("window.scrollTo(0, 0)")
                    page.wait_for_timeout(300)  # the layout settles after the resize
                    path = args.out / f"web-robbers-{width}x{height}.png"
                    page.screenshot(path=str(path))
                    seen = page.evaluate(
                        """() => {
                        const inside = (el) => {
                            const r = el.getBoundingClientRect();
                            return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight
                                && r.right <= innerWidth;
                        };
                        const cards = [...document.querySelectorAll('#hand .card')];
                        const done = document.querySelector('#done-btn');
                        return {cards: cards.filter(inside).length, all: cards.length,
                                done: !!done && inside(done)};
                    }"""
                    )
                    whole = seen["cards"] == seen["all"] and seen["done"]
                    ok = ok and whole
                    print(
                        f"{width}x{height}: {count} melds, {hand} cards in the hand, "
                        f"{seen['cards']} of them in the window, Done "
                        f"{'in' if seen['done'] else 'NOT in'} the window -> {path}"
                    )
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
