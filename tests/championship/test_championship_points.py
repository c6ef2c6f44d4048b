"""Points, event bonuses and standings (docs/rules.md §3.2, §3.3). Expected values are literals."""

from __future__ import annotations

import itertools
from types import MappingProxyType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.championship import (
    PLACE_POINTS,
    CarEntry,
    RaceResult,
    Season,
    SeasonDef,
    SeasonError,
    SeasonRace,
    Status,
    event_bonus,
    place_points,
    result_from_state,
    standings,
)
from companion.engine import RaceSetup, start_race
from companion.engine.modules import EVENTS
from tracks import load_track

RED, BLUE = CarEntry("red", "Ana"), CarEntry("blue", "Ben")
BLACK, GREY = CarEntry("black", legend=True), CarEntry("grey", legend=True)
CARS = (RED, BLUE, BLACK, GREY)


def season_of(*events: str | None) -> SeasonDef:
    return SeasonDef("test", "Test", tuple(SeasonRace("usa", e) for e in events))


def totals(season: Season) -> list[tuple[int, str, int]]:
    return [(line.rank, line.car.id, line.points) for line in season.standings()]


def test_place_points_table() -> None:
    assert PLACE_POINTS == (9, 6, 4, 3, 2, 1)
    assert [place_points(p) for p in range(1, 9)] == [9, 6, 4, 3, 2, 1, 0, 0]
    assert place_points(None) == 0


def test_only_two_events_give_points() -> None:
    # docs/rules.md §3.3: Drivers' strike (winner +2) and Corruption (top 3 +1 each).
    with_bonus = {e.id for e in EVENTS.values() if e.winner_bonus or e.top_three_bonus}
    assert with_bonus == {"drivers-strike", "corruption"}
    assert [event_bonus("drivers-strike", p) for p in (1, 2, 3, 4, None)] == [2, 0, 0, 0, 0]
    assert [event_bonus("corruption", p) for p in (1, 2, 3, 4, None)] == [1, 1, 1, 0, 0]
    assert event_bonus(None, 1) == 0
    assert event_bonus("new-grandstand", 1) == 0


def test_points_with_bonuses_and_legends() -> None:
    season = Season(season_of("drivers-strike", "corruption"), CARS)
    # Race 1, Drivers' strike: black 1st 9+2=11, red 2nd 6, grey 3rd 4, blue 4th 3.
    season = season.with_result(RaceResult(order=("black", "red", "grey", "blue")))
    # Race 2, Corruption: blue 1st 9+1=10, grey 2nd 6+1=7, red 3rd 4+1=5, black 4th 3.
    season = season.with_result(RaceResult(order=("blue", "grey", "red", "black")))
    # Totals: black 11+3=14, blue 3+10=13, red 6+5=11, grey 4+7=11 (tie: red 3rd in the last
    # race, grey 2nd -> grey ahead).
    assert totals(season) == [(1, "black", 14), (2, "blue", 13), (3, "grey", 11),
                              (4, "red", 11)]
    black = season.standings()[0]
    assert [(p.place, p.points, p.bonus, p.total) for p in black.races] == [
        (1, 9, 2, 11), (4, 3, 0, 3)]
    assert black.car.legend  # Legends score like everyone (docs/rules.md §3.2)


def test_eliminated_and_unfinished_score_nothing() -> None:
    season = Season(season_of("corruption"), CARS).with_result(RaceResult(
        order=("red", "black"), eliminated=("blue",), unfinished=("grey",),
        sponsors=MappingProxyType({"blue": 2})))
    # red 9+1=10, black 6+1=7, blue eliminated 0, grey unfinished 0 (blue ahead of grey: the
    # season's car order, both without a place in the last race).
    assert totals(season) == [(1, "red", 10), (2, "black", 7), (3, "blue", 0), (3, "grey", 0)]
    blue = season.standings()[2]
    assert blue.races[0].status is Status.ELIMINATED and blue.races[0].sponsors == 2
    assert season.standings()[3].races[0].status is Status.UNFINISHED


def test_seventh_place_and_later_score_nothing() -> None:
    cars = tuple(CarEntry(f"h{i}") for i in range(1, 9))
    season = Season(season_of(None), cars).with_result(
        RaceResult(order=tuple(c.id for c in cars)))
    assert [line.points for line in season.standings()] == [9, 6, 4, 3, 2, 1, 0, 0]
    assert [line.rank for line in season.standings()] == [1, 2, 3, 4, 5, 6, 7, 8]


