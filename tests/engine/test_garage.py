"""Garage upgrade and Sponsorship cards (docs/rules.md §4.1-4.2, §3.4; heat-race/2).

The expected effect of every design is written out here from the docs/rules.md §4.2 list, separately
from the engine's own table, and each design is then played through the engine.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

import tracks
from companion import racefile
from companion.engine import (
    Accelerate,
    Boost,
    CarEntry,
    ChooseGear,
    Cooldown,
    DirectPlay,
    EndTurn,
    PayHeat,
    RaceSetup,
    RaceState,
    Rejection,
    Reveal,
    Slipstream,
    Upgrade,
    cooldown_limit,
    play,
    start_race,
    validate,
)
from companion.engine.checks import super_cool_limit
from companion.engine.garage import DESIGNS

# design -> (speed or choices, "+", heat, cooldown, super cool, slipstream, limit, accelerate,
# draft), transcribed from docs/rules.md §4.2 (Basic, Advanced), §3.4 (Sponsorship cards) and, for
# Heavy Rain's Air Intake and Tunnel Vision's Eole Wings, BGA's card data (types 49-54, 86).
EXPECTED: dict[str, tuple[tuple[int, ...], int, int, int, int, int, int, int, int]] = {
    "4wd-4": ((4,), 1, 0, 0, 0, 0, 0, 0, 0),
    "4wd-0-plus3": ((0,), 3, 0, 0, 0, 0, 0, 0, 0),
    "4wd-0-cool3": ((0,), 1, 0, 3, 0, 0, 0, 0, 0),
    "body-3": ((3,), 0, 0, 0, 0, 0, 0, 0, 0),
    "body-5": ((5,), 0, 0, 0, 0, 0, 0, 0, 0),
    "body-1": ((1,), 0, 0, 0, 0, 0, 0, 0, 0),
    "brakes-1234": ((1, 2, 3, 4), 0, 1, 0, 0, 0, 0, 0, 0),
    "brakes-13": ((1, 3), 0, 0, 0, 0, 0, 0, 0, 0),
    "brakes-24": ((2, 4), 0, 0, 0, 0, 0, 0, 0, 0),
    "brakes-15": ((1, 5), 0, 0, 0, 0, 0, 0, 0, 0),
    "cooling-6": ((6,), 0, 1, 1, 0, 0, 0, 0, 0),
    "cooling-1": ((1,), 0, 0, 2, 0, 0, 0, 0, 0),
    "cooling-3": ((3,), 0, 0, 1, 0, 0, 0, 0, 0),
    "rpm-1": ((1,), 0, 0, 0, 0, 2, 0, 0, 0),
    "rpm-2": ((2,), 0, 0, 0, 0, 2, 0, 0, 0),
    "rpm-3": ((3,), 0, 0, 0, 0, 2, 0, 0, 0),
    "body-6": ((6,), 0, 1, 0, 0, 0, 0, 0, 0),
    "body-2-cool": ((2,), 0, 0, 1, 0, 0, 0, 0, 0),
    "body-2-slip": ((2,), 0, 0, 0, 0, 1, 0, 0, 0),
    "cooling-4": ((4,), 0, 0, 1, 0, 0, 0, 0, 0),
    "fuel-2": ((2,), 0, 0, 0, 0, 0, 0, 0, 0),
    "fuel-0": ((0,), 1, 0, 1, 0, 0, 0, 0, 0),
    "gas-1": ((1,), 0, 0, 0, 0, 0, 0, 0, 0),
    "gas-2": ((2,), 0, 0, 0, 0, 0, 0, 0, 0),
    "gas-3": ((3,), 0, 0, 0, 0, 0, 0, 0, 0),
    "gas-4": ((4,), 0, 1, 1, 0, 0, 0, 0, 0),
    "gas-1-accelerate": ((1,), 0, 0, 0, 0, 0, 0, 1, 0),
    "rpm-0": ((0,), 1, 0, 0, 0, 3, 0, 0, 0),
    "rpm-1-heat": ((1,), 0, 1, 0, 0, 3, 0, 0, 0),
    "rpm-12": ((1, 2), 0, 0, 0, 0, 1, 0, 0, 0),
    "suspension-2-reduce": ((2,), 0, 0, 0, 0, 0, 0, 0, 0),
    "suspension-2-cool": ((2,), 0, 0, 1, 0, 0, 0, 0, 0),
    "suspension-4": ((4,), 0, 0, 0, 0, 0, 0, 0, 0),
    "suspension-1": ((1,), 0, 0, 0, 0, 1, 0, 0, 0),
    "tires-2": ((2,), 0, 0, 3, 0, 0, -1, 0, 0),
    "tires-1": ((1,), 0, 0, 0, 0, 0, 1, 0, 0),
    "tires-2-scrap": ((2,), 0, 0, 0, 0, 0, 1, 0, 0),
    "tires-3": ((3,), 0, 0, 2, 0, 0, -1, 0, 0),
    "tires-0": ((0,), 1, 0, 1, 0, 1, 1, 0, 0),
    "tires-0-plus2": ((0,), 2, 0, 0, 0, 0, 2, 0, 0),
    "turbo-7": ((7,), 0, 2, 3, 0, 0, 0, 0, 0),
    "turbo-8": ((8,), 0, 1, 0, 0, 0, 0, 0, 0),
    "wings-4": ((4,), 0, 1, 0, 0, 0, 2, 0, 0),
    "wings-3": ((3,), 0, 1, 0, 0, 0, 2, 0, 0),
    "wings-6": ((6,), 0, 2, 0, 0, 0, 3, 0, 0),
    "4wd-0-accelerate": ((0,), 1, 0, 0, 0, 0, 0, 1, 0),
    "sponsor-dramdo": ((1, 2, 3, 4), 0, 0, 0, 0, 0, 0, 0, 0),
    "sponsor-fredo": ((4,), 0, 0, 2, 0, 0, 0, 0, 0),
    "sponsor-aperault": ((1,), 0, 0, 0, 0, 2, 0, 0, 0),
    "sponsor-lord": ((6,), 0, 0, 0, 0, 0, 0, 0, 0),
    "sponsor-deangeli": ((3,), 0, 0, 0, 0, 0, 1, 0, 0),
    "sponsor-mercury": ((0,), 0, 0, 0, 2, 0, 0, 0, 0),
    "air-intake-1-salvage": ((1,), 0, 0, 0, 1, 0, -1, 0, 0),
    "air-intake-0-slip": ((0,), 0, 0, 0, 1, 1, 0, 0, 0),
    "air-intake-1-cool": ((1,), 0, 0, 1, 1, 0, 0, 0, 0),
    "air-intake-3": ((3,), 0, 0, 0, 1, 0, 0, 0, 0),
    "air-intake-4": ((4,), 0, 0, 0, 1, 0, 0, 0, 0),
    "air-intake-0-plus": ((0,), 1, 0, 0, 1, 0, -1, 0, 0),
    "sponsor-eole": ((5,), 0, 0, 0, 0, 0, 0, 0, 2),
}

# A long straight: one corner after space 50 (limit 4), so first-round moves cross nothing.
STRAIGHT = tracks.track_from_dict({
    "id": "garage-60", "spaces": 60, "laps": 1, "heat": 6, "stress": 3,
    "corners": [{"line_after": 50, "limit": 4, "legend_line_after": 44}],
})


def race_with(design: str, *, others: tuple[str, ...] = ()) -> RaceState:
    sponsor = DESIGNS[design].sponsor
    entry = CarEntry("red", upgrades=() if sponsor else (design, *others),
                     sponsor_cards=1 if sponsor else 0)
    state = start_race(RaceSetup(track=STRAIGHT, cars=(entry, CarEntry("blue")))).state
    for action in (ChooseGear("red", 1), ChooseGear("blue", 1)):
        result = play(state, action)
        assert not isinstance(result, Rejection), result.text()
        state = result.state
    return state


def ok(state: RaceState, action: object) -> RaceState:
    result = play(state, action)  # type: ignore[arg-type]
    assert not isinstance(result, Rejection), result.text()
    return result.state


def test_every_design_is_listed() -> None:
    playable = {d for d, design in DESIGNS.items() if not design.heat_card}
    assert playable == set(EXPECTED)


@pytest.mark.parametrize("design", sorted(EXPECTED))
def test_design_effect(design: str) -> None:
    """Play the card alone in 1st gear: the car moves its speed (the chosen value, plus 1 for
    each "+" flipped as a 1); its Cooldown and Super cool are usable at once, its Heat is paid at
    React (docs/rules.md §4.4), and then the turn carries its slipstream bonus, speed-limit
    adjustment, Accelerate and Draft."""
    speeds, plus, heat, cooldown, super_cool, slip, limit, accelerate, draft = EXPECTED[design]
    state = race_with(design)
    car = state.car("red")
    chosen = speeds[-1]
    card = Upgrade(design, chosen if len(speeds) > 1 else None, (1,) * plus)
    after = ok(state, Reveal("red", (card,)))
    moved = after.car("red")
    assert moved.distance - car.distance == chosen + plus
    assert moved.engine == car.engine  # nothing paid yet
    turn = after.turn
    assert turn is not None
    assert turn.card_cooldown == cooldown and turn.card_super_cool == super_cool
    assert turn.plus_resolved == plus
    # Cooldown available now: 3 in 1st gear (red leads, no Adrenaline) + the card's.
    assert cooldown_limit(after, moved) == min(3 + cooldown, moved.heat - moved.engine)
    assert super_cool_limit(after, moved) == min(super_cool, moved.heat - moved.engine)
    if heat:
        assert [c.design for c in turn.pending] == [design]
        after = ok(after, PayHeat("red"))
    else:
        assert validate(after, PayHeat("red")) is not None  # nothing to pay
    paid = after.car("red")
    assert car.engine - paid.engine == heat
    turn = after.turn
    assert turn is not None
    assert turn.slipstream_bonuses == ((slip,) if slip else ())
    assert turn.limit_adjust == limit
    assert turn.accelerate == accelerate
    assert turn.draft == draft
    if DESIGNS[design].sponsor:
        assert paid.sponsor_cards == 0  # one-time use (docs/rules.md §3.4)


def test_garage_deck_has_no_starting_upgrades() -> None:
    """docs/rules.md §4.1: with the Garage the Starting Upgrades (0, 5, personal Heat) are not used:
    the car owns only the track's Heat, and cannot reveal a 5."""
    state = race_with("body-3")
    assert state.car("red").heat == 6 and state.car("blue").heat == 7
    rejection = validate(state, Reveal("red", (5,)))
    assert rejection is not None and "not a card of this deck" in rejection.text()


