"""A Garage draft the log cannot replay (a pick that is not the draft's: other software, a
damaged file) is ended from the fault screen that names it: End the draft abandons it (its
picks stay in the log), and the table goes on. Before, a damaged draft that was not the one
Continue opens had no button that ended it (Other unfinished races led to the fault screen
again and again), and a season's damaged draft showed the fault screen on every tap of its
Next race. In English, Traditional Chinese and Korean at 800x480, with names of 12 letters;
each fault screen is pictured (in the test's folder) and checked."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from layout_probe import check_screen
from season_play import shot
from test_draft_resume import NAMES, _begin_draft, _draft_state, _dump
from test_storage_faults import tap

from companion.ui.widgets.lookup import find, find_all

pytestmark = pytest.mark.ui

NOT_A_PICK = '{"card":"no-such-card","driver":"red","kind":"pick"}'
"""An input no draft deals (as other software or a damaged file may leave)."""
END_WORDS = {
    "en": "End the draft to go on: nothing recorded is lost (its picks stay in the log), and "
          "its race can be drafted again.",
    "zh_TW": "結束這場選牌即可繼續：已記錄的內容都不會遺失（選過的牌仍留在紀錄中），"
             "這場比賽也可以重新選牌。",
    "ko": "드래프트를 끝내면 계속할 수 있습니다. 기록된 것은 잃지 않으며(고른 카드는 기록에 "
          "남습니다), 그 레이스는 다시 드래프트할 수 있습니다.",
}


def _damage(app: Any, draft_id: str, seq: int) -> None:
    with sqlite3.connect(app.log_access.path) as db:
        db.execute("UPDATE draft_inputs SET payload = ? WHERE draft_id = ? AND seq = ?",
                   (NOT_A_PICK, draft_id, seq))


def _fault_said(app: Any, language: str, tmp_path: Path, name: str) -> None:
    """The fault screen names the draft, says nothing recorded is lost, and offers End the
    draft (and Back), not a new log."""
    screen = app.sm.current_screen
    assert app.sm.current == "storagefault"
    assert END_WORDS[language] in find(screen, "fault advice").text.split("\n")
    assert {b.test_name for b in find_all(screen, "fault ")} >= {"fault end-draft",
                                                                 "fault back"}
    assert find_all(screen, "fault new-log") == []
    assert check_screen(app, f"{name} [{language}]") == []
    shot(app, tmp_path, f"{name}-{language}")


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_damaged_draft_under_other_unfinished_races_can_be_ended(ui, tmp_path,
                                                                   language: str) -> None:
    app = ui.app
    ui.player.set_up_race(("Ana", "Ben"))
    ui.player.press("start race")
    race_id = app.session.race_id
    ui.player.press("menu")
    damaged = _begin_draft(ui)
    app.show("start")
    ui.player.press("other unfinished")
    ui.player.press(f"resume {race_id}")  # the race, played last: Continue's
    ui.player.press("menu")
    _damage(app, damaged, 3)
    app = ui.restart()
    app.set_language(language)
    app.show("start")
    assert [item.id for item in app.unfinished()] == [race_id, damaged]
    ui.player.press("other unfinished")
    before = _dump(app.log_access.path)
    ui.player.press(f"resume {damaged}")
    _fault_said(app, language, tmp_path, "fault-single")
    assert _dump(app.log_access.path) == before  # shown, nothing changed yet
    ui.player.press("fault end-draft")
    assert app.sm.current == "start"
    assert _draft_state(app, damaged) == ("abandoned", 4)  # its picks kept
    assert [item.id for item in app.unfinished()] == [race_id]
    assert find(app.sm.current_screen, "other unfinished").opacity == 0
    ui.player.press("continue")
    assert app.session.race_id == race_id


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_a_season_s_damaged_draft_leaves_its_next_race_usable(ui, tmp_path,
                                                              language: str) -> None:
    app = ui.app
    app.race_seed = 11
    ui.player.press("championship")
    ui.player.press("season 1961")
    for index, name in enumerate(NAMES[:2]):
        ui.player.find(f"name {index}").text = name
    ui.player.press("create season")
    season_id = app.season_id
    ui.player.press("next race")
    shown = [label.text for label in app.sm.current_screen.ids.info.children]
    ui.player.press("draft")
    ui.player.press("card 2")
    damaged = app.draft_flow.stored
    _damage(app, damaged, 1)
    app = ui.restart()
    app.set_language(language)
    app.show("seasons")
    ui.player.press(f"open season {season_id}")
    tap(ui, "next race")
    _fault_said(app, language, tmp_path, "fault-season")
    ui.player.press("fault back")  # Back: the standings, the draft as it was
    assert app.sm.current == "standings" and _draft_state(app, damaged) == ("open", 1)
    tap(ui, "next race")
    ui.player.press("fault end-draft")
    screen = app.sm.current_screen
    assert app.sm.current == "nextrace" and screen.plan.seed == 11  # the race set up
    assert [label.text for label in screen.ids.info.children] == [
        label.text for label in _next_race_in(app, language, shown)]
    assert _draft_state(app, damaged) == ("abandoned", 1)
    ui.player.press("draft")  # drafted again, afresh
    assert app.sm.current == "draft" and app.draft_flow.inputs == 0
    assert app.draft_flow.stored != damaged
    ui.player.press("back")
    ui.player.press("back")
    assert app.sm.current == "standings"


def _next_race_in(app: Any, language: str, shown: list[str]) -> list[Any]:
    """The Next race's lines as first shown (in English), in ``language`` now."""
    screen = app.sm.current_screen
    app.set_language("en")
    assert [label.text for label in screen.ids.info.children] == shown
    app.set_language(language)
    return list(screen.ids.info.children)


def test_a_season_s_damaged_draft_continued_from_start_ends_into_its_next_race(ui) -> None:
    """The season's draft is what Continue opens: End the draft leads to its Next race,
    whose Back returns to Start; a draft whose start cannot be read draws the race anew."""
    app = ui.app
    ui.player.press("championship")
    ui.player.press("season 1961")
    ui.player.press("create season")
    ui.player.press("next race")
    ui.player.press("draft")
    damaged = app.draft_flow.stored
    with sqlite3.connect(app.log_access.path) as db:
        db.execute("UPDATE drafts SET start = 'x' WHERE id = ?", (damaged,))
    app = ui.restart()
    ui.player.press("continue")
    assert app.sm.current == "storagefault"
    ui.player.press("fault end-draft")
    assert app.sm.current == "nextrace" and app.sm.current_screen.plan.number == 1
    assert _draft_state(app, damaged) == ("abandoned", 0)
    ui.player.press("back")
    assert app.sm.current == "start"
