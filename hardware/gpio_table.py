"""The table on Raspberry Pi GPIO pins, through gpiozero (lgpio on the Pi, mock pins in tests).

GPIO callbacks (on lgpio's thread) only record the edge with its time; :meth:`GpioTable.tick`
(from a :class:`~hardware.ticker.Ticker` thread every 10 ms, or called by the app or a test)
turns settled edges into events on the :class:`~hardware.inputqueue.InputQueue` and advances
LED blinking and beeps. Nothing in here touches the app or Kivy.
"""

from __future__ import annotations

import threading
import time
from functools import partial
from typing import Any

from gpiozero import DigitalInputDevice, DigitalOutputDevice

from .clock import Clock
from .inputqueue import InputQueue
from .outputs import Beeper, LedPattern, PatternDriver
from .table_logic import Channel, TableLogic
from .ticker import Ticker
from .wiring import Wiring


class GpioTable:
    """Seats, shared buttons, LEDs and buzzer as described by a :class:`Wiring`.

    ``pin_factory`` is passed to every gpiozero device (None: gpiozero's default, which honours
    ``GPIOZERO_PIN_FACTORY``). Construction raises whatever gpiozero raises when a pin is
    unavailable, after closing the devices it already made.
    """

    def __init__(
        self,
        wiring: Wiring,
        queue: InputQueue,
        *,
        pin_factory: Any = None,
        clock: Clock = time.monotonic,
        source: str = "gpio",
        tick_interval: float = 0.01,
    ) -> None:
        self.wiring = wiring
        self.queue = queue
        self.source = source
        self._clock = clock
        self._lock = threading.RLock()
        self._tick_interval = tick_interval
        self._ticker: Ticker | None = None
        self._devices: list[Any] = []
        self._started = False
        try:
            self._inputs = inputs = self._make_inputs(pin_factory)
            self.logic = TableLogic(
                source=source,
                dials={s.seat: s.dial_kind for s in wiring.seats.values()},
                buttons=wiring.buttons,
                settle=wiring.settle,
                now=clock(),
            )
            for channel, dev in inputs.items():
                dev.when_activated = partial(self._edge, channel, True)
                dev.when_deactivated = partial(self._edge, channel, False)
            self._leds: dict[int, PatternDriver] = {}
            for s in wiring.seats.values():
                if s.led is not None:
                    led = self._add(DigitalOutputDevice(
                        s.led, active_high=wiring.led_active_high, initial_value=False,
                        pin_factory=pin_factory))
                    self._leds[s.seat] = PatternDriver(partial(self._write, led))
            self._beeper: Beeper | None = None
            if wiring.buzzer is not None:
                buzzer = self._add(DigitalOutputDevice(
                    wiring.buzzer, active_high=wiring.buzzer_active_high, initial_value=False,
                    pin_factory=pin_factory))
                self._beeper = Beeper(partial(self._write, buzzer))
        except BaseException:
            self.close()
            raise

    # -- lifecycle ----------------------------------------------------------------------------

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(sorted(self.wiring.seats))

    @property
    def led_seats(self) -> tuple[int, ...]:
        return tuple(sorted(self._leds))

    @property
    def has_buzzer(self) -> bool:
        return self._beeper is not None

    def start(self, *, ticker: bool = True) -> None:
        """Read every input as it is now, queue one DialMoved per seat whose dial shows a gear,
        and, unless ``ticker`` is False, start the thread that calls :meth:`tick` every few
        milliseconds."""
        with self._lock:
            if self._started:
                return
            self._started = True
            levels = {ch: bool(dev.is_active) for ch, dev in self._inputs.items()}
            self.logic.assume(levels, self._clock())
            events = self.logic.initial_events()
        for event in events:
            self.queue.put(event)
        if ticker:
            self._ticker = Ticker(self.tick, self._tick_interval, name=f"{self.source}-ticker")
            self._ticker.start()

    def close(self) -> None:
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None
        with self._lock:
            devices, self._devices = self._devices, []
        for dev in reversed(devices):
            dev.close()

    def tick(self) -> None:
        """Emit events for inputs that settled, and advance LED blinks and beeps."""
        now = self._clock()
        with self._lock:
            events = self.logic.poll(now)
            for driver in self._leds.values():
                driver.update(now)
            if self._beeper is not None:
                self._beeper.update(now)
        for event in events:
            self.queue.put(event)

    # -- outputs ------------------------------------------------------------------------------

    def set_led(self, seat: int, pattern: LedPattern) -> None:
        """Show ``pattern`` on the seat's LED (ignored for a seat without one)."""
        with self._lock:
            driver = self._leds.get(seat)
            if driver is not None:
                driver.set(pattern, self._clock())

    def beep(self, count: int = 1, on: float = 0.08, off: float = 0.08) -> None:
        with self._lock:
            if self._beeper is not None:
                self._beeper.beep(count, on, off, self._clock())

    # -- internals ----------------------------------------------------------------------------

    def _make_inputs(self, pin_factory: Any) -> dict[Channel, Any]:
        w = self.wiring
        pins: dict[Channel, int] = {}
        for s in w.seats.values():
            for i, pin in enumerate(s.dial):
                pins[Channel.dial(s.seat, i)] = pin
            pins[Channel.ready(s.seat)] = s.ready
        for button, pin in w.buttons.items():
            pins[Channel.shared(button)] = pin
        return {
            channel: self._add(DigitalInputDevice(
                pin, pull_up=w.pull_up, bounce_time=None, pin_factory=pin_factory))
            for channel, pin in pins.items()
        }

    def _add(self, device: Any) -> Any:
        self._devices.append(device)
        return device

    def _edge(self, channel: Channel, level: bool) -> None:
        now = self._clock()
        with self._lock:
            self.logic.set_level(channel, level, now)

    @staticmethod
    def _write(device: Any, level: bool) -> None:
        device.value = level
