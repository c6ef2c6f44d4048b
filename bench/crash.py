"""Crash test of the race log: kill a writer with SIGKILL at a random moment, then check the log,
and check that every input was durable before it was acknowledged.

A child process appends the events of a scripted race (inputs, undos and redos from
:func:`bench.racegen.script`) through :class:`companion.session.RaceSession`, as the app's taps
do: one to three events at a time in one transaction (``RaceSession.one_transaction``: a tap's
input and the End turn that follows it by itself, the undos of one Undo; the sizes drawn from
the seed, :func:`taps`), printing the last seq (flushed) once the transaction has committed: its
acknowledgement. A thread in the parent reads
everything the child writes as it comes (nothing read is ever dropped, and the child never
blocks on a full pipe). The parent kills the child after a random number of acknowledgements
plus a random fraction of a millisecond or a few, reopens the log and checks that:

* **durability**: every acknowledgement came after a sync of every write to the log before it.
  The child runs with the LD_PRELOAD shim of :mod:`bench.synctrace`, which reports each write to
  and each fsync/fdatasync of the database, its WAL and journal into the same pipe as the
  acknowledgements, in order. A kill alone cannot catch lost durability (the kernel keeps a
  killed process's unsynced writes: with ``synchronous=OFF`` every kill still passes); the
  trace shows what a power cut at the acknowledgement would have lost;
* every event the child reported is there, plus at most the tap being committed when it died,
  whole: a tap's events are all in the log or none of them is;
* the stored events are exactly the script's first ones, and ``PRAGMA integrity_check`` is ok;
* the reopened race replays to the same state as a fresh fold of those events (no storage);
* the race can go on: the next scripted event is accepted.

``python bench/crash.py [N] [--synchronous LEVEL] [--split-taps]`` runs N kills (default 200)
and prints one JSON line; it exits 1 if any trial failed. ``--synchronous OFF`` (or ``NORMAL``)
makes the child's SQLite connections use that level instead of the app's ``FULL`` (a switch of
the bench's child only; the app has none), to show that the bench catches it. ``--split-taps``
makes the child commit and report each event of a tap on its own, pausing after a tap's first:
a kill there leaves half a tap, which the bench must catch.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import racegen, synctrace
from companion import racefile
from companion.engine import RaceSetup, Rejection
from companion.session import RaceLog, RaceSession
from companion.storage import codec
from companion.storage.db import EventLog
from companion.storage.fold import Event, EventKind, effective_inputs, fold_state

RACE_ID = "crash"
SCRIPT_LENGTH = 300
MAX_ACKS_BEFORE_KILL = 200
"""A kill comes after 0 to this many acknowledgements (then a random 0-4 ms), and before the
script's last tap."""
MAX_EXTRA_DELAY = 0.004
TAP_SIZES = (1, 1, 1, 1, 2, 2, 3)
"""How many events a tap records (drawn from these): most one, some two or three."""
LEVELS = ("OFF", "NORMAL", "FULL", "EXTRA")
CHILD_TIMEOUT = 120.0
"""Longest wait for the child to start or to reach its kill point (a stalled child fails)."""


class NotDurable(AssertionError):
    """An input was acknowledged before the log was synced."""


def crash_setup(seed: int) -> RaceSetup:
    return racegen.setup(humans=3, legends=2, laps=8, seed=seed)


def taps(seed: int, length: int = SCRIPT_LENGTH) -> list[int]:
    """The seqs at which the child's taps end (the script cut into taps of
    :data:`TAP_SIZES` events): the only event counts a log may hold after a crash."""
    rng = random.Random(seed * 7919 + 1)
    ends: list[int] = []
    end = 0
    while end < length:
        end = min(length, end + rng.choice(TAP_SIZES))
        ends.append(end)
    return ends


