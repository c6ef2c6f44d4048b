"""An official season's name ("1964 (Heavy Rain)") in the player's language: it was shown in
English in Traditional Chinese and Korean. The season keeps its English name where it is stored
(its identity: a log made by an older version opens and names it the same)."""

from __future__ import annotations

from typing import Any

import pytest

from companion import i18n
from companion.championship import SEASONS
from companion.ui.views.names import OFFICIAL_SEASON_NAMES, season_name

pytestmark = pytest.mark.ui

SHOWN = {"en": "1964 (Heavy Rain)", "zh_TW": "1964（大雨）", "ko": "1964 (폭우)"}


def test_every_official_season_name_is_translated() -> None:
    """Each official season whose name says more than its year is marked for translation
    (a season added to SEASONS without it would be shown in English), and both catalogs
    translate it; a name the players gave is shown as given."""
    named = {s.name for s in SEASONS.values() if s.name != s.id}
    assert named == OFFICIAL_SEASON_NAMES
    for language in ("zh_TW", "ko"):
        catalog = i18n.translation(language)
        for name in named:
            assert catalog.gettext(name) not in ("", name), (language, name)
    try:
        i18n.set_language("zh_TW")
        assert season_name("1964 (Heavy Rain)") == SHOWN["zh_TW"]
        assert season_name("Heavy Rain cup") == "Heavy Rain cup"
        assert season_name("1961") == "1961"
    finally:
        i18n.set_language("en")


def _season_1964(ui: Any) -> str:
    from companion.engine import CarEntry

    cars = (CarEntry("red", name="Maximilianus"), CarEntry("blue", name="Bartholomew"))
    return str(ui.app.season_store().create_season(SEASONS["1964"], cars))


def _custom_season(ui: Any) -> str:
    """A custom season created in Chinese without a name, as New season makes it."""
    from companion.ui.views.season_form import SeasonForm

    i18n.set_language("zh_TW")
    try:
        form = SeasonForm(kind="custom")
        definition = form.definition()
    finally:
        i18n.set_language("en")
    return str(ui.app.season_store().create_season(definition, form.cars()))


@pytest.mark.parametrize("kind", ["1964", "custom"])
@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_stored_season_is_named_in_the_language(ui, language: str, kind: str) -> None:
    """A stored 1964 season on the Championship list, its Standings and Start's Next race
    line: "1964 (Heavy Rain)" in every language before; its own name in each now, and the
    stored name unchanged. A custom season left unnamed likewise: "自訂賽季" in every language
    when made in Chinese, "Custom season" when made in English (found by a table test);
    stored in English now, and shown in the player's language."""
    from companion.ui.widgets.lookup import find_all

    app = ui.app
    season_id = _season_1964(ui) if kind == "1964" else _custom_season(ui)
    names = SHOWN if kind == "1964" else CUSTOM
    app.set_language(language)
    app.show("seasons")
    ui.pump(3)
    button = find_all(app.sm.current_screen, f"open season {season_id}")[0]
    line = button.parent.children[-1].text.split("\n")[0]
    assert line.startswith(names[language]), line
    app.season_id = season_id
    standings = app.show("standings")
    ui.pump(3)
    assert standings.ids.title.text.startswith(names[language]), standings.ids.title.text
    start = app.show("start")
    ui.pump(3)
    shown = " ".join(w.text for w in find_all(start, "") if isinstance(getattr(w, "text", None),
                                                                      str))
    assert names[language] in shown, shown
    for other, name in names.items():
        if other != language:
            assert name not in line + standings.ids.title.text + shown, name
    stored = app.season_store().season(season_id).season.definition
    # its identity, as older versions stored it; a custom season's default in English
    assert stored.name == ("1964 (Heavy Rain)" if kind == "1964" else "Custom season")


CUSTOM = {"en": "Custom season", "zh_TW": "自訂賽季", "ko": "사용자 시즌"}


def test_a_custom_season_left_unnamed_is_named_in_the_language() -> None:
    """A custom season the players did not name was stored with the default name in the
    language of the moment ("Custom season" in English) and shown so in every language: the
    champion line read "Custom season 賽季冠軍：…" / "Custom season 시즌 챔피언: …" (found by a
    table test). It is stored in English now, as a season created in English always was (an
    older version reads it the same), and shown in the player's language wherever a season is
    named; so is the default an older version stored in Chinese or Korean. A name the
    players gave is shown as given."""
    from types import SimpleNamespace

    from companion.engine import CarEntry
    from companion.ui.screens.standings import StandingsScreen
    from companion.ui.views.season_form import SeasonForm

    champion = {"en": "Custom season champion: Maximilianus, 9 points.",
                "zh_TW": "自訂賽季 賽季冠軍：Maximilianus，9 分。",
                "ko": "사용자 시즌 시즌 챔피언: Maximilianus, 9점."}
    line = SimpleNamespace(rank=1, car=CarEntry("red", name="Maximilianus"), points=9)
    try:
        for language, shown in CUSTOM.items():
            i18n.set_language(language)
            form = SeasonForm(kind="custom")
            assert form.doc()["name"] == "Custom season", language  # stored in English
            for stored in CUSTOM.values():  # stored now, or by an older version
                assert season_name(stored) == shown, (language, stored)
                season = SimpleNamespace(definition=SimpleNamespace(name=stored),
                                         standings=lambda: [line])
                said = StandingsScreen.champion_words(season).replace("\u00a0", " ")
                assert said == champion[language], (language, stored, said)
            assert season_name("Custom season cup") == "Custom season cup"
            form.name = "  Friday  league "
            assert form.doc()["name"] == season_name("Friday league") == "Friday league"
    finally:
        i18n.set_language("en")
