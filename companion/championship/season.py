"""A season being played: its definition, its cars and the results so far (docs/rules.md §3).

:class:`Season` is a frozen value. It gives the standings (docs/rules.md §3.2), the grid of the next
race (points leader on pole, ties by the last race: BGA, docs/rules.md §3.1 - not an official rule),
the Garage draft order before it (reverse standings, last place first, and the first picker's
swap; docs/rules.md §3.1, §4.1) and the :class:`RaceSetup` of the next race with its event and
Press Corners (docs/rules.md §3.3).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

import tracks
from companion.engine import rng
from companion.engine.modules import RaceModules, Road, Weather
from companion.engine.setup import CarEntry, RaceSetup
from companion.engine.state import LEGEND_COLOURS, RaceState
from companion.engine.track import Track

from .scoring import RaceResult, Standing, result_from_state, standings
from .seasons import SeasonDef, SeasonError, SeasonRace, press_lines

DRAFT_EXTRA_CARDS = 3
"""Upgrade cards revealed for a draft round: one per player plus this many (docs/rules.md §3.1)."""


@dataclass(frozen=True, slots=True)
class DraftOrder:
    """The Garage draft round before a race (docs/rules.md §3.1; BGA, the swap detail
    unverified)."""

    picks: tuple[str, ...]
    """Human cars in pick order: last in the standings first (Legends do not draft)."""
    market: int
    """Upgrade cards revealed: players + 3."""

    @property
    def swap(self) -> str | None:
        """The car that picked first may then swap one of its earlier Upgrades for one left in
        the market (docs/rules.md §3.1)."""
        return self.picks[0] if self.picks else None


@dataclass(frozen=True, slots=True)
class Season:
    """A season: the definition, the cars (humans and Legends) and the results so far."""

    definition: SeasonDef
    cars: tuple[CarEntry, ...]
    """Every car of the season, humans and Legends, in a fixed order (used for listing)."""
    results: tuple[RaceResult, ...] = ()
    """Race 1 first; only races that are over."""
    legend_bonus: int = 0
    """Legends difficulty for every race (docs/rules.md §2.4)."""
    aggressive_legends: bool = True

    def __post_init__(self) -> None:
        if not self.cars:
            raise SeasonError("a season needs at least one car")
        seen: set[str] = set()
        for car in self.cars:
            if not car.id or car.id in seen:
                raise SeasonError(f"car ids must be unique and not empty (car {car.id!r})")
            seen.add(car.id)
            if car.legend and car.id not in LEGEND_COLOURS:
                raise SeasonError(f"a Legend is one of {', '.join(LEGEND_COLOURS)}, not "
                                  f"{car.id!r}")
            if car.mechanics:
                raise SeasonError("the mechanics' choice is made per race (next_race_setup)")
        if self.legend_bonus < 0:
            raise SeasonError("the Legends difficulty bonus cannot be negative")
        if len(self.results) > len(self.definition.races):
            raise SeasonError(f"{len(self.results)} results for a season of "
                              f"{len(self.definition.races)} races")
        self.standings()  # checks every result names exactly the season's cars

    # --- progress -----------------------------------------------------------------------------

    @property
    def races_played(self) -> int:
        return len(self.results)

    @property
    def over(self) -> bool:
        return len(self.results) == len(self.definition.races)

    @property
    def next_race(self) -> SeasonRace | None:
        """The race to play next, None when the season is over."""
        return None if self.over else self.definition.races[len(self.results)]

    def with_result(self, result: RaceResult | RaceState) -> Season:
        """This season with the next race's result (a :class:`RaceResult` or the race's final
        :class:`RaceState`, which must be over)."""
        if self.over:
            raise SeasonError("the season is over: all its races have results")
        if isinstance(result, RaceState):
            if not result.over:
                raise SeasonError(f"race {len(self.results) + 1} is not over yet")
            result = result_from_state(result)
        return replace(self, results=(*self.results, result))

    # --- standings, grid, draft ---------------------------------------------------------------

    def standings(self) -> tuple[Standing, ...]:
        """The standings after the races played (docs/rules.md §3.2; see :mod:`.scoring`)."""
        return standings(self.cars, self.definition.races, self.results)

    def next_grid(self, seed: int = 0) -> tuple[str, ...]:
        """Grid order of the next race, pole first.

        Race 1: the cars in a random order drawn from ``seed`` (docs/rules.md §1.1 step 4; BGA
        shuffles humans and Legends together, §2.4). Later races: the standings order, leader on
        pole, ties by the last race's result (BGA ``stFinishRace``; docs/rules.md §3.1 marks it as
        not seen in the official rules)."""
        if not self.results:
            order, _ = rng.shuffled([car.id for car in self.cars], rng.seed_state(seed))
            return order
        return tuple(line.car.id for line in self.standings())

    def draft_order(self, grid: Sequence[str] | None = None) -> DraftOrder:
        """The Garage draft before the next race (docs/rules.md §3.1): human cars in reverse
        standings order, last place first; the first picker may swap. Before race 1 nobody has
        points, so the order is the reverse grid (last on the grid first, docs/rules.md §4.1): pass
        the race's ``grid``."""
        humans = {car.id for car in self.cars if not car.legend}
        if self.results:
            order = [line.car.id for line in self.standings()]
        elif grid is not None:
            order = list(self._checked_grid(grid))
        else:
            raise SeasonError("before race 1 the draft order follows the grid: give the grid")
        picks = tuple(car for car in reversed(order) if car in humans)
        return DraftOrder(picks, len(picks) + DRAFT_EXTRA_CARDS)

    def _checked_grid(self, grid: Sequence[str]) -> tuple[str, ...]:
        ids = [car.id for car in self.cars]
        if sorted(grid) != sorted(ids):
            raise SeasonError(f"the grid must list every car of the season once: "
                              f"{', '.join(ids)}")
        return tuple(grid)

    # --- the next race ------------------------------------------------------------------------

    def race_modules(
        self, number: int, track: Track, *, weather: Weather | None = None,
        road: Mapping[int, Road] | None = None,
    ) -> RaceModules:
        """The modules of race ``number`` (1-based): its event and Press Corners (docs/rules.md
        §3.3), plus the Weather and Road Condition tokens drawn at the table (§3.1, §5)."""
        race = self.definition.races[number - 1]
        if track.id != race.track:
            raise SeasonError(f"race {number} is on {race.track}, not {track.id}")
        try:
            press = press_lines(track, race.press)
        except SeasonError as error:
            raise SeasonError(f"race {number}: {error}") from error
        return RaceModules(event=race.event, weather=weather,
                           road=MappingProxyType(dict(road or {})), press_corners=press)

    def next_race_setup(
        self, *, seed: int = 0, grid: Sequence[str] | None = None,
        load_track: Callable[[str], Track] = tracks.load_track,
        weather: Weather | None = None, road: Mapping[int, Road] | None = None,
        mechanics: Mapping[str, int] | None = None,
    ) -> RaceSetup:
        """The :class:`RaceSetup` of the next race: its track, event and Press Corners, the
        cars on the grid (``grid`` if the table chose one, else :meth:`next_grid`), the season's
        Legends options. ``mechanics`` is each driver's choice under Consulting the mechanics
        (+1 or -1, docs/rules.md §3.3). The only I/O is ``load_track`` (bundled track data).

        Raises :class:`SeasonError` when the season is over or the race cannot be played, and
        :class:`tracks.TrackError` from ``load_track``."""
        race = self.next_race
        number = len(self.results) + 1
        if race is None:
            raise SeasonError("the season is over: there is no next race")
        if not race.playable:
            raise SeasonError(f"race {number} ({race.track}) cannot be played: {race.note}")
        track = load_track(race.track)
        order = self._checked_grid(grid) if grid is not None else self.next_grid(seed)
        by_id = {car.id: car for car in self.cars}
        choices = dict(mechanics or {})
        unknown = sorted(set(choices) - set(by_id))
        if unknown:
            raise SeasonError(f"mechanics: {unknown[0]} is not a car of the season")
        cars = tuple(replace(by_id[car], mechanics=choices.get(car, 0)) for car in order)
        return RaceSetup(
            track=track, cars=cars, seed=seed, legend_bonus=self.legend_bonus,
            aggressive_legends=self.aggressive_legends,
            modules=self.race_modules(number, track, weather=weather, road=road),
        )
