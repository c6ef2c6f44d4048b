"""The Garage draft before a single race (docs/rules.md §4.1), as a pure, seeded procedure.

The Upgrade deck (Basic, Advanced or both; each design twice, plus two Heat cards per deck) is
shuffled from a seed. The expansions' Upgrade cards join the Advanced deck when their expansion
is in play, as on Board Game Arena (Heavy Rain's Air Intake). Each of three rounds reveals
players + 3 cards; the drivers pick one each in that round's order (round 1: last on the grid
first; round 2: pole first; round 3: last first again); what is left is removed from the game.
Each driver ends with 3 Upgrade cards, which replace the Starting Upgrades. The quick variant
deals 3 random Upgrades to each driver instead.
Sources: docs/rules.md §4.1 (BGA and the Chinese module notes; the official pick order unverified).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import rng
from .evolve import evolve
from .explain import N_, Explanation, explain
from .garage import DESIGNS, EXPANSIONS

ROUNDS = 3
EXTRA_CARDS = 3
"""Each round reveals one card per driver plus three (docs/rules.md §4.1)."""
COPIES = 2
"""Each upgrade design is in the deck twice; each deck has two Heat cards (docs/rules.md §0,
§4.2)."""


def upgrade_deck(
    *, basic: bool = True, advanced: bool = False, expansions: tuple[str, ...] = EXPANSIONS,
) -> tuple[str, ...]:
    """The Upgrade cards of the chosen decks, by design id, before shuffling. ``expansions``
    says whose cards join (default: every expansion the engine knows the cards of)."""
    cards: list[str] = []
    for design in DESIGNS.values():
        if design.sponsor or design.heat_card:
            continue
        if design.expansion and design.expansion not in expansions:
            continue
        if (design.advanced and advanced) or (not design.advanced and basic):
            cards.extend([design.id] * COPIES)
    cards.extend(["heat"] * COPIES * (int(basic) + int(advanced)))
    return tuple(cards)


@dataclass(frozen=True, slots=True)
class Draft:
    drivers: tuple[str, ...]
    """Human drivers in grid order (pole first)."""
    deck: tuple[str, ...]
    """Cards not yet revealed, top first."""
    market: tuple[str, ...] = ()
    """This round's revealed cards still to be picked."""
    round: int = 0
    """Rounds started (1-3); 0 before the first reveal."""
    picks: tuple[tuple[str, str], ...] = ()
    """Every pick so far as ``(driver, design)``."""

    @property
    def order(self) -> tuple[str, ...]:
        """Pick order of the current round: last on the grid first in rounds 1 and 3, pole
        first in round 2."""
        return self.drivers if self.round == 2 else tuple(reversed(self.drivers))

    @property
    def picked_this_round(self) -> tuple[str, ...]:
        start = (self.round - 1) * len(self.drivers)
        return tuple(driver for driver, _ in self.picks[start:])

    @property
    def to_pick(self) -> str | None:
        """The driver who picks next, or None when the draft is done."""
        if self.round == 0 or self.done:
            return None
        return self.order[len(self.picked_this_round)]

    @property
    def done(self) -> bool:
        return len(self.picks) == ROUNDS * len(self.drivers)

    def upgrades(self, driver: str) -> tuple[str, ...]:
        return tuple(design for who, design in self.picks if who == driver)


def start_draft(
    drivers: tuple[str, ...], *, seed: int, basic: bool = True, advanced: bool = False,
    expansions: tuple[str, ...] = EXPANSIONS,
) -> Draft:
    """Shuffle the Upgrade deck and reveal round 1's cards."""
    if not drivers or len(set(drivers)) != len(drivers):
        raise ValueError("a draft needs distinct drivers")
    deck = upgrade_deck(basic=basic, advanced=advanced, expansions=expansions)
    cards, _ = rng.shuffled(deck, rng.seed_state(seed))
    return _reveal(Draft(drivers=drivers, deck=cards))


