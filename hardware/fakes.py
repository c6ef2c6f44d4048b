"""Hardware stand-ins that ship with the package, so the app and its tests run with no pins.

* :class:`FakeTable` — a table with seats, dials and buttons, driven by method calls. It runs the
  very same :class:`~hardware.table_logic.TableLogic` as the GPIO table (contacts, settle time,
  event rules) on a private fake clock, so it produces exactly the events real switches do.
* :class:`FakeHubPeer` — the hub side of the serial protocol (what the firmware does), to be
  connected to a :class:`~hardware.serial_hub.SerialHub` through :mod:`hardware.fake_links`.
"""

from __future__ import annotations

import os
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterable

from . import dial
from . import protocol as p
from .clock import FakeClock
from .dial import DialKind
from .events import GEARS, TableButton
from .inputqueue import InputQueue
from .outputs import LedPattern, beep_plan
from .table_logic import Channel, TableLogic

DEFAULT_SETTLE = 0.03


class FakeTable:
    """A pin-free table. Every action settles at once (the fake clock jumps past the settle
    time), so the events are in the queue when the call returns. Dials start in gear 1."""

    def __init__(
        self,
        queue: InputQueue,
        seats: Iterable[int] = (1, 2, 3, 4),
        *,
        dial_kind: DialKind = DialKind.GRAY,
        buttons: Iterable[TableButton] = tuple(TableButton),
        settle: float = DEFAULT_SETTLE,
        source: str = "fake",
    ) -> None:
        self.queue = queue
        self.clock = FakeClock()
        self.settle = settle
        self._kind = dial_kind
        self._lock = threading.Lock()
        seat_list = sorted(set(seats))
        levels = {
            Channel.dial(s, i): level
            for s in seat_list
            for i, level in enumerate(dial.encode(dial_kind, 1))
        }
        self.logic = TableLogic(source=source, dials=dict.fromkeys(seat_list, dial_kind),
                                buttons=buttons, settle=settle, now=self.clock(), levels=levels)
        self.leds: dict[int, LedPattern] = dict.fromkeys(seat_list, LedPattern.OFF)
        self.beeps: list[tuple[int, float, float]] = []
        self._started = False

    @property
    def seats(self) -> tuple[int, ...]:
        return self.logic.seats

    def start(self, *, ticker: bool = False) -> None:
        with self._lock:
            events = [] if self._started else self.logic.initial_events()
            self._started = True
        for event in events:
            self.queue.put(event)

    def close(self) -> None:
        pass

    def tick(self) -> None:
        self._settle(0.0)

    # -- inputs -------------------------------------------------------------------------------

    def turn_dial(self, seat: int, gear: int) -> None:
        """Turn the seat's dial to ``gear``, one detent at a time (as a hand would)."""
        if gear not in GEARS:
            raise ValueError(f"no gear {gear}")
        current = self.logic.gear(seat) or 1
        step = 1 if gear > current else -1
        for g in range(current + step, gear + step, step):
            for i, level in enumerate(dial.encode(self._kind, g)):
                self._set(Channel.dial(seat, i), level)
            self._settle(self.settle)

    def press_ready(self, seat: int) -> None:
        self._press(Channel.ready(seat))

    def press(self, button: TableButton) -> None:
        self._press(Channel.shared(button))

    def _press(self, channel: Channel) -> None:
        self._set(channel, True)
        self._settle(self.settle)
        self._set(channel, False)
        self._settle(self.settle)

    def _set(self, channel: Channel, level: bool) -> None:
        with self._lock:
            self.logic.set_level(channel, level, self.clock())

    def _settle(self, seconds: float) -> None:
        with self._lock:
            events = self.logic.poll(self.clock.advance(seconds))
        for event in events:
            self.queue.put(event)

    # -- outputs ------------------------------------------------------------------------------

    def set_led(self, seat: int, pattern: LedPattern) -> None:
        if seat in self.leds:
            self.leds[seat] = pattern

    def beep(self, count: int = 1, on: float = 0.08, off: float = 0.08) -> None:
        beep_plan(count, on, off)  # refuses what the real outputs refuse
        self.beeps.append((count, on, off))


