"""Grid and Garage draft order between races, and the next race's setup (docs/rules.md §3.1, §3.3,
§4.1)."""

from __future__ import annotations

import pytest

import tracks
from companion.championship import (
    SEASONS,
    CarEntry,
    RaceResult,
    Season,
    SeasonDef,
    SeasonError,
    SeasonRace,
)
from companion.engine import start_race
from companion.engine.modules import Weather
from companion.engine.track import Track

RED, BLUE = CarEntry("red", "Ana"), CarEntry("blue", "Ben", handicap=1)
BLACK, GREY = CarEntry("black", legend=True), CarEntry("grey", legend=True)
CARS = (RED, BLUE, BLACK, GREY)


def test_first_grid_is_a_seeded_shuffle() -> None:
    season = Season(SEASONS["1961"], CARS)
    grids = {season.next_grid(seed) for seed in range(20)}
    assert all(sorted(g) == ["black", "blue", "grey", "red"] for g in grids)
    assert len(grids) > 5
    assert season.next_grid(4) == season.next_grid(4)


def test_later_grids_follow_the_standings_with_last_race_tie_break() -> None:
    season = Season(SEASONS["1961"], CARS)
    # Race 1: grey 9, red 6, black 4, blue 3.
    season = season.with_result(RaceResult(order=("grey", "red", "black", "blue")))
    assert season.next_grid() == ("grey", "red", "black", "blue")
    # Race 2: blue 9 (3+9=12), black 6 (4+6=10), red 4 (6+4=10), grey 3 (9+3=12).
    # Ties: blue won race 2, grey was 4th -> blue first; black 2nd in race 2, red 3rd.
    season = season.with_result(RaceResult(order=("blue", "black", "red", "grey")))
    assert season.next_grid() == ("blue", "grey", "black", "red")
    assert season.next_grid(99) == season.next_grid(0)  # the seed only matters for race 1


def test_draft_is_reverse_standings_humans_only_first_picker_swaps() -> None:
    season = Season(SEASONS["1961"], CARS)
    with pytest.raises(SeasonError, match="give the grid"):
        season.draft_order()
    first = season.draft_order(("blue", "black", "red", "grey"))
    assert first.picks == ("red", "blue")  # last human on the grid first (docs/rules.md §4.1)
    assert first.swap == "red" and first.market == 2 + 3
    season = season.with_result(RaceResult(order=("red", "black", "grey", "blue")))
    draft = season.draft_order()
    assert draft.picks == ("blue", "red")  # blue last in the standings picks first
    assert draft.swap == "blue"
    with pytest.raises(SeasonError, match="every car of the season once"):
        Season(SEASONS["1961"], CARS).draft_order(("red", "blue"))


def test_draft_without_humans() -> None:
    season = Season(SEASONS["1961"], (BLACK, GREY)).with_result(
        RaceResult(order=("black", "grey")))
    assert season.draft_order().picks == () and season.draft_order().swap is None


def test_next_race_setup_1961_race_1() -> None:
    season = Season(SEASONS["1961"], CARS, legend_bonus=2, aggressive_legends=False)
    setup = season.next_race_setup(seed=8)
    track = tracks.load_track("great-britain")
    assert setup.track == track
    assert setup.modules.event == "new-grandstand"
    assert setup.modules.press_corners == (tracks.press_corner_line(track, "A"),) == (15,)
    assert tuple(c.id for c in setup.cars) == season.next_grid(8)
    assert {c.id: c for c in setup.cars}["blue"].handicap == 1
    assert setup.legend_bonus == 2 and not setup.aggressive_legends and setup.seed == 8
    assert setup.laps is None and start_race(setup).state.laps == 2


def test_next_race_setup_follows_standings_and_event_laps() -> None:
    season = Season(SEASONS["1961"], CARS)
    season = season.with_result(RaceResult(order=("grey", "red", "black", "blue")))
    season = season.with_result(RaceResult(order=("grey", "red", "black", "blue")))
    setup = season.next_race_setup(seed=3, weather=Weather.FOG)
    assert setup.track.id == "italy" and setup.modules.event == "drivers-strike"
    assert setup.modules.press_corners == (26,)  # Italy C = third corner
    assert setup.modules.weather is Weather.FOG
    assert tuple(c.id for c in setup.cars) == ("grey", "red", "black", "blue")
    assert start_race(setup).state.laps == 2  # Drivers' strike: Italy's 3 laps - 1


def test_press_letters_wrap_and_the_table_may_set_the_grid() -> None:
    season = Season(SEASONS["1962"], CARS)
    grid = ("red", "grey", "black", "blue")
    setup = season.next_race_setup(grid=grid)
    assert setup.modules.press_corners == (19,)  # Italy has 3 corners: E wraps to B
    assert tuple(c.id for c in setup.cars) == grid
    with pytest.raises(SeasonError, match="every car of the season once"):
        season.next_race_setup(grid=("red",))


def test_consulting_the_mechanics() -> None:
    season = Season(SEASONS["1966"], CARS)
    for order in ([("red",)] * 3):
        season = season.with_result(RaceResult(order=order + ("blue", "black", "grey")))
    setup = season.next_race_setup(mechanics={"red": 1, "blue": -1})
    assert setup.modules.event == "consulting-mechanics"
    assert {c.id: c.mechanics for c in setup.cars} == {"red": 1, "blue": -1, "black": 0,
                                                       "grey": 0}
    with pytest.raises(SeasonError, match="pink is not a car"):
        season.next_race_setup(mechanics={"pink": 1})


def test_1966_germany_cannot_be_played() -> None:
    season = Season(SEASONS["1966"], CARS).with_result(
        RaceResult(order=("red", "blue", "black", "grey")))
    with pytest.raises(SeasonError, match=r"race 2 \(germany\) cannot be played: Germany "
                                          r"\(Rocky Roads\) is not bundled"):
        season.next_race_setup()


def test_no_race_after_the_last() -> None:
    season = Season(SeasonDef("x", "X", (SeasonRace("usa"),)), (RED,))
    season = season.with_result(RaceResult(order=("red",)))
    with pytest.raises(SeasonError, match="no next race"):
        season.next_race_setup()


def test_track_loader_is_injected() -> None:
    asked: list[str] = []

    def loader(track_id: str) -> Track:
        asked.append(track_id)
        return tracks.load_track(track_id)

    Season(SEASONS["1963"], CARS).next_race_setup(load_track=loader)
    assert asked == ["usa"]


@pytest.mark.parametrize(("cars", "message"), [
    ((), "at least one car"),
    ((RED, RED), "unique"),
    ((CarEntry("pink", legend=True),), "a Legend is one of"),
    ((CarEntry("red", mechanics=1),), "per race"),
])
def test_season_cars_are_checked(cars: tuple[CarEntry, ...], message: str) -> None:
    with pytest.raises(SeasonError, match=message):
        Season(SEASONS["1961"], cars)
