"""Six drivers fit (issue 10, point 3): at 800x480, in en, zh_TW and ko, every seat's gear
buttons are on screen at once (no scrolling), at least 48 px each way and apart, every name
whole (the font shrinks rather than the name being cut), in the gear panel and in the race
order; Legends are named by their colour beside a square swatch."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.ui.demo.table_shots import SIX, start
from companion.ui.widgets.lookup import find, walk
from companion.ui.widgets.measure import READABLE_PX

pytestmark = pytest.mark.ui

LONG_CJK = ("歐陽娜娜司馬長風上官婉兒", "남궁민수황보영희제갈공명", "Maximilianus",
            "Bartholomew", "Konstantinos", "Wilhelmina")
"""Twelve letters each, Chinese and Korean too."""


def _window_box(widget) -> tuple[float, float, float, float]:
    left, bottom = widget.to_window(widget.x, widget.y)
    return left, bottom, left + widget.width, bottom + widget.height


def _whole(label) -> bool:
    """The label's text is drawn whole inside it (not cut, not shortened)."""
    width, height = label.texture_size
    return (not label.shorten and width <= label.width + 1 and height <= label.height + 1
            and label.text)


def _check_gears(app, names) -> None:
    screen = app.sm.current_screen
    view = app.controller.view()
    assert view.mode == "gears" and len(view.gear_rows) == 6
    panel, box = screen.ids.panel, screen.ids.panel_box
    assert box.height >= panel.height - 0.5, "the gear panel needs scrolling"
    boxes = []
    for row in view.gear_rows:
        for gear in (1, 2, 3, 4):
            button = find(screen, f"gear {row.car} {gear}")
            left, bottom, right, top = _window_box(button)
            assert left >= 0 and bottom >= 0 and right <= 800 and top <= 480, button.test_name
            assert button.width >= 48 - 0.5 and button.height >= 48 - 0.5, button.test_name
            boxes.append((left, bottom, right, top))
        name = find(screen, f"driver {row.car}")
        assert name.text.replace("\n", "") == row.name and row.name in names
        assert _whole(name), (name.text, name.texture_size, name.size)
        assert name.font_size >= READABLE_PX, (name.text, name.font_size)
    for i, a in enumerate(boxes):  # no two buttons overlap
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] + 0.5 or b[2] <= a[0] + 0.5 or a[3] <= b[1] + 0.5 \
                or b[3] <= a[1] + 0.5


def _check_table(app) -> None:
    screen = app.sm.current_screen
    for row in app.controller.view().order:
        line = find(screen, f"order {row.car}")
        left, bottom, right, top = _window_box(line)
        assert left >= 0 and bottom >= 0 and right <= 800 + 0.5 and top <= 480 + 0.5
        name = find(screen, f"order name {row.car}")
        assert _whole(name), (name.text, name.texture_size, name.size)
        assert name.font_size >= READABLE_PX, (name.text, name.font_size)
        for column in ("space", "lap", "gear", "heat", "stress"):
            cell = find(screen, f"{column} {row.car}")
            assert cell.texture_size[0] <= cell.width + 1, (column, cell.text)


@pytest.mark.parametrize("names", [SIX, LONG_CJK], ids=["six", "twelve-letters"])
def test_six_drivers_fit_in_every_language(ui, names) -> None:
    app = ui.app
    start(app, names, 0)
    for language in ("en", "zh_TW", "ko"):
        app.set_language(language)
        ui.pump(3)
        _check_gears(app, names)
        _check_table(app)
    app.set_language("en")


def test_legends_are_named_by_their_colour(ui) -> None:
    from companion.ui.views.names import colour_name

    app = ui.app
    start(app, ("Maximilianus",), 5)
    for language in ("en", "ko"):
        app.set_language(language)
        ui.pump(3)
        screen = app.sm.current_screen
        legends = [r for r in app.controller.view().order if r.legend]
        assert len(legends) == 5
        for row in legends:
            name = find(screen, f"order name {row.car}")
            assert name.text == colour_name(row.car)
            assert _whole(name)
            swatch = find(screen, f"order {row.car}").children[-1].children[0]
            assert swatch.shape == "square"
        _check_table(app)
    app.set_language("en")


def _text_sizes(screen) -> list[tuple[float, str]]:
    """Every text the race screen shows now and its size in px: its labels and buttons, and
    the numbers drawn on the map."""
    from kivy.uix.label import Label

    sizes = [(float(w.font_size), getattr(w, "test_name", "") or w.text)
             for w in walk(screen) if isinstance(w, Label) and w.text and w.opacity > 0
             and w.width > 0 and w.height > 0 and w.get_root_window() is not None]
    sizes += [(size, f"map {text}") for text, size in screen.ids.map.texts]
    return sizes


