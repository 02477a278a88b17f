"""Write the option tables of the rule reference (docs/rules/*.md) from the options' metadata.

    .venv/bin/python scripts/rule_reference.py          # rewrite the tables between the markers
    .venv/bin/python scripts/rule_reference.py --check  # exit 1 if a page is stale

The meanings are the docstrings under the option fields in src/openrummy/rules/; the pages'
other text is written by hand and left as it is.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from openrummy.rules.reference import stale_pages, update_pages

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale pages")
    args = parser.parse_args()
    if args.check:
        stale = stale_pages(DOCS)
        for path in stale:
            print(f"stale: {path} (run scripts/rule_reference.py)", file=sys.stderr)
        return 1 if stale else 0
    for path in update_pages(DOCS):
        print(f"updated {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
