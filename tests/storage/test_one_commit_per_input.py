"""An accepted input is exactly one durable commit of the race log: counted on the app itself,
tapped as a player would (``bench/app.py``'s child: touches on the race screen), with the
write transactions it commits and, under the ``LD_PRELOAD`` tracer of ``bench/synctrace.py``,
the ``fsync``/``fdatasync`` calls on the log's files. The faults the bench must catch are
caught: an input in two transactions, and a log that does not sync."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import app, synctrace

TAPS = 4
"""A gear chosen, Undo, a gear, Undo: each tap one input the log must record."""


@pytest.fixture(scope="module")
def tracer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synctrace.build(tmp_path_factory.mktemp("synctrace"))


def traced(home: Path, tracer: Path, **faults: str) -> dict[str, object]:
    result = app.traced_run(app.child_env(home, TAPS, **faults), home, tracer)
    transactions = [int(n) for n in result["transactions"]]  # type: ignore[attr-defined]
    syncs: list[dict[str, int]] = result["syncs"]  # type: ignore[assignment]
    assert len(transactions) == len(syncs) == TAPS
    return app.commits_per_input(transactions, syncs)


def test_every_accepted_tap_is_one_synced_commit(tmp_path: Path, tracer: Path) -> None:
    found = traced(tmp_path, tracer)
    assert found["transactions_per_input"] == [1]
    assert found["wal_syncs_per_input"] == [1]
    assert found["one_commit_per_input"] is True


def test_an_input_in_two_transactions_is_caught(tmp_path: Path, tracer: Path) -> None:
    found = traced(tmp_path, tracer, BENCH_DOUBLE_COMMIT="1")
    assert found["transactions_per_input"] == [2]
    assert found["wal_syncs_per_input"] == [2]
    assert found["one_commit_per_input"] is False


def test_a_log_that_does_not_sync_is_caught(tmp_path: Path, tracer: Path) -> None:
    found = traced(tmp_path, tracer, BENCH_UNSYNCED="1")
    assert found["transactions_per_input"] == [1]
    assert found["wal_syncs_per_input"] == [0]
    assert found["one_commit_per_input"] is False


def test_a_checkpoint_is_told_apart_from_a_second_commit() -> None:
    """SQLite's checkpoint syncs the WAL again and the database file on the commit that set it
    off: that tap is counted as a checkpoint, not as a second commit."""
    plain = {"wal": 1, "db": 0, "journal": 0, "writes": 3}
    checkpoint = {"wal": 2, "db": 1, "journal": 0, "writes": 5}
    found = app.commits_per_input([1, 1], [plain, checkpoint])
    assert found["checkpoints"] == 1 and found["one_commit_per_input"] is True
    unwritten = {"wal": 1, "db": 0, "journal": 0, "writes": 0}
    assert app.commits_per_input([1], [unwritten])["one_commit_per_input"] is False
