"""What a revealed play adds up to (docs/rules.md §1.4, §4.2-4.4).

Basic cards count their value; each Stress card the Basic card flipped for it; an upgrade card its
speed (or the chosen value) plus the Basic card flipped for each of its "+" symbols. Every Stress
card and every "+" is a "+" resolved this turn (what Accelerate counts).

The Heat on upgrade cards is not paid at the reveal: the cards wait in ``pending`` and are paid at
React, after Cooldown (``payment.py``; docs/rules.md §4.4, the BGA / Days of Wonder clarification).
Their Cooldown and Super cool may be used before they are paid; their other symbols count once
they are paid. A driver may instead declare at the reveal the cards the engine cannot pay now
(``Reveal.unpaid``): each resolves as a Stress card, giving the Basic card flipped for it and
none of its symbols.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .actions import STRESS, Reveal, Upgrade
from .garage import DESIGNS, Design
from .state import PendingCard


@dataclass(frozen=True, slots=True)
class Symbols:
    """The symbols of upgrade cards that count once a card is paid (or has no Heat)."""

    slipstream_bonuses: tuple[int, ...] = ()
    limit_adjust: int = 0
    accelerate: int = 0
    draft: int = 0

    def add(self, design: Design) -> Symbols:
        bonuses = self.slipstream_bonuses + ((design.slipstream,) if design.slipstream else ())
        return Symbols(bonuses, self.limit_adjust + design.limit,
                       self.accelerate + design.accelerate, self.draft + design.draft)


@dataclass(frozen=True, slots=True)
class Play:
    speed: int
    unpayable: int
    """How many upgrade cards the engine cannot pay for at the reveal (in play order)."""
    declared: int
    """How many of them the driver declared unpaid at the reveal (0, or all of them)."""
    cooldown: int
    super_cool: int
    symbols: Symbols
    plus: int
    sponsors_used: int
    basic_shown: tuple[int, ...]
    """Every Basic-card value in play: Basic cards, Stress and "+" flips, unpaid-card flips."""
    pending: tuple[PendingCard, ...] = ()
    """The upgrade cards whose Heat is still to pay, in play order."""
    upgrades: tuple[str, ...] = ()
    """The upgrade designs played (paid or not)."""


def unpayable(pending: Iterable[PendingCard], engine: int) -> list[bool]:
    """For each pending card in play order, whether the engine cannot pay it once the cards
    before it that it can pay are paid."""
    out: list[bool] = []
    for card in pending:
        heat = DESIGNS[card.design].heat
        out.append(heat > engine)
        if heat <= engine:
            engine -= heat
    return out


def evaluate(reveal: Reveal, engine: int) -> Play:
    """The totals of a play whose shape has been validated; ``engine`` is the Heat available."""
    speed = cooldown = super_cool = plus = sponsors = short = declared = 0
    symbols = Symbols()
    pending: list[PendingCard] = []
    shown: list[int] = list(reveal.stress)
    flips = iter(reveal.unpaid)
    available = engine
    for card in reveal.cards:
        if isinstance(card, int):
            speed += card
            shown.append(card)
            continue
        if card == STRESS:
            plus += 1  # a Stress card is a "+" (docs/rules.md §1.4)
            continue
        if not isinstance(card, Upgrade):
            continue
        design = DESIGNS[card.design]
        if design.heat:
            if design.heat > available:
                short += 1
                if reveal.unpaid:  # declared now: it resolves as a Stress card
                    declared += 1
                    flip = next(flips, 0)
                    speed, plus = speed + flip, plus + 1
                    shown.append(flip)
                    continue
            else:
                available -= design.heat
        value = card.value if card.value is not None else design.speeds[0]
        speed += value + sum(card.plus)
        shown.extend(card.plus)
        plus += design.plus
        cooldown += design.cooldown
        super_cool += design.super_cool
        sponsors += 1 if design.sponsor else 0
        if design.heat:
            pending.append(PendingCard(design.id, value + sum(card.plus)))
        else:
            symbols = symbols.add(design)
    speed += sum(reveal.stress)
    designs = tuple(c.design for c in reveal.cards if isinstance(c, Upgrade))
    return Play(speed, short, declared, cooldown, super_cool, symbols, plus, sponsors,
                tuple(shown), tuple(pending), designs)


def subset_sums(values: tuple[int, ...]) -> set[int]:
    """Every total a choice among optional bonuses can make (0 = none used)."""
    sums = {0}
    for value in values:
        sums |= {s + value for s in sums}
    return sums
