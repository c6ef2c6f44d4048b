"""The GPIO table on gpiozero mock pins: every wiring option, bounce, LEDs and the buzzer.

Mock pins ignore gpiozero's bounce_time, and the table does not use it: debouncing is the
table's own settle logic, driven here by a FakeClock and explicit tick() calls.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.clock import FakeClock
from hardware.events import ButtonPressed, DialMoved, InputRejected, SeatReady, TableButton
from hardware.gpio_table import GpioTable
from hardware.inputqueue import InputQueue
from hardware.outputs import LedPattern
from hardware.testing import collect, count
from hardware.wiring import parse_wiring

SETTLE = 0.03  # default settle_ms = 30
GRAY_SEAT = {"dial": {"gray": [17, 27]}, "ready": 22, "led": 23}
ONE_HOT_SEAT = {"dial": {"positions": [5, 6, 13, 19]}, "ready": 26, "led": 24}


def make(queue: InputQueue, clock: FakeClock, start: bool = True, **data: Any) -> GpioTable:
    table = GpioTable(parse_wiring(data, "test.toml"), queue, clock=clock)
    if start:
        table.start(ticker=False)
    return table


@pytest.fixture
def gray(mock_factory: MockFactory, queue: InputQueue, clock: FakeClock) -> Any:
    table = make(queue, clock, seat={"1": GRAY_SEAT}, buttons={"next": 9, "undo": 10,
                                                                 "confirm": 11}, buzzer={"pin": 12})
    yield table
    table.close()


def settle(table: GpioTable, clock: FakeClock, seconds: float = SETTLE + 0.001) -> None:
    clock.advance(seconds)
    table.tick()


def press(f: MockFactory, pin: int, table: GpioTable, clock: FakeClock) -> None:
    f.pin(pin).drive_low()  # switch to GND, internal pull-up: closed = low
    settle(table, clock)
    f.pin(pin).drive_high()
    settle(table, clock)


def set_gray(f: MockFactory, gear: int) -> None:
    a, b = {1: (0, 0), 2: (1, 0), 3: (1, 1), 4: (0, 1)}[gear]
    for pin, closed in ((17, a), (27, b)):
        f.pin(pin).drive_low() if closed else f.pin(pin).drive_high()


def test_gray_dial_walk(gray: GpioTable, mock_factory: MockFactory, queue: InputQueue,
                        clock: FakeClock) -> None:
    assert queue.drain() == [DialMoved(1, 1)]  # start-up position
    for gear in (2, 3, 4, 1, 2):
        set_gray(mock_factory, gear)
        settle(gray, clock)
    assert queue.drain() == [DialMoved(1, g) for g in (2, 3, 4, 1, 2)]


def test_dial_turned_quickly_reports_only_where_it_stops(
    gray: GpioTable, mock_factory: MockFactory, queue: InputQueue, clock: FakeClock
) -> None:
    queue.drain()
    for gear in (2, 3, 4):  # 10 ms per detent: faster than the settle time
        set_gray(mock_factory, gear)
        clock.advance(0.01)
        gray.tick()
    settle(gray, clock)
    assert queue.drain() == [DialMoved(1, 4)]


def test_one_hot_dial(mock_factory: MockFactory, queue: InputQueue, clock: FakeClock) -> None:
    f = mock_factory
    table = make(queue, clock, start=False, seat={"2": ONE_HOT_SEAT})
    f.pin(6).drive_low()  # the dial rests in gear 2 when the app starts
    table.start(ticker=False)
    assert queue.drain() == [DialMoved(2, 2)]
    # Break-before-make: all open for longer than the settle time -> no event.
    f.pin(6).drive_high()
    settle(table, clock, 0.2)
    f.pin(13).drive_low()
    settle(table, clock)
    # Make-before-break: two contacts closed for a while -> no event.
    f.pin(19).drive_low()
    settle(table, clock, 0.2)
    f.pin(13).drive_high()
    settle(table, clock)
    assert queue.drain() == [DialMoved(2, 3), DialMoved(2, 4)]
    press(f, 26, table, clock)
    assert queue.drain() == [SeatReady(2, 4)]
    table.close()


def test_ready_reads_the_dial(gray: GpioTable, mock_factory: MockFactory, queue: InputQueue,
                              clock: FakeClock) -> None:
    set_gray(mock_factory, 3)
    settle(gray, clock)
    queue.drain()
    press(mock_factory, 22, gray, clock)
    assert queue.drain() == [SeatReady(1, 3)]


def test_ready_and_dial_in_the_same_tick_use_the_new_gear(
    gray: GpioTable, mock_factory: MockFactory, queue: InputQueue, clock: FakeClock
) -> None:
    queue.drain()
    set_gray(mock_factory, 2)
    mock_factory.pin(22).drive_low()
    settle(gray, clock)
    assert queue.drain() == [DialMoved(1, 2), SeatReady(1, 2)]


def test_ready_with_dial_between_positions_is_rejected(
    mock_factory: MockFactory, queue: InputQueue, clock: FakeClock
) -> None:
    table = make(queue, clock, seat={"3": ONE_HOT_SEAT})  # no contact closed
    press(mock_factory, 26, table, clock)
    [event] = queue.drain()
    assert isinstance(event, InputRejected) and event.seat == 3 and event.source == "gpio"
    assert str(event.reason) == "Seat 3: Ready was pressed with the gear dial between two gears."
    table.close()


def test_shared_buttons(gray: GpioTable, mock_factory: MockFactory, queue: InputQueue,
                        clock: FakeClock) -> None:
    queue.drain()
    for pin in (9, 10, 11, 9):
        press(mock_factory, pin, gray, clock)
    assert queue.drain() == [ButtonPressed(TableButton(b)) for b in
                             ("next", "undo", "confirm", "next")]


def test_bouncing_switch_gives_exactly_one_event(
    gray: GpioTable, mock_factory: MockFactory, queue: InputQueue, clock: FakeClock
) -> None:
    queue.drain()
    pin = mock_factory.pin(22)
    for _ in range(6):  # contact bounce on press: 1 ms edges, ticks in between
        pin.drive_low()
        clock.advance(0.001)
        gray.tick()
        pin.drive_high()
        clock.advance(0.001)
        gray.tick()
    pin.drive_low()
    for _ in range(10):  # held for 100 ms
        settle(gray, clock, 0.01)
    for _ in range(4):  # bounce on release
        pin.drive_high()
        clock.advance(0.002)
        gray.tick()
        pin.drive_low()
        clock.advance(0.002)
        gray.tick()
    pin.drive_high()
    settle(gray, clock, 0.1)
    assert queue.drain() == [SeatReady(1, 1)]


def test_glitch_shorter_than_settle_gives_nothing(
    gray: GpioTable, mock_factory: MockFactory, queue: InputQueue, clock: FakeClock
) -> None:
    queue.drain()
    mock_factory.pin(9).drive_low()
    settle(gray, clock, SETTLE / 3)
    mock_factory.pin(9).drive_high()
    settle(gray, clock, 1.0)
    assert queue.drain() == []


def levels_over(table: GpioTable, clock: FakeClock, pin: Any, step: float, n: int) -> list[bool]:
    out = []
    for _ in range(n):
        out.append(bool(pin.state))
        clock.advance(step)
        table.tick()
    return out


def test_led_patterns(gray: GpioTable, mock_factory: MockFactory, clock: FakeClock) -> None:
    led = mock_factory.pin(23)
    assert led.state is False or led.state == 0
    gray.set_led(1, LedPattern.ON)
    assert levels_over(gray, clock, led, 0.25, 4) == [True] * 4
    gray.set_led(1, LedPattern.BLINK)  # 0.5 s on, 0.5 s off, starting on
    assert levels_over(gray, clock, led, 0.25, 8) == [True, True, False, False] * 2
    gray.set_led(1, LedPattern.FAST_BLINK)  # 0.1 s on, 0.1 s off
    assert levels_over(gray, clock, led, 0.05, 8) == [True, True, False, False] * 2
    gray.set_led(1, LedPattern.OFF)
    assert levels_over(gray, clock, led, 0.25, 4) == [False] * 4
    # The pin's own history: one write per change, none while a level holds.
    states = [bool(s.state) for s in led.states]
    assert states == [False, True, False, True, False, True, False, True, False, True, False]
    gray.set_led(4, LedPattern.ON)  # no LED for that seat: ignored


def test_same_pattern_again_keeps_the_phase(gray: GpioTable, mock_factory: MockFactory,
                                            clock: FakeClock) -> None:
    led = mock_factory.pin(23)
    gray.set_led(1, LedPattern.BLINK)
    clock.advance(0.6)
    gray.tick()
    gray.set_led(1, LedPattern.BLINK)  # the app repeats itself every frame
    assert bool(led.state) is False


def test_active_low_led(mock_factory: MockFactory, queue: InputQueue, clock: FakeClock) -> None:
    table = make(queue, clock, table={"led_active_high": False}, seat={"1": GRAY_SEAT})
    led = mock_factory.pin(23)
    assert bool(led.state) is True  # off = high
    table.set_led(1, LedPattern.ON)
    assert bool(led.state) is False
    table.close()


def test_buzzer_beeps(gray: GpioTable, mock_factory: MockFactory, clock: FakeClock) -> None:
    buzzer = mock_factory.pin(12)
    gray.beep(2, on=0.1, off=0.1)
    assert levels_over(gray, clock, buzzer, 0.05, 10) == [True, True, False, False, True, True,
                                                        False, False, False, False]
    assert [bool(s.state) for s in buzzer.states] == [False, True, False, True, False]
    for tones in (0, 11):  # the limits of the hub's BEEP, so a beep sounds the same on both
        with pytest.raises(ValueError, match="1..10 tones"):
            gray.beep(tones)


def test_close_releases_the_pins(mock_factory: MockFactory, queue: InputQueue,
                                 clock: FakeClock) -> None:
    for _ in range(2):
        table = make(queue, clock, seat={"1": GRAY_SEAT})
        table.close()


def test_pin_in_use_fails_cleanly(gray: GpioTable, queue: InputQueue, clock: FakeClock) -> None:
    from gpiozero.exc import GPIOPinInUse

    with pytest.raises(GPIOPinInUse):
        make(queue, clock, seat={"1": {"dial": {"gray": [4, 18]}, "ready": 22}})
    # Its other devices were closed again: the free pins can be used.
    make(queue, clock, seat={"1": {"dial": {"gray": [4, 18]}, "ready": 7}}).close()


def test_ticker_thread_and_callbacks_from_another_thread(
    mock_factory: MockFactory, queue: InputQueue
) -> None:
    # Real time here: the ticker thread runs tick() every 5 ms; the edge comes from a thread
    # standing in for lgpio's callback thread. Only the queue crosses threads.
    table = GpioTable(parse_wiring({"seat": {"1": GRAY_SEAT}}, "t.toml"), queue)
    table.start()
    assert queue.drain() == [DialMoved(1, 1)]
    thread = threading.Thread(target=mock_factory.pin(22).drive_low, name="fake-lgpio",
                              daemon=True)
    thread.start()
    thread.join(10.0)
    assert not thread.is_alive()
    assert collect(queue, count(SeatReady), timeout=20) == [SeatReady(1, 1)]
    table.close()
