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
    Reason,
    SeatReady,
    TableButton,
)
from hardware.hub_session import HubSession, HubState, Outcome
from hardware.outputs import LedPattern

BOOT = "3f2a9c01"


def line(*tokens: object) -> bytes:
    return p.frame(*tokens).rstrip(b"\n")


def online(latest: int = 12, boot: str = BOOT, version: int = 2) -> HubSession:
    s = HubSession("hub", (5, 6))
    assert s.opened(0.0).send == [p.hello()]
    assert s.receive(line("HELLO", version, boot, latest, "5,6"), 0.1).send == [p.sync(latest)]
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


def used(s: HubSession, *lines: bytes, now: float = 0.5) -> list[object]:
    """The events of ``lines`` without the reports of rejected lines."""
    return [e for e in events(s, *lines, now=now)
            if not (isinstance(e, InputRejected) and "Bad lines" in str(e.reason))]


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
    assert s.tick(2.5).send == [p.ping()]  # no SYNC pending any more, only the heartbeat


def test_unanswered_sync_is_repeated() -> None:
    s = online()
    assert s.tick(0.6).send == [p.ping()]
    assert s.receive(line("PRESS", 14, "NEXT", 0, 0), 1.0).send == [p.sync(12)]
    assert s.tick(1.1).send == [p.ping()]
    assert s.tick(1.5).send == []
    assert s.tick(2.0).send == [p.sync(12), p.ping()]


def test_synced_behind_asks_again() -> None:
    s = online()
    s.receive(line("PRESS", 15, "NEXT", 0, 0), 1.0)
    assert s.receive(line("SYNCED", 15), 1.1).send == [p.sync(12)]


def test_gap_reports_lost_presses() -> None:
    s = online(latest=0)
    assert s.receive(line("PRESS", 80, "NEXT", 0, 0), 1.0).send == [p.sync(0)]
    out = events(s, line("GAP", 1, 15), line("PRESS", 16, "READY", 5, 3))
    assert isinstance(out[0], InputRejected) and "1 to 15" in str(out[0].reason)
    assert out[1:] == [SeatReady(5, 3)]
    assert s.stats.lost_presses == 15 and s.last_seq == 16


def test_reconnect_to_the_same_hub_replays_from_last() -> None:
    s = online()
    events(s, line("PRESS", 13, "NEXT", 0, 0))
    unplugged = Reason.of("it was disconnected ({problem}).", problem="unplugged")
    assert s.closed(unplugged).events == [HubOffline("hub", unplugged)]
    assert s.closed(Reason.of("the app closed its port.")).events == []  # one HubOffline per outage
    s.opened(10.0)
    assert s.receive(line("HELLO", 1, BOOT, 15, "5,6"), 10.1).send == [p.sync(13)]
    assert events(s, line("PRESS", 14, "NEXT", 0, 0), line("PRESS", 15, "UNDO", 0, 0),
                  line("SYNCED", 15)) == [ButtonPressed(TableButton.NEXT),
                                          ButtonPressed(TableButton.UNDO),
                                          HubOnline("hub", (5, 6))]
    assert s.stats.connects == 2 and s.stats.disconnects == 1


def test_rebooted_hub_replays_everything_since_its_start() -> None:
    s = online()
    s.closed(Reason.of("the app closed its port."))
    s.opened(10.0)
    assert s.receive(line("HELLO", 1, "00000001", 2, "5,6"), 10.1).send == [p.sync(0)]


def test_first_contact_skips_stale_presses() -> None:
    s = online(latest=40)
    assert s.last_seq == 40
    assert events(s, line("PRESS", 40, "NEXT", 0, 0)) == []


