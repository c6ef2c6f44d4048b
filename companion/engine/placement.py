"""Where a car ends up: spots, blocking and race order (docs/rules.md §1.3, §1.12).

Each space has two spots, one on the Race Line. A car that stops on a space takes the Race Line
spot if it is free, otherwise the other one; if both are taken it is blocked and goes to the first
free spot behind (Race Line spot first). Cars never block passing. The same rule places every
move: cards, Adrenaline, Boost, Draft, Slipstream, spin-outs and Legends (docs/rules.md §1.3, BGA).
Spots belong to the physical space, so a car a lap ahead still takes one.

A car that ends on its own space (a move of 0, or every spot ahead taken) keeps the spot it
stands on, even when the Race Line spot there is free: it has not moved (docs/rules.md §1.3; BGA's
``Circuit::getReachedCell`` returns the current cell for a move of 0).
"""

from __future__ import annotations

from .evolve import evolve
from .explain import N_
from .outcomes import Outcome, said
from .state import CarState, RaceState


def occupied_spots(state: RaceState, mover: str) -> dict[int, set[bool]]:
    """Space number -> the spots (True = Race Line) taken by cars on the track other than
    ``mover``. Cars already on the podium no longer take a spot (docs/rules.md §1.12)."""
    taken: dict[int, set[bool]] = {}
    for car in state.cars:
        if car.on_track and car.id != mover:
            taken.setdefault(state.track.space_of(car.distance), set()).add(car.race_line)
    return taken


def place(state: RaceState, mover: str, target: int) -> tuple[int, bool]:
    """The ``(distance, race_line)`` where ``mover`` stops when it aims for ``target``."""
    taken = occupied_spots(state, mover)
    car = state.car(mover)
    distance = target
    while True:
        if distance == car.distance and car.on_track:
            return distance, car.race_line  # back on its own space: it keeps its spot
        spots = taken.get(state.track.space_of(distance), set())
        if True not in spots:
            return distance, True
        if False not in spots:
            return distance, False
        distance -= 1


def move_car(state: RaceState, car: CarState, target: int) -> CarState:
    """``car`` placed at ``target`` by the placement rule."""
    distance, race_line = place(state, car.id, target)
    return evolve(car, distance=distance, race_line=race_line)


def race_order_key(car: CarState) -> tuple[int, int]:
    """Furthest ahead first; on the same space the Race Line spot is ahead (docs/rules.md §1.12)."""
    return (-car.distance, 0 if car.race_line else 1)


def cars_beside_or_ahead(state: RaceState, car: CarState) -> list[CarState]:
    """Cars a slipstream can use: on the same space (the other spot) or on the space directly in
    front, either spot (docs/rules.md §1.8)."""
    here = state.track.space_of(car.distance)
    ahead = state.track.space_of(car.distance + 1)
    return [
        other
        for other in state.cars
        if other.on_track
        and other.id != car.id
        and state.track.space_of(other.distance) in (here, ahead)
    ]


def empty_spaces_ahead(state: RaceState, car: CarState) -> int | None:
    """How many completely empty spaces lie between ``car`` and the next space ahead that holds
    a car (either spot); None when no other car is on the track (Draft, docs/rules.md §4.3)."""
    taken = occupied_spots(state, car.id)
    for gap in range(state.track.spaces):
        if state.track.space_of(car.distance + gap + 1) in taken:
            return gap
    return None


def where(state: RaceState, car: CarState) -> dict[str, str | int]:
    return {
        "space": state.track.space_of(car.distance),
        "spot": "Race Line" if car.race_line else "outside",
    }


def position_outcome(state: RaceState, car: CarState, target: int) -> Outcome:
    """Where to put the car on the board, in words ("red to space 23, Race Line")."""
    spot = where(state, car)
    if car.distance != target:
        return said("blocked", car.id,
                    N_("Space {target} is full, so {car} goes to space {space}, {spot}."),
                    target=state.track.space_of(target), car=car.id, **spot)
    return said("position", car.id, N_("{car} to space {space}, {spot}."), car=car.id, **spot)


def moved(state: RaceState, car: CarState, target: int, out: list[Outcome]) -> RaceState:
    """``car`` (as evolved by the caller) placed at ``target``, told to the table."""
    placed = move_car(state, car, target)
    state = state.with_car(placed)
    out.append(position_outcome(state, placed, target))
    return state
