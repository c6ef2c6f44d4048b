"""What a table can do: the inputs the engine validates and applies.

Every input is a small frozen value that serialises to a plain dict (``to_dict`` /
``action_from_dict``) so the durable log and the race files can carry it. The order of a round
(rules.md §1.2): every human picks a gear (steps 1-2, any order), then car by car in race order a
human reveals cards (step 3), takes Adrenaline (4), cools down and boosts (5), slipstreams (6) and
ends the turn, which checks the corners (7). Legends move by themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

CardValue = int | str
"""An integer for a speed or upgrade card, ``"stress"`` for a Stress card (race-file.md)."""

STRESS = "stress"


@dataclass(frozen=True, slots=True)
class ChooseGear:
    """Steps 1-2: the gear a driver will play this round (may be changed until all are set).

    ``clogged`` says the driver cannot play that many cards because the hand is full of Heat
    (rules.md §1.5): the car will not move this round and drops to 1st gear.
    """

    kind: ClassVar[str] = "gear"
    car: str
    gear: int
    clogged: bool = False


@dataclass(frozen=True, slots=True)
class Reveal:
    """Step 3: the cards revealed, and for each Stress card the Basic card flipped for it."""

    kind: ClassVar[str] = "reveal"
    car: str
    cards: tuple[CardValue, ...]
    stress: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Adrenaline:
    """Step 4: take the +1 Adrenaline move."""

    kind: ClassVar[str] = "adrenaline"
    car: str


@dataclass(frozen=True, slots=True)
class Cooldown:
    """Step 5: move ``amount`` Heat cards from hand back to the engine."""

    kind: ClassVar[str] = "cooldown"
    car: str
    amount: int


@dataclass(frozen=True, slots=True)
class Boost:
    """Step 5: pay 1 Heat and move by the Basic card flipped (``value``)."""

    kind: ClassVar[str] = "boost"
    car: str
    value: int


@dataclass(frozen=True, slots=True)
class Slipstream:
    """Step 6: move 2 more spaces behind or beside another car."""

    kind: ClassVar[str] = "slipstream"
    car: str


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Steps 7-9: check every Corner Line crossed, then the next car plays."""

    kind: ClassVar[str] = "end_turn"
    car: str


@dataclass(frozen=True, slots=True)
class RunRound:
    """Play a round in which no human car is still racing: the Legends move on their own."""

    kind: ClassVar[str] = "legends_round"


@dataclass(frozen=True, slots=True)
class LegendCard:
    """The Legends card the table drew from its physical deck this round (1-10)."""

    kind: ClassVar[str] = "legend_card"
    card: int


Action = (
    ChooseGear | Reveal | Adrenaline | Cooldown | Boost | Slipstream | EndTurn | LegendCard
    | RunRound
)

_KINDS: dict[str, type[Any]] = {
    cls.kind: cls
    for cls in (
        ChooseGear, Reveal, Adrenaline, Cooldown, Boost, Slipstream, EndTurn, LegendCard,
        RunRound,
    )
}


def action_to_dict(action: Action) -> dict[str, Any]:
    """A plain, JSON-ready dict: ``{"kind": ..., <fields>}``."""
    out: dict[str, Any] = {"kind": action.kind}
    for name in action.__slots__:
        value = getattr(action, name)
        out[name] = list(value) if isinstance(value, tuple) else value
    return out


class ActionFormatError(ValueError):
    """A stored or typed-in action that does not have the shape of any action."""


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Inverse of :func:`action_to_dict`; raises :class:`ActionFormatError` on a bad shape."""
    kind = data.get("kind")
    cls = _KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ActionFormatError(f"unknown action kind {kind!r}")
    fields = set(cls.__slots__)
    given = set(data) - {"kind"}
    if given != fields:
        raise ActionFormatError(f"{kind}: expected fields {sorted(fields)}, got {sorted(given)}")
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k != "kind"}
    action: Action = cls(**values)
    return action
