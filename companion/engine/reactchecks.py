"""Validation of steps 4-6 of a human turn: Adrenaline, direct plays, Cooldown, Super cool, paying
the upgrade cards' Heat, Boost, Accelerate, Draft and Slipstream. Each check names its rule and,
when the answer is no, returns a :class:`Rejection` a player understands.

Sources: docs/rules.md §1.6-1.8 (base rules), §4.3 and §4.4 (upgrade symbols), §3.3, §5 (what
events, weather and road conditions change), docs/race-file.md and docs/race-file-v2.md (order).
"""

from __future__ import annotations

from . import conditions, payment
from .actions import (
    Accelerate,
    Adrenaline,
    Boost,
    Cooldown,
    DirectPlay,
    DraftMove,
    EndTurn,
    PayHeat,
    Slipstream,
    SuperCool,
    Upgrade,
)
from .cards import subset_sums
from .explain import N_
from .garage import DESIGNS
from .gate import (
    BASIC_VALUES,
    check_turn,
    deck_count_problem,
    is_int,
    react_step,
    validate_upgrade,
)
from .outcomes import Rejection, reject
from .placement import cars_beside_or_ahead, empty_spaces_ahead, race_order_key
from .state import CarState, RaceState, TurnStage

COOLDOWN_BY_GEAR = {1: 3, 2: 1, 3: 0, 4: 0}
"""Cooldown of each gear (docs/rules.md §1.7)."""


def cooldown_limit(state: RaceState, car: CarState) -> int:
    """Cooldown available (docs/rules.md §1.7, docs/race-file.md ``cooldown``): the gear's
    Cooldown, plus 1 with Adrenaline entitlement, never more Heat than is outside the engine.
    Weather sectors forbid it or add 1 (docs/rules.md §5); upgrade cards add their Cooldown, even
    before their Heat is paid (§4.3, §4.4)."""
    if not conditions.cooldown_allowed(state, car):
        return 0
    turn = state.turn
    bonus = 1 if turn is not None and turn.adrenaline_entitled else 0
    bonus += conditions.cooldown_bonus(state, car)
    bonus += turn.card_cooldown if turn is not None else 0
    return min(COOLDOWN_BY_GEAR[car.gear] + bonus, car.heat - car.engine)


def super_cool_limit(state: RaceState, car: CarState) -> int:
    """Super cool available (docs/rules.md §4.3): the cards' Super cool, never more Heat than is
    outside the engine (the engine does not tell the discard pile from the hand). A symbol of
    its own: a Cloud sector, which forbids Cooldown, allows it."""
    turn = state.turn
    cards = turn.card_super_cool if turn is not None else 0
    return min(cards, car.heat - car.engine)


def slipstream_partner(state: RaceState, car: CarState) -> CarState | None:
    """A car that gives ``car`` a slipstream now, or None (docs/rules.md §1.8): beside it or on the
    space directly in front; never when even the plain slipstream (without the sector's optional
    bonus) would cross or start past the finish line on the final lap."""
    spaces = conditions.plain_slipstream_spaces(state, car)
    if spaces is None or car.distance + spaces > state.finish_distance:
        return None
    partners = cars_beside_or_ahead(state, car)
    if not partners:
        return None
    return min(partners, key=race_order_key)


def _after_payment(
    state: RaceState, car_id: str, step: str, stage: TurnStage
) -> tuple[RaceState | None, Rejection | None]:
    """The state a step after the payment starts from (the upgrade Heat paid), or why not."""
    problem = react_step(state, car_id, step, stage) or payment.unpaid_problem(state, car_id)
    if problem is not None:
        return None, problem
    return payment.settled(state), None


