"""The Races screen with a long history: only what is on screen is built, a page of the log at
a time; every row names the drivers, the track, the date and how the race stands, in the
player's language; search; Continue, Open and Export from the row. And the Seasons screen
with many seasons, the Start screen's unfinished race."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bench import racegen
from companion import i18n
from companion.championship import SEASONS
from companion.engine import CarEntry, RaceSetup
from companion.session import RaceLog
from companion.storage.seasons import SeasonStore
from companion.ui.views.race_list import PAGE, race_date, race_lines, race_state
from companion.ui.widgets.lookup import find, find_all, walk
from tracks import load_track

pytestmark = pytest.mark.ui

NAMES = ("Christabella", "Maximilianus")
RACES = 70


def _setup(track: str = "usa") -> RaceSetup:
    cars = (CarEntry("red", NAMES[0]), CarEntry("blue", NAMES[1]),
            CarEntry("black", legend=True))
    return RaceSetup(track=load_track(track), cars=cars, laps=1, seed=2)


def _history(log_path: Path) -> None:
    """70 races: a finished and a running one, copied under new ids (r00 the oldest), one a
    day from 2024-06-01; the newest, r69, is running, on Italy."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with RaceLog(log_path) as log:
        done = log.new_race(_setup(), race_id="done", created="2024-05-01T20:00:00+02:00")
        racegen.drive(done, 5000)
        assert done.state.over
        running = log.new_race(_setup("italy"), race_id="running",
                               created="2024-05-02T20:00:00+02:00")
        racegen.drive(running, 30)
        assert not running.state.over
    with sqlite3.connect(log_path) as db:
        for n in range(RACES):
            source = "running" if n == RACES - 1 else "done"
            db.execute("INSERT INTO races SELECT ?, ?, track, setup, track_id, laps, rounds, "
                       "over, results FROM races WHERE id = ?",
                       (f"r{n:02d}", f"2024-06-{1 + n % 30:02d}T20:{n % 60:02d}:00+02:00",
                        source))
            db.execute("INSERT INTO events SELECT ?, seq, kind, payload FROM events "
                       "WHERE race_id = ?", (f"r{n:02d}", source))
        db.execute("DELETE FROM events WHERE race_id IN ('done', 'running')")
        db.execute("DELETE FROM race_results WHERE race_id IN ('done', 'running')")
        db.execute("DELETE FROM races WHERE id IN ('done', 'running')")


@pytest.fixture
def history(make_harness: Callable[..., Any]) -> Any:
    harness = make_harness()
    _history(harness.data / "races.sqlite3")
    harness.start()
    return harness


def _rows(screen: Any) -> list[Any]:
    from companion.ui.screens.races import RaceListRow

    return [w for w in walk(screen) if isinstance(w, RaceListRow)]


def _scroll_to_end(history: Any, screen: Any) -> None:
    screen.ids.list.scroll_y = 0
    history.pump(3)


def _listed(screen: Any) -> list[str]:
    return [item["race_id"] for item in screen.ids.list.data if "race_id" in item]


def test_only_a_page_is_read_and_only_the_rows_on_screen_are_built(history: Any) -> None:
    app = history.app
    screen = app.show("races")
    history.pump(3)
    assert _listed(screen) == [f"r{n:02d}" for n in range(RACES - 1, RACES - 1 - PAGE, -1)]
    built = _rows(screen)
    assert 3 <= len(built) <= 8  # the rows that fit at 800x480, not one per race
    assert find_all(screen, "older races") == []  # at the end of the list, not built yet
    _scroll_to_end(history, screen)
    history.player.press("older races")
    assert len(_listed(screen)) == 2 * PAGE
    _scroll_to_end(history, screen)
    history.player.press("older races")
    assert _listed(screen)[-1] == "r00" and len(_listed(screen)) == RACES
    assert screen.ids.list.data[-1]["more"] is False
    assert len(_rows(screen)) <= 8
    app.show("start")
    screen = app.show("races")  # opened again: from the top, one page
    assert len(_listed(screen)) == PAGE


def test_each_row_names_drivers_track_date_and_state(history: Any) -> None:
    app = history.app
    screen = app.show("races")
    history.pump(3)
    newest = find(screen, "open r69").parent
    rounds = app.log().race_summary("r69").rounds
    assert newest.head == f"2024-06-10 20:09  ·  Italy  ·  round {rounds + 1}"
    assert newest.drivers == f"{NAMES[0]}, {NAMES[1]}, Legend Black"
    assert find(screen, "open r69").text == "Continue"
    finished = find(screen, "open r68").parent
    assert finished.head.startswith("2024-06-09 20:08  ·  USA  ·  won by ")
    winner = finished.head.rsplit("won by ", 1)[1]
    assert winner in (*NAMES, "Legend Black")
    assert find(screen, "open r68").text == "Open"
    for colour in ("Red", "Blue"):  # drivers by name, not by colour
        assert colour not in finished.drivers


@pytest.mark.parametrize(("language", "date", "round_word", "won"), [
    ("zh_TW", "2024年6月10日 20:09", "第", "獲勝"),
    ("ko", "2024년 6월 10일 20:09", "라운드", "우승"),
])
def test_rows_in_the_players_language(history: Any, language: str, date: str,
                                      round_word: str, won: str) -> None:
    app = history.app
    app.show("settings")
    history.player.press(f"language {language}")
    try:
        screen = app.show("races")
        history.pump(3)
        running = find(screen, "open r69").parent
        finished = find(screen, "open r68").parent
        assert running.head.startswith(date) and round_word in running.head
        assert won in finished.head
        assert "Legend" not in finished.drivers and NAMES[0] in finished.drivers
    finally:
        i18n.set_language("en")