class FakeHubPeer:
    """The hub end of the protocol, behaving like deploy/hub-firmware/main.py.

    Presses are numbered and kept in a history of ``history`` entries whether or not a host is
    connected (a hub with its own power keeps counting through a cable glitch), and replayed on
    ``SYNC``. After press number ``max_seq`` the numbering starts again from 1 under a new boot
    id, announced by an unprompted ``HELLO``. ``protocol=1`` makes it a hub with the version-1
    firmware (it answers ``HELLO 2`` with ``ERR version`` and ``HELLO 1``, its ``PONG`` carries
    no number, and it never renumbers). ``tamper`` may rewrite or drop (return None) each
    outgoing line, for tests.
    """

    def __init__(
        self,
        seats: Iterable[int] = (5, 6),
        *,
        history: int = 64,
        boot_id: str | None = None,
        protocol: int = p.PROTOCOL_VERSION,
        max_seq: int = p.MAX_SEQ,
    ) -> None:
        if not p.OLDEST_PROTOCOL_VERSION <= protocol <= p.PROTOCOL_VERSION:
            raise ValueError(f"no protocol version {protocol}")
        self.protocol = protocol
        self.version = 1
        """The version of the current session (what the host's last HELLO asked for)."""
        self.max_seq = max_seq
        self.seats = tuple(sorted(set(seats)))
        self.gears: dict[int, int] = dict.fromkeys(self.seats, 1)
        self.leds: dict[int, LedPattern] = dict.fromkeys(self.seats, LedPattern.OFF)
        self.beeps: list[tuple[int, int, int]] = []
        self.commands: list[p.HostCommand] = []
        self.rejected: Counter[str] = Counter()
        self.tamper: Callable[[bytes], bytes | None] | None = None
        self._history_size = history
        self._lock = threading.RLock()
        self._write: Callable[[bytes], object] | None = None
        self._buffer = p.LineBuffer()
        self.reboot(boot_id)

    def reboot(self, boot_id: str | None = None) -> None:
        """Forget everything, as a power cycle does (new boot id, numbering from 1)."""
        with self._lock:
            self.boot_id = boot_id or os.urandom(4).hex()
            self.seq = 0
            self.history: deque[tuple[int, bytes]] = deque(maxlen=self._history_size)
            self.leds = dict.fromkeys(self.seats, LedPattern.OFF)

    # -- transport ----------------------------------------------------------------------------

    def connect(self, write: Callable[[bytes], object]) -> None:
        with self._lock:
            self._write = write
            self._buffer.clear()

    def disconnect(self) -> None:
        with self._lock:
            self._write = None

    def receive(self, data: bytes) -> None:
        """Bytes from the host; complete lines are answered through the connected writer."""
        with self._lock:
            for line in self._buffer.feed(data):
                try:
                    cmd = p.parse_host_message(p.unframe(line))
                except p.ProtocolError as exc:
                    self.rejected[exc.reason] += 1
                    self._send(p.frame("ERR", exc.reason))
                    continue
                self.commands.append(cmd)
                self._handle(cmd)

    # -- the table at the hub -----------------------------------------------------------------

    def press_ready(self, seat: int) -> int:
        return self._press(p.READY, seat, self.gears[seat])

    def press_ready_between(self, seat: int) -> int:
        """Ready pressed while the dial rests between two positions (gear 0 on the wire)."""
        return self._press(p.READY, seat, 0)

    def press(self, button: TableButton) -> int:
        return self._press(button.value.upper(), 0, 0)

    def turn_dial(self, seat: int, gear: int) -> None:
        with self._lock:
            if self.gears[seat] != gear:
                self.gears[seat] = gear
                self._send(p.frame("DIAL", seat, gear))

    def _press(self, button: str, seat: int, gear: int) -> int:
        with self._lock:
            if self.seq >= self.max_seq and self.protocol >= 2:
                self._renumber()
            self.seq += 1
            line = p.frame("PRESS", self.seq, button, seat, gear)
            self.history.append((self.seq, line))
            self._send(line)
            return self.seq

    # -- protocol -----------------------------------------------------------------------------

    def _renumber(self) -> None:
        old = self.boot_id
        while self.boot_id == old:
            self.boot_id = os.urandom(4).hex()
        self.seq = 0
        self.history.clear()
        self._send(self._hello_line(self.version))

    def _hello_line(self, version: int) -> bytes:
        seats = ",".join(str(s) for s in self.seats) or "-"
        return p.frame("HELLO", version, self.boot_id, self.seq, seats)

    def _handle(self, cmd: p.HostCommand) -> None:
        if cmd.kind == "HELLO":
            asked = cmd.args[0]
            if asked < 1 or (self.protocol == 1 and asked != 1):
                self._send(p.frame("ERR", "version"))  # (the version-1 firmware's answer)
                self._send(self._hello_line(self.protocol))
            else:
                self.version = min(asked, self.protocol)
                self._send(self._hello_line(self.version))
        elif cmd.kind == "SYNC":
            last = cmd.args[0]
            replay = [(seq, line) for seq, line in self.history if seq > last]
            first_kept = replay[0][0] if replay else self.seq + 1
            if last + 1 < first_kept and last < self.seq:
                self._send(p.frame("GAP", last + 1, first_kept - 1))
            for _, line in replay:
                self._send(line)
            for seat in self.seats:
                self._send(p.frame("DIAL", seat, self.gears[seat]))
            self._send(p.frame("SYNCED", self.seq))
        elif cmd.kind == "LED":
            assert cmd.pattern is not None
            if cmd.args[0] in self.leds:
                self.leds[cmd.args[0]] = cmd.pattern
            else:
                self._send(p.frame("ERR", "seat"))
        elif cmd.kind == "BEEP":
            count, on_ms, off_ms = cmd.args
            self.beeps.append((count, on_ms, off_ms))
        elif cmd.kind == "PING":
            self._send(p.frame("PONG", self.seq) if self.version >= 2 else p.frame("PONG"))

    def _send(self, line: bytes) -> None:
        if self._write is None:
            return
        out = self.tamper(line) if self.tamper is not None else line
        if out is not None:
            self._write(out)
