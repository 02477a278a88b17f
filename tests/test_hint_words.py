"""A Rummikub hint reads as the table shows its tiles ("black 11", "schwarz 11"), never as
tile codes ("K11", "[R11 O11 B11]"): in the server's words and in the web page's, English
and German. The steps leave the solver as messages with the tiles in notation; only the
catalogue (Python) or messages.js (the page) turns them into words.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import openrummy
from openrummy.bots import make_bot
from openrummy.games.families import new_match
from openrummy.messages import CATALOGUE_PATH, LANGS
from openrummy.rules import find_preset
from openrummy.server.jobs import hint

WEB_JS = Path(openrummy.__file__).parent / "web" / "js"
SCRIPT = Path(__file__).parent / "js" / "render_messages.mjs"
TILE_CODE = re.compile(r"(?<![A-Za-z0-9])[KROB](1[0-3]|[1-9])(?![0-9])")


def _hints(lang: str, want: int) -> list[dict[str, Any]]:
    """Hints for the seat to move in seeded Rummikub games of greedy bots."""
    rules = find_preset("rummikub")
    out: list[dict[str, Any]] = []
    game = 0
    while len(out) < want:
        match: Any = new_match(rules, 2, seed=f"hint-words-{game}")
        bots = [make_bot("greedy", rules, s) for s in range(2)]
        for _turn in range(40):
            if match.is_over or len(out) >= want:
                break
            seat = match.current
            view = match.view(seat).to_json()
            if "play" in view["legal"]:
                answer = hint(rules, view, lang)
                if answer["found"]:
                    out.append(answer)
            match.apply(bots[seat].choose(match.view(seat)))
        game += 1
    return out


def test_rummikub_hints_name_tiles_not_codes() -> None:
    for lang in LANGS:
        hints = _hints(lang, 6)
        steps = [s for h in hints for s in h["steps"]]
        assert steps and all(not TILE_CODE.search(s) for s in steps), steps
        colour = "black|red|orange|blue" if lang == "en" else "schwarz|rot|orange|blau"
        assert all(re.search(rf"({colour}) \d", s) for s in steps), steps
        # The page words the same messages (messages.js, with its tile labels) the same way.
        messages = [m for h in hints for m in h["step_messages"]]
        assert all(
            c == "JK" or TILE_CODE.fullmatch(c.split("=")[-1])
            for m in messages
            for part in m["parts"]
            for c in part.get("cards", [])
        ), "the messages carry the tiles in notation"
        payload = {
            "catalogue": json.loads(CATALOGUE_PATH.read_text(encoding="utf-8")),
            "lang": lang,
            "messages": [{"message": m, "names": None} for m in messages],
            "cards": [],
            "melds": [],
        }
        done = subprocess.run(
            ["node", str(SCRIPT), str(WEB_JS)],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            check=True,
        )
        page = json.loads(done.stdout)["texts"]
        assert len(page) == len(steps)
        assert all(not TILE_CODE.search(s) for s in page), page
        # The page labels tiles as the engine does: the same sentences.
        assert page == steps
