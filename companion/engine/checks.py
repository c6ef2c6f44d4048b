"""Validation: may this input be played now? Each check names its rule and, when the answer is
no, returns a :class:`Rejection` whose sentence a player understands.

Sources: docs/rules.md §1 (base rules), docs/race-file.md (inputs, their order and their
rejections), docs/rules.md §3.3, §5, §6 (what events, weather, road conditions and flooded spaces
change).
"""

from __future__ import annotations

from collections import Counter

from . import conditions, legends
from .actions import (
    STRESS,
    Accelerate,
    Action,
    Adrenaline,
    Boost,
    ChooseGear,
    Cooldown,
    DirectPlay,
    EndTurn,
    LegendCard,
    Reveal,
    RunRound,
    Slipstream,
    Upgrade,
)
from .cards import evaluate, subset_sums
from .explain import N_
from .garage import DESIGNS
from .outcomes import Rejection, reject
from .placement import cars_beside_or_ahead, race_order_key
from .state import CarState, Phase, RaceState, TurnStage

GEARS = range(1, 5)
COOLDOWN_BY_GEAR = {1: 3, 2: 1, 3: 0, 4: 0}
"""Cooldown of each gear (docs/rules.md §1.7)."""
CARD_VALUES = range(0, 6)
"""Values a base-game deck can reveal: Basic 1-4, Starting Upgrades 0 and 5 (docs/rules.md §0)."""
COPIES_IN_DECK = {0: 1, 1: 3, 2: 3, 3: 3, 4: 3, 5: 1}
"""Copies of each value in a base deck (docs/rules.md §0): a play can't show more than that."""
BASIC_VALUES = range(1, 5)
"""A Stress card or a Boost resolves to a Basic card, 1-4 (docs/rules.md §1.4, §1.7)."""

ReactAction = Adrenaline | DirectPlay | Cooldown | Boost | Accelerate | Slipstream


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def humans_racing(state: RaceState) -> bool:
    return any(not state.car(c).legend for c in state.order)


def _check_car(state: RaceState, car_id: str) -> Rejection | None:
    if car_id not in state.index:
        return reject(car_id, N_("{car} is not a car in this race."), car=car_id)
    car = state.car(car_id)
    if car.legend:
        return reject(car_id, N_("{car} is a Legend: the app moves it."), car=car_id)
    if car.finished:
        return reject(car_id, N_("{car} has already finished."), car=car_id)
    if car.eliminated:
        return reject(car_id, N_("{car} is out of the race."), car=car_id)
    return None


def _check_turn(state: RaceState, car_id: str, step: str) -> Rejection | None:
    problem = _check_car(state, car_id)
    if problem is not None:
        return problem
    if state.phase is Phase.OVER:
        return reject(car_id, N_("The race is over."))
    if state.phase is Phase.PLANNING:
        return reject(car_id, N_("Cannot {step} yet: every driver picks a gear first."),
                      step=step)
    current = state.current_car
    if current != car_id:
        return reject(car_id, N_("Cannot {step}: it is {current}'s turn."), step=step,
                      current=current or "-")
    return None


def shift_cost(state: RaceState, car: CarState, gear: int) -> int:
    """Heat a shift costs (docs/rules.md §1.2 step 1): 1 for two gears. Flooded spaces
    (docs/rules.md §6, Japan): a car that starts the round on one pays 1 more Heat for shifting down
    at all."""
    steps = abs(gear - car.gear)
    cost = 1 if steps == 2 else 0
    if gear < car.gear and state.track.space_of(car.distance) in state.track.flooded:
        cost += 1
    return cost


def _gear_moment(state: RaceState, car_id: str) -> Rejection | None:
    """Steps 1-2 happen together at the start of the round; in the tournament variant each
    driver reveals the gear with the cards, at its turn (Garage booklet, "tournament mode")."""
    if not state.modules.tournament:
        if state.phase is not Phase.PLANNING:
            return reject(car_id, N_("Gears are picked at the start of a round, not now."))
        return None
    problem = _check_turn(state, car_id, "reveal a gear")
    if problem is not None:
        return problem
    assert state.turn is not None
    if state.turn.gear_set:
        return reject(car_id, N_("{car} has already revealed its gear."), car=car_id)
    return None


