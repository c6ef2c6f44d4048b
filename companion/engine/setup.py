"""Setting up a race (docs/rules.md §1.1): the grid, each car's Heat, the Legends deck."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from types import MappingProxyType

from . import legends, rng
from .draft import COPIES
from .explain import N_, Explanation, explain
from .garage import DESIGNS
from .modules import EVENTS, NO_MODULES, WEATHER_START, RaceModules
from .rules import Applied, settle
from .state import LEGEND_COLOURS, PERSONAL_HEAT, CarState, Phase, RaceState
from .track import Track

MAX_HANDICAP = 2
"""An experienced driver may start with 1 or 2 fewer Heat (the rulebook's suggestion)."""


@dataclass(frozen=True, slots=True)
class CarEntry:
    id: str
    name: str = ""
    legend: bool = False
    handicap: int = 0
    mechanics: int = 0
    """Consulting the mechanics (1966 event): +1 for +1 Heat & +1 Stress, -1 for -1 & -1."""
    upgrades: tuple[str, ...] = ()
    """Garage upgrade cards by design id (docs/rules.md §4); with upgrades the Starting Upgrades
    (0, 5, personal Heat) are not used."""
    sponsor_cards: int = 0
    """Sponsorship cards in hand at the start (drawn for the race, or kept from earlier)."""


@dataclass(frozen=True, slots=True)
class RaceSetup:
    track: Track
    cars: tuple[CarEntry, ...]
    """In grid order: the first car is on pole."""
    laps: int | None = None
    seed: int = 0
    legend_cards: tuple[int, ...] = ()
    legend_bonus: int = 0
    physical_legends_deck: bool = False
    aggressive_legends: bool = True
    modules: RaceModules = NO_MODULES


class SetupError(ValueError):
    """A race that cannot be set up; the message says why."""

    def __init__(self, why: Explanation) -> None:
        super().__init__(why.text())
        self.why = why


def _problem(setup: RaceSetup) -> Explanation | None:
    track = setup.track
    if not setup.cars:
        return explain(N_("A race needs at least one car."))
    if len(setup.cars) > track.grid_size:
        return explain(N_("{track} has {grid} grid spots, not {count}."),
                       track=track.id, grid=track.grid_size, count=len(setup.cars))
    seen: set[str] = set()
    for entry in setup.cars:
        if not entry.id:
            return explain(N_("Every car needs an id."))
        if entry.id in seen:
            return explain(N_("Car {car} is on the grid twice."), car=entry.id)
        seen.add(entry.id)
        if entry.legend and entry.id not in LEGEND_COLOURS:
            return explain(
                N_("A Legend is one of the six Legend colours (black, blue, green, red, grey, "
                   "yellow), not {car}."), car=entry.id)
        if entry.handicap not in range(MAX_HANDICAP + 1) or (entry.legend and entry.handicap):
            return explain(N_("Handicap for {car} must be 0, 1 or 2 Heat."), car=entry.id)
    modules = setup.modules
    if modules.event is not None and modules.event not in EVENTS:
        return explain(N_("There is no event called {event}."), event=modules.event)
    lines = {c.line_after for c in track.corners}
    for line in list(modules.road) + list(modules.press_corners):
        if line not in lines:
            return explain(N_("{track} has no corner after space {space}."),
                           track=track.id, space=line)
    event = modules.event_card
    for entry in setup.cars:
        if entry.mechanics not in (-1, 0, 1) or (entry.mechanics and entry.legend):
            return explain(N_("The mechanics' choice for {car} is +1 or -1."), car=entry.id)
        if entry.mechanics and (event is None or not event.choose_heat_and_stress):
            return explain(N_("Only the Consulting the mechanics event offers that choice."))
        for design in entry.upgrades:
            if design not in DESIGNS or DESIGNS[design].sponsor:
                return explain(N_("{design} is not a Garage upgrade card."), design=design)
        for design, count in sorted(Counter(entry.upgrades).items()):
            # The Garage holds each design twice, and two Heat cards in each of its two decks:
            # no car can own more (docs/rules.md §4.2; docs/rules-decisions.md #26).
            limit = COPIES * 2 if DESIGNS[design].heat_card else COPIES
            if count > limit:
                return explain(N_("{car} has {count} {design} cards; the Garage holds only "
                                  "{limit}."), car=entry.id, count=count, design=design,
                               limit=limit)
        if entry.legend and (entry.upgrades or entry.sponsor_cards):
            return explain(N_("Legends have no cards."))
        if entry.sponsor_cards < 0:
            return explain(N_("Sponsorship cards cannot be fewer than 0."))
    if _laps(setup) < 1:
        return explain(N_("A race has at least 1 lap."))
    for card in setup.legend_cards:
        if card not in legends.LEGENDS_CARDS:
            return explain(N_("Legends cards are numbered 1-10, not {card}."), card=card)
    if setup.legend_bonus < 0:
        return explain(N_("The Legends difficulty bonus cannot be negative."))
    return None


def _laps(setup: RaceSetup) -> int:
    """The laps raced: the file's or app's explicit count, else the track's adjusted by the
    event (Drivers' strike -1, Record crowds +1, Pressure cooker +1; docs/rules.md §3.3)."""
    if setup.laps is not None:
        return setup.laps
    event = setup.modules.event_card
    return setup.track.laps + (event.laps if event is not None else 0)


def _starting_car(setup: RaceSetup, entry: CarEntry, position: int) -> CarState:
    """A car on the grid (docs/rules.md §1.1): Heat in the engine, plus the personal Heat card in
    the deck; Stress in the deck. Events, weather and the mechanics' choice adjust both (§3.3,
    §5)."""
    track = setup.track
    distance, race_line = -(position // 2), position % 2 == 0
    if entry.legend:
        return CarState(id=entry.id, name=entry.name or entry.id, legend=True,
                        distance=distance, race_line=race_line, gear=0, engine=0, heat=0)
    engine = track.heat - entry.handicap + entry.mechanics
    stress = track.stress + entry.mechanics
    event = setup.modules.event_card
    if event is not None:
        engine += event.engine_heat
        stress += event.stress
    engine = max(0, engine)  # a handicap over the track's Heat: docs/rules-decisions.md #24
    # The personal Heat card is a Starting Upgrade: not in a Garage deck (docs/rules.md §4.1).
    heat = engine + (0 if entry.upgrades else PERSONAL_HEAT)
    heat += sum(1 for design in entry.upgrades if DESIGNS[design].heat_card)
    weather = setup.modules.weather
    if weather is not None:
        supply, out_of_engine, weather_stress = WEATHER_START[weather]
        change = supply if supply >= 0 else -min(-supply, engine)
        engine, heat = engine + change, heat + change
        engine -= min(out_of_engine, engine)
        stress += weather_stress
    return CarState(
        id=entry.id, name=entry.name or entry.id, legend=False, distance=distance,
        race_line=race_line, gear=1, engine=engine, heat=heat, handicap=entry.handicap,
        stress_in_deck=max(0, stress), upgrades=entry.upgrades,
        sponsor_cards=entry.sponsor_cards,
    )


def start_race(setup: RaceSetup) -> Applied:
    """The race before round 1: cars on the grid in 1st gear, Heat in their engines
    (docs/rules.md §1.1 steps 2-4; docs/race-file.md grid convention: pole is the last space before
    the line, Race Line spot; two cars per space)."""
    problem = _problem(setup)
    if problem is not None:
        raise SetupError(problem)
    track = setup.track
    cars = [_starting_car(setup, entry, position) for position, entry in enumerate(setup.cars)]
    index = MappingProxyType({car.id: i for i, car in enumerate(cars)})
    state = RaceState(
        track=track,
        laps=_laps(setup),
        seed=setup.seed,
        cars=tuple(cars),
        index=index,
        round=0,
        phase=(Phase.TURNS if setup.modules.tournament and not all(c.legend for c in cars)
               else Phase.PLANNING),
        order=tuple(car.id for car in cars),
        deck=legends.new_deck(
            seed=setup.seed, listed=setup.legend_cards, bonus=setup.legend_bonus,
            physical=setup.physical_legends_deck, aggressive=setup.aggressive_legends,
        ),
        modules=setup.modules,
    )
    return settle(state)


def fill_grid(
    humans: tuple[CarEntry, ...], legends_count: int, *, seed: int, shuffle: bool = True
) -> tuple[CarEntry, ...]:
    """The grid for a race with Legends (docs/rules.md §2.4): the humans plus ``legends_count``
    Legends in the colours the humans do not use; in a random order drawn from ``seed`` (BGA
    shuffles humans and Legends together), or humans first in the given order then Legends.
    Raises :class:`SetupError` when there are not enough free Legend colours."""
    taken = {entry.id for entry in humans}
    free = [colour for colour in LEGEND_COLOURS if colour not in taken]
    if legends_count < 0 or legends_count > len(free):
        raise SetupError(explain(
            N_("Only {free} Legend colours are free, not {count}."),
            free=len(free), count=legends_count,
        ))
    grid = humans + tuple(CarEntry(id=colour, legend=True) for colour in free[:legends_count])
    if not shuffle:
        return grid
    order, _ = rng.shuffled(grid, rng.seed_state(seed))
    return order
