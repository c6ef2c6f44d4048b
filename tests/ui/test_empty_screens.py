"""A screen opened with nothing to show (the first screen of a fresh app, as
``test_first_screens.py`` opens each one): the race screen with no race, the Garage draft with
no draft, the storage fault screen with no fault. Each was blank: a tap on Undo, Redo or No swap
stopped the app (AttributeError on the missing race or draft), and the fault screen had no
button at all, no way out. Each now says in words what is missing, every button it shows can
be tapped without harm, and one leads back to Start; in en, zh_TW and ko.

The same for Standings with no season (blank, its orange button with no text that did nothing:
it says no season is open and Back lists the seasons), Next race with no race (its Garage deck
button had no text: it says why there is none, the deck button goes, Back leads Home) and
Results with no race (a blank area and an empty chart: it says there is no race to show, no
chart, Home leads back)."""

from __future__ import annotations

import pytest
from kivy.uix.label import Label

from companion.ui.widgets.basic import Btn
from companion.ui.widgets.line_chart import LineChart
from companion.ui.widgets.lookup import walk

pytestmark = pytest.mark.ui


def _shown(widget) -> bool:
    return widget.opacity > 0 and widget.get_root_window() is not None and widget.width > 0


def _buttons(screen) -> list[Btn]:
    return [w for w in walk(screen) if isinstance(w, Btn) and _shown(w)]


@pytest.mark.parametrize(("name", "back"), [
    ("race", "start"), ("draft", "start"), ("storagefault", "start"),
    ("standings", "seasons"), ("nextrace", "start"), ("results", "start")])
@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_screen_with_nothing_to_show_says_so_and_leads_back(ui, name: str, back: str,
                                                              language: str) -> None:
    app = ui.app
    assert app.controller is None and getattr(app, "draft_flow", None) is None
    assert app.session is None and app.season_id is None
    try:
        app.set_language(language)
        count = len(_buttons(app.show(name)))
        assert count, f"{name}: no button, no way out"
        for index in range(count):
            screen = app.show(name)
            ui.pump(2)
            words = [w.text for w in walk(screen) if isinstance(w, Label)
                     and not isinstance(w, Btn) and _shown(w) and w.text.strip()]
            assert words, f"{name}: nothing says why it is empty"
            shown = _buttons(screen)
            assert all(b.text.strip() for b in shown), f"{name}: a button with no text"
            assert not [w for w in walk(screen) if isinstance(w, LineChart) and _shown(w)], (
                f"{name}: an empty chart")
            button = shown[index]
            button.dispatch("on_release")  # never stops the app; a greyed one says why
            ui.pump(2)
            if app.sm.current == back:
                break
        else:
            raise AssertionError(f"{name}: no button leads back to {back}")
    finally:
        app.set_language("en")


def test_the_storage_screen_with_no_fault_says_so_in_no_warning_colour(ui) -> None:
    """"Nothing is wrong with the storage." stood in the red of a fault (found by a table
    test): in the colour of good news; a real fault's title keeps the warning colour."""
    app = ui.app
    screen = app.show("storagefault")
    ui.pump(2)
    title = screen.ids.title
    assert title.text == "Nothing is wrong with the storage."
    assert list(title.color) == list(app.c_ok)
    screen.faulty = True
    assert list(title.color) == list(app.c_warn)


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_next_race_with_no_race_shows_no_button_that_does_nothing(ui, language: str) -> None:
    """Next race with no season open showed a large greyed orange "Garage draft" beside Back
    over an otherwise empty screen (found by a table test): with no race to draft for, the
    button goes, and Back, the one button left, leads Home."""
    app = ui.app
    assert app.season_id is None
    try:
        app.set_language(language)
        screen = app.show("nextrace")
        ui.pump(2)
        shown = _buttons(screen)
        assert [b.test_name for b in shown] == ["back"], [(b.test_name, b.text) for b in shown]
        assert not [b for b in shown if b.disabled]
        assert screen.ids.draft.disabled  # out of sight and out of reach
    finally:
        app.set_language("en")
