"""Where a car ends up: spots, blocking and race order (docs/rules.md §1.3, §1.12).

Each space has two spots, one on the Race Line. A car that stops on a space takes the Race Line
spot if it is free, otherwise the other one; if both are taken it is blocked and goes to the first
free spot behind (Race Line spot first). Cars never block passing. The same rule places every
move: cards, Adrenaline, Boost, Slipstream, spin-outs and Legends (docs/rules.md §1.3, BGA).
Spots belong to the physical space, so a car a lap ahead still takes one.
"""

from __future__ import annotations

from .evolve import evolve
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
    distance = target
    while True:
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
