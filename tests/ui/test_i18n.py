"""Catalogs are complete, compiled and current; every screen shows only translated text."""

from __future__ import annotations

import gettext
import re
import string
import unicodedata

import pytest

from companion import i18n
from companion.i18n import extract
from companion.i18n.pofile import compile_mo, read_po

TRANSLATED = ("zh_TW", "ko")


def _fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_msgid_has_a_translation_with_the_same_fields(language: str) -> None:
    catalog = read_po(extract.po_path(language).read_text(encoding="utf-8"))
    used = extract.messages()
    assert len(used) > 100
    missing = [m for m in used if not catalog.messages.get(m)]
    assert missing == []
    for msgid in used:
        assert _fields(catalog.messages[msgid]) == _fields(msgid), msgid


RACE_SCREEN_BUTTONS = ("Undo", "Redo", "Menu", "Cancel", "End turn", "Next round", "Results")
"""Buttons the race screen can show at once: no two may read alike in any language (Korean
had Undo and the Boost keypad's Cancel both as 취소)."""


@pytest.mark.parametrize("language", TRANSLATED)
def test_buttons_shown_together_have_distinct_labels(language: str) -> None:
    catalog = read_po(extract.po_path(language).read_text(encoding="utf-8"))
    labels = [catalog.messages[msgid] for msgid in RACE_SCREEN_BUTTONS]
    assert len(set(labels)) == len(labels), dict(zip(RACE_SCREEN_BUTTONS, labels, strict=True))
    undo = catalog.messages["Undo"]  # the sentences about Undo name it as its button does
    assert undo in catalog.messages["Nothing to redo: Redo brings back an input Undo took back."]


def test_the_tournament_variant_is_not_called_the_championship() -> None:
    """Two different things (the tournament variant's gears, docs/rules.md §1.13; a season of
    races): the Chinese module notes call the variant 競賽模式 and the championship 錦標賽."""
    for language in TRANSLATED:
        catalog = read_po(extract.po_path(language).read_text(encoding="utf-8"))
        championship = catalog.messages["Championship"]
        for msgid in ("Tournament gears", "Reveal the gear first (tournament mode)."):
            assert championship not in catalog.messages[msgid], (language, msgid)
    catalog = read_po(extract.po_path("zh_TW").read_text(encoding="utf-8"))
    assert "競賽模式" in catalog.messages["Tournament gears"]


def test_korean_names_a_space_by_its_number_not_as_a_count() -> None:
    """'23칸' reads as 'twenty-three spaces' (a count, as in '4칸 더'); a car's place is
    '23번 칸' (space number 23), else 'Ana: 23칸' reads as a move."""
    catalog = read_po(extract.po_path("ko").read_text(encoding="utf-8"))
    places = [m for m in catalog.messages if re.search(r"\b(to|on|at) space \{space\}", m)
              or m.startswith("{car} back to space {space}")]
    assert len(places) >= 5
    for msgid in places:
        assert "{space}번 칸" in catalog.messages[msgid], msgid
        assert "{space}칸" not in catalog.messages[msgid], msgid


def test_korean_says_seat_and_spot_with_different_words() -> None:
    """자리 is a seat at the table (the hardware's seats); a spot on a space (the Race Line or
    the other one, a grid spot, a gravel spot) is 위치: one word for both read alike."""
    catalog = read_po(extract.po_path("ko").read_text(encoding="utf-8"))
    seats = [m for m in catalog.messages if "seat" in m.lower()]
    assert len(seats) >= 5
    for msgid in seats:
        assert "자리" in catalog.messages[msgid], msgid
    for msgid, text in catalog.messages.items():
        if "자리" in text:
            assert "seat" in msgid.lower(), msgid
    spots = [m for m in catalog.messages if re.search(r"\bspots?\b", m, re.IGNORECASE)
             and "{spot}" not in m]
    assert len(spots) >= 3
    for msgid in spots:
        assert "위치" in catalog.messages[msgid], msgid


def test_chinese_addresses_the_players_one_way() -> None:
    """The table is addressed as 你 throughout (a game among friends), never 您."""
    catalog = read_po(extract.po_path("zh_TW").read_text(encoding="utf-8"))
    assert sum("你" in text for text in catalog.messages.values()) >= 3
    assert [m for m, text in catalog.messages.items() if "您" in text] == []