def test_garage_heat_card_adds_heat_and_cannot_be_played() -> None:
    state = race_with("body-3", others=("heat",))
    assert state.car("red").heat == 7
    rejection = validate(state, Reveal("red", (Upgrade("heat"),)))
    assert rejection is not None and "not a card that can be played" in rejection.text()


def test_card_not_owned_is_rejected() -> None:
    state = race_with("body-3")
    rejection = validate(state, Reveal("red", (Upgrade("wings-6"),)))
    assert rejection is not None and "not among red's upgrades" in rejection.text()


def test_brakes_value_must_be_one_of_its_choices() -> None:
    state = race_with("brakes-13")
    rejection = validate(state, Reveal("red", (Upgrade("brakes-13", 2),)))
    assert rejection is not None and "one of its values" in rejection.text()
    assert validate(state, Reveal("red", (Upgrade("brakes-13"),))) is not None


def test_plus_symbols_need_their_flips() -> None:
    state = race_with("4wd-0-plus3")
    rejection = validate(state, Reveal("red", (Upgrade("4wd-0-plus3", None, (2, 2)),)))
    assert rejection is not None and '3 "+" symbol' in rejection.text()


def test_unpayable_card_resolves_as_stress() -> None:
    """docs/rules.md §4.4 (official clarification): a card whose Heat cannot be paid resolves as a
    Stress card: the Basic card flipped for it counts instead, and none of its symbols. The
    driver may say so at the reveal, when the engine cannot pay it then."""
    state = race_with("wings-6")
    state = state.with_car(replace(state.car("red"), engine=1))
    card = Upgrade("wings-6")
    wrong = validate(state, Reveal("red", (card,), unpaid=(3, 3)))
    assert wrong is not None and "cannot pay for 1 upgrade card now" in wrong.text()
    after = ok(state, Reveal("red", (card,), unpaid=(3,)))
    red = after.car("red")
    assert red.distance == 3 and red.engine == 1
    assert after.turn is not None and after.turn.limit_adjust == 0 and not after.turn.pending


