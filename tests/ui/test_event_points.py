"""A Championship event's points explain themselves (found by a table test): with Drivers'
strike the winner scores +2, and Standings showed "11 (1)" under a legend that said only
"points, then the place in brackets", while Results said nothing of the +2. Results now says
the bonus under the driver who got it, and the Standings' legend names the races whose event
gave points, in en, zh_TW and ko."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from test_results_words import play_out

import tracks
from companion.championship.seasons import SeasonDef, SeasonRace
from companion.engine import CarEntry
from companion.engine.modules import RaceModules
from companion.ui.views.race_form import RaceForm
from companion.ui.widgets.lookup import find

pytestmark = pytest.mark.ui

CARS = (CarEntry("red", "Ana"), CarEntry("blue", "Ben"), CarEntry("green", "Cleo"),
        CarEntry("yellow", "Dora"))


def spaced(text: str) -> str:
    return text.replace("\u00a0", " ")


def _season_race(ui: Any, event: str, races: int = 1) -> str:
    """A season of ``races`` races at USA, each with ``event``, its first race played and its
    Results on show; the season's id."""
    from companion.ui.views.next_race import plan_next_race

    app = ui.app
    store = app.season_store()
    season_id = store.create_season(
        SeasonDef("custom", "Cup", (SeasonRace("usa", event),) * races), CARS)
    plan = plan_next_race(store, season_id, seed=5)
    assert plan is not None
    app.season_id = season_id
    app.open_session(play_out(store.start_race(plan.season_id, plan.setup({}))))
    assert app.sm.current == "results"
    return season_id


def _words(ui: Any, place: int) -> str:
    return spaced(find(ui.app.sm.current_screen, f"place {place} words").text)


def test_results_and_standings_explain_the_winners_bonus(ui) -> None:
    app = ui.app
    _season_race(ui, "drivers-strike")
    assert _words(ui, 1).splitlines()[-1] == "+2 points for the win: Drivers' strike"
    for place in (2, 3, 4):
        assert "+" not in _words(ui, place)
    ui.player.press("standings")
    screen = app.sm.current_screen
    winner = app.session.state.results[0][0]
    assert find(screen, f"standing {winner}").children[-3].text == "11 (1)"
    note = spaced(find(screen, "tie note").text).splitlines()
    assert note[0] == "Each race: points, then the place in brackets."
    assert "Race 1: +2 for the winner (Drivers' strike)." in note
    for language, title in (("zh_TW", "車手罷賽"), ("ko", "드라이버 파업")):
        app.set_language(language)
        try:
            ui.pump()
            screen = app.sm.current_screen
            line = [s for s in spaced(find(screen, "tie note").text).splitlines()
                    if "+2" in s]
            assert len(line) == 1 and title in line[0] and "winner" not in line[0], line
            app.show("results")
            ui.pump()
            last = _words(ui, 1).splitlines()[-1]
            assert "+2" in last and title in last and "win" not in last, last
            app.show("standings")
        finally:
            app.set_language("en")


def test_results_and_standings_explain_the_top_three_bonus(ui) -> None:
    app = ui.app
    _season_race(ui, "corruption")
    for place in (1, 2, 3):
        assert _words(ui, place).splitlines()[-1] == (
            "+1 point for a top-three place: Corruption in rules committee")
    assert "+" not in _words(ui, 4)
    ui.player.press("standings")
    note = spaced(find(app.sm.current_screen, "tie note").text).splitlines()
    assert "Race 1: +1 each for the top three (Corruption in rules committee)." in note


def test_no_event_points_no_word_of_them(ui) -> None:
    """A season race whose event gives no points, and a race played alone with Drivers' strike
    (no championship, no points): nothing said of event points."""
    app = ui.app
    _season_race(ui, "new-title-sponsor")
    assert all("+" not in _words(ui, place) for place in (1, 2, 3, 4))
    ui.player.press("standings")
    assert "+" not in find(app.sm.current_screen, "tie note").text
    form = RaceForm(seed=5)
    form.first_race()
    track = tracks.load_track("usa")
    setup = replace(form.setup(track), modules=RaceModules(event="drivers-strike"))
    app.season_id = None
    app.open_session(play_out(app.log().new_race(setup)))
    assert app.sm.current == "results"
    assert "+" not in _words(ui, 1)
