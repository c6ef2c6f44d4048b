"""The second pass over the rules (issue 9): the points the scenario files do not reach alone.

Spots kept on a car's own space (docs/rules.md §1.3, docs/rules-decisions.md 19), Sponsorship cards
into the hand (§3.4, decision 20), Super cool (§4.1, decision 14), paying upgrade Heat at React
(§1.5, decision 13), the optional sector slipstream bonus (§1.8, §5, decision 8), a chicane's
own sector (§5, §6, decision 18) and Draft (§4.1, decision 21); and the heat-race/2 keys that
carry them export and replay to the same states (docs/race-file-v2.md).
"""

from __future__ import annotations

from dataclasses import replace

import tracks
from companion import racefile
from companion.engine import (
    Action,
    Adrenaline,
    CarEntry,
    ChooseGear,
    Cooldown,
    DraftMove,
    EndTurn,
    PayHeat,
    RaceSetup,
    RaceState,
    Rejection,
    Reveal,
    Slipstream,
    SuperCool,
    Upgrade,
    play,
    start_race,
    validate,
)
from companion.engine.conditions import sector_corner, sector_slipstream_bonus
from companion.engine.modules import RaceModules, Road, Weather
from companion.engine.placement import move_car, place

TRACK_DOC = {
    "id": "test-30", "spaces": 30, "laps": 1, "heat": 6, "stress": 3,
    "corners": [{"line_after": 10, "limit": 4, "legend_line_after": 6},
                {"line_after": 20, "limit": 3, "legend_line_after": 16}],
}
TRACK = tracks.track_from_dict(TRACK_DOC)


def ok(state: RaceState, action: Action) -> RaceState:
    result = play(state, action)
    assert not isinstance(result, Rejection), result.text()
    return result.state


def race(*cars: CarEntry, modules: RaceModules | None = None, track: object = TRACK,
         gears: int = 1) -> RaceState:
    setup = RaceSetup(track=track, cars=cars, modules=modules or RaceModules())  # type: ignore[arg-type]
    state = start_race(setup).state
    for car in cars:
        if not car.legend:
            state = ok(state, ChooseGear(car.id, gears))
    return state


def at(state: RaceState, car_id: str, distance: int, race_line: bool) -> RaceState:
    return state.with_car(replace(state.car(car_id), distance=distance, race_line=race_line))


# --- 1. a car back on its own space keeps its spot ------------------------------------------


def test_every_mover_keeps_its_spot_on_its_own_space() -> None:
    """docs/rules.md §1.3: the placement rule is the same for every move, Legends included. A car
    outside on space 5 whose move ends on space 5 stays outside, the Race Line spot free."""
    state = race(CarEntry("red"), CarEntry("black", legend=True), CarEntry("blue"))
    for mover in ("red", "black"):
        moved = at(state, mover, 5, False)
        assert place(moved, mover, 5) == (5, False)
        # Space 6 full: a move of 1 falls back to its own space and keeps the spot.
        full = at(at(moved, "blue", 6, True), "red" if mover == "black" else "black", 6, False)
        assert place(full, mover, 6) == (5, False)
        assert move_car(full, full.car(mover), 6).race_line is False
    # A car arriving from elsewhere still takes the Race Line spot first.
    arriving = at(state, "red", 3, False)
    assert place(arriving, "red", 5) == (5, True)


def test_adrenaline_blocked_back_to_its_own_space_keeps_the_spot() -> None:
    """Adrenaline's +1 into a full space: the car stays where it is, on its own spot."""
    state = race(CarEntry("blue"), CarEntry("green"), CarEntry("red"))
    state = ok(state, Reveal("blue", (3,)))
    state = ok(state, EndTurn("blue"))
    state = ok(state, Reveal("green", (3,)))
    state = ok(state, EndTurn("green"))
    # red (from space 29) reveals 3 and stands on space 2; blue and green fill space 3.
    state = ok(state, Reveal("red", (3,)))
    assert state.car("red").race_line is True
    state = at(state, "red", 2, False)
    state = ok(state, Adrenaline("red"))
    red = state.car("red")
    assert (red.distance, red.race_line) == (2, False)


# --- 2. Sponsorship cards earned go into the hand ---------------------------------------------


