"""Results' "Undo last input": the input that ended a race (a mistyped last card) taken back
with one tap, through the race screen's own Undo (controller -> session: an undo event in the
log, the same words), back to the race screen with the race unfinished; its Redo finishes it
again (found by a table test: Results offered only Home, Races, Export and Standings, Races >
Open showed Results again, Start's Continue was greyed and the table's Undo did nothing). In a
season the standings follow (a race's result is derived from its log); once the season's next
race has started, or its Garage draft is under way, the button is greyed and says why."""

from __future__ import annotations

from typing import Any

import pytest
from season_play import create_season, play_next_race, start_next_race

from companion.ui.demo.table_shots import start
from companion.ui.widgets.lookup import find

pytestmark = pytest.mark.ui

NAMES = ("Maximilianus", "Bartholomeus")


def _finish(ui: Any) -> str:
    """A race of two drivers and a Legend played to its end on the screens; its id."""
    app = ui.app
    start(app, NAMES, 1)
    ui.pump()
    ui.player.play_to_end()
    ui.pump(3)
    assert app.sm.current == "results" and app.session.state.over
    return str(app.session.race_id)


def _events(app: Any, race_id: str) -> list[str]:
    """The kinds of the race's events in the log, in order."""
    return [str(row.kind) for row in app.log()._log.events(race_id)]


def _standings(app: Any, season_id: str) -> list[tuple[str, int]]:
    return [(s.car.id, s.points) for s in app.season_store().season(season_id).season.standings()]


def _undo_on_results(ui: Any) -> None:
    button = find(ui.app.sm.current_screen, "undo finish")
    assert not button.disabled, button.why_disabled
    ui.player.press("undo finish")
    ui.pump(2)


def test_results_undo_takes_the_last_input_back_and_redo_finishes_the_race_again(ui) -> None:
    app = ui.app
    race_id = _finish(ui)
    places = list(app.session.state.results)
    logged = _events(app, race_id)
    _undo_on_results(ui)
    controller = app.controller
    assert app.sm.current == "race" and not controller.state.over
    said = controller.rulings
    assert said[0].headline and said[0].text.startswith("Undone: "), said
    assert find(app.sm.current_screen, "messages").children  # said on the race screen
    assert _events(app, race_id) == [*logged, "undo"]  # an event: nothing recorded is lost
    assert app.continue_target() == race_id  # Start's Continue leads back to it
    app.show("start")
    ui.pump(2)
    assert not find(app.sm.current_screen, "continue").disabled
    ui.player.press("continue")
    assert app.sm.current == "race" and app.controller.rulings[0].text == said[0].text
    ui.player.press("redo")
    ui.pump(2)
    assert app.sm.current == "results" and app.session.state.over
    assert list(app.session.state.results) == places
    assert _events(app, race_id) == [*logged, "undo", "redo"]
    assert app.continue_target() is None


def test_a_season_race_undone_from_results_takes_its_points_back_and_redo_restores_them(
        ui) -> None:
    app = ui.app
    season_id = create_season(ui, "1961", NAMES)
    before = _standings(app, season_id)
    race_id = play_next_race(ui, season_id)
    ui.pump(3)
    assert app.sm.current == "results"
    after = _standings(app, season_id)
    assert after != before
    _undo_on_results(ui)
    assert app.sm.current == "race" and not app.session.state.over
    stored = app.season_store().season(season_id)
    assert stored.running == race_id and stored.season.races_played == 0
    assert _standings(app, season_id) == before  # back to before that race
    ui.player.press("redo")
    ui.pump(2)
    assert app.sm.current == "results" and app.session.state.over
    assert _standings(app, season_id) == after
    assert app.season_store().season(season_id).running is None


def _open_from_races(ui: Any, race_id: str) -> Any:
    app = ui.app
    app.show("races")
    ui.pump(2)
    app.sm.current_screen.open(race_id)
    ui.pump(2)
    assert app.sm.current == "results"
    return app.sm.current_screen


def test_results_undo_is_refused_in_words_once_the_season_s_next_race_started(ui) -> None:
    from companion.ui.widgets.basic import current_hint

    app = ui.app
    season_id = create_season(ui, "1961", NAMES)
    first = play_next_race(ui, season_id)
    app.show("standings")
    start_next_race(ui)  # race 2 under way
    second = str(app.session.race_id)
    points = _standings(app, season_id)
    logged = _events(app, first)
    screen = _open_from_races(ui, first)
    button = find(screen, "undo finish")
    assert button.disabled
    assert button.why_disabled == ("Race 2 of this season has started: this race's result "
                                   "stands and cannot be undone.")
    screen.undo_last_input()  # even called, it does nothing
    ui.pump(2)
    assert app.sm.current == "results" and app.session.state.over
    assert _events(app, first) == logged and _standings(app, season_id) == points
    assert app.continue_target() == second
    # the table's Undo on Results: nothing undone, the reason said by the button
    app.hw_bridge.mode = "results"
    app._table_undo_on_results()
    hint = current_hint()
    assert hint is not None and "Race 2 of this season has started" in hint.text
    assert _events(app, first) == logged


