"""Helpers of the browser tests: the server handle, pages, screenshots, drags.

Browser tests: a real ``rummy serve`` and Debian's Chromium driven by Playwright.

Own fixtures instead of pytest-playwright (which keeps an event loop open and breaks the
async server tests): a server process per module on a free port with a temporary SQLite
database, and a fresh headless Chromium per test. Timeouts only guard against hangs.
Screenshots of every scene go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
HANG_GUARD_MS = 20_000
"""Playwright's wait limit: a guard against hangs, never a measurement."""


def ensure_chromium() -> None:
    if (
        not Path(CHROMIUM).exists()
        or not Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf").exists()
    ):
        subprocess.run(["sh", str(ROOT / "scripts" / "install_chromium.sh")], check=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    url: str
    seed_file: Path

    def next_seed(self, seed: str) -> None:
        """The next game started on this server deals from ``seed``."""
        self.seed_file.write_text(seed, encoding="utf-8")


def new_page(browser: Any, *, locale: str = "en-US", width: int = 1280, height: int = 900) -> Any:
    """A page in a context of its own (its own localStorage: its own player)."""
    context = browser.new_context(
        locale=locale, viewport={"width": width, "height": height}, device_scale_factor=1
    )
    context.set_default_timeout(HANG_GUARD_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    return page


def shot(page: Any, name: str, *, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def _box(locator: Any) -> dict[str, float]:
    """The element's box; the page re-renders as the server answers, so look again."""
    for _ in range(50):
        try:
            locator.scroll_into_view_if_needed(timeout=2000)
            box = locator.bounding_box(timeout=2000)
        except Exception:
            box = None
        if box:
            return dict(box)
        time.sleep(0.05)
    raise AssertionError(f"{locator} is not on the page")


def drag(page: Any, source: Any, target: Any) -> None:
    """Drag with the mouse (pointer events), in steps as a hand would."""
    a = _box(source)
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(a["x"] + a["width"] / 2 + 12, a["y"] + a["height"] / 2 + 12, steps=3)
    b = _box(target)
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()
