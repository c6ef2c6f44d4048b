"""A single race's Garage draft and the New race form it was dealt from.

Found by the developer who added the draft's Undo: after a pick, Back to New race and any
change (a driver's name corrected too) made Start race deal a new draft, the picks set aside
without a word (abandoned in the log, not offered). Now:

* a change the deal does not depend on (a name, a seat, a handicap, the track, the laps, the
  Legends' difficulty, the modules but the Garage) keeps the draft and its picks: Start race
  takes it up where it was, with the setup as changed (recorded: a restart finds both);
* what the deal depends on (the cars: colours, drivers added or taken away, Legends; the grid
  and its draw; the Garage and its deck) is greyed once a pick is in effect, as a season's Next
  race greys its deck, and a tap says why; undoing every pick frees it.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from companion import i18n
from companion.ui.widgets.basic import Btn, current_hint
from companion.ui.widgets.lookup import find, find_all

pytestmark = pytest.mark.ui

NAMES = ("Maximilianus", "Bartholomeus")
LANGUAGES = ["en", "zh_TW", "ko"]
CARS_WHY = ("The cars are locked: a pick of this race's Garage draft is recorded. Undo every "
            "pick on the Garage draft screen to add or take one away.")
COLOURS_WHY = ("The colours are locked: a pick of this race's Garage draft is recorded. Undo "
               "every pick on the Garage draft screen to change them.")
GRID_WHY = ("The grid is locked: a pick of this race's Garage draft is recorded. Undo every "
            "pick on the Garage draft screen to change it.")
DEAL_WHY = ("A pick of this race's Garage draft is recorded, and this setup deals another "
            "draft: undo every pick on the Garage draft screen first.")
GARAGE_WHY = ("The Garage is locked: a pick of this race's Garage draft is recorded. Undo "
              "every pick on the Garage draft screen to change it.")


def _tap(widget: Any) -> None:
    from kivy.tests.common import UnitTestTouch

    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def _draft(ui: Any, picks: int = 2, names: tuple[str, ...] = NAMES) -> str:
    """From Start: New race, ``names``, the Garage draft, ``picks`` picks; the draft's id."""
    player = ui.player
    player.press("new race")
    for index, name in enumerate(names):
        if index >= 2:
            player.press("add driver")
        player.find(f"name {index}").text = name
    player.press("more options")
    player.press("garage")
    player.press("more options")  # back to the race setup
    player.press("start race")
    assert ui.app.sm.current == "draft"
    for _ in range(picks):
        player.press("card 0")
    return str(ui.app.draft_flow.stored)


def _back_to_form(ui: Any) -> Any:
    ui.player.press("back")
    assert ui.app.sm.current == "newrace"
    return ui.app.sm.current_screen


def _picked(app: Any) -> tuple[Any, ...]:
    """What the draft holds: its deal and every pick (as the cards in every hand)."""
    draft = app.draft_flow.draft
    return draft.drivers, draft.picks, draft.market, draft.deck, draft.round


def _states(app: Any) -> dict[str, tuple[str, int]]:
    """Every draft in the log: its state and how many inputs it holds."""
    with sqlite3.connect(app.log_access.path) as db:
        rows = db.execute("SELECT id, state, (SELECT COUNT(*) FROM draft_inputs i "
                          "WHERE i.draft_id = d.id) FROM drafts d").fetchall()
    return {str(i): (str(state), int(n)) for i, state, n in rows}


def _change(ui: Any, change: str) -> None:
    """One change of the New race form the draft's deal does not depend on."""
    player, screen = ui.player, ui.app.sm.current_screen
    if change == "name":
        player.find("name 0").text = "Maximilianux"
    elif change == "seat":
        player.press("seat 1")
    elif change == "handicap":
        player.press("handicap 0")
    elif change == "laps":
        player.press("laps plus")
    elif change == "track":
        player.press("track next")
    elif change == "event":
        player.press("more options")
        player.press("event")
        player.press("more options")
    else:
        raise AssertionError(change)
    assert screen.form is not None


