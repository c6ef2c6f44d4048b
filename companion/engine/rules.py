"""The round of a race, step by step: ``validate`` an input, ``apply`` it, get the outcomes.

Sources: rules.md §1 (base rules) and race-file.md (input order and rejections). Each function
names the rule it implements. ``validate`` returns a :class:`Rejection` a player can read, or
None; ``apply`` trusts that the input was validated and raises :class:`IllegalActionError` (a bug)
if it was not. After every input the engine plays everything that needs no decision (Legends,
clogged cars, the end of a round) until a table decision is needed again.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from types import MappingProxyType

from . import legends
from .actions import (
    STRESS,
    Action,
    Adrenaline,
    Boost,
    ChooseGear,
    Cooldown,
    EndTurn,
    LegendCard,
    Reveal,
    RunRound,
    Slipstream,
)
from .explain import N_, Explanation, explain
from .placement import cars_beside_or_ahead, move_car, race_order_key
from .state import HAND_SIZE, CarState, DeckMode, Phase, RaceState, TurnStage, TurnState

GEARS = range(1, 5)
COOLDOWN_BY_GEAR = {1: 3, 2: 1, 3: 0, 4: 0}
"""Cooldown of each gear (rules.md §1.7)."""
SLIPSTREAM_SPACES = 2
"""rules.md §1.8."""
CARD_VALUES = range(0, 6)
"""Values a base-game deck can reveal: Basic 1-4, Starting Upgrades 0 and 5 (rules.md §0)."""
COPIES_IN_DECK = {0: 1, 1: 3, 2: 3, 3: 3, 4: 3, 5: 1}
"""Copies of each value in a base deck (rules.md §0): a play can't show more than that."""
BASIC_VALUES = range(1, 5)
"""A Stress card or a Boost resolves to a Basic card, 1-4 (rules.md §1.4, §1.7)."""


@dataclass(frozen=True, slots=True)
class Rejection:
    """An input the rules do not allow, with the reason in words."""

    car: str | None
    reason: Explanation

    def text(self) -> str:
        return self.reason.text()


@dataclass(frozen=True, slots=True)
class Outcome:
    """Something that happened, with its one-sentence explanation."""

    kind: str
    car: str | None
    why: Explanation


@dataclass(frozen=True, slots=True)
class Applied:
    state: RaceState
    outcomes: tuple[Outcome, ...]


class IllegalActionError(Exception):
    """``apply`` was called with an input that ``validate`` rejects: a bug in the caller."""


def _reject(who: str | None, template: str, /, **params: str | int) -> Rejection:
    return Rejection(who, explain(template, **params))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- validation -------------------------------------------------------------------------------


def _check_car(state: RaceState, car_id: str) -> Rejection | None:
    if car_id not in state.index:
        return _reject(car_id, N_("{car} is not a car in this race."), car=car_id)
    car = state.car(car_id)
    if car.legend:
        return _reject(car_id, N_("{car} is a Legend: the app moves it."), car=car_id)
    if car.finished:
        return _reject(car_id, N_("{car} has already finished."), car=car_id)
    return None


def _check_turn(state: RaceState, car_id: str, step: str) -> Rejection | None:
    problem = _check_car(state, car_id)
    if problem is not None:
        return problem
    if state.phase is Phase.OVER:
        return _reject(car_id, N_("The race is over."))
    if state.phase is Phase.PLANNING:
        return _reject(
            car_id, N_("Cannot {step} yet: every driver picks a gear first."), step=step
        )
    current = state.current_car
    if current != car_id:
        return _reject(
            car_id, N_("Cannot {step}: it is {current}'s turn."), step=step,
            current=current or "-",
        )
    return None


