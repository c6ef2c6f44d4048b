"""Greyed-out controls say why (issue 10, point 11): a tap on a disabled control shows the reason
in words, in the player's language, beside it; the hint never blocks the next tap."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.ui.widgets.basic import Btn, current_hint
from companion.ui.widgets.lookup import find, walk

pytestmark = pytest.mark.ui


def _tap(widget) -> None:
    from kivy.tests.common import UnitTestTouch

    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def disabled_without_reason(screen) -> list[str]:
    """Every visible disabled button of ``screen`` that would not say why."""
    return [w.test_name or w.text for w in walk(screen)
            if isinstance(w, Btn) and w.disabled and w.opacity > 0 and not w.why_disabled]


@pytest.mark.parametrize("language", ["en", "ko"])
def test_undo_at_the_start_says_why(ui, language: str) -> None:
    from companion.ui.demo.table_shots import start

    app = ui.app
    start(app, ("Ana", "Ben"), 0)
    app.set_language(language)
    if getattr(app, "toast", None) is not None:
        app.toast.close()  # the touch-only banner (issue 10, point 5: not this test's)
    ui.pump(2)
    undo = find(app.sm.current_screen, "undo")
    assert undo.disabled
    _tap(undo)
    ui.pump(2)
    hint = current_hint()
    assert hint is not None and hint.parent is not None
    assert hint.text == i18n._("Nothing to undo: no input of this race is recorded yet.")
    if language != "en":
        assert hint.text != "Nothing to undo: no input of this race is recorded yet."
    assert hint.texture_size[1] <= hint.height + 1
    left, bottom = hint.pos
    assert left >= 0 and bottom >= 0 and left + hint.width <= 800
    assert bottom + hint.height <= 480
    assert not disabled_without_reason(app.sm.current_screen)
    # The next tap goes through (and closes the hint).
    ui.player.press("gear red 2")
    assert current_hint() is None
    assert app.controller.state.planned == {"red": 2}


def test_a_greyed_key_of_the_keypad_says_why(ui) -> None:
    from companion.ui.demo.table_shots import start

    app = ui.app
    start(app, ("Ana", "Ben"), 0)
    ui.player.press("gear red 1")
    ui.player.press("gear blue 1")
    ui.player.press("key stress")  # gear 1: its one card is a Stress card; now its flip
    screen = app.sm.current_screen
    assert app.controller.view().mode == "flip"
    assert not disabled_without_reason(screen)
    key = find(screen, "key stress")
    assert key.disabled
    _tap(key)
    ui.pump(2)
    hint = current_hint()
    assert hint is not None
    assert hint.text == app.controller.view().why("stress")
    assert "flipped" in hint.text
    assert app.controller.view().mode == "flip"  # and the tap typed nothing


def test_start_race_on_the_draft_says_why(ui) -> None:
    app = ui.app
    ui.player.set_up_race()
    ui.player.press("more options")  # the modules
    ui.player.press("garage")
    ui.player.press("start race")
    assert app.sm.current == "draft"
    screen = app.sm.current_screen
    start = find(screen, "start race")
    assert start.disabled
    assert not disabled_without_reason(screen)
    _tap(start)
    ui.pump(2)
    hint = current_hint()
    assert hint is not None
    picker = app.draft_flow.name(app.draft_flow.draft.to_pick)
    assert hint.text == f"The draft is not over: {picker} picks next."


# --- where the hint goes -----------------------------------------------------------------------


def _overlap(a, b) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def test_a_hint_in_a_keypad_goes_past_the_other_keys() -> None:
    """A 4x2 keypad in the right half of 800x480, the greyed key in its middle: the hint
    covers no other key, stays in the window, and sits next to the keypad."""
    from companion.ui.widgets.basic import hint_place

    keys = [(368 + 81 * col, 200 + 52 * row, 368 + 81 * col + 77, 200 + 52 * row + 48)
            for col in range(4) for row in range(2)]
    greyed = keys[3]
    others = [k for k in keys if k != greyed]
    x, y = hint_place((240, 90), greyed, (800, 480), others)
    box = (x, y, x + 240, y + 90)
    assert x >= 0 and y >= 0 and box[2] <= 800 and box[3] <= 480
    assert all(_overlap(box, k) == 0 for k in others)
    assert box[1] >= 304 or box[3] <= 200  # just above or below the keypad


def _hint_clear_of_buttons(app) -> None:
    from kivy.core.window import Window

    hint = current_hint()
    assert hint is not None and hint.parent is not None
    box = (hint.x, hint.y, hint.right, hint.top)
    assert box[0] >= 0 and box[1] >= 0 and box[2] <= Window.width and box[3] <= Window.height
    for widget in walk(app.sm.current_screen):
        if isinstance(widget, Btn) and not widget.disabled and widget.opacity > 0:
            left, bottom = widget.to_window(widget.x, widget.y)
            other = (left, bottom, left + widget.width, bottom + widget.height)
            assert _overlap(box, other) == 0, f"the hint covers {widget.test_name!r}"


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_hints_cover_no_button_with_six_drivers(ui, language: str) -> None:
    """Six drivers at 800x480: Redo's hint (beside Undo and Menu, over the gear rows) and a
    greyed key's (in the middle of the keypad) cover none of the buttons a player taps
    next."""
    from companion.ui.demo.table_shots import SIX, start

    app = ui.app
    start(app, SIX, 0)
    app.set_language(language)
    if getattr(app, "toast", None) is not None:
        app.toast.close()
    ui.pump(3)
    screen = app.sm.current_screen
    cars = [row.car for row in app.controller.view().gear_rows]
    ui.player.press(f"gear {cars[0]} 1")  # Undo can now be used: Redo cannot
    redo = find(screen, "redo")
    assert redo.disabled
    _tap(redo)
    ui.pump(2)
    _hint_clear_of_buttons(app)
    for car in cars[1:]:
        ui.player.press(f"gear {car} 1")
    ui.player.press("key stress")  # gear 1: its one card is a Stress card; now its flip
    assert app.controller.view().mode == "flip"
    key = find(screen, "key stress")
    assert key.disabled
    _tap(key)
    ui.pump(2)
    assert current_hint().text == app.controller.view().why("stress")
    _hint_clear_of_buttons(app)
    app.set_language("en")


# --- every greyed control of the other screens --------------------------------------------------


def _scrolled_to(widget) -> None:
    """The scroll views around ``widget`` scrolled to bring it into sight."""
    from kivy.uix.scrollview import ScrollView

    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, ScrollView):
            parent.scroll_to(widget, padding=10, animate=False)
        parent = parent.parent


def _greyed_say_why(ui, seen: dict[str, str]) -> None:
    """Every visible greyed button of the screen on show has a reason; a tap on each shows
    it (the hint's text), in the player's language; ``seen`` collects them by test name."""
    app = ui.app
    ui.pump(2)
    screen = app.sm.current_screen
    assert disabled_without_reason(screen) == [], screen.name
    for widget in walk(screen):
        if isinstance(widget, Btn) and widget.disabled and widget.opacity > 0:
            _scrolled_to(widget)
            ui.pump(2)
            _tap(widget)
            ui.pump(1)
            hint = current_hint()
            assert hint is not None and hint.text == widget.why_disabled, widget.test_name
            seen[widget.test_name] = hint.text
    ui.pump(1)


@pytest.mark.parametrize("language", ["en", "ko"])
def test_every_greyed_control_of_the_setup_screens_says_why(ui, language: str) -> None:
    """Found by a table test: Add driver and Legends + with six cars, the last driver's X,
    the steppers at their ends, Draw again with the grid set by hand, the first car's Up, the
    Garage deck with the Garage off, a season's last race's X, a season that cannot be
    played, Continue with no race unfinished and Next race of a season that is over (now
    gone) were greyed and said nothing when tapped. Each now says why, in the player's
    language."""
    import random

    from companion.racesim import next_action

    app = ui.app
    app.set_language(language)
    seen: dict[str, str] = {}
    app.show("start")
    _greyed_say_why(ui, seen)  # no race yet: Continue
    # New race: one driver (X), no Legend (-), no bonus (-); then six drivers (Add, +).
    ui.player.press("new race")
    screen = app.sm.current_screen
    form = screen.form
    form.remove_driver(1)
    form.set_legends(0)
    screen.refresh()
    _greyed_say_why(ui, seen)
    while form.add_driver() is not None:
        pass
    form.set_bonus(6)
    screen.refresh()
    _greyed_say_why(ui, seen)
    ui.player.press("more options")
    form.random_grid = False
    screen.refresh()
    _greyed_say_why(ui, seen)
    # The modules, the Garage off.
    ui.player.press("more options")
    ui.player.press("back")
    # A custom season of one race (its X), six drivers (Add), then the seasons list (1966).
    app.show("seasons")
    ui.player.press("custom season")
    season = app.sm.current_screen
    season.form.set_legends(0)
    while season.form.add_driver() is not None:
        pass
    season.refresh()
    _greyed_say_why(ui, seen)
    ui.player.press("season races details")
    _greyed_say_why(ui, seen)
    ui.player.press("back")
    for index in range(len(season.form.drivers)):
        ui.player.find(f"name {index}").text = f"Driver{index}"
    ui.player.press("create season")
    assert app.sm.current == "standings"
    from season_play import start_next_race

    start_next_race(ui)  # through its draft
    rng = random.Random(7)
    while (action := next_action(app.session.state, rng)) is not None:
        app.session.submit(action)  # the season's one race, to its end
    app.show("standings")
    _greyed_say_why(ui, seen)
    app.show("seasons")
    _greyed_say_why(ui, seen)
    # (a season that is over has no Next race tile since 489cc5d: nothing greyed to ask;
    # tests/ui/test_championship_ui.py::test_the_season_over_says_who_is_champion)
    assert find(app.sm.get_screen("standings"), "next race").opacity == 0
    expected = {"continue", "remove 0", "legends minus", "bonus minus", "add driver",
                "legends plus", "bonus plus", "new seed", "race 0 remove", "season 1966"}
    assert expected <= set(seen), expected - set(seen)
    up_first = [name for name in seen if name.startswith("up ")]
    assert len(up_first) == 1
    if language != "en":  # said in the player's language
        assert not any(text.isascii() for text in seen.values()), seen


def test_undo_back_at_the_start_says_redo_holds_the_inputs(ui) -> None:
    """Every input undone back to the race's start: the greyed Undo says this is the start
    of the race and that Redo brings the inputs back (not "no input is recorded yet", as a
    table test found it saying with Redo holding 33)."""
    from companion.ui.demo.table_shots import start

    app = ui.app
    start(app, ("Ana", "Ben"), 0)
    for _ in range(6):
        ui.player.step()
    while app.controller.view().can_undo:
        ui.player.press("undo")
    undo = find(app.sm.current_screen, "undo")
    assert undo.disabled and app.controller.view().can_redo
    _tap(undo)
    ui.pump(2)
    hint = current_hint()
    assert hint is not None and hint.text == (
        "Nothing to undo: this is the start of the race. Redo brings back what Undo took "
        "back.")


def test_the_draft_screen_with_no_draft_starts_nothing(ui) -> None:
    """The draft screen opened with no draft under way (only a test or a future path opens
    it so): Start race is greyed and says why; it used to be live and would have failed."""
    app = ui.app
    assert getattr(app, "draft_flow", None) is None
    app.show("draft")
    ui.pump(2)
    start = find(app.sm.current_screen, "start race")
    assert start.disabled
    _tap(start)
    ui.pump(2)
    hint = current_hint()
    assert hint is not None and hint.text == "No draft is under way: New race starts one."
    app.sm.current_screen.start()  # nothing to start, nothing raised
    assert app.sm.current == "draft"