def test_heat_is_paid_after_cooldown() -> None:
    """docs/rules.md §4.4: the check is at React, so a car may cool down first (the card's own
    Cooldown included) and pay with that Heat. Turbocharger 7 (Heat 2, Cooldown 3) with 1 Heat
    in the engine: cool down 3, then pay 2."""
    state = race_with("turbo-7")
    state = state.with_car(replace(state.car("red"), engine=1))
    state = ok(state, Reveal("red", (Upgrade("turbo-7"),)))
    assert state.car("red").distance == 7 and state.car("red").engine == 1
    missing = validate(state, EndTurn("red"))
    assert missing is not None and "cannot pay the Heat of 1 upgrade card" in missing.text()
    state = ok(state, Cooldown("red", 3))
    state = ok(state, EndTurn("red"))
    assert state.car("red").engine == 1 + 3 - 2


def test_a_card_left_unpaid_after_cooldown_moves_the_car_again() -> None:
    """docs/rules.md §4.4: what the engine still cannot pay after Cooldown resolves as a Stress
    card, and the car moves again by the new total from where its turn began."""
    state = race_with("wings-6")
    state = state.with_car(replace(state.car("red"), engine=1))
    state = ok(state, Reveal("red", (Upgrade("wings-6"),)))
    assert validate(state, PayHeat("red")) is not None  # one flip needed
    state = ok(state, PayHeat("red", (2,)))
    red = state.car("red")
    assert red.distance == 2 and red.engine == 1
    assert state.turn is not None and state.turn.speed == 2 and state.turn.limit_adjust == 0