def _validate_gear(state: RaceState, action: ChooseGear) -> Rejection | None:
    """Step 1 (rules.md §1.2, race-file.md ``gear``): one step free, two steps 1 Heat, three
    never. Clogged hand (rules.md §1.5): only possible when enough Heat is out of the engine to
    fill the hand so that no legal gear can be played."""
    problem = _check_car(state, action.car)
    if problem is not None:
        return problem
    if state.phase is not Phase.PLANNING:
        return _reject(action.car, N_("Gears are picked at the start of a round, not now."))
    car = state.car(action.car)
    if not _is_int(action.gear) or action.gear not in GEARS:
        return _reject(action.car, N_("Gear must be 1 to 4, not {gear}."), gear=str(action.gear))
    steps = abs(action.gear - car.gear)
    if steps == 3:
        return _reject(
            action.car, N_("Cannot shift from gear {old} to {new}: at most two gears at once."),
            old=car.gear, new=action.gear,
        )
    if steps == 2 and car.engine == 0:
        return _reject(
            action.car,
            N_("Cannot shift two gears (from {old} to {new}): it costs 1 Heat and the engine "
               "is empty."),
            old=car.gear, new=action.gear,
        )
    if action.clogged:
        lowest = max(1, car.gear - (2 if car.engine >= 1 else 1))
        needed = HAND_SIZE + 1 - lowest
        outside = car.heat - car.engine
        if outside < needed:
            return _reject(
                action.car,
                N_("Cannot be clogged: only {outside} Heat cards are out of the engine, so the "
                   "hand still holds a card to play in gear {gear}."),
                outside=outside, gear=lowest,
            )
    return None


def _deck_count_problem(car_id: str, values: list[int]) -> Rejection | None:
    """A base deck holds three of each Basic value and one 0 and one 5 (rules.md §0); the cards
    played, flipped for Stress and flipped for a Boost are all in play until step 9."""
    counts = Counter(values)
    for value, count in sorted(counts.items()):
        if count > COPIES_IN_DECK[value]:
            return _reject(
                car_id,
                N_("A deck has only {copies} card(s) of value {value}, but this turn shows "
                   "{count}."),
                copies=COPIES_IN_DECK[value], value=value, count=count,
            )
    return None


def _validate_reveal(state: RaceState, action: Reveal) -> Rejection | None:
    """Steps 2-3 (rules.md §1.2, §1.4; race-file.md ``cards``/``stress``)."""
    problem = _check_turn(state, action.car, "reveal cards")
    if problem is not None:
        return problem
    assert state.turn is not None
    if state.turn.stage is not TurnStage.REVEAL:
        return _reject(action.car, N_("{car} has already revealed its cards."), car=action.car)
    car = state.car(action.car)
    if len(action.cards) != car.gear:
        return _reject(
            action.car, N_("Gear {gear} plays exactly {gear} cards, not {count}."),
            gear=car.gear, count=len(action.cards),
        )
    speeds: list[int] = []
    stress_cards = 0
    for value in action.cards:
        if value == STRESS:
            stress_cards += 1
        elif _is_int(value) and value in CARD_VALUES:
            assert isinstance(value, int)
            speeds.append(value)
        else:
            return _reject(
                action.car, N_("{value} is not a card: use 0-5 or Stress."), value=str(value)
            )
    if len(action.stress) != stress_cards:
        return _reject(
            action.car,
            N_("{count} Stress card(s) played, so give {count} flipped Basic card(s), "
               "not {given}."),
            count=stress_cards, given=len(action.stress),
        )
    for flipped in action.stress:
        if not _is_int(flipped) or flipped not in BASIC_VALUES:
            return _reject(
                action.car, N_("A Stress card resolves to a Basic card 1-4, not {value}."),
                value=str(flipped),
            )
    owned = state.track.stress + car.stress_taken
    if stress_cards > owned:
        return _reject(
            action.car, N_("{car} owns only {owned} Stress card(s), not {count}."),
            car=action.car, owned=owned, count=stress_cards,
        )
    return _deck_count_problem(action.car, speeds + list(action.stress))


ReactAction = Adrenaline | Cooldown | Boost | Slipstream


def _validate_react(
    state: RaceState, action: ReactAction, step: str, stage: TurnStage
) -> Rejection | None:
    """Steps 4-6 come after the reveal and in race-file order (race-file.md "Order inside a
    car's turn"): move, Adrenaline, Cooldown, Boost, Slipstream; each at most once."""
    car_id = action.car
    problem = _check_turn(state, car_id, step)
    if problem is not None:
        return problem
    turn = state.turn
    assert turn is not None
    if turn.stage is TurnStage.REVEAL:
        return _reject(car_id, N_("Cannot {step} before revealing cards."), step=step)
    if turn.stage.value >= stage.value:
        return _reject(
            car_id, N_("Cannot {step} now: a car's turn goes move, Adrenaline, Cooldown, "
                       "Boost, Slipstream, and that step has passed."),
            step=step,
        )
    return None


