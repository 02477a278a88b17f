# OpenRummy: every target sets up what it needs; nothing is installed by hand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Every extra the checks and tests use, in one pip run. The docs extra (mkdocs, griffe):
# make docs builds with it, and mypy checks the doctest extension in scripts/ against it.
EXTRAS := dev,server,postgres,sim,ray,tui,rl,openspiel,docs
NODE_STAMP := node_modules/.installed
# pip installs without compiling the packages' bytecode (half of its time, on one core);
# the bytecode is compiled after it on every core, beside the other checks.
BYTECODE_STAMP := $(VENV)/.compiled
# The checks before pytest are independent and mostly single-threaded (mypy, the numba
# compile, mkdocs, tsc, pip beside npm): make test runs them side by side, this many at once.
CHECK_JOBS ?= 3
# Each setup step of make test prints its time ("[time] STEP: 12.3 s"): CI's log shows where
# the ten minutes go.
TIMED := sh scripts/timed.sh

.PHONY: run test test-exhaustive test-js lint lint-py lint-js checks bench clean setup browser warm docs

setup: $(STAMP) $(BYTECODE_STAMP) $(NODE_STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(TIMED) pip-upgrade $(BIN)/python -m pip install --quiet --upgrade pip
	$(TIMED) pip-install $(BIN)/python -m pip install --quiet --no-compile -e '.[$(EXTRAS)]'
	touch $(STAMP)

$(BYTECODE_STAMP): $(STAMP)
	$(TIMED) bytecode $(BIN)/python -m compileall -q -j 0 $$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
	touch $(BYTECODE_STAMP)

# The server alone (make run): its own environment with the server extra and nothing else
# (no test tools, no Ray), so running it does not need the whole development setup.
RUN_VENV := .venv-run
RUN_STAMP := $(RUN_VENV)/.installed
$(RUN_STAMP): pyproject.toml
	test -x $(RUN_VENV)/bin/python || $(PYTHON) -m venv $(RUN_VENV)
	$(RUN_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(RUN_VENV)/bin/python -m pip install --quiet -e '.[server]'
	touch $(RUN_STAMP)

# TypeScript checks the web interface's ES modules (tsc --checkJs); nothing is built.
$(NODE_STAMP): package.json package-lock.json
	command -v npm >/dev/null || (apt-get update -qq && apt-get install -y -qq nodejs npm)
	$(TIMED) npm-ci npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

# Debian's Chromium for the browser tests (tests/e2e).
browser:
	$(TIMED) chromium sh scripts/install_chromium.sh

# Compile the solver's numba core once (later runs load it from numba's cache in
# src/openrummy/solve/__pycache__), so no game or test waits for the compiler.
warm: $(STAMP)
	$(TIMED) warm $(BIN)/rummy warm

run: $(RUN_STAMP)
	$(RUN_VENV)/bin/rummy warm
	$(RUN_VENV)/bin/rummy serve --host 127.0.0.1 --port 8000

lint: lint-py lint-js

lint-py: $(STAMP)
	$(TIMED) ruff $(BIN)/ruff check src tests bench
	$(TIMED) ruff-format $(BIN)/ruff format --check src tests bench
	$(TIMED) mypy $(BIN)/mypy

lint-js: $(NODE_STAMP)
	$(TIMED) tsc node_modules/.bin/tsc --noEmit -p tsconfig.json

# The web client's logic that needs no browser (cards, texts, the turn being built), with
# node's own test runner; the browser tests (tests/e2e) keep what needs a page.
test-js: $(NODE_STAMP)
	$(TIMED) test-js node --test tests/js/*.test.mjs

# Everything pytest does not run: the setup, lint and types, the docs build, the web
# client's unit tests, Chromium and the compiled solver. The long ones are listed first, so
# that they start first when make runs them side by side (make test).
checks: warm lint-py $(BYTECODE_STAMP) lint-js docs test-js browser

# The everyday tier (and CI): lint, types, the unit and property tests, the golden files and a
# fresh random sample against the references; tests marked slow are left to test-exhaustive.
test:
	$(TIMED) checks $(MAKE) --no-print-directory --jobs=$(CHECK_JOBS) --output-sync=target checks
	$(TIMED) pytest $(BIN)/python -m pytest -n 2 --dist worksteal -m "not slow" --durations=20

# Everything, the full seeded cross-checks and the long server games included: run it before
# changing solve/ or a game engine (see docs/testing.md).
test-exhaustive:
	$(TIMED) checks $(MAKE) --no-print-directory --jobs=$(CHECK_JOBS) --output-sync=target checks
	$(TIMED) pytest $(BIN)/python -m pytest -n 2 --dist worksteal

bench: $(BYTECODE_STAMP) warm
	$(BIN)/python bench/run_all.py

# The documentation site (docs/ and the API reference from the docstrings) into site/;
# --strict in mkdocs.yml: any warning fails the build.
docs: $(STAMP)
	$(TIMED) rule-reference $(BIN)/python scripts/rule_reference.py --check
	$(TIMED) mkdocs $(BIN)/mkdocs build --strict

clean:
	rm -rf site $(VENV) $(RUN_VENV) node_modules .mypy_cache .pytest_cache .ruff_cache .hypothesis
