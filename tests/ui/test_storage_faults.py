"""The app on storage faults (issue 13): each fault injected into the running app shows the
storage fault screen in the player's language, Retry does what it says, and nothing recorded is
lost (the events are compared before and after).

The faults, as the tests make them (the suite runs as root in CI, where file modes stop
nothing):

* a full disk: SQLite's ``max_page_count`` on the app's own connection (SQLITE_FULL, as a full
  card gives);
* another copy of the app: a second process holding the log's claim; another program: a second
  connection holding SQLite's write lock;
* read-only storage: the storage layer's own seam (``db._writable``) at start-up, SQLite's
  ``query_only`` in the middle of a race (SQLITE_READONLY), and for real as ``nobody`` on a
  folder it cannot write (``setpriv``);
* a damaged row, a file that is not SQLite, a newer log, a folder where no log can be made, a
  lock file that cannot be opened (an I/O error).

A screen's button that raises runs through :func:`tap`, which does what Kivy's main loop does
with an exception (:class:`kivy.base.ExceptionManager`); the real loop is checked once, in a
subprocess.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from companion import i18n

pytestmark = pytest.mark.ui

REPO = Path(__file__).resolve().parents[2]
FAULT = "storagefault"
NOBODY = 65534
CJK = ("zh_TW", "ko")
STAMP = datetime(2024, 6, 1, 20, 15, 0)


# --- the harness --------------------------------------------------------------------------------


def launch(harness: Any) -> Any:
    """Start the app of ``harness`` (the conftest's ``Harness``) without requiring a log."""
    from kivy.config import Config

    Config.set("graphics", "width", "800")  # before the window is made (by the first app)
    Config.set("graphics", "height", "480")
    from kivy.base import runTouchApp

    from companion.ui.app import HeatApp
    from companion.ui.demo.player import TablePlayer

    i18n.set_language("en")
    harness.app = HeatApp(data=harness.data, hardware_factory=harness.hardware)
    harness.app.race_seed = 20240601
    harness.app._run_prepare()
    runTouchApp(embedded=True)
    harness.player = TablePlayer(harness.app, harness.pump)
    harness.pump()
    assert harness.app.first_frame_done
    harness.app.log_access._now = lambda: STAMP
    return harness.app


@pytest.fixture
def make(make_harness: Callable[..., Any]) -> Callable[[], Any]:
    return make_harness


def tap(harness: Any, name: str) -> None:
    """Press button ``name``; an exception goes where Kivy's main loop sends it
    (``EventLoopBase.mainloop``: ``ExceptionManager.handle_exception``, re-raised on RAISE)."""
    from kivy.base import ExceptionManager

    try:
        harness.player.press(name)
    except BaseException as error:
        if ExceptionManager.handle_exception(error) == ExceptionManager.RAISE:
            raise
        harness.pump()


def text(app: Any, name: str) -> str:
    from companion.ui.widgets.lookup import find

    return str(find(app.sm.current_screen, name).text)


def buttons(app: Any) -> list[str]:
    return [w.test_name[len("fault "):] for w in app.sm.current_screen.ids.actions.children][::-1]


def shown(app: Any) -> dict[str, Any]:
    """The fault screen as the table sees it."""
    assert app.sm.current == FAULT, app.sm.current
    return {"title": text(app, "fault title"), "reason": text(app, "fault reason"),
            "advice": text(app, "fault advice"), "detail": text(app, "fault detail"),
            "buttons": buttons(app)}


def check_languages(harness: Any, english: dict[str, Any]) -> None:
    """The fault screen in zh_TW and ko: the same buttons, every sentence translated (only the
    technical detail is left in English), and the layout fits 800x480 with big buttons."""
    from layout_probe import check_screen
    from test_i18n import _english_words

    app = harness.app
    assert tuple(app.root_window.size) == (800, 480)
    assert check_screen(app, "fault [en]") == []
    for language in CJK:
        app.set_language(language)
        harness.pump()
        seen = shown(app)
        catalog = i18n.translation(language)
        assert seen["title"] == catalog.gettext(english["title"]) != english["title"]
        assert seen["buttons"] == english["buttons"]
        words = [re.sub(r"heat-companion|--data|USB|races\.sqlite3\S*", "", part)  # names
                 for part in (seen["title"], seen["reason"], seen["advice"])]
        assert _english_words(words) == [], (language, words)
        assert seen["detail"] == english["detail"]
        assert check_screen(app, f"fault [{language}]") == []
    app.set_language("en")
    harness.pump()


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.iterdir()) if p.is_file()}


def events(log: Path, race_id: str) -> list[tuple[int, str, str]]:
    """The race's events as stored, read by a separate read-only connection."""
    db = sqlite3.connect(f"{log.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return db.execute("SELECT seq, kind, payload FROM events WHERE race_id = ? ORDER BY seq",
                          (race_id,)).fetchall()
    finally:
        db.close()


def app_db(app: Any) -> sqlite3.Connection:
    """The app's own connection to its log (where the tests inject SQLite's faults)."""
    return app.race_log._log._db  # type: ignore[no-any-return]


def start_race(harness: Any, steps: int = 6) -> None:
    harness.player.set_up_race()
    harness.player.press("start race")
    for _ in range(steps):
        harness.player.step()
    assert harness.app.sm.current == "race"