def _validate_gear(state: RaceState, action: ChooseGear) -> Rejection | None:
    """Step 1 (docs/rules.md §1.2, docs/race-file.md ``gear``): one step free, two steps 1 Heat,
    three never. Clogged hand (docs/rules.md §1.5): only possible when enough Heat is out of the
    engine to fill the hand so that no gear the driver could shift to (and pay for) can be
    played."""
    problem = _check_car(state, action.car) or _gear_moment(state, action.car)
    if problem is not None:
        return problem
    car = state.car(action.car)
    if not is_int(action.gear) or action.gear not in GEARS:
        return reject(action.car, N_("Gear must be 1 to 4, not {gear}."), gear=str(action.gear))
    if abs(action.gear - car.gear) == 3:
        return reject(
            action.car, N_("Cannot shift from gear {old} to {new}: at most two gears at once."),
            old=car.gear, new=action.gear,
        )
    cost = shift_cost(state, car, action.gear)
    if cost > car.engine:
        if cost == 1 and abs(action.gear - car.gear) == 2:
            return reject(
                action.car,
                N_("Cannot shift two gears (from {old} to {new}): it costs 1 Heat and the "
                   "engine is empty."),
                old=car.gear, new=action.gear,
            )
        return reject(
            action.car,
            N_("Cannot shift down from gear {old} to {new} on a flooded space: it costs "
               "{cost} Heat and the engine has {engine}."),
            old=car.gear, new=action.gear, cost=cost, engine=car.engine,
        )
    if action.clogged:
        lowest = min(g for g in GEARS
                     if abs(g - car.gear) <= 2 and shift_cost(state, car, g) <= car.engine)
        needed = conditions.hand_size(state) + 1 - lowest
        outside = car.heat - car.engine
        if outside < needed:
            return reject(
                action.car,
                N_("Cannot be clogged: only {outside} Heat cards are out of the engine, so the "
                   "hand still holds a card to play in gear {gear}."),
                outside=outside, gear=lowest,
            )
    return None


def _deck_count_problem(car_id: str, values: list[int]) -> Rejection | None:
    """A base deck holds three of each Basic value and one 0 and one 5 (docs/rules.md §0); the cards
    played, flipped for Stress and flipped for a Boost are all in play until step 9."""
    counts = Counter(values)
    for value, count in sorted(counts.items()):
        if count > COPIES_IN_DECK[value]:
            return reject(
                car_id,
                N_("A deck has only {copies} card(s) of value {value}, but this turn shows "
                   "{count}."),
                copies=COPIES_IN_DECK[value], value=value, count=count,
            )
    return None


def _validate_upgrade(state: RaceState, car: CarState, card: Upgrade) -> Rejection | None:
    """An upgrade card (docs/rules.md §4.2) must be in the car's deck, with a legal chosen value and
    one flipped Basic card per "+" symbol; a Sponsorship card must be in hand (§3.4)."""
    design = DESIGNS.get(card.design)
    if design is None or design.heat_card:
        return reject(car.id, N_("{design} is not a card that can be played."),
                      design=card.design)
    if design.sponsor and car.sponsor_cards < 1:
        return reject(car.id, N_("{car} holds no Sponsorship card."), car=car.id)
    if not design.sponsor and card.design not in car.upgrades:
        return reject(car.id, N_("{design} is not among {car}'s upgrades."),
                      design=card.design, car=car.id)
    if design.choice and card.value not in design.speeds:
        return reject(car.id, N_("{design} is played as one of its values, not {value}."),
                      design=card.design, value=str(card.value))
    if not design.choice and card.value not in (None, design.speeds[0]):
        return reject(car.id, N_("{design} has speed {speed}, not {value}."),
                      design=card.design, speed=design.speeds[0], value=str(card.value))
    if len(card.plus) != design.plus or not all(
        is_int(v) and v in BASIC_VALUES for v in card.plus
    ):
        return reject(car.id, N_("{design} has {count} \"+\" symbol(s): give a flipped Basic "
                                 "card 1-4 for each."), design=card.design, count=design.plus)
    return None


