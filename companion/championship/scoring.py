"""Championship points and standings (docs/rules.md §3.2, event bonuses §3.3).

* Places 1-6 score 9, 6, 4, 3, 2, 1; other places 0; a car without a place (eliminated, or
  not finished) scores 0 (docs/rules.md §3.2).
* Event bonuses come from the event card (``Event.winner_bonus``: Drivers' strike, winner +2;
  ``Event.top_three_bonus``: Corruption in rules committee, places 1-3 +1 each; docs/rules.md §3.3).
* Legends score like every other car (docs/rules.md §3.2).
* Standings: most points first; a tie is broken by the finishing position in the **last race
  played** (BGA, docs/rules.md §3.2: the printed rule was not available). A car with no place in
  that race ranks after the cars with one. Cars still level share the rank and are listed in
  the season's car order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

from companion.engine.modules import EVENTS
from companion.engine.setup import CarEntry
from companion.engine.state import RaceState

from .seasons import SeasonError, SeasonRace

PLACE_POINTS = (9, 6, 4, 3, 2, 1)
"""Championship points by place, 1st first (docs/rules.md §3.2)."""


def place_points(place: int | None) -> int:
    """Points for a finishing place; 0 past 6th and for a car without a place (docs/rules.md
    §3.2)."""
    if place is None or not 1 <= place <= len(PLACE_POINTS):
        return 0
    return PLACE_POINTS[place - 1]


def event_bonus(event: str | None, place: int | None) -> int:
    """The event card's extra championship points for a place (docs/rules.md §3.3): the winner's
    bonus (Drivers' strike +2) and the top-three bonus (Corruption +1 for places 1-3)."""
    if event is None or place is None:
        return 0
    card = EVENTS[event]
    bonus = card.winner_bonus if place == 1 else 0
    return bonus + (card.top_three_bonus if place <= 3 else 0)


class Status(Enum):
    """How a car ended a race."""

    PLACED = "placed"
    ELIMINATED = "eliminated"
    """Out without a place: Title sponsor withdraws, a spin-out (docs/rules.md §3.3); 0 points."""
    UNFINISHED = "unfinished"
    """Had not finished when the race was recorded as over; 0 points (docs/rules.md §3.2)."""


@dataclass(frozen=True, slots=True)
class RaceResult:
    """One race of a season as the standings need it."""

    order: tuple[str, ...]
    """Placed cars, winner first: ``order[0]`` has place 1."""
    eliminated: tuple[str, ...] = ()
    unfinished: tuple[str, ...] = ()
    sponsors: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    """Sponsorship cards each car gained during the race (docs/rules.md §3.4); cars not listed:
    0."""

    def __post_init__(self) -> None:
        every = self.order + self.eliminated + self.unfinished
        if len(set(every)) != len(every):
            twice = next(c for c in every if every.count(c) > 1)
            raise SeasonError(f"race result: car {twice} is listed twice")
        unknown = sorted(set(self.sponsors) - set(every))
        if unknown:
            raise SeasonError(f"race result: sponsors for {unknown[0]}, not in the race")
        if any(not isinstance(n, int) or n < 0 for n in self.sponsors.values()):
            raise SeasonError("race result: sponsors must be whole numbers of at least 0")

    @property
    def cars(self) -> frozenset[str]:
        return frozenset(self.order + self.eliminated + self.unfinished)

    def place(self, car: str) -> int | None:
        return self.order.index(car) + 1 if car in self.order else None

    def status(self, car: str) -> Status:
        if car in self.order:
            return Status.PLACED
        if car in self.eliminated:
            return Status.ELIMINATED
        if car in self.unfinished:
            return Status.UNFINISHED
        raise SeasonError(f"race result: car {car} did not take part")


def result_from_state(state: RaceState) -> RaceResult:
    """The result of a race as the engine ended it: finishing order from ``state.results``,
    eliminated cars as the race order lists them (the later-eliminated first, those out in the
    same round in that round's race order: docs/rules-decisions.md #27), cars still racing as
    unfinished, Sponsorship cards gained."""
    placed = tuple(car for car, _place, _round in sorted(state.results, key=lambda r: r[1]))
    return RaceResult(
        order=placed,
        eliminated=state.out_of_race(),
        unfinished=tuple(c.id for c in state.cars if c.racing),
        sponsors=MappingProxyType({c.id: c.sponsors for c in state.cars if c.sponsors}),
    )


def result_doc(result: RaceResult) -> dict[str, object]:
    """A result as plain JSON data (how the race log stores it, ``storage/results.py``)."""
    return {"order": list(result.order), "eliminated": list(result.eliminated),
            "unfinished": list(result.unfinished),
            "sponsors": {car: result.sponsors[car] for car in sorted(result.sponsors)}}


def result_from_doc(doc: object) -> RaceResult:
    """Inverse of :func:`result_doc`; raises :class:`SeasonError` naming what is wrong."""
    if not isinstance(doc, dict) or set(doc) != {"order", "eliminated", "unfinished",
                                                 "sponsors"}:
        raise SeasonError("race result: an object with order, eliminated, unfinished and "
                          "sponsors")
    lists = []
    for key in ("order", "eliminated", "unfinished"):
        cars = doc[key]
        if not isinstance(cars, list) or not all(isinstance(c, str) for c in cars):
            raise SeasonError(f"race result: {key} must be a list of car ids")
        lists.append(tuple(cars))
    sponsors = doc["sponsors"]
    if not isinstance(sponsors, dict) or not all(
            isinstance(n, int) and not isinstance(n, bool) for n in sponsors.values()):
        raise SeasonError("race result: sponsors must map car ids to whole numbers")
    return RaceResult(order=lists[0], eliminated=lists[1], unfinished=lists[2],
                      sponsors=MappingProxyType(dict(sponsors)))


@dataclass(frozen=True, slots=True)
class RacePoints:
    """What one car scored in one race."""

    place: int | None
    status: Status
    points: int
    """Place points (docs/rules.md §3.2)."""
    bonus: int
    """Event bonus (docs/rules.md §3.3)."""
    sponsors: int

    @property
    def total(self) -> int:
        return self.points + self.bonus


def race_points(race: SeasonRace, result: RaceResult, car: str) -> RacePoints:
    place = result.place(car)
    return RacePoints(place, result.status(car), place_points(place),
                      event_bonus(race.event, place), result.sponsors.get(car, 0))


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings."""

    rank: int
    """1 = leader; cars level on points and on the last race's position share a rank."""
    car: CarEntry
    points: int
    races: tuple[RacePoints, ...]
    """One entry per race played, in season order."""
    last_place: int | None
    """Finishing position in the last race played: the tie-break (docs/rules.md §3.2, BGA)."""


def standings(
    cars: Sequence[CarEntry], races: Sequence[SeasonRace], results: Sequence[RaceResult]
) -> tuple[Standing, ...]:
    """The standings after ``results`` (race 1 first) of a season's ``races`` (docs/rules.md
    §3.2)."""
    if len(results) > len(races):
        raise SeasonError(f"{len(results)} results for a season of {len(races)} races")
    ids = [car.id for car in cars]
    for number, result in enumerate(results, start=1):
        missing = [c for c in ids if c not in result.cars]
        extra = sorted(result.cars - set(ids))
        if missing or extra:
            what = (f"car {missing[0]} is missing" if missing
                    else f"car {extra[0]} is not in the season")
            raise SeasonError(f"race {number} result: {what}")
    lines = []
    for index, car in enumerate(cars):
        scored = tuple(race_points(race, result, car.id)
                       for race, result in zip(races, results, strict=False))
        last = results[-1].place(car.id) if results else None
        lines.append((index, car, scored, last))

    def key(line: tuple[int, CarEntry, tuple[RacePoints, ...], int | None]) -> tuple[int, int]:
        _, _, scored, last = line
        return -sum(p.total for p in scored), last if last is not None else len(ids) + 1

    ordered = sorted(lines, key=lambda line: (key(line), line[0]))
    out = []
    for _, car, scored, last in ordered:
        rank = 1 + sum(1 for other in lines if key(other) < key((0, car, scored, last)))
        out.append(Standing(rank, car, sum(p.total for p in scored), scored, last))
    return tuple(out)
