"""The race state: frozen values, replaced (never mutated) by every applied action."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

from .evolve import evolve
from .modules import NO_MODULES, RaceModules
from .track import Track

LEGEND_COLOURS = ("black", "blue", "green", "red", "grey", "yellow")
"""The six Legend colours: the columns of the Legends cards (docs/race-file.md, docs/rules.md
§2.1)."""

HAND_SIZE = 7
"""Cards in hand after replenishing (docs/rules.md §1.1 step 5, §1.11)."""

PERSONAL_HEAT = 1
"""The personal Heat card among the Starting Upgrades (docs/rules.md §0): it is in the deck, not the
engine, so a car owns the track's Heat plus one (docs/race-file.md, ``cars.*.heat``)."""


class Phase(Enum):
    PLANNING = "planning"
    """Steps 1-2: every human driver picks a gear, simultaneously and in any order."""
    TURNS = "turns"
    """Steps 3-9, car by car in race order."""
    OVER = "over"
    """Every car has finished."""


class DeckMode(Enum):
    VIRTUAL = "virtual"
    """The app shuffles the Legends deck (seeded; listed cards first)."""
    PHYSICAL = "physical"
    """The table draws real Legends cards and enters each number."""


class TurnStage(Enum):
    """Where a human car is inside its turn (docs/race-file.md, "Order inside a car's turn";
    docs/race-file-v2.md adds Super cool, paying upgrade Heat, Accelerate and Draft)."""

    REVEAL = 0
    MOVED = 1
    ADRENALINE = 2
    COOLDOWN = 3
    SUPER_COOL = 4
    PAID = 5
    """The upgrade cards' Heat is paid (or declared unpaid): React, after Cooldown."""
    BOOST = 6
    ACCELERATE = 7
    DRAFT = 8
    SLIPSTREAM = 9


@dataclass(frozen=True, slots=True)
class PendingCard:
    """An upgrade card played this turn whose Heat is not paid yet (docs/rules.md §4.4: it is paid
    at React, after Cooldown; docs/rules-decisions.md)."""

    design: str
    speed: int
    """What the card adds to the Speed: its value and the Basic cards flipped for its "+"."""


@dataclass(frozen=True, slots=True)
class CarState:
    id: str
    name: str
    legend: bool
    distance: int
    """Progress along the race; see ``track.py`` (lap and space derive from it)."""
    race_line: bool
    gear: int
    """1-4 for a human car; 0 for a Legend (reported as null)."""
    engine: int
    heat: int
    handicap: int = 0
    stress_taken: int = 0
    spinouts: int = 0
    stress_in_deck: int = 0
    """Stress cards shuffled into the deck at the start (track, event, weather)."""
    sponsors: int = 0
    """Sponsorship cards earned this race (Championship, docs/rules.md §3.4)."""
    eliminated: bool = False
    """Out of the race without a place (Title sponsor withdraws: a spin-out eliminates)."""
    upgrades: tuple[str, ...] = ()
    """Garage upgrade cards in this car's deck, by design id (docs/rules.md §4)."""
    sponsor_cards: int = 0
    """Sponsorship cards the car holds (drawn before the race, earned, not yet played)."""
    on_track: bool = True
    """False once the car has been moved to the podium (end of the round it finished in)."""
    finished_place: int | None = None
    finished_round: int | None = None
    eliminated_at: tuple[int, int] | None = None
    """When a spin-out eliminated the car (Title sponsor withdraws): the round it went out in
    and its position in that round's race order (0 first); None for a car never eliminated."""

    @property
    def finished(self) -> bool:
        return self.finished_place is not None

    @property
    def racing(self) -> bool:
        return self.finished_place is None and not self.eliminated

    @property
    def stress_owned(self) -> int:
        """Stress cards in this car's deck, hand and discard pile together."""
        return self.stress_in_deck + self.stress_taken


@dataclass(frozen=True, slots=True)
class TurnState:
    """The human car whose turn it is, between its reveal and the end of its turn."""

    car: str
    stage: TurnStage
    start_distance: int
    speed: int = 0
    adrenaline_entitled: bool = False
    adrenaline_used: bool = False
    cards: tuple[int, ...] = ()
    """Every Basic-card value in play this turn (for the three-copies check)."""
    gear_set: bool = True
    """False in tournament mode until the driver reveals the gear with the cards."""
    slipstream_from: int | None = None
    slipstream_to: int | None = None
    ahead_at_start: frozenset[str] = frozenset()
    """Cars ahead when the turn began (only kept when an event counts cars passed)."""
    start_race_line: bool = True
    """The spot the car stood on when the turn began (a card left unpaid moves it again from
    there)."""
    card_cooldown: int = 0
    """Cooldown from the upgrade cards played (usable before their Heat is paid)."""
    card_super_cool: int = 0
    """Super cool from the upgrade cards played: Heat from the discard pile back to the engine,
    a symbol of its own (docs/rules.md §4.3)."""
    pending: tuple[PendingCard, ...] = ()
    """Upgrade cards whose Heat is still to be paid, in play order."""
    slipstream_bonuses: tuple[int, ...] = ()
    """Optional "Slipstream +N" symbols of the cards played."""
    limit_adjust: int = 0
    """Speed-limit adjustment of the cards played, for every corner this turn."""
    accelerate: int = 0
    """Accelerate: Speed per "+" resolved this turn."""
    plus_resolved: int = 0
    """"+" symbols resolved this turn: Stress cards, upgrade cards, a Boost (docs/rules.md §1.4)."""
    draft: int = 0
    """Draft: how far the car may draft this turn, the sum of the cards' Draft symbols."""
    upgrades_played: tuple[str, ...] = ()
    """Upgrade designs played this turn, revealed or played directly (one copy each)."""


