"""Byte links between a :class:`~hardware.serial_hub.SerialHub` and a
:class:`~hardware.fakes.FakeHubPeer`, with unplug and replug.

* :class:`LoopLink` — an ``opener`` for SerialHub whose ports read from a pyserial
  ``loop://`` port that the peer writes into (host writes go straight to the peer);
* :class:`PtyLink` — a real pseudo-terminal with a stable symlink name (as udev's
  ``/dev/heat-hub``), the peer served by a thread on the master side.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import tty
from pathlib import Path

import serial

from .fakes import FakeHubPeer

DISCONNECTED = "device reports readiness to read but returned no data (device disconnected?)"


class LoopPort:
    """One "connection" over ``loop://`` (implements the hub's ``SerialLike``)."""

    def __init__(self, peer: FakeHubPeer, timeout: float) -> None:
        self._peer = peer
        loop = serial.serial_for_url("loop://", timeout=timeout, do_not_open=True)
        loop.buffer_size = 1 << 20  # the peer and tests must never block on a full loop
        loop.open()
        self._loop = loop
        self._write_lock = threading.Lock()  # one writer at a time, as on a real wire
        self.unplugged = False
        peer.connect(self._from_hub)

    @property
    def in_waiting(self) -> int:
        self._check()
        return int(self._loop.in_waiting)

    def read(self, size: int = 1) -> bytes:
        self._check()
        return bytes(self._loop.read(size))

    def write(self, data: bytes, /) -> int:
        self._check()
        self._peer.receive(data)
        return len(data)

    def close(self) -> None:
        self._loop.close()

    def inject(self, data: bytes) -> None:
        """Raw bytes as if sent by the hub (garbage, partial lines)."""
        self._from_hub(data)

    def _from_hub(self, data: bytes) -> None:
        with self._write_lock:
            self._loop.write(data)

    def _check(self) -> None:
        if self.unplugged:
            raise serial.SerialException(DISCONNECTED)


class LoopLink:
    """Callable opener: each call is one (re)connection of the cable."""

    def __init__(self, peer: FakeHubPeer, timeout: float = 0.01) -> None:
        self.peer = peer
        self.timeout = timeout
        self.plugged = True
        self.port: LoopPort | None = None
        self.opens = 0

    def __call__(self) -> LoopPort:
        if not self.plugged:
            raise serial.SerialException("could not open port: [Errno 2] No such file or directory")
        self.opens += 1
        self.port = LoopPort(self.peer, self.timeout)
        return self.port

    def unplug(self) -> None:
        self.plugged = False
        self.peer.disconnect()
        if self.port is not None:
            self.port.unplugged = True

    def replug(self) -> None:
        self.plugged = True


class PtyLink:
    """A pseudo-terminal pair behind the symlink ``path``; :meth:`unplug` closes it (the host's
    reads fail and the name disappears), :meth:`plug` makes a new one under the same name."""

    def __init__(self, peer: FakeHubPeer, path: str | Path) -> None:
        self.peer = peer
        self.path = Path(path)
        self._fds: tuple[int, int] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.plug()

    def plug(self) -> None:
        if self._fds is not None:
            return
        master, slave = os.openpty()
        tty.setraw(slave)
        self._fds = (master, slave)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        self.path.symlink_to(os.ttyname(slave))
        self._stop = threading.Event()
        self.peer.connect(lambda data: os.write(master, data))
        self._thread = threading.Thread(target=self._serve, args=(master, self._stop),
                                        name="fake-hub-pty", daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        if self._fds is None:
            return
        self.peer.disconnect()
        self._stop.set()
        if self._thread is not None:
            self._thread.join(1.0)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        for fd in self._fds:
            os.close(fd)
        self._fds = None

    close = unplug

    def _serve(self, master: int, stop: threading.Event) -> None:
        while not stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.01)
            if not ready:
                continue
            try:
                data = os.read(master, 4096)
            except OSError:  # no reader on the other side yet
                stop.wait(0.01)
                continue
            self.peer.receive(data)
