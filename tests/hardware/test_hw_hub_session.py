"""The host's protocol rules, fed line by line (no I/O, explicit times)."""

from __future__ import annotations

import pytest

from hardware import protocol as p
from hardware.events import (
    ButtonPressed,
    DialMoved,
    HubOffline,
    HubOnline,
    InputRejected,
    SeatReady,
    TableButton,
)
from hardware.hub_session import HubSession, HubState, Outcome
from hardware.outputs import LedPattern

BOOT = "3f2a9c01"


def line(*tokens: object) -> bytes:
    return p.frame(*tokens).rstrip(b"\n")


def online(latest: int = 12, boot: str = BOOT) -> HubSession:
    s = HubSession("hub", (5, 6))
    assert s.opened(0.0).send == [p.hello()]
    assert s.receive(line("HELLO", 1, boot, latest, "5,6"), 0.1).send == [p.sync(latest)]
    assert s.receive(line("DIAL", 5, 3), 0.1).events == [DialMoved(5, 3)]
    assert s.receive(line("DIAL", 6, 1), 0.1).events == [DialMoved(6, 1)]
    out = s.receive(line("SYNCED", latest), 0.1)
    assert out.events == [HubOnline("hub", (5, 6))]
    assert out.send == [p.led(5, LedPattern.OFF), p.led(6, LedPattern.OFF)]
    assert s.state is HubState.ONLINE
    return s


def events(s: HubSession, *lines: bytes, now: float = 0.5) -> list[object]:
    out: list[object] = []
    for raw in lines:
        out += s.receive(raw, now).events
    return out


def test_presses_duplicates_and_shared_buttons() -> None:
    s = online()
    assert events(s, line("PRESS", 13, "READY", 5, 3), line("PRESS", 13, "READY", 5, 3),
                  line("PRESS", 14, "UNDO", 0, 0), line("DIAL", 5, 3)) == [
        SeatReady(5, 3), ButtonPressed(TableButton.UNDO)]
    assert s.stats.duplicates == 1 and s.last_seq == 14
    [rejected] = events(s, line("PRESS", 15, "READY", 6, 0))
    assert isinstance(rejected, InputRejected) and rejected.seat == 6


def test_a_lost_line_is_recovered_in_order() -> None:
    s = online()
    assert events(s, line("PRESS", 13, "READY", 5, 3)) == [SeatReady(5, 3)]
    # 14 was damaged on the wire; 15 and 16 arrive: dropped, one SYNC requested.
    out15 = s.receive(line("PRESS", 15, "NEXT", 0, 0), 1.0)
    out16 = s.receive(line("PRESS", 16, "READY", 6, 2), 1.0)
    assert out15.events == out16.events == []
    assert out15.send == [p.sync(13)] and out16.send == []
    assert s.stats.gaps == 2
    replay = [line("PRESS", 14, "UNDO", 0, 0), line("PRESS", 15, "NEXT", 0, 0),
              line("PRESS", 16, "READY", 6, 2), line("DIAL", 5, 3), line("DIAL", 6, 2),
              line("SYNCED", 16)]
    assert events(s, *replay) == [ButtonPressed(TableButton.UNDO),
                                  ButtonPressed(TableButton.NEXT), DialMoved(6, 2),
                                  SeatReady(6, 2)]
    assert s.tick(2.5).send == [p.ping()]  # no SYNC pending any more, only the keep-alive


def test_unanswered_sync_is_repeated() -> None:
    s = online()
    s.receive(line("PRESS", 14, "NEXT", 0, 0), 1.0)
    assert s.tick(1.5).send == []
    assert s.tick(2.0).send == [p.sync(12)]
    assert s.tick(2.2).send == [p.ping()]


def test_synced_behind_asks_again() -> None:
    s = online()
    s.receive(line("PRESS", 15, "NEXT", 0, 0), 1.0)
    assert s.receive(line("SYNCED", 15), 1.1).send == [p.sync(12)]


def test_gap_reports_lost_presses() -> None:
    s = online(latest=0)
    s.receive(line("PRESS", 80, "NEXT", 0, 0), 1.0)
    out = events(s, line("GAP", 1, 15), line("PRESS", 16, "READY", 5, 3))
    assert isinstance(out[0], InputRejected) and "1..15" in out[0].reason
    assert out[1:] == [SeatReady(5, 3)]
    assert s.stats.lost_presses == 15


