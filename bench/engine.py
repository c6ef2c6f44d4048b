"""Benchmark: one table input end to end, and resuming a long race from the log.

``python bench/engine.py [--dir DIR] [--inputs N]`` prints a few lines, then as its last line one
JSON object:

* ``input_p50_ms`` / ``input_p99_ms``: :meth:`RaceSession.submit` of one input (validate, apply
  and the durable append: one ``BEGIN IMMEDIATE … COMMIT`` with ``synchronous=FULL`` in WAL), over
  ``inputs`` random legal inputs in a file-backed log in a temporary folder (``dir`` and
  ``filesystem`` say where);
* ``engine_p50_ms`` / ``engine_p99_ms``: the engine's ``play`` alone for the same inputs;
* ``undo_p99_ms``: :meth:`RaceSession.undo` (an appended event, no replay);
* ``resume_ms_3000``: open the log and rebuild a 3,000-input race (median of 5; ``resume_ms_all``
  lists them), plus ``resume_fold_ms_3000``, the part spent in the engine fold alone.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import racegen
from companion.engine import Action, RaceSetup, Rejection, play, start_race
from companion.session import RaceLog
from companion.storage.fold import fold_state

RACE_INPUTS = 3000


def _filesystem(folder: Path) -> str:
    best, fstype = "", "unknown"
    try:
        with open("/proc/mounts", encoding="utf-8") as mounts:
            for line in mounts:
                _, mount, kind, *_ = line.split()
                if str(folder).startswith(mount) and len(mount) > len(best):
                    best, fstype = mount, kind
    except OSError:
        pass
    return f"{fstype} ({best or '?'})"


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _script(setup: RaceSetup, seed: int, count: int) -> list[Action]:
    start = start_race(setup).state
    actions = [a for a, _ in racegen.race(start, random.Random(seed), count)]
    if len(actions) < count:
        raise SystemExit(f"the race ended after {len(actions)} inputs; use more laps")
    return actions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--dir", help="folder for the temporary log (default: the temp dir)")
    parser.add_argument("--inputs", type=int, default=6000, help="inputs to time (default 6000)")
    args = parser.parse_args(argv)

    setup = racegen.setup(humans=4, legends=2, laps=25, seed=7)
    races = [_script(setup, seed, RACE_INPUTS) for seed in range(-(-args.inputs // RACE_INPUTS))]
    folder = Path(tempfile.mkdtemp(prefix="heat-bench-", dir=args.dir))
    path = folder / "races.sqlite3"

    submit_ms: list[float] = []
    engine_ms: list[float] = []
    undo_ms: list[float] = []
    race_ids: list[str] = []
    rounds = 0
    with RaceLog(path) as log:
        for actions in races:
            race = log.new_race(setup, created="bench")
            race_ids.append(race.race_id)
            for action in actions[: args.inputs - len(submit_ms)]:
                started = time.perf_counter()
                race.submit(action)
                submit_ms.append((time.perf_counter() - started) * 1000)
            rounds += race.state.round
        # undo cost: undo and redo on a scratch race, so the 3,000-input race stays intact
        scratch = log.new_race(setup, created="bench")
        for action in races[0][:200]:
            scratch.submit(action)
        for _ in range(100):
            started = time.perf_counter()
            scratch.undo()
            undo_ms.append((time.perf_counter() - started) * 1000)
        log.delete_race(scratch.race_id)

    for actions in races:  # the engine alone, for the same inputs
        state = start_race(setup).state
        for action in actions:
            started = time.perf_counter()
            result = play(state, action)
            engine_ms.append((time.perf_counter() - started) * 1000)
            assert not isinstance(result, Rejection)
            state = result.state

    resume: list[float] = []
    for _ in range(5):
        started = time.perf_counter()
        with RaceLog(path) as log:
            session = log.open_race(race_ids[0])
        resume.append((time.perf_counter() - started) * 1000)
        assert len(session.actions()) == RACE_INPUTS
    started = time.perf_counter()
    final = fold_state(setup, races[0])
    fold_ms = (time.perf_counter() - started) * 1000
    assert final == session.state

    report = {
        "input_p50_ms": round(_pct(submit_ms, 0.50), 3),
        "input_p99_ms": round(_pct(submit_ms, 0.99), 3),
        "input_max_ms": round(max(submit_ms), 3),
        "inputs": len(submit_ms),
        "rounds": rounds,
        "engine_p50_ms": round(_pct(engine_ms, 0.50), 4),
        "engine_p99_ms": round(_pct(engine_ms, 0.99), 4),
        "undo_p99_ms": round(_pct(undo_ms, 0.99), 3),
        "resume_ms_3000": round(statistics.median(resume), 1),
        "resume_ms_all": [round(x, 1) for x in resume],
        "resume_fold_ms_3000": round(fold_ms, 1),
        "race_3000_rounds": session.state.round,
        "log_bytes": sum(p.stat().st_size for p in folder.iterdir()),
        "dir": str(folder),
        "filesystem": _filesystem(folder),
        "journal": "WAL, synchronous=FULL, one BEGIN IMMEDIATE transaction per input",
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
    }
    for extra in ("", "-wal", "-shm"):
        Path(f"{path}{extra}").unlink(missing_ok=True)
    folder.rmdir()
    print(f"{len(submit_ms)} inputs over {rounds} rounds in {folder} ({report['filesystem']})")
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
