"""Kill a writer with SIGKILL mid-race, 30 times: the log keeps every committed event.

The harness is ``bench/crash.py`` (``python bench/crash.py 200`` runs more kills)."""

from __future__ import annotations

from pathlib import Path

from bench import crash

KILLS = 30



def test_sigkill_at_random_moments_loses_no_committed_event(tmp_path: Path) -> None:
    trials = [crash.trial(tmp_path, seed, delay)
              for seed, delay in zip(range(KILLS), _delays(KILLS), strict=True)]
    assert len(trials) == KILLS
    # The kills must land while the child writes, not after its script ended.
    assert sum(not t.finished for t in trials) >= KILLS * 0.8
    assert sum(t.committed for t in trials) > KILLS * 10


def _delays(count: int) -> list[float]:
    import random

    rng = random.Random(20240601)
    return [0.0, 0.001] + [rng.uniform(0, 0.25) for _ in range(count - 2)]
