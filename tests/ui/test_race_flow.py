"""A whole race through the screens, undo, and resume after the app is torn down."""

from __future__ import annotations

import json

import pytest

from companion import racefile
from companion.ui.widgets.lookup import find

pytestmark = pytest.mark.ui


def test_whole_race_matches_replay_of_exported_file(ui, press) -> None:
    app = ui.app
    assert app.sm.current == "start"
    ui.player.set_up_race()
    press("start race")
    assert app.sm.current == "race"
    state = app.controller.state
    assert [c.legend for c in state.cars].count(True) == 2
    assert {c.name for c in state.cars if not c.legend} == {"Ana", "Ben"}
    presses = ui.player.play_to_end()
    assert presses > 20
    ui.pump(3)
    assert app.sm.current == "results"
    final = app.session.state
    assert final.over and len(final.results) == 4
    # The exported race file replays to the same state.
    doc = app.session.export()
    replayed = list(racefile.replay(racefile.parse(json.loads(json.dumps(doc)))))[-1]
    assert racefile.state_document(replayed) == racefile.state_document(final)
    # Results are shown and saved with the race (JSON + PNG in the data dir).
    screen = app.sm.current_screen
    assert find(screen, "place 1").text.startswith("1. ")
    saved = json.loads(screen.saved_json.read_text(encoding="utf-8"))
    assert [r["car"] for r in saved["results"]] == [c for c, _p, _r in final.results]
    assert all(len(p) == final.round + 1 for p in saved["lap_chart"].values())
    screen.export_chart()
    assert screen.saved_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # Export as a race file into the data folder.
    press("export")
    exported = list((ui.data / "exports").glob("race-*.json"))
    assert len(exported) == 1
    assert json.loads(exported[0].read_text(encoding="utf-8")) == doc


def test_rejection_shows_reason_and_changes_nothing(ui, press) -> None:
    ui.player.set_up_race()
    press("start race")
    controller = ui.app.controller
    human = next(c.id for c in controller.state.cars if not c.legend)
    before = controller.state
    press(f"gear {human} 4")  # three gears up from 1st: not allowed
    assert controller.state is before
    assert "at most two gears" in find(ui.app.sm.current_screen, "messages").shown[0]


def test_undo_redo_and_resume_after_teardown(ui, press) -> None:
    ui.player.set_up_race()
    press("start race")
    for _ in range(12):
        ui.player.step()
    app = ui.app
    before_undo = racefile.state_document(app.session.state)
    press("undo")
    assert racefile.state_document(app.session.state) != before_undo
    press("redo")
    assert racefile.state_document(app.session.state) == before_undo
    press("undo")
    expected = racefile.state_document(app.session.state)
    expected_turn = app.session.state.turn
    race_id = app.session.race_id
    # Power cut: the app goes away without any goodbye, a new one starts on the same data.
    app = ui.restart()
    assert app.sm.current == "start"
    assert find(app.sm.current_screen, "continue").disabled is False
    press("continue")
    assert app.sm.current == "race"
    assert app.session.race_id == race_id
    assert racefile.state_document(app.session.state) == expected
    assert app.session.state.turn == expected_turn
    assert app.session.can_redo  # the undone input can still be redone after the restart
    # And the race goes on to the end.
    ui.player.play_to_end()
    assert app.session.state.over


def test_real_touches_reach_buttons(ui) -> None:
    """Taps land as UnitTestTouch events (not just dispatched releases)."""
    from kivy.tests.common import UnitTestTouch

    app = ui.app
    button = find(app.sm.current_screen, "new race")
    x, y = button.to_window(*button.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    ui.pump()
    assert app.sm.current == "newrace"


def test_the_scripted_table_goes_on_after_an_undone_reveal(ui, press) -> None:
    """Undo puts a revealed hand back on the keypad, whole; the demo's table (used by the demo,
    the benches and these tests) takes its last key back, types it again and plays on."""
    from companion.engine import Reveal
    from companion.ui.demo.script import next_press

    ui.player.set_up_race()
    press("start race")
    app = ui.app
    undone = 0
    while not app.session.state.over and undone < 3:
        before = app.session.actions()
        ui.player.step()
        after = app.session.actions()
        if not any(isinstance(a, Reveal) for a in after[len(before):]):
            continue
        press("undo")
        assert app.session.actions() == before
        assert app.controller.view().can_confirm  # the whole hand is on the keypad again
        assert next_press(app.controller) == "key back"
        ui.player.step()
        assert not app.controller.view().can_confirm
        ui.player.step()  # the last card typed again: the same cards go in
        assert app.session.actions() == after
        undone += 1
    assert undone == 3
    ui.player.play_to_end()
    assert app.session.state.over


def test_menu_and_continue_keep_what_was_typed_on_the_keypad(ui) -> None:
    """A table changing a setting mid-race goes Menu, Settings, then Continue: a card typed
    on the keypad and not yet sent is still there (it was lost; found by a table test)."""
    from companion.ui.demo.table_shots import start
    from companion.ui.widgets.lookup import find

    app = ui.app
    start(app, ("Ana", "Ben"), 0)
    ui.pump(2)
    for _ in range(20):
        if app.controller.view().mode == "reveal":
            break
        ui.player.step()
    assert app.controller.view().mode == "reveal"
    ui.player.press("key 1")
    typed = app.controller.entry
    shown = find(app.sm.current_screen, "entry").text
    assert typed[0]
    ui.player.press("menu")
    app.set_language("ko")
    app.set_language("en")
    ui.player.press("continue")
    assert app.sm.current == "race"
    assert app.controller.entry == typed
    assert find(app.sm.current_screen, "entry").text == shown
    ui.player.press("key 2")  # typing goes on from there
    assert len(app.controller.entry[0]) == len(typed[0]) + 1 or app.controller.view().mode != (
        "reveal")
