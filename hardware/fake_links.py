"""Byte links between a :class:`~hardware.serial_hub.SerialHub` and a
:class:`~hardware.fakes.FakeHubPeer`, with unplug and replug.

* :class:`LoopLink` — an ``opener`` for SerialHub whose ports read from an unbounded in-memory
  pipe that the peer writes into (host writes go straight to the peer);
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


class BytePipe:
    """An unbounded one-way byte pipe read with a timeout, as a serial port is.

    Writing never blocks, so a writer that holds a lock can never wait on the reader (a
    bounded ``loop://`` queue did: a test flooding the link blocked while holding the lock the
    reader thread's reply needed, and the test hung until its timeout).
    """

    def __init__(self, timeout: float) -> None:
        self._timeout = timeout
        self._buffer = bytearray()
        self._ready = threading.Condition()
        self._closed = False

    @property
    def in_waiting(self) -> int:
        with self._ready:
            return len(self._buffer)

    def read(self, size: int = 1) -> bytes:
        with self._ready:
            if not self._buffer:
                self._ready.wait_for(lambda: bool(self._buffer) or self._closed, self._timeout)
            data = bytes(self._buffer[:size])
            del self._buffer[:size]
            return data

    def write(self, data: bytes) -> int:
        with self._ready:
            self._buffer += data
            self._ready.notify_all()
        return len(data)

    def close(self) -> None:
        with self._ready:
            self._closed = True
            self._ready.notify_all()


class LoopPort:
    """One "connection" to the fake hub (implements the hub's ``SerialLike``): the hub's bytes
    go into a :class:`BytePipe` that the host reads; the host's writes go straight to the
    peer."""

    def __init__(self, peer: FakeHubPeer, timeout: float) -> None:
        self._peer = peer
        self._pipe = BytePipe(timeout)
        self.unplugged = False
        peer.connect(self._pipe.write)

    @property
    def in_waiting(self) -> int:
        self._check()
        return self._pipe.in_waiting

    def read(self, size: int = 1) -> bytes:
        self._check()
        return self._pipe.read(size)

    def write(self, data: bytes, /) -> int:
        self._check()
        self._peer.receive(data)
        return len(data)

    def close(self) -> None:
        self._pipe.close()

    def inject(self, data: bytes) -> None:
        """Raw bytes as if sent by the hub (garbage, partial lines)."""
        self._pipe.write(data)

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
    reads fail and the name disappears), :meth:`plug` makes a new one under the same name.

    One server thread owns the master side: it reads the host's bytes into the peer and writes
    the peer's bytes out, both without blocking. The peer only appends to an outbox, so a test
    pressing a button never waits on the pty (a full pty buffer with the peer's lock held would
    deadlock against the server thread handing the host's lines to the peer).
    """

    STOP_TIMEOUT = 10.0
    """How long :meth:`unplug` waits for the server thread (it polls every 10 ms)."""

    def __init__(self, peer: FakeHubPeer, path: str | Path) -> None:
        self.peer = peer
        self.path = Path(path)
        self._fds: tuple[int, int] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._outbox = bytearray()
        self._outbox_lock = threading.Lock()
        self.plug()

    def plug(self) -> None:
        if self._fds is not None:
            return
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._fds = (master, slave)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        self.path.symlink_to(os.ttyname(slave))
        self._stop = threading.Event()
        with self._outbox_lock:
            self._outbox.clear()
        self.peer.connect(self._send)
        self._thread = threading.Thread(target=self._serve, args=(master, self._stop),
                                        name="fake-hub-pty", daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        if self._fds is None:
            return
        self.peer.disconnect()
        self._stop.set()
        if self._thread is not None:
            self._thread.join(self.STOP_TIMEOUT)
            if self._thread.is_alive():  # never close descriptors a live thread still uses
                raise RuntimeError(f"pty server did not stop within {self.STOP_TIMEOUT} s")
            self._thread = None
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        for fd in self._fds:
            os.close(fd)
        self._fds = None

    close = unplug

    def _send(self, data: bytes) -> None:
        with self._outbox_lock:
            self._outbox += data

    def _serve(self, master: int, stop: threading.Event) -> None:
        while not stop.is_set():
            with self._outbox_lock:
                pending = bytes(self._outbox)
            readable, writable, _ = select.select([master], [master] if pending else [], [],
                                                  0.01)
            if writable:
                try:
                    written = os.write(master, pending)
                except (BlockingIOError, InterruptedError):
                    written = 0
                with self._outbox_lock:
                    del self._outbox[:written]
            if not readable:
                continue
            try:
                data = os.read(master, 4096)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:  # no reader on the other side yet
                stop.wait(0.01)
                continue
            self.peer.receive(data)
