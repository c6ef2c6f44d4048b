"""Crash test of the race log: kill a writer with SIGKILL at a random moment, then check the log.

A child process appends the events of a scripted race (inputs, undos and redos from
:func:`bench.racegen.script`) through :class:`companion.session.RaceSession`, printing each seq
(flushed) once its transaction has committed. The parent kills it at a random moment, reopens the
log and checks that:

* every event the child reported is there, plus at most the one being committed when it died;
* the stored events are exactly the script's first ones, and ``PRAGMA integrity_check`` is ok;
* the reopened race replays to the same state as a fresh fold of those events (no storage);
* the race can go on: the next scripted event is accepted.

``python bench/crash.py [N]`` runs N kills (default 200) and prints one JSON line.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import racegen
from companion import racefile
from companion.engine import RaceSetup, Rejection
from companion.session import RaceLog, RaceSession
from companion.storage import codec
from companion.storage.db import EventLog
from companion.storage.fold import Event, EventKind, effective_inputs, fold_state

RACE_ID = "crash"
SCRIPT_LENGTH = 1500


def crash_setup(seed: int) -> RaceSetup:
    return racegen.setup(humans=3, legends=2, laps=8, seed=seed)


def apply_event(session: RaceSession, event: Event) -> None:
    if event.kind is EventKind.INPUT:
        assert event.action is not None
        if isinstance(session.submit(event.action), Rejection):
            raise AssertionError(f"scripted input {event.action!r} was rejected")
    elif not (session.undo() if event.kind is EventKind.UNDO else session.redo()):
        raise AssertionError(f"scripted {event.kind.value} had nothing to do")


def child(path: str, seed: int) -> None:
    """Write the script of ``seed`` to the log at ``path``, reporting each committed seq."""
    race_setup = crash_setup(seed)
    script = racegen.script(race_setup, seed, SCRIPT_LENGTH)
    log = RaceLog(Path(path))
    session = log.new_race(race_setup, race_id=RACE_ID, created="crash-test")
    print("ready", flush=True)
    for event in script:
        apply_event(session, event)
        print(session.events_logged, flush=True)
    print("done", flush=True)
    log.close()


@dataclass
class Trial:
    seed: int
    delay_ms: float
    reported: int
    committed: int
    finished: bool


def _read_events(path: Path) -> list[Event]:
    db = EventLog(path)
    try:
        return [codec.decode_event(row.kind, row.payload) for row in db.events(RACE_ID)]
    finally:
        db.close()


def trial(folder: Path, seed: int, delay: float) -> Trial:
    """One kill; raises AssertionError when the log is not what the child committed."""
    path = folder / f"crash-{seed}.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--child", str(path), str(seed)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()
    if first.strip() != b"ready":
        proc.kill()
        raise AssertionError(f"child did not start: {first!r} {proc.stderr.read()!r}")  # type: ignore[union-attr]
    time.sleep(delay)
    os.kill(proc.pid, signal.SIGKILL)
    out, err = proc.communicate(timeout=30)
    lines = out.decode().split("\n")
    finished = "done" in lines
    if not out.endswith(b"\n") and lines:
        lines = lines[:-1]  # a line cut by the kill is not a report
    reported = max((int(line) for line in lines if line.isdigit()), default=0)

    race_setup = crash_setup(seed)
    script = racegen.script(race_setup, seed, SCRIPT_LENGTH)
    stored = _read_events(path)
    committed = len(stored)
    assert committed >= reported, f"seed {seed}: child reported {reported}, log has {committed}"
    assert committed <= reported + 1, f"seed {seed}: {committed} events, {reported} reported"
    assert stored == script[:committed], f"seed {seed}: stored events differ from the script"
    with sqlite3.connect(path) as db:
        check = db.execute("PRAGMA integrity_check").fetchone()[0]
    assert check == "ok", f"seed {seed}: integrity_check: {check}"

    with RaceLog(path) as log:
        session = log.open_race(RACE_ID)
        expected = fold_state(race_setup, effective_inputs(script[:committed]))
        assert session.state == expected, f"seed {seed}: reopened state differs from a fold"
        assert racefile.state_document(session.state) == racefile.state_document(expected)
        if committed < len(script):
            apply_event(session, script[committed])  # the race goes on after the crash
            assert session.events_logged == committed + 1
    path.unlink()
    for extra in ("-wal", "-shm"):
        Path(f"{path}{extra}").unlink(missing_ok=True)
    return Trial(seed, round(delay * 1000, 1), reported, committed, finished)


def run(kills: int, *, first_seed: int = 0, max_delay: float = 0.25) -> list[Trial]:
    rng = random.Random(first_seed)
    with tempfile.TemporaryDirectory(prefix="heat-crash-") as folder:
        return [
            trial(Path(folder), seed, rng.uniform(0, max_delay))
            for seed in range(first_seed, first_seed + kills)
        ]


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        child(argv[1], int(argv[2]))
        return 0
    kills = int(argv[0]) if argv else 200
    started = time.perf_counter()
    trials = run(kills, first_seed=1000)
    print(json.dumps({
        "kills": len(trials),
        "passed": len(trials),
        "killed_mid_race": sum(not t.finished for t in trials),
        "killed_before_first_commit": sum(t.committed == 0 for t in trials),
        "committed_not_reported": sum(t.committed > t.reported for t in trials),
        "events_committed": sum(t.committed for t in trials),
        "seconds": round(time.perf_counter() - started, 1),
        "example": asdict(trials[-1]),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
