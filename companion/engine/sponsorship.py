"""Sponsorship cards earned in a Championship race (docs/rules.md §3.3, §3.4).

At the end of a human car's turn, unless it spun out this turn (docs/rules.md §1.10 step 5):

* a Press Corner crossed with the slipstream move, or at a Speed at least 2 over its limit (the
  limit including road conditions), earns a card, one per Press Corner per pass; two with
  "Going global"; with "Smile and wave" only when slower than the limit;
* "New speed record": a Speed of 15 or more earns a card;
* "First live televised race": passing 3 cars in one turn earns a card;
* "New grandstand inauguration": the first three cars to complete lap 1 earn a card;
* "The crowd goes wild": the first two cars across Corner Line B on each lap earn a card.

Legends never earn cards, but they take their place among the first three or first two
(docs/rules.md §3.3 says so for the crowd event; the grandstand event is read the same way).

A card earned goes into the driver's hand: it can be played in a later turn of the same race,
like the cards drawn before it (docs/rules.md §3.4; docs/race-file-v2.md ``sponsor_cards``).
"""

from __future__ import annotations

from types import MappingProxyType

from . import conditions
from .evolve import evolve
from .explain import N_
from .modules import Sponsorship
from .outcomes import Outcome, said
from .placement import race_order_key
from .state import CarState, RaceState
from .track import Corner

GRANDSTAND_CARS = 3
CROWD_CARS = 2
SPEED_RECORD = 15
LIVE_TV_PASSES = 3


def _crowd_line(state: RaceState) -> int | None:
    """Corner Line B: the second press-corner letter of the track (a chicane counts once)."""
    letters = state.track.press_corners
    return letters[1 % len(letters)] if letters else None


def _laps_completed(state: RaceState, start: int, end: int) -> list[int]:
    """The laps a car completed moving from ``start`` to ``end`` (1 = the first lap)."""
    first, last = state.track.lap_of(start), state.track.lap_of(end)
    return [lap for lap in range(max(first, 1), last) if lap >= 1]


def crowd_and_grandstand(
    state: RaceState, car: CarState, start: int, out: list[Outcome], *, award: bool
) -> RaceState:
    """Count ``car`` among the first across the line (lap 1) and Corner Line B; award a card
    when ``award`` (a human that did not spin out)."""
    event = state.modules.event_card
    if event is None:
        return state
    completed_lap_1 = 1 in _laps_completed(state, start, car.distance)
    if (Sponsorship.GRANDSTAND in event.triggers and completed_lap_1
            and state.grandstand < GRANDSTAND_CARS):
        state = evolve(state, grandstand=state.grandstand + 1)
        if award:
            state = _give(state, car.id, 1, out, N_(
                "{car} is among the first three to complete lap 1: a Sponsorship card."))
    line = _crowd_line(state)
    if Sponsorship.CROWD in event.triggers and line is not None:
        for at, corner in state.track.corner_lines_between(start, car.distance, state.laps):
            if corner.line_after != line:
                continue
            lap = state.track.lap_of(at)
            crossed = state.crowd.get(lap, 0)
            if crossed < CROWD_CARS:
                crowd = dict(state.crowd)
                crowd[lap] = crossed + 1
                state = evolve(state, crowd=MappingProxyType(crowd))
                if award:
                    state = _give(state, car.id, 1, out, N_(
                        "{car} is among the first two across Corner Line B this lap: a "
                        "Sponsorship card."))
    return state


def _give(state: RaceState, car_id: str, count: int, out: list[Outcome], template: str,
          /, **params: str | int) -> RaceState:
    car = state.car(car_id)
    out.append(said("sponsorship", car_id, template, car=car_id, **params))
    return state.with_car(evolve(car, sponsors=car.sponsors + count,
                                 sponsor_cards=car.sponsor_cards + count))


def _press_corner_card(
    state: RaceState, corner: Corner, speed: int, by_slipstream: bool
) -> bool:
    limit = conditions.corner_limit(state, corner)
    event = state.modules.event_card
    if event is not None and event.press_only_below_limit:
        return speed < limit
    return by_slipstream or speed - limit >= 2


def award(
    state: RaceState, car_id: str, start: int, speed: int, slipstream: tuple[int, int] | None,
    ahead_before: frozenset[str], out: list[Outcome],
) -> RaceState:
    """Every Sponsorship card a human car earns at the end of a turn it did not spin out in."""
    press = state.modules.press_corners
    event = state.modules.event_card
    if not press and event is None:
        return state
    car = state.car(car_id)
    per_press = event.press_sponsors if event is not None else 1
    for at, corner in state.track.corner_lines_between(start, car.distance, state.laps):
        if corner.line_after not in press:
            continue
        by_slip = slipstream is not None and slipstream[0] <= at < slipstream[1]
        if not _press_corner_card(state, corner, speed, by_slip):
            continue
        if by_slip:
            state = _give(state, car_id, per_press, out, N_(
                "{car} passes a Press Corner with a slipstream: {cards} Sponsorship card(s)."),
                cards=per_press)
        else:
            state = _give(state, car_id, per_press, out, N_(
                "{car} passes a Press Corner at Speed {speed}: {cards} Sponsorship card(s)."),
                speed=speed, cards=per_press)
    if event is None:
        return state
    if Sponsorship.SPEED_RECORD in event.triggers and speed >= SPEED_RECORD:
        state = _give(state, car_id, 1, out, N_(
            "{car} reaches Speed {speed}, a new speed record: a Sponsorship card."), speed=speed)
    if Sponsorship.LIVE_TV in event.triggers:
        me = race_order_key(state.car(car_id))
        passed = [c for c in ahead_before if race_order_key(state.car(c)) > me]
        if len(passed) >= LIVE_TV_PASSES:
            state = _give(state, car_id, 1, out, N_(
                "{car} passes {count} cars on live television: a Sponsorship card."),
                count=len(passed))
    return state


def cars_ahead(state: RaceState, car_id: str) -> frozenset[str]:
    """Cars on the track ahead of ``car_id`` now (for "pass 3 cars in one round")."""
    me = race_order_key(state.car(car_id))
    return frozenset(c.id for c in state.cars
                     if c.on_track and c.id != car_id and race_order_key(c) < me)
