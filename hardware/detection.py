"""Find the table's hardware: :func:`detect` returns a :class:`Hardware` that is ready to
``start()``, or says why there is none so the app can run touch-only and tell the user once.

The wiring file is looked up as: the ``wiring`` argument, else ``$HEAT_COMPANION_WIRING``,
else ``/etc/heat-companion/wiring.toml``. GPIO uses gpiozero's default pin factory (lgpio on
the Pi), or whatever ``GPIOZERO_PIN_FACTORY`` names (``mock`` in tests).
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .clock import Clock
from .gpio_table import GpioTable
from .inputqueue import InputQueue
from .outputs import LedPattern
from .serial_hub import SerialHub
from .wiring import Wiring, WiringError, load_wiring

DEFAULT_WIRING = Path("/etc/heat-companion/wiring.toml")
WIRING_ENV = "HEAT_COMPANION_WIRING"


@dataclass
class Hardware:
    """The table's input and output devices, as found. Route LEDs and beeps through it: it sends
    each seat's LED to whichever device (GPIO or hub) serves that seat."""

    queue: InputQueue
    gpio: GpioTable | None = None
    hub: SerialHub | None = None
    reason: str = ""
    """Empty when everything in the wiring file was found; otherwise what is missing and why
    (show it once)."""
    wiring: Wiring | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def available(self) -> bool:
        """False: no hardware at all, run touch-only."""
        return self.gpio is not None or self.hub is not None

    @property
    def seats(self) -> tuple[int, ...]:
        gpio = self.gpio.seats if self.gpio else ()
        hub = self.hub.seats if self.hub else ()
        return tuple(sorted({*gpio, *hub}))

    def start(self) -> None:
        if self.gpio is not None:
            self.gpio.start()
        if self.hub is not None:
            self.hub.start()

    def close(self) -> None:
        if self.hub is not None:
            self.hub.close()
        if self.gpio is not None:
            self.gpio.close()

    def set_led(self, seat: int, pattern: LedPattern) -> None:
        if self.gpio is not None and seat in self.gpio.seats:
            self.gpio.set_led(seat, pattern)
        elif self.hub is not None and seat in self.hub.seats:
            self.hub.set_led(seat, pattern)

    def beep(self, count: int = 1, on: float = 0.08, off: float = 0.08) -> None:
        """The GPIO buzzer if wired, else the hub's."""
        if self.gpio is not None and self.gpio.has_buzzer:
            self.gpio.beep(count, on, off)
        elif self.hub is not None:
            self.hub.beep(count, on, off)


def _default_factory() -> Any:
    from gpiozero import Device

    Device.ensure_pin_factory()
    return Device.pin_factory


def detect(
    queue: InputQueue,
    wiring: str | Path | None = None,
    *,
    env: Mapping[str, str] | None = None,
    pin_factory: Callable[[], Any] = _default_factory,
    clock: Clock = time.monotonic,
) -> Hardware:
    """Load the wiring file and open what it describes. Never raises for missing or broken
    hardware: the result's ``available`` and ``reason`` say what happened.

    ``pin_factory`` returns the gpiozero pin factory to use (default: gpiozero's own choice).
    """
    env = os.environ if env is None else env
    path = Path(wiring) if wiring is not None else Path(env.get(WIRING_ENV) or DEFAULT_WIRING)
    if not path.exists():
        return Hardware(queue, reason=f"no wiring file at {path}: running touch-only")
    try:
        config = load_wiring(path)
    except WiringError as exc:
        return Hardware(queue, reason=f"wiring file rejected, running touch-only:\n{exc}")

    hw = Hardware(queue, wiring=config)
    problems: list[str] = []
    if config.uses_gpio:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                factory = pin_factory()
                hw.gpio = GpioTable(config, queue, pin_factory=factory, clock=clock)
            except Exception as exc:  # BadPinFactory, PinInvalidPin, GPIOPinInUse, OSError...
                problems.append(f"no GPIO ({type(exc).__name__}: {exc})")
        hw.notes += [str(w.message) for w in caught]
    if config.hub is not None:
        h = config.hub
        hw.hub = SerialHub(h.port, queue, seats=h.seats, name=h.name, baudrate=h.baudrate,
                           clock=clock)
    if not config.uses_gpio and config.hub is None:
        problems.append(f"{path} describes no hardware")
    if not hw.available:
        problems.append("running touch-only")
    hw.reason = "; ".join(problems)
    return hw
