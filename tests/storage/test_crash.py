"""Kill a writer with SIGKILL mid-race, 30 times: the log keeps every acknowledged event, and
every event was synced to disk before it was acknowledged (traced below SQLite, see
``bench/synctrace.py``). With the child's SQLite at ``synchronous=OFF`` or ``NORMAL`` the same
check fails, so it can catch lost durability.

The harness is ``bench/crash.py`` (``python bench/crash.py 200`` runs more kills). The kill points
are counted in acknowledgements, not in time, so a slow or loaded host kills at the same places.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from bench import crash, synctrace

KILLS = 30
GROUPS = 6
"""The kills are split into groups, one test each, to keep every test well under 30 s."""
MAX_ACKS = 60


@pytest.fixture(scope="module")
def tracer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synctrace.build(tmp_path_factory.mktemp("synctrace"))


def kill_points(group: int) -> list[tuple[int, int, float]]:
    """(seed, acknowledgements before the kill, extra delay) for one group of kills."""
    rng = random.Random(20240601 + group)
    per_group = KILLS // GROUPS
    points = [(seed, rng.randint(0, MAX_ACKS), rng.uniform(0, crash.MAX_EXTRA_DELAY))
              for seed in range(group * per_group, (group + 1) * per_group)]
    if group == 0:  # the very start: before and during the first commit
        points[:2] = [(0, 0, 0.0), (1, 0, 0.0005)]
    return points


@pytest.mark.parametrize("group", range(GROUPS))
def test_sigkill_loses_no_acknowledged_event_and_each_was_synced_first(
        tmp_path: Path, tracer: Path, group: int) -> None:
    trials = [crash.trial(tmp_path, seed, tracer=tracer, after=after, delay=delay)
              for seed, after, delay in kill_points(group)]
    for t in trials:
        assert not t.finished  # killed while writing, not after the script
        assert t.acks >= t.acks_before_kill  # every acknowledgement was read
        assert t.syncs >= t.acks  # at least one sync per acknowledged tap


@pytest.mark.parametrize("level", ["OFF", "NORMAL"])
def test_acknowledging_before_the_sync_is_caught(tmp_path: Path, tracer: Path,
                                                 level: str) -> None:
    """With the app's FULL a kill after 20 acknowledgements passes (above); with the child's
    log at OFF or NORMAL (WAL: no sync per commit) the same trial fails on durability, though
    every acknowledged event is still in the file after the kill."""
    with pytest.raises(crash.NotDurable, match="acknowledged while writes to the .*wal"):
        crash.trial(tmp_path, 3, tracer=tracer, synchronous=level, after=20, delay=0.0)
    trial = crash.trial(tmp_path, 3, tracer=None, synchronous=level, after=20, delay=0.0)
    assert trial.committed >= 20  # a kill alone does not see it: why the trace is needed


def test_a_tap_cut_short_is_caught(tmp_path: Path) -> None:
    """The child's taps are one to three events in one transaction: after a kill the log holds
    whole taps (every trial above checks it). With each event of a tap committed and reported
    on its own, a kill right after a tap's first event leaves half a tap: the trial fails (the
    child waits there: no timing decides it)."""
    seed = 5
    ends = crash.taps(seed)
    first = next(start for start, end in zip([0, *ends], ends, strict=False)
                 if end - start >= 2)  # the first tap of several: the child pauses in it
    with pytest.raises(AssertionError, match="a tap cut short"):
        crash.trial(tmp_path, seed, tracer=None, split=60.0, after=first + 1, delay=0.0)
    whole = crash.trial(tmp_path, seed, tracer=None, after=first + 1, delay=0.0)
    assert whole.committed in ends and whole.acks >= first + 1


def test_sync_check_rules() -> None:
    check = synctrace.SyncCheck()
    for line in ["~W wal", "~W wal", "~S wal"]:
        assert check.trace(line)
    check.acknowledged("1")
    assert not check.trace("1")
    check.trace("~W wal")
    check.acknowledged("2")  # written, not synced
    check.trace("~S wal")
    check.acknowledged("3")  # nothing written since: the tracer saw no transaction
    assert check.violations == [
        "'2' acknowledged while writes to the wal were not synced",
        "'3' acknowledged with no write to the log traced since the previous one",
    ]


def test_child_output_is_read_to_the_last_byte(tmp_path: Path) -> None:
    """The old harness read the first line with readline() and the rest with communicate(),
    losing what readline had buffered: every line must arrive, in order."""
    code = ("import sys\nprint('ready', flush=True)\n"
            "for i in range(1, 20001):\n    print(i, flush=i % 7 == 0)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    output = crash.ChildOutput(proc.stdout)
    assert output.wait_for(b"ready", 60)
    assert output.wait_for_acks(20000, 60)
    assert proc.wait(timeout=60) == 0
    lines = output.finish(timeout=60).decode().split("\n")
    assert lines == ["ready", *[str(i) for i in range(1, 20001)], ""]
    assert proc.stdout is not None
    proc.stdout.close()