def test_other_protocol_version_is_refused() -> None:
    s = HubSession("hub", (5,))
    s.opened(0.0)
    out = s.receive(line("HELLO", 3, "x", "y"), 0.1)
    assert str(out.drop) == "it speaks protocol version 3; this app speaks versions 1 to 2."
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
    assert isinstance(warning, InputRejected) and "seats 6," in str(warning.reason)
    other = HubSession("hub", (5, 6, 7))
    other.opened(0.0)
    [missing] = other.receive(line("HELLO", 1, BOOT, 0, "5,6"), 0.1).events
    assert isinstance(missing, InputRejected) and "seats 7 to the hub" in str(missing.reason)
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
    assert str(s.tick(6.5).drop) == "it has not answered for 6.5 s."
    s = online()
    assert s.tick(0.5).send == []
    assert s.tick(0.6).send == [p.ping()]
    assert s.tick(1.0).send == []
    assert s.tick(1.1).send == [p.ping()]
    s.receive(line("PONG", 12), 5.0)
    assert s.tick(10.9).drop is None
    assert str(s.tick(11.1).drop) == "it has not answered for 6.1 s."


def test_rejections_are_counted_and_reported_at_most_every_5_s() -> None:
    s = online()
    reports: list[object] = []
    for i in range(100):
        reports += s.receive(b"garbage %d" % i, 1.0 + i * 0.01).events
    assert len(reports) == 1 and s.stats.rejected == 100
    assert s.stats.reasons["no-checksum"] == 100
    assert s.tick(3.0).events == []
    [summary] = s.tick(6.1).events
    assert summary == InputRejected("hub", Reason.of(  # all so far, the first one's included
        "Bad lines from the hub so far: {count} (last: {problem}).", count=100,
        problem="no-checksum"))
    assert str(reports[0].reason).startswith("Bad lines from the hub so far: 1 ")


@pytest.mark.parametrize("count, on, off", [
    (0, 0.08, 0.08), (11, 0.08, 0.08), (-1, 0.08, 0.08), (2, 0.0, 0.08), (2, 2.001, 0.08),
    (2, 0.08, -0.01), (2, 0.08, 2.001), (2, float("nan"), 0.08), (2, 0.08, float("inf")),
    (True, 0.08, 0.08)])
def test_a_beep_the_hub_would_refuse_is_never_sent(count: int, on: float, off: float) -> None:
    """BEEP takes 1..10 tones of 1..2000 ms, 0..2000 ms apart (docs/serial-protocol.md,
    section 3): the host refuses anything else as the bug it is, online or not, instead of
    sending a line the hub answers with ERR bad-args."""
    for s in (HubSession("hub", (5, 6)), online()):
        with pytest.raises(ValueError, match="1..10 tones"):
            s.beep(count, on, off)


def test_beeps_at_the_limits_are_sent() -> None:
    s = online()
    assert s.beep(10, 2.0, 2.0).send == [p.beep(10, 2000, 2000)]
    assert s.beep(1, 0.0001, 0.0).send == [p.beep(1, 1, 0)]
    for raw in (p.beep(10, 2000, 2000), p.beep(1, 1, 0)):
        p.parse_host_message(p.unframe(raw.rstrip(b"\n")))  # what the hub accepts


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


# -- version 2: the heartbeat ------------------------------------------------------------------


def test_heartbeat_recovers_a_lost_last_press_within_a_second() -> None:
    """The hub's last PRESS line is damaged and no press follows: the heartbeat's number shows
    the hub is ahead, and the SYNC brings the press, all within 1 s of host time."""
    s = online()
    assert s.tick(0.6).send == [p.ping()]
    assert s.receive(line("PONG", 12), 0.61).send == []  # nothing missing
    damaged = line("PRESS", 13, "READY", 5, 3)[:-1] + b"0"
    assert used(s, damaged, now=1.0) == [] and s.stats.reasons["bad-checksum"] == 1
    assert s.tick(1.05).send == []
    assert s.tick(1.1).send == [p.ping()]  # the next heartbeat, 0.1 s after the loss
    assert s.receive(line("PONG", 13), 1.11).send == [p.sync(12)]
    assert events(s, line("PRESS", 13, "READY", 5, 3), line("DIAL", 5, 3), line("DIAL", 6, 1),
                  line("SYNCED", 13), now=1.12) == [SeatReady(5, 3)]
    assert s.stats.heartbeat_gaps == 1 and s.last_seq == 13
    assert s.tick(1.6).send == [p.ping()]