def apply_event(session: RaceSession, event: Event) -> None:
    if event.kind is EventKind.INPUT:
        assert event.action is not None
        if isinstance(session.submit(event.action), Rejection):
            raise AssertionError(f"scripted input {event.action!r} was rejected")
    elif not (session.undo() if event.kind is EventKind.UNDO else session.redo()):
        raise AssertionError(f"scripted {event.kind.value} had nothing to do")


# -- the child --------------------------------------------------------------------------------


def pin_synchronous(level: str) -> list[sqlite3.Connection]:
    """Make every SQLite connection this process opens from now on use ``synchronous=level``,
    whatever the storage code asks for. Returns the list the connections are added to."""
    opened: list[sqlite3.Connection] = []
    connect = sqlite3.connect
    pragma = re.compile(r"\s*PRAGMA\s+(main\.)?synchronous\s*=", re.IGNORECASE)

    class Pinned(sqlite3.Connection):
        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
            if pragma.match(sql):
                sql = f"PRAGMA synchronous={level}"
            return super().execute(sql, *args)

    def pinned_connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        kwargs["factory"] = Pinned
        db: sqlite3.Connection = connect(*args, **kwargs)
        db.execute(f"PRAGMA synchronous={level}")
        opened.append(db)
        return db

    sqlite3.connect = pinned_connect  # type: ignore[assignment]
    return opened


SPLIT_PAUSE = 0.02
"""``--split-taps``: the child's pause after the first event of a tap of several, in seconds
(a kill may come in it)."""


def child(path: str, seed: int, synchronous: str | None, split: float | None = None) -> None:
    """Write the script of ``seed`` to the log at ``path`` tap by tap, reporting the last
    committed seq of each. ``split``: the fault the bench must catch: each event of a tap in
    its own transaction, each reported, and a pause of ``split`` seconds after a tap's first
    event (a crash there leaves half a tap)."""
    opened = pin_synchronous(synchronous) if synchronous else []
    race_setup = crash_setup(seed)
    script = racegen.script(race_setup, seed, SCRIPT_LENGTH)
    log = RaceLog(Path(path))
    session = log.new_race(race_setup, race_id=RACE_ID, created="crash-test")
    levels = sorted({LEVELS[db.execute("PRAGMA synchronous").fetchone()[0]] for db in opened})
    print("ready" + (f" synchronous={','.join(levels)}" if opened else ""), flush=True)
    start = 0
    for end in taps(seed):
        tap = script[start:end]
        if split is None:
            with session.one_transaction():  # a tap: its events all recorded, or none
                for event in tap:
                    apply_event(session, event)
        else:
            for index, event in enumerate(tap):
                apply_event(session, event)  # its own transaction
                if index < len(tap) - 1:  # reported as if it were a tap
                    print(session.events_logged, flush=True)
                    if index == 0:
                        time.sleep(split)
        print(session.events_logged, flush=True)
        start = end
    print("done", flush=True)
    log.close()


# -- the parent -------------------------------------------------------------------------------


class ChildOutput:
    """Everything a child writes to one pipe, read by a thread as it arrives."""

    def __init__(self, pipe: Any) -> None:
        self._fd = pipe.fileno()
        self._data = bytearray()
        self._acks = 0
        self._scanned = 0
        self._eof = False
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._read, name="crash-child-output",
                                        daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while chunk := os.read(self._fd, 65536):
            with self._cond:
                self._data += chunk
                end = self._data.rfind(b"\n") + 1
                if end > self._scanned:
                    lines = self._data[self._scanned:end].split(b"\n")
                    self._acks += sum(line.isdigit() for line in lines)
                    self._scanned = end
                self._cond.notify_all()
        with self._cond:
            self._eof = True
            self._cond.notify_all()

    def wait_for_acks(self, count: int, timeout: float) -> bool:
        """Until ``count`` acknowledgement lines came, or the child closed its output."""
        with self._cond:
            return self._cond.wait_for(lambda: self._eof or self._acks >= count, timeout)

    def wait_for(self, text: bytes, timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: self._eof or text in self._data, timeout)

    def finish(self, timeout: float) -> bytes:
        """Everything, once the child's end of the pipe is closed."""
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise AssertionError(f"the child's output did not end within {timeout} s")
        return bytes(self._data)


