"""A driver's cards, simulated: draw pile, hand, cards in play, discard pile, Sponsorship cards.

The deck is what the table holds (docs/rules.md §0, §1.1): the 12 Basic cards (three each of 1-4),
then either the Starting Upgrades (0, 5 and the personal Heat card) or the car's Garage upgrades
(docs/rules.md §4.1, the Garage's Heat card as a Heat card), and the Stress cards; the engine's
other Heat cards start in the engine. Hand of 7 (or the event's), Stress and "+" resolved by
flipping to the next Basic card, replenish at the end of the round, the discard pile reshuffled
when the draw pile runs out (docs/rules.md §1.4, §1.11). Sponsorship cards are held beside the hand
(§3.4).

Randomness comes from ``companion.engine.rng`` (SplitMix64), so a simulated race is the same on
every Python version.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.engine import STRESS, CarState, RaceState
from companion.engine import rng as engine_rng
from companion.engine.garage import DESIGNS

HEAT = "heat"
BASIC = (1, 2, 3, 4)
Card = int | str
"""A Basic or Starting Upgrade value, ``"stress"``, ``"heat"``, or an upgrade design id."""
SPONSOR_DESIGNS = tuple(d.id for d in DESIGNS.values() if d.sponsor)


class Rand:
    """A tiny deterministic random source on the engine's SplitMix64."""

    def __init__(self, seed: int) -> None:
        self.state = engine_rng.seed_state(seed)

    def below(self, bound: int) -> int:
        value, self.state = engine_rng.below(self.state, bound)
        return value

    def chance(self, percent: int) -> bool:
        return self.below(100) < percent

    def choice(self, items: Sequence[Any]) -> Any:
        return items[self.below(len(items))]

    def shuffle(self, items: list[Any]) -> None:
        order, self.state = engine_rng.shuffled(items, self.state)
        items[:] = order


def is_upgrade(card: Card) -> bool:
    return isinstance(card, str) and card in DESIGNS


def starting_deck(upgrades: Sequence[str], stress: int, heat: int | None = None) -> list[Card]:
    """A driver's deck at the start of a race, the engine's Heat left out (docs/rules.md §1.1):
    ``heat`` Heat cards in all when weather put some of the engine's there (docs/rules.md §5),
    else the personal Heat card or the Garage's Heat cards."""
    deck: list[Card] = [*BASIC] * 3
    if upgrades:
        deck += [HEAT if DESIGNS[d].heat_card else d for d in upgrades]
    else:
        deck += [0, 5, HEAT]
    if heat is not None:
        deck += [HEAT] * (heat - deck.count(HEAT))
    return deck + [STRESS] * stress


class DeckSim:
    """One human driver's cards."""

    def __init__(self, cards: list[Card], rand: Rand, *, hand_size: int = 7,
                 sponsors: int = 0, first_sponsor: int = 0) -> None:
        self.rand = rand
        self.hand_size = hand_size
        self.draw_pile: list[Card] = list(cards)
        rand.shuffle(self.draw_pile)
        self.discard: list[Card] = []
        self.prepaid = 0
        """Heat already put on the discard pile before the engine hears of the payment."""
        self.hand: list[Card] = []
        self.in_play: list[Card] = []
        self.sponsors: list[str] = []
        self.gained = first_sponsor
        self.gain_sponsors(sponsors)
        self.replenish()

    @classmethod
    def for_car(cls, state: RaceState, car: CarState, rand: Rand,
                hand_size: int = 7) -> DeckSim:
        """The deck of ``car`` as ``state`` says it is now, shuffled afresh: its Heat out of the
        engine and its Stress in the draw pile (for a generator that keeps no hands)."""
        cards = starting_deck(car.upgrades, 0)
        cards = [c for c in cards if c != HEAT]
        cards += [HEAT] * (car.heat - car.engine) + [STRESS] * car.stress_owned
        return cls(cards, rand, hand_size=hand_size, sponsors=car.sponsor_cards)

    def gain_sponsors(self, count: int) -> None:
        """Sponsorship cards into the hand: the designs in turn (the deck's shuffles untouched,
        so a race without them is the same)."""
        for _ in range(count):
            self.sponsors.append(SPONSOR_DESIGNS[self.gained % len(SPONSOR_DESIGNS)])
            self.gained += 1

    def _draw_one(self) -> Card:
        if not self.draw_pile:
            if not self.discard:
                raise AssertionError("deck simulation: draw and discard piles are both empty")
            self.draw_pile, self.discard = self.discard, []
            self.rand.shuffle(self.draw_pile)
        return self.draw_pile.pop()

    def flip_basic(self) -> int:
        """Flip until a Basic card 1-4 shows (docs/rules.md §1.4); the others go to the discard."""
        for _ in range(200):
            card = self._draw_one()
            if isinstance(card, int) and card in BASIC:
                self.in_play.append(card)
                return card
            self.discard.append(card)
        raise AssertionError("deck simulation: no Basic card to flip")

    def basics_to_flip(self) -> int:
        """Basic cards a flip can still find: in the draw and discard piles (docs/rules.md §1.4)."""
        return sum(1 for c in self.draw_pile + self.discard if isinstance(c, int) and c in BASIC)

    def replenish(self) -> None:
        """Step 9: cards in play to the discard pile (Sponsorship cards leave the game), draw
        back to the hand size."""
        self.discard.extend(c for c in self.in_play if c not in SPONSOR_DESIGNS)
        self.in_play = []
        while len(self.hand) < self.hand_size:
            self.hand.append(self._draw_one())

    def play_cards(self, cards: Sequence[Card]) -> None:
        for card in cards:
            if card in self.sponsors:
                self.sponsors.remove(str(card))
            else:
                self.hand.remove(card)
            self.in_play.append(card)

    def playable(self) -> list[Card]:
        """Cards the driver may play face down: anything in hand but Heat."""
        return [c for c in self.hand if c != HEAT]

    def heat_outside_engine(self) -> int:
        piles = (self.draw_pile, self.discard, self.hand, self.in_play)
        return sum(pile.count(HEAT) for pile in piles)

    def heat_to_discard(self, count: int) -> None:
        already = min(count, self.prepaid)
        self.prepaid -= already
        self.discard.extend([HEAT] * (count - already))

    def pay_before_flip(self) -> None:
        """Boost: the Heat card goes to the discard pile before the flip (docs/rules.md §1.7)."""
        self.discard.append(HEAT)
        self.prepaid += 1

    def heat_to_engine(self, count: int) -> None:
        """Cooldown: Heat cards from the hand back to the engine."""
        for _ in range(count):
            self.hand.remove(HEAT)

    def super_cool(self, count: int) -> None:
        """Super cool: Heat cards from the discard pile back to the engine (docs/rules.md §4.3)."""
        for _ in range(count):
            self.discard.remove(HEAT)

    def heat_leaves_game(self, count: int) -> None:
        """Heat cards out of the game (Pressure cooker, docs/rules.md §3.3): the one the engine
        gave up just now lies on the discard pile; with the engine empty, one from the cards
        outside it, the discard pile first, then the hand, then the draw pile."""
        for _ in range(count):
            pile = next((p for p in (self.discard, self.hand, self.draw_pile) if HEAT in p),
                        None)
            if pile is None:
                raise AssertionError("deck simulation: no Heat card left to leave the game")
            pile.remove(HEAT)

    def stress_to_hand(self, count: int) -> None:
        self.hand.extend([STRESS] * count)
