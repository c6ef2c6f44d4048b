"""SerialHub on a real pseudo-terminal (os.openpty) behind a stable symlink, as udev's
/dev/heat-hub: unplug closes the pty (reads fail with EIO, the name disappears), replug
makes a new pty under the same name. Real pyserial, real threads, short timeouts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware.events import ButtonPressed, DialMoved, HubOffline, HubOnline, SeatReady, TableButton
from hardware.fake_links import PtyLink
from hardware.fakes import FakeHubPeer
from hardware.inputqueue import InputQueue
from hardware.outputs import LedPattern
from hardware.serial_hub import SerialHub, serial_opener
from hardware.testing import collect, count, inputs, until


@pytest.fixture
def pty_rig(tmp_path: Path, queue: InputQueue) -> Iterator[tuple[SerialHub, FakeHubPeer, PtyLink]]:
    peer = FakeHubPeer((5, 6))
    path = tmp_path / "heat-hub"
    link = PtyLink(peer, path)
    hub = SerialHub(str(path), queue, seats=(5, 6), opener=serial_opener(str(path),
                    read_timeout=0.01), retry_delay=0.01, max_retry_delay=0.05)
    try:
        yield hub, peer, link
    finally:
        hub.close()
        link.close()


def test_pty_online_inputs_and_leds(pty_rig: Any, queue: InputQueue) -> None:
    hub, peer, _ = pty_rig
    hub.start()
    assert collect(queue, count(HubOnline)) == [DialMoved(5, 1), DialMoved(6, 1),
                                                HubOnline("hub", (5, 6))]
    peer.press_ready(5)
    peer.press(TableButton.NEXT)
    assert collect(queue, count(ButtonPressed)) == [SeatReady(5, 1),
                                                    ButtonPressed(TableButton.NEXT)]
    hub.set_led(6, LedPattern.BLINK)
    until(lambda: peer.leds[6] is LedPattern.BLINK)


def test_pty_unplug_replug_cycles_lose_and_double_nothing(pty_rig: Any,
                                                          queue: InputQueue) -> None:
    hub, peer, link = pty_rig
    hub.start()
    collect(queue, count(HubOnline))
    expected: list[Any] = []
    events: list[Any] = []
    for cycle in range(3):
        seat = 5 + cycle % 2
        peer.press_ready(seat)  # while connected
        expected.append(SeatReady(seat, peer.gears[seat]))
        events += collect(queue, count(SeatReady))
        link.unplug()
        events += collect(queue, count(HubOffline))
        peer.press(TableButton.UNDO)  # while unplugged: kept in the hub's history
        peer.press_ready(seat)
        expected += [ButtonPressed(TableButton.UNDO), SeatReady(seat, peer.gears[seat])]
        link.plug()
        events += collect(queue, count(HubOnline))
    offline = [e for e in events if isinstance(e, HubOffline)]
    assert len(offline) == 3 and all("disconnected" in str(e.reason) for e in offline)
    assert [e for e in inputs(events) if isinstance(e, (SeatReady, ButtonPressed))] == expected
    assert hub.stats.duplicates == 0 and hub.stats.connects == 4


def test_pty_absent_at_start_then_plugged(pty_rig: Any, queue: InputQueue) -> None:
    hub, peer, link = pty_rig
    link.unplug()
    hub.start()
    [offline] = collect(queue, count(HubOffline))
    assert isinstance(offline, HubOffline) and "cannot be opened" in str(offline.reason)
    until(lambda: hub.stats.connects == 0)  # retrying, quietly
    link.plug()
    collect(queue, count(HubOnline))
    peer.press_ready(6)
    assert inputs(collect(queue, count(SeatReady))) == [SeatReady(6, 1)]


def test_pty_hub_restarted_while_unplugged(pty_rig: Any, queue: InputQueue) -> None:
    hub, peer, link = pty_rig
    hub.start()
    collect(queue, count(HubOnline))
    peer.press_ready(5)
    peer.press_ready(5)
    collect(queue, count(SeatReady, 2))
    link.unplug()
    collect(queue, count(HubOffline))
    peer.reboot()  # power cycle: new boot id, numbering restarts at 1
    peer.turn_dial(5, 2)
    peer.press_ready(5)  # pressed after the restart, before the host reconnected
    link.plug()
    events = collect(queue, count(HubOnline))
    # Replayed: the press (with the dial it read, announced first), then the state.
    assert inputs(events) == [DialMoved(5, 2), SeatReady(5, 2), HubOnline("hub", (5, 6))]
    until(lambda: peer.leds == {5: LedPattern.OFF, 6: LedPattern.OFF})
    peer.press_ready(5)
    assert inputs(collect(queue, count(SeatReady))) == [SeatReady(5, 2)]