def test_reconnect_to_the_same_hub_replays_from_last() -> None:
    s = online()
    events(s, line("PRESS", 13, "NEXT", 0, 0))
    assert s.closed("unplugged").events == [HubOffline("hub", "unplugged")]
    assert s.closed("cannot open").events == []  # one HubOffline per outage
    s.opened(10.0)
    assert s.receive(line("HELLO", 1, BOOT, 15, "5,6"), 10.1).send == [p.sync(13)]
    assert events(s, line("PRESS", 14, "NEXT", 0, 0), line("PRESS", 15, "UNDO", 0, 0),
                  line("SYNCED", 15)) == [ButtonPressed(TableButton.NEXT),
                                          ButtonPressed(TableButton.UNDO),
                                          HubOnline("hub", (5, 6))]
    assert s.stats.connects == 2 and s.stats.disconnects == 1


def test_rebooted_hub_replays_everything_since_its_start() -> None:
    s = online()
    s.closed("unplugged")
    s.opened(10.0)
    assert s.receive(line("HELLO", 1, "00000001", 2, "5,6"), 10.1).send == [p.sync(0)]


def test_first_contact_skips_stale_presses() -> None:
    s = online(latest=40)
    assert s.last_seq == 40
    assert events(s, line("PRESS", 40, "NEXT", 0, 0)) == []


def test_other_protocol_version_is_refused() -> None:
    s = HubSession("hub", (5,))
    s.opened(0.0)
    out = s.receive(line("HELLO", 2, "x", "y"), 0.1)
    assert out.drop == "hub speaks protocol v2, this app speaks v1"
    assert s.stats.reasons["version"] == 1


def test_nothing_counts_before_the_hello_answer() -> None:
    s = HubSession("hub", (5,))
    s.opened(0.0)
    assert events(s, line("PRESS", 1, "NEXT", 0, 0), line("DIAL", 5, 2)) == []
    assert s.stats.early == 2


def test_seats_not_given_to_the_hub() -> None:
    s = HubSession("hub", (5,))
    s.opened(0.0)
    [warning] = s.receive(line("HELLO", 1, BOOT, 0, "5,6"), 0.1).events
    assert isinstance(warning, InputRejected) and "[6]" in warning.reason
    other = HubSession("hub", (5, 6, 7))
    other.opened(0.0)
    [missing] = other.receive(line("HELLO", 1, BOOT, 0, "5,6"), 0.1).events
    assert isinstance(missing, InputRejected) and "seats [7] to the hub" in missing.reason
    s.receive(line("SYNCED", 0), 0.1)
    assert [e for e in events(s, line("PRESS", 1, "READY", 6, 2), line("DIAL", 6, 2))
            if not isinstance(e, InputRejected)] == []
    assert s.stats.reasons["seat-not-on-hub"] == 2
    assert s.last_seq == 1  # the bad press still used its number: no endless gap


def test_timers_hello_retry_ping_and_silence() -> None:
    s = HubSession("hub", (5,))
    s.opened(0.0)
    assert s.tick(0.5).send == []
    assert s.tick(1.0).send == [p.hello()]
    assert s.tick(6.5).drop == "hub silent for 6.5 s"
    s = online()
    assert s.tick(2.0).send == []
    assert s.tick(2.1).send == [p.ping()]
    s.receive(line("PONG"), 5.0)
    assert s.tick(10.9).drop is None
    assert s.tick(11.1).drop == "hub silent for 6.1 s"


def test_rejections_are_counted_and_reported_at_most_every_5_s() -> None:
    s = online()
    reports: list[object] = []
    for i in range(100):
        reports += s.receive(b"garbage %d" % i, 1.0 + i * 0.01).events
    assert len(reports) == 1 and s.stats.rejected == 100
    assert s.stats.reasons["no-checksum"] == 100
    assert s.tick(3.0).events == []
    [summary] = s.tick(6.1).events
    assert summary == InputRejected("hub", "99 bad lines from the hub (last: no-checksum)")


def test_leds_are_remembered_and_resent() -> None:
    s = HubSession("hub", (5, 6))
    assert s.set_led(5, LedPattern.BLINK) == Outcome()  # offline: remembered only
    assert s.beep(1, 0.08, 0.08) == Outcome()
    s.opened(0.0)
    s.receive(line("HELLO", 1, BOOT, 0, "5,6"), 0.1)
    out = s.receive(line("SYNCED", 0), 0.1)
    assert out.send == [p.led(5, LedPattern.BLINK), p.led(6, LedPattern.OFF)]
    assert s.set_led(6, LedPattern.ON).send == [p.led(6, LedPattern.ON)]
    assert s.beep(2, 0.1, 0.05).send == [p.beep(2, 100, 50)]
    with pytest.raises(ValueError):
        s.set_led(1, LedPattern.ON)
