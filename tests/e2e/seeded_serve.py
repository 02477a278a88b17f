"""``rummy serve`` with a deal the test chooses: the e2e tests' only change to the server.

A browser test needs a known deal (a hand that can open, a joker to swap). The server draws
a secret seed when a game starts (``openrummy.server.fairness.new_seed``); here it reads the
next seed from the file named by ``OPENRUMMY_E2E_SEED_FILE`` if the test wrote one, and
deletes it, so the following games are random again. Everything else is ``rummy serve``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from openrummy.cli import main
from openrummy.server import fairness

_random_seed = fairness.new_seed


def _chosen_seed() -> str:
    path = os.environ.get("OPENRUMMY_E2E_SEED_FILE")
    if path:
        file = Path(path)
        if file.exists():
            seed = file.read_text(encoding="utf-8").strip()
            file.unlink()
            if seed:
                return seed
    return _random_seed()


fairness.new_seed = _chosen_seed

if __name__ == "__main__":
    main(sys.argv[1:])
