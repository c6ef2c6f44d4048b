"""The USB serial hub: a reader thread that survives unplug and replug.

One daemon thread owns the reading: open the port (retrying with back-off while it is absent),
send ``HELLO`` and ``SYNC`` (a banner sent before the port opened is lost, so the host always
asks), split bytes into lines (:class:`~hardware.protocol.LineBuffer` keeps partial lines),
hand each line to the pure :class:`~hardware.hub_session.HubSession`, put its events on the
:class:`~hardware.inputqueue.InputQueue` and write its replies. Any read error closes the port,
queues one ``HubOffline`` and starts over. Garbage is counted in :attr:`SerialHub.stats`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Protocol

import serial

from .clock import Clock
from .events import N_, Reason
from .hub_session import HubSession, HubState, HubStats, Outcome, SessionTiming
from .inputqueue import InputQueue
from .outputs import LedPattern
from .protocol import LineBuffer

log = logging.getLogger(__name__)


class SerialLike(Protocol):
    """The part of ``serial.Serial`` the hub uses (tests substitute their own)."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def close(self) -> None: ...


Opener = Callable[[], SerialLike]


def serial_opener(port: str, baudrate: int = 115200, read_timeout: float = 0.05) -> Opener:
    """Opens ``port`` (a device path, or a pyserial URL such as ``loop://``)."""

    def open_port() -> SerialLike:
        if "://" in port:
            url_port: SerialLike = serial.serial_for_url(
                port, baudrate=baudrate, timeout=read_timeout, write_timeout=1.0)
            return url_port
        device: SerialLike = serial.Serial(
            port, baudrate=baudrate, timeout=read_timeout, write_timeout=1.0, exclusive=True)
        return device

    return open_port


class SerialHub:
    """Talks to one hub. Thread-safe outputs: :meth:`set_led`, :meth:`beep`."""

    def __init__(
        self,
        port: str,
        queue: InputQueue,
        *,
        seats: Iterable[int],
        name: str = "hub",
        baudrate: int = 115200,
        opener: Opener | None = None,
        clock: Clock = time.monotonic,
        timing: SessionTiming | None = None,
        read_timeout: float = 0.05,
        retry_delay: float = 0.25,
        max_retry_delay: float = 5.0,
    ) -> None:
        self.port = port
        self.name = name
        self.queue = queue
        self._open = opener or serial_opener(port, baudrate, read_timeout)
        self._clock = clock
        self._retry_delay = retry_delay
        self._max_retry_delay = max_retry_delay
        self._session = HubSession(name, seats, timing)
        self._lock = threading.RLock()
        self._port: SerialLike | None = None
        self._buffer = LineBuffer()
        self._outbox: list[bytes] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- public -------------------------------------------------------------------------------

    @property
    def seats(self) -> tuple[int, ...]:
        return self._session.seats

    @property
    def online(self) -> bool:
        with self._lock:
            return self._session.state is HubState.ONLINE

    @property
    def stats(self) -> HubStats:
        """Counters (lines, rejected by reason, duplicates, gaps, reconnects...)."""
        return self._session.stats

    @property
    def partial_bytes(self) -> int:
        """Bytes of an unfinished line received so far (diagnostics)."""
        with self._lock:
            return self._buffer.pending

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"{self.name}-reader",
                                            daemon=True)
            self._thread.start()

    def close(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        with self._lock:
            port, self._port = self._port, None
        if port is not None:
            _close_quietly(port)

    def set_led(self, seat: int, pattern: LedPattern) -> None:
        """Show ``pattern`` on a hub seat's LED; remembered and re-sent after a reconnect."""
        with self._lock:
            self._apply(self._session.set_led(seat, pattern))

    def beep(self, count: int = 1, on: float = 0.08, off: float = 0.08) -> None:
        with self._lock:
            self._apply(self._session.beep(count, on, off))

    # -- reader thread ------------------------------------------------------------------------

    def _run(self) -> None:
        delay = self._retry_delay
        while not self._stop.is_set():
            try:
                port = self._open()
            except Exception as exc:  # SerialException, OSError, ValueError from the driver
                with self._lock:
                    self._apply(self._session.closed(Reason.of(
                        N_("its port {port} cannot be opened ({problem})."), port=self.port,
                        problem=str(exc))))
                self._stop.wait(delay)
                delay = min(delay * 2, self._max_retry_delay)
                continue
            with self._lock:
                self._port = port
                self._buffer.clear()
                self._outbox.clear()  # queued for the old connection; state is re-sent anyway
                self._apply(self._session.opened(self._clock()))
            try:
                reason = self._pump(port)
            except Exception as exc:  # a bug must not kill the reader: log, reconnect
                log.exception("hub %s: reader failed", self.name)
                reason = Reason.of(N_("the app failed reading it ({problem})."),
                                   problem=repr(exc))
            with self._lock:
                self._port = None
                was_online = self._session.state is HubState.ONLINE
                if not self._stop.is_set():
                    self._apply(self._session.closed(reason))
            _close_quietly(port)
            log.info("hub %s: %s", self.name, reason)
            # Back off from a device that opens but never gets online (wrong device, old
            # firmware); come back quickly after a normal unplug.
            delay = self._retry_delay if was_online else min(delay * 2, self._max_retry_delay)
            self._stop.wait(delay)

    def _pump(self, port: SerialLike) -> Reason:
        while not self._stop.is_set():
            with self._lock:
                pending, self._outbox = self._outbox, []
            try:
                if pending:
                    port.write(b"".join(pending))
                waiting = port.in_waiting
                data = port.read(waiting if waiting > 0 else 1)
            except Exception as exc:  # unplugged: SerialException / OSError / driver quirks
                return Reason.of(N_("it was disconnected ({problem})."), problem=str(exc))
            now = self._clock()
            with self._lock:
                for line in self._buffer.feed(data) if data else ():
                    outcome = self._session.receive(line, now)
                    self._apply(outcome)
                    if outcome.drop:
                        return outcome.drop
                outcome = self._session.tick(now)
                self._apply(outcome)
                if outcome.drop:
                    return outcome.drop
        return Reason.of(N_("the app closed its port."))

    def _apply(self, outcome: Outcome) -> None:
        # Called with the lock held. Only the reader thread writes to the port (from the
        # outbox, in order), so the app's thread never blocks on serial I/O.
        for event in outcome.events:
            self.queue.put(event)
        if self._port is not None:
            self._outbox += outcome.send


def _close_quietly(port: SerialLike) -> None:
    try:
        port.close()
    except Exception as exc:
        log.debug("closing serial port failed: %s", exc)