@dataclass
class Trial:
    seed: int
    acks_before_kill: int
    delay_ms: float
    reported: int
    """The last seq the child acknowledged."""
    acks: int
    """Taps the child acknowledged."""
    committed: int
    finished: bool
    syncs: int
    """Syncs of the log traced (0 when run without the tracer)."""


def _read_events(path: Path) -> list[Event]:
    db = EventLog(path)
    try:
        return [codec.decode_event(row.kind, row.payload) for row in db.events(RACE_ID)]
    finally:
        db.close()


def _kill_point(seed: int) -> tuple[int, float]:
    """One kill in 20 comes right after the race is created (in or before the first commit)."""
    rng = random.Random(seed)
    last = min(MAX_ACKS_BEFORE_KILL, len(taps(seed)) - 1)
    after = 0 if rng.random() < 0.05 else rng.randint(1, last)
    return after, rng.uniform(0, MAX_EXTRA_DELAY)


def trial(folder: Path, seed: int, *, tracer: Path | None, synchronous: str | None = None,
          after: int | None = None, delay: float | None = None,
          split: float | None = None) -> Trial:
    """One kill, after ``after`` acknowledgements and ``delay`` seconds more (by default both
    drawn from ``seed``). Raises :class:`NotDurable` when an acknowledgement came before its
    sync (``tracer``: the library from :func:`bench.synctrace.build`; None skips that check),
    AssertionError when the log is not what the child committed."""
    drawn_after, drawn_delay = _kill_point(seed)
    after = drawn_after if after is None else after
    delay = drawn_delay if delay is None else delay
    path = folder / f"crash-{seed}.sqlite3"
    for extra in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{extra}").unlink(missing_ok=True)
    env = dict(os.environ, **(synctrace.environment(tracer, path) if tracer else {}))
    command = [sys.executable, str(Path(__file__).resolve()), "--child", str(path), str(seed)]
    if synchronous:
        command += ["--synchronous", synchronous]
    if split is not None:
        command += ["--split-taps", str(split)]
    errors = folder / f"crash-{seed}.stderr"
    with open(errors, "wb") as stderr:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, env=env,
                                start_new_session=True)
    assert proc.stdout is not None
    output = ChildOutput(proc.stdout)
    try:
        if not output.wait_for(b"ready", CHILD_TIMEOUT) or proc.poll() is not None:
            raise AssertionError(f"seed {seed}: child did not start: "
                                 f"{errors.read_text(errors='replace')[-2000:]}")
        # The acknowledgements counted include the race creation ("ready") as 0 events.
        if not output.wait_for_acks(after, CHILD_TIMEOUT):
            raise AssertionError(f"seed {seed}: child stalled before {after} acknowledgements")
        time.sleep(delay)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    out = output.finish(timeout=30)
    proc.stdout.close()
    lines = out.decode("ascii", errors="replace").split("\n")[:-1]  # a cut last line is no report
    check = synctrace.SyncCheck()
    reported, acks, finished, ready = 0, 0, False, ""
    for line in lines:
        if check.trace(line):
            continue
        if line == "done":
            finished = True
            continue
        if line.startswith("ready"):
            ready = line  # the race is created: acknowledged too
        elif line.isdigit():
            reported = int(line)
            acks += 1
        else:
            raise AssertionError(f"seed {seed}: unexpected child output {line!r}")
        check.acknowledged(line)
    if synchronous and ready != f"ready synchronous={synchronous}":
        raise AssertionError(f"seed {seed}: the child could not set synchronous={synchronous} "
                             f"({ready!r})")
    if tracer and check.violations:
        raise NotDurable(f"seed {seed}: {check.violations[0]} "
                         f"({len(check.violations)} of {check.acknowledgements} "
                         "acknowledgements)")

    race_setup = crash_setup(seed)
    script = racegen.script(race_setup, seed, SCRIPT_LENGTH)
    stored = _read_events(path)
    committed = len(stored)
    assert committed >= reported, f"seed {seed}: child reported {reported}, log has {committed}"
    ends = [0, *taps(seed)]
    assert committed in ends, f"seed {seed}: {committed} events: a tap cut short"
    following = next((end for end in ends if end > reported), reported)  # the tap under way
    assert committed <= following, f"seed {seed}: {committed} events, {reported} reported"
    assert stored == script[:committed], f"seed {seed}: stored events differ from the script"
    with sqlite3.connect(path) as db:
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
    assert integrity == "ok", f"seed {seed}: integrity_check: {integrity}"

    with RaceLog(path) as log:
        session = log.open_race(RACE_ID)
        expected = fold_state(race_setup, effective_inputs(script[:committed]))
        assert session.state == expected, f"seed {seed}: reopened state differs from a fold"
        assert racefile.state_document(session.state) == racefile.state_document(expected)
        if committed < len(script):
            apply_event(session, script[committed])  # the race goes on after the crash
            assert session.events_logged == committed + 1
    for extra in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{extra}").unlink(missing_ok=True)
    errors.unlink()
    return Trial(seed, after, round(delay * 1000, 2), reported, acks, committed, finished,
                 check.syncs)