def _validate_reveal(state: RaceState, action: Reveal) -> Rejection | None:
    """Steps 2-3 (docs/rules.md §1.2, §1.4; docs/race-file.md ``cards``/``stress``; upgrade and
    Sponsorship cards in heat-race/2, docs/rules.md §4.2, §3.4)."""
    problem = _check_turn(state, action.car, "reveal cards")
    if problem is not None:
        return problem
    assert state.turn is not None
    if state.turn.stage is not TurnStage.REVEAL:
        return reject(action.car, N_("{car} has already revealed its cards."), car=action.car)
    if not state.turn.gear_set:
        return reject(action.car, N_("Reveal the gear first (tournament mode)."))
    car = state.car(action.car)
    if len(action.cards) != car.gear:
        return reject(action.car, N_("Gear {gear} plays exactly {gear} cards, not {count}."),
                      gear=car.gear, count=len(action.cards))
    values = BASIC_VALUES if car.upgrades else CARD_VALUES
    stress_cards = 0
    upgrades: list[str] = []
    sponsors = 0
    for value in action.cards:
        if value == STRESS:
            stress_cards += 1
        elif isinstance(value, Upgrade):
            problem = _validate_upgrade(state, car, value)
            if problem is not None:
                return problem
            upgrades.append(value.design)
            sponsors += 1 if DESIGNS[value.design].sponsor else 0
        elif not (is_int(value) and value in values):
            return reject(action.car, N_("{value} is not a card of this deck."),
                          value=str(value))
    for design, count in Counter(upgrades).items():
        if not DESIGNS[design].sponsor and count > car.upgrades.count(design):
            return reject(action.car, N_("{car} has only {copies} {design} card(s)."),
                          car=action.car, copies=car.upgrades.count(design), design=design)
    if sponsors > car.sponsor_cards:
        return reject(action.car, N_("{car} holds only {held} Sponsorship card(s)."),
                      car=action.car, held=car.sponsor_cards)
    if len(action.stress) != stress_cards:
        return reject(
            action.car,
            N_("{count} Stress card(s) played, so give {count} flipped Basic card(s), "
               "not {given}."),
            count=stress_cards, given=len(action.stress),
        )
    for flipped in (*action.stress, *action.unpaid):
        if not is_int(flipped) or flipped not in BASIC_VALUES:
            return reject(action.car, N_("A Stress card resolves to a Basic card 1-4, not "
                                         "{value}."), value=str(flipped))
    if stress_cards > car.stress_owned:
        return reject(action.car, N_("{car} owns only {owned} Stress card(s), not {count}."),
                      car=action.car, owned=car.stress_owned, count=stress_cards)
    play = evaluate(action, car.engine)
    if len(action.unpaid) != play.unpaid:
        return reject(
            action.car,
            N_("The engine cannot pay for {count} upgrade card(s): give a flipped Basic card "
               "for each (they resolve as Stress), not {given}."),
            count=play.unpaid, given=len(action.unpaid),
        )
    return _deck_count_problem(action.car, list(play.basic_shown))


def _validate_react(
    state: RaceState, action: ReactAction, step: str, stage: TurnStage
) -> Rejection | None:
    """Steps 4-6 come after the reveal and in race-file order (docs/race-file.md "Order inside a
    car's turn"): move, Adrenaline, Cooldown, Boost, Slipstream; each at most once."""
    problem = _check_turn(state, action.car, step)
    if problem is not None:
        return problem
    turn = state.turn
    assert turn is not None
    if turn.stage is TurnStage.REVEAL:
        return reject(action.car, N_("Cannot {step} before revealing cards."), step=step)
    if turn.stage.value >= stage.value:
        return reject(
            action.car, N_("Cannot {step} now: a car's turn goes move, Adrenaline, Cooldown, "
                           "Boost, Accelerate, Slipstream, and that step has passed."),
            step=step,
        )
    return None