def test_search_by_driver_track_or_date(history: Any, tmp_path: Path) -> None:
    app = history.app
    screen = app.show("races")
    history.pump(3)
    search = find(screen, "race search")
    search.text = "ital"  # the track, by its name in the player's language
    assert screen._search.is_triggered  # searched once typing pauses
    screen.refresh()
    assert _listed(screen) == ["r69"]
    search.text = "2024-06-0"
    screen.refresh()
    assert _listed(screen) == [f"r{n:02d}" for n in (68, 67, 66, 65, 64, 63, 62, 61, 60,
                                                      38, 37, 36, 35, 34, 33, 32, 31, 30,
                                                      8, 7, 6, 5, 4, 3, 2, 1, 0)]
    search.text = "MAXIMILIANUS"
    screen.refresh()
    assert len(_listed(screen)) == PAGE and screen.ids.list.data[-1]["more"]
    search.text = "nobody"
    screen.refresh()
    assert _listed(screen) == []
    assert screen.ids.list.data[-1]["text"] == "No race matches this search."
    search.text = ""
    screen.refresh()
    assert len(_listed(screen)) == PAGE


def test_continue_open_and_export_from_the_row(history: Any, tmp_path: Path) -> None:
    app = history.app
    screen = app.show("races")
    history.pump(3)
    find(screen, "export folder").text = str(tmp_path / "out")
    history.player.press("export r68")
    written = tmp_path / "out" / "race-r68.json"
    assert json.loads(written.read_text(encoding="utf-8"))["format"].startswith("heat-race/")
    assert find(screen, "message").text.startswith("Race file written: ")
    app.set_language("ko")  # what the export said is said again in the new language
    try:
        assert find(screen, "message").text.startswith("레이스 파일 저장됨: ")
        assert str(written) in find(screen, "message").text
    finally:
        app.set_language("en")
    assert find(screen, "message").text.startswith("Race file written: ")
    history.player.press("open r68")
    assert app.sm.current == "results" and app.session.race_id == "r68"
    screen = app.show("races")
    history.player.press("open r69")
    assert app.sm.current == "race" and app.session.race_id == "r69"


def test_the_start_screen_names_the_unfinished_race(history: Any) -> None:
    """Read by index from the log, not from the list of every race."""
    app = history.app
    screen = app.show("start")
    rounds = app.log().race_summary("r69").rounds
    assert not screen.ids.continue_button.disabled
    assert screen.ids.continue_info.text == (
        f"Italy, 1 lap, round {rounds + 1}: {NAMES[0]}, {NAMES[1]}, Legend Black")
    assert app.unfinished_races()[0].id == "r69" and len(app.unfinished_races()) == 1


def test_races_first_after_a_cold_start(make_harness: Callable[..., Any]) -> None:
    harness = make_harness()
    harness.start()
    screen = harness.app.show("races")
    harness.pump(3)
    assert _listed(screen) == []
    assert screen.ids.list.data[-1]["text"] == "No races yet."


def test_the_seasons_screen_lists_the_latest_seasons_first(
        make_harness: Callable[..., Any]) -> None:
    from companion.ui.screens.seasons import SEASONS_SHOWN

    harness = make_harness()
    harness.data.mkdir(parents=True)
    cars = (CarEntry("red", "Ana"), CarEntry("black", legend=True))
    with SeasonStore(harness.data / "races.sqlite3") as store:
        for n in range(SEASONS_SHOWN + 3):
            store.create_season(SEASONS["1961"], cars, season_id=f"s{n:02d}")
    harness.start()
    screen = harness.app.show("seasons")
    shown = sorted((w.test_name for w in find_all(screen, "open season ")), reverse=True)
    assert shown == [f"open season s{n:02d}" for n in range(SEASONS_SHOWN + 2, 2, -1)]
    harness.player.press("older seasons")
    assert len(find_all(screen, "open season ")) == SEASONS_SHOWN + 3
    assert find_all(screen, "older seasons") == []


def test_race_list_words() -> None:
    from companion.session import RaceSummary

    cars = (CarEntry("red", "Ana"), CarEntry("black", legend=True))
    race = RaceSummary("x", "2024-06-01T20:05:00+02:00", "usa", 1, cars, 9, True,
                       (("black", 1, 9), ("red", 2, 9)))
    assert race_lines(race) == ("2024-06-01 20:05  ·  USA  ·  won by Legend Black",
                                "Ana, Legend Black")
    assert race_state(RaceSummary("x", "", "usa", 1, cars, 3, False, ())) == "round 4"
    assert race_state(RaceSummary("x", "", "usa", 1, cars, 9, True, ())) == (
        "over, no car finished")  # every car eliminated (Title sponsor withdraws)
    assert race_date("not a date at all") == "not a date at all"[:16]
    i18n.set_language("ko")
    try:
        assert race_lines(race)[0].startswith("2024년 6월 1일 20:05")
    finally:
        i18n.set_language("en")


def test_the_races_list_bar_is_the_accent_one_and_clear_of_the_rows(history: Any) -> None:
    """A long history: the list's bar, wider than the other lists' (it can be dragged), was
    Kivy's grey, which a table does not see from arm's length; it is in the accent colour,
    in sight while there is more below, and no row's button is drawn over it."""
    from pixels import accent_bar_hits

    app = history.app
    screen = app.show("races")
    history.pump(3)
    view = screen.ids.list
    assert view.viewport_size[1] > view.height  # more races than fit
    assert view.bar_width == app.fs * 0.5
    assert accent_bar_hits(view, app.c_accent) >= 5
    lane = view.right - view.bar_width - view.bar_margin
    rows = _rows(screen)
    assert rows and all(row.to_window(row.right, 0)[0] <= view.to_window(lane, 0)[0] + 0.5
                        for row in rows)
