# OpenRummy: every target sets up what it needs; nothing is installed by hand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed

.PHONY: run test test-exhaustive lint bench clean setup browser warm docs

setup: $(STAMP) $(NODE_STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,ray,rl]'
	touch $(STAMP)

# TypeScript checks the web interface's ES modules (tsc --checkJs); nothing is built.
$(NODE_STAMP): package.json package-lock.json
	command -v npm >/dev/null || (apt-get update -qq && apt-get install -y -qq nodejs npm)
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

# Debian's Chromium for the browser tests (tests/e2e).
browser:
	sh scripts/install_chromium.sh

# Compile the solver's numba core once (later runs load it from numba's cache in
# src/openrummy/solve/__pycache__), so no game or test waits for the compiler.
warm: $(STAMP)
	$(BIN)/python -c 'from openrummy.solve._fast import warm; warm()'

run: $(STAMP) warm
	$(BIN)/rummy serve --host 127.0.0.1 --port 8000

lint: $(STAMP) $(NODE_STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy
	node_modules/.bin/tsc --noEmit -p tsconfig.json

# The everyday tier (and CI): lint, types, the unit and property tests, the golden files and a
# fresh random sample against the references; tests marked slow are left to test-exhaustive.
test: lint docs browser warm
	$(BIN)/python -m pytest -n 2 -m "not slow" --durations=20

# Everything, the full seeded cross-checks and the long server games included: run it before
# changing solve/ or a game engine (see docs/testing.md).
test-exhaustive: lint docs browser warm
	$(BIN)/python -m pytest -n 2

bench: $(STAMP) warm
	$(BIN)/python bench/run_all.py

# The documentation site (docs/ and the API reference from the docstrings) into site/;
# --strict in mkdocs.yml: any warning fails the build. The docs extra goes into .venv once.
DOCS_STAMP := $(VENV)/.docs-installed
$(DOCS_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	$(BIN)/python scripts/rule_reference.py --check
	$(BIN)/mkdocs build --strict

clean:
	rm -rf site $(VENV) node_modules .mypy_cache .pytest_cache .ruff_cache .hypothesis
