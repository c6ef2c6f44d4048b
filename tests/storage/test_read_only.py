"""``races`` and ``export`` on read-only storage, and the app's view of it (issue 13).

The real thing: a user who may read the data folder but not write it. The tests run as root in
CI, and root may write anywhere, so the commands are run as ``nobody`` (``setpriv``) on a copy
of the packages and of the log in a folder ``nobody`` can read but not write; run as another
user, the folder is simply made read-only. What the storage code does when SQLite cannot open
a WAL log read-only is also tested in-process, by injecting SQLite's answer.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench import racegen
from companion import cli
from companion.session import RaceLog
from companion.storage import FolderNotWritableError, ReadOnlyError, StorageKind, db
from companion.storage.db import EventLog

ROOT = Path(__file__).resolve().parents[2]
NOBODY = 65534
AS_ROOT = os.geteuid() == 0

_PENDING = """
import os, sys
sys.path.insert(0, sys.argv[2])
from bench import racegen
from companion.session import RaceLog
log = RaceLog(sys.argv[1])
log._log._db.execute("PRAGMA wal_autocheckpoint = 0")
race = log.new_race(racegen.setup(humans=2, legends=1, laps=1, seed=4), race_id="late",
                    created="2024-06-03T20:00")
racegen.drive(race, 25)
os._exit(0)  # as after a crash: the WAL still holds the committed events
"""


def _store(folder: Path, *, pending: bool) -> None:
    """A log with a finished race and a running one; with ``pending``, a third race whose
    events are only in the ``-wal`` file (the app stopped without closing the log)."""
    with RaceLog(folder / "races.sqlite3") as log:
        done = log.new_race(racegen.setup(humans=2, legends=1, laps=1, seed=2),
                            created="2024-06-01T20:00", race_id="abc123")
        racegen.drive(done, 5000)
        running = log.new_race(racegen.setup(humans=2, legends=0, laps=2),
                               created="2024-06-02T20:00", race_id="abd999")
        racegen.drive(running, 30)
    if pending:
        subprocess.run([sys.executable, "-c", _PENDING, str(folder / "races.sqlite3"),
                        str(ROOT)], check=True, timeout=120)
        assert (folder / "races.sqlite3-wal").stat().st_size > 0


def _commands(data: Path) -> dict[str, tuple[int, str, str]]:
    """``races`` and ``export`` of each race, run in-process on a writable folder."""
    out: dict[str, tuple[int, str, str]] = {}
    for name, argv in _COMMANDS.items():
        stdout, stderr = io.StringIO(), io.StringIO()
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = stdout, stderr
        try:
            code = cli.main(["--data", str(data), *argv])
        finally:
            sys.stdout, sys.stderr = saved
        out[name] = (code, stdout.getvalue(), stderr.getvalue())
    return out


_COMMANDS = {"races": ["races"], "export done": ["export", "abc123"],
             "export running": ["export", "abd999"], "export late": ["export", "late"],
             "seasons": ["championship", "--list"]}


def _digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def _interpreter() -> str:
    """A Python 3.11+ that ``nobody`` can run (this venv's may sit in root's home)."""
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


@pytest.fixture
def world() -> Iterator[Path]:
    """A folder everyone may enter (pytest's own tmp folder is root's alone)."""
    base = Path(tempfile.mkdtemp(prefix="heat-read-only-"))
    base.chmod(0o755)
    try:
        yield base
    finally:
        for folder in base.rglob("*"):
            if folder.is_dir():
                folder.chmod(0o755)
        shutil.rmtree(base)


def _run_as_reader(world: Path, data: Path, argv: list[str]) -> tuple[int, str, str]:
    """``python -m companion --data DATA ARGV`` as a user who may read ``data`` but not
    write it."""
    if AS_ROOT:
        packages = world / "packages"
        if not packages.exists():
            for name in ("companion", "tracks"):
                shutil.copytree(ROOT / name, packages / name, ignore=shutil.ignore_patterns(
                    "__pycache__", "ui", "fonts", "*.mo", "*.po", "*.pot"))
            for path in packages.rglob("*"):
                path.chmod(0o755 if path.is_dir() else 0o644)
            packages.chmod(0o755)
        command = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                   _interpreter(), "-m", "companion", "--data", str(data), *argv]
        env = {"PYTHONPATH": str(packages), "PYTHONDONTWRITEBYTECODE": "1",
               "HOME": str(world), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    else:
        command = [sys.executable, "-m", "companion", "--data", str(data), *argv]
        env = dict(os.environ)
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env,
                          cwd=world)
    return done.returncode, done.stdout, done.stderr


def _make_read_only(data: Path) -> None:
    """Root owns ``data`` (mode 755): nobody may read it, not write it. As another user, the
    folder is made read-only for that user."""
    data.chmod(0o755 if AS_ROOT else 0o555)
    for path in data.iterdir():
        path.chmod(0o644 if AS_ROOT else 0o444)


@pytest.mark.parametrize("pending", [False, True], ids=["closed-log", "log-with-pending-wal"])
def test_races_and_export_on_a_read_only_folder(world: Path, pending: bool) -> None:
    """``races``, ``export`` and ``championship --list`` give exactly what they give on a
    writable folder, write nothing, and see every committed event, those still in the ``-wal``
    file of a log that was not closed included (SQLite cannot open such a log read-only
    without writing its ``-shm`` index)."""
    data = world / "data"
    data.mkdir()
    _store(data, pending=pending)
    writable = world / "writable"
    shutil.copytree(data, writable)
    expected = _commands(writable)
    if not pending:
        del expected["export late"]
        assert not (data / "races.sqlite3-wal").exists()
    _make_read_only(data)
    before = _digest(data)
    for name, argv in _COMMANDS.items():
        if name in expected:
            assert _run_as_reader(world, data, argv) == expected[name], name
    assert _digest(data) == before  # nothing written, not even the WAL index
    assert expected["races"][1].count("\n") == (4 if pending else 3)
    assert expected["seasons"] == (0, "[]\n", "")
    assert "left out" in expected["export running"][2]


_OPEN_TO_WRITE = """
import sys
from companion.session import RaceLog
from companion.storage import StorageError
try:
    RaceLog(sys.argv[1]).close()