def _corner_labels_inside_the_map(track_map) -> None:
    """Each corner's number and limit (a square and a ring, each 1.15 em) is drawn whole: the
    map is rendered into its own box, what falls outside is cut off."""
    from kivy.app import App

    from companion.ui.widgets.track_map import corner_label_size

    box = corner_label_size(App.get_running_app()) * 1.15
    left, bottom, right, top = track_map.x, track_map.y, track_map.right, track_map.top
    for number, (cx, cy) in track_map.corner_labels.items():
        assert cx - box - 1 >= left and cx + 1 + box <= right, f"corner {number} cut"
        assert cy - box / 2 >= bottom and cy + box / 2 <= top, f"corner {number} cut"


@pytest.mark.parametrize("names", [SIX, LONG_CJK], ids=["six", "twelve-letters"])
def test_no_text_of_the_race_screen_is_below_the_readable_floor(ui, names) -> None:
    """At 800x480 with six drivers, twelve-letter names and twelve-character Chinese and
    Korean names, in every language: no name, figure, header or map number under 14 px, at
    the gears and at the card keypad (a name too long for one line takes two)."""
    app = ui.app
    start(app, names, 0)
    screen = app.sm.current_screen
    for language in ("en", "zh_TW", "ko"):
        app.set_language(language)
        ui.pump(3)
        small = [s for s in _text_sizes(screen) if s[0] < READABLE_PX]
        assert not small, (language, small)
        assert screen.ids.map.texts, "the map drew no numbers"
        _corner_labels_inside_the_map(screen.ids.map)
        for row in app.controller.view().order:
            name = find(screen, f"order name {row.car}")
            assert _whole(name), (language, name.text, name.texture_size, name.size)
    app.set_language("en")
    for row in app.controller.view().gear_rows:
        ui.player.press(f"gear {row.car} 2")
    assert app.controller.view().mode == "reveal"
    for language in ("en", "zh_TW", "ko"):
        app.set_language(language)
        ui.pump(3)
        small = [s for s in _text_sizes(screen) if s[0] < READABLE_PX]
        assert not small, (language, small)
    app.set_language("en")


def test_the_heat_figures_say_what_they_are(ui) -> None:
    """Heat "6/7" (issue 10, point 9): a line under the race order says it is the Heat in the
    engine of all the car's Heat, whole, readable, under the last row, in every language."""
    from companion import i18n

    app = ui.app
    start(app, LONG_CJK, 0)
    screen = app.sm.current_screen
    for language in ("en", "zh_TW", "ko"):
        app.set_language(language)
        ui.pump(3)
        legend = find(screen, "order legend")
        assert legend.text == i18n._("Heat: in the engine / in all")
        if language != "en":
            assert legend.text != "Heat: in the engine / in all", "not translated"
        assert legend.texture_size[0] <= legend.width + 1, (language, legend.text)
        assert legend.font_size >= READABLE_PX
        left, bottom, right, top = _window_box(legend)
        assert left >= 0 and bottom >= 0 and right <= 800
        last = find(screen, f"order {app.controller.view().order[-1].car}")
        assert top <= _window_box(last)[1] + 0.5, "the legend is not under the rows"
        first = app.controller.view().order[0]
        assert find(screen, f"heat {first.car}").text == f"{first.engine}/{first.heat}"
    app.set_language("en")


def _next_gears_all_may_clog(ui, monkeypatch):
    """The race played to the next round's gears (the rulings of the round before shown),
    every driver then shown as one who may declare a clogged hand (late in a race)."""
    controller = ui.app.controller
    for _ in range(200):
        ui.player.step()
        if controller.view().mode == "gears" and controller.view().rulings:
            break
    plain = controller.view

    def clogging():
        view = plain()
        return replace(view, gear_rows=tuple(replace(r, can_clog=True)
                                             for r in view.gear_rows))

    monkeypatch.setattr(controller, "view", clogging)
    return controller