def cooldown_limit(state: RaceState, car: CarState) -> int:
    """Cooldown available (rules.md §1.7, race-file.md ``cooldown``): the gear's Cooldown, plus 1
    with Adrenaline entitlement, never more Heat than is outside the engine."""
    turn = state.turn
    bonus = 1 if turn is not None and turn.adrenaline_entitled else 0
    return min(COOLDOWN_BY_GEAR[car.gear] + bonus, car.heat - car.engine)


def slipstream_partner(state: RaceState, car: CarState) -> CarState | None:
    """A car that gives ``car`` a slipstream now, or None (rules.md §1.8): beside it or on the
    space directly in front; never across or after the finish line on the final lap."""
    if car.distance + SLIPSTREAM_SPACES > state.finish_distance:
        return None
    partners = cars_beside_or_ahead(state, car)
    if not partners:
        return None
    return min(partners, key=race_order_key)


def _validate(state: RaceState, action: Action) -> Rejection | None:
    if isinstance(action, ChooseGear):
        return _validate_gear(state, action)
    if isinstance(action, Reveal):
        return _validate_reveal(state, action)
    if isinstance(action, Adrenaline):
        problem = _validate_react(state, action, "take Adrenaline", TurnStage.ADRENALINE)
        if problem is None and state.turn is not None and not state.turn.adrenaline_entitled:
            problem = _reject(
                action.car,
                N_("{car} gets no Adrenaline: only the last car (the last two with 5 or more "
                   "cars) does."),
                car=action.car,
            )
        return problem
    if isinstance(action, Cooldown):
        problem = _validate_react(state, action, "cool down", TurnStage.COOLDOWN)
        if problem is not None:
            return problem
        car = state.car(action.car)
        if not _is_int(action.amount) or action.amount < 1:
            return _reject(action.car, N_("Cool down at least 1 Heat card."))
        limit = cooldown_limit(state, car)
        if action.amount > limit:
            return _reject(
                action.car,
                N_("Cannot cool down {amount}: gear {gear} allows {limit} now "
                   "({outside} Heat out of the engine)."),
                amount=action.amount, gear=car.gear, limit=limit,
                outside=car.heat - car.engine,
            )
        return None
    if isinstance(action, Boost):
        problem = _validate_react(state, action, "boost", TurnStage.BOOST)
        if problem is not None:
            return problem
        car = state.car(action.car)
        if not _is_int(action.value) or action.value not in BASIC_VALUES:
            return _reject(
                action.car, N_("A Boost flips a Basic card 1-4, not {value}."),
                value=str(action.value),
            )
        if car.engine == 0:
            return _reject(action.car, N_("Cannot boost: the engine is empty."))
        assert state.turn is not None
        shown = [v for v in state.turn.cards if isinstance(v, int)] + [action.value]
        return _deck_count_problem(action.car, shown)
    if isinstance(action, Slipstream):
        problem = _validate_react(state, action, "slipstream", TurnStage.SLIPSTREAM)
        if problem is not None:
            return problem
        car = state.car(action.car)
        if car.distance + SLIPSTREAM_SPACES > state.finish_distance:
            return _reject(
                action.car, N_("Cannot slipstream across the finish line on the final lap.")
            )
        if slipstream_partner(state, car) is None:
            return _reject(
                action.car,
                N_("Cannot slipstream: no car beside {car} or on the space in front."),
                car=action.car,
            )
        return None
    if isinstance(action, EndTurn):
        problem = _check_turn(state, action.car, "end the turn")
        if problem is None and state.turn is not None and state.turn.stage is TurnStage.REVEAL:
            problem = _reject(action.car, N_("Reveal the cards before ending the turn."))
        return problem
    if isinstance(action, RunRound):
        if state.phase is not Phase.PLANNING or _humans_racing(state):
            return _reject(None, N_("Only a round with no human car still racing plays by "
                                    "itself."))
        return None
    if isinstance(action, LegendCard):
        if not state.awaiting_legend_card:
            return _reject(None, N_("No Legends card is needed now."))
        if not _is_int(action.card) or action.card not in legends.LEGENDS_CARDS:
            return _reject(
                None, N_("Legends cards are numbered 1-10, not {card}."), card=str(action.card)
            )
        return None
    raise TypeError(f"not an action: {action!r}")