def step_to_input(harness: Any) -> None:
    """Press the scripted race's buttons up to the next one that reaches the log (keypad keys
    do not) or shows a fault."""
    app = harness.app
    for _ in range(30):
        logged, error = app.session.events_logged, app.controller.error
        harness.player.step()
        if app.sm.current != "race" or app.session.events_logged != logged or (
                app.controller is not None and app.controller.error != error):
            return
    raise AssertionError("no input reached the log")


def race_screen(app: Any) -> tuple[str, str, str]:
    return text(app, "prompt"), text(app, "status"), app.sm.get_screen("race").ids.messages.text


# --- a full disk ---------------------------------------------------------------------------------


def _fill_until_fault(harness: Any, press_next: Callable[[], None], limit: int = 400
                      ) -> tuple[Any, int, list[Any], tuple[str, str, str]]:
    """Press until the log is full; returns what the race was just before the failed input."""
    app = harness.app
    db = app_db(app)
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    for _ in range(limit):
        before = (app.session.state, app.session.events_logged,
                  events(app.log_access.path, app.session.race_id), race_screen(app))
        press_next()
        if app.sm.current == FAULT:
            return before
        assert app.sm.current == "race", "the race ended before the log was full"
    raise AssertionError("the page limit was never reached")


def test_a_full_disk_records_nothing_and_retry_records_the_input_once(make) -> None:
    harness = make()
    _race_at_the_page_limit(harness)
    app = launch(harness)
    tap(harness, "continue")
    race_id, log = app.session.race_id, app.log_access.path
    state, logged, stored, screen = _fill_until_fault(harness, harness.player.step)
    # The input was not recorded: the race in memory, in the log and on screen is as it was.
    assert (app.session.state, app.session.events_logged) == (state, logged)
    assert app.controller.state is state
    assert events(log, race_id) == stored
    english = shown(app)
    assert english["title"] == "The storage is full"
    assert english["reason"].startswith("The storage is full, so nothing more can be saved")
    assert "Your input was not recorded: the race is exactly as it was" in english["advice"]
    assert "Free some space" in english["advice"]
    assert english["advice"].endswith("Then tap Retry.")
    assert english["buttons"] == ["retry", "back"]
    assert str(log) in english["detail"] and "full" in english["detail"]
    check_languages(harness, english)
    # Retry while the disk is still full: the same screen, still nothing recorded.
    tap(harness, "fault retry")
    assert shown(app)["title"] == "The storage is full"
    assert events(log, race_id) == stored and app.session.events_logged == logged
    # Back: the race screen as it was, saying the input was not recorded.
    tap(harness, "fault back")
    assert app.sm.current == "race"
    prompt, status, messages = race_screen(app)
    assert (prompt, status, messages) == screen
    assert text(app, "error").startswith("Not recorded: The storage is full")
    # The same input again, still full: the fault again; then space is freed and Retry records
    # it, exactly once.
    step_to_input(harness)
    assert app.sm.current == FAULT and app.session.events_logged == logged
    app_db(app).execute("PRAGMA max_page_count = 1073741823")
    tap(harness, "fault retry")
    assert app.sm.current in ("race", "results")
    after = events(log, race_id)
    assert after[:-1] == stored and len(after) == len(stored) + 1
    assert app.session.events_logged == logged + 1
    assert app.controller.error == ""
    assert app.session.state != state
    from companion.session import RaceLog

    with RaceLog(log, read_only=True) as reader:  # the log replays to what the screen shows
        assert reader.open_race(race_id).state == app.session.state
    for _ in range(5):  # and the race goes on, every input recorded
        step_to_input(harness)
    assert app.sm.current == "race" and len(events(log, race_id)) == len(after) + 5


def test_undo_and_redo_on_a_full_disk_change_nothing(make) -> None:
    harness = make()
    _race_at_the_page_limit(harness)
    app = launch(harness)
    tap(harness, "continue")
    race_id, log = app.session.race_id, app.log_access.path
    flip = {"next": "undo"}

    def undo_or_redo() -> None:
        tap(harness, flip["next"])
        flip["next"] = "redo" if flip["next"] == "undo" else "undo"

    state, logged, stored, _screen = _fill_until_fault(harness, undo_or_redo)
    failed = "redo" if flip["next"] == "undo" else "undo"
    assert (app.session.state, app.session.events_logged) == (state, logged)
    assert events(log, race_id) == stored
    app_db(app).execute("PRAGMA max_page_count = 1073741823")
    tap(harness, "fault retry")
    after = events(log, race_id)
    assert after[:-1] == stored and after[-1][1] == failed and len(after) == len(stored) + 1
    assert app.sm.current == "race" and app.controller.messages[0].startswith(
        "Undone: " if failed == "undo" else "Redone: ")  # and what, and whose


# --- another copy of the app, another program ----------------------------------------------------

_HOLD = """
import sys
from companion.storage.lock import LogClaim
claim = LogClaim.take(sys.argv[1])
print(claim.holder.pid, claim.holder.since, flush=True)
sys.stdin.read()
"""


