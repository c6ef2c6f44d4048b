"""Fuzzing the log readers: whatever value a damaged or hand-edited row holds, ``races`` and
``export`` end with exit 0, or with one line (exit 1 for a log that cannot be read, exit 2 for
an unknown race), never a traceback (issue 13). Derandomized hypothesis.

    .venv/bin/python -m pytest tests/readers/test_fuzz_log.py -s   # prints the counts
"""

from __future__ import annotations

import argparse
import io
import shutil
import sqlite3
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench import racegen
from companion import logtools
from companion.session import RaceLog

COLUMNS = {
    "races": ["id", "created", "track", "setup", "track_id", "laps", "rounds", "over",
              "results"],
    "events": ["seq", "kind", "payload"],
}

NOT_UTF8 = object()
"""Stands for text that is not UTF-8 (written with ``CAST(x AS TEXT)``)."""

VALUES = st.one_of(
    st.integers(), st.floats(allow_nan=False), st.text(max_size=30), st.binary(max_size=12),
    st.just(NOT_UTF8),
    st.sampled_from(["[]", "{}", "[[1]]", '[["red", 1, 2]]', '"usa"', "null", "[" * 50,
                     '{"laps": 1}', "9" * 5000, "usa", "input", "undo", "redo", "-1", "1e9"]),
)


def _pristine() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="heat-fuzz-log-"))
    with RaceLog(folder / "races.sqlite3") as log:
        done = log.new_race(racegen.setup(humans=2, legends=1, laps=1, seed=2),
                            created="2024-06-01T20:00", race_id="abc123")
        racegen.drive(done, 5000)
        running = log.new_race(racegen.setup(humans=2, legends=0, laps=2),
                               created="2024-06-02T20:00", race_id="abd999")
        racegen.drive(running, 30)
    return folder / "races.sqlite3"


def _damage(path: Path, table: str, column: str, value: Any, seq: int) -> bool:
    """Write ``value`` into one row; False if SQLite refuses it (NOT NULL, primary key)."""
    where = "id = 'abc123'" if table == "races" else f"race_id = 'abc123' AND seq = {seq}"
    sql = f"UPDATE {table} SET {column} = {'CAST(? AS TEXT)' if value is NOT_UTF8 else '?'}"
    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA ignore_check_constraints = ON")
        db.execute(f"{sql} WHERE {where}", (b"r\xffd\xc3" if value is NOT_UTF8 else value,))
        db.commit()
        return True
    except (sqlite3.IntegrityError, OverflowError):
        return False
    finally:
        db.close()


def _run(data: Path, command: str, race: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    args = argparse.Namespace(command=command, data=str(data), race=race, out=None)
    return logtools.main(args, out=out, err=err), out.getvalue(), err.getvalue()


def test_damaged_rows_give_one_line_never_a_traceback() -> None:
    pristine = _pristine()
    seen: Counter[str] = Counter()
    work = Path(tempfile.mkdtemp(prefix="heat-fuzz-log-"))
    try:
        @settings(max_examples=250, derandomize=True, database=None, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow])
        @given(table=st.sampled_from(sorted(COLUMNS)), data=st.data(),
               value=VALUES, seq=st.integers(1, 40))
        def damage_one(table: str, data: st.DataObject, value: Any, seq: int) -> None:
            column = data.draw(st.sampled_from(COLUMNS[table]))
            path = work / "races.sqlite3"
            shutil.copyfile(pristine, path)
            if not _damage(path, table, column, value, seq):
                seen["refused by SQLite"] += 1
                return
            for command, race in (("races", None), ("export", "abc123"), ("export", "abd")):
                code, out, err = _run(work, command, race)
                assert code in (0, 1, 2), code
                if code:
                    assert out == "" and err.endswith("\n") and err.count("\n") == 1, err
                    assert "Traceback" not in err
                seen[f"{command} exit {code}"] += 1

        damage_one()
    finally:
        shutil.rmtree(work)
        shutil.rmtree(pristine.parent)
    print(f"\nlog fuzz: {dict(seen)}; tracebacks: 0")
    assert seen["races exit 1"] >= 20 and seen["export exit 1"] >= 20, seen
    assert sum(n for key, n in seen.items() if key.startswith("races")) >= 150, seen
