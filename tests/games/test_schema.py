"""The published JSON Schema of the views is generated from their dataclasses and holds."""

from __future__ import annotations

import json
import random
from pathlib import Path

import jsonschema
import pytest

from openrummy import new_match
from openrummy.games.schema import jsdoc_typedefs, view_schema
from openrummy.rules import find_preset, preset_names

SCHEMA_FILE = Path(__file__).parents[2] / "docs" / "schema" / "views.schema.json"


def test_the_published_schema_is_the_generated_one() -> None:
    # Regenerate with: python -m openrummy.games.schema > docs/schema/views.schema.json
    assert json.loads(SCHEMA_FILE.read_text()) == view_schema()


@pytest.mark.parametrize("name", preset_names())
def test_every_view_validates_against_the_schema(name: str) -> None:
    schema = view_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    rng = random.Random(name)
    match = new_match(find_preset(name), 3, seed=7)
    for _ in range(40):
        if match.is_over:
            break
        for seat in (0, 1, 2, None):
            validator.validate(match.view(seat).to_json())
        match.apply(rng.choice(list(match.legal_actions())))
    wrong = dict(match.view(0).to_json(), hand=[7])
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(wrong)


def test_the_web_clients_typedefs_are_the_generated_ones() -> None:
    # Regenerate with: python -m openrummy.games.schema --jsdoc > src/openrummy/web/js/views.js
    web = Path(__file__).parents[2] / "src" / "openrummy" / "web" / "js" / "views.js"
    assert web.read_text() == jsdoc_typedefs()