def test_a_sponsorship_card_earned_is_in_hand() -> None:
    modules = RaceModules(press_corners=(10,))
    state = race(CarEntry("red"), modules=modules, gears=3)
    state = state.with_car(replace(state.car("red"), distance=5))
    state = ok(state, Reveal("red", (3, 2, 1)))  # Speed 6 through the limit-4 Press Corner
    state = ok(state, EndTurn("red"))
    red = state.car("red")
    assert red.sponsors == 1 and red.sponsor_cards == 1


# --- 4. Super cool ----------------------------------------------------------------------------


def test_super_cool_is_bounded_and_comes_after_cooldown() -> None:
    """docs/rules.md §4.1: up to N Heat from the discard pile, never more than is out of the engine;
    race-file order: Cooldown, then Super cool, then the Heat payment."""
    state = race(CarEntry("red", sponsor_cards=1))
    state = state.with_car(replace(state.car("red"), engine=3))  # 4 Heat out of the engine
    state = ok(state, Reveal("red", (Upgrade("sponsor-mercury"),)))
    too_many = validate(state, SuperCool("red", 3))
    assert too_many is not None and "allow 2" in too_many.text()
    cooled = ok(state, Cooldown("red", 3))
    assert validate(cooled, SuperCool("red", 2)) is not None  # only 1 Heat left outside
    cooled = ok(cooled, SuperCool("red", 1))
    assert cooled.car("red").engine == 7
    late = validate(cooled, Cooldown("red", 1))
    assert late is not None and "that step has passed" in late.text()
    none = validate(race(CarEntry("red")), SuperCool("red", 1))
    assert none is not None


# --- 5. paying the upgrade Heat -----------------------------------------------------------------


def test_the_payment_is_made_by_the_next_step_or_refused() -> None:
    state = race(CarEntry("red", upgrades=("wings-6", "body-3", "rpm-1")))
    state = ok(state, Reveal("red", (Upgrade("wings-6"),)))
    assert state.car("red").engine == 6
    nothing = validate(ok(race(CarEntry("red")), Reveal("red", (1,))), PayHeat("red"))
    assert nothing is not None and "no upgrade card" in nothing.text()
    wrong = validate(state, PayHeat("red", (2,)))
    assert wrong is not None and "all but 0" in wrong.text()
    ended = ok(state, EndTurn("red"))
    assert ended.car("red").engine == 4
    short = state.with_car(replace(state.car("red"), engine=1))
    refused = validate(short, EndTurn("red"))
    assert refused is not None and "cannot pay the Heat of 1" in refused.text()


# --- 6. the sector's slipstream bonus is optional ---------------------------------------------


def test_declining_needs_a_bonus_to_decline() -> None:
    state = race(CarEntry("blue"), CarEntry("red"))
    state = ok(ok(state, Reveal("blue", (3,))), EndTurn("blue"))
    state = ok(state, Reveal("red", (3,)))
    assert sector_slipstream_bonus(state, state.car("red")) == 0
    refused = validate(state, Slipstream("red", 0, False))
    assert refused is not None and "no sector slipstream bonus" in refused.text()


def test_sun_sector_bonus_is_optional() -> None:
    modules = RaceModules(weather=Weather.SUN, road={20: Road.WEATHER})
    state = race(CarEntry("blue"), CarEntry("red"), modules=modules)
    state = ok(ok(state, Reveal("blue", (3,))), EndTurn("blue"))
    state = ok(state, Reveal("red", (3,)))
    assert ok(state, Slipstream("red")).car("red").distance == 3 + 4
    assert ok(state, Slipstream("red", 0, False)).car("red").distance == 3 + 2


# --- 7. a chicane's own sector ------------------------------------------------------------------


def test_a_chicane_has_its_own_sector_without_a_token() -> None:
    mexico = tracks.load_track("mexico")
    first = next(c for c in mexico.corners
                 if c.chicane_with is not None and c.chicane_with > c.line_after)
    second = next(c for c in mexico.corners if c.line_after == first.chicane_with)
    state = race(CarEntry("red"), track=mexico,
                 modules=RaceModules(weather=Weather.CLOUD, road={first.line_after: Road.WEATHER}))
    inside = first.line_after + 1
    assert sector_corner(state, inside) is None
    assert sector_corner(state, second.line_after + 1) == second
    assert state.track.space_of(inside) <= second.line_after


# --- 8. Draft ---------------------------------------------------------------------------------