except StorageError as error:
    print(error.kind, error.path, sep="\\n")
    print(error)
"""


def test_the_app_opening_a_read_only_log_is_told_read_only(world: Path) -> None:
    """Opened to write (the app), a log on a folder the user cannot write is a read-only error
    (the races can still be viewed), and a folder where no log can be made is said so."""
    data = world / "data"
    data.mkdir()
    _store(data, pending=False)
    _make_read_only(data)
    if AS_ROOT:
        _run_as_reader(world, data, ["races"])  # copies the packages
        python = _interpreter()
        runs = [["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", python,
                 "-c", _OPEN_TO_WRITE, str(target)]
                for target in (data / "races.sqlite3", data / "new" / "races.sqlite3")]
        env = {"PYTHONPATH": str(world / "packages"), "PYTHONDONTWRITEBYTECODE": "1",
               "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    else:
        runs = [[sys.executable, "-c", _OPEN_TO_WRITE, str(target)]
                for target in (data / "races.sqlite3", data / "new" / "races.sqlite3")]
        env = dict(os.environ)
    existing, missing = (subprocess.run(run, capture_output=True, text=True, timeout=120,
                                        env=env, cwd=world) for run in runs)
    assert existing.stdout.splitlines()[:2] == ["read-only", str(data / "races.sqlite3")]
    assert "races can be viewed and exported" in existing.stdout
    assert missing.stdout.splitlines()[:2] == ["folder-not-writable", str(data / "new")]


# --- the same code paths, injected (any user) ----------------------------------------------


def test_an_unwritable_log_opened_to_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    _store(tmp_path, pending=False)
    monkeypatch.setattr(db, "_writable", lambda path: False)
    with pytest.raises(ReadOnlyError) as info:
        RaceLog(tmp_path / "races.sqlite3")
    assert info.value.kind is StorageKind.READ_ONLY
    with pytest.raises(FolderNotWritableError) as missing:
        RaceLog(tmp_path / "other" / "races.sqlite3")
    assert missing.value.path == tmp_path / "other"
    with RaceLog(tmp_path / "races.sqlite3", read_only=True) as log:
        assert [r.id for r in log.races()] == ["abd999", "abc123"]


def _cannot_open_read_only(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """SQLite's answer on read-only storage to ``mode=ro`` of a WAL log: SQLITE_CANTOPEN."""
    opened: list[str] = []
    probe = EventLog._probe

    def refuse(self: EventLog, target: str, *, uri: bool) -> sqlite3.Connection:
        opened.append(target)
        if target.endswith("?mode=ro"):
            error = sqlite3.OperationalError("unable to open database file")
            error.sqlite_errorcode = sqlite3.SQLITE_CANTOPEN  # type: ignore[attr-defined]
            raise error
        return probe(self, target, uri=uri)

    monkeypatch.setattr(EventLog, "_probe", refuse)
    return opened


def test_a_closed_log_is_read_immutable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    _store(tmp_path, pending=False)
    opened = _cannot_open_read_only(monkeypatch)
    with RaceLog(tmp_path / "races.sqlite3", read_only=True) as log:
        assert [r.id for r in log.races()] == ["abd999", "abc123"]
        assert not log._log.snapshot
    assert opened[-1].endswith("?mode=ro&immutable=1")


def test_a_log_with_a_pending_wal_is_read_from_a_copy(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """``immutable=1`` would skip the events still in the ``-wal`` file: the log and its WAL
    are read from a private copy instead, which is removed on close."""
    _store(tmp_path, pending=True)
    with RaceLog(tmp_path / "races.sqlite3", read_only=True) as log:
        expected = log.open_race("late").events_logged
    assert expected > 0
    before = _digest(tmp_path)
    _cannot_open_read_only(monkeypatch)
    with RaceLog(tmp_path / "races.sqlite3", read_only=True) as log:
        assert log._log.snapshot
        copy = log._log._snapshot
        assert copy is not None and copy.exists()
        assert [r.id for r in log.races()] == ["late", "abd999", "abc123"]
        assert log.open_race("late").events_logged == expected
    assert not copy.exists()
    assert _digest(tmp_path) == before
