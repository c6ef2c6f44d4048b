"""Host side of the hub protocol as a pure state machine: lines in, events and replies out.

No I/O and no threads here (see :mod:`hardware.serial_hub` for those), so every rule can be
tested by feeding lines. The rules that make presses exactly-once:

* every press carries a sequence number; the host remembers the last one it used;
* a repeated number is dropped (counted as a duplicate);
* a jump (a line was lost) drops the press and asks the hub for ``SYNC <last>``; the hub
  replays everything after ``<last>`` in order, then its dial positions, then ``SYNCED``;
* after every (re)connect the host sends ``HELLO`` then ``SYNC <last>``; the hub's boot id tells
  whether it is the same hub session (replay what was missed) or a hub that rebooted (replay its
  whole new history); on first contact since the app started, history is skipped as stale.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from . import protocol as p
from .events import (
    ButtonPressed,
    DialMoved,
    HubOffline,
    HubOnline,
    InputEvent,
    InputRejected,
    SeatReady,
    TableButton,
)
from .outputs import LedPattern


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
    early: int = 0
    lost_presses: int = 0
    hub_errors: int = 0
    connects: int = 0
    disconnects: int = 0


@dataclass
class Outcome:
    """What the session wants done: events to queue, lines to send, and whether to drop the
    connection (``drop`` is the reason)."""

    events: list[InputEvent] = field(default_factory=list)
    send: list[bytes] = field(default_factory=list)
    drop: str | None = None


@dataclass(frozen=True, slots=True)
class SessionTiming:
    hello_retry: float = 1.0
    sync_retry: float = 1.0
    ping_interval: float = 2.0
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
        self.last_seq = 0
        self.dials: dict[int, int] = {}
        self.leds: dict[int, LedPattern] = {seat: LedPattern.OFF for seat in self.seats}
        self._offline_announced = False
        self._opened_at = self._last_valid = self._hello_at = self._ping_at = 0.0
        self._sync_at: float | None = None
        self._unreported = 0
        self._last_reason = ""
        self._reported_at: float | None = None

    # -- connection lifecycle -----------------------------------------------------------------

    def opened(self, now: float) -> Outcome:
        self.stats.connects += 1
        self.state = HubState.HELLO
        self._opened_at = self._last_valid = self._hello_at = now
        self._sync_at = None
        return Outcome(send=[p.hello()])

    def closed(self, reason: str) -> Outcome:
        """The port is gone (or could not be opened): announce it once per outage."""
        if self.state is not HubState.CLOSED:
            self.stats.disconnects += 1
        self.state = HubState.CLOSED
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
        if self.state is not HubState.ONLINE:
            return Outcome()
        return Outcome(send=[p.beep(count, max(1, round(on * 1000)), round(off * 1000))])

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
            self.stats.accepted += 1
            if msg.last > self.last_seq:
                first = max(msg.first, self.last_seq + 1)
                self.stats.lost_presses += msg.last - first + 1
                self.last_seq = msg.last
                out.events.append(InputRejected(
                    self.name, f"hub lost presses {first}..{msg.last} (its history was full)"))
        elif isinstance(msg, p.Synced):
            self.stats.accepted += 1
            self._on_synced(msg, now, out)
        elif isinstance(msg, p.HubError):
            self.stats.hub_errors += 1
        else:
            self.stats.accepted += 1  # PONG
        return out

    def tick(self, now: float) -> Outcome:
        out = Outcome()
        t = self.timing
        if self.state is HubState.CLOSED:
            return out
        if now - self._last_valid > t.silence_timeout:
            out.drop = f"hub silent for {now - self._last_valid:.1f} s"
            return out
        if self.state is HubState.HELLO and now - self._hello_at >= t.hello_retry:
            self._hello_at = now
            out.send.append(p.hello())
        if self._sync_at is not None and now - self._sync_at >= t.sync_retry:
            self._send_sync(now, out)
        if self.state is HubState.ONLINE and now - self._ping_at >= t.ping_interval:
            self._ping_at = now
            out.send.append(p.ping())
        if self._unreported and self._report_due(now):
            self._report_rejections(now, out)
        return out

    # -- message handlers ---------------------------------------------------------------------

    def _on_hello(self, msg: p.Hello, now: float, out: Outcome) -> None:
        if msg.version != p.PROTOCOL_VERSION:
            self._reject("version", now, out)
            out.drop = f"hub speaks protocol v{msg.version}, this app speaks v{p.PROTOCOL_VERSION}"
            return
        self.stats.accepted += 1
        foreign = sorted(set(msg.seats) - set(self.seats))
        if foreign:
            out.events.append(InputRejected(
                self.name, f"hub reports seats {foreign} that the wiring file does not give it"))
        missing = sorted(set(self.seats) - set(msg.seats))
        if missing:
            out.events.append(InputRejected(
                self.name, f"the wiring file gives seats {missing} to the hub, which does not "
                "serve them (check SEATS in its firmware)"))
        if self.boot_id is None:
            self.last_seq = msg.latest_seq  # first contact: older presses are stale
        elif msg.boot_id != self.boot_id:
            self.last_seq = 0  # the hub restarted: everything it has is new
        self.boot_id = msg.boot_id
        self.state = HubState.SYNCING
        self._send_sync(now, out)

    def _on_press(self, msg: p.Press, now: float, out: Outcome) -> None:
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
            out.events.append(InputRejected(
                self.name, f"seat {msg.seat}: Ready pressed with the gear dial between positions",
                seat=msg.seat))
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

    def _on_synced(self, msg: p.Synced, now: float, out: Outcome) -> None:
        if msg.latest_seq > self.last_seq:
            self._send_sync(now, out)  # something still missing: ask again
            return
        self._sync_at = None
        if self.state is HubState.SYNCING:
            self.state = HubState.ONLINE
            self._ping_at = now
            self._offline_announced = False
            out.events.append(HubOnline(self.name, self.seats))
            out.send += [p.led(seat, pattern) for seat, pattern in self.leds.items()]

    # -- helpers ------------------------------------------------------------------------------

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
        n, self._unreported = self._unreported, 0
        self._reported_at = now
        what = "1 bad line" if n == 1 else f"{n} bad lines"
        reason = f"{what} from the hub (last: {self._last_reason})"
        out.events.append(InputRejected(self.name, reason))