@pytest.mark.parametrize("names", [SIX, LONG_CJK], ids=["six", "twelve-letters"])
def test_six_drivers_who_may_declare_a_clogged_hand_fit(ui, names, monkeypatch) -> None:
    """Late in a race every driver may declare a clogged hand: each gear cell then has a
    Clogged button beside the name. All six cells still fit at 800x480 without scrolling
    (every gear and Clogged a whole touch target), and every name is whole: a Latin name on
    one line.
    Found by a table test: the names were split inside the word ("Maximi/lianus") and, with
    three rows of Clogged, the last row of gears hid under a scroll bar."""
    from companion.ui.widgets import text_cache

    app = ui.app
    start(app, names, 0)
    controller = _next_gears_all_may_clog(ui, monkeypatch)
    screen = app.sm.current_screen
    for language in ("en", "zh_TW", "ko"):
        app.set_language(language)
        screen = app.sm.current_screen
        screen.refresh()
        ui.pump(3)
        _check_gears(app, names)
        for row in controller.view().gear_rows:
            clog = find(screen, f"clogged {row.car}")
            left, bottom, right, top = _window_box(clog)
            assert left >= 0 and bottom >= 0 and right <= 800 and top <= 480
            assert clog.width >= 48 - 0.5 and clog.height >= 48 - 0.5
            assert clog.texture_size[0] <= clog.width + 1, (language, clog.text)
            name = find(screen, f"driver {row.car}")
            name.texture_update()
            lines = len(text_cache.renderer(name)._cached_lines)
            # a Latin name on one line (never split inside the word); twelve Chinese or
            # Korean letters may take the line's two
            assert lines == 1 or (lines == 2 and not name.text.isascii()), (
                language, name.text, name.font_size, name.width)
        # the ruling box gave the panel room, its sentences still whole
        messages = screen.ids.messages
        rulings = controller.view().rulings
        assert messages.shown and set(messages.shown) <= (
            {r.text for r in rulings} | {r.short for r in rulings if r.short})
        assert messages.texture_size[1] <= messages.height + 1
    app.set_language("en")


TABLE_TWELVE = ("제갈공명선생의후손이라네", "황보세종대왕님만세만만세", "김연아선수의피겨스케이팅",
                "諸葛孔明先生字臥龍南陽人", "歐陽明日香子美智惠理奈子", "Maximilianus")
"""A table test's twelve-letter names, Korean, Chinese and Latin."""


def test_a_long_name_beside_clogged_breaks_in_its_middle(ui, monkeypatch) -> None:
    """Beside Clogged (a table test, six drivers at 800x480, zh_TW after ko) a twelve-letter
    Korean name wrapped where its first line filled up, at 14 px: "제갈공명선생의후" /
    "손이라네". No layout keeps it on one line at the readable floor there (the cell is about
    200 px, Clogged at least 48, the name 168 at the floor; a line of its own above Clogged
    does not fit six drivers' cells): a Chinese or Korean name now breaks between the two
    letters nearest its middle ("제갈공명선생" / "의후손이라네"), each line whole, as large as
    the line allows; a Latin name stays whole on one line."""
    from companion.ui.widgets import text_cache

    app = ui.app
    start(app, TABLE_TWELVE, 0)
    controller = _next_gears_all_may_clog(ui, monkeypatch)
    for language in ("ko", "zh_TW", "en", "ko"):
        app.set_language(language)
        screen = app.sm.current_screen
        screen.refresh()
        ui.pump(3)
        for row in controller.view().gear_rows:
            find(screen, f"clogged {row.car}")  # beside the name
            name = find(screen, f"driver {row.car}")
            name.texture_update()
            lines = ["".join(word.text for word in line.words)
                     for line in text_cache.renderer(name)._cached_lines]
            where = (language, row.name, lines, name.font_size, name.width)
            assert "".join(lines) == row.name, where
            assert name.font_size >= READABLE_PX, where
            assert name.texture_size[0] <= name.width + 1, where
            if row.name.isascii():
                assert len(lines) == 1, where
            else:
                assert len(lines) == 2 and len(lines[0]) == len(lines[1]) == 6, where
    app.set_language("en")


SIX_CJK = ("歐陽娜娜司馬長風上官婉兒", "司馬長風上官婉兒歐陽娜娜", "上官婉兒歐陽娜娜司馬長風",
           "남궁민수황보영희제갈공명", "황보영희제갈공명남궁민수", "제갈공명남궁민수황보영희")