def test_unpaid_may_be_declared_although_a_cooldown_could_pay() -> None:
    """docs/rules.md §4.4, BGA's "I can't pay": when the engine cannot pay a card at that moment the
    driver may declare it unpaid, even if a Cooldown could have paid it."""
    state = race_with("cooling-6")
    state = state.with_car(replace(state.car("red"), engine=0))
    declared = ok(state, Reveal("red", (Upgrade("cooling-6"),), unpaid=(4,)))
    assert declared.car("red").distance == 4
    assert declared.turn is not None and declared.turn.card_cooldown == 0  # the card's is lost
    paid = ok(ok(state, Reveal("red", (Upgrade("cooling-6"),))), Cooldown("red", 1))
    paid = ok(paid, PayHeat("red"))
    assert paid.car("red").distance == 6 and paid.car("red").engine == 0


def test_wings_raise_the_limit_of_every_corner_this_turn() -> None:
    """Wings 6 (limit +3): Speed 7 through a limit-4 corner owes nothing."""
    state = race_with("wings-6")
    state = state.with_car(replace(state.car("red"), distance=45))
    state = ok(state, Reveal("red", (Upgrade("wings-6"),)))  # 6 -> space 51, paid 2 Heat
    state = ok(state, Boost("red", 1))  # Speed 7, 1 Heat
    state = ok(state, EndTurn("red"))
    assert state.car("red").engine == 6 - 2 - 1


def test_rpm_slipstream_bonus_is_optional() -> None:
    state = race_with("rpm-1")
    state = ok(state, Reveal("red", (Upgrade("rpm-1"),)))  # red to space 1, blue on grid
    blue_ahead = state.with_car(replace(state.car("blue"), distance=2))
    assert validate(blue_ahead, Slipstream("red", 1)) is not None  # not a sum of the bonuses
    full = ok(blue_ahead, Slipstream("red", 2))
    assert full.car("red").distance == 1 + 2 + 2
    plain = ok(blue_ahead, Slipstream("red"))
    assert plain.car("red").distance == 1 + 2


def test_accelerate_counts_each_plus_resolved() -> None:
    """Accelerate: +1 Speed per "+" resolved this turn (the card's own "+" and a Boost)."""
    state = race_with("4wd-0-accelerate")
    state = ok(state, Reveal("red", (Upgrade("4wd-0-accelerate", None, (2,)),)))
    state = ok(state, Boost("red", 3))
    state = ok(state, Accelerate("red"))
    assert state.car("red").distance == 2 + 3 + 2
    assert state.turn is not None and state.turn.speed == 7


