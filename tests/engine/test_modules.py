"""Module effects that are not scenario files: events that change nothing the engine tracks,
and the hand size events' effect on the clogged-hand rule (docs/rules.md §3.3, §1.5)."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest

from companion import racefile
from companion.engine import ChooseGear, EndTurn, Reveal, apply, start_race, validate
from companion.engine.modules import EVENTS

RACE: dict[str, Any] = {
    "format": "heat-race/2",
    "track": {"id": "test-30", "spaces": 30, "laps": 1, "heat": 6, "stress": 3,
              "corners": [{"line_after": 10, "limit": 4, "legend_line_after": 6},
                          {"line_after": 20, "limit": 3, "legend_line_after": 16}]},
    "cars": [{"id": "blue"}, {"id": "red"}],
    "rounds": [
        {"blue": {"gear": 3, "cards": [4, 4, 2]},
         "red": {"gear": 3, "cards": [4, 3, 2], "slipstream": True}},
        {"blue": {"cards": [1, 2, 3]}, "red": {"cards": [2, 2, 2], "cooldown": 0}},
    ],
}

TABLE_ONLY = ["chicanes-for-safety", "hold-on-tight", "tunnel-vision", "smooth-start",
              "new-title-sponsor"]


def final(doc: dict[str, Any]) -> dict[str, Any]:
    state = list(racefile.replay(racefile.parse(doc)))[-1]
    out = racefile.state_document(state)
    out.pop("format")
    for car in out["cars"].values():
        car.pop("sponsors", None)
        car.pop("eliminated", None)
    return out


@pytest.mark.parametrize("event", TABLE_ONLY)
def test_table_only_events_change_nothing_the_engine_tracks(event: str) -> None:
    """These events only change which cards may be discarded (or nothing at all), which the
    table handles with the cards in hand: the race replays exactly as without an event."""
    with_event = copy.deepcopy(RACE)
    with_event["modules"] = {"event": event}
    assert final(with_event) == final(RACE)


def test_every_event_is_known_with_a_title() -> None:
    assert len(EVENTS) == 22
    assert all(event.title for event in EVENTS.values())


@pytest.mark.parametrize(("event", "hand", "outside_needed"),
                         [(None, 7, 7), ("record-crowds", 8, 8), ("safety-regulations", 6, 6)])
def test_hand_size_sets_how_much_heat_clogs_a_hand(
    event: str | None, hand: int, outside_needed: int
) -> None:
    """docs/rules.md §1.5 with §3.3: a hand of N cards is clogged in 1st gear only when N Heat cards
    are out of the engine (Record crowds: 8, New safety regulations: 6)."""
    doc = copy.deepcopy(RACE)
    doc["rounds"] = []
    if event:
        doc["modules"] = {"event": event}
    state = start_race(racefile.parse(doc).setup).state
    car = state.car("red")
    total = outside_needed
    short = state.with_car(replace(car, heat=total - 1, engine=0))
    enough = state.with_car(replace(car, heat=total, engine=0))
    assert validate(short, ChooseGear("red", 1, clogged=True)) is not None
    assert validate(enough, ChooseGear("red", 1, clogged=True)) is None
    assert hand == outside_needed


@pytest.mark.parametrize(("event", "words"), [
    ("chicanes-for-safety", "may also discard Heat"),
    ("hold-on-tight", "at most 1 card"),
    ("tunnel-vision", "may also discard Stress"),
])
def test_discard_events_remind_the_table_at_step_8(event: str, words: str) -> None:
    """docs/rules.md §3.3: these events change step 8, played with the cards in hand; the engine
    tells the table at the end of each turn."""
    doc = copy.deepcopy(RACE)
    doc["modules"] = {"event": event}
    doc["rounds"] = doc["rounds"][:1]
    setup = racefile.parse(doc).setup
    state = start_race(setup).state
    for action in (ChooseGear("blue", 3), ChooseGear("red", 3), Reveal("blue", (4, 4, 2))):
        state = apply(state, action).state
    outcomes = apply(state, EndTurn("blue")).outcomes
    assert any(o.kind == "discard" and words in o.why.text() for o in outcomes)


def test_tunnel_forbids_discarding_whatever_the_event() -> None:
    """docs/rules.md §6 (España): on a tunnel space no card may be discarded; this overrides
    events."""
    doc = copy.deepcopy(RACE)
    doc["track"] = dict(doc["track"], tunnels=[[9, 12]])
    doc["modules"] = {"event": "tunnel-vision"}
    state = start_race(racefile.parse(doc).setup).state
    for action in (ChooseGear("blue", 3), ChooseGear("red", 3), Reveal("blue", (4, 4, 2))):
        state = apply(state, action).state
    outcomes = apply(state, EndTurn("blue")).outcomes
    reminders = [o.why.text() for o in outcomes if o.kind == "discard"]
    assert reminders == ["Step 8: blue is in a tunnel and may not discard any card."]


@pytest.mark.parametrize(("road", "cards", "gear", "said"), [
    ({"5": "limit-1"}, (4, 4), 2,
     "Speed 8 through a limit-3 corner (printed 4, road token -1): pay 5 Heat."),
    ({"5": "limit+1"}, (4, 3), 2,
     "Speed 7 through a limit-5 corner (printed 4, road token +1): pay 2 Heat."),
    ({"5": "overheat"}, (4, 2), 2,
     "Speed 6 through a limit-4 corner: pay 3 Heat (2 over the limit, 1 for the Overheat "
     "token)."),
    ({"5": "overheat"}, (4, 4, 4), 3,
     "Speed 12 through a limit-4 corner needs 9 Heat (8 over the limit, 1 for the Overheat "
     "token) but the engine has 5: blue pays 5, spins out to space 5, takes 2 Stress and "
     "drops to 1st gear."),
    ({}, (4, 4), 2, "Speed 8 through a limit-4 corner: pay 4 Heat."),
])
def test_a_corner_check_says_why_its_limit_and_heat_are_not_the_plain_ones(
        road: dict[str, str], cards: tuple[int, ...], gear: int, said: str) -> None:
    """docs/rules.md §1.9, §5.2: a road token changes the corner's limit (+1 or -1) or costs 1
    more Heat (Overheat) when over it. The sentence says so: "limit-3" by a printed 4, or "pay
    3 Heat" at Speed 6 by a limit 4, read as a mistake (found by a table test)."""
    doc = copy.deepcopy(RACE)
    doc["track"]["corners"][0] = {"line_after": 5, "limit": 4, "legend_line_after": 2}
    doc["modules"] = {"road": road} if road else {}
    state = start_race(racefile.parse(doc).setup).state
    for action in (ChooseGear("blue", gear), ChooseGear("red", gear), Reveal("blue", cards)):
        state = apply(state, action).state
    outcomes = apply(state, EndTurn("blue")).outcomes
    assert [o.why.text() for o in outcomes if o.kind in ("corner", "spinout")] == [said]


def test_a_corner_check_says_the_cards_changed_its_limit() -> None:
    """docs/rules.md §1.9: the cards' "Adjust speed limit" symbols change the limit of every
    corner crossed this turn; the sentence names them beside the printed limit."""
    from companion.engine.turn import _check_corners

    doc = copy.deepcopy(RACE)
    doc["track"]["corners"][0] = {"line_after": 5, "limit": 4, "legend_line_after": 2}
    doc["modules"] = {"road": {"5": "limit-1"}}
    state = start_race(racefile.parse(doc).setup).state
    for action in (ChooseGear("blue", 2), ChooseGear("red", 2), Reveal("blue", (4, 4))):
        state = apply(state, action).state
    assert state.turn is not None
    turn = replace(state.turn, limit_adjust=2)
    out: list[Any] = []
    _check_corners(state, turn, out)
    assert [o.why.text() for o in out] == [
        "Speed 8 through a limit-5 corner (printed 4, road token -1, cards +2): pay 3 Heat."]
