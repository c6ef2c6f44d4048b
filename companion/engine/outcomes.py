"""What the engine answers: a :class:`Rejection` (an input the rules do not allow, with the reason
in words) or an :class:`Applied` new state with the :class:`Outcome` list that explains it."""

from __future__ import annotations

from dataclasses import dataclass

from .explain import Explanation, explain
from .state import RaceState


@dataclass(frozen=True, slots=True)
class Rejection:
    """An input the rules do not allow, with the reason in words."""

    car: str | None
    reason: Explanation

    def text(self) -> str:
        return self.reason.text()


@dataclass(frozen=True, slots=True)
class Outcome:
    """Something that happened, with its one-sentence explanation."""

    kind: str
    car: str | None
    why: Explanation


@dataclass(frozen=True, slots=True)
class Applied:
    state: RaceState
    outcomes: tuple[Outcome, ...]


class IllegalActionError(Exception):
    """``apply`` was called with an input that ``validate`` rejects: a bug in the caller."""


def reject(who: str | None, template: str, /, **params: str | int) -> Rejection:
    return Rejection(who, explain(template, **params))


def said(kind: str, who: str | None, template: str, /, **params: str | int) -> Outcome:
    return Outcome(kind, who, explain(template, **params))
