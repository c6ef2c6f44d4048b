"""FakeTable produces exactly the events real switches on GPIO produce."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.clock import FakeClock
from hardware.dial import DialKind, encode
from hardware.events import ButtonPressed, DialMoved, InputEvent, SeatReady, TableButton
from hardware.fakes import FakeTable
from hardware.gpio_table import GpioTable
from hardware.inputqueue import InputQueue
from hardware.outputs import LedPattern
from hardware.wiring import parse_wiring

DIAL_PINS = {DialKind.GRAY: [17, 27], DialKind.POSITIONS: [5, 6, 13, 19]}
SCRIPT: list[tuple[str, object]] = [
    ("dial", 3), ("ready", None), ("button", TableButton.NEXT), ("dial", 1), ("ready", None),
    ("button", TableButton.UNDO), ("dial", 4), ("button", TableButton.CONFIRM), ("ready", None),
]


def run_on_gpio(kind: DialKind, f: MockFactory) -> list[InputEvent]:
    queue, clock = InputQueue(), FakeClock()
    wiring = parse_wiring({"seat": {"2": {"dial": {kind.value: DIAL_PINS[kind]}, "ready": 22}},
                           "buttons": {"next": 9, "undo": 10, "confirm": 11}})
    table = GpioTable(wiring, queue, clock=clock)
    pins = DIAL_PINS[kind]
    for pin, closed in zip(pins, encode(kind, 1), strict=True):
        f.pin(pin).drive_low() if closed else f.pin(pin).drive_high()
    table.start(ticker=False)

    def settle() -> None:
        clock.advance(0.031)
        table.tick()

    def press(pin: int) -> None:
        f.pin(pin).drive_low()
        settle()
        f.pin(pin).drive_high()
        settle()

    gear = 1
    for action, arg in SCRIPT:
        if action == "dial":
            assert isinstance(arg, int)
            step = 1 if arg > gear else -1
            for g in range(gear + step, arg + step, step):  # detent by detent
                for pin, closed in zip(pins, encode(kind, g), strict=True):
                    f.pin(pin).drive_low() if closed else f.pin(pin).drive_high()
                settle()
            gear = arg
        elif action == "ready":
            press(22)
        else:
            press({"next": 9, "undo": 10, "confirm": 11}[str(arg)])
    table.close()
    return queue.drain()


def run_on_fake(kind: DialKind) -> list[InputEvent]:
    queue = InputQueue()
    table = FakeTable(queue, seats=[2], dial_kind=kind)
    table.start()
    for action, arg in SCRIPT:
        if action == "dial":
            assert isinstance(arg, int)
            table.turn_dial(2, arg)
        elif action == "ready":
            table.press_ready(2)
        else:
            assert isinstance(arg, TableButton)
            table.press(arg)
    return queue.drain()


@pytest.mark.parametrize("kind", list(DialKind))
def test_fake_table_matches_gpio(kind: DialKind, mock_factory: MockFactory) -> None:
    fake = run_on_fake(kind)
    assert fake == run_on_gpio(kind, mock_factory)
    assert fake == [
        DialMoved(2, 1), DialMoved(2, 2), DialMoved(2, 3), SeatReady(2, 3),
        ButtonPressed(TableButton.NEXT), DialMoved(2, 2), DialMoved(2, 1), SeatReady(2, 1),
        ButtonPressed(TableButton.UNDO), DialMoved(2, 2), DialMoved(2, 3), DialMoved(2, 4),
        ButtonPressed(TableButton.CONFIRM), SeatReady(2, 4),
    ]


def test_fake_table_outputs_are_recorded() -> None:
    table = FakeTable(InputQueue(), seats=(1, 2))
    table.set_led(2, LedPattern.BLINK)
    table.set_led(7, LedPattern.ON)  # not a seat here: ignored, like a seat without LED
    table.beep(3)
    assert table.leds == {1: LedPattern.OFF, 2: LedPattern.BLINK}
    assert table.beeps == [(3, 0.08, 0.08)]
    with pytest.raises(ValueError, match="1..10 tones"):
        table.beep(11)  # the fake refuses what the real outputs refuse
    assert table.beeps == [(3, 0.08, 0.08)]
    with pytest.raises(ValueError):
        table.turn_dial(1, 5)
