"""The race screen read across a table at 800x480: the outcome sentences at body size in full
contrast on the dark theme, and race order headers never cut short in any language."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.i18n import _
from companion.ui.widgets.lookup import find

pytestmark = pytest.mark.ui


def _luminance(colour: tuple[float, ...]) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg: tuple[float, ...], bg: tuple[float, ...]) -> float:
    """WCAG 2 contrast ratio (1-21)."""
    light, dark = sorted((_luminance(fg), _luminance(bg)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_outcome_text_is_body_size_high_contrast_and_fits(ui, press) -> None:
    app = ui.app
    assert app.theme_name == "dark"
    assert app.root_window.size == (800, 480)
    ui.player.set_up_race()
    press("start race")
    while app.controller.view().mode != "react":
        ui.player.step()
    ui.pump(3)
    screen = app.sm.current_screen
    messages = find(screen, "messages")
    assert len(app.controller.messages) >= 2
    assert messages.shown == app.controller.messages  # every sentence, whole
    assert messages.left_out == 0
    assert messages.font_size >= app.fs
    assert contrast(messages.color, app.c_bg) >= 7.0  # WCAG AAA body text
    assert contrast(app.c_warn, app.c_bg) >= 4.5  # a refusal, in the same box
    assert messages.texture_size[0] <= messages.width + 1
    assert messages.texture_size[1] <= messages.height + 1  # nothing to scroll
    left, bottom = messages.to_window(messages.x, messages.y)
    assert left >= 0 and bottom >= 0
    assert left + messages.width <= 800 and bottom + messages.height <= 480


def _headers(screen):
    from kivy.core.text import Label as CoreLabel

    for label in screen.ids.order.header_labels:
        width = CoreLabel(font_size=label.font_size).get_extents(label.text)[0]
        yield label.text, width, label.width - 2 * label.padding_x


@pytest.mark.parametrize("modules", [False, True], ids=["plain", "sponsors"])
def test_race_order_headers_are_never_cut_short(ui, press, modules: bool) -> None:
    app = ui.app
    ui.player.set_up_race()
    if modules:
        press("more options")
        press("event next")  # an event: the race order gains the Sponsors column
    press("start race")
    assert app.sm.current == "race"
    screen = app.sm.current_screen
    assert app.controller.view().sponsors is modules
    for language in ("en", "zh_TW", "ko"):
        app.set_language(language)
        ui.pump(3)
        headers = list(_headers(screen))
        assert len(headers) == (7 if modules else 6)
        for text, needed, room in headers:
            assert text and needed <= room + 0.5, (language, text, needed, room)
        for row in app.controller.view().order:  # the cells share the header's width
            heat = find(screen, f"heat {row.car}")
            assert heat.texture_size[0] <= heat.width
    i18n.set_language("en")


def test_a_column_keeps_its_width_when_its_widest_cell_narrows(ui) -> None:
    """A value column grows to its widest cell and keeps that width for the race: cars that
    leave the grid ("69 out") for the first spaces ("6 RL") move no column (so the names'
    room stays: no name is laid out or rendered again for it). A new race (other cars) or
    other words start the widths afresh."""
    from dataclasses import replace

    from companion.ui.views.race_view import OrderRow
    from companion.ui.widgets.race_table import RaceTable
    from companion.ui.widgets.text_fit import FIT

    app = ui.app
    table = RaceTable(size_hint=(None, None), width=360)
    size = app.fs_small

    def rows(cars: tuple[str, ...], space: int, race_line: bool) -> list[OrderRow]:
        return [OrderRow(car=car, name=car, label=car.title(), position=place, legend=False,
                         lap=0, gear=1, engine=6, heat=7, stress_taken=0,
                         finished_place=None, current=place == 1, space=space - place,
                         race_line=race_line)
                for place, car in enumerate(cars, start=1)]

    def space_width() -> float:
        return float(table.header_labels[1].width)

    def needed() -> float:
        cells = [cells[0].text for _line, _swatch, _name, cells in table._rows]
        return max(FIT.width(text, size) for text in (_("Space"), *cells)) + size * 0.2

    cars = ("red", "blue", "green")
    table.show(rows(cars, 70, False), False)  # "69 out", "68 out", "67 out"
    grid = space_width()
    assert grid == needed()
    table.show(rows(cars, 9, True), False)  # "8 RL", "7 RL", "6 RL"
    assert needed() < grid and space_width() == grid  # narrower cells, the same column
    table.show(rows(("red", "blue", "yellow"), 9, True), False)  # another race's cars
    assert space_width() == needed() < grid
    table.show([replace(row, lap=1) for row in rows(cars, 9, True)], False)
    assert space_width() == needed()
    app.set_language("ko")  # other words: as wide as they need
    table.show(rows(cars, 70, False), False)
    korean = space_width()
    assert korean == needed() != grid
    i18n.set_language("en")


def test_a_latin_name_of_one_word_is_cut_not_split(ui) -> None:
    """A race-order name too long for one line at the floor takes two lines, but a Latin
    name of one word was split inside the word ("Bartholome/us"): it is cut instead; a
    Chinese name, or a name of two words, still takes two lines."""
    from companion.ui.widgets.race_table import MIN_NAME_FONT, name_font
    from companion.ui.widgets.text_fit import FIT

    room = FIT.width("Bartholome", MIN_NAME_FONT)
    assert name_font("Bartholomeus", 15, room) == (MIN_NAME_FONT, 0)
    assert name_font("Lucia Maria Anna Rosa", 15, FIT.width("Lucia Maria", 15) + 1)[1] == 2
    chinese = "歐陽娜娜司馬長風上官婉兒"
    assert name_font(chinese, 15, FIT.width(chinese, MIN_NAME_FONT) / 2 + 15)[1] == 2


def test_the_values_font_is_chosen_anew_at_another_width(ui) -> None:
    """The values' font steps down while the names lack room, and keeps its size for the
    race at one width. It was kept from the table's first fit at Kivy's default 100 px: at
    1280x720 the values read at the floor's size beside "Ana" and "Ben". At a new width the
    font is chosen anew: the table's own size when the names have room."""
    from companion.ui.views.race_view import OrderRow
    from companion.ui.widgets.race_table import MIN_NAME_FONT, RaceTable

    app = ui.app
    size = app.fs_small
    assert size > MIN_NAME_FONT + 0.5  # else no step to see
    table = RaceTable(size_hint=(None, None), width=100)
    rows = [OrderRow(car=car, name=car.title(), label=car.title(), position=place,
                     legend=False, lap=0, gear=1, engine=6, heat=7, stress_taken=0,
                     finished_place=None, current=place == 1, space=70 - place,
                     race_line=False)
            for place, car in enumerate(("red", "blue"), start=1)]
    table.show(rows, True)
    cells = table._rows[0][3]
    assert cells[0].font_size == MIN_NAME_FONT  # 100 px: no room, the floor
    table.width = 600
    assert [cell.font_size for cell in cells] == [size] * len(cells)
    assert table.header_labels[1].font_size == size
