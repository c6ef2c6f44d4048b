"""Pin-free table logic: raw contact levels in, neutral events out.

:class:`TableLogic` knows seats, dials and buttons as *channels*, never as GPIO numbers, so the
GPIO binding (:mod:`hardware.gpio_table`) and the pin-free :class:`hardware.fakes.FakeTable`
share exactly the same debouncing and event rules:

* a dial emits :class:`DialMoved` when its decoded gear settles on a new value (positions
  "between" detents are never emitted);
* a seat's Ready emits :class:`SeatReady` with the dial's settled gear when the press settles,
  or :class:`InputRejected` for that seat when the dial is between positions;
* a shared button emits :class:`ButtonPressed` when its press settles (release is silent).

Not thread-safe; the owner serialises calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from . import dial
from .debounce import Debouncer
from .dial import DialKind
from .events import (
    ButtonPressed,
    DialMoved,
    InputEvent,
    InputRejected,
    SeatReady,
    TableButton,
    dial_between,
)


class ChannelKind(StrEnum):
    DIAL = "dial"
    READY = "ready"
    BUTTON = "button"


@dataclass(frozen=True, slots=True)
class Channel:
    """One input contact of the table."""

    kind: ChannelKind
    seat: int | None = None
    index: int = 0
    button: TableButton | None = None

    @staticmethod
    def dial(seat: int, index: int) -> Channel:
        return Channel(ChannelKind.DIAL, seat=seat, index=index)

    @staticmethod
    def ready(seat: int) -> Channel:
        return Channel(ChannelKind.READY, seat=seat)

    @staticmethod
    def shared(button: TableButton) -> Channel:
        return Channel(ChannelKind.BUTTON, button=button)


class _Seat:
    def __init__(self, seat: int, kind: DialKind, settle: float, now: float) -> None:
        self.seat = seat
        self.kind = kind
        self.contacts = [False] * dial.PIN_COUNT[kind]
        self.dial = Debouncer[int | None](dial.decode(kind, self.contacts), settle, now)
        self.announced: int | None = None
        self.ready = Debouncer[bool](False, settle, now)


class TableLogic:
    """Debounces every channel and turns settled changes into events."""

    def __init__(
        self,
        *,
        source: str,
        dials: Mapping[int, DialKind],
        buttons: Iterable[TableButton],
        settle: float,
        now: float,
        levels: Mapping[Channel, bool] | None = None,
    ) -> None:
        self.source = source
        self._seats = {seat: _Seat(seat, kind, settle, now) for seat, kind in sorted(dials.items())}
        self._buttons = {b: Debouncer[bool](False, settle, now) for b in buttons}
        self.assume(levels or {}, now)

    @property
    def channels(self) -> list[Channel]:
        out: list[Channel] = []
        for s in self._seats.values():
            out += [Channel.dial(s.seat, i) for i in range(len(s.contacts))]
            out.append(Channel.ready(s.seat))
        out += [Channel.shared(b) for b in self._buttons]
        return out

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(self._seats)

    def gear(self, seat: int) -> int | None:
        """The seat's settled gear, or None while between positions."""
        return self._seats[seat].dial.stable

    def set_level(self, channel: Channel, level: bool, now: float) -> None:
        """Record a raw edge (from a GPIO callback, or a fake)."""
        if channel.kind is ChannelKind.BUTTON:
            assert channel.button is not None
            self._buttons[channel.button].feed(level, now)
            return
        assert channel.seat is not None
        seat = self._seats[channel.seat]
        if channel.kind is ChannelKind.READY:
            seat.ready.feed(level, now)
        else:
            seat.contacts[channel.index] = level
            seat.dial.feed(dial.decode(seat.kind, seat.contacts), now)

    def initial_events(self) -> list[InputEvent]:
        """One DialMoved per seat whose dial already shows a gear (call once at start)."""
        events: list[InputEvent] = []
        for s in self._seats.values():
            if s.dial.stable is not None and s.announced is None:
                s.announced = s.dial.stable
                events.append(DialMoved(s.seat, s.dial.stable))
        return events

    def poll(self, now: float) -> list[InputEvent]:
        """Events for everything that settled by ``now``: dials first, so a Ready in the same
        tick reads the new gear."""
        events: list[InputEvent] = []
        for s in self._seats.values():
            for gear in s.dial.poll(now):
                if gear is not None and gear != s.announced:
                    s.announced = gear
                    events.append(DialMoved(s.seat, gear))
        for s in self._seats.values():
            for pressed in s.ready.poll(now):
                if not pressed:
                    continue
                gear = s.dial.stable
                if gear is None:
                    events.append(
                        InputRejected(self.source, dial_between(s.seat), seat=s.seat)
                    )
                else:
                    events.append(SeatReady(s.seat, gear))
        for button, deb in self._buttons.items():
            events += [ButtonPressed(button) for pressed in deb.poll(now) if pressed]
        return events

    @property
    def pending(self) -> bool:
        """True while any channel waits to settle."""
        return any(s.dial.pending or s.ready.pending for s in self._seats.values()) or any(
            d.pending for d in self._buttons.values()
        )

    def assume(self, levels: Mapping[Channel, bool], now: float) -> None:
        """Take these raw levels (e.g. read at start-up) as already stable: no events, no
        settle wait. A button held down now is not a press."""
        touched: set[int] = set()
        for channel, level in levels.items():
            if channel.kind is ChannelKind.BUTTON:
                assert channel.button is not None
                self._buttons[channel.button].reset(level, now)
                continue
            assert channel.seat is not None
            s = self._seats[channel.seat]
            if channel.kind is ChannelKind.READY:
                s.ready.reset(level, now)
            else:
                s.contacts[channel.index] = level
                touched.add(s.seat)
        for seat in touched:
            s = self._seats[seat]
            s.dial.reset(dial.decode(s.kind, s.contacts), now)
