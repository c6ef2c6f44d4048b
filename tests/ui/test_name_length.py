"""A driver's name holds 12 letters (a Chinese or Korean letter is one), the length every screen
is made and tested for; a season's name holds 20, what the Championship list, the Standings'
title and New season's name field show whole at 800x480 in every language. Before, both took
any length: random taps typed a 40-letter name, cut with "…" in the race order and the status
line. A key, a paste or an input method's letter that would go past it adds nothing (a paste:
what fits of its start), and the screen says why in the table's language where New race and
New season say why a name cannot stand (above the drivers; a season's name at the foot of the
form). A name stored longer (an older log, a race file, a Garage draft taken up) is kept and
shown as before."""

from __future__ import annotations

from typing import Any

import pytest
from test_setup_screens import layout_problems

from companion.ui.widgets.lookup import find

pytestmark = pytest.mark.ui

LANGUAGES = ("en", "zh_TW", "ko")
TWELVE = {"en": ("Maximilianus", "Bartholomäus", "Christabella", "Konstantinos",
                 "Wilhelminaxx", "Evangelineee"),
          "zh_TW": ("歐陽娜娜司馬長風上官婉兒", "諸葛孔明臥龍先生南陽人士",
                    "令狐沖華山派大師兄弟子們", "東方不敗教主日月神教黑木",
                    "慕容復燕國後人姑蘇參合莊", "上官婉兒唐朝才女大詩人呢"),
          "ko": ("황보세종대왕님만세만만세", "남궁민수선생님의둘째아들",
                 "제갈공명선생의후손이라네", "이순신장군님의바다이야기",
                 "김연아선수의피겨스케이팅", "박지성선수의축구이야기들")}
"""Six names of twelve letters in each language's script: typed with three letters more."""
MORE = {"en": "xyz", "zh_TW": "王小明", "ko": "김연아"}
SAID = {"en": "A driver's name holds up to 12 letters.",
        "zh_TW": "車手名稱最多 12 個字。",
        "ko": "드라이버 이름은 12자까지 쓸 수 있습니다."}
SEASON_SAID = {"en": "A season's name holds up to 20 letters.",
               "zh_TW": "賽季名稱最多 20 個字。",
               "ko": "시즌 이름은 20자까지 쓸 수 있습니다."}
DRIVERS = {"en": "Drivers: 6", "zh_TW": "車手：6", "ko": "드라이버: 6"}
SEASONS = {"en": "Wednesday Night Championship of the Friends",
           "zh_TW": "二〇二六年秋季朋友們的大獎賽冠軍爭奪戰真的很長",
           "ko": "이천이십육년가을친구들의그랑프리챔피언결정전입니다"}
"""Season names of 24 letters and more."""


@pytest.fixture
def app800(ui: Any) -> Any:
    from kivy.core.window import Window

    if tuple(Window.size) != (800, 480):  # another test module may have resized it
        Window.size = (800, 480)
        ui.pump(3)
    return ui.app


def test_letters_are_counted_as_the_name_is_kept() -> None:
    """Spaces at the ends are not kept (``Driver.stored_name``), so not counted; a run of
    spaces inside is one; a Chinese or Korean letter is one, a Korean syllable typed as its
    parts too, an accent typed after its letter none."""
    from companion.ui.views.name_length import fitting, letters

    assert {letters(name) for names in TWELVE.values() for name in names} == {12}
    assert letters("  Ana   Maria ") == len("Ana Maria") == 9
    assert letters("歐陽娜娜司馬長風上官婉兒") == letters("황보세종대왕님만세만만세") == 12
    assert letters("\u1100\u1161\u11a8") == letters("각") == 1  # ㄱ ㅏ ㄱ as parts
    assert letters("Jose\u0301") == letters("José") == 4
    assert fitting("Maximilian", 10, "us", 12) == "us"
    assert fitting("Maximilianus", 12, "x", 12) == ""
    assert fitting("Maximilianus", 12, " ", 12) == ""  # a space beside a full name: no
    assert fitting("Maximilian", 10, "́", 12) == "́"  # an accent: no letter
    assert fitting("Maxi", 4, "milianus the Great", 12) == "milianus"
    assert fitting(" Ana", 0, "  ", 12) == "  "  # spaces at the start are not kept
    assert fitting("歐陽", 0, "上官婉兒唐朝才女詩人呢", 12) == "上官婉兒唐朝才女詩人"
    stored = "Maximilianus Konstantinos"  # stored longer: may be shortened, not lengthened
    assert fitting(stored, len(stored), "x", 12) == ""
    assert fitting(stored[:-1], len(stored) - 1, "s", 12) == ""


