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