def test_catalogs_are_up_to_date_with_the_sources() -> None:
    assert extract.main(["--check"]) == 0


@pytest.mark.parametrize("language", TRANSLATED)
def test_mo_agrees_with_po(language: str) -> None:
    po = extract.po_path(language)
    catalog = read_po(po.read_text(encoding="utf-8"))
    mo = po.with_suffix(".mo")
    assert mo.read_bytes() == compile_mo(catalog, language=language)
    with mo.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for msgid, msgstr in catalog.messages.items():
        assert compiled.gettext(msgid) == msgstr


INVISIBLE_ALLOWED: dict[str, str] = {}
"""Invisible characters a catalog may hold on purpose, each with why. None so far: where a
line must not break at a space (a number and its words), the code says so
(``counts.fill_kept``, ``line_breaks.kept_numbers``), not a character no translator sees."""


def invisible(char: str) -> bool:
    """A character that shows nothing or nothing but a gap, other than the ASCII space and the
    line break: no-break and other spaces, zero-width characters and joiners, soft hyphens,
    direction marks, control, private-use and unassigned characters, combining marks."""
    if char in " \n":
        return False
    return unicodedata.category(char) in {"Zs", "Zl", "Zp", "Cc", "Cf", "Co", "Cn", "Mn", "Me"}


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_catalog_holds_an_invisible_character(language: str) -> None:
    """The Korean Sponsorship line held a no-break space inside "스폰서 카드", which no one
    editing the catalog sees (a search for the words missed it). No message or translation
    holds an invisible character but those :data:`INVISIBLE_ALLOWED` justifies."""
    catalog = read_po(extract.po_path(language).read_text(encoding="utf-8"))
    found = [(msgid, f"U+{ord(char):04X} {unicodedata.name(char, '?')}")
             for msgid, msgstr in catalog.messages.items()
             for char in sorted(set(msgid + msgstr))
             if invisible(char) and char not in INVISIBLE_ALLOWED]
    assert found == []
    assert invisible("\u00a0") and invisible("\u200b") and invisible("\u3000")


def test_engine_templates_are_extracted() -> None:
    used = extract.messages()
    assert "Speed {speed} through a limit-{limit} corner: pay {owed} Heat." in used
    assert "{car} to space {space}, {spot}." in used


def test_every_bundled_tracks_unverified_note_is_a_msgid() -> None:
    import tracks

    used = extract.messages()
    notes = [n for info in tracks.available_tracks() for n in info.track.unverified]
    assert notes and all(n in used for n in notes)
    i18n.set_language("ko")
    try:
        assert all(i18n._(n) != n for n in notes)
    finally:
        i18n.set_language("en")


# --- the screens -----------------------------------------------------------------------------

ALLOWED_LATIN = {"Heat", "Pedal", "the", "Metal", "English", "Ana", "Ben", "USA", "BGA", "App",
                 "CSV", "JSON"}
SKIP = {"saved", "message", "hardware detail", "hw reason"}
"""Labels showing data, not UI text: file paths, what the hardware layer said."""


def _visible_texts(screen) -> list[str]:
    from kivy.uix.label import Label

    from companion.ui.widgets.lookup import walk

    texts = []
    for widget in walk(screen):
        if isinstance(widget, Label) and widget.text and getattr(
                widget, "test_name", "") not in SKIP and widget.opacity > 0:
            texts.append(widget.text)
    return texts


def _english_words(texts: list[str]) -> list[str]:
    words = []
    for text in texts:
        clean = re.sub(r"/\S+|\d{4}-\d\d-\d\d", "", text)
        words += [w for w in re.findall(r"[A-Za-z]{3,}", clean) if w not in ALLOWED_LATIN]
    return words