def validate(state: RaceState, action: Action) -> Rejection | None:
    """None if the rules allow ``action`` now, else the reason they don't."""
    return _validate(state, action)


# --- applying ---------------------------------------------------------------------------------


def _out(kind: str, who: str | None, template: str, /, **params: str | int) -> Outcome:
    return Outcome(kind, who, explain(template, **params))


def _where(state: RaceState, car: CarState) -> dict[str, str | int]:
    return {
        "space": state.track.space_of(car.distance),
        "spot": "Race Line" if car.race_line else "outside",
    }


def _close_planning(state: RaceState, out: list[Outcome]) -> RaceState:
    """All gears picked: pay for two-gear shifts and set the gears (rules.md §1.2 step 1)."""
    for car_id in state.order:
        car = state.car(car_id)
        if car.legend:
            continue
        gear = state.planned[car_id]
        if abs(gear - car.gear) == 2:
            out.append(_out(
                "shift", car_id,
                N_("{car} shifts two gears, {old} to {new}: pay 1 Heat."),
                car=car_id, old=car.gear, new=gear,
            ))
            car = replace(car, engine=car.engine - 1)
        state = state.with_car(replace(car, gear=gear))
    return replace(state, phase=Phase.TURNS, turn_index=0, turn=None,
                   planned=MappingProxyType({}))


def _humans_racing(state: RaceState) -> bool:
    return any(not state.car(c).legend for c in state.order)


def _adrenaline_entitled(state: RaceState) -> bool:
    """rules.md §1.6: the last car in race order (the last two with 5 or more cars in the race);
    cars already finished count as ahead, so the position counts every starter."""
    starters = len(state.cars)
    position = (starters - len(state.order)) + state.turn_index
    return position == starters - 1 or (starters >= 5 and position == starters - 2)


def _legend_turn(state: RaceState, car: CarState, out: list[Outcome]) -> RaceState:
    card = state.legend_card
    if card is None:
        card, deck = legends.draw(state.deck)
        state = replace(state, legend_card=card, deck=deck)
        out.append(_out("legend_card", None, N_("Legends card {card} is drawn for this round."),
                        card=card))
    plan = legends.legend_move(state, car.id, car.distance, card)
    moved = move_car(state, car, plan.target)
    state = state.with_car(moved)
    out.append(Outcome("legend", car.id, plan.why))
    out.append(_position_outcome(state, moved, plan.target))
    return replace(state, turn_index=state.turn_index + 1)


def _position_outcome(state: RaceState, car: CarState, target: int) -> Outcome:
    where = _where(state, car)
    if car.distance != target:
        return _out(
            "blocked", car.id,
            N_("Space {target} is full, so {car} goes to space {space}, {spot}."),
            target=state.track.space_of(target), car=car.id, **where,
        )
    return _out("position", car.id, N_("{car} to space {space}, {spot}."), car=car.id, **where)


def _end_round(state: RaceState, out: list[Outcome]) -> RaceState:
    """rules.md §1.12: finished cars go to the podium in order (furthest past the line first,
    Race Line ahead); the next round's order is recomputed from positions."""
    round_no = state.round + 1
    finishers = sorted(
        (state.car(c) for c in state.order if state.car(c).distance > state.finish_distance),
        key=race_order_key,
    )
    results = list(state.results)
    for car in finishers:
        place = len(results) + 1
        results.append((car.id, place, round_no))
        state = state.with_car(
            replace(car, on_track=False, finished_place=place, finished_round=round_no)
        )
        out.append(_out("finish", car.id, N_("{car} finishes in place {place}."),
                        car=car.id, place=place))
    racing = sorted((c for c in state.cars if not c.finished), key=race_order_key)
    order = tuple(c.id for c in racing)
    state = replace(
        state, round=round_no, order=order, results=tuple(results), turn_index=0, turn=None,
        legend_card=None, planned=MappingProxyType({}), clogged=frozenset(),
    )
    if not order:
        return replace(state, phase=Phase.OVER)
    return replace(state, phase=Phase.PLANNING)


