"""The rule reference (docs/rules/) says what the options say, and cannot go stale."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from openrummy.rules import find_preset, preset_names
from openrummy.rules.options import option_docs
from openrummy.rules.reference import FAMILIES, family_presets, stale_pages

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


@pytest.mark.parametrize("preset", preset_names())
def test_every_option_has_a_description(preset: str) -> None:
    missing = [n for n, d in option_docs(find_preset(preset)).items() if not d.description]
    assert not missing, f"options of {preset} without a docstring under their field: {missing}"


def test_every_preset_belongs_to_a_family_page() -> None:
    listed = {name for family in FAMILIES for name in family_presets(family)}
    assert listed == set(preset_names())


def test_the_pages_list_every_option_of_every_preset() -> None:
    for family, page in FAMILIES.items():
        text = (DOCS / page).read_text(encoding="utf-8")
        for name, rules in family_presets(family).items():
            assert f" {name} |" in text, f"{page} has no column for {name}"
            for option in rules.options():
                assert f"| `{option}` |" in text, f"{page} does not list {option}"


def test_the_option_tables_are_up_to_date() -> None:
    stale = stale_pages(DOCS)
    assert not stale, f"stale: {stale}; run .venv/bin/python scripts/rule_reference.py"


@pytest.mark.parametrize("page", ["README.md", *FAMILIES.values()])
def test_worked_examples(page: str) -> None:
    result = doctest.testfile(str(DOCS / page), module_relative=False, verbose=False)
    assert result.attempted > 0
    assert result.failed == 0


def test_rummy_presets_points_to_the_reference() -> None:
    from typer.testing import CliRunner

    from openrummy.cli import app

    listing = CliRunner().invoke(app, ["presets"])
    assert listing.exit_code == 0 and "docs/rules/" in listing.output
    one = CliRunner().invoke(app, ["presets", "indian21"])
    assert one.exit_code == 0
    assert one.output.rstrip().endswith("docs/rules/indian.md")
    assert "v21.value_points                         10,30,50" in one.output