def _all_screens(ui) -> list[str]:
    ui.player.set_up_race()
    ui.player.press("start race")
    for _ in range(5):
        ui.player.step()
    return ["race", "start", "newrace", "races", "settings", "hwcheck"]


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_screen_is_translated(ui, language: str) -> None:
    app = ui.app
    names = _all_screens(ui)
    english = {name: _visible_texts(app.show(name)) for name in names}
    app.show("settings")
    ui.player.press(f"language {language}")
    ui.pump()
    assert app.language == language
    for name in names:
        screen = app.show(name)
        ui.pump()
        texts = _visible_texts(screen)
        assert texts != english[name]
        assert _english_words(texts) == [], (name, texts)
    # And the results screen, after the race.
    app.show("race")
    ui.player.play_to_end()
    ui.pump()
    assert app.sm.current == "results"
    assert _english_words(_visible_texts(app.sm.current_screen)) == []


def test_switching_language_changes_visible_labels_and_is_kept(ui) -> None:
    from companion.ui.widgets.lookup import find

    app = ui.app
    label = find(app.sm.current_screen, "new race")
    assert label.text == "New race"
    app.show("settings")
    ui.player.press("language ko")
    assert label.text == "새 레이스"
    ui.player.press("language zh_TW")
    assert label.text == "新比賽"
    app = ui.restart()
    assert app.language == "zh_TW"
    assert find(app.sm.current_screen, "new race").text == "新比賽"
    i18n.set_language("en")


@pytest.mark.parametrize("language", TRANSLATED)
def test_modules_draft_and_championship_screens_are_translated(ui, language: str) -> None:
    app = ui.app
    player = ui.player
    player.set_up_race()
    player.press("more options")
    for name in ("event next", "weather", "road", "press A", "garage"):
        player.press(name)
    player.press("road")  # set per corner
    player.press("start race")  # the draft
    app.show("start")
    player.press("championship")
    player.press("season 1961")
    for index, name in enumerate(("Ana", "Ben")):
        player.find(f"name {index}").text = name
    player.press("create season")
    player.press("next race")
    app.show("settings")
    player.press(f"language {language}")
    ui.pump()
    for name in ("newrace", "draft", "seasons", "standings", "nextrace"):
        screen = app.show(name)
        ui.pump()
        assert _english_words(_visible_texts(screen)) == [], (name, _visible_texts(screen))
    screen = app.show("newseason")
    screen.new_form("custom")
    screen.refresh()
    assert _english_words(_visible_texts(screen)) == [], _visible_texts(screen)


def test_an_unnamed_driver_is_named_by_colour_in_the_language_of_the_moment(ui) -> None:
    """A driver left unnamed is stored without a name and shown by the car's colour in the
    language on screen: a race or season made in English reads "紅" or "빨강" after a switch,
    not "Red" (the colour's name was frozen in the language it was made in)."""
    from companion.ui.views.names import colour_name
    from companion.ui.widgets.lookup import find

    app = ui.app
    ui.player.press("new race")
    ui.player.press("start race")  # two drivers, red and blue, neither named
    assert app.sm.current == "race"
    assert all(not car.name or car.name == car.id for car in app.session.setup.cars)
    try:
        for language in ("zh_TW", "ko", "en"):
            app.set_language(language)
            ui.pump(2)
            assert find(app.sm.current_screen, "order name red").text == colour_name("red")
        app.set_language("ko")
        app.show("start")
        ui.pump(2)
        assert colour_name("red") in find(app.sm.current_screen, "continue info").text
        assert colour_name("red") == "빨강"
    finally:
        app.set_language("en")


@pytest.mark.parametrize(("environ", "expected"), [
    ({"LANG": "ko_KR.UTF-8"}, "ko"),
    ({"LANG": "zh_TW.UTF-8"}, "zh_TW"),
    ({"LANG": "zh_HK.UTF-8"}, "zh_TW"),
    ({"LANGUAGE": "zh_Hant:en", "LANG": "en_US.UTF-8"}, "zh_TW"),
    ({"LANGUAGE": "fr:ko", "LANG": "fr_FR.UTF-8"}, "ko"),
    ({"LC_ALL": "en_GB.UTF-8", "LANG": "ko_KR.UTF-8"}, "en"),
    ({"LANG": "zh_CN.UTF-8"}, "en"),  # Simplified Chinese: not shipped
    ({"LANG": "C.UTF-8"}, "en"),
    ({}, "en"),
])
def test_a_new_table_starts_in_the_system_s_language(environ, expected) -> None:
    """gettext's order (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), the first set deciding."""
    assert i18n.system_language(environ) == expected


