"""A scripted table for the demo and the UI tests: which button to press next (Kivy-free).

:func:`next_press` looks at the controller's view and answers with the ``test_name`` of the
button a sensible table would press: gears that keep the cars out of trouble in corners, the
cards for that speed (one Stress card early on, to show the flip prompt), every bonus the car
is entitled to, then End turn; never a greyed choice while one is allowed (End turn greyed: the
allowed one, such as "Cannot pay").
"""

from __future__ import annotations

from companion.engine import STRESS, RaceState
from companion.engine.conditions import corner_limit

from ..controller import RaceController
from ..views.race_view import RaceView


def target_speed(state: RaceState, car_id: str) -> int:
    """Up to the next corner's limit in force (road conditions included), one more when the
    engine can pay for it."""
    car = state.car(car_id)
    line_at, corner = state.track.next_corner_line(max(car.distance, 1))
    room = line_at - car.distance
    if line_at >= state.finish_distance:
        return 16
    return max(room, corner_limit(state, corner) + min(car.engine, 1))


def choose_gear(state: RaceState, car_id: str) -> int:
    car = state.car(car_id)
    target = target_speed(state, car_id)
    options = [g for g in (car.gear - 1, car.gear, car.gear + 1) if 1 <= g <= 4]
    fitting = [g for g in options if g <= target]
    if not fitting:
        return options[0]
    best = max(fitting)
    return best if best * 1 <= target else options[0]


def cards_for(gear: int, target: int, stress: bool, garage: bool = False) -> list[int | str]:
    """``gear`` cards adding up to about ``target`` (no more than three of a value; no 0 or 5
    when the car has Garage upgrades instead of the Starting Upgrades)."""
    cards: list[int | str] = []
    if stress:
        cards.append(STRESS)
    left = target - (2 if stress else 0)
    slots = gear - len(cards)
    copies = {0: 0 if garage else 1, 1: 3, 2: 3, 3: 3, 4: 3, 5: 0 if garage else 1}
    for i in range(slots):
        remaining_slots = slots - i - 1
        want = max(1, min(4, left - remaining_slots))
        value = min((v for v in copies if copies[v] > 0), key=lambda v: (abs(v - want), -v))
        copies[value] -= 1
        cards.append(value)
        left -= value
    return cards


def key_name(value: int | str) -> str:
    return "key stress" if value == STRESS else f"key {value}"


def next_press(controller: RaceController, view: RaceView | None = None) -> str | None:
    """The ``test_name`` of the next button to press, or None when the race is over."""
    view = view or controller.view()
    state = controller.state
    if view.mode == "over":
        return None
    if view.mode == "gears":
        row = next(r for r in view.gear_rows if r.planned is None)
        return f"gear {row.car} {choose_gear(state, row.car)}"
    if view.mode == "turn_gear":  # tournament: the gear of the car whose turn it is
        row = view.gear_rows[0]
        return f"gear {row.car} {choose_gear(state, row.car)}"
    if view.mode == "run_round":
        return "run round"
    if view.mode == "legend_card":
        return f"key {state.round % 10 + 1}"
    if view.mode in ("flip", "plus"):
        return "key 2"
    if view.mode == "value":
        return f"key {view.keys[0][0]}"
    if view.mode in ("reveal", "unpaid") and view.can_confirm:
        # An undone reveal is back on the keypad, whole: take its last key back and type it
        # again, and the cards go in as they did before (the keypad has no separate Move key).
        return "key back"
    if view.mode == "unpaid":
        return "key 2"  # the cards go in with the last flip typed
    if view.mode == "boost":
        return "key 1"
    if view.mode == "reveal":
        car = state.car(view.current or "")
        stress = state.round == 0 and car.gear >= 2 and state.track.stress > car.stress_taken
        cards = cards_for(car.gear, target_speed(state, car.id), stress, bool(car.upgrades))
        typed, _flips = controller.entry
        return key_name(cards[min(len(typed), len(cards) - 1)])  # the last one sends them
    keys = [b.key for b in view.react if not b.why]  # a greyed button is not a choice
    if "adrenaline" in keys and state.car(view.current or "").engine > 0:
        # With an empty engine the extra +1 Speed could only cost a spin-out at a corner.
        return "react adrenaline"
    cooldowns = [k for k in keys if k.startswith("cooldown:")]
    if cooldowns:
        return f"react {cooldowns[-1]}"
    if "slipstream" in keys:
        return "react slipstream"
    if "end" in keys or not keys:
        return "react end"
    # End turn greyed: what the car must enter first ("Cannot pay": an upgrade card's Heat
    # the engine cannot pay; "react end" was answered, and refused, found by a table test)
    return f"react {keys[0]}"