def test_heartbeat_worst_case_is_one_interval() -> None:
    """Lost just after a heartbeat: found at the next one, 0.5 s later."""
    s = online()
    assert s.tick(0.6).send == [p.ping()]
    s.receive(line("PONG", 12), 0.6)
    s.receive(b"PRESS 13 NEXT 0 0*0000", 0.6)  # damaged
    assert s.tick(1.09).send == []
    assert s.tick(1.1).send == [p.ping()]
    assert s.receive(line("PONG", 13), 1.1).send == [p.sync(12)]


def test_version_1_hub_is_asked_with_sync_as_heartbeat() -> None:
    """An old hub answers HELLO 2 with ERR version and HELLO 1: the host speaks version 1 to
    it, and its heartbeat is SYNC <last> (version-1 PONG carries no number)."""
    s = HubSession("hub", (5, 6))
    s.opened(0.0)
    assert s.receive(line("ERR", "version"), 0.1).send == []
    assert s.receive(line("HELLO", 1, BOOT, 12, "5,6"), 0.1).send == [p.sync(12)]
    assert s.version == 1
    s.receive(line("SYNCED", 12), 0.1)
    s.receive(b"PRESS 13 NEXT 0 0*0000", 0.3)  # the last press, damaged
    assert s.tick(0.6).send == [p.sync(12)]
    assert events(s, line("PRESS", 13, "NEXT", 0, 0), line("SYNCED", 13), now=0.61) == [
        ButtonPressed(TableButton.NEXT)]
    assert s.tick(1.0).send == []
    assert s.tick(1.11).send == [p.sync(13)]  # every heartbeat: no SYNC was pending
    assert s.receive(line("PONG"), 1.2).events == [] and s.stats.rejected == 1


def test_version_2_pong_must_carry_the_number() -> None:
    s = online()
    s.receive(line("PONG"), 0.5)
    assert s.stats.reasons["pong-without-number"] == 1


# -- GAP only inside a resync, and no jump is adopted --------------------------------------------


def test_gap_outside_a_sync_answer_is_refused_and_resyncs() -> None:
    s = online()
    out = s.receive(line("GAP", 1, p.MAX_SEQ), 0.5)
    assert out.send == [p.sync(12)]
    assert s.last_seq == 12 and s.stats.reasons["unexpected-gap"] == 1
    assert used(s, line("DIAL", 5, 3), line("SYNCED", 12)) == []
    assert used(s, line("PRESS", 13, "READY", 5, 3), line("PRESS", 14, "NEXT", 0, 0)) == [
        SeatReady(5, 3), ButtonPressed(TableButton.NEXT)]  # presses still count


def test_gap_not_starting_at_the_first_missing_press_is_refused() -> None:
    s = online()
    s.receive(line("PRESS", 20, "NEXT", 0, 0), 0.5)  # 13..19 missing: SYNC 12
    assert used(s, line("GAP", 14, 15)) == []
    assert s.stats.reasons["unexpected-gap"] == 1 and s.last_seq == 12


