"""Host side of the hub protocol as a pure state machine: lines in, events and replies out.

No I/O and no threads here (see :mod:`hardware.serial_hub` for those), so every rule can be
tested by feeding lines. The rules that make presses exactly-once:

* every press carries a sequence number; the host remembers ``last``, the last one it used;
* a repeated number is dropped (counted as a duplicate);
* a jump (a line was lost) drops the press and asks the hub for ``SYNC <last>``; the hub
  replays everything after ``<last>`` in order, then its dial positions, then ``SYNCED``;
* a heartbeat finds a lost *last* press, which no later press would reveal: every 0.5 s the
  host asks the hub for its latest number (``PING``, answered by ``PONG <latest>`` in protocol
  version 2; a version-1 hub is asked with ``SYNC <last>`` instead) and resyncs when it is ahead;
* no number from the hub is ever adopted by a jump: ``last`` moves by one press at a time, or
  over a ``GAP`` (presses the hub no longer has) only when the GAP opens the answer to our own
  ``SYNC`` and the rest of that answer confirms it; a latest number *behind* ``last`` (the hub
  started a new numbering) makes the host ask for ``HELLO`` again;
* after every (re)connect the host sends ``HELLO`` then ``SYNC <last>``; the hub's boot id tells
  whether it is the same hub session (replay what was missed) or a hub that rebooted or started
  a new numbering (replay its whole new history); on first contact since the app started,
  history is skipped as stale;
* presses of the old numbering that never reached the host are gone with the hub's history when
  its boot id changes: the host reports those whose numbers the hub showed as lost, as it does
  for a ``GAP``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from . import protocol as p
from .events import (
    N_,
    ButtonPressed,
    DialMoved,
    HubOffline,
    HubOnline,
    InputEvent,
    InputRejected,
    Reason,
    SeatReady,
    TableButton,
    dial_between,
    seats_text,
)
from .outputs import LedPattern, beep_plan


class HubState(Enum):
    CLOSED = "closed"
    HELLO = "hello"
    SYNCING = "syncing"
    ONLINE = "online"


@dataclass
class HubStats:
    lines: int = 0
    accepted: int = 0
    rejected: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    duplicates: int = 0
    gaps: int = 0
    heartbeat_gaps: int = 0
    """Lost last presses found by the heartbeat (no later press revealed them)."""
    early: int = 0
    lost_presses: int = 0
    rehandshakes: int = 0
    """``HELLO`` asked again inside one connection (the hub renumbered, or said it did)."""
    hub_errors: int = 0
    connects: int = 0
    disconnects: int = 0


@dataclass
class Outcome:
    """What the session wants done: events to queue, lines to send, and whether to drop the
    connection (``drop`` is the reason)."""

    events: list[InputEvent] = field(default_factory=list)
    send: list[bytes] = field(default_factory=list)
    drop: Reason | None = None


@dataclass(frozen=True, slots=True)
class SessionTiming:
    hello_retry: float = 1.0
    sync_retry: float = 1.0
    heartbeat_interval: float = 0.5
    """How often an online host asks the hub for its latest press number (and keeps the link
    alive); a press whose line was lost is recovered within this time plus one round trip."""
    silence_timeout: float = 6.0
    reject_report_interval: float = 5.0


class HubSession:
    def __init__(self, name: str, seats: Iterable[int], timing: SessionTiming | None = None):
        self.name = name
        self.seats = tuple(sorted(set(seats)))
        self.timing = timing or SessionTiming()
        self.state = HubState.CLOSED
        self.stats = HubStats()
        self.boot_id: str | None = None
        self.version: int | None = None
        """The protocol version of this connection, from the hub's ``HELLO``."""
        self.last_seq = 0
        self._shown = 0
        """The highest press number the hub has shown under ``boot_id`` (a press, ``PONG``,
        ``SYNCED``, its ``HELLO``), whether or not that press reached us."""
        self.dials: dict[int, int] = {}
        self.leds: dict[int, LedPattern] = {seat: LedPattern.OFF for seat in self.seats}
        self._offline_announced = False
        self._opened_at = self._last_valid = self._hello_at = self._ping_at = 0.0
        self._sync_at: float | None = None
        self._gap: p.Gap | None = None
        self._announced = False
        self._unreported = 0
        self._last_reason = ""
        self._reported_at: float | None = None

    # -- connection lifecycle -----------------------------------------------------------------

    def opened(self, now: float) -> Outcome:
        self.stats.connects += 1
        self.state = HubState.HELLO
        self.version = None
        self._opened_at = self._last_valid = self._hello_at = now
        self._sync_at = None
        self._gap = None
        self._announced = False
        return Outcome(send=[p.hello()])

    def closed(self, reason: Reason) -> Outcome:
        """The port is gone (or could not be opened): announce it once per outage."""
        if self.state is not HubState.CLOSED:
            self.stats.disconnects += 1
        self.state = HubState.CLOSED
        self._gap = None
        out = Outcome()
        if not self._offline_announced:
            self._offline_announced = True
            out.events.append(HubOffline(self.name, reason))
        return out

    # -- outputs ------------------------------------------------------------------------------

    def set_led(self, seat: int, pattern: LedPattern) -> Outcome:
        if seat not in self.leds:
            raise ValueError(f"seat {seat} is not on hub {self.name!r}")
        self.leds[seat] = pattern
        return Outcome(send=[p.led(seat, pattern)] if self.state is HubState.ONLINE else [])

    def beep(self, count: int, on: float, off: float) -> Outcome:
        plan = beep_plan(count, on, off)  # checked online or not: a bad request is a bug
        if self.state is not HubState.ONLINE:
            return Outcome()
        return Outcome(send=[p.beep(*plan)])

    # -- input --------------------------------------------------------------------------------

    def receive(self, line: bytes, now: float) -> Outcome:
        out = Outcome()
        self.stats.lines += 1
        try:
            msg = p.parse_hub_message(p.unframe(line))
        except p.ProtocolError as exc:
            self._reject(exc.reason, now, out)
            return out
        self._last_valid = now
        if isinstance(msg, p.Hello):
            self._on_hello(msg, now, out)
        elif self.state is HubState.HELLO or self.state is HubState.CLOSED:
            self.stats.early += 1  # sent before our HELLO was answered: SYNC will replay it
        elif isinstance(msg, p.Press):
            self._on_press(msg, now, out)
        elif isinstance(msg, p.Dial):
            self._on_dial(msg, now, out)
        elif isinstance(msg, p.Gap):
            self._on_gap(msg, now, out)
        elif isinstance(msg, p.Synced):
            self._on_synced(msg, now, out)
        elif isinstance(msg, p.HubError):
            self.stats.hub_errors += 1
        else:
            self._on_pong(msg, now, out)
        return out

    def tick(self, now: float) -> Outcome:
        out = Outcome()
        t = self.timing
        if self.state is HubState.CLOSED:
            return out
        if now - self._last_valid > t.silence_timeout:
            out.drop = Reason.of(N_("it has not answered for {seconds} s."),
                                 seconds=f"{now - self._last_valid:.1f}")
            return out
        if self.state is HubState.HELLO and now - self._hello_at >= t.hello_retry:
            self._hello_at = now
            out.send.append(p.hello())
        if self._sync_at is not None and now - self._sync_at >= t.sync_retry:
            self._send_sync(now, out)
        if self.state is HubState.ONLINE and now - self._ping_at >= t.heartbeat_interval:
            self._ping_at = now
            if self.version is not None and self.version >= 2:
                out.send.append(p.ping())
            elif self._sync_at is None:
                # A version-1 hub's PONG carries no number: its SYNC answer does.
                self._send_sync(now, out)
        if self._unreported and self._report_due(now):
            self._report_rejections(now, out)
        return out

    # -- message handlers ---------------------------------------------------------------------

    def _on_hello(self, msg: p.Hello, now: float, out: Outcome) -> None:
        if self.state is not HubState.HELLO:
            # Not the answer to our HELLO: the hub says it started a new numbering (its press
            # numbers ran out), or it is a repeated answer, or noise that passed the checksum.
            # Believe nothing in it; a new boot id makes us ask the hub again.
            self.stats.accepted += 1
            if msg.boot_id != self.boot_id:
                self._rehandshake(now, out)
            return
        if not p.OLDEST_PROTOCOL_VERSION <= msg.version <= p.PROTOCOL_VERSION:
            self._reject("version", now, out)
            out.drop = Reason.of(
                N_("it speaks protocol version {version}; this app speaks versions {oldest} "
                   "to {newest}."), version=msg.version, oldest=p.OLDEST_PROTOCOL_VERSION,
                newest=p.PROTOCOL_VERSION)
            return
        self.stats.accepted += 1
        self.version = msg.version
        foreign = sorted(set(msg.seats) - set(self.seats))
        if foreign:
            out.events.append(InputRejected(self.name, Reason.of(
                N_("The hub serves seats {seats}, which the wiring file does not give it."),
                seats=seats_text(foreign))))
        missing = sorted(set(self.seats) - set(msg.seats))
        if missing:
            out.events.append(InputRejected(self.name, Reason.of(
                N_("The wiring file gives seats {seats} to the hub, which does not serve them "
                   "(check SEATS in its firmware)."), seats=seats_text(missing))))
        if self.boot_id is None:
            self.last_seq = msg.latest_seq  # first contact: older presses are stale
        elif msg.boot_id != self.boot_id:
            self._report_lost_with_numbering(out)
            self.last_seq = 0  # the hub restarted or renumbered: everything it has is new
        elif msg.latest_seq < self.last_seq:
            # Same numbering, yet the hub never got as far as we think: our number is wrong
            # (no correct hub does this). Trust the hub, or its presses would all be dropped.
            out.events.append(InputRejected(self.name, Reason.of(
                N_("The hub's press numbers are at {latest}, behind {last}: presses after "
                   "{latest} will be used."), latest=msg.latest_seq, last=self.last_seq)))
            self.last_seq = msg.latest_seq
        if msg.boot_id != self.boot_id:
            self._shown = 0
        self._shown = max(self._shown, msg.latest_seq)
        self.boot_id = msg.boot_id
        self.state = HubState.SYNCING
        self._send_sync(now, out)

    def _on_press(self, msg: p.Press, now: float, out: Outcome) -> None:
        if self._gap is not None:  # a GAP holds only if the press after it comes next
            gap, self._gap = self._gap, None
            if msg.seq == gap.last + 1:
                self._adopt_gap(gap, out)
            else:
                self._reject("unconfirmed-gap", now, out)
        self._shown = max(self._shown, msg.seq)
        if msg.seq <= self.last_seq:
            self.stats.duplicates += 1
            return
        if msg.seq > self.last_seq + 1:
            self.stats.gaps += 1
            if self._sync_at is None:
                self._send_sync(now, out)
            return
        self.last_seq = msg.seq
        if msg.seat and msg.seat not in self.seats:
            self._reject("seat-not-on-hub", now, out)
            return
        self.stats.accepted += 1
        if isinstance(msg.button, TableButton):
            out.events.append(ButtonPressed(msg.button))
        elif msg.gear == 0:
            out.events.append(InputRejected(self.name, dial_between(msg.seat), seat=msg.seat))
        else:
            if self.dials.get(msg.seat) != msg.gear:
                # A replayed press can predate the DIAL that reports the move: the dial it read
                # is news, so announce it first, as the GPIO table would.
                self.dials[msg.seat] = msg.gear
                out.events.append(DialMoved(msg.seat, msg.gear))
            out.events.append(SeatReady(msg.seat, msg.gear))

    def _on_dial(self, msg: p.Dial, now: float, out: Outcome) -> None:
        if msg.seat not in self.seats:
            self._reject("seat-not-on-hub", now, out)
            return
        self.stats.accepted += 1
        if self.dials.get(msg.seat) != msg.gear:
            self.dials[msg.seat] = msg.gear
            out.events.append(DialMoved(msg.seat, msg.gear))

    def _on_gap(self, msg: p.Gap, now: float, out: Outcome) -> None:
        if msg.last <= self.last_seq:
            self.stats.duplicates += 1  # a repeated answer: nothing new
            return
        if self._sync_at is None or self._gap is not None or msg.first != self.last_seq + 1:
            # Only the first line of the answer to our SYNC may say presses are gone, and only
            # from the first one we lack. Anything else would let one line skip any number of
            # presses: refuse it and ask the hub what it really has.
            self._reject("unexpected-gap", now, out)
            if self._sync_at is None:
                self._send_sync(now, out)
            return
        self._gap = msg  # held until the rest of the answer confirms it

    def _on_synced(self, msg: p.Synced, now: float, out: Outcome) -> None:
        self.stats.accepted += 1
        if self._gap is not None:  # a GAP with no press after it ends at the hub's latest
            gap, self._gap = self._gap, None
            if msg.latest_seq == gap.last:
                self._adopt_gap(gap, out)
            else:
                self._reject("unconfirmed-gap", now, out)
        if msg.latest_seq < self.last_seq:
            self._rehandshake(now, out)  # the hub is behind us: a new numbering
            return
        self._shown = max(self._shown, msg.latest_seq)
        if msg.latest_seq > self.last_seq:
            self._send_sync(now, out)  # something still missing: ask again
            return
        self._sync_at = None
        if self.state is HubState.SYNCING:
            self.state = HubState.ONLINE
            self._ping_at = now
            self._offline_announced = False
            if not self._announced:
                self._announced = True
                out.events.append(HubOnline(self.name, self.seats))
            out.send += [p.led(seat, pattern) for seat, pattern in self.leds.items()]

    def _on_pong(self, msg: p.Pong, now: float, out: Outcome) -> None:
        if self.version is None or self.version < 2:
            self.stats.accepted += 1  # a version-1 keep-alive: no number to check
            return
        if msg.latest_seq is None:
            self._reject("pong-without-number", now, out)
            return
        self.stats.accepted += 1
        if msg.latest_seq < self.last_seq:
            self._rehandshake(now, out)  # the hub is behind us: a new numbering
            return
        self._shown = max(self._shown, msg.latest_seq)
        if msg.latest_seq > self.last_seq and self._sync_at is None:
            self.stats.heartbeat_gaps += 1  # the hub has a press we never got
            self._send_sync(now, out)

    # -- helpers ------------------------------------------------------------------------------

    def _adopt_gap(self, gap: p.Gap, out: Outcome) -> None:
        self.stats.accepted += 1
        self.stats.lost_presses += gap.last - gap.first + 1
        self.last_seq = gap.last
        out.events.append(InputRejected(self.name, Reason.of(
            N_("The hub lost presses {first} to {last}: its memory of presses was full."),
            first=gap.first, last=gap.last)))

    def _report_lost_with_numbering(self, out: Outcome) -> None:
        """The hub's boot id changed: its old history is gone, and with it every press of the
        old numbering that never reached us. Report those whose numbers the hub showed us (a
        press we could not use yet, a heartbeat's number); a lost last line with no later
        number is gone unseen (``docs/serial-protocol.md`` section 6)."""
        last = self._shown
        if last <= self.last_seq:
            return
        first = self.last_seq + 1
        self.stats.lost_presses += last - first + 1
        out.events.append(InputRejected(self.name, Reason.of(
            N_("The hub lost presses {first} to {last}: it restarted or renumbered its presses "
               "before sending them."), first=first, last=last)))

    def _rehandshake(self, now: float, out: Outcome) -> None:
        """Start the session again on this connection: ``HELLO``, then ``SYNC``. Presses that
        arrive meanwhile are ignored; the ``SYNC`` replays them."""
        self.stats.rehandshakes += 1
        self.state = HubState.HELLO
        self._hello_at = now
        self._sync_at = None
        self._gap = None
        out.send.append(p.hello())

    def _send_sync(self, now: float, out: Outcome) -> None:
        self._sync_at = now
        out.send.append(p.sync(self.last_seq))

    def _reject(self, reason: str, now: float, out: Outcome) -> None:
        self.stats.rejected += 1
        self.stats.reasons[reason] += 1
        self._unreported += 1
        self._last_reason = reason
        if self._report_due(now):
            self._report_rejections(now, out)

    def _report_due(self, now: float) -> bool:
        last = self._reported_at
        return last is None or now - last >= self.timing.reject_report_interval

    def _report_rejections(self, now: float, out: Outcome) -> None:
        """Say the bad lines, at most every ``reject_report_interval``: how many since this
        session began (the count since the last report read as all of them: "1" said while 6
        came, the 5 others said 5 s later; found by a table test)."""
        self._unreported = 0
        self._reported_at = now
        out.events.append(InputRejected(self.name, Reason.of(
            N_("Bad lines from the hub so far: {count} (last: {problem})."),
            count=self.stats.rejected, problem=self._last_reason)))
