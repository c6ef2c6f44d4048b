"""A button asked for in the small size is drawn in it, at every window size: common.kv's
``<Btn>`` rule (``font_size: app.fs``) won over a ``font_size`` given to ``Btn(...)`` in code,
so New season's colour, event, sponsor and corner buttons, the Hardware check's Identify and
the Results' saved-line button were drawn at the body size, wider than the widths measured
for them (a colour name measured at 15 px, drawn at 18). A button's size is now its ``scale``
("body", "small", "big"), which the kv rule reads; ``font_size`` given in code is refused."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui

SIZES = [(800, 480), (1280, 720)]


def test_a_font_size_given_in_code_is_refused(ui) -> None:
    from companion.ui.widgets.basic import Btn

    with pytest.raises(TypeError, match="scale"):
        Btn(text="Identify", font_size=12)


def _named(screen: Any, names: tuple[str, ...]) -> list[Any]:
    from companion.ui.widgets.lookup import find_all

    found = [b for name in names for b in find_all(screen, name) if b.test_name == name]
    assert len(found) == len(names), [b.test_name for b in found]
    return found


def _new_season_colours(ui: Any) -> list[Any]:
    app = ui.app
    screen = app.screen("newseason")
    screen.new_form("custom")
    app.show("newseason")
    ui.pump(3)
    return _named(screen, ("colour 0", "colour 1"))


def _small_buttons_of_new_season(ui: Any) -> list[Any]:
    colours = _new_season_colours(ui)
    ui.player.press("season races details")  # the races are shown on demand
    ui.pump(3)
    return colours + _named(ui.app.sm.current_screen,
                            ("race 0 event", "race 0 sponsors", "race 0 press A"))


def _identify_buttons(ui: Any) -> list[Any]:
    from companion.ui.widgets.lookup import find_all

    ui.app.show("hwcheck")
    ui.pump(3)
    found = [b for seat in range(1, 5) for b in find_all(ui.app.sm.current_screen,
                                                          f"identify {seat}")]
    assert len(found) == 4
    return found


def _saved_line_button(ui: Any) -> list[Any]:
    from companion.ui.widgets.saved_line import SavedLine

    line = SavedLine()
    ui.app.sm.current_screen.add_widget(line)
    ui.pump(2)
    return [line.button]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("buttons", [_small_buttons_of_new_season, _identify_buttons,
                                     _saved_line_button],
                         ids=["new season", "identify", "saved line"])
def test_small_buttons_are_drawn_small(table, size: tuple[int, int], buttons: Any) -> None:
    from kivy.core.window import Window

    ui, _hub = table
    app = ui.app
    try:
        Window.size = size
        ui.pump(3)
        for button in buttons(ui):
            assert button.font_size == app.fs_small < app.fs, (button.test_name,
                                                               button.font_size)
    finally:
        Window.size = (800, 480)
        ui.pump(3)


def test_new_season_colour_names_stay_on_one_line(ui) -> None:
    """The colour buttons are as wide as the widest colour name in the small size: drawn in
    it, every name is one line in every language."""
    app = ui.app
    try:
        for language in ("en", "zh_TW", "ko"):
            app.set_language(language)
            for button in _new_season_colours(ui):
                button.texture_update()
                assert button.texture_size[1] < button.font_size * 1.6, (language,
                                                                         button.text)
    finally:
        app.set_language("en")
