"""detect(): a usable Hardware, or a clear reason to run touch-only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.exc import BadPinFactory
from gpiozero.pins.mock import MockFactory

from hardware import Hardware, detect
from hardware.clock import FakeClock
from hardware.events import HubOnline
from hardware.fake_links import LoopLink
from hardware.fakes import FakeHubPeer
from hardware.gpio_table import GpioTable
from hardware.inputqueue import InputQueue
from hardware.outputs import LedPattern
from hardware.serial_hub import SerialHub
from hardware.testing import collect, count, until
from hardware.wiring import parse_wiring

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "deploy" / "wiring.toml"
GPIO_ONLY = """
[seat.1]
dial.gray = [17, 27]
ready = 22
led = 23
"""


@pytest.fixture
def no_factory() -> Iterator[None]:
    """No pin factory chosen yet, as in a fresh process; restored afterwards."""
    saved = Device.pin_factory
    Device.pin_factory = None
    try:
        yield
    finally:
        if Device.pin_factory is not None and Device.pin_factory is not saved:
            Device.pin_factory.close()
        Device.pin_factory = saved


def test_no_wiring_file(tmp_path: Path, queue: InputQueue) -> None:
    hw = detect(queue, tmp_path / "wiring.toml")
    assert not hw.available
    assert hw.reason == f"no wiring file at {tmp_path / 'wiring.toml'}: running touch-only"


def test_wiring_file_from_the_environment(tmp_path: Path, queue: InputQueue,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "elsewhere.toml"
    hw = detect(queue, env={"HEAT_COMPANION_WIRING": str(path)})
    assert hw.reason == f"no wiring file at {path}: running touch-only"
    monkeypatch.setattr("hardware.detection.DEFAULT_WIRING", tmp_path / "default.toml")
    hw = detect(queue, env={})
    assert hw.reason == f"no wiring file at {tmp_path / 'default.toml'}: running touch-only"


def test_broken_wiring_file_says_where(tmp_path: Path, queue: InputQueue) -> None:
    path = tmp_path / "wiring.toml"
    path.write_text("[seat.1]\nready = 0\ndial.gray = [17, 27]\n", encoding="utf-8")
    hw = detect(queue, path)
    assert not hw.available
    assert hw.reason.startswith("wiring file rejected, running touch-only:\n")
    assert f"{path}: seat.1.ready: GPIO0 is reserved" in hw.reason


def test_mock_pin_factory_from_the_environment(
    no_factory: None, monkeypatch: pytest.MonkeyPatch, queue: InputQueue
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    hw = detect(queue, SAMPLE)
    try:
        assert hw.available and hw.reason == ""
        assert isinstance(hw.gpio, GpioTable) and isinstance(Device.pin_factory, MockFactory)
        assert isinstance(hw.hub, SerialHub) and hw.hub.port == "/dev/heat-hub"
        assert hw.seats == (1, 2, 3, 4, 5, 6)
    finally:
        hw.close()


def test_no_gpio_gives_a_reason(no_factory: None, monkeypatch: pytest.MonkeyPatch,
                                tmp_path: Path, queue: InputQueue) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    hw = detect(queue, SAMPLE)  # the hub is still there
    assert hw.available and hw.gpio is None and hw.hub is not None
    assert hw.reason == "no GPIO (BadPinFactory: Unable to find pin factory 'no-such-factory')"
    path = tmp_path / "wiring.toml"
    path.write_text(GPIO_ONLY, encoding="utf-8")
    hw = detect(queue, path)
    assert not hw.available
    assert hw.reason.endswith("; running touch-only")


def test_not_a_pi(tmp_path: Path, queue: InputQueue) -> None:
    # What gpiozero raises on a PC with no GPIO driver (probed on the dev machine).
    def not_a_pi() -> None:
        raise BadPinFactory("Unable to load any default pin factory!")

    path = tmp_path / "wiring.toml"
    path.write_text(GPIO_ONLY, encoding="utf-8")
    hw = detect(queue, path, pin_factory=not_a_pi)
    assert not hw.available
    assert hw.reason == ("no GPIO (BadPinFactory: Unable to load any default pin factory!); "
                         "running touch-only")


def test_empty_wiring(tmp_path: Path, queue: InputQueue) -> None:
    path = tmp_path / "wiring.toml"
    path.write_text("version = 1\n", encoding="utf-8")
    hw = detect(queue, path)
    assert not hw.available and "describes no hardware" in hw.reason


def test_outputs_go_to_the_device_that_serves_the_seat(mock_factory: MockFactory,
                                                       queue: InputQueue) -> None:
    clock = FakeClock()
    wiring = parse_wiring({"seat": {"1": {"dial": {"gray": [17, 27]}, "ready": 22, "led": 23}},
                           "buzzer": {"pin": 12}})
    peer = FakeHubPeer((5,))
    hub = SerialHub("loop://", queue, seats=(5,), opener=LoopLink(peer, timeout=0.005))
    hw = Hardware(queue, gpio=GpioTable(wiring, queue, clock=clock), hub=hub)
    hw.start()
    try:
        collect(queue, count(HubOnline))
        hw.set_led(1, LedPattern.ON)
        hw.set_led(5, LedPattern.BLINK)
        hw.set_led(3, LedPattern.ON)  # nobody serves seat 3: ignored
        hw.beep(1)
        assert bool(mock_factory.pin(23).state) and bool(mock_factory.pin(12).state)
        until(lambda: peer.leds[5] is LedPattern.BLINK)
        assert peer.beeps == []  # the GPIO buzzer took the beep
    finally:
        hw.close()