@pytest.mark.parametrize("change", ["name", "seat", "handicap", "laps", "track", "event"])
def test_a_change_the_deal_does_not_depend_on_keeps_the_picks(ui, change: str) -> None:
    app = ui.app
    _draft(ui, picks=3)
    before = _picked(app)
    _back_to_form(ui)
    _change(ui, change)
    ui.player.press("start race")
    assert app.sm.current == "draft"
    assert _picked(app) == before and app.draft_flow.inputs == 3
    assert [item.kind for item in app.unfinished()] == ["draft"]  # one draft to continue


def test_a_name_corrected_is_the_draft_s_and_the_race_s(ui) -> None:
    """The draft shows the corrected name, the Start screen's Continue names it, and the race
    started from the draft has it, with the cards drafted."""
    app = ui.app
    first = _draft(ui, picks=2)
    _back_to_form(ui)
    ui.player.find("name 0").text = "Maximilianux"
    ui.player.press("start race")
    flow = app.draft_flow
    assert flow.name("red") == "Maximilianux"
    assert "Maximilianux" in find(app.sm.current_screen, "draft prompt").text
    assert app.draft_flow.inputs == 2
    states = _states(app)
    assert states[first] == ("abandoned", 2)  # every row kept
    assert sorted(states.values()) == [("abandoned", 2), ("open", 2)]
    app.show("start")
    ui.pump(2)
    assert "Maximilianux" in find(app.sm.current_screen, "continue info").text
    ui.player.press("continue")
    while app.draft_flow.mode == "pick":
        ui.player.press("card 0")
    cards = app.draft_flow.cards()
    ui.player.press("start race")
    cars = {car.id: car for car in app.session.state.cars}
    assert cars["red"].name == "Maximilianux"
    assert {car: cars[car].upgrades for car in cards} == cards


def test_a_restart_after_the_correction_keeps_the_picks_and_the_name(ui) -> None:
    app = ui.app
    _draft(ui, picks=2)
    before = _picked(app)
    _back_to_form(ui)
    ui.player.find("name 1").text = "Bartholomew"
    ui.player.press("seat 0")
    seats = [d.seat for d in app.sm.current_screen.form.drivers]
    ui.player.press("start race")
    app = ui.restart()  # the power came back
    app.show("start")
    ui.player.press("continue")
    assert app.sm.current == "draft" and _picked(app) == before
    assert app.draft_flow.name("blue") == "Bartholomew"
    form = _back_to_form(ui).form
    assert [d.name for d in form.drivers] == ["Maximilianus", "Bartholomew"]
    assert [d.seat for d in form.drivers] == seats


def test_a_restart_before_the_correction_keeps_the_picks(ui) -> None:
    app = ui.app
    _draft(ui, picks=2)
    before = _picked(app)
    app = ui.restart()
    app.show("start")
    ui.player.press("continue")
    _back_to_form(ui)
    ui.player.find("name 0").text = "Maximilianux"
    ui.player.press("start race")
    assert app.sm.current == "draft" and _picked(app) == before
    assert app.draft_flow.name("red") == "Maximilianux"
    ui.player.press("card 0")  # the draft goes on, recorded after the picks carried
    app = ui.restart()
    app.show("start")
    ui.player.press("continue")
    assert app.draft_flow.inputs == 3 and len(app.draft_flow.draft.picks) == 3


def _locked(screen: Any) -> dict[str, str]:
    """The New race buttons the deal depends on, on the page shown, each greyed with its
    reason ("" when it is free)."""
    names = {"add driver", "legends plus", "legends minus", "grid", "new seed", "garage",
             "garage deck"}
    return {widget.test_name: widget.why_disabled if widget.disabled else ""
            for widget in find_all(screen, "") if isinstance(widget, Btn) and (
                widget.test_name in names
                or widget.test_name.startswith(("colour ", "remove ", "up ")))}