def _validate_slipstream(state: RaceState, action: Slipstream) -> Rejection | None:
    paid, problem = _after_payment(state, action.car, "slipstream", TurnStage.SLIPSTREAM)
    if paid is None:
        return problem
    car = paid.car(action.car)
    plain = conditions.plain_slipstream_spaces(paid, car)
    if plain is None:
        return reject(action.car, N_("Cannot slipstream here: the event or this sector's "
                                     "weather forbids it."))
    if not isinstance(action.sector, bool):
        return reject(action.car, N_("The sector bonus of a slipstream is taken or not."))
    bonus = conditions.sector_slipstream_bonus(paid, car)
    if not action.sector and not bonus:
        return reject(action.car, N_("There is no sector slipstream bonus here to decline."))
    assert paid.turn is not None
    if not is_int(action.extra) or action.extra not in subset_sums(
        paid.turn.slipstream_bonuses
    ):
        return reject(action.car, N_("The cards played do not add {extra} slipstream "
                                     "spaces."), extra=str(action.extra))
    spaces = plain + (bonus if action.sector else 0) + action.extra
    if car.distance + spaces > paid.finish_distance:
        return reject(action.car, N_("Cannot slipstream across the finish line on the final "
                                     "lap."))
    if slipstream_partner(paid, car) is None:
        return reject(action.car,
                      N_("Cannot slipstream: no car beside {car} or on the space in front."),
                      car=action.car)
    return None


def _validate_cooldown(state: RaceState, action: Cooldown) -> Rejection | None:
    problem = react_step(state, action.car, "cool down", TurnStage.COOLDOWN)
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


def _validate_super_cool(state: RaceState, action: SuperCool) -> Rejection | None:
    problem = react_step(state, action.car, "super cool", TurnStage.SUPER_COOL)
    if problem is not None:
        return problem
    car = state.car(action.car)
    if not is_int(action.amount) or action.amount < 1:
        return reject(action.car, N_("Super cool at least 1 Heat card."))
    limit = super_cool_limit(state, car)
    if action.amount > limit:
        assert state.turn is not None
        return reject(
            action.car,
            N_("Cannot super cool {amount}: the cards played allow {cards} ({outside} Heat "
               "out of the engine)."),
            amount=action.amount, cards=state.turn.card_super_cool,
            outside=car.heat - car.engine,
        )
    return None


def _validate_pay(state: RaceState, action: PayHeat) -> Rejection | None:
    """Paying the upgrade cards' Heat (docs/rules.md §4.4): the flips name the cards the engine
    cannot pay now, one each, in play order."""
    problem = react_step(state, action.car, "pay the upgrade cards' Heat", TurnStage.PAID)
    if problem is not None:
        return problem
    turn = state.turn
    assert turn is not None
    if not turn.pending:
        return reject(action.car, N_("{car} has no upgrade card whose Heat is still to pay."),
                      car=action.car)
    count = payment.short_count(state)
    if not isinstance(action.unpaid, tuple) or len(action.unpaid) != count:
        return reject(
            action.car,
            N_("The engine can pay all but {count} upgrade card(s) now: give a flipped Basic "
               "card for each of those, not {given}."),
            count=count, given=len(action.unpaid) if isinstance(action.unpaid, tuple) else 0,
        )
    for flipped in action.unpaid:
        if not is_int(flipped) or flipped not in BASIC_VALUES:
            return reject(action.car, N_("A Stress card resolves to a Basic card 1-4, not "
                                         "{value}."), value=str(flipped))
    shown = [v for v in turn.cards if isinstance(v, int)] + list(action.unpaid)
    return deck_count_problem(action.car, shown)


def _validate_boost(state: RaceState, action: Boost) -> Rejection | None:
    paid, problem = _after_payment(state, action.car, "boost", TurnStage.BOOST)
    if paid is None:
        return problem
    car = paid.car(action.car)
    if not is_int(action.value) or action.value not in BASIC_VALUES:
        return reject(action.car, N_("A Boost flips a Basic card 1-4, not {value}."),
                      value=str(action.value))
    if car.engine == 0 and not conditions.boost_is_free(paid, car):
        return reject(action.car, N_("Cannot boost: the engine is empty."))
    assert paid.turn is not None
    shown = [v for v in paid.turn.cards if isinstance(v, int)] + [action.value]
    return deck_count_problem(action.car, shown)


def _validate_accelerate(state: RaceState, action: Accelerate) -> Rejection | None:
    paid, problem = _after_payment(state, action.car, "accelerate", TurnStage.ACCELERATE)
    if paid is None:
        return problem
    assert paid.turn is not None
    if not (paid.turn.accelerate and paid.turn.plus_resolved):
        return reject(action.car, N_("Nothing to accelerate: no Accelerate symbol, or no "
                                     "\"+\" resolved this turn."))
    return None


