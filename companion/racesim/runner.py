"""A whole race played by simulated drivers, each from its own simulated cards (docs/rules.md §1).

Every human car keeps its deck for the whole race (``deck.py``), so every input is one a real
deck can produce; after every input the runner checks that the Heat the deck holds outside the
engine is the engine's ``heat - engine``. The engine only sees what a table would enter
(docs/race-file.md inputs). Legends, physical Legends cards and Legends-only rounds are entered as
the table would.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.engine import (
    Accelerate,
    Action,
    Adrenaline,
    Boost,
    ChooseGear,
    Cooldown,
    DirectPlay,
    DraftMove,
    EndTurn,
    LegendCard,
    PayHeat,
    Phase,
    RaceSetup,
    RaceState,
    Rejection,
    Reveal,
    RunRound,
    Slipstream,
    SuperCool,
    Upgrade,
    play,
    start_race,
    validate,
)
from companion.engine.cards import subset_sums
from companion.engine.conditions import boost_is_free, hand_size
from companion.engine.garage import DESIGNS
from companion.engine.payment import due, short_count

from .choices import reveal_of, unpayable_at_reveal
from .deck import DeckSim, Rand, is_upgrade, starting_deck
from .drivers import Driver, Plan, SensibleDriver

StepHook = Callable[[RaceState, Action, RaceState], None]


@dataclass
class RaceRun:
    setup: RaceSetup
    actions: list[Action] = field(default_factory=list)
    rounds: list[dict[str, dict[str, Any]]] = field(default_factory=list)
    """The race file's rounds, as the table would write them (docs/race-file.md inputs)."""
    round_states: list[RaceState] = field(default_factory=list)
    """The state after each completed round."""
    states: list[RaceState] = field(default_factory=list)
    """The start state, then the state after every action."""
    final: RaceState | None = None


