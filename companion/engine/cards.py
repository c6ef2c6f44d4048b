"""What a revealed play adds up to (docs/rules.md §1.4, §4.2-4.4).

Basic cards count their value; each Stress card the Basic card flipped for it; an upgrade card its
speed (or the chosen value) plus the Basic card flipped for each of its "+" symbols. The Heat on
upgrade cards is paid at once, card by card in the order played; a card the engine cannot pay for
resolves as a Stress card instead (docs/rules.md §4.4, the BGA / Days of Wonder clarification), so
it gives the Basic card flipped for it and none of its symbols. Paying at the reveal (rather than
after Cooldown in React) is this engine's reading, listed in docs/rules-decisions.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import STRESS, Reveal, Upgrade
from .garage import DESIGNS


@dataclass(frozen=True, slots=True)
class Play:
    speed: int
    heat_paid: int
    unpaid: int
    """How many upgrade cards could not be paid for (each needs a flipped Basic card)."""
    cooldown: int
    slipstream_bonuses: tuple[int, ...]
    limit_adjust: int
    accelerate: int
    plus: int
    sponsors_used: int
    basic_shown: tuple[int, ...]
    """Every Basic-card value in play: Basic cards, Stress and "+" flips, unpaid-card flips."""
    upgrades: tuple[str, ...] = ()
    """The upgrade designs played (paid or not)."""


def evaluate(reveal: Reveal, engine: int) -> Play:
    """The totals of a play whose shape has been validated; ``engine`` is the Heat available."""
    speed = heat_paid = unpaid = cooldown = limit = accelerate = plus = sponsors = 0
    bonuses: list[int] = []
    shown: list[int] = list(reveal.stress)
    flips = iter(reveal.unpaid)
    for card in reveal.cards:
        if isinstance(card, int):
            speed += card
            shown.append(card)
            continue
        if card == STRESS or not isinstance(card, Upgrade):
            continue
        design = DESIGNS[card.design]
        if design.heat and engine - heat_paid < design.heat:
            unpaid += 1
            flip = next(flips, 0)
            speed += flip
            shown.append(flip)
            continue
        heat_paid += design.heat
        value = card.value if card.value is not None else design.speeds[0]
        speed += value + sum(card.plus)
        shown.extend(card.plus)
        plus += design.plus
        cooldown += design.cooldown + design.super_cool
        if design.slipstream:
            bonuses.append(design.slipstream)
        limit += design.limit
        accelerate += design.accelerate
        sponsors += 1 if design.sponsor else 0
    speed += sum(reveal.stress)
    designs = tuple(c.design for c in reveal.cards if isinstance(c, Upgrade))
    return Play(speed, heat_paid, unpaid, cooldown, tuple(bonuses), limit, accelerate, plus,
                sponsors, tuple(shown), designs)


def subset_sums(values: tuple[int, ...]) -> set[int]:
    """Every total a choice among optional bonuses can make (0 = none used)."""
    sums = {0}
    for value in values:
        sums |= {s + value for s in sums}
    return sums
