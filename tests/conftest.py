"""Suite-wide settings: the seed of the fresh random samples (``helpers.sample_seed``).

The seed is drawn once per run, before the xdist workers start (they inherit it through
the environment), and printed at the end of the run; ``OPENRUMMY_SAMPLE_SEED=<seed>``
repeats a run's sample.
"""

from __future__ import annotations

import os
import random

import pytest

from helpers import SAMPLE_SEED_VARIABLE


def pytest_configure(config: pytest.Config) -> None:
    if not os.environ.get(SAMPLE_SEED_VARIABLE):
        os.environ[SAMPLE_SEED_VARIABLE] = str(random.SystemRandom().randrange(10**9))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    seed = os.environ[SAMPLE_SEED_VARIABLE]
    terminalreporter.write_line(
        f"random samples drawn with {SAMPLE_SEED_VARIABLE}={seed} (set it to repeat them)"
    )
