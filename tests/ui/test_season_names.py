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


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_stored_official_season_is_named_in_the_language(ui, language: str) -> None:
    """A stored 1964 season on the Championship list, its Standings and Start's Next race
    line: "1964 (Heavy Rain)" in every language before; its own name in each now, and the
    stored name unchanged."""
    from companion.ui.widgets.lookup import find_all

    app = ui.app
    season_id = _season_1964(ui)
    app.set_language(language)
    app.show("seasons")
    ui.pump(3)
    button = find_all(app.sm.current_screen, f"open season {season_id}")[0]
    line = button.parent.children[-1].text.split("\n")[0]
    assert line.startswith(SHOWN[language]), line
    app.season_id = season_id
    standings = app.show("standings")
    ui.pump(3)
    assert standings.ids.title.text.startswith(SHOWN[language]), standings.ids.title.text
    start = app.show("start")
    ui.pump(3)
    shown = " ".join(w.text for w in find_all(start, "") if isinstance(getattr(w, "text", None),
                                                                      str))
    assert SHOWN[language] in shown, shown
    if language != "en":
        assert "Heavy Rain" not in line + standings.ids.title.text + shown
    stored = app.season_store().season(season_id).season.definition
    assert stored.name == "1964 (Heavy Rain)"  # its identity, as older versions stored it