def test_gap_inside_a_sync_answer_must_be_confirmed() -> None:
    s = online()
    s.receive(line("PRESS", 14, "NEXT", 0, 0), 0.5)  # 13 missing: SYNC 12
    # A checksum-valid GAP that is not the hub's: the press after it is not last + 1.
    assert used(s, line("GAP", 13, p.MAX_SEQ)) == []
    assert s.last_seq == 12
    assert used(s, line("PRESS", 13, "UNDO", 0, 0), line("PRESS", 14, "NEXT", 0, 0),
                  line("SYNCED", 14)) == [ButtonPressed(TableButton.UNDO),
                                          ButtonPressed(TableButton.NEXT)]
    assert s.stats.reasons["unconfirmed-gap"] == 1 and s.stats.lost_presses == 0
    # Nor may SYNCED confirm a GAP that does not end at the hub's latest press.
    s.receive(line("PRESS", 16, "NEXT", 0, 0), 1.0)
    out = s.receive(line("GAP", 15, 99), 1.1).events + s.receive(line("SYNCED", 16), 1.1).events
    assert s.last_seq == 14 and s.stats.reasons["unconfirmed-gap"] == 2
    assert [e for e in out if not isinstance(e, InputRejected)] == []


def test_gap_confirmed_by_synced_when_no_press_follows() -> None:
    s = online()
    s.receive(line("PRESS", 99, "NEXT", 0, 0), 0.5)
    s.receive(line("PONG", 99), 0.6)
    [lost] = events(s, line("GAP", 13, 99), line("SYNCED", 99))
    assert isinstance(lost, InputRejected) and "13 to 99" in str(lost.reason)
    assert s.last_seq == 99 and s.stats.lost_presses == 87


def test_numbers_far_ahead_are_never_adopted() -> None:
    s = online()
    for raw in (line("PRESS", p.MAX_SEQ, "NEXT", 0, 0), line("PONG", p.MAX_SEQ),
                line("SYNCED", p.MAX_SEQ)):
        assert s.receive(raw, 0.5).send in ([], [p.sync(12)])
        assert s.last_seq == 12
    # The hub's real answer ends it; the next real press is used.
    assert events(s, line("SYNCED", 12), line("PRESS", 13, "NEXT", 0, 0), now=0.6) == [
        ButtonPressed(TableButton.NEXT)]


# -- numbering that goes back, and wrap-around --------------------------------------------------


def test_hub_behind_us_makes_the_host_ask_hello_again() -> None:
    """The hub's number is behind ours (it restarted its numbering without a reconnect): the
    host asks HELLO again on the same connection, and the new boot id replays from 0."""
    s = online()
    events(s, line("PRESS", 13, "NEXT", 0, 0))
    s.set_led(5, LedPattern.BLINK)
    assert s.receive(line("PONG", 1), 1.0).send == [p.hello()]
    assert s.state is HubState.HELLO and s.stats.rehandshakes == 1
    assert events(s, line("PRESS", 1, "UNDO", 0, 0)) == []  # early: the SYNC replays it
    assert s.receive(line("HELLO", 2, "0000feed", 1, "5,6"), 1.1).send == [p.sync(0)]
    out = s.receive(line("PRESS", 1, "UNDO", 0, 0), 1.1)
    assert out.events == [ButtonPressed(TableButton.UNDO)]
    out = s.receive(line("SYNCED", 1), 1.1)
    assert out.events == []  # still the same connection: no second HubOnline
    assert out.send == [p.led(5, LedPattern.BLINK), p.led(6, LedPattern.OFF)]
    assert s.state is HubState.ONLINE and s.last_seq == 1


def test_synced_behind_us_also_asks_hello_again() -> None:
    s = online(version=1)
    assert s.receive(line("SYNCED", 3), 0.5).send == [p.hello()]


def test_hello_in_the_middle_of_a_session() -> None:
    s = online()
    assert s.receive(line("HELLO", 2, BOOT, 12, "5,6"), 0.5).send == []  # a repeated answer
    assert s.state is HubState.ONLINE
    assert s.receive(line("HELLO", 2, "0badf00d", p.MAX_SEQ, "5,6"), 0.6).send == [p.hello()]
    assert s.last_seq == 12  # nothing in it believed; the hub's own answer decides
    assert s.receive(line("HELLO", 2, BOOT, 12, "5,6"), 0.7).events == []  # nothing was lost
    assert s.last_seq == 12 and s.boot_id == BOOT


