"""Neutral events and the thread-safe InputQueue."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest

from hardware.events import (
    ButtonPressed,
    DialMoved,
    HubOffline,
    InputEvent,
    InputRejected,
    Reason,
    SeatReady,
    TableButton,
)
from hardware.inputqueue import InputQueue


def test_events_are_frozen_values() -> None:
    a, b = SeatReady(2, 3), SeatReady(2, 3)
    assert a == b and hash(a) == hash(b)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.gear = 4  # type: ignore[misc]
    assert ButtonPressed(TableButton.NEXT).seat is None


@pytest.mark.parametrize(
    "make",
    [
        lambda: SeatReady(0, 1),
        lambda: SeatReady(1, 0),
        lambda: SeatReady(1, 5),
        lambda: DialMoved(9, 1),
        lambda: DialMoved(1, True),
        lambda: ButtonPressed("next"),  # type: ignore[arg-type]
        lambda: ButtonPressed(TableButton.UNDO, seat=0),
    ],
)
def test_events_reject_impossible_values(make: object) -> None:
    with pytest.raises(ValueError):
        make()  # type: ignore[operator]


def test_drain_returns_fifo_and_empties() -> None:
    q = InputQueue()
    events: list[InputEvent] = [SeatReady(1, 2), DialMoved(2, 4),
                                HubOffline("hub", Reason.of("the app closed its port."))]
    for e in events:
        q.put(e)
    assert len(q) == 3
    assert q.drain() == events
    assert q.drain() == []


def test_puts_from_many_threads_lose_nothing() -> None:
    q = InputQueue(maxsize=100_000)
    per_thread = 2000

    def producer(seat: int) -> None:
        for i in range(per_thread):
            q.put(DialMoved(seat, i % 4 + 1))

    threads = [threading.Thread(target=producer, args=(s,), daemon=True) for s in (1, 2, 3, 4)]
    for t in threads:
        t.start()
    drained = []
    deadline = time.monotonic() + 20
    while (any(t.is_alive() for t in threads) or len(q)) and time.monotonic() < deadline:
        drained += q.drain()
        q.wait(0.01)
    for t in threads:
        t.join(1.0)
        assert not t.is_alive(), "a producer is stuck"
    drained += q.drain()
    assert len(drained) == 4 * per_thread
    for seat in (1, 2, 3, 4):  # each producer's events stay in order
        gears = [e.gear for e in drained if isinstance(e, DialMoved) and e.seat == seat]
        assert gears == [i % 4 + 1 for i in range(per_thread)]


def test_full_queue_drops_and_says_so() -> None:
    q = InputQueue(maxsize=2)
    for gear in (1, 2, 3, 4):
        q.put(DialMoved(1, gear))
    assert q.dropped == 2
    assert q.drain() == [
        DialMoved(1, 1),
        DialMoved(1, 2),
        InputRejected("queue", Reason.of(
            "{count} table inputs were dropped: too many came at once.", count=2)),
    ]
    assert q.drain() == []


def test_on_put_hook_and_wait() -> None:
    calls: list[int] = []
    q = InputQueue(on_put=lambda: calls.append(len(q)))
    assert q.wait(0.001) is False
    threading.Timer(0.01, q.put, args=(SeatReady(1, 1),)).start()
    assert q.wait(20.0) is True
    assert calls == [1]