def _clogged_turn(state: RaceState, car: CarState, out: list[Outcome]) -> RaceState:
    """rules.md §1.5: the car does not move, gets none of steps 4-8, and drops to 1st gear."""
    state = state.with_car(replace(car, gear=1))
    out.append(_out(
        "clogged", car.id,
        N_("{car}'s hand is full of Heat: it does not move this round and drops to 1st gear."),
        car=car.id,
    ))
    return replace(state, turn_index=state.turn_index + 1)


def _advance(state: RaceState, out: list[Outcome]) -> RaceState:
    """Play everything that needs no decision, until the table must act (or the race is over)."""
    for _ in range(100_000):
        if state.phase is Phase.PLANNING:
            if state.humans_to_plan or not _humans_racing(state):
                return state  # gears to pick, or a Legends-only round to start (RunRound)
            state = _close_planning(state, out)
            continue
        if state.phase is Phase.OVER:
            return state
        if state.turn_index >= len(state.order):
            state = _end_round(state, out)
            continue
        car = state.car(state.order[state.turn_index])
        if car.legend:
            if state.legend_card is None and state.deck.mode is DeckMode.PHYSICAL:
                return state
            state = _legend_turn(state, car, out)
            continue
        if car.id in state.clogged:
            state = _clogged_turn(state, car, out)
            continue
        if state.turn is None:
            state = replace(state, turn=TurnState(
                car=car.id, stage=TurnStage.REVEAL, start_distance=car.distance,
                adrenaline_entitled=_adrenaline_entitled(state),
            ))
        return state
    raise RuntimeError("the race does not progress")  # a bug: Legends always move on


def _check_corners(state: RaceState, turn: TurnState, out: list[Outcome]) -> RaceState:
    """Step 7 (rules.md §1.9-1.10): every Corner Line crossed this turn, in order, with Speed =
    cards + Stress + Adrenaline + Boost (never Slipstream). Over the limit: pay the difference;
    unable to pay: pay all, spin out to the space before that line, take Stress (1 in gear 1-2,
    2 in gear 3-4), back to 1st gear; later lines are not checked."""
    car = state.car(turn.car)
    speed = turn.speed
    for line_at, corner in state.track.corner_lines_between(
        turn.start_distance, car.distance, state.laps
    ):
        owed = speed - corner.limit
        if owed <= 0:
            out.append(_out(
                "corner", car.id,
                N_("Speed {speed} through a limit-{limit} corner: no Heat to pay."),
                speed=speed, limit=corner.limit,
            ))
            continue
        if car.engine >= owed:
            car = replace(car, engine=car.engine - owed)
            state = state.with_car(car)
            out.append(_out(
                "corner", car.id,
                N_("Speed {speed} through a limit-{limit} corner: pay {owed} Heat."),
                speed=speed, limit=corner.limit, owed=owed,
            ))
            continue
        stress = 1 if car.gear <= 2 else 2
        paid = car.engine
        spun = move_car(state, replace(car, engine=0), line_at)
        spun = replace(
            spun, gear=1, stress_taken=car.stress_taken + stress, spinouts=car.spinouts + 1
        )
        state = state.with_car(spun)
        out.append(_out(
            "spinout", car.id,
            N_("Speed {speed} through a limit-{limit} corner needs {owed} Heat but the engine "
               "has {paid}: {car} pays {paid}, spins out to space {space}, takes {stress} "
               "Stress and drops to 1st gear."),
            speed=speed, limit=corner.limit, owed=owed, paid=paid, car=car.id,
            space=state.track.space_of(spun.distance), stress=stress,
        ))
        break
    return state