def draft_race(blue_at: int, red_at: int, laps: int | None = None) -> RaceState:
    setup = RaceSetup(track=TRACK, laps=laps,
                      cars=(CarEntry("blue"), CarEntry("red", sponsor_cards=1)))
    state = start_race(setup).state
    state = ok(ok(state, ChooseGear("blue", 1)), ChooseGear("red", 1))
    state = ok(ok(state, Reveal("blue", (1,))), EndTurn("blue"))
    state = at(state, "blue", blue_at, True)
    state = at(state, "red", red_at - 5, True)
    return ok(state, Reveal("red", (Upgrade("sponsor-eole"),)))  # speed 5, Draft 2


def test_draft_moves_exactly_to_right_behind_the_next_car() -> None:
    one = ok(draft_race(blue_at=12, red_at=10), DraftMove("red"))
    assert one.car("red").distance == 11 and one.turn is not None and one.turn.speed == 5
    two = ok(draft_race(blue_at=13, red_at=10), DraftMove("red"))
    assert two.car("red").distance == 12
    for blue_at in (11, 14, 10):  # right in front, too far, beside: nothing to draft
        assert validate(draft_race(blue_at=blue_at, red_at=10), DraftMove("red")) is not None


def test_draft_does_not_cross_the_finish_line_on_the_final_lap() -> None:
    state = draft_race(blue_at=32, red_at=29)  # blue has crossed the line, still on the track
    refused = validate(state, DraftMove("red"))
    assert refused is not None and "finish line" in refused.text()


def test_draft_is_not_speed_for_the_corners() -> None:
    state = ok(draft_race(blue_at=12, red_at=9), DraftMove("red"))  # 9 -> 11 over line 10
    state = ok(state, EndTurn("red"))
    assert state.car("red").engine == 6 - (5 - 4)  # Speed 5 at the limit-4 corner


# --- the heat-race/2 keys round-trip ------------------------------------------------------------


def test_new_inputs_export_and_replay_to_the_same_state() -> None:
    setup = RaceSetup(
        track=TRACK, cars=(CarEntry("blue"), CarEntry("red", sponsor_cards=2,
                                                      upgrades=("wings-6", "body-3", "rpm-1"))),
        modules=RaceModules(road={20: Road.SLIPSTREAM_PLUS}),
    )
    state = start_race(setup).state
    actions: list[Action] = [
        ChooseGear("blue", 2), ChooseGear("red", 2),
        Reveal("blue", (3, 4)), EndTurn("blue"),
        Reveal("red", (Upgrade("sponsor-eole"), Upgrade("sponsor-mercury"))),
        DraftMove("red"),
        Slipstream("red", 0, False), EndTurn("red"),
    ]
    for action in actions:
        state = ok(state, action)
    assert state.car("red").distance == 5 + 1 + 2
    doc = racefile.export(setup, actions, TRACK_DOC)
    red = doc["rounds"][0]["red"]
    assert red["draft"] is True and red["slipstream_sector"] is False
    replayed = list(racefile.replay(racefile.parse(doc)))
    assert racefile.state_document(replayed[-1]) == racefile.state_document(state)


def test_a_late_unpaid_card_and_super_cool_export() -> None:
    """1 Heat in all: two gears up (1 Heat), Super cool it back, then Wings 6 (Heat 2) cannot
    be paid and resolves as a flipped 3."""
    one_heat_doc = {**TRACK_DOC, "id": "test-30-1", "heat": 1}
    one_heat = tracks.track_from_dict(one_heat_doc)
    setup = RaceSetup(track=one_heat, cars=(
        CarEntry("red", sponsor_cards=1, upgrades=("wings-6", "body-3", "rpm-1")),))
    state = start_race(setup).state
    actions: list[Action] = [
        ChooseGear("red", 3),
        Reveal("red", (Upgrade("wings-6"), Upgrade("sponsor-mercury"), 1)),
        SuperCool("red", 1), PayHeat("red", (3,)), EndTurn("red"),
    ]
    for action in actions:
        state = ok(state, action)
    red = state.car("red")
    assert (red.distance, red.engine) == (3 + 0 + 1, 1)
    doc = racefile.export(setup, actions, one_heat_doc)
    assert doc["rounds"][0]["red"]["super_cool"] == 1
    assert doc["rounds"][0]["red"]["unpaid_after_cooldown"] == [3]
    replayed = list(racefile.replay(racefile.parse(doc)))
    assert racefile.state_document(replayed[-1]) == racefile.state_document(state)