def _reveal(draft: Draft) -> Draft:
    count = len(draft.drivers) + EXTRA_CARDS
    return evolve(draft, market=draft.deck[:count], deck=draft.deck[count:],
                  round=draft.round + 1)


def pick_problem(draft: Draft | RoundDraft, driver: str, design: str) -> Explanation | None:
    """Why ``driver`` may not take ``design`` now, or None."""
    if draft.done:
        return explain(N_("The draft is over."))
    if driver != draft.to_pick:
        return explain(N_("It is {driver}'s pick."), driver=draft.to_pick or "-")
    if design not in draft.market:
        return explain(N_("{design} is not among the revealed cards."), design=design)
    return None


def pick(draft: Draft, driver: str, design: str) -> Draft:
    """``driver`` takes ``design`` from the market; the round's leftovers leave the game and the
    next round is revealed when everyone has picked. Raises ValueError on an illegal pick."""
    problem = pick_problem(draft, driver, design)
    if problem is not None:
        raise ValueError(problem.text())
    market = list(draft.market)
    market.remove(design)
    draft = evolve(draft, market=tuple(market), picks=draft.picks + ((driver, design),))
    if len(draft.picked_this_round) == len(draft.drivers) and not draft.done:
        return _reveal(evolve(draft, market=()))
    if draft.done:
        return evolve(draft, market=())
    return draft


@dataclass(frozen=True, slots=True)
class RoundDraft:
    """One Championship draft round (docs/rules.md §3.1): players + 3 cards revealed, one pick each
    in the season's order (reverse standings, last place first); the first picker may then swap
    one earlier Upgrade for a card left in the market (the caller applies the swap); leftovers
    are removed from the game."""

    order: tuple[str, ...]
    market: tuple[str, ...]
    picks: tuple[tuple[str, str], ...] = ()
    round: int = 1

    @property
    def drivers(self) -> tuple[str, ...]:
        return self.order

    @property
    def done(self) -> bool:
        return len(self.picks) == len(self.order)

    @property
    def to_pick(self) -> str | None:
        return None if self.done else self.order[len(self.picks)]

    def upgrades(self, driver: str) -> tuple[str, ...]:
        return tuple(design for who, design in self.picks if who == driver)


def start_round_draft(
    order: tuple[str, ...], *, seed: int, basic: bool = True, advanced: bool = True,
    drafted: tuple[str, ...] = (), expansions: tuple[str, ...] = EXPANSIONS,
) -> RoundDraft:
    """Reveal players + 3 cards from the shuffled Upgrade deck, less the cards already drafted
    in earlier races of the season (one copy each)."""
    deck = list(upgrade_deck(basic=basic, advanced=advanced, expansions=expansions))
    for card in drafted:
        if card in deck:
            deck.remove(card)
    cards, _ = rng.shuffled(tuple(deck), rng.seed_state(seed))
    return RoundDraft(order, cards[:len(order) + EXTRA_CARDS])


def round_pick(draft: RoundDraft, driver: str, design: str) -> RoundDraft:
    """``driver`` takes ``design``; raises ValueError on an illegal pick."""
    problem = pick_problem(draft, driver, design)
    if problem is not None:
        raise ValueError(problem.text())
    market = list(draft.market)
    market.remove(design)
    return evolve(draft, market=tuple(market), picks=(*draft.picks, (driver, design)))


def deal_random(
    drivers: tuple[str, ...], *, seed: int, basic: bool = True, advanced: bool = False,
    expansions: tuple[str, ...] = EXPANSIONS,
) -> dict[str, tuple[str, ...]]:
    """The quick variant: three random Upgrades each, dealt from the shuffled deck."""
    deck = upgrade_deck(basic=basic, advanced=advanced, expansions=expansions)
    cards, _ = rng.shuffled(deck, rng.seed_state(seed))
    return {driver: cards[i * ROUNDS:(i + 1) * ROUNDS] for i, driver in enumerate(drivers)}
