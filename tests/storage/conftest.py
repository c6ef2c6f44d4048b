"""Fixtures for the race-log tests; ``bench`` (race generator, crash harness) is importable."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import racegen  # noqa: E402
from companion.engine import RaceSetup  # noqa: E402
from companion.session import RaceLog  # noqa: E402


@pytest.fixture
def log_path(tmp_path: Path) -> Path:
    return tmp_path / "races.sqlite3"


@pytest.fixture
def log(log_path: Path) -> Iterator[RaceLog]:
    with RaceLog(log_path) as opened:
        yield opened


@pytest.fixture
def setup() -> RaceSetup:
    return racegen.setup(humans=3, legends=2, laps=2, seed=11)

