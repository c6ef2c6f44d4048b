"""Random legal inputs from the race state alone, for logs with undo and redo (storage tests and
benchmarks), where no driver can keep a hand between two inputs.

Each reveal is played from the car's deck as the state says it is now (``DeckSim.for_car``: its
Basic cards, upgrades, Stress owned and Heat out of the engine, shuffled afresh), so a turn shows
what one deck can show; gears come from :func:`~.choices.legal_gears` (flooded spaces included);
every React step is one the engine accepts now (:func:`~.choices.react_options`).
"""

from __future__ import annotations

import random

from companion.engine import (
    Action,
    ChooseGear,
    EndTurn,
    LegendCard,
    Phase,
    RaceState,
    Reveal,
    RunRound,
    TurnStage,
    validate,
)
from companion.engine.conditions import hand_size

from .choices import legal_gears, react_options, reveal_of, unpayable_at_reveal
from .deck import HEAT, Card, DeckSim, Rand


def gear_choice(state: RaceState, car_id: str, rng: random.Random) -> ChooseGear:
    """A gear the driver can shift to, higher gears likelier (as real drivers race); now and
    then a clogged hand, when the rules allow one."""
    gears = legal_gears(state, car_id)
    weights = [1 + g for g in gears]
    if rng.random() < 0.05:
        clogged = ChooseGear(car_id, rng.choice(gears), clogged=True)
        if validate(state, clogged) is None:
            return clogged
    return ChooseGear(car_id, rng.choices(gears, weights)[0])


def reveal_choice(state: RaceState, car_id: str, rng: random.Random) -> Reveal:
    """Cards the car's deck can show in its gear, Sponsorship cards in hand among them."""
    car = state.car(car_id)
    for _ in range(1000):
        sim = DeckSim.for_car(state, car, Rand(rng.getrandbits(62)), hand_size=hand_size(state))
        sim.draw_pile += sim.hand  # no hand is kept between inputs: the whole deck is at hand
        sim.hand = []
        cards: list[Card] = [c for c in sim.draw_pile if c != HEAT]
        rng.shuffle(cards)
        chosen = cards[:car.gear]
        if sim.sponsors and chosen and rng.random() < 0.3:
            chosen[rng.randrange(len(chosen))] = rng.choice(sim.sponsors)
        sim.play_cards([c for c in chosen if c in sim.sponsors])
        for card in chosen:
            if card not in sim.in_play:
                sim.draw_pile.remove(card)
        reveal = reveal_of(car_id, chosen, sim.flip_basic, rng.choice)
        unpaid = unpayable_at_reveal(state, reveal)
        if unpaid and rng.random() < 0.5:
            reveal = Reveal(car_id, reveal.cards, reveal.stress,
                            tuple(sim.flip_basic() for _ in range(unpaid)))
        if validate(state, reveal) is None:
            return reveal
    raise RuntimeError(f"no legal reveal found for {car_id}")  # pragma: no cover


def next_action(state: RaceState, rng: random.Random) -> Action | None:
    """A random input the rules accept now, or None when the race is over."""
    if state.phase is Phase.OVER:
        return None
    if state.phase is Phase.PLANNING:
        if not state.humans_to_plan:
            return RunRound()
        return gear_choice(state, rng.choice(state.humans_to_plan), rng)
    if state.awaiting_legend_card:
        return LegendCard(rng.randint(1, 10))
    turn = state.turn
    assert turn is not None, "the engine waits for a human turn"
    if turn.stage is TurnStage.REVEAL:
        if not turn.gear_set:  # tournament: the gear comes with the cards
            return gear_choice(state, turn.car, rng)
        return reveal_choice(state, turn.car, rng)
    options = react_options(state, turn.car)
    end = EndTurn(turn.car)
    if options and (rng.random() < 0.6 or validate(state, end) is not None):
        return rng.choice(options)
    return end