def cooldown_limit(state: RaceState, car: CarState) -> int:
    """Cooldown available (docs/rules.md §1.7, docs/race-file.md ``cooldown``): the gear's Cooldown,
    plus 1 with Adrenaline entitlement, never more Heat than is outside the engine. Weather sectors
    forbid it or add 1 (docs/rules.md §5); upgrade cards add their Cooldown and Super cool (§4.3;
    both return Heat to the engine, and the engine does not tell hand from discard pile)."""
    if not conditions.cooldown_allowed(state, car):
        return 0
    turn = state.turn
    bonus = 1 if turn is not None and turn.adrenaline_entitled else 0
    bonus += conditions.cooldown_bonus(state, car)
    bonus += turn.card_cooldown if turn is not None else 0
    return min(COOLDOWN_BY_GEAR[car.gear] + bonus, car.heat - car.engine)


def slipstream_partner(state: RaceState, car: CarState) -> CarState | None:
    """A car that gives ``car`` a slipstream now, or None (docs/rules.md §1.8): beside it or on the
    space directly in front; never across or after the finish line on the final lap."""
    spaces = conditions.slipstream_spaces(state, car)
    if spaces is None or car.distance + spaces > state.finish_distance:
        return None
    partners = cars_beside_or_ahead(state, car)
    if not partners:
        return None
    return min(partners, key=race_order_key)


def _validate_slipstream(state: RaceState, action: Slipstream) -> Rejection | None:
    problem = _validate_react(state, action, "slipstream", TurnStage.SLIPSTREAM)
    if problem is not None:
        return problem
    car = state.car(action.car)
    spaces = conditions.slipstream_spaces(state, car)
    if spaces is None:
        return reject(action.car, N_("Cannot slipstream here: the event or this sector's "
                                     "weather forbids it."))
    assert state.turn is not None
    if not is_int(action.extra) or action.extra not in subset_sums(
        state.turn.slipstream_bonuses
    ):
        return reject(action.car, N_("The cards played do not add {extra} slipstream "
                                     "spaces."), extra=str(action.extra))
    spaces += action.extra
    if car.distance + spaces > state.finish_distance:
        return reject(action.car, N_("Cannot slipstream across the finish line on the final "
                                     "lap."))
    if slipstream_partner(state, car) is None:
        return reject(action.car,
                      N_("Cannot slipstream: no car beside {car} or on the space in front."),
                      car=action.car)
    return None


def _validate_cooldown(state: RaceState, action: Cooldown) -> Rejection | None:
    problem = _validate_react(state, action, "cool down", TurnStage.COOLDOWN)
    if problem is not None:
        return problem
    car = state.car(action.car)
    if not is_int(action.amount) or action.amount < 1:
        return reject(action.car, N_("Cool down at least 1 Heat card."))
    limit = cooldown_limit(state, car)
    if action.amount > limit:
        return reject(
            action.car,
            N_("Cannot cool down {amount}: gear {gear} allows {limit} now "
               "({outside} Heat out of the engine)."),
            amount=action.amount, gear=car.gear, limit=limit, outside=car.heat - car.engine,
        )
    return None


def _validate_boost(state: RaceState, action: Boost) -> Rejection | None:
    problem = _validate_react(state, action, "boost", TurnStage.BOOST)
    if problem is not None:
        return problem
    car = state.car(action.car)
    if not is_int(action.value) or action.value not in BASIC_VALUES:
        return reject(action.car, N_("A Boost flips a Basic card 1-4, not {value}."),
                      value=str(action.value))
    if car.engine == 0 and not conditions.boost_is_free(state, car):
        return reject(action.car, N_("Cannot boost: the engine is empty."))
    assert state.turn is not None
    shown = [v for v in state.turn.cards if isinstance(v, int)] + [action.value]
    return _deck_count_problem(action.car, shown)