def test_accelerate_counts_stress_cards() -> None:
    """docs/rules.md §1.4: a Stress card is a "+" (BGA: the Stress card carries the "+" symbol, and
    Accelerate counts every "+" from upgrades, Stress and Boost). 2nd gear: a Stress card
    (flipped 3) and 4WD 0 with Accelerate (its "+" flipped 1): 2 "+", so +2."""
    state = race_with("4wd-0-accelerate")
    state = state.with_car(replace(state.car("red"), gear=2))
    state = ok(state, Reveal("red", ("stress", Upgrade("4wd-0-accelerate", None, (1,))), (3,)))
    assert state.turn is not None and state.turn.plus_resolved == 2
    state = ok(state, Accelerate("red"))
    assert state.car("red").distance == 3 + 1 + 2


def test_gas_pedal_accelerate_after_a_stress_card() -> None:
    """Gas Pedal 1 (Accelerate, direct play) after a revealed Stress card: the Stress card's "+"
    is there to accelerate with."""
    state = race_with("gas-1-accelerate")
    state = ok(state, Reveal("red", ("stress",), (2,)))
    state = ok(state, DirectPlay("red", Upgrade("gas-1-accelerate")))
    state = ok(state, Accelerate("red"))
    assert state.car("red").distance == 2 + 1 + 1


def test_accelerate_needs_the_symbol() -> None:
    state = race_with("body-3")
    state = ok(state, Reveal("red", (Upgrade("body-3"),)))
    rejection = validate(state, Accelerate("red"))
    assert rejection is not None and "Nothing to accelerate" in rejection.text()


def test_sponsorship_card_needs_one_in_hand() -> None:
    state = race_with("body-3")
    rejection = validate(state, Reveal("red", (Upgrade("sponsor-lord"),)))
    assert rejection is not None and "holds no Sponsorship card" in rejection.text()


def test_upgrades_replay_from_a_heat_race_2_file() -> None:
    doc = {
        "format": "heat-race/2",
        "track": {"id": "garage-60", "spaces": 60, "laps": 1, "heat": 6, "stress": 3,
                  "corners": [{"line_after": 50, "limit": 4, "legend_line_after": 44}]},
        "cars": [{"id": "red", "upgrades": ["brakes-13", "rpm-2"], "sponsor_cards": 1},
                 {"id": "blue"}],
        "rounds": [
            {"red": {"gear": 2, "cards": [{"upgrade": "brakes-13", "value": 3},
                                          {"upgrade": "sponsor-lord"}]},
             "blue": {"cards": [1]}},
        ],
    }
    final = list(racefile.replay(racefile.parse(doc)))[-1]
    assert final.car("red").distance == 9 and final.car("red").sponsor_cards == 0
    v1 = dict(doc, format="heat-race/1", cars=[{"id": "red"}, {"id": "blue"}])
    with pytest.raises(racefile.RaceFileError, match="need heat-race/2"):
        list(racefile.replay(racefile.parse(v1)))  # checked at its round


def test_gas_pedal_direct_play_during_react() -> None:
    """docs/rules.md §4.3 Direct play: a Gas Pedal card from hand during React, as if played: its
    speed moves the car and counts for corners, its Cooldown usable, its Heat paid after
    Cooldown."""
    state = race_with("gas-4", others=("gas-2",))
    state = ok(state, Reveal("red", (1,)))
    state = ok(state, DirectPlay("red", Upgrade("gas-4")))
    red = state.car("red")
    assert red.distance == 1 + 4 and red.engine == 6
    assert state.turn is not None and state.turn.speed == 5 and state.turn.card_cooldown == 1
    again = validate(state, DirectPlay("red", Upgrade("gas-4")))
    assert again is not None and "only 1 gas-4" in again.text()
    assert validate(state, DirectPlay("red", Upgrade("gas-2"))) is None
    assert ok(state, EndTurn("red")).car("red").engine == 6 - 1
    body = ok(race_with("body-3"), Reveal("red", (1,)))
    not_direct = validate(body, DirectPlay("red", Upgrade("body-3")))
    assert not_direct is not None and "Direct-play" in not_direct.text()


