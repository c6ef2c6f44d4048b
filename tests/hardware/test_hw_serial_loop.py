"""SerialHub over an in-memory link with a FakeHubPeer: the whole host stack, real threads.

LoopLink gives each (re)connection a fresh unbounded pipe that the fake hub writes into; the
host's writes go straight to the fake hub. Unplugging makes reads raise SerialException and
opening fail, as a vanished /dev/ttyACM0 does.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

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
from hardware.fake_links import LoopLink
from hardware.fakes import FakeHubPeer
from hardware.inputqueue import InputQueue
from hardware.outputs import LedPattern
from hardware.serial_hub import SerialHub
from hardware.testing import collect, count, inputs, until


@contextmanager
def linked(queue: InputQueue, peer: FakeHubPeer,
           clock: Clock = time.monotonic) -> Iterator[tuple[SerialHub, LoopLink]]:
    link = LoopLink(peer, timeout=0.005)
    hub = SerialHub("loop://", queue, seats=(5, 6), opener=link, retry_delay=0.01,
                    max_retry_delay=0.05, clock=clock)
    hub.start()
    try:
        yield hub, link
    finally:
        hub.close()


@pytest.fixture
def rig(queue: InputQueue) -> Iterator[tuple[SerialHub, FakeHubPeer, LoopLink]]:
    peer = FakeHubPeer((5, 6))
    with linked(queue, peer) as (hub, link):
        yield hub, peer, link


def start(queue: InputQueue) -> list[Any]:
    return collect(queue, count(HubOnline))


def test_online_then_inputs_and_outputs(rig: Any, queue: InputQueue) -> None:
    hub, peer, _ = rig
    assert start(queue) == [DialMoved(5, 1), DialMoved(6, 1), HubOnline("hub", (5, 6))]
    assert hub.online
    peer.turn_dial(6, 4)
    peer.press_ready(6)
    peer.press(TableButton.CONFIRM)
    assert collect(queue, count(ButtonPressed)) == [
        DialMoved(6, 4), SeatReady(6, 4), ButtonPressed(TableButton.CONFIRM)]
    hub.set_led(5, LedPattern.FAST_BLINK)
    hub.beep(2, 0.1, 0.05)
    until(lambda: peer.leds[5] is LedPattern.FAST_BLINK and peer.beeps == [(2, 100, 50)])
    assert hub.stats.rejected == 0


def test_partial_lines_are_buffered(rig: Any, queue: InputQueue) -> None:
    hub, peer, link = rig
    start(queue)
    held: list[bytes] = []

    def hold(line: bytes) -> None:  # keep the next line back
        held.append(line)

    peer.tamper = hold
    peer.press_ready(5)
    peer.tamper = None
    [line] = held
    sent = 0
    for piece in (line[:3], line[3:11], line[11:-1]):  # each piece read on its own
        link.port.inject(piece)
        sent += len(piece)
        until(lambda: hub.partial_bytes == sent)  # noqa: B023
        assert queue.drain() == []
    link.port.inject(line[-1:])
    assert collect(queue, count(SeatReady)) == [SeatReady(5, 1)]
    assert hub.stats.rejected == 0 and hub.stats.lines >= 4


def test_unplug_and_replug_lose_and_double_nothing(rig: Any, queue: InputQueue) -> None:
    hub, peer, link = rig
    start(queue)
    peer.press_ready(5)
    assert collect(queue, count(SeatReady)) == [SeatReady(5, 1)]
    link.unplug()
    [offline] = collect(queue, count(HubOffline))
    assert isinstance(offline, HubOffline) and "disconnected" in str(offline.reason)
    # The hub keeps its power and numbering: presses while the cable is out are replayed.
    peer.press_ready(6)
    peer.press(TableButton.UNDO)
    peer.turn_dial(5, 3)
    until(lambda: link.opens >= 1 and not hub.online)
    link.replug()
    assert collect(queue, count(HubOnline)) == [
        SeatReady(6, 1), ButtonPressed(TableButton.UNDO), DialMoved(5, 3),
        HubOnline("hub", (5, 6))]
    peer.press_ready(5)
    assert collect(queue, count(SeatReady)) == [SeatReady(5, 3)]
    assert hub.stats.duplicates == 0
    assert queue.drain() == []  # one HubOffline only, however many reopen attempts failed


def test_damaged_line_is_recovered_by_replay(rig: Any, queue: InputQueue) -> None:
    hub, peer, _ = rig
    start(queue)

    def damage_once(line: bytes) -> bytes:
        peer.tamper = None
        return line.replace(b"NEXT", b"NEXU")

    peer.tamper = damage_once
    peer.press(TableButton.NEXT)  # lost on the wire
    peer.press_ready(5)  # arrives first: gap -> SYNC -> replay of both, in order
    events = collect(queue, count(SeatReady))
    assert inputs(events) == [ButtonPressed(TableButton.NEXT), SeatReady(5, 1)]
    assert hub.stats.rejected == 1 and hub.stats.reasons["bad-checksum"] == 1
    assert hub.stats.gaps == 1


def garbage_lines(rng: random.Random, n: int) -> list[bytes]:
    valid = [p.frame("PRESS", 7, "READY", 5, 2), p.frame("DIAL", 6, 3), p.frame("SYNCED", 9),
             p.frame("HELLO", 1, "0badf00d", 3, "5,6"), p.frame("PONG")]
    semantic = [  # correct checksums, impossible content
        p.frame("PRESS", 7, "READY", 5, 9), p.frame("DIAL", 3, 2), p.frame("DIAL", 6, 0),
        p.frame("FOO", 1), p.frame("PRESS", 8, "EJECT", 0, 0), p.frame("GAP", 9, 2),
        p.frame("HELLO", 1, "0BADF00D", 3, "5"), p.frame("PONG", 1, 2),
        p.frame("PRESS", 1, "NEXT", 4, 0), p.frame("SYNCED", "00"),
    ]
    out: list[bytes] = []
    for _ in range(n):
        kind = rng.randrange(7)
        if kind == 0:  # random bytes
            line = bytes(rng.choice([b for b in range(256) if b != 10])
                         for _ in range(rng.randrange(0, 140)))
        elif kind == 1:  # printable noise, sometimes with a star and hex
            line = "".join(rng.choice("ABCDEFGHIJ PRESS0123456789*") for _ in
                           range(rng.randrange(1, 60))).encode()
        elif kind == 2:  # one byte of a valid line changed
            changed = bytearray(rng.choice(valid)[:-1])
            i = rng.randrange(len(changed))
            changed[i] = rng.choice([b for b in range(256) if b not in (10, changed[i])])
            line = bytes(changed)
        elif kind == 3:  # truncated
            base = rng.choice(valid)[:-1]
            line = base[: rng.randrange(len(base))]
        elif kind == 4:  # checksum fine, content not
            line = rng.choice(semantic)[:-1]
        elif kind == 5:  # far too long
            line = b"PRESS " * rng.randrange(20, 200)
        else:  # control characters, Ctrl-C, CR in the middle
            line = rng.choice([b"\x03\x03", b"PING\r*6427", b"\x00" * 10, b"\r", b"\x1b[2J"])
        assert b"\n" not in line
        out.append(line)
    return out


def test_ten_thousand_garbage_lines(rig: Any, queue: InputQueue) -> None:
    hub, peer, link = rig
    start(queue)
    lines = garbage_lines(random.Random(20240501), 10_000)
    link.port.inject(b"".join(line + b"\n" for line in lines))
    peer.press_ready(6)  # a real press after the storm still gets through
    events = collect(queue, count(SeatReady), timeout=30)
    assert inputs(events) == [SeatReady(6, 1)]  # no phantom input
    assert hub.stats.rejected == 10_000
    assert sum(hub.stats.reasons.values()) == 10_000
    assert len(events) - 1 <= 3  # rejections are reported, rate-limited, not one per line
    assert hub.online and hub.stats.disconnects == 0


def damage_next_line(peer: FakeHubPeer) -> None:
    def damage_once(line: bytes) -> bytes:
        peer.tamper = None
        return line[:-6] + b"0" + line[-5:]  # one byte of the body changed

    peer.tamper = damage_once


@pytest.mark.parametrize("protocol", [2, 1])
def test_lost_last_press_is_recovered_by_the_heartbeat(queue: InputQueue,
                                                       protocol: int) -> None:
    """Nothing follows the damaged press, so only the heartbeat can reveal it: with the host's
    clock frozen it never arrives; one heartbeat interval later it does. A version-1 hub (the
    old firmware) is asked with SYNC, a version-2 hub with PING/PONG."""
    peer, clock = FakeHubPeer((5, 6), protocol=protocol), FakeClock()
    with linked(queue, peer, clock) as (hub, _):
        collect(queue, count(HubOnline))
        damage_next_line(peer)
        peer.press(TableButton.UNDO)
        until(lambda: hub.stats.rejected == 1)
        assert inputs(queue.drain()) == []
        clock.advance(0.5)
        assert inputs(collect(queue, count(ButtonPressed))) == [ButtonPressed(TableButton.UNDO)]
        assert hub.stats.duplicates == 0
        heartbeat = "PING" if protocol == 2 else "SYNC"
        assert [c.kind for c in peer.commands].count(heartbeat) >= 1
        assert peer.rejected == {}  # the old hub was never sent anything it does not know
        peer.press_ready(6)
        assert inputs(collect(queue, count(SeatReady))) == [SeatReady(6, 1)]


def test_forged_gap_is_refused_and_presses_keep_coming(rig: Any, queue: InputQueue) -> None:
    hub, peer, link = rig
    start(queue)
    link.port.inject(p.frame("GAP", 1, p.MAX_SEQ))
    until(lambda: hub.stats.reasons["unexpected-gap"] == 1)
    for _ in range(3):
        peer.press(TableButton.NEXT)
    assert inputs(collect(queue, count(ButtonPressed, 3))) == [ButtonPressed(TableButton.NEXT)] * 3
    assert hub.stats.lost_presses == 0


def test_wrap_around_with_the_fake_hub(queue: InputQueue) -> None:
    """The fake hub renumbers after press ``max_seq`` as the firmware does after 2**31 - 1.
    Presses go two at a time, so some arrive while the host asks HELLO again (they are replayed
    by its SYNC). (A renumbering drops the hub's history, so two within one round trip would
    lose presses: with 2**31 - 1 presses per numbering that cannot happen.)"""
    peer = FakeHubPeer((5, 6), max_seq=3)
    with linked(queue, peer) as (hub, _):
        start(queue)
        buttons = [TableButton.NEXT, TableButton.UNDO, TableButton.CONFIRM] * 3
        events: list[Any] = []
        for i in range(0, len(buttons), 2):
            for button in buttons[i:i + 2]:
                peer.press(button)
            events += collect(queue, count(ButtonPressed, len(buttons[i:i + 2])))
        assert inputs(events) == [ButtonPressed(b) for b in buttons]
        assert peer.seq == 3 and hub.stats.rehandshakes == 2 and hub.stats.duplicates == 0
        assert hub.stats.lost_presses == 0
        assert not [e for e in events if isinstance(e, InputRejected)]