def _apply(state: RaceState, action: Action, out: list[Outcome]) -> RaceState:
    if isinstance(action, ChooseGear):
        planned = dict(state.planned)
        planned[action.car] = action.gear
        clogged = state.clogged | {action.car} if action.clogged else state.clogged - {action.car}
        return replace(state, planned=MappingProxyType(planned), clogged=clogged)
    if isinstance(action, RunRound):
        return replace(state, phase=Phase.TURNS, turn_index=0, turn=None)
    if isinstance(action, LegendCard):
        out.append(_out("legend_card", None, N_("Legends card {card} is drawn for this round."),
                        card=action.card))
        return replace(
            state, legend_card=action.card,
            deck=replace(state.deck, drawn=state.deck.drawn + (action.card,)),
        )
    turn = state.turn
    assert turn is not None
    car = state.car(turn.car)
    if isinstance(action, Reveal):
        speed = sum(v for v in action.cards if isinstance(v, int)) + sum(action.stress)
        moved = move_car(state, car, car.distance + speed)
        state = state.with_car(moved)
        out.append(_out("reveal", car.id, N_("{car} reveals speed {speed}."),
                        car=car.id, speed=speed))
        out.append(_position_outcome(state, moved, car.distance + speed))
        return replace(state, turn=replace(turn, stage=TurnStage.MOVED, speed=speed,
                                           cards=action.cards + action.stress))
    if isinstance(action, Adrenaline):
        moved = move_car(state, car, car.distance + 1)
        state = state.with_car(moved)
        out.append(_out("adrenaline", car.id,
                        N_("{car} is at the back: Adrenaline, 1 more space and +1 Speed."),
                        car=car.id))
        out.append(_position_outcome(state, moved, car.distance + 1))
        return replace(state, turn=replace(turn, stage=TurnStage.ADRENALINE,
                                           speed=turn.speed + 1, adrenaline_used=True))
    if isinstance(action, Cooldown):
        state = state.with_car(replace(car, engine=car.engine + action.amount))
        out.append(_out("cooldown", car.id,
                        N_("{car} cools down: {amount} Heat back into the engine."),
                        car=car.id, amount=action.amount))
        return replace(state, turn=replace(turn, stage=TurnStage.COOLDOWN))
    if isinstance(action, Boost):
        paid = replace(car, engine=car.engine - 1)
        moved = move_car(state, paid, car.distance + action.value)
        state = state.with_car(moved)
        out.append(_out("boost", car.id,
                        N_("{car} pays 1 Heat to boost and flips a {value}: +{value} Speed."),
                        car=car.id, value=action.value))
        out.append(_position_outcome(state, moved, car.distance + action.value))
        return replace(state, turn=replace(turn, stage=TurnStage.BOOST,
                                           speed=turn.speed + action.value,
                                           cards=turn.cards + (action.value,)))
    if isinstance(action, Slipstream):
        partner = slipstream_partner(state, car)
        assert partner is not None
        moved = move_car(state, car, car.distance + SLIPSTREAM_SPACES)
        state = state.with_car(moved)
        out.append(_out("slipstream", car.id,
                        N_("{car} slipstreams behind {other}: 2 more spaces, Speed unchanged."),
                        car=car.id, other=partner.id))
        out.append(_position_outcome(state, moved, car.distance + SLIPSTREAM_SPACES))
        return replace(state, turn=replace(turn, stage=TurnStage.SLIPSTREAM))
    if isinstance(action, EndTurn):
        state = _check_corners(state, turn, out)
        return replace(state, turn=None, turn_index=state.turn_index + 1)
    raise TypeError(f"not an action: {action!r}")


def apply(state: RaceState, action: Action) -> Applied:
    """Apply a validated input and play on until the table must decide again."""
    rejection = _validate(state, action)
    if rejection is not None:
        raise IllegalActionError(rejection.text())
    out: list[Outcome] = []
    state = _apply(state, action, out)
    state = _advance(state, out)
    return Applied(state, tuple(out))


def play(state: RaceState, action: Action) -> Applied | Rejection:
    """Validate, then apply: the one path every input takes."""
    rejection = _validate(state, action)
    if rejection is not None:
        return rejection
    out: list[Outcome] = []
    state = _advance(_apply(state, action, out), out)
    return Applied(state, tuple(out))


def settle(state: RaceState) -> Applied:
    """Play whatever needs no decision from a fresh state (used right after setup)."""
    out: list[Outcome] = []
    state = _advance(state, out)
    return Applied(state, tuple(out))