def test_same_boot_id_behind_us_is_trusted() -> None:
    s = online()
    s.receive(line("PONG", 5), 0.5)
    [note] = s.receive(line("HELLO", 2, BOOT, 5, "5,6"), 0.6).events
    assert isinstance(note, InputRejected) and "behind 12" in str(note.reason)
    assert s.last_seq == 5
    assert events(s, line("SYNCED", 5), line("PRESS", 6, "NEXT", 0, 0)) == [
        ButtonPressed(TableButton.NEXT)]


def test_presses_shown_but_lost_in_a_restart_are_reported() -> None:
    """The heartbeat shows presses 13..15 the host lacks; the cable goes before the replay and
    the hub restarts (a new boot id): those presses are gone with its history. The host says
    so, as for a GAP, and the new numbering is used from its first press."""
    s = online()
    assert s.receive(line("PONG", 15), 1.0).send == [p.sync(12)]
    s.closed(Reason.of("it was disconnected ({problem}).", problem="unplugged"))
    s.opened(2.0)
    out = s.receive(line("HELLO", 2, "0000beef", 1, "5,6"), 2.1)
    assert out.send == [p.sync(0)]
    [lost] = out.events
    assert isinstance(lost, InputRejected) and lost.seat is None
    assert str(lost.reason) == ("The hub lost presses 13 to 15: it restarted or renumbered its "
                                "presses before sending them.")
    assert s.stats.lost_presses == 3 and s.last_seq == 0
    assert events(s, line("PRESS", 1, "UNDO", 0, 0), line("SYNCED", 1), now=2.1) == [
        ButtonPressed(TableButton.UNDO), HubOnline("hub", (5, 6))]


def test_a_restart_after_every_shown_press_arrived_loses_nothing() -> None:
    s = online()
    events(s, line("PRESS", 13, "NEXT", 0, 0), line("PONG", 13))
    s.closed(Reason.of("the app closed its port."))
    s.opened(2.0)
    assert s.receive(line("HELLO", 2, "0000beef", 0, "5,6"), 2.1).events == []
    assert s.stats.lost_presses == 0


def test_a_press_seen_out_of_order_counts_as_shown() -> None:
    """Press 14 arrives while 13 is missing (dropped, SYNC asked); the hub restarts before
    answering: both are reported lost."""
    s = online()
    assert events(s, line("PRESS", 14, "NEXT", 0, 0)) == []
    s.closed(Reason.of("the app closed its port."))
    s.opened(2.0)
    [lost] = s.receive(line("HELLO", 2, "0000beef", 0, "5,6"), 2.1).events
    assert isinstance(lost, InputRejected) and "13 to 14" in str(lost.reason)


def test_wrap_around_is_a_new_numbering() -> None:
    """After press 2**31 - 1 the hub starts again from 1 under a new boot id and says so with
    an unprompted HELLO: both presses around the wrap are used once."""
    s = online(latest=p.MAX_SEQ - 1)
    assert events(s, line("PRESS", p.MAX_SEQ, "NEXT", 0, 0)) == [ButtonPressed(TableButton.NEXT)]
    assert s.receive(line("HELLO", 2, "3f2a9c02", 0, "5,6"), 1.0).send == [p.hello()]
    assert events(s, line("PRESS", 1, "UNDO", 0, 0), now=1.0) == []  # early
    assert s.receive(line("HELLO", 2, "3f2a9c02", 1, "5,6"), 1.1).send == [p.sync(0)]
    assert events(s, line("PRESS", 1, "UNDO", 0, 0), line("DIAL", 5, 3), line("DIAL", 6, 1),
                  line("SYNCED", 1), now=1.1) == [ButtonPressed(TableButton.UNDO)]
    assert s.last_seq == 1 and s.state is HubState.ONLINE and s.stats.duplicates == 0