def draft_spaces(state: RaceState, car: CarState) -> int | None:
    """How far the car drafts now: through the completely empty spaces to the space right
    behind the next car ahead, when that is 1 to Draft spaces away (docs/rules.md §4.3; BGA moves
    exactly that far). None when it cannot draft."""
    turn = state.turn
    gap = empty_spaces_ahead(state, car)
    if turn is None or gap is None or not 1 <= gap <= turn.draft:
        return None
    return gap


def _validate_draft(state: RaceState, action: DraftMove) -> Rejection | None:
    paid, problem = _after_payment(state, action.car, "draft", TurnStage.DRAFT)
    if paid is None:
        return problem
    assert paid.turn is not None
    car = paid.car(action.car)
    if not paid.turn.draft:
        return reject(action.car, N_("Cannot draft: no Draft symbol among the cards played."))
    if draft_spaces(paid, car) is None:
        return reject(action.car, N_("Cannot draft: the next car ahead is not 1 to {draft} "
                                     "empty spaces away."), draft=paid.turn.draft)
    if car.distance + (draft_spaces(paid, car) or 0) > paid.finish_distance:
        return reject(action.car, N_("Cannot draft across the finish line on the final lap."))
    return None


def _validate_direct(state: RaceState, action: DirectPlay) -> Rejection | None:
    """Direct play (docs/rules.md §4.3): a Gas Pedal card from hand during React, as if played; one
    physical card each. Its Heat waits for the payment, after Cooldown (docs/rules.md §4.4)."""
    problem = react_step(state, action.car, "play a card directly", TurnStage.COOLDOWN)
    if problem is not None:
        return problem
    car = state.car(action.car)
    card = action.card
    design = DESIGNS.get(card.design) if isinstance(card, Upgrade) else None
    if design is None or not design.direct:
        return reject(action.car, N_("Only Direct-play cards (Gas Pedal) can be played during "
                                     "React."))
    problem = validate_upgrade(state, car, card)
    if problem is not None:
        return problem
    assert state.turn is not None
    if state.turn.upgrades_played.count(card.design) >= car.upgrades.count(card.design):
        return reject(action.car, N_("{car} has only {copies} {design} card(s)."),
                      car=action.car, copies=car.upgrades.count(card.design), design=card.design)
    return None


def _validate_adrenaline(state: RaceState, action: Adrenaline) -> Rejection | None:
    problem = react_step(state, action.car, "take Adrenaline", TurnStage.ADRENALINE)
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


def _validate_end(state: RaceState, action: EndTurn) -> Rejection | None:
    problem = check_turn(state, action.car, "end the turn")
    if problem is None and state.turn is not None and state.turn.stage is TurnStage.REVEAL:
        problem = reject(action.car, N_("Reveal the cards before ending the turn."))
    return problem or payment.unpaid_problem(state, action.car)


ReactAction = (
    Adrenaline | DirectPlay | Cooldown | SuperCool | PayHeat | Boost | Accelerate | DraftMove
    | Slipstream | EndTurn
)


def validate_react(state: RaceState, action: ReactAction) -> Rejection | None:
    """None if the rules allow this step of the turn now, else the reason they don't."""
    if isinstance(action, Adrenaline):
        return _validate_adrenaline(state, action)
    if isinstance(action, DirectPlay):
        return _validate_direct(state, action)
    if isinstance(action, Cooldown):
        return _validate_cooldown(state, action)
    if isinstance(action, SuperCool):
        return _validate_super_cool(state, action)
    if isinstance(action, PayHeat):
        return _validate_pay(state, action)
    if isinstance(action, Boost):
        return _validate_boost(state, action)
    if isinstance(action, Accelerate):
        return _validate_accelerate(state, action)
    if isinstance(action, DraftMove):
        return _validate_draft(state, action)
    if isinstance(action, Slipstream):
        return _validate_slipstream(state, action)
    return _validate_end(state, action)
