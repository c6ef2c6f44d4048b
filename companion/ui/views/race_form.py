"""The New race form as plain data, and the :class:`RaceSetup` it makes (Kivy-free)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.engine import CarEntry, RaceSetup, SetupError
from companion.engine.rng import seed_state, shuffled
from companion.i18n import _, listed
from companion.i18n.counts import fill

from .drivers import MAX_SEATS, Driver, DriverList, first_drivers
from .modules_form import ModulesForm

FIRST_RACE_TRACK = "usa"


@dataclass
class RaceForm(DriverList):
    track_id: str = FIRST_RACE_TRACK
    laps: int | None = None
    """None = the track's own number of laps."""
    drivers: list[Driver] = field(default_factory=first_drivers)
    legends: int = 0
    bonus: int = 0
    physical_deck: bool = False
    random_grid: bool = True
    grid: list[str] = field(default_factory=list)
    """The grid set by hand (car ids, pole first); used when ``random_grid`` is False."""
    seed: int = field(default_factory=lambda: random.SystemRandom().randrange(1, 2**31))
    tournament: bool = False
    """Tournament mode: each driver picks the gear at the car's turn, with the cards."""
    modules: ModulesForm = field(default_factory=ModulesForm)
    """Event, Weather, Road Conditions, Press Corners, mechanics, Garage."""

    # --- editing ---------------------------------------------------------------------------

    def first_race(self) -> None:
        """The rulebook's suggestion for a first race: USA, one lap."""
        self.track_id = FIRST_RACE_TRACK
        self.laps = 1

    def next_seat(self, index: int) -> None:
        """Give driver ``index`` the next seat no other driver has."""
        driver = self.drivers[index]
        taken = {d.seat for i, d in enumerate(self.drivers) if i != index}
        for step in range(1, MAX_SEATS + 1):
            candidate = (driver.seat - 1 + step) % MAX_SEATS + 1
            if candidate not in taken:
                driver.seat = candidate
                return

    def seat_map(self) -> dict[int, str]:
        """Seat number -> car id of every human driver."""
        return {d.seat: d.colour for d in self.drivers if d.seat}

    def cycle_handicap(self, index: int) -> None:
        driver = self.drivers[index]
        driver.handicap = (driver.handicap + 1) % 3

    def car_ids(self) -> list[str]:
        return [d.colour for d in self.drivers] + self.legend_colours()

    def _cars_changed(self) -> None:
        self._sync_grid()

    def _sync_grid(self) -> None:
        ids = self.car_ids()
        kept = [c for c in self.grid if c in ids]
        self.grid = kept + [c for c in ids if c not in kept]

    def move_up(self, car: str) -> None:
        """Move ``car`` one place towards pole on the hand-set grid."""
        self._sync_grid()
        i = self.grid.index(car)
        if i > 0:
            self.grid[i - 1], self.grid[i] = self.grid[i], self.grid[i - 1]

    def new_seed(self) -> None:
        self.seed = random.SystemRandom().randrange(1, 2**31)

    # --- result ------------------------------------------------------------------------------

    def grid_order(self) -> list[str]:
        """Pole first: shuffled from the recorded seed, or as set by hand."""
        self._sync_grid()
        if not self.random_grid:
            return list(self.grid)
        order, _state = shuffled(tuple(self.car_ids()), seed_state(self.seed ^ 0x5EED))
        return list(order)

    def human_order(self) -> list[str]:
        """The human drivers in grid order (pole first): the Garage draft's drivers."""
        humans = {d.colour for d in self.drivers}
        return [car for car in self.grid_order() if car in humans]

    def entries(self, upgrades: Mapping[str, tuple[str, ...]] | None = None) -> list[CarEntry]:
        by_id = {d.colour: d for d in self.drivers}
        dealt = upgrades if upgrades is not None else self.modules.dealt(
            self.human_order(), self.seed)
        out = []
        for car in self.grid_order():
            driver = by_id.get(car)
            if driver is None:
                out.append(CarEntry(id=car, name="", legend=True))
            else:
                out.append(CarEntry(id=car, name=driver.stored_name, handicap=driver.handicap,
                                    mechanics=self.modules.mechanics_of(car),
                                    upgrades=tuple(dealt.get(car, ()))))
        return out

    def setup(self, track: object,
              upgrades: Mapping[str, tuple[str, ...]] | None = None) -> RaceSetup:
        """The engine setup (``track`` is the engine :class:`Track`); raises SetupError.
        ``upgrades``: each driver's Garage cards from a draft (else the form's choice)."""
        from companion.engine import Track

        assert isinstance(track, Track)
        return RaceSetup(
            track=track, cars=tuple(self.entries(upgrades)), laps=self.laps, seed=self.seed,
            legend_bonus=self.bonus, physical_legends_deck=self.physical_deck,
            modules=self.modules.race_modules(track, self.seed, self.tournament),
        )

    def problem(self, track: object) -> str:
        """Why the form cannot start a race, in words, or "" when it can."""
        if not self.drivers:
            return _("Add at least one driver.")
        if self.same_names():
            return self.same_names()
        try:
            from companion.engine import start_race

            start_race(self.setup(track))
        except SetupError as error:
            from .words import render

            return render(error.why)
        return ""


def legends_words(count: int) -> str:
    """What the Legends stepper's figure means."""
    if count == 0:
        return _("Only the drivers race")
    return fill(_("The app drives {n} car(s)"), n=count)


def options_summary(form: RaceForm, short: bool = False) -> str:
    """What "More options" holds, as set now, in one short sentence (``short``: the modules
    in use counted, not named: New race's column has room for two lines)."""
    from .words import event_title

    modules = form.modules
    parts = [_("Legends deck: physical") if form.physical_deck else _("Legends deck: virtual"),
             _("Grid: random") if form.random_grid else _("Grid: by hand")]
    if form.tournament:
        parts.append(_("Tournament gears"))
    used = []
    if modules.event:
        used.append(event_title(modules.event))
    if modules.weather_mode != "off":
        used.append(_("Weather"))
    if modules.road_mode != "off":
        used.append(_("Road Conditions"))
    if modules.press:
        used.append(_("Press Corners"))
    if modules.garage != "off":
        used.append(_("Garage"))
    if used and short:
        parts.append(fill(_("Modules: {n} in use"), n=len(used)))
    else:
        parts.append(_("Modules: {list}").format(list=listed(used)) if used
                     else _("Modules: none"))
    return " · ".join(parts)