@pytest.mark.parametrize("language", ["zh_TW", "ko"])
def test_six_long_names_leave_the_map_room(ui, language: str) -> None:
    """Six twelve-letter Chinese and Korean names: on two lines each, the race order took
    the column and left the map a 60 px thumbnail whose corner markers sat on each other
    (found by a table test). The table now keeps to its share of the column
    (``TABLE_SHARE``): past it, a long name is cut on one line (the gear panel writes it
    whole). Two such names, with room to spare, are whole on one line."""
    from companion.ui.widgets import text_cache
    from companion.ui.widgets.race_table import MIN_NAME_FONT, TABLE_SHARE

    app = ui.app
    app.set_language(language)
    try:
        start(app, SIX_CJK, 0, track="japan")
        ui.pump(4)
        screen = app.sm.current_screen
        table, track_map = screen.ids.order, screen.ids.map
        column = table.parent.height
        assert table.height <= column * TABLE_SHARE + 1
        assert track_map.height >= column * 0.3 and track_map.spaces_left_out == []
        for car in app.controller.state.order:
            name = find(screen, f"order name {car}")
            name.texture_update()
            assert len(text_cache.renderer(name)._cached_lines) == 1, name.text
            assert name.font_size >= MIN_NAME_FONT
        start(app, SIX_CJK[:2], 0, track="japan")
        ui.pump(4)
        screen = app.sm.current_screen
        for car in app.controller.state.order:
            name = find(screen, f"order name {car}")
            name.texture_update()
            # whole on one line: the map's column widens for them (RaceScreen.share_columns;
            # in Korean it widened for no name that did not fit at the base share, and they
            # took two lines)
            lines = len(text_cache.renderer(name)._cached_lines)
            assert not name.shorten and not name.is_shortened and lines == 1
    finally:
        app.set_language("en")


def test_the_dials_sentence_leaves_every_gear_in_sight(ui, monkeypatch) -> None:
    """With a table's gear dials, the prompt says what the orange mark is: in Korean it
    grows to three lines. Late in a race, six drivers each with Clogged, the ruling box was
    sized for the shorter prompt (read before the longer one was laid out) and the last row
    of gears lay half under it (found by a table test). Every gear stays in sight whenever
    the prompt's words change."""
    app = ui.app
    start(app, LONG_CJK, 0)
    controller = _next_gears_all_may_clog(ui, monkeypatch)
    app.set_language("ko")
    try:
        screen = app.sm.current_screen
        screen.refresh()
        ui.pump(3)
        _check_gears(app, LONG_CJK)
        lines = find(screen, "prompt").height
        screen.show_dials({row.car: 1 for row in controller.view().gear_rows})  # a dial read
        ui.pump(3)
        assert find(screen, "prompt").height > lines  # the sentence is said: more lines
        _check_gears(app, LONG_CJK)
        screen.show_dials({})
        ui.pump(3)
        _check_gears(app, LONG_CJK)
        app.set_language("en")  # and a prompt laid out anew in other words
        ui.pump(3)
        _check_gears(app, LONG_CJK)
    finally:
        app.set_language("en")


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_car_out_keeps_its_mark_and_its_name_whole_or_cut_at_the_end(ui, language: str) -> None:
    """A car out of the race (Title sponsor withdraws) was listed as "{name} (out)": a long
    Latin name was broken inside ("Bartholome" / "us (out)"), and a Chinese or Korean one cut
    in the middle, which cut the mark itself ("諸葛…汰）", "제갈…락)": found by a table test).
    The mark then came first ("Out: {car}"), which took a long name's row two lines; it is in
    the Space column now, and the name column writes the name alone: six twelve-letter names,
    every car out, at 800x480: each row's Space cell says it is out, and no word of a Latin
    name is drawn on two lines."""
    from companion.i18n import _
    from companion.ui.widgets import text_cache

    app = ui.app
    app.set_language(language)
    try:
        start(app, LONG_CJK, 0)
        ui.pump(3)
        screen = app.sm.current_screen
        table = screen.ids.order
        rows = [replace(row, eliminated=True) for row in app.controller.view().order]
        table.show(rows, False)
        ui.pump(3)
        for row in rows:
            assert find(screen, f"space {row.car}").text == _("DNF")
            name = find(screen, f"order name {row.car}")
            assert name.text == row.label
            name.texture_update()
            lines = ["".join(word.text for word in line.words).replace("\u00a0", " ")
                     for line in text_cache.renderer(name)._cached_lines]
            for word in row.label.split(" "):
                if word.isascii():  # a Latin word: whole on a line, or cut at the name's end
                    assert any(word in line for line in lines) or (
                        name.is_shortened and len(lines) == 1), (word, lines)
            assert name.font_size >= READABLE_PX, (name.text, name.font_size)
    finally:
        app.set_language("en")


