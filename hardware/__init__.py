"""Table hardware for heat-companion: GPIO dials, buttons, LEDs and buzzer, and a USB serial hub.

Everything here emits *neutral input events* (:mod:`hardware.events`) into an
:class:`InputQueue` that the app drains on its main thread; nothing here imports the engine
or Kivy. Typical use::

    queue = InputQueue()
    hw = detect(queue)            # never raises; hw.available / hw.reason
    if not hw.available:
        show_once(hw.reason)      # touch-only
    hw.start()
    ...
    for event in queue.drain():   # on the main thread, e.g. every frame
        ...
    hw.set_led(2, LedPattern.BLINK); hw.beep(2)
"""

from .detection import Hardware, detect
from .dial import DialKind
from .events import (
    GEARS,
    ButtonPressed,
    DialMoved,
    HubOffline,
    HubOnline,
    InputEvent,
    InputRejected,
    Reason,
    SeatReady,
    TableButton,
)
from .fakes import FakeHubPeer, FakeTable
from .gpio_table import GpioTable
from .inputqueue import InputQueue
from .outputs import LedPattern, TableOutput
from .serial_hub import SerialHub
from .wiring import Wiring, WiringError, load_wiring, parse_wiring

__all__ = [
    "GEARS",
    "ButtonPressed",
    "DialKind",
    "DialMoved",
    "FakeHubPeer",
    "FakeTable",
    "GpioTable",
    "Hardware",
    "HubOffline",
    "HubOnline",
    "InputEvent",
    "InputQueue",
    "InputRejected",
    "LedPattern",
    "Reason",
    "SeatReady",
    "SerialHub",
    "TableButton",
    "TableOutput",
    "Wiring",
    "WiringError",
    "detect",
    "load_wiring",
    "parse_wiring",
]