def _validate_direct(state: RaceState, action: DirectPlay) -> Rejection | None:
    """Direct play (docs/rules.md §4.3): a Gas Pedal card from hand during React, as if played; one
    physical card each, its Heat paid now (with no Heat it cannot be played)."""
    problem = _validate_react(state, action, "play a card directly", TurnStage.COOLDOWN)
    if problem is not None:
        return problem
    car = state.car(action.car)
    card = action.card
    design = DESIGNS.get(card.design) if isinstance(card, Upgrade) else None
    if design is None or not design.direct:
        return reject(action.car, N_("Only Direct-play cards (Gas Pedal) can be played during "
                                     "React."))
    problem = _validate_upgrade(state, car, card)
    if problem is not None:
        return problem
    assert state.turn is not None
    if state.turn.upgrades_played.count(card.design) >= car.upgrades.count(card.design):
        return reject(action.car, N_("{car} has only {copies} {design} card(s)."),
                      car=action.car, copies=car.upgrades.count(card.design), design=card.design)
    if design.heat > car.engine:
        return reject(action.car, N_("Cannot play {design}: it costs {heat} Heat and the engine "
                                     "has {engine}."),
                      design=card.design, heat=design.heat, engine=car.engine)
    return None


def _validate_adrenaline(state: RaceState, action: Adrenaline) -> Rejection | None:
    problem = _validate_react(state, action, "take Adrenaline", TurnStage.ADRENALINE)
    if problem is None and state.turn is not None and not state.turn.adrenaline_entitled:
        if not conditions.adrenaline_in_play(state):
            return reject(action.car, N_("No Adrenaline in this race (Sudden heavy rain)."))
        return reject(
            action.car,
            N_("{car} gets no Adrenaline: only the last car (the last two with 5 or more "
               "cars) does."),
            car=action.car,
        )
    return problem


def validate(state: RaceState, action: Action) -> Rejection | None:
    """None if the rules allow ``action`` now, else the reason they don't."""
    if isinstance(action, ChooseGear):
        return _validate_gear(state, action)
    if isinstance(action, Reveal):
        return _validate_reveal(state, action)
    if isinstance(action, Adrenaline):
        return _validate_adrenaline(state, action)
    if isinstance(action, DirectPlay):
        return _validate_direct(state, action)
    if isinstance(action, Cooldown):
        return _validate_cooldown(state, action)
    if isinstance(action, Boost):
        return _validate_boost(state, action)
    if isinstance(action, Slipstream):
        return _validate_slipstream(state, action)
    if isinstance(action, Accelerate):
        problem = _validate_react(state, action, "accelerate", TurnStage.ACCELERATE)
        if problem is None and state.turn is not None and not (
            state.turn.accelerate and state.turn.plus_resolved
        ):
            problem = reject(action.car, N_("Nothing to accelerate: no Accelerate symbol, or no "
                                            "\"+\" resolved this turn."))
        return problem
    if isinstance(action, EndTurn):
        problem = _check_turn(state, action.car, "end the turn")
        if problem is None and state.turn is not None and state.turn.stage is TurnStage.REVEAL:
            problem = reject(action.car, N_("Reveal the cards before ending the turn."))
        return problem
    if isinstance(action, RunRound):
        if state.phase is not Phase.PLANNING or humans_racing(state):
            return reject(None, N_("Only a round with no human car still racing plays by "
                                   "itself."))
        return None
    if isinstance(action, LegendCard):
        if not state.awaiting_legend_card:
            return reject(None, N_("No Legends card is needed now."))
        if not is_int(action.card) or action.card not in legends.LEGENDS_CARDS:
            return reject(None, N_("Legends cards are numbered 1-10, not {card}."),
                          card=str(action.card))
        return None
    raise TypeError(f"not an action: {action!r}")
