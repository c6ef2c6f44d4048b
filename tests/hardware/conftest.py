"""Fixtures for the hardware tests: mock GPIO pins, a fake clock, an input queue."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

# With a bare `pytest`, tests/ is on sys.path and this folder would pass for the `hardware`
# package (a namespace package): put the repository root first.
REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from hardware.clock import FakeClock  # noqa: E402
from hardware.inputqueue import InputQueue  # noqa: E402


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """gpiozero's MockFactory as the default pin factory; restored afterwards."""
    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def queue() -> InputQueue:
    return InputQueue()
