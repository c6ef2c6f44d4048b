"""The lines of the Races screen (Kivy-free): one race as the table knows it, in the player's
language — when, where, who drove and how it stands.

>>> from companion.engine import CarEntry
>>> from companion.session import RaceSummary
>>> race = RaceSummary("ab12", "2024-06-01T20:05:00+02:00", "usa", 2,
...                    (CarEntry("red", "Ana"), CarEntry("black", legend=True)), 9, True,
...                    (("black", 1, 9), ("red", 2, 9)))
>>> race_lines(race)
('2024-06-01 20:05  ·  USA  ·  won by Legend Black', 'Ana, Legend Black')
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from companion.i18n import _, listed

from .names import car_name, track_title

PAGE = 30
"""Races read from the log at a time (the list asks for the next page at its end)."""


def race_date(created: str) -> str:
    """When a race was created (as stored: local time, ISO 8601), in the player's language."""
    try:
        when = datetime.fromisoformat(created)
    except ValueError:
        return created[:16].replace("T", " ")
    return _("{year}-{month:02d}-{day:02d} {hour:02d}:{minute:02d}").format(
        year=when.year, month=when.month, day=when.day, hour=when.hour, minute=when.minute)


def race_state(race: Any) -> str:
    """"won by Ana" for a race that is over (the winner's name), else the round it is at."""
    if not race.over:
        return _("round {round}").format(round=race.rounds + 1)
    by_id = {car.id: car for car in race.cars}
    winner = next((car for car, place, _round in race.results if place == 1), None)
    if winner is None:  # every car out: Title sponsor withdraws eliminates on a spin-out
        return _("over, no car finished")
    return _("won by {driver}").format(
        driver=car_name(by_id[winner]) if winner in by_id else winner)


def race_lines(race: Any) -> tuple[str, str]:
    """The two lines of a race in the list: date, track and state; then its drivers, in grid
    order, by name ("Legend Black" for a Legend)."""
    head = "  ·  ".join((race_date(race.created), track_title(race.track_id), race_state(race)))
    return head, listed(car_name(car) for car in race.cars)


def matching_tracks(text: str) -> tuple[str, ...]:
    """The bundled tracks whose name in the player's language (or id) contains ``text``, for
    the search (case does not matter)."""
    import tracks

    wanted = text.casefold().strip()
    if not wanted:
        return ()
    return tuple(info.track.id for info in tracks.available_tracks()
                 if wanted in track_title(info.track.id).casefold()
                 or wanted in info.track.id.casefold())