@dataclass(frozen=True, slots=True)
class LegendsDeck:
    """The Legends deck (docs/rules.md §2.1-2.2): one card a round, drawn when the first Legend
    acts."""

    mode: DeckMode = DeckMode.VIRTUAL
    listed: tuple[int, ...] = ()
    """Cards pinned by a race file, drawn first, in order."""
    listed_next: int = 0
    shuffled: tuple[int, ...] = ()
    """What is left of the current seeded shuffle."""
    rng: int = 0
    bonus: int = 0
    """Difficulty: added to every Legend's straight-line number (docs/rules.md §2.4)."""
    aggressive: bool = True
    """Aggressive Legends where the track marks chevrons (docs/rules.md §2.2; option, default
    on)."""
    drawn: tuple[int, ...] = ()
    """Every card drawn so far, in order (exported so a replay is identical)."""


@dataclass(frozen=True, slots=True)
class RaceState:
    track: Track
    laps: int
    seed: int
    cars: tuple[CarState, ...]
    """In grid order, for the whole race."""
    index: Mapping[str, int]
    """Car id to its position in ``cars`` (shared, never changes)."""
    round: int
    """Rounds completed."""
    phase: Phase
    order: tuple[str, ...]
    """Race order of the current round: the cars still racing when it began."""
    planned: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    """Gears chosen so far in the planning phase (steps 1-2); applied when all are chosen."""
    clogged: frozenset[str] = frozenset()
    """Cars whose hand is full of Heat this round: they will not move (docs/rules.md §1.5)."""
    turn_index: int = 0
    """Index in ``order`` of the car whose turn it is (TURNS phase)."""
    turn: TurnState | None = None
    legend_card: int | None = None
    """This round's Legends card, once drawn."""
    deck: LegendsDeck = field(default_factory=LegendsDeck)
    results: tuple[tuple[str, int, int], ...] = ()
    """Finished cars as ``(car, place, round)`` in finishing order."""
    modules: RaceModules = NO_MODULES
    grandstand: int = 0
    """Cars that have completed lap 1 so far (New grandstand event)."""
    crowd: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    """Per lap, cars that crossed Corner Line B so far (The crowd goes wild event)."""

    def car(self, car_id: str) -> CarState:
        return self.cars[self.index[car_id]]

    def out_of_race(self) -> tuple[str, ...]:
        """The eliminated cars (no place: docs/rules.md §3.3) as the app lists them after every
        other car: the later-eliminated first, those out in the same round in that round's
        race order (``CarState.eliminated_at``; docs/rules-decisions.md #27)."""
        placed = {car for car, _place, _round in self.results}
        gone = [c for c in self.cars if c.eliminated and c.id not in placed]
        gone.sort(key=lambda c: (0, -c.eliminated_at[0], c.eliminated_at[1])
                  if c.eliminated_at is not None else (1, 0, 0))
        return tuple(c.id for c in gone)

    def with_car(self, car: CarState) -> RaceState:
        cars = list(self.cars)
        cars[self.index[car.id]] = car
        return evolve(self, cars=tuple(cars))

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def current_car(self) -> str | None:
        if self.phase is not Phase.TURNS or self.turn_index >= len(self.order):
            return None
        return self.order[self.turn_index]

    @property
    def humans_to_plan(self) -> tuple[str, ...]:
        """Human cars still racing that have not picked their gear this round."""
        if self.phase is not Phase.PLANNING:
            return ()
        return tuple(
            c for c in self.order if not self.car(c).legend and c not in self.planned
        )

    @property
    def finish_distance(self) -> int:
        return self.track.finish_distance(self.laps)

    def lap(self, car: CarState) -> int:
        return self.track.lap_of(car.distance)

    def space(self, car: CarState) -> int:
        return self.track.space_of(car.distance)

    @property
    def awaiting_legend_card(self) -> bool:
        """True when the physical Legends deck must be drawn before play can go on."""
        current = self.current_car
        return (
            current is not None
            and self.car(current).legend
            and self.legend_card is None
            and self.deck.mode is DeckMode.PHYSICAL
        )
