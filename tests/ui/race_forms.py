"""A New race form filled as the tests need it: drivers of the given names in seats 1, 2, ...
(each in the next car colour) and a number of Legends."""

from __future__ import annotations

from collections.abc import Iterable

from companion.ui.views.drivers import Driver
from companion.ui.views.names import CAR_COLOURS
from companion.ui.views.race_form import RaceForm


def seated(names: Iterable[str]) -> list[Driver]:
    """Drivers of ``names``, in seats 1, 2, ... and the car colours in order."""
    return [Driver(colour, name=name, seat=seat) for seat, (colour, name) in
            enumerate(zip(CAR_COLOURS, names, strict=False), start=1)]


def race_form(names: Iterable[str], legends: int = 0, seed: int = 1,
              first_race: bool = False) -> RaceForm:
    """A form with :func:`seated` drivers of ``names`` and ``legends`` Legends (``first_race``:
    the options of a table's first race)."""
    form = RaceForm(seed=seed)
    if first_race:
        form.first_race()
    form.drivers = seated(names)
    form.set_legends(legends)
    return form