def _typed(ui: Any, field: Any, text: str) -> None:
    """``text`` typed into ``field`` key by key, as the touchscreen's keyboard types it
    (SDL's text input, to ``keyboard_on_textinput``)."""
    from kivy.core.window import Window

    field.focus = True
    ui.pump(1)
    for letter in text:
        field.keyboard_on_textinput(Window, letter)
    ui.pump(1)


def _six_drivers(ui: Any, screen_name: str) -> Any:
    app = ui.app
    app.show("start")
    if screen_name == "newrace":
        ui.player.press("new race")
    else:
        ui.player.press("championship")
        ui.player.press("season 1961")
        for _ in range(2):
            ui.player.press("legends minus")
    screen = app.sm.current_screen
    while len(screen.form.drivers) < 6:
        ui.player.press("add driver")
    ui.pump(2)
    return screen


def _title(screen: Any) -> tuple[str, str]:
    title = find(screen, "drivers title")
    return title.text, title.tone


@pytest.mark.parametrize("screen_name", ["newrace", "newseason"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_thirteenth_letter_is_refused_and_said(ui, app800, language: str,
                                                 screen_name: str) -> None:
    """Each of six drivers' names typed key by key with three letters more than twelve, in
    the language's script: the name holds its first twelve, the form keeps those, and above
    the names the table reads why, in its language, in the warning colour (Start race and
    Create season stay usable: the names stand). A letter taken away, the title counts the
    drivers again. Nothing on the screen is cut or overlaps with the words showing."""
    app = app800
    app.set_language(language)
    screen = _six_drivers(ui, screen_name)
    for index, name in enumerate(TWELVE[language]):
        field = find(screen, f"name {index}")
        _typed(ui, field, name + MORE[language])
        assert field.text == name, (index, field.text)
        assert screen.form.drivers[index].stored_name == name
        assert _title(screen) == (SAID[language], "warn"), index
    go = find(screen, "start race" if screen_name == "newrace" else "create season")
    assert not go.disabled
    field.focus = False
    ui.pump(3)
    assert layout_problems(app, f"{screen_name} refused [{language}]") == []
    field.focus = True
    ui.pump(1)
    field.cursor = (len(field.text), 0)
    field.do_backspace()
    ui.pump(1)
    assert field.text == TWELVE[language][5][:-1]
    assert _title(screen) == (DRIVERS[language], "accent")
    _typed(ui, field, MORE[language])  # one more fits, then the refusal is said again
    assert field.text == TWELVE[language][5][:-1] + MORE[language][0]
    assert _title(screen) == (SAID[language], "warn")
    find(screen, "name 0").text = "Ana"  # another name changed: said no more
    assert _title(screen) == (DRIVERS[language], "accent")
    app.set_language("en")


@pytest.mark.parametrize("screen_name", ["newrace", "newseason"])
def test_a_long_paste_keeps_what_fits_and_says_why(ui, app800, screen_name: str) -> None:
    """A name pasted (Kivy's paste: the clipboard into the field) keeps the first twelve
    letters of a longer one, in every script, and says why; pasted into the middle of a name,
    only what fits goes in."""
    from kivy.core.clipboard import Clipboard

    app = app800
    screen = _six_drivers(ui, screen_name)
    for index, language in enumerate(LANGUAGES):
        app.set_language(language)
        ui.pump(1)
        field = find(screen, f"name {index}")
        field.focus = True
        ui.pump(1)
        Clipboard.copy(TWELVE[language][1] + TWELVE[language][2])
        field.paste()
        ui.pump(1)
        assert field.text == TWELVE[language][1], (language, field.text)
        assert _title(screen) == (SAID[language], "warn")
    app.set_language("en")
    ui.pump(2)
    field = find(screen, "name 3")
    _typed(ui, field, "Maxianus")
    field.cursor = (3, 0)
    Clipboard.copy("imilian")
    field.paste()
    ui.pump(1)
    assert field.text == "Maximilianus"  # "Max" + "imil" (of "imilian") + "ianus"
    assert _title(screen) == (SAID["en"], "warn")


@pytest.mark.parametrize("screen_name", ["newrace", "newseason"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_letter_refused_beside_a_clash_keeps_the_clash_said(ui, app800, language: str,
                                                               screen_name: str) -> None:
    """Two of six drivers named the same: the title says so, Start race (Create season) is
    greyed. A thirteenth letter typed in another name replaced that by the refusal, the
    clash that blocks Start race said only by the red frames and a tap on the greyed button
    (found by a table test). The title keeps the clash now and the refusal is said on a line
    under the names, both whole, nothing cut or overlapping at 800x480 in every language;
    the refusal goes with the next change to a name, the clash once it is mended."""
    app = app800
    app.set_language(language)
    screen = _six_drivers(ui, screen_name)
    names = list(TWELVE[language])
    names[3] = names[0]
    for index, name in enumerate(names):
        find(screen, f"name {index}").text = name
    clash = screen.form.name_clash()
    assert clash is not None and clash.drivers == (0, 3)
    go = find(screen, "start race" if screen_name == "newrace" else "create season")
    assert go.disabled and go.why_disabled == clash.why
    field = find(screen, "name 4")
    _typed(ui, field, MORE[language])
    assert field.text == names[4]
    assert _title(screen) == (clash.said, "warn")  # the clash kept
    refused = find(screen, "refused name")
    assert refused.text == SAID[language] and refused.tone == "warn"  # and the refusal said
    assert go.disabled and go.why_disabled == clash.why
    field.focus = False
    ui.pump(3)
    assert refused.height > 0 and refused.texture_size[1] <= refused.height
    assert refused.to_window(*refused.pos)[1] >= go.to_window(go.x, go.top)[1]  # clear of it
    assert layout_problems(app, f"{screen_name} clash refused [{language}]") == []
    field.focus = True
    ui.pump(1)
    field.cursor = (len(field.text), 0)
    field.do_backspace()
    ui.pump(1)
    assert _title(screen) == (clash.said, "warn") and refused.text == ""
    _typed(ui, field, MORE[language])
    assert refused.text == SAID[language]
    find(screen, "name 3").text = TWELVE[language][3]  # the clash mended
    ui.pump(2)
    assert _title(screen) == (DRIVERS[language], "accent") and refused.text == ""
    assert not go.disabled
    _typed(ui, find(screen, "name 2"), MORE[language])  # no clash: said in the title
    assert _title(screen) == (SAID[language], "warn") and refused.text == ""
    app.set_language("en")


def test_a_korean_syllable_composed_past_twelve_is_not_drawn(ui, app800) -> None:
    """A Korean keyboard's input method draws the syllable being composed in the field
    ("ㅌ", "타", "탁") before it is typed: with eleven letters the twelfth is composed and
    typed; with twelve, the next is not drawn at all, and the refusal is said."""
    from kivy.core.window import Window

    app = app800
    app.set_language("ko")
    screen = _six_drivers(ui, "newrace")
    field = find(screen, "name 0")
    _typed(ui, field, "가나다라마바사아자차카")
    for composing in ("ㅌ", "타", "탁"):
        field.window_on_textedit(Window, composing)
        assert field.text == "가나다라마바사아자차카" + composing
    field.keyboard_on_textinput(Window, "탁")  # SDL: the syllable typed, then the drawing ends
    field.window_on_textedit(Window, "")
    assert field.text == "가나다라마바사아자차카탁"
    assert _title(screen) == (DRIVERS["ko"], "accent")
    for composing in ("ㅎ", "하"):
        field.window_on_textedit(Window, composing)
        assert field.text == "가나다라마바사아자차카탁"
        assert _title(screen) == (SAID["ko"], "warn")
    field.keyboard_on_textinput(Window, "하")
    field.window_on_textedit(Window, "")
    assert field.text == "가나다라마바사아자차카탁"
    app.set_language("en")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_season_s_name_holds_twenty_letters(ui, app800, language: str) -> None:
    """A custom season's name typed past twenty letters keeps twenty; the foot of the form,
    where New season says why it cannot go on, says why in the table's language until the
    name or a driver's changes; the name is written whole in its field, and the season is
    stored with it."""
    from kivy.core.text import Label as CoreLabel

    from companion.ui.widgets.measure import READABLE_PX

    app = app800
    app.set_language(language)
    app.show("start")
    ui.player.press("championship")
    ui.player.press("custom season")
    screen = app.sm.current_screen
    field = find(screen, "season name")
    _typed(ui, field, SEASONS[language])
    assert field.text == SEASONS[language][:20]
    assert find(screen, "problem").text == SEASON_SAID[language]
    field.focus = False
    ui.pump(3)
    assert field.font_size >= READABLE_PX
    wide = CoreLabel(font_size=field.font_size).get_extents(field.text)[0]
    assert wide < field.width - field.padding[0] - field.padding[2], (wide, field.width)
    assert layout_problems(app, f"newseason refused [{language}]") == []
    _typed(ui, find(screen, "name 0"), "Ana")  # another name typed: said no more
    assert find(screen, "problem").text == ""
    _typed(ui, find(screen, "name 1"), TWELVE[language][1] + MORE[language])
    assert find(screen, "problem").text == ""  # only the last refusal is said
    assert _title(screen) == (SAID[language], "warn")
    _typed(ui, field, "x")
    assert find(screen, "problem").text == SEASON_SAID[language]
    assert _title(screen)[1] == "accent"
    field.focus = True
    ui.pump(1)
    field.cursor = (len(field.text), 0)
    field.do_backspace()
    ui.pump(1)
    assert find(screen, "problem").text == ""
    _typed(ui, field, SEASONS[language][19])
    ui.player.press("create season")
    assert app.sm.current == "standings"
    stored = app.season_store().season(app.season_id).season.definition
    assert stored.name == SEASONS[language][:20]
    app.set_language("en")


WIDE = {"en": "WMWMWMWMWMWMWMWMWMWM", "zh_TW": SEASONS["zh_TW"][:20],
        "ko": SEASONS["ko"][:20]}
"""Season names of twenty letters, the widest each script writes."""


@pytest.mark.parametrize("language", LANGUAGES)
def test_twenty_letters_of_a_season_s_name_are_whole_where_it_is_shown(ui, app800,
                                                                        language: str) -> None:
    """Why twenty: a season named with twenty of a script's widest letters is written whole
    at 800x480 in the Championship list (its line beside "race 12 of 12 under way", the
    longest a season's state says, on one line: the three leaders take the row's other two),
    and in the Standings' title, both while the season runs and with a twelve-letter
    champion, on one line at the readable floor or larger."""
    from companion.championship import parse_season
    from companion.engine import CarEntry
    from companion.i18n import _
    from companion.i18n.counts import fill_kept
    from companion.ui.screens.seasons import season_status
    from companion.ui.widgets import text_cache
    from companion.ui.widgets.measure import READABLE_PX
    from companion.ui.widgets.text_fit import FIT

    app = app800
    app.set_language(language)
    name = WIDE[language]
    definition = parse_season({"format": "heat-season/1", "id": "custom", "name": name,
                               "races": [{"track": "usa"}] * 12})
    cars = tuple(CarEntry(colour, name=driver) for colour, driver in
                 zip(("red", "blue", "green"), TWELVE[language], strict=False))
    season_id = app.season_store().create_season(definition, cars)
    app.show("seasons")
    ui.pump(3)
    row = find(app.sm.current_screen, f"open season {season_id}").parent.children[-1]

    class Running:
        started, races = 12, 12

    line = _("{season}  ({status})").format(season=name,
                                            status=season_status(Running, True))
    assert FIT.width(line, row.font_size) <= row.width, (line, row.width)
    app.season_id = str(season_id)
    standings = app.show("standings")
    ui.pump(3)
    title = standings.ids.title
    champion = fill_kept(_("{season} champion: {car}, {points} point(s)."), season=name,
                         car=TWELVE[language][0], points=188)
    for text in (title.text, champion):
        assert FIT.width(text, READABLE_PX) <= title.width, text
    title.texture_update()
    lines = len(text_cache.renderer(title)._cached_lines)
    assert title.font_size >= READABLE_PX and lines == 1, (title.text, title.font_size)
    app.set_language("en")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_name_stored_longer_is_kept_and_shown_cut(ui, language: str) -> None:
    """A race stored with a 40-letter name (an older log, a race file's cars) opens after a
    restart with the name as stored; the race order shows it cut with "…" as before. On New
    race, a form holding a longer name (a Garage draft taken up) shows it as it is: a letter
    more is refused, one less is taken."""
    from companion.ui.demo.table_shots import start

    long_name = TWELVE[language][0] * 3 + TWELVE[language][1][:4]
    app = ui.app
    start(app, (long_name, TWELVE[language][1]), 0)
    ui.pump(2)
    app = ui.restart()
    app.set_language(language)
    ui.player.press("continue")
    ui.pump(3)
    assert app.sm.current == "race"
    assert {car.id: car.name for car in app.controller.state.cars}["red"] == long_name
    shown = find(app.sm.current_screen, "order name red")
    shown.texture_update()
    assert shown.text == long_name and shown.is_shortened
    exported = app.session.export()  # the race file the table would export
    assert {car["id"]: car.get("name") for car in exported["cars"]}["red"] == long_name
    app.show("start")
    ui.player.press("new race")
    if app.sm.current != "newrace":  # a race is unfinished: New race asks first
        ui.player.press("new race anyway")
    screen = app.sm.current_screen
    screen.form.drivers[0].name = long_name
    screen.refresh()
    field = find(screen, "name 0")
    assert field.text == long_name
    _typed(ui, field, "x")
    assert field.text == long_name and _title(screen)[1] == "warn"
    field.cursor = (len(field.text), 0)
    field.do_backspace()
    assert screen.form.drivers[0].name == long_name[:-1]
    app.set_language("en")


def test_a_race_file_s_long_name_replays_unchanged() -> None:
    """A race file's names have no length limit (``docs/race-file.md``, a contract): the
    documented sample with a 40-letter name replays to the same state, the name as given."""
    import json
    from pathlib import Path

    from companion import racefile

    path = Path(__file__).parents[2] / "docs" / "race-files" / "usa-first-rounds.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    long_name = "Maximilianus" * 3 + "Anna"
    states = []
    for name in ("Ana", long_name):
        doc["cars"][0]["name"] = name
        *_, final = racefile.replay(racefile.parse(doc))
        assert {car.id: car.name for car in final.cars}["red"] == name
        states.append(racefile.state_document(final))
    assert states[0] == states[1]