def test_a_new_table_on_a_korean_system_starts_in_korean(make_harness, monkeypatch) -> None:
    """A fresh data folder on a ko_KR system opens in Korean (a zh_TW or ko table had to
    find "Settings" in English first; found by a table test); a language chosen in Settings
    wins over the system's at the next start."""
    import json

    from companion.ui.widgets.lookup import find

    monkeypatch.setenv("LANG", "ko_KR.UTF-8")
    harness = make_harness()
    app = harness.start()
    assert i18n.language() == "ko"
    harness.pump()
    assert find(app.sm.current_screen, "new race").text == "새 레이스"
    app.set_language("en")  # chosen in Settings: saved, and read first at the next start
    saved = json.loads(app.settings_path.read_text(encoding="utf-8"))
    assert saved["language"] == "en"


def test_names_are_listed_as_each_language_writes_a_list() -> None:
    """Chinese lists names with "、": "Maximilianus, 歐陽娜娜" (an English comma in a Chinese
    sentence) read as a mistake (found by a table test). English and Korean keep ", "."""
    from companion.i18n import listed

    try:
        for language, expected in (("en", "Ana, Ben, Legend Black"),
                                   ("zh_TW", "Ana、 Ben、 Legend Black"),
                                   ("ko", "Ana, Ben, Legend Black")):
            i18n.set_language(language)
            assert listed(["Ana", "Ben", "Legend Black"]) == expected
            assert listed(iter(["Ana"])) == "Ana" and listed([]) == ""
    finally:
        i18n.set_language("en")


def test_sentences_follow_each_language_s_way() -> None:
    """Sentences after one another: an ASCII space between them in English and Korean, none
    in Traditional Chinese (a season's note read "未驗證資料。 第 2 場…"; found by a table
    test)."""
    from companion.i18n import sentences

    try:
        for language, expected in (("en", "No. Yes."), ("zh_TW", "No.Yes."), ("ko", "No. Yes.")):
            i18n.set_language(language)
            assert sentences("No.", "", "Yes.") == expected
            assert sentences("No.") == "No." and sentences() == ""
    finally:
        i18n.set_language("en")


def _joins_translated_text_with_a_space(tree: object) -> list[int]:
    """Lines where a translated text (a ``_()`` call) is joined to another with an ASCII
    space: ``a + " " + _(...)``, ``" ".join([... _(...)])``, ``f"{_(a)} {_(b)}"``."""
    import ast

    def translated(node: ast.AST) -> bool:
        return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                   and n.func.id == "_" for n in ast.walk(node))

    def space(node: ast.AST) -> bool:
        return isinstance(node, ast.Constant) and node.value == " "

    def added(node: ast.AST) -> list[ast.AST]:  # the operands of a chain of +
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return added(node.left) + added(node.right)
        return [node]

    found = []
    for node in ast.walk(tree):  # type: ignore[arg-type]
        chain = isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and any(
            space(n) for n in added(node)) and translated(node)
        join = (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "join" and space(node.func.value)
                and any(translated(arg) for arg in node.args))
        if chain or join:
            found.append(node.lineno)
        elif isinstance(node, ast.JoinedStr):
            parts = node.values
            for before, gap, after in zip(parts, parts[1:], parts[2:], strict=False):
                if (isinstance(before, ast.FormattedValue) and space(gap)
                        and isinstance(after, ast.FormattedValue)
                        and translated(before) and translated(after)):
                    found.append(node.lineno)
    return sorted(set(found))


def test_no_translated_sentences_are_joined_with_an_ascii_space() -> None:
    """Translated sentences are joined by ``i18n.sentences`` (no ASCII space in Traditional
    Chinese): the Championship list's season note, the weather's two effects, the race
    order's explanation, the dial's legend after the prompt and the map's hint joined them
    with " ", which a Chinese reader took for a mistake."""
    import ast
    from pathlib import Path

    root = Path(extract.ROOT)
    found = []
    for path in sorted((root / "ui").rglob("*.py")):
        lines = _joins_translated_text_with_a_space(ast.parse(path.read_text(encoding="utf-8")))
        found += [f"{path.relative_to(root)}:{line}" for line in lines]
    assert found == [], found
