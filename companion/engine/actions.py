"""What a table can do: the inputs the engine validates and applies.

Every input is a small frozen value that serialises to a plain dict (``to_dict`` /
``action_from_dict``) so the durable log and the race files can carry it. The order of a round
(docs/rules.md §1.2): every human picks a gear (steps 1-2, any order), then car by car in race
order a human reveals cards (step 3), takes Adrenaline (4), reacts (5: direct plays, Cooldown, Super
cool, paying the upgrade cards' Heat, Boost, Accelerate, Draft), slipstreams (6) and ends the
turn, which checks the corners (7). Legends move by themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

STRESS = "stress"


@dataclass(frozen=True, slots=True)
class Upgrade:
    """A Garage upgrade or Sponsorship card played (docs/rules.md §4.2, §3.4; heat-race/2).

    ``value`` is the chosen speed of a card that offers a choice (Brakes); ``plus`` the Basic
    card flipped for each of its "+" symbols."""

    design: str
    value: int | None = None
    plus: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"upgrade": self.design}
        if self.value is not None:
            out["value"] = self.value
        if self.plus:
            out["plus"] = list(self.plus)
        return out


CardValue = int | str | Upgrade
"""An integer for a Basic or Starting Upgrade card, ``"stress"`` for a Stress card
(docs/race-file.md), an :class:`Upgrade` for a Garage or Sponsorship card (heat-race/2)."""


def card_to_json(card: CardValue) -> Any:
    return card.to_dict() if isinstance(card, Upgrade) else card


def card_from_json(data: Any) -> CardValue:
    """Inverse of :func:`card_to_json`; shapes it cannot read raise :class:`ActionFormatError`."""
    if isinstance(data, dict):
        extra = set(data) - {"upgrade", "value", "plus"}
        design, value, plus = data.get("upgrade"), data.get("value"), data.get("plus", [])
        if extra or not isinstance(design, str) or not isinstance(plus, list):
            raise ActionFormatError(f"not a card: {data!r}")
        return Upgrade(design, value, tuple(plus))
    if isinstance(data, (int, str)):
        return data
    raise ActionFormatError(f"not a card: {data!r}")


@dataclass(frozen=True, slots=True)
class ChooseGear:
    """Steps 1-2: the gear a driver will play this round (may be changed until all are set).

    ``clogged`` says the driver cannot play that many cards because the hand is full of Heat
    (docs/rules.md §1.5): the car will not move this round and drops to 1st gear.
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
    unpaid: tuple[int, ...] = ()
    """Declared at the reveal: for each upgrade card whose Heat the engine cannot pay now, the
    Basic card flipped for it; it resolves as a Stress card instead (docs/rules.md §4.4, BGA/Days of
    Wonder clarification). Empty: the Heat is paid at React, after Cooldown (:class:`PayHeat`)."""


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
class SuperCool:
    """React: the cards' Super cool, ``amount`` Heat from the discard pile back to the engine
    (docs/rules.md §4.3). After Cooldown; a symbol of its own, so a Cloud sector allows it."""

    kind: ClassVar[str] = "super_cool"
    car: str
    amount: int


@dataclass(frozen=True, slots=True)
class PayHeat:
    """React, after Cooldown and Super cool: pay the Heat of the upgrade cards played. For each
    card the engine cannot pay now, in play order, ``unpaid`` gives the Basic card flipped for
    it: it resolves as a Stress card (docs/rules.md §4.4). Without this input the Heat is paid by
    the next step of the turn, when the engine can pay it all."""

    kind: ClassVar[str] = "pay"
    car: str
    unpaid: tuple[int, ...] = ()


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
    extra: int = 0
    """Spaces added by the optional "Slipstream +N" symbols of the cards played (heat-race/2)."""
    sector: bool = True
    """Take the sector's optional bonus (Weather +2, road token +1); False declines it."""


@dataclass(frozen=True, slots=True)
class DirectPlay:
    """Play a Direct-play upgrade (Gas Pedal) from hand during React, as if it had been played
    with the others (docs/rules.md §4.3). It comes after Adrenaline and before Cooldown."""

    kind: ClassVar[str] = "direct"
    car: str
    card: Upgrade


@dataclass(frozen=True, slots=True)
class Accelerate:
    """Use the Accelerate symbols: +N Speed and spaces for each "+" resolved this turn
    (docs/rules.md §4.3)."""

    kind: ClassVar[str] = "accelerate"
    car: str


@dataclass(frozen=True, slots=True)
class DraftMove:
    """React: the Draft symbols (Tunnel Vision): move through empty spaces to the space right
    behind the next car ahead, when that is no further than the cards' Draft (docs/rules.md §4.3;
    docs/rules-decisions.md). Not Speed."""

    kind: ClassVar[str] = "draft"
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
    ChooseGear | Reveal | Adrenaline | DirectPlay | Cooldown | SuperCool | PayHeat | Boost
    | Accelerate | DraftMove | Slipstream | EndTurn | LegendCard | RunRound
)

_KINDS: dict[str, type[Any]] = {
    cls.kind: cls
    for cls in (
        ChooseGear, Reveal, Adrenaline, DirectPlay, Cooldown, SuperCool, PayHeat, Boost,
        Accelerate, DraftMove, Slipstream, EndTurn, LegendCard, RunRound,
    )
}
_OMITTED_WHEN_TRUE = frozenset({"sector"})
"""Fields added after logs were first written: left out at their usual value, so an input
logged before them reads the same."""


def action_to_dict(action: Action) -> dict[str, Any]:
    """A plain, JSON-ready dict: ``{"kind": ..., <fields>}``."""
    out: dict[str, Any] = {"kind": action.kind}
    for field in fields(action):
        value = getattr(action, field.name)
        if field.name in _OMITTED_WHEN_TRUE and value is True:
            continue
        if field.name == "cards":
            value = [card_to_json(card) for card in value]
        elif field.name == "card" and isinstance(value, Upgrade):
            value = value.to_dict()
        out[field.name] = list(value) if isinstance(value, tuple) else value
    return out


class ActionFormatError(ValueError):
    """A stored or typed-in action that does not have the shape of any action."""


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Inverse of :func:`action_to_dict`; raises :class:`ActionFormatError` on a bad shape."""
    kind = data.get("kind")
    cls = _KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ActionFormatError(f"unknown action kind {kind!r}")
    known = {f.name for f in fields(cls)}
    required = {f.name for f in fields(cls)
                if f.default is MISSING and f.default_factory is MISSING}
    given = set(data) - {"kind"}
    if not required <= given <= known:
        raise ActionFormatError(f"{kind}: expected fields {sorted(known)}, got {sorted(given)}")
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k != "kind"}
    if "cards" in values:
        values["cards"] = tuple(card_from_json(c) for c in values["cards"])
    if cls is DirectPlay:
        card = card_from_json(values["card"])
        if not isinstance(card, Upgrade):
            raise ActionFormatError(f"direct: not an upgrade card: {values['card']!r}")
        values["card"] = card
    action: Action = cls(**values)
    return action