@pytest.fixture
def other_copy() -> Iterator[Callable[[Path], tuple[subprocess.Popen[str], int, str]]]:
    """``hold(log)``: a second process claims the log, as a running copy of the app does."""
    children: list[subprocess.Popen[str]] = []

    def hold(log: Path) -> tuple[subprocess.Popen[str], int, str]:
        log.parent.mkdir(parents=True, exist_ok=True)
        child = subprocess.Popen([sys.executable, "-c", _HOLD, str(log)], cwd=REPO,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        children.append(child)
        assert child.stdout is not None
        pid, since = child.stdout.readline().split()
        return child, int(pid), since

    try:
        yield hold
    finally:
        for child in children:
            child.kill()
            child.wait(timeout=30)


def test_a_second_copy_of_the_app_is_told_which_copy_runs(make, other_copy) -> None:
    harness = make()
    log = harness.data / "races.sqlite3"
    child, pid, since = other_copy(log)
    app = launch(harness)
    assert app.race_log is None
    english = shown(app)
    assert english["title"] == "The race log is in use"
    assert english["reason"] == (f"The race log is in use by another copy of heat-companion "
                                 f"(process {pid} on {socket.gethostname()}).")
    assert f"has held the log since {since[:16].replace('T', ' ')}" in english["advice"]
    assert english["buttons"] == ["retry"]
    check_languages(harness, english)
    for language in CJK:  # the process and host are named in every language
        app.set_language(language)
        assert str(pid) in text(app, "fault reason")
    app.set_language("en")
    tap(harness, "fault retry")  # still running
    assert shown(app)["reason"] == english["reason"]
    child.kill()
    child.wait(timeout=30)
    tap(harness, "fault retry")
    assert app.sm.current == "start" and app.race_log is not None
    from companion.storage.lock import holder

    found = holder(log)
    assert found is not None and found.pid == os.getpid()  # this copy holds it now
    harness.stop()
    assert holder(log) is None  # and gave it up when it stopped


def test_a_log_locked_by_another_program_during_a_race(make) -> None:
    harness = make()
    app = launch(harness)
    start_race(harness, steps=3)
    race_id, log = app.session.race_id, app.log_access.path
    app_db(app).execute("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(log, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        state, logged, stored = app.session.state, app.session.events_logged, events(log, race_id)
        step_to_input(harness)
        english = shown(app)
        assert english["title"] == "The race log is in use"
        # SQLite's lock is this app's own claim's neighbour: not "another copy", whatever
        # the lock file says.
        assert english["reason"] == "The race log is locked by another program."
        assert "Another program is using the race log" in english["advice"]
        assert english["buttons"] == ["retry", "back"]
        assert (app.session.state, app.session.events_logged) == (state, logged)
        tap(harness, "fault retry")
        assert app.sm.current == FAULT and events(log, race_id) == stored
    finally:
        other.execute("ROLLBACK")
        other.close()
    tap(harness, "fault retry")
    assert app.sm.current == "race"
    assert len(events(log, race_id)) == len(stored) + 1 == app.session.events_logged


# --- read-only storage ---------------------------------------------------------------------------


SEASON = "5ea50061"


def _two_races(harness: Any) -> tuple[str, str]:
    """A finished race, a running one and a 1961 season not started, in the app's log; returns
    the races' ids."""
    from bench import racegen
    from companion.championship import SEASONS
    from companion.engine import CarEntry
    from companion.storage.seasons import SeasonStore

    with SeasonStore(harness.data / "races.sqlite3") as store:
        log = store.races
        done = log.new_race(racegen.setup(humans=2, legends=1, laps=1, seed=2),
                            created="2024-06-01T20:00", race_id="a1b2c3d4")
        racegen.drive(done, 5000)
        assert done.state.over
        running = log.new_race(racegen.setup(humans=2, legends=1, laps=1, seed=3),
                               created="2024-06-02T20:00", race_id="e5f60718")
        racegen.drive(running, 30)
        store.create_season(SEASONS["1961"], (
            CarEntry("red", "Ana"), CarEntry("green", "Ben"), CarEntry("black", legend=True),
            CarEntry("yellow", legend=True)), season_id=SEASON, created="2024-06-03T20:00")
    return done.race_id, running.race_id


def _race_at_the_page_limit(harness: Any) -> None:
    """A running race whose log is one input short of needing a new page: with SQLite's page
    limit at the file's size, one of the next few inputs is refused as a full disk."""
    import random

    from bench import racegen
    from companion.session import RaceLog
    from companion.storage import DiskFullError

    with RaceLog(harness.data / "races.sqlite3") as log:
        race = log.new_race(racegen.setup(humans=2, legends=1, laps=2, seed=5),
                            created="2024-06-01T20:00", race_id="f0f0f0f0")
        db = log._log._db
        rng = random.Random(5)
        for _ in range(2000):
            action = racegen.next_action(race.state, rng)
            assert action is not None, "the race ended before the page limit"
            db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
            try:
                race.submit(action)
            except DiskFullError:
                return
            finally:
                db.execute("PRAGMA max_page_count = 1073741823")
    raise AssertionError("the page limit was never reached")


def test_read_only_storage_shows_the_races_and_refuses_inputs(
        make, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from companion.storage import db

    harness = make()
    done, running = _two_races(harness)
    log = harness.data / "races.sqlite3"
    stored = {race: events(log, race) for race in (done, running)}
    monkeypatch.setattr(db, "_writable", lambda path: False)
    app = launch(harness)
    before = digest(harness.data)
    english = shown(app)
    assert english["title"] == "The storage is read-only"
    assert english["reason"].startswith("The race log is read-only: races can be viewed")
    assert "export them to a folder that can be written" in english["advice"]
    assert english["buttons"] == ["retry", "view"]
    check_languages(harness, english)
    assert app.storage_read_only and app.race_log.read_only
    # View the races: both are listed; the finished one opens on its results.
    tap(harness, "fault view")
    assert app.sm.current == "races"
    assert {w for w in (f"open {done}", f"open {running}")} <= _names(app)
    tap(harness, f"open {done}")
    assert app.sm.current == "results" and text(app, "place 1").startswith("1. ")
    from companion.ui.widgets.lookup import find

    undo = find(app.sm.current_screen, "undo finish")  # nothing can be recorded: greyed
    assert undo.disabled
    assert undo.why_disabled == "The race log is read-only: an undo cannot be recorded."
    # The championship: the season and its standings.
    app.show("start")
    tap(harness, "championship")
    assert app.sm.current == "seasons" and f"open season {SEASON}" in _names(app)
    tap(harness, f"open season {SEASON}")
    assert app.sm.current == "standings"
    assert text(app, "standings title").startswith("1961")
    # Export to a folder that can be written.
    app.show("races")
    exports = tmp_path / "usb"
    app.sm.current_screen.ids.folder.text = str(exports)
    tap(harness, f"export {done}")
    exported = json.loads((exports / f"race-{done}.json").read_text(encoding="utf-8"))
    assert exported["format"] == "heat-race/1"
    # The running race opens; an input is refused on the race screen, saying why.
    app.show("start")
    tap(harness, "continue")
    assert app.sm.current == "race"
    state = app.session.state
    step_to_input(harness)
    assert app.sm.current == "race" and app.session.state == state
    assert text(app, "error").startswith("Not recorded: The race log is read-only")
    # New race is greyed on Start, and says why when tapped (before a race is set up for
    # nothing: a table test found it said only at Start race).
    from test_disabled_why import _tap

    from companion.ui.widgets.basic import current_hint

    app.show("start")
    harness.pump()
    button = app.sm.current_screen.ids.new_race_button
    assert button.disabled
    _tap(button)
    harness.pump()
    assert app.sm.current == "start"
    assert current_hint().text == ("The storage is read-only. To play, make the storage "
                                   "writable (check the card's lock switch).")
    # A race set up all the same (the storage turned read-only on the way) cannot be stored:
    # the fault screen says so, and Back returns to the form.
    app.screen("newrace").open_setup()
    app.show("newrace")
    tap(harness, "start race")
    assert shown(app)["title"] == "The storage is read-only"
    assert "Nothing was changed." in shown(app)["advice"]
    assert shown(app)["advice"].endswith("Then go back and try again.")  # no Retry here
    tap(harness, "fault back")
    assert app.sm.current == "newrace"
    assert digest(harness.data) == before  # nothing written while viewing
    assert {race: events(log, race) for race in stored} == stored
    # Writable again: Retry opens the log to write, and the race goes on.
    monkeypatch.undo()
    app.storage_fault(app.log_access.read_only, context="open", retry=app.open_storage,
                      back=None)  # as at start-up (the screen shown above has no Retry)
    tap(harness, "fault retry")
    assert not app.storage_read_only
    tap(harness, "continue")
    step_to_input(harness)
    assert len(events(log, running)) == len(stored[running]) + 1


def _names(app: Any) -> set[str]:
    from companion.ui.widgets.lookup import walk

    return {getattr(w, "test_name", "") for w in walk(app.sm.current_screen)}


def test_storage_turning_read_only_during_a_race(make) -> None:
    harness = make()
    app = launch(harness)
    start_race(harness, steps=3)
    race_id, log = app.session.race_id, app.log_access.path
    stored = events(log, race_id)
    app_db(app).execute("PRAGMA query_only = 1")  # SQLite's answer on a read-only mount
    state = app.session.state
    step_to_input(harness)
    english = shown(app)
    assert english["title"] == "The storage is read-only"
    assert "Your input was not recorded" in english["advice"]
    assert english["buttons"] == ["retry", "view", "back"]
    assert app.session.state == state and events(log, race_id) == stored
    tap(harness, "fault view")  # give up writing: the log reopened to read only
    assert app.sm.current == "races" and app.storage_read_only
    assert app.controller is None
    tap(harness, f"open {race_id}")
    assert app.sm.current == "race" and app.session.state == state


@pytest.fixture
def world() -> Iterator[Path]:
    """A folder everyone may enter (pytest's own tmp folder is root's alone)."""
    base = Path(tempfile.mkdtemp(prefix="heat-faults-"))
    base.chmod(0o755)
    try:
        yield base
    finally:
        shutil.rmtree(base)


_OPEN_AS_APP = """
import json, sys
from pathlib import Path
from companion.ui.log_access import LogAccess
from companion.storage import StorageError
access = LogAccess(Path(sys.argv[1]))
try:
    access.open()
    print(json.dumps({"opened": True}))
except StorageError as error:
    out = {"kind": str(error.kind), "path": str(error.path),
           "read_only": access.read_only is not None}
    if access.log is not None:
        out["races"] = [r.id for r in access.log.races()]
        out["seasons"] = access.has_seasons()
        out["season_list"] = [s.id for s in access.season_store().seasons()]
        out["events"] = access.log.open_race(sys.argv[2]).events_logged
        try:
            access.log.open_race(sys.argv[2]).undo()
        except StorageError as refused:
            out["submit"] = str(refused.kind)
    print(json.dumps(out))
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="setpriv to nobody needs root")
def test_the_app_on_a_folder_it_cannot_write_for_real(world: Path, make) -> None:
    """As ``nobody`` on a folder only root may write: the app's opening of the log (Kivy-free,
    ``companion.ui.log_access``) cannot take the claim beside the log, opens it read-only,
    and sees every race; where no log exists, the folder is said not to be writable."""
    harness = make()
    done, running = _two_races(harness)
    data = world / "data"
    shutil.copytree(harness.data, data)
    for path in [data, *data.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    packages = world / "packages"
    for name in ("companion", "tracks"):
        shutil.copytree(REPO / name, packages / name, ignore=shutil.ignore_patterns(
            "__pycache__", "fonts", "*.mo", "*.po", "*.pot", "*.kv"))
    for path in [packages, *packages.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    logged = len(events(data / "races.sqlite3", running))
    before = digest(data)
    env = {"PYTHONPATH": str(packages), "PYTHONDONTWRITEBYTECODE": "1", "HOME": str(world),
           "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    python = _python_for_nobody()
    runs = {}
    for name, target in (("existing", data / "races.sqlite3"),
                         ("missing", data / "new" / "races.sqlite3")):
        done_run = subprocess.run(
            ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", python,
             "-c", _OPEN_AS_APP, str(target), running], capture_output=True, text=True,
            timeout=120, env=env, cwd=world)
        assert done_run.returncode == 0, done_run.stderr[-2000:]
        runs[name] = json.loads(done_run.stdout.splitlines()[-1])
    assert runs["existing"] == {
        "kind": "read-only", "path": str(data / "races.sqlite3"), "read_only": True,
        "races": [running, done], "seasons": True, "season_list": [SEASON],
        "events": logged, "submit": "read-only"}
    assert runs["missing"] == {"kind": "folder-not-writable", "path": str(data / "new"),
                               "read_only": False}
    assert digest(data) == before


def _python_for_nobody() -> str:
    candidates = [getattr(sys, "_base_executable", ""), "/usr/bin/python3",
                  shutil.which("python3") or ""]
    for python in dict.fromkeys(c for c in candidates if c):
        probe = subprocess.run(
            ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", python,
             "-c", "import sqlite3, sys; assert sys.version_info >= (3, 11)"],
            capture_output=True, timeout=60)
        if probe.returncode == 0:
            return python
    raise AssertionError(f"no Python 3.11 that nobody can run among {candidates}")


# --- a damaged log, a file that is not a race log, a newer log ----------------------------------


def test_a_damaged_row_is_kept_copied_and_a_new_log_starts_only_when_asked(make) -> None:
    harness = make()
    done, running = _two_races(harness)
    log = harness.data / "races.sqlite3"
    db = sqlite3.connect(log)
    db.execute("UPDATE events SET payload = '{\"not json' WHERE race_id = ? AND seq = 3",
               (running,))
    db.commit()
    db.close()
    original = log.read_bytes()
    stored = {race: events(log, race) for race in (done, running)}
    app = launch(harness)
    assert app.sm.current == "start"  # the other races are fine
    tap(harness, "continue")
    english = shown(app)
    assert english["title"] == "The race log is damaged"
    assert english["reason"] == f"Race {running} in the race log is damaged at event 3."
    copy = log.with_name("races.sqlite3.damaged-20240601-201500")
    assert f"a copy was saved beside it: {copy.name}" in english["advice"]
    assert english["buttons"] == ["new-log", "back"]
    check_languages(harness, english)
    assert copy.read_bytes() == original and log.read_bytes() == original
    # Back: the log is still used for what can be read.
    tap(harness, "fault back")
    assert app.sm.current == "start"
    tap(harness, "races")
    assert f"open {done}" in _names(app)
    tap(harness, f"open {done}")
    assert app.sm.current == "results"
    # Opening the damaged race again: the same screen, no second copy.
    app.show("races")
    tap(harness, f"open {running}")
    assert shown(app)["reason"] == english["reason"]
    assert sorted(p.name for p in harness.data.glob("races.sqlite3.damaged-*")) == [copy.name]
    # A new log only when asked, after a confirmation that says what happens.
    tap(harness, "fault new-log")
    asking = shown(app)
    assert asking["title"] == "Start a new log?"
    aside = "races.sqlite3.damaged-20240601-201500-2"
    assert asking["reason"] == (f"The current log is set aside as {aside} in the same folder: "
                                f"nothing is deleted.")
    assert asking["buttons"] == ["confirm-new-log", "cancel"]
    check_languages(harness, asking)
    tap(harness, "fault cancel")
    assert shown(app)["title"] == "The race log is damaged" and log.read_bytes() == original
    tap(harness, "fault new-log")
    tap(harness, "fault confirm-new-log")
    done_view = shown(app)  # where the old file went, until OK
    assert done_view["title"] == "New log started" and done_view["buttons"] == ["done"]
    assert done_view["reason"] == (f"A new race log was started. The old one was set aside as "
                                   f"{aside}.")
    check_languages(harness, done_view)
    tap(harness, "fault done")
    assert app.sm.current == "start" and app.race_log.race_ids() == []
    for kept in (copy, log.with_name(aside)):  # nothing recorded is lost
        assert {race: events(kept, race) for race in stored} == stored
    harness.player.set_up_race()
    harness.player.press("start race")  # the new log takes races
    assert app.sm.current == "race" and len(app.race_log.race_ids()) == 1


def test_a_damaged_race_summary_keeps_the_start_screen(make) -> None:
    harness = make()
    done, running = _two_races(harness)
    log = harness.data / "races.sqlite3"
    db = sqlite3.connect(log)
    db.execute("UPDATE races SET laps = 'two' WHERE id = ?", (done,))
    db.commit()
    db.close()
    app = launch(harness)
    assert app.sm.current == "start"
    tap(harness, "races")
    english = shown(app)
    assert english["reason"] == f"Race {done} in the race log is damaged."
    assert "laps" in english["detail"]
    tap(harness, "fault back")
    assert app.sm.current == "start"
    tap(harness, "continue")  # the other race is still played
    assert app.sm.current == "race" and app.session.race_id == running


def test_a_file_that_is_not_a_race_log_is_set_aside_only_when_asked(make) -> None:
    harness = make()
    harness.data.mkdir(parents=True)
    log = harness.data / "races.sqlite3"
    log.write_bytes(b"Shopping list: tyres, fuel, coffee.\n" * 200)
    original = log.read_bytes()
    app = launch(harness)
    english = shown(app)
    assert english["title"] == "This file is not a race log"
    assert english["reason"] == "The file is not a race log."
    assert english["buttons"] == ["retry", "new-log"]
    assert "file is not a database" in english["detail"]
    check_languages(harness, english)
    tap(harness, "fault retry")
    assert shown(app)["title"] == english["title"] and log.read_bytes() == original
    assert not list(harness.data.glob("races.sqlite3.*-2024*"))  # no copy of a foreign file
    tap(harness, "fault new-log")
    tap(harness, "fault confirm-new-log")
    tap(harness, "fault done")
    assert app.sm.current == "start"
    aside = harness.data / "races.sqlite3.not-a-race-log-20240601-201500"
    assert aside.read_bytes() == original
    start_race(harness, steps=2)


def test_a_newer_log_is_left_alone(make) -> None:
    harness = make()
    harness.data.mkdir(parents=True)
    log = harness.data / "races.sqlite3"
    db = sqlite3.connect(log)
    db.execute("PRAGMA journal_mode = WAL")  # as heat-companion writes its logs
    db.execute("PRAGMA user_version = 9")
    db.execute("CREATE TABLE future (x)")
    db.commit()
    db.close()
    original = log.read_bytes()
    app = launch(harness)
    english = shown(app)
    assert english["title"] == "The race log is from a newer version"
    assert "schema 9" in english["reason"]
    assert "update heat-companion" in english["advice"]
    assert english["buttons"] == ["retry"]
    check_languages(harness, english)
    tap(harness, "fault retry")
    assert app.sm.current == FAULT and log.read_bytes() == original


# --- a folder where no log can be made; an I/O error ---------------------------------------------


def test_a_folder_that_cannot_be_written(make, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.storage import db

    monkeypatch.setattr(db, "_writable", lambda path: False)
    harness = make()
    app = launch(harness)
    english = shown(app)
    assert english["title"] == "The data folder cannot be written"
    assert english["buttons"] == ["retry"]
    assert str(harness.data) in english["detail"]
    check_languages(harness, english)
    monkeypatch.undo()
    tap(harness, "fault retry")
    assert app.sm.current == "start" and app.race_log is not None


def test_an_io_error_and_retry(make) -> None:
    harness = make()
    harness.data.mkdir(parents=True)
    blocker = harness.data / "races.sqlite3.lock"
    blocker.mkdir()  # the claim's lock file cannot be opened
    app = launch(harness)
    english = shown(app)
    assert english["title"] == "The race log cannot be used"
    assert english["buttons"] == ["retry"]
    assert "Is a directory" in english["detail"]
    check_languages(harness, english)
    blocker.rmdir()
    tap(harness, "fault retry")
    assert app.sm.current == "start" and app.race_log is not None


# --- the real main loop ------------------------------------------------------------------------

_MAIN_LOOP = r"""
import json, sys
from kivy.clock import Clock
from companion.ui.app import HeatApp

seen = []

class Probe(HeatApp):
    def _after_first_frame(self, dt=0):
        super()._after_first_frame(dt)
        seen.append(self.sm.current)  # the fault screen, from the opening
        self.sm.current = "start"     # as if the table had gone past it
        Clock.schedule_once(self.then, 0)
        self.log()                    # NotARaceLogError, raised into Kivy's own loop
        seen.append("not reached")

    def then(self, _dt):
        seen.append(self.sm.current)  # the loop showed the fault screen and went on
        self.fault_action("new-log")
        self.fault_action("confirm-new-log")
        self.fault_action("done")
        seen.append(self.sm.current)
        seen.append(self.race_log.race_ids())
        self.stop()

Probe(data=sys.argv[1]).run()
print(json.dumps(seen), flush=True)
"""


def test_the_real_main_loop_survives_a_storage_error(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "races.sqlite3").write_text("not a log\n" * 100, encoding="utf-8")
    script = tmp_path / "probe.py"
    script.write_text(_MAIN_LOOP, encoding="utf-8")
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1",
               KIVY_HOME=str(tmp_path / "kivy"), PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, str(script), str(data)], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.splitlines()[-1]) == [FAULT, FAULT, "start", []]
    assert (data / "races.sqlite3").exists()
    assert len(list(data.glob("races.sqlite3.not-a-race-log-*"))) == 1


# --- the season screens, exports, another writer ------------------------------------------------


def test_season_screens_on_faults(make, monkeypatch: pytest.MonkeyPatch) -> None:
    harness = make()
    _two_races(harness)
    log = harness.data / "races.sqlite3"
    app = launch(harness)
    # Storing a new season on storage that turned read-only: nothing stored, the form is kept.
    tap(harness, "championship")
    tap(harness, "season 1962")
    for index, name in enumerate(("Ana", "Ben")):
        harness.player.find(f"name {index}").text = name
    store = app.season_store()
    store._log._db.execute("PRAGMA query_only = 1")
    seasons_before = [s.id for s in store.seasons()]
    tap(harness, "create season")
    english = shown(app)
    assert english["title"] == "The storage is read-only"
    assert "Nothing was changed." in english["advice"]
    tap(harness, "fault back")
    assert app.sm.current == "newseason"
    assert [s.id for s in store.seasons()] == seasons_before
    store._log._db.execute("PRAGMA query_only = 0")
    tap(harness, "create season")
    assert app.sm.current == "standings" and len(store.seasons()) == len(seasons_before) + 1
    # The standings' export on a full disk: the fault screen, Back to the standings.
    import pathlib

    write_text = pathlib.Path.write_text

    def full(self: pathlib.Path, *args: Any, **kwargs: Any) -> int:
        if "seasons" in self.parts:
            raise OSError(28, "No space left on device", str(self))
        return write_text(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "write_text", full)
    tap(harness, "export standings")
    english = shown(app)
    assert english["title"] == "The storage is full"
    assert "No space left on device" in english["detail"]
    assert english["buttons"] == ["back"]
    assert english["advice"].endswith("Then go back and try again.")
    tap(harness, "fault back")
    assert app.sm.current == "standings"
    monkeypatch.undo()
    # A damaged season: the Championship screen says which; Back to the start screen.
    db = sqlite3.connect(log)
    db.execute("UPDATE seasons SET definition = '{\"name\": 1' WHERE id = ?", (SEASON,))
    db.commit()
    db.close()
    app.show("start")
    tap(harness, "championship")
    english = shown(app)
    assert english["reason"] == f"Season {SEASON} in the race log is damaged."
    assert english["buttons"] == ["new-log", "back"]
    assert log.with_name("races.sqlite3.damaged-20240601-201500").exists()
    tap(harness, "fault back")
    assert app.sm.current == "start"


def test_another_writer_in_the_same_race_and_reopen(make) -> None:
    harness = make()
    app = launch(harness)
    start_race(harness, steps=3)
    race_id, log = app.session.race_id, app.log_access.path
    from companion.session import RaceLog

    with RaceLog(log) as other:  # a tool writing the same race (it does not take the claim)
        intruder = other.open_race(race_id)
        assert intruder.events_logged == app.session.events_logged and intruder.undo()
    stored = events(log, race_id)
    state = app.session.state
    step_to_input(harness)
    english = shown(app)
    assert english["title"] == "The race was changed elsewhere"
    assert english["reason"] == (f"Another copy of heat-companion has written to race "
                                 f"{race_id} at the same time.")
    assert english["buttons"] == ["reopen", "back"]
    assert app.session.state == state and events(log, race_id) == stored
    tap(harness, "fault reopen")
    assert app.sm.current == "race"
    assert app.session.events_logged == len(stored)  # what the log holds: the other's undo too
    step_to_input(harness)
    assert len(events(log, race_id)) == len(stored) + 1


def test_the_controller_shows_an_input_as_accepted_only_after_its_commit() -> None:
    """Kivy-free: a session whose log refuses the input; the controller changes nothing, says
    why, keeps the keypad, retries once; an error that is no storage fault propagates."""
    from bench import racegen
    from companion.engine import Rejection
    from companion.storage import DiskFullError
    from companion.storage.fold import Timeline
    from companion.ui.controller import RaceController

    class Session:
        def __init__(self) -> None:
            self.timeline = Timeline.start(racegen.setup(humans=2, legends=0, laps=1))
            self.full = True
            self.appended = 0

        @property
        def state(self) -> Any:
            return self.timeline.current.state

        can_undo = property(lambda self: self.timeline.can_undo)
        can_redo = property(lambda self: self.timeline.can_redo)

        def submit(self, action: Any) -> Any:
            result = self.timeline.try_input(action)
            if isinstance(result, Rejection):
                return result
            if self.full:
                raise DiskFullError(path="/x/races.sqlite3", detail="database or disk is full")
            self.appended += 1
            self.timeline.push(action, result)
            return result

        def undo(self) -> bool:
            raise ValueError("a bug, not a storage fault")

        def redo(self) -> bool:
            return False

        def one_transaction(self) -> Any:  # this stand-in writes each input as it comes
            return contextlib.nullcontext()

    faults: list[Exception] = []

    def on_fault(error: Exception) -> bool:
        faults.append(error)
        return isinstance(error, DiskFullError)

    session = Session()
    changes: list[int] = []
    controller = RaceController(session, on_change=lambda: changes.append(1), on_fault=on_fault)
    before = session.state
    car = before.order[0]
    assert controller.choose_gear(car, 2) is None
    assert session.state is before and session.appended == 0
    assert controller.messages == [] and controller.view().error.startswith(
        "Not recorded: The storage is full")
    assert len(faults) == 1 and changes
    assert controller.retry() is False and session.appended == 0  # still full
    session.full = False
    assert controller.retry() is True and session.appended == 1
    assert controller.retry() is False and session.appended == 1  # recorded once
    assert controller.error == "" and controller.messages[-1].endswith("is ready.")
    with pytest.raises(ValueError):  # a bug is not a storage fault: raised, as before
        controller.undo()
    session.full = True
    with pytest.raises(DiskFullError):  # without on_fault, nothing is swallowed
        RaceController(session).choose_gear(before.order[1], 2)


def test_a_damaged_log_that_cannot_be_copied_says_so_and_leaves_nothing(
        make, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.ui import log_access

    harness = make()
    done, running = _two_races(harness)
    log = harness.data / "races.sqlite3"
    db = sqlite3.connect(log)
    db.execute("UPDATE events SET payload = '[]' WHERE race_id = ? AND seq = 2", (running,))
    db.commit()
    db.close()
    original = log.read_bytes()
    copyfile = shutil.copyfile

    def full(source: Any, target: Any) -> Any:
        copyfile(source, target)  # a partial copy, then the card is full
        raise OSError(28, "No space left on device", str(target))

    monkeypatch.setattr(log_access.shutil, "copyfile", full)
    app = launch(harness)
    tap(harness, "continue")
    english = shown(app)
    assert english["reason"] == f"Race {running} in the race log is damaged at event 2."
    assert "No copy could be made: No space left on device." in english["advice"]
    assert sorted(p.name for p in harness.data.iterdir() if "damaged" in p.name) == []
    assert log.read_bytes() == original


def test_the_fault_screen_words_and_buttons() -> None:
    """Kivy-free: what each kind offers, and the words for a lock held by this very process
    (SQLite's lock: another program, whatever the lock file says)."""
    from companion.storage import errors
    from companion.ui.log_access import as_storage_error
    from companion.ui.views.storage_fault import Fault, fault_view

    def view(error: Any, **kw: Any) -> Any:
        return fault_view(Fault(error=error, **kw))

    full = errors.DiskFullError(path="/d/races.sqlite3", detail="database or disk is full")
    assert [k for k, _ in view(full, context="input", can_retry=True, back="race").actions] == [
        "retry", "back"]
    assert view(full, context="input", can_retry=True, back="race").detail == (
        "/d/races.sqlite3 · database or disk is full")
    ours = errors.LogLockedError(path="/d/races.sqlite3", pid=os.getpid(), host="h")
    assert view(ours, can_retry=True, own_pid=os.getpid(), own_host="h").reason == (
        "The race log is locked by another program.")
    assert "another copy" in view(ours, own_pid=os.getpid(), own_host="other").reason
    theirs = errors.LogLockedError(path="/d/races.sqlite3", pid=1, host="table-pi")
    seen = view(theirs, can_retry=True, since="2024-06-01T20:14:05+02:00")
    assert "(process 1 on table-pi)" in seen.reason and "since 2024-06-01 20:14" in seen.advice
    damaged = errors.CorruptLogError("r1", 3, "bad")
    assert [k for k, _ in view(damaged, can_retry=True, back=None).actions] == [
        "retry", "new-log"]
    assert [k for k, _ in view(damaged, can_retry=True, back="races").actions] == [
        "new-log", "back"]
    assert [k for k, _ in view(errors.WriteConflictError("r1", 4), race_open=True,
                               back="race").actions] == ["reopen", "back"]
    assert [k for k, _ in view(errors.UnknownRaceError("r1"), back="races").actions] == ["back"]
    # An OSError on a file is a storage fault of its kind; anything else is not.
    assert as_storage_error(OSError(28, "No space left on device", "/d/x.csv")).kind == (
        "disk-full")
    assert as_storage_error(OSError(30, "Read-only file system", "/d/x.csv")).kind == (
        "read-only")
    assert as_storage_error(OSError(5, "Input/output error")) is None
    assert as_storage_error(ValueError("x")) is None
