"""Regenerate ``tests/data/env_trajectories.json``: digests of seeded trajectories of the
Indian Rummy environments (actions, rewards, masks, observations; see
``tests/helpers/env_trajectories.py``). Regenerate only when the environments are meant to
behave differently; a speed-up must leave every digest as it is.

    .venv/bin/python scripts/golden_env_trajectories.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from helpers.env_trajectories import CASES, trajectory  # noqa: E402

OUT = ROOT / "tests" / "data" / "env_trajectories.json"


def main() -> None:
    golden = {name: trajectory(case) for name, case in CASES.items()}
    OUT.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(golden)} cases)")


if __name__ == "__main__":
    main()
