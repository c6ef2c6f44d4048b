"""Start with a season half played and nothing unfinished: Continue is that season's Next race
(found by a table test: Start led with New race and New season, its greyed Continue said "No
race is unfinished: New race starts one", and the season in progress was only under
Championship, so a returning table could start a loose race or a second season). In English,
Traditional Chinese and Korean at 800x480, with names of 12 letters; each Start is pictured (in
the test's folder) and checked.

The layouts with a race unfinished and on a new table are ``test_unfinished_races.py``."""

from __future__ import annotations

from typing import Any

import pytest
from season_play import create_season, play_next_race, shot
from test_setup_screens import layout_problems

from companion.ui.widgets.lookup import find, find_all

pytestmark = pytest.mark.ui

NAMES = ("Maximilianus", "歐陽娜娜司馬長風上官婉兒")
LANGUAGES = ("en", "zh_TW", "ko")
LINE = {"en": "1961, race 2 of 3: USA", "zh_TW": "1961 第 2 場（共 3 場）：美國",
        "ko": "1961, 3개 중 2번째 레이스: 미국"}
"""What Continue names (race 2 of the 1961 season), in each language."""


def _start(ui: Any) -> Any:
    ui.app.show("start")
    ui.pump(2)
    return ui.app.sm.current_screen


def test_a_season_half_played_leads_to_its_next_race(ui, tmp_path) -> None:
    app = ui.app
    season_id = create_season(ui, "1961", NAMES)
    play_next_race(ui, season_id)
    for restarted in (False, True):  # as the table left it, and as it comes back to it
        if restarted:
            app = ui.restart()
        for language in LANGUAGES:
            app.set_language(language)
            start = _start(ui)
            button = find(start, "continue")
            assert app.unfinished() == []
            assert not button.disabled and button.role == "accent"
            assert button.text == {"en": "Next race", "zh_TW": "下一場比賽",
                                   "ko": "다음 레이스"}[language]
            assert find(start, "continue info").text == LINE[language]
            new_race, new_season = find(start, "new race"), find(start, "new season")
            assert not new_race.disabled and not new_season.disabled
            assert new_race.role == new_season.role == "normal"
            assert button.parent.parent is new_race.parent is new_season.parent  # one row
            assert find_all(start, "other unfinished")[0].opacity == 0
            assert layout_problems(app, f"start, a season's race to go [{language}]") == []
            shot(app, tmp_path, f"start-{language}{'-restarted' if restarted else ''}")
    app.set_language("en")
    ui.player.press("continue")
    screen = app.sm.current_screen
    assert app.sm.current == "nextrace" and app.season_id == season_id
    assert screen.plan.number == 2 and find(screen, "next title").text == "Race 2: USA"
    ui.player.press("back")  # Back returns to where Next race was opened: Start
    assert app.sm.current == "start"
    ui.player.press("new season")  # New race and New season stay one tap away
    assert app.sm.current == "newseason"
    ui.player.press("back")
    ui.player.press("new race")
    assert app.sm.current == "newrace"


def test_of_several_seasons_the_one_played_last_leads(ui) -> None:
    """A season created after another was played is not the one played last; once its own
    race is played, it is. A new season not played leads only when no season was played."""
    app = ui.app
    first = create_season(ui, "1961", NAMES)
    assert _leads_to(ui) == ("1961, race 1 of 3: Great Britain", first)
    play_next_race(ui, first)
    second = create_season(ui, "1962", NAMES, from_start=True)
    assert _leads_to(ui) == ("1961, race 2 of 3: USA", first)
    play_next_race(ui, second)
    assert _leads_to(ui) == ("1962, race 2 of 3: Great Britain", second)
    app = ui.restart()  # without the app's memory of the race played last: the log's order
    app.last_race = None
    assert _leads_to(ui) == ("1962, race 2 of 3: Great Britain", second)


def _leads_to(ui: Any) -> tuple[str, str]:
    """What Start's Continue names, and the season whose Next race it opens."""
    start = _start(ui)
    button = find(start, "continue")
    assert not button.disabled and button.text == "Next race"
    named = find(start, "continue info").text
    ui.player.press("continue")
    assert ui.app.sm.current == "nextrace"
    return named, str(ui.app.season_id)


def test_on_read_only_storage_the_season_s_next_race_says_why_it_cannot_start(
        ui, monkeypatch) -> None:
    """New race and New season are greyed on read-only storage and say why before a race is
    set up for nothing; the season's Next race, leading Start, stayed live (found by a
    developer helper): it is greyed with the same reason."""
    from companion.storage import db

    app = ui.app
    season_id = create_season(ui, "1961", NAMES)
    play_next_race(ui, season_id)
    monkeypatch.setattr(db, "_writable", lambda path: False)
    app = ui.restart()
    app.show("start")
    ui.pump(3)
    start = _start(ui)
    assert app.storage_read_only
    button = find(start, "continue")
    assert button.text == "Next race" and button.disabled
    assert button.why_disabled == find(start, "new race").why_disabled != ""