def run(kills: int, *, first_seed: int = 0, synchronous: str | None = None,
        trace: bool = True, split: float | None = None) -> tuple[list[Trial], list[str]]:
    """``kills`` trials; returns those that passed and the failure of each that did not."""
    passed: list[Trial] = []
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="heat-crash-") as folder:
        tracer = synctrace.build(Path(folder)) if trace else None
        for seed in range(first_seed, first_seed + kills):
            try:
                passed.append(trial(Path(folder), seed, tracer=tracer, synchronous=synchronous,
                                    split=split))
            except AssertionError as failure:
                failures.append(f"{type(failure).__name__}: {failure}")
    return passed, failures


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        rest = argparse.ArgumentParser(prog="crash.py --child")
        rest.add_argument("path")
        rest.add_argument("seed", type=int)
        rest.add_argument("--synchronous", choices=LEVELS)
        rest.add_argument("--split-taps", type=float)
        args = rest.parse_args(argv[1:])
        child(args.path, args.seed, args.synchronous, args.split_taps)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kills", nargs="?", type=int, default=200)
    parser.add_argument("--synchronous", choices=LEVELS, type=str.upper,
                        help="the child's SQLite synchronous level instead of the app's own "
                             "(FULL); OFF or NORMAL must make the bench fail")
    parser.add_argument("--no-trace", action="store_true",
                        help="skip the durability check (no C compiler needed)")
    parser.add_argument("--split-taps", action="store_true",
                        help="the child writes and reports each event of a tap in its own "
                             "transaction, pausing after a tap's first (a crash there must "
                             "make the bench fail)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    trials, failures = run(args.kills, first_seed=1000, synchronous=args.synchronous,
                           trace=not args.no_trace,
                           split=SPLIT_PAUSE if args.split_taps else None)
    print(json.dumps({
        "kills": len(trials) + len(failures),
        "passed": len(trials),
        "failed": len(failures),
        "synchronous": args.synchronous or "FULL (the app's)",
        "taps": "split (each event its own transaction)" if args.split_taps else "whole",
        "durability_checked": not args.no_trace,
        "killed_mid_race": sum(not t.finished for t in trials),
        "killed_before_first_commit": sum(t.committed == 0 for t in trials),
        "committed_not_reported": sum(t.committed > t.reported for t in trials),
        "events_committed": sum(t.committed for t in trials),
        "log_syncs_traced": sum(t.syncs for t in trials),
        "seconds": round(time.perf_counter() - started, 1),
        "first_failure": failures[0] if failures else None,
        "example": asdict(trials[-1]) if trials else None,
    }))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