@pytest.mark.parametrize("language", LANGUAGES)
def test_what_the_deal_depends_on_is_locked_after_a_pick(ui, language: str) -> None:
    app = ui.app
    _draft(ui, picks=1)
    app.set_language(language)
    screen = _back_to_form(ui)
    ui.pump(2)
    setup = _locked(screen)
    assert setup == {"colour 0": i18n._(COLOURS_WHY), "colour 1": i18n._(COLOURS_WHY),
                     "remove 0": i18n._(CARS_WHY), "remove 1": i18n._(CARS_WHY),
                     "add driver": i18n._(CARS_WHY), "legends plus": i18n._(CARS_WHY),
                     # greyed for a reason of its own, which it says first
                     "legends minus": i18n._("No Legend to take away: this race has none.")}
    assert language == "en" or i18n._(CARS_WHY) != CARS_WHY  # translated
    _tap(find(screen, "add driver"))
    ui.pump(2)
    hint = current_hint()
    assert hint is not None and hint.text == i18n._(CARS_WHY)
    assert len(screen.form.drivers) == 2 and screen.form.legends == 0  # nothing changed
    for free in ("seat 0", "handicap 1", "laps plus", "track next"):
        assert not find(screen, free).disabled
    ui.player.press("more options")
    ui.pump(2)
    options = _locked(screen)
    assert options == {"grid": i18n._(GRID_WHY), "new seed": i18n._(GRID_WHY),
                       "garage": i18n._(GARAGE_WHY), "garage deck": i18n._(GARAGE_WHY)}
    assert not find(screen, "tournament").disabled and not find(screen, "event").disabled


def test_a_grid_set_by_hand_is_locked_too(ui) -> None:
    app = ui.app
    ui.player.press("new race")
    ui.player.press("more options")
    ui.player.press("grid")  # by hand
    ui.player.press("garage")
    ui.player.press("start race")
    ui.player.press("card 0")
    screen = _back_to_form(ui)
    assert screen.page == "options"  # as it was left
    ups = {name: why for name, why in _locked(screen).items() if name.startswith("up ")}
    assert sorted(ups.values()) == sorted([i18n._(GRID_WHY), "Already first on the grid."])
    ui.player.press("start race")
    assert app.draft_flow.inputs == 1


def test_undoing_every_pick_frees_the_setup(ui) -> None:
    """With every pick undone nothing is lost by a new deal: the form is free again, and a
    changed setup deals a new draft (the one before abandoned, its picks and undos kept)."""
    app = ui.app
    first = _draft(ui, picks=2)
    screen = _back_to_form(ui)
    assert find(screen, "legends plus").disabled
    ui.player.press("start race")
    ui.player.press("undo")
    ui.player.press("undo")
    _back_to_form(ui)  # the setup page, as it was left
    free = _locked(screen)
    assert free == {name: "" for name in free} | {
        "legends minus": "No Legend to take away: this race has none."}
    ui.player.press("more options")
    ui.player.press("garage deck")  # basic to advanced: other cards
    ui.player.press("start race")
    second = app.draft_flow.stored
    assert second != first and app.draft_flow.inputs == 0
    assert _states(app)[first] == ("abandoned", 4)
    assert [item.id for item in app.unfinished()] == [second]


def test_the_lock_comes_from_the_log_after_a_restart(ui) -> None:
    app = ui.app
    _draft(ui, picks=1)
    app = ui.restart()
    app.show("start")
    ui.player.press("continue")
    screen = _back_to_form(ui)
    assert find(screen, "add driver").disabled and find(screen, "colour 0").disabled


def test_start_race_never_sets_picks_aside(ui) -> None:
    """Should the deal change all the same (here behind the screen's back), Start race says
    why and keeps the draft: the picks are neither dealt over nor abandoned."""
    app = ui.app
    first = _draft(ui, picks=2)
    screen = _back_to_form(ui)
    screen.form.modules.cycle_deck()  # basic to advanced: other cards
    screen.refresh()
    ui.player.press("start race")
    assert app.sm.current == "newrace"
    hint = current_hint()  # beside Start race
    assert hint is not None and hint.text == DEAL_WHY
    assert _states(app) == {first: ("open", 2)}