TWELVE_CJK = {
    "ko": ("남궁민수황보영희제갈공명", "김철수이영희박민수최지우", "정우성한지민송강호김혜수",
           "이병헌전도연손예진현빈이", "조인성송혜교유아인김고은", "강동원공유김태리류준열박"),
    "zh": ("歐陽娜娜司馬長風上官婉兒", "諸葛孔明司馬懿曹操劉備關", "張飛趙雲馬超黃忠魏延姜維",
           "孫權周瑜魯肅呂蒙陸遜甘寧", "曹丕曹植曹彰郭嘉荀彧賈詡", "袁紹袁術公孫瓚董卓呂布貂"),
}
"""Six twelve-character Korean names, six Chinese."""


@pytest.mark.parametrize("names", list(TWELVE_CJK), ids=list(TWELVE_CJK))
def test_six_twelve_character_names_are_whole_in_the_race_order(ui, names: str) -> None:
    """Six drivers of twelve Korean (or Chinese) characters, picking gears at 800x480: the race
    order cut every name ("강동…열박") in en and ko, its name column 128 px where a name needs
    169 at the readable floor (found by a table test). Every name is whole on one line, at the
    floor or larger, the gear buttons and their names as before, in en, zh_TW and ko."""
    app = ui.app
    start(app, TWELVE_CJK[names], 0)
    try:
        for language in ("en", "zh_TW", "ko"):
            app.set_language(language)
            ui.pump(3)
            _check_gears(app, TWELVE_CJK[names])
            _check_table(app)
            for row in app.controller.view().order:
                name = find(app.sm.current_screen, f"order name {row.car}")
                assert name.texture_size[1] < 2 * name.font_size, (language, name.text)
    finally:
        app.set_language("en")


TWELVE_LATIN = ("Maximilianus", "Bartholomeus", "Konstantinos", "Wilhelminaas", "Evangelinaaa",
                "Christophers")
"""Six twelve-letter Latin names."""


@pytest.mark.parametrize("names", [*TWELVE_CJK, "latin"], ids=[*TWELVE_CJK, "latin"])
def test_six_twelve_character_names_are_whole_beside_the_sponsors_column(ui, names: str) -> None:
    """As :func:`test_six_twelve_character_names_are_whole_in_the_race_order`, in a race with
    Sponsorship (every championship race: the race order's seventh column, "Spons."): every
    Korean or Chinese name was cut ("남궁민…제갈공명") in en, zh_TW and ko, its room 126 px
    (en), 132 (ko), 167 (zh_TW) where a name needs 169 at the readable floor. Every name is
    whole on one line, every value cell whole, the gear buttons and their names as before."""
    from test_modules_ui import _sponsors_race

    app = ui.app
    drivers = TWELVE_LATIN if names == "latin" else TWELVE_CJK[names]
    assert len(drivers) == 6
    _sponsors_race(ui, drivers, legends=0)
    try:
        for language in ("en", "zh_TW", "ko"):
            app.set_language(language)
            ui.pump(3)
            assert app.controller.view().sponsors
            _check_gears(app, drivers)
            _check_table(app)
            for row in app.controller.view().order:
                name = find(app.sm.current_screen, f"order name {row.car}")
                assert name.texture_size[1] < 2 * name.font_size, (language, name.text)
                cell = find(app.sm.current_screen, f"sponsors {row.car}")
                assert cell.texture_size[0] <= cell.width + 1, (language, cell.text)
            _check_titles(app, language)
    finally:
        app.set_language("en")


def _check_titles(app, language: str) -> None:
    """Every column's title whole, inside the table, no two drawn over each other, centred
    over its column; a tap on the header still says what "Spons." counts."""
    from companion.ui.widgets.basic import current_hint

    screen = app.sm.current_screen
    table = screen.ids.order
    left, _bottom, right, _top = _window_box(table)
    boxes = []
    for title in table.header_labels[1:]:
        title.texture_update()
        width, height = title.texture_size
        x, y = title.to_window(title.center_x, title.center_y)
        box = (x - width / 2, y - height / 2, x + width / 2, y + height / 2)
        assert left - 0.5 <= box[0] and box[2] <= right + 0.5, (language, title.text)
        assert height <= title.height + 1 and "\n" not in title.text, (language, title.text)
        boxes.append((title.text, box))
    for i, (text, a) in enumerate(boxes):
        for other, b in boxes[i + 1:]:
            assert a[2] <= b[0] + 0.5 or a[3] <= b[1] + 0.5 or b[3] <= a[1] + 0.5, (
                language, text, other)
    screen.explain_columns()
    said = {"en": "Spons.: the Sponsorship cards the driver has won.",
            "zh_TW": "贊助：車手贏得的贊助卡。", "ko": "스폰서: 드라이버가 얻은 스폰서 카드."}
    assert current_hint().text.endswith(said[language])