def test_tie_break_is_the_last_race_not_the_best_result() -> None:
    season = Season(season_of(None, None), (RED, BLUE))
    # red: 1st (9) then 2nd (6) = 15; blue: 2nd (6) then 1st (9) = 15 -> blue won the last race.
    season = season.with_result(RaceResult(order=("red", "blue")))
    season = season.with_result(RaceResult(order=("blue", "red")))
    assert totals(season) == [(1, "blue", 15), (2, "red", 15)]
    assert [line.last_place for line in season.standings()] == [1, 2]


def test_before_any_race_everyone_shares_first() -> None:
    assert totals(Season(season_of(None), CARS)) == [
        (1, "red", 0), (1, "blue", 0), (1, "black", 0), (1, "grey", 0)]


def test_result_must_name_the_season_cars() -> None:
    race = SeasonRace("usa")
    with pytest.raises(SeasonError, match="race 1 result: car grey is missing"):
        standings(CARS, (race,), (RaceResult(order=("red", "blue", "black")),))
    with pytest.raises(SeasonError, match="car pink is not in the season"):
        standings(CARS, (race,), (RaceResult(order=("red", "blue", "black", "grey", "pink")),))
    with pytest.raises(SeasonError, match="2 results for a season of 1 races"):
        standings(CARS, (race,), (RaceResult(order=()),) * 2)
    with pytest.raises(SeasonError, match="car red is listed twice"):
        RaceResult(order=("red",), eliminated=("red",))
    with pytest.raises(SeasonError, match="sponsors for pink"):
        RaceResult(order=("red",), sponsors=MappingProxyType({"pink": 1}))


def test_with_result_checks() -> None:
    season = Season(season_of(None), (RED,))
    not_over = start_race(RaceSetup(track=load_track("usa"), cars=(RED,))).state
    with pytest.raises(SeasonError, match="race 1 is not over yet"):
        season.with_result(not_over)
    done = season.with_result(RaceResult(order=("red",)))
    assert done.over and done.next_race is None
    with pytest.raises(SeasonError, match="the season is over"):
        done.with_result(RaceResult(order=("red",)))


def test_result_from_an_unfinished_state() -> None:
    state = start_race(RaceSetup(track=load_track("usa"), cars=(RED, BLACK))).state
    result = result_from_state(state)
    assert result.order == () and result.unfinished == ("red", "black")


@st.composite
def played_seasons(draw: st.DrawFn) -> Season:
    colours = draw(st.permutations(("black", "blue", "green", "red", "grey", "yellow")))
    count = draw(st.integers(1, 6))
    cars = tuple(CarEntry(c, legend=draw(st.booleans())) for c in colours[:count])
    events = draw(st.lists(st.sampled_from([None, "drivers-strike", "corruption",
                                            "new-grandstand"]), min_size=1, max_size=4))
    season = Season(season_of(*events), cars)
    for _ in range(draw(st.integers(0, len(events)))):
        ids = list(draw(st.permutations([c.id for c in cars])))
        placed = draw(st.integers(0, len(ids)))
        out = ids[placed:]
        cut = draw(st.integers(0, len(out)))
        season = season.with_result(RaceResult(tuple(ids[:placed]), tuple(out[:cut]),
                                               tuple(out[cut:])))
    return season


@given(played_seasons())
def test_standings_properties(season: Season) -> None:
    lines = season.standings()
    assert sorted(line.car.id for line in lines) == sorted(c.id for c in season.cars)
    handed_out = 0
    for race, result in zip(season.definition.races, season.results, strict=False):
        for place in range(1, len(result.order) + 1):
            handed_out += place_points(place) + event_bonus(race.event, place)
    assert sum(line.points for line in lines) == handed_out
    assert [line.points for line in lines] == sorted((line.points for line in lines),
                                                     reverse=True)
    assert lines[0].rank == 1
    for before, after in itertools.pairwise(lines):
        level = (before.points, before.last_place) == (after.points, after.last_place)
        assert after.rank == (before.rank if level else lines.index(after) + 1)
