"""Neutral input events: what the table did, independent of where it came from.

Touch, GPIO and the USB serial hub all produce these same frozen values, so the engine
never learns which path an input took. ``hardware`` never imports the engine or Kivy.

Seats are numbered from 1; gears are 1..4 (an unknown gear is never sent: a Ready press
with the dial between positions becomes :class:`InputRejected` instead).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

GEARS: tuple[int, ...] = (1, 2, 3, 4)
MAX_SEATS = 8

Param = str | int
"""A value put into a :class:`Reason`'s sentence."""


def N_(message: str) -> str:  # noqa: N802 - the conventional gettext no-op marker
    """Mark a :class:`Reason`'s sentence for the app's translation catalogs (which read this
    package); the app translates it where it shows it."""
    return message


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an input could not be used or a hub went offline, said for the table.

    ``template`` is one English sentence with ``{placeholders}``, marked with :func:`N_`;
    ``params`` fills them. The app shows ``_(reason.template).format(**reason.values)`` in the
    player's language; ``str(reason)`` is the English sentence (logs, the command line). A
    system's own words (an OS error) go in a parameter, as they are.
    """

    template: str
    params: tuple[tuple[str, Param], ...] = ()

    def __post_init__(self) -> None:
        str(self)  # a placeholder without a value is a bug: fail where it is made

    @classmethod
    def of(cls, template: str, /, **params: Param) -> Reason:
        return cls(template, tuple(sorted(params.items())))

    @property
    def values(self) -> dict[str, Param]:
        return dict(self.params)

    def __str__(self) -> str:
        return self.template.format(**self.values)


def dial_between(seat: int) -> Reason:
    """Why a seat's Ready press was not used: its gear dial sat between two gears."""
    return Reason.of(N_("Seat {seat}: Ready was pressed with the gear dial between two gears."),
                     seat=seat)


def seats_text(seats: tuple[int, ...] | list[int]) -> str:
    """Seat numbers for a :class:`Reason`: ``"5, 6"``."""
    return ", ".join(str(seat) for seat in seats)


class TableButton(StrEnum):
    """The shared buttons on the table (each seat's own Ready button is :class:`SeatReady`)."""

    NEXT = "next"
    UNDO = "undo"
    CONFIRM = "confirm"


def _check_seat(seat: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= MAX_SEATS:
        raise ValueError(f"seat must be 1..{MAX_SEATS}, not {seat!r}")


def _check_gear(gear: int) -> None:
    if isinstance(gear, bool) or gear not in GEARS:
        raise ValueError(f"gear must be 1..4, not {gear!r}")


@dataclass(frozen=True, slots=True)
class SeatReady:
    """A seat pressed Ready; ``gear`` is its dial, read at that moment."""

    seat: int
    gear: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        _check_gear(self.gear)


@dataclass(frozen=True, slots=True)
class DialMoved:
    """A seat's gear dial settled on a new position (also sent once per seat at start-up)."""

    seat: int
    gear: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        _check_gear(self.gear)


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """A shared button was pressed. ``seat`` is None for the table's shared buttons."""

    button: TableButton
    seat: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.button, TableButton):
            raise ValueError(f"unknown button {self.button!r}")
        if self.seat is not None:
            _check_seat(self.seat)


@dataclass(frozen=True, slots=True)
class HubOnline:
    """The serial hub ``hub`` answered and is synchronised; it serves ``seats``."""

    hub: str
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HubOffline:
    """The serial hub is gone or cannot be opened (sent once per outage, not per retry)."""

    hub: str
    reason: Reason


@dataclass(frozen=True, slots=True)
class InputRejected:
    """Something came in that could not be used. ``source`` names the path ("gpio", a hub
    name, "queue"); ``seat`` is set when the problem belongs to one seat (blink its LED)."""

    source: str
    reason: Reason
    seat: int | None = None


InputEvent = SeatReady | DialMoved | ButtonPressed | HubOnline | HubOffline | InputRejected
"""Everything the app drains from an :class:`~hardware.inputqueue.InputQueue`."""
