"""The fold: effective inputs from an undo/redo stack; any interleaving replays the same."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench import racegen
from companion import racefile
from companion.engine import Applied, EndTurn, start_race
from companion.session import RaceLog
from companion.storage.fold import (
    Event,
    EventKind,
    FoldError,
    Timeline,
    effective_inputs,
    fold_state,
    replay,
)

INPUT, UNDO, REDO = EventKind.INPUT, EventKind.UNDO, EventKind.REDO


def _inputs(*names: str) -> list[Event]:
    return [Event(INPUT, EndTurn(n)) for n in names]


def test_effective_inputs_stack() -> None:
    a, b, c, d = _inputs("a", "b", "c", "d")
    u, r = Event(UNDO), Event(REDO)

    def names(events: list[Event]) -> list[str]:
        return [a.car for a in effective_inputs(events) if isinstance(a, EndTurn)]

    assert names([a, b, c]) == ["a", "b", "c"]
    assert names([a, b, c, u, u]) == ["a"]
    assert names([a, b, c, u, u, r]) == ["a", "b"]
    assert names([a, b, c, u, u, r, u]) == ["a"]  # undo after redo
    assert names([a, b, c, u, u, r, r]) == ["a", "b", "c"]
    assert names([a, b, u, d]) == ["a", "d"]
    with pytest.raises(FoldError, match="redo with nothing to redo") as info:
        effective_inputs([a, b, u, d, r])  # a new input cleared the redo stack
    assert info.value.index == 4
    with pytest.raises(FoldError, match="undo with nothing to undo"):
        effective_inputs([a, u, u])


def test_event_shape() -> None:
    with pytest.raises(ValueError):
        Event(UNDO, EndTurn("a"))
    with pytest.raises(ValueError):
        Event(INPUT)


def test_replay_equals_plain_fold() -> None:
    setup = racegen.setup(humans=3, legends=2, laps=2, seed=3)
    script = racegen.script(setup, seed=5, length=600, undo=0.15, redo=0.1)
    timeline = replay(setup, script)
    assert timeline.actions() == tuple(effective_inputs(script))
    assert timeline.current.state == fold_state(setup, effective_inputs(script))


def test_timeline_undo_redo_reuse_states() -> None:
    setup = racegen.setup(humans=2, legends=0)
    timeline = Timeline(start_race(setup))
    action = racegen.next_action(timeline.current.state, random.Random(1))
    assert action is not None
    result = timeline.try_input(action)
    assert isinstance(result, Applied)
    timeline.push(action, result)
    step = timeline.current
    assert timeline.undo() and timeline.redo()
    assert timeline.current is step


class _Model:
    """The undo/redo stack as plain lists: the specification the session must match."""

    def __init__(self) -> None:
        self.done: list[object] = []
        self.undone: list[object] = []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**32 - 1),
    ops=st.lists(st.sampled_from(["input", "input", "input", "undo", "redo"]), max_size=60),
    humans=st.integers(1, 4),
    legends=st.integers(0, 2),
    physical=st.booleans(),
)
def test_any_interleaving_replays_deterministically(
    tmp_path: Path, seed: int, ops: list[str], humans: int, legends: int, physical: bool,
) -> None:
    setup = racegen.setup(humans=humans, legends=legends, laps=1, seed=seed % 1000,
                          physical=physical)
    rng = random.Random(seed)
    model = _Model()
    path = tmp_path / f"prop-{seed}-{len(ops)}.sqlite3"
    with RaceLog(path) as log:
        race = log.new_race(setup)
        for op in ops:
            if op == "undo":
                assert race.undo() == bool(model.done)
                if model.done:
                    model.undone.append(model.done.pop())
            elif op == "redo":
                assert race.redo() == bool(model.undone)
                if model.undone:
                    model.done.append(model.undone.pop())
            else:
                action = racegen.next_action(race.state, rng)
                if action is None:
                    continue
                race.submit(action)
                model.done.append(action)
                model.undone.clear()
            assert list(race.actions()) == model.done
            assert race.can_undo == bool(model.done) and race.can_redo == bool(model.undone)
        expected = fold_state(setup, race.actions())
        assert race.state == expected
        again = log.open_race(race.race_id)
        third = log.open_race(race.race_id)
    assert again.state == expected == third.state
    assert racefile.state_document(again.state) == racefile.state_document(expected)
    assert list(again.actions()) == model.done
    assert (again.can_undo, again.can_redo) == (race.can_undo, race.can_redo)
    path.unlink()