def test_results_undo_is_refused_while_the_next_race_s_draft_is_under_way(ui) -> None:
    app = ui.app
    season_id = create_season(ui, "1961", NAMES)
    first = play_next_race(ui, season_id)
    app.show("standings")
    ui.player.press("next race")
    ui.player.press("draft")
    ui.player.press("card 0")  # the draft for race 2 begun, one pick recorded
    screen = _open_from_races(ui, first)
    button = find(screen, "undo finish")
    assert button.disabled
    assert button.why_disabled == ("A pick of the Garage draft for race 2, dealt from this "
                                   "race's result, is recorded: undo every pick on the Garage "
                                   "draft screen first.")


def test_results_undo_after_a_restart_and_its_redo_after_another(ui) -> None:
    """Resume is a replay of the log: a finished race opened from Races after a restart, its
    last input undone; after another restart Continue opens it as the Undo left it, and its
    Redo finishes it again."""
    app = ui.app
    race_id = _finish(ui)
    places = list(app.session.state.results)
    app = ui.restart()
    assert app.continue_target() is None
    _open_from_races(ui, race_id)
    _undo_on_results(ui)
    assert app.sm.current == "race" and not app.session.state.over
    said = app.controller.rulings[0].text
    app = ui.restart()
    assert app.continue_target() == race_id
    ui.player.press("continue")
    assert app.sm.current == "race" and not app.session.state.over
    assert app.controller.rulings[0].text == said  # the Undo's words again
    ui.player.press("redo")
    ui.pump(2)
    assert app.sm.current == "results" and list(app.session.state.results) == places


def test_the_table_s_undo_on_results_does_what_the_button_does(table) -> None:
    from hardware import TableButton

    harness, fake = table
    app = harness.app
    race_id = _finish(harness)
    logged = _events(app, race_id)
    fake.press(TableButton.UNDO)
    app.poll_hardware()
    harness.pump(2)
    assert app.sm.current == "race" and not app.session.state.over
    assert app.controller.rulings[0].text.startswith("Undone: ")
    assert _events(app, race_id) == [*logged, "undo"]
    fake.press(TableButton.UNDO)  # on the race screen: the race's Undo, as before
    app.poll_hardware()
    assert _events(app, race_id) == [*logged, "undo", "undo"]


def test_the_saved_results_go_with_the_undo_and_come_back_with_the_redo(ui) -> None:
    """The results file and lap chart saved when the race finished said it was over after
    Undo last input had made it unfinished again (and stayed so if it was never finished):
    they are derived from the log, so the undo takes them away and the finish saves them
    again."""
    from companion.ui.views.results import results_paths

    app = ui.app
    race_id = _finish(ui)
    ui.pump(3)
    saved = results_paths(app.data_path, race_id)
    assert all(path.exists() for path in saved), saved
    _undo_on_results(ui)
    assert not any(path.exists() for path in saved), saved
    ui.player.press("redo")
    ui.pump(4)
    assert app.sm.current == "results"
    assert all(path.exists() for path in saved), saved


def test_an_opened_draft_with_nothing_picked_leaves_the_undo_free(ui) -> None:
    """Opening the next race's Garage draft and picking nothing greyed Undo last input for
    good ("The Garage draft for race 2 has begun"), while the draft said nothing was recorded
    and the deck could still be changed; the draft could not be closed (found by a table
    test). A draft is under way once a pick is in effect, as for the deck's lock; the undo
    sets the empty draft aside, and the next Garage draft is dealt and played as usual."""
    app = ui.app
    season_id = create_season(ui, "1961", NAMES)
    first = play_next_race(ui, season_id)
    app.show("standings")
    ui.player.press("next race")
    ui.player.press("draft")  # the draft for race 2 opened, nothing picked
    assert app.log().drafts.open_drafts(season_id)
    ui.player.press("back")
    screen = _open_from_races(ui, first)
    assert not find(screen, "undo finish").disabled
    _undo_on_results(ui)
    assert app.sm.current == "race" and not app.controller.state.over
    assert app.log().drafts.open_drafts(season_id) == []  # set aside with the undo
    ui.player.press("redo")
    ui.pump(2)
    assert app.sm.current == "results" and app.session.state.over
    app.season_id = season_id
    app.show("standings")
    ui.player.press("next race")
    ui.player.press("draft")
    ui.player.press("card 0")
    assert app.season_draft_picks(season_id) == 1