class _Runner:
    def __init__(
        self, setup: RaceSetup, driver: Callable[[Rand], Driver], seed: int,
        on_step: StepHook | None,
    ) -> None:
        self.run = RaceRun(setup)
        self.rand = Rand(seed)
        self.state = start_race(setup).state
        self.run.states.append(self.state)
        self.on_step = on_step
        size = hand_size(self.state)
        self.sims = {
            c.id: DeckSim(starting_deck(c.upgrades, c.stress_in_deck, c.heat - c.engine),
                          Rand(seed * 7919 + i), hand_size=size, sponsors=c.sponsor_cards,
                          first_sponsor=Rand(seed * 31337 + i).below(7))
            for i, c in enumerate(self.state.cars) if not c.legend
        }
        self.drivers = {cid: driver(Rand(seed * 104729 + i)) for i, cid in enumerate(self.sims)}
        self.doc: dict[str, dict[str, Any]] = {}
        self.pending: dict[str, Plan] = {}

    def step(self, action: Action) -> None:
        before = self.state
        rejection = validate(before, action)
        if rejection is not None:
            raise AssertionError(
                f"round {before.round + 1}: engine rejects a legal deck play {action!r}: "
                f"{rejection.text()}"
            )
        result = play(before, action)
        assert not isinstance(result, Rejection)
        after = result.state
        self.run.actions.append(action)
        self.run.states.append(after)
        for car_id, sim in self.sims.items():
            old, new = before.car(car_id), after.car(car_id)
            delta = new.engine - old.engine
            if delta > 0 and isinstance(action, SuperCool):
                sim.super_cool(delta)
            elif delta > 0:
                sim.heat_to_engine(delta)
            elif delta < 0:
                sim.heat_to_discard(-delta)
            if new.heat < old.heat:  # Heat out of the game (Pressure cooker): the engine's
                sim.heat_leaves_game(old.heat - new.heat)  # went to the discard pile above
            sim.stress_to_hand(new.stress_taken - old.stress_taken)
            if new.sponsors > old.sponsors:
                sim.gain_sponsors(new.sponsors - old.sponsors)
            assert sim.heat_outside_engine() == new.heat - new.engine, (
                f"{car_id}: the deck holds {sim.heat_outside_engine()} Heat out of the engine, "
                f"the engine says {new.heat - new.engine}"
            )
        if self.on_step is not None:
            self.on_step(before, action, after)
        self.state = after
        if after.round > before.round:
            self.run.rounds.append(self.doc)
            self.run.round_states.append(after)
            self.doc = {}
            for sim in self.sims.values():
                sim.replenish()

    def plan_round(self) -> None:
        for car_id in self.state.humans_to_plan:
            self.plan_car(car_id)

    def plan_car(self, car_id: str) -> None:
        sim, car = self.sims[car_id], self.state.car(car_id)
        plan = self.drivers[car_id].plan(self.state, car_id, sim)
        entry: dict[str, Any] = {}
        if plan.gear != car.gear:
            entry["gear"] = plan.gear
        if plan.clogged:
            entry["clogged"] = True
            sim.play_cards(plan.cards)
        else:
            entry["cards"] = list(plan.cards)
            self.pending[car_id] = plan
        self.doc[car_id] = entry
        self.step(ChooseGear(car_id, plan.gear, plan.clogged))

    def reveal(self, car_id: str) -> None:
        sim, driver, entry = self.sims[car_id], self.drivers[car_id], self.doc[car_id]
        plan = self.pending.pop(car_id)
        sim.play_cards(plan.cards)
        reveal = reveal_of(car_id, plan.cards, sim.flip_basic, driver.choose)
        unpaid = unpayable_at_reveal(self.state, reveal)
        if unpaid and driver.declare_unpaid(self.state, car_id):
            reveal = Reveal(car_id, reveal.cards, reveal.stress,
                            tuple(sim.flip_basic() for _ in range(unpaid)))
        entry["cards"] = [c.to_dict() if isinstance(c, Upgrade) else c for c in reveal.cards]
        if reveal.stress:
            entry["stress"] = list(reveal.stress)
        if reveal.unpaid:
            entry["unpaid"] = list(reveal.unpaid)
        self.step(reveal)

    def react(self, car_id: str) -> None:
        """Steps 4-6 in race-file order (docs/race-file-v2.md)."""
        sim, driver, entry = self.sims[car_id], self.drivers[car_id], self.doc[car_id]
        turn = self.state.turn
        assert turn is not None
        if validate(self.state, Adrenaline(car_id)) is None:
            assert turn.adrenaline_entitled
            if driver.adrenaline(self.state, car_id, sim):
                entry["adrenaline"] = True
                self.step(Adrenaline(car_id))
        else:
            assert not turn.adrenaline_entitled
        for design in [c for c in sim.hand if is_upgrade(c) and DESIGNS[str(c)].direct]:
            direct = DirectPlay(car_id, Upgrade(str(design)))
            if validate(self.state, direct) is None and driver.direct(
                    self.state, car_id, str(design)):
                sim.play_cards([design])
                entry.setdefault("direct", []).append(direct.card.to_dict())
                self.step(direct)
        amount = driver.cooldown(self.state, car_id, sim)
        if amount:
            entry["cooldown"] = amount
            self.step(Cooldown(car_id, amount))
        amount = driver.super_cool(self.state, car_id, sim)
        if amount:
            entry["super_cool"] = amount
            self.step(SuperCool(car_id, amount))
        turn = self.state.turn
        assert turn is not None
        if turn.pending and due(self.state):
            short = short_count(self.state)
            if short or driver.pay_now(self.state, car_id):
                flips = tuple(sim.flip_basic() for _ in range(short))
                if flips:
                    entry["unpaid_after_cooldown"] = list(flips)
                self.step(PayHeat(car_id, flips))
        if any(validate(self.state, Boost(car_id, v)) is None for v in (1, 2, 3, 4)) and (
                sim.basics_to_flip() > 0 and driver.boost(self.state, car_id, sim)):
            # Pay first, then flip (docs/rules.md §1.7; free in a heat-control sector, §5); the
            # engine is told the value.
            if not boost_is_free(self.state, self.state.car(car_id)):
                sim.pay_before_flip()
            value = sim.flip_basic()
            entry["boost"] = value
            self.step(Boost(car_id, value))
        turn = self.state.turn
        assert turn is not None
        if validate(self.state, Accelerate(car_id)) is None and driver.accelerate(
                self.state, car_id, turn.accelerate * turn.plus_resolved):
            entry["accelerate"] = True
            self.step(Accelerate(car_id))
        if validate(self.state, DraftMove(car_id)) is None and driver.moves_on(
                self.state, car_id, self.state.turn.draft if self.state.turn else 0):
            entry["draft"] = True
            self.step(DraftMove(car_id))
        self.slipstream(car_id)

    def slipstream(self, car_id: str) -> None:
        sim, driver, entry = self.sims[car_id], self.drivers[car_id], self.doc[car_id]
        turn = self.state.turn
        assert turn is not None
        choices = [Slipstream(car_id, extra, sector)
                   for sector in (True, False)
                   for extra in sorted(subset_sums(turn.slipstream_bonuses), reverse=True)]
        legal = [c for c in choices if validate(self.state, c) is None]
        if not legal or not driver.slipstream(self.state, car_id, sim):
            return
        if len(legal) == 1 or isinstance(driver, SensibleDriver):
            chosen = legal[0]  # the sensible driver takes every bonus it may
        else:
            chosen = driver.rand.choice(legal)
        entry["slipstream"] = True
        if chosen.extra:
            entry["slipstream_extra"] = chosen.extra
        if not chosen.sector:
            entry["slipstream_sector"] = False
        self.step(chosen)

    def take_turn(self, car_id: str) -> None:
        sim, driver = self.sims[car_id], self.drivers[car_id]
        self.reveal(car_id)
        self.react(car_id)
        # Step 8 (the engine is not told): a car that crossed the finish line skips it, and no
        # card is discarded on a tunnel space (docs/rules.md §6.6, España).
        car = self.state.car(car_id)
        space = self.state.track.space_of(car.distance)
        if car.distance <= self.state.finish_distance and space not in self.state.track.tunnels:
            for card in driver.discard(self.state, car_id, sim):
                sim.hand.remove(card)
                sim.discard.append(card)
        self.step(EndTurn(car_id))

    def race(self, max_rounds: int, require_finish: bool) -> RaceRun:
        while not self.state.over:
            if self.state.round >= max_rounds:
                if require_finish:
                    raise AssertionError(f"the race is not over after {max_rounds} rounds")
                break
            if self.state.awaiting_legend_card:
                # Physical deck: the table draws a card and enters its number.
                self.step(LegendCard(self.rand.below(10) + 1))
            elif self.state.phase is Phase.PLANNING and not self.state.humans_to_plan:
                self.step(RunRound())
            elif self.state.phase is Phase.PLANNING:
                self.plan_round()
            else:
                current = self.state.current_car
                assert current is not None, "the engine waits for nobody"
                assert not self.state.car(current).legend
                turn = self.state.turn
                if turn is not None and not turn.gear_set:  # tournament: gear at the turn
                    self.plan_car(current)
                    continue
                self.take_turn(current)
        self.run.final = self.state
        return self.run


def run_race(
    setup: RaceSetup,
    *,
    seed: int = 0,
    driver: Callable[[Rand], Driver] = SensibleDriver,
    on_step: StepHook | None = None,
    max_rounds: int = 200,
    require_finish: bool = True,
) -> RaceRun:
    """Race to the end with every human car played from a simulated deck by ``driver``
    (or for ``max_rounds`` rounds when the end is not required)."""
    return _Runner(setup, driver, seed, on_step).race(max_rounds, require_finish)

