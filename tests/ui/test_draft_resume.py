"""A Garage draft not over, after the app starts again (as after a power cut: every pick was
recorded when it was made): the Start screen offers it, Continue leads back to it where it was,
New race asks before it ends it, a setup changed after Back begins it afresh (once no pick is
in effect), and a draft the log cannot read is named and changes nothing. In English,
Traditional Chinese and Korean at 800x480, with names of 12 letters; each screen is pictured
(in the test's folder) and checked.

The kill itself (SIGKILL in the middle of the draft) is ``test_draft_kill.py``."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from layout_probe import check_screen
from season_play import create_season, shot
from test_setup_screens import layout_problems

from companion.ui.widgets.lookup import find, find_all

pytestmark = pytest.mark.ui

NAMES = ("Maximilianus", "歐陽娜娜司馬長風上官婉兒", "남궁민수황보영희제갈공명")
LANGUAGES = ["en", "zh_TW", "ko"]
DRAFT_WORDS = {"en": "Garage draft, round 2", "zh_TW": "車庫選牌第 2 輪",
               "ko": "개러지 드래프트 2라운드"}
"""The draft's words on the Start screen (the round 2 of a single race's draft)."""


def _begin_draft(ui: Any, picks: int = 4, names: tuple[str, ...] = NAMES) -> str:
    """From Start: New race with three drivers and the Garage draft, ``picks`` picks."""
    player = ui.player
    player.press("new race")
    if ui.app.sm.current == "start":  # asked: a race is unfinished (it stays so)
        player.press("new race anyway")
    for index, name in enumerate(names):
        if index >= 2:
            player.press("add driver")
        player.find(f"name {index}").text = name
    player.press("more options")
    player.press("garage")
    player.press("start race")
    assert ui.app.sm.current == "draft"
    for _ in range(picks):
        player.press("card 0")
    return str(getattr(ui.app.draft_flow, "stored", ""))  # its id in the log


def _shown(app: Any) -> tuple[Any, ...]:
    flow, screen = app.draft_flow, app.sm.current_screen
    hands = [[label.text for label in reversed(hand.children)]  # a name, its cards
             for hand in sorted(screen.ids.hands.children, key=lambda w: -w.y)]
    return (flow.draft, find(screen, "draft title").text,
            find(screen, "draft prompt").text, hands,
            [c.text for c in find_all(screen, "card ")])


def _dump(path: Path) -> list[str]:
    """Everything the log holds, as SQL."""
    with sqlite3.connect(path) as db:
        return list(db.iterdump())


def _draft_state(app: Any, draft_id: str) -> tuple[str, int]:
    with sqlite3.connect(app.log_access.path) as db:
        state = db.execute("SELECT state FROM drafts WHERE id = ?", (draft_id,)).fetchone()[0]
        inputs = db.execute("SELECT COUNT(*) FROM draft_inputs WHERE draft_id = ?",
                            (draft_id,)).fetchone()[0]
    return str(state), int(inputs)


@pytest.mark.parametrize("language", LANGUAGES)
def test_continue_leads_back_into_the_draft_where_it_was(ui, tmp_path, language: str) -> None:
    draft_id = _begin_draft(ui)
    before = _shown(ui.app)
    app = ui.restart()  # the power came back
    app.set_language(language)
    app.show("start")
    ui.pump(2)
    start = app.sm.current_screen
    info = find(start, "continue info").text
    assert DRAFT_WORDS[language] in info and all(name in info for name in NAMES)
    assert not find(start, "continue").disabled
    assert layout_problems(app, f"start [{language}]") == []
    shot(app, tmp_path, f"start-{language}")
    ui.player.press("continue")
    assert app.sm.current == "draft" and app.draft_flow.stored == draft_id
    app.set_language("en")
    ui.pump(2)
    assert _shown(app) == before  # the same deal, picks, round, order and words
    app.set_language(language)
    ui.pump(3)
    assert check_screen(app, f"draft [{language}]") == []
    shot(app, tmp_path, f"draft-{language}")
    ui.player.press("card 0")  # the draft goes on, recorded
    assert _draft_state(app, draft_id) == ("open", 5)


@pytest.mark.parametrize("language", LANGUAGES)
def test_new_race_asks_before_it_ends_the_draft(ui, tmp_path, language: str) -> None:
    draft_id = _begin_draft(ui)
    app = ui.restart()
    app.set_language(language)
    app.show("start")
    ui.player.press("new race")
    start = app.sm.current_screen
    assert app.sm.current == "start" and start.page == "ask"
    ui.pump(2)
    english = {"ask title": "A Garage draft is unfinished",
               "ask note": "A new race ends this draft: Continue no longer offers it.",
               "continue it": "Continue the draft"}
    for name, text in english.items():
        shown = find(start, name).text
        assert shown == text if language == "en" else shown not in ("", text)
    assert all(name in find(start, "ask race").text for name in NAMES)
    assert layout_problems(app, f"ask [{language}]") == []
    shot(app, tmp_path, f"ask-{language}")
    ui.player.press("back")  # neither: nothing changes
    assert _draft_state(app, draft_id) == ("open", 4) and start.page == "home"
    ui.player.press("new race")
    ui.player.press("new race anyway")
    assert app.sm.current == "newrace"
    assert [d.name for d in app.sm.current_screen.form.drivers] == ["", ""]  # a new race
    assert _draft_state(app, draft_id) == ("abandoned", 4)  # its picks kept in the log
    assert app.unfinished() == []
    app.show("start")
    assert find(app.sm.current_screen, "continue").disabled


def test_a_race_unfinished_is_asked_about_as_before(ui) -> None:
    """With a race (not a draft) the one Continue opens, New race asks as it did, and a new
    race keeps both the race and the draft, one tap away."""
    app = ui.app
    ui.player.set_up_race(("Ana", "Ben"))
    ui.player.press("start race")
    race_id = app.session.race_id
    ui.player.press("menu")
    draft_id = _begin_draft(ui)
    app.show("start")
    assert [item.id for item in app.unfinished()] == [draft_id, race_id]
    ui.player.press("other unfinished")
    ui.player.press(f"resume {race_id}")  # the table plays the race again
    ui.player.step()
    ui.player.press("menu")
    assert [item.id for item in app.unfinished()] == [race_id, draft_id]
    ui.player.press("new race")
    start = app.sm.current_screen
    assert find(start, "ask title").text == "A race is unfinished"
    assert find(start, "ask note").text == (
        "A new race keeps it: it stays one tap away under Other unfinished races.")
    ui.player.press("new race anyway")
    assert app.sm.current == "newrace" and _draft_state(app, draft_id) == ("open", 4)
    app.show("start")
    ui.player.press("other unfinished")
    ui.player.press(f"resume {draft_id}")
    assert app.sm.current == "draft" and app.draft_flow.inputs == 4


def test_back_and_a_changed_setup_begin_the_draft_afresh(ui) -> None:
    """Back from the draft, the same setup: Start race takes the draft up where it was. A
    setup changed where the deal depends on it (here the Garage deck, once every pick is
    undone: with a pick in effect it is greyed, test_draft_newrace.py): a new draft, the one
    before abandoned (its picks and undos stay in the log), and only the new one is offered
    to continue."""
    app = ui.app
    first = _begin_draft(ui, picks=2)
    deal = app.draft_flow.draft
    ui.player.press("back")
    assert app.sm.current == "newrace"
    ui.player.press("start race")
    assert app.draft_flow.stored == first and app.draft_flow.draft == deal
    ui.player.press("undo")
    ui.player.press("undo")
    ui.player.press("back")  # to More options, as it was left
    ui.player.press("garage deck")  # basic to advanced: other cards
    ui.player.press("start race")
    second = app.draft_flow.stored
    assert second != first and app.draft_flow.inputs == 0
    assert _draft_state(app, first) == ("abandoned", 4)
    assert [item.id for item in app.unfinished()] == [second]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_draft_the_log_cannot_read_is_named_and_changes_nothing(ui, tmp_path,
                                                                 language: str) -> None:
    """A pick that is not the draft's (written by other software, a damaged file): Continue
    shows the damaged log's screen naming the draft and the pick, the log is left as it is,
    and New race can still end the draft."""
    draft_id = _begin_draft(ui)
    app = ui.restart()
    app.set_language(language)
    path = app.log_access.path
    with sqlite3.connect(path) as db:
        db.execute("UPDATE draft_inputs SET payload = '{\"card\":\"turbo-8\",\"driver\":"
                   "\"red\",\"kind\":\"pick\"}' WHERE seq = 3")
    before = _dump(path)
    ui.player.press("continue")
    assert app.sm.current == "storagefault"
    reason = find(app.sm.current_screen, "fault reason").text
    assert {"en": reason == f"Garage draft {draft_id} in the race log is damaged at input 3.",
            "zh_TW": reason == f"比賽紀錄中的車庫選牌 {draft_id} 在第 3 筆輸入處損壞。",
            "ko": reason == f"레이스 기록의 {draft_id} 개러지 드래프트가 3번째 입력에서 "
                            "손상되었습니다."}[language]
    assert check_screen(app, f"fault [{language}]") == []
    shot(app, tmp_path, f"fault-{language}")
    assert _dump(path) == before
    ui.player.press("fault back")
    assert app.sm.current == "start" and _dump(path) == before
    ui.player.press("new race")
    ui.player.press("new race anyway")
    assert app.sm.current == "newrace" and _draft_state(app, draft_id) == ("abandoned", 4)


def test_a_season_s_next_race_after_a_restart_is_the_one_its_draft_is_for(ui) -> None:
    """A season's draft cut short, the app started again, and the table goes to the season
    (not Continue): Next race shows the race the draft is for (its grid, Weather and Road
    Conditions drawn from the same seed), and its Garage draft takes the draft up where it
    was. Before, Next race drew again from a new seed and the draft began afresh."""
    app = ui.app
    app.race_seed = 11  # this table's draw (after the restart the harness draws another)
    season_id = create_season(ui, "1961", ("Maximilianus", "Bartholomew"))
    ui.player.press("next race")
    plan = app.sm.current_screen.plan
    shown = [label.text for label in app.sm.current_screen.ids.info.children]
    ui.player.press("draft")
    ui.player.press("card 2")
    before = app.draft_flow.draft
    assert len(before.picks) == 1
    app = ui.restart()
    assert app.race_seed != 11
    app.show("seasons")
    ui.player.press(f"open season {season_id}")
    ui.player.press("next race")
    screen = app.sm.current_screen
    assert app.sm.current == "nextrace" and screen.plan.seed == plan.seed == 11
    assert (screen.plan.grid, screen.plan.weather, screen.plan.road) == (
        plan.grid, plan.weather, plan.road)
    assert [label.text for label in screen.ids.info.children] == shown
    ui.player.press("draft")
    assert app.draft_flow.draft == before


def test_a_pick_the_log_cannot_record_is_not_taken(ui, monkeypatch) -> None:
    """The storage is full at a pick: the fault screen says the pick was not recorded and the
    draft is as it was; Back shows it so; Retry, once space is freed, records it once."""
    from companion.storage import DiskFullError
    from companion.storage.drafts import DraftStore

    app = ui.app
    draft_id = _begin_draft(ui, picks=2)
    path = app.log_access.path
    before, logged = _shown(app), _dump(path)
    recording = DraftStore.record

    def full(self: DraftStore, *args: Any) -> None:
        raise DiskFullError(path=path, detail="database or disk is full")

    monkeypatch.setattr(DraftStore, "record", full)
    chosen = app.draft_flow.draft.market[1]
    ui.player.press("card 1")
    assert app.sm.current == "storagefault"
    assert find(app.sm.current_screen, "fault advice").text.startswith(
        "Your pick was not recorded: the draft is exactly as it was before it.")
    assert _dump(path) == logged
    ui.player.press("fault back")
    assert app.sm.current == "draft" and _shown(app) == before
    ui.player.press("card 1")
    ui.player.press("fault retry")  # still full
    assert app.sm.current == "storagefault" and _dump(path) == logged
    monkeypatch.setattr(DraftStore, "record", recording)
    ui.player.press("fault retry")
    assert app.sm.current == "draft"
    assert _draft_state(app, draft_id) == ("open", 3)
    assert app.draft_flow.draft.picks[-1][1] == chosen and app.draft_flow.inputs == 3
