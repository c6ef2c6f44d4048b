"""The fold: the race state is ``play`` folded over the effective inputs of the log.

A race's log is a list of events, each an ``input`` (an engine action the rules accepted), an
``undo`` or a ``redo``. The effective inputs come from an undo/redo stack: an input is pushed and
clears the redo stack, an undo pops the last input onto the redo stack, a redo pops it back.
Resuming after a crash and undoing are both replays of the same fold; :class:`Timeline` keeps the
state after every effective input in memory so that undo and redo in the app are O(1).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

from companion.engine import Action, Applied, Outcome, RaceSetup, RaceState, Rejection, play
from companion.engine import start_race as _start_race


class EventKind(Enum):
    INPUT = "input"
    UNDO = "undo"
    REDO = "redo"


@dataclass(frozen=True, slots=True)
class Event:
    """One logged event: an input with its action, or an undo / redo (no action)."""

    kind: EventKind
    action: Action | None = None

    def __post_init__(self) -> None:
        if (self.kind is EventKind.INPUT) != (self.action is not None):
            raise ValueError(f"{self.kind.value} event: an action goes with inputs only")


class FoldError(ValueError):
    """Events that do not fold: an undo/redo with nothing to undo/redo, or a rejected input.

    ``index`` is the 0-based position of the bad event in the list given.
    """

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index


def effective_inputs(events: Iterable[Event]) -> list[Action]:
    """The inputs that count after every undo and redo, in order (no engine needed)."""
    done: list[Action] = []
    undone: list[Action] = []
    for index, event in enumerate(events):
        if event.kind is EventKind.INPUT:
            assert event.action is not None
            done.append(event.action)
            undone.clear()
        elif event.kind is EventKind.UNDO:
            if not done:
                raise FoldError(index, "undo with nothing to undo")
            undone.append(done.pop())
        else:
            if not undone:
                raise FoldError(index, "redo with nothing to redo")
            done.append(undone.pop())
    return done


@dataclass(frozen=True, slots=True)
class Step:
    """One effective input and what it did (``action`` is None for the start of the race)."""

    action: Action | None
    state: RaceState
    outcomes: tuple[Outcome, ...]


Mark = tuple[tuple[Step, ...], tuple[Step, ...], "EventKind | None"]
"""What :meth:`Timeline.mark` saw: the steps, the redo stack, the kind of the last event."""


class Timeline:
    """The states of one race: one :class:`Step` per effective input plus the redo stack."""

    def __init__(self, start: Applied) -> None:
        self._steps: list[Step] = [Step(None, start.state, start.outcomes)]
        self._redo: list[Step] = []
        self._last: EventKind | None = None

    @classmethod
    def start(cls, setup: RaceSetup) -> Timeline:
        return cls(_start_race(setup))

    @property
    def current(self) -> Step:
        return self._steps[-1]

    @property
    def can_undo(self) -> bool:
        return len(self._steps) > 1

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def __len__(self) -> int:
        """Effective inputs."""
        return len(self._steps) - 1

    def steps(self) -> Iterator[Step]:
        """The start, then one step per effective input."""
        return iter(self._steps)

    def undone(self) -> tuple[Step, ...]:
        """The redo stack: the inputs undone and not redone, the last undone last."""
        return tuple(self._redo)

    @property
    def last_event(self) -> EventKind | None:
        """The kind of the last event folded in (None: none yet): after a restart, whether the
        race stopped after an input, an undo or a redo."""
        return self._last

    def actions(self) -> tuple[Action, ...]:
        return tuple(step.action for step in self._steps[1:] if step.action is not None)

    def try_input(self, action: Action) -> Applied | Rejection:
        """What ``action`` would do now, without recording it."""
        return play(self._steps[-1].state, action)

    def push(self, action: Action, applied: Applied) -> None:
        """Record an accepted input (the result of :meth:`try_input`); clears the redo stack."""
        self._steps.append(Step(action, applied.state, applied.outcomes))
        self._redo.clear()
        self._last = EventKind.INPUT

    def mark(self) -> Mark:
        """The timeline as it is now, for :meth:`restore` (its steps, its redo stack and the
        kind of its last event)."""
        return tuple(self._steps), tuple(self._redo), self._last

    def restore(self, mark: Mark) -> None:
        """Back to the timeline :meth:`mark` saw (inputs, undos and redos since are gone)."""
        self._steps, self._redo, self._last = list(mark[0]), list(mark[1]), mark[2]

    def undo(self) -> bool:
        if not self.can_undo:
            return False
        self._redo.append(self._steps.pop())
        self._last = EventKind.UNDO
        return True

    def redo(self) -> bool:
        if not self._redo:
            return False
        self._steps.append(self._redo.pop())
        self._last = EventKind.REDO
        return True

    def apply(self, event: Event, index: int = 0) -> None:
        """Fold one event in; raises :class:`FoldError` (with ``index``) if it does not fold."""
        if event.kind is EventKind.INPUT:
            assert event.action is not None
            result = self.try_input(event.action)
            if isinstance(result, Rejection):
                raise FoldError(index, f"input rejected by the rules: {result.text()}")
            self.push(event.action, result)
        elif event.kind is EventKind.UNDO:
            if not self.undo():
                raise FoldError(index, "undo with nothing to undo")
        elif not self.redo():
            raise FoldError(index, "redo with nothing to redo")


def replay(setup: RaceSetup, events: Iterable[Event]) -> Timeline:
    """The timeline of a race from its setup and its events (raises :class:`FoldError`)."""
    timeline = Timeline.start(setup)
    for index, event in enumerate(events):
        timeline.apply(event, index)
    return timeline


def fold_state(setup: RaceSetup, actions: Iterable[Action]) -> RaceState:
    """``play`` folded over ``actions`` from the start: the plain definition, no stacks."""
    state = _start_race(setup).state
    for index, action in enumerate(actions):
        result = play(state, action)
        if isinstance(result, Rejection):
            raise FoldError(index, f"input rejected by the rules: {result.text()}")
        state = result.state
    return state