def test_gas_pedal_4_cools_down_before_paying_its_heat() -> None:
    """docs/rules.md §4.3, §4.4: Gas Pedal 4 played directly with an empty engine: its Cooldown 1
    comes first, then its Heat 1 is paid with it."""
    state = race_with("gas-4")
    state = state.with_car(replace(state.car("red"), engine=0))
    state = ok(state, Reveal("red", (1,)))
    state = ok(state, DirectPlay("red", Upgrade("gas-4")))
    state = ok(state, Cooldown("red", 3 + 1))
    state = ok(state, EndTurn("red"))
    assert state.car("red").engine == 4 - 1


def test_direct_play_comes_before_cooldown() -> None:
    state = race_with("gas-2")
    state = ok(state, Reveal("red", (1,)))
    state = ok(state.with_car(replace(state.car("red"), engine=5)), Cooldown("red", 1))
    late = validate(state, DirectPlay("red", Upgrade("gas-2")))
    assert late is not None and "that step has passed" in late.text()


def test_direct_play_from_a_race_file() -> None:
    doc = {
        "format": "heat-race/2",
        "track": {"id": "garage-60", "spaces": 60, "laps": 1, "heat": 6, "stress": 3,
                  "corners": [{"line_after": 50, "limit": 4, "legend_line_after": 44}]},
        "cars": [{"id": "red", "upgrades": ["gas-3"]}, {"id": "blue"}],
        "rounds": [{"red": {"cards": [2], "direct": [{"upgrade": "gas-3"}]},
                    "blue": {"cards": [1]}}],
    }
    final = list(racefile.replay(racefile.parse(doc)))[-1]
    assert final.car("red").distance == 5


@pytest.mark.parametrize("owed", [False, True])
def test_an_empty_unpaid_after_cooldown_is_the_same_as_none(owed: bool) -> None:
    """docs/race-file-v2.md: ``unpaid_after_cooldown: []`` names no unpaid card, as omitting it
    does, whether or not any upgrade card's Heat was left to pay after Cooldown."""
    played = [{"upgrade": "wings-6"}] if owed else [2]
    doc = {
        "format": "heat-race/2",
        "track": {"id": "garage-60", "spaces": 60, "laps": 1, "heat": 6, "stress": 3,
                  "corners": [{"line_after": 50, "limit": 4, "legend_line_after": 44}]},
        "cars": [{"id": "red", "upgrades": ["wings-6"]}, {"id": "blue"}],
        "rounds": [{"red": {"cards": played}, "blue": {"cards": [1]}}],
    }
    omitted = list(racefile.replay(racefile.parse(doc)))[-1]
    doc["rounds"][0]["red"]["unpaid_after_cooldown"] = []  # type: ignore[index]
    empty = list(racefile.replay(racefile.parse(doc)))[-1]
    assert empty == omitted
    assert empty.car("red").distance == (6 if owed else 2)


@pytest.mark.parametrize(("heat_cards", "accepted"), [(4, True), (5, False)])
def test_a_car_holds_at_most_the_garages_four_heat_cards(heat_cards: int, accepted: bool) -> None:
    """docs/rules-decisions.md #26: two Garage Heat cards in each of the Basic and Advanced
    decks, so a car may hold four, not five."""
    doc = {
        "format": "heat-race/2",
        "track": {"id": "garage-60", "spaces": 60, "laps": 1, "heat": 6, "stress": 3,
                  "corners": [{"line_after": 50, "limit": 4, "legend_line_after": 44}]},
        "cars": [{"id": "red", "upgrades": ["gas-3"] + ["heat"] * heat_cards}, {"id": "blue"}],
        "rounds": [{"red": {"cards": [2]}, "blue": {"cards": [1]}}],
    }
    if accepted:
        final = list(racefile.replay(racefile.parse(doc)))[-1]
        assert final.car("red").distance == 2
    else:
        with pytest.raises(racefile.RaceFileError, match="holds only 4"):
            list(racefile.replay(racefile.parse(doc)))
