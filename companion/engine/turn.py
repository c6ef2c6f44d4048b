"""A human car's turn, steps 3-9: reveal and move, Adrenaline, React (direct plays, Cooldown,
Super cool, the upgrade cards' Heat, Boost, Accelerate, Draft), Slipstream, then the corner checks
(docs/rules.md §1.2-1.10, §4.3; docs/race-file.md "Order inside a car's turn";
docs/race-file-v2.md)."""

from __future__ import annotations

from . import conditions, payment, sponsorship
from .actions import (
    Accelerate,
    Adrenaline,
    Boost,
    ChooseGear,
    Cooldown,
    DirectPlay,
    DraftMove,
    EndTurn,
    PayHeat,
    Reveal,
    Slipstream,
    SuperCool,
)
from .cards import evaluate
from .checks import flooded_surcharge, shift_cost, slipstream_partner
from .evolve import evolve
from .explain import N_
from .garage import DESIGNS
from .outcomes import Outcome, said
from .placement import move_car, moved
from .reactchecks import draft_spaces
from .state import CarState, PendingCard, RaceState, TurnStage, TurnState

TurnAction = (
    ChooseGear | Reveal | Adrenaline | DirectPlay | Cooldown | SuperCool | PayHeat | Boost
    | Accelerate | DraftMove | Slipstream | EndTurn
)
AFTER_PAYMENT = (Boost, Accelerate, DraftMove, Slipstream, EndTurn)
"""Steps that come after the upgrade cards' Heat is paid: each pays it first when still due."""


_SHIFT = {
    False: N_("{car} shifts from gear {old} to {new}: pay {cost} Heat."),
    True: N_("{car} shifts from gear {old} to {new}: pay {cost} Heat (flooded space "
             "+{flooded})."),
}


def pay_for_shift(state: RaceState, car: CarState, gear: int, out: list[Outcome]) -> RaceState:
    """Step 1: a two-gear shift costs 1 Heat; a downshift from a flooded space 1 more
    (docs/rules.md §1.2, §6)."""
    cost = shift_cost(state, car, gear)
    if cost:
        # the flooded space's +1 said: "from gear 2 to 1: pay 1 Heat" read as a wrong charge
        # for a one-gear shift, which is free (found by a table test)
        flooded = flooded_surcharge(state, car, gear)
        extra = {"flooded": flooded} if flooded else {}
        out.append(said("shift", car.id, _SHIFT[bool(flooded)], car=car.id, old=car.gear,
                        new=gear, cost=cost, **extra))
    return state.with_car(evolve(car, gear=gear, engine=car.engine - cost))


_NO_HEAT = {
    False: N_("Speed {speed} through a limit-{limit} corner: no Heat to pay."),
    True: N_("Speed {speed} through a limit-{limit} corner ({limit_note}): no Heat to pay."),
}
_PAY = {  # (the limit is not the printed one, an Overheat token)
    (False, False): N_("Speed {speed} through a limit-{limit} corner: pay {owed} Heat."),
    (True, False): N_("Speed {speed} through a limit-{limit} corner ({limit_note}): pay {owed} "
                      "Heat."),
    (False, True): N_("Speed {speed} through a limit-{limit} corner: pay {owed} Heat ({over} "
                      "over the limit, 1 for the Overheat token)."),
    (True, True): N_("Speed {speed} through a limit-{limit} corner ({limit_note}): pay {owed} "
                     "Heat ({over} over the limit, 1 for the Overheat token)."),
}
_SPIN = {
    (False, False): N_("Speed {speed} through a limit-{limit} corner needs {owed} Heat but the "
                       "engine has {paid}: {car} pays {paid}, spins out to space {space}, "
                       "takes {stress} Stress and drops to 1st gear."),
    (True, False): N_("Speed {speed} through a limit-{limit} corner ({limit_note}) needs {owed} "
                      "Heat but the engine has {paid}: {car} pays {paid}, spins out to space "
                      "{space}, takes {stress} Stress and drops to 1st gear."),
    (False, True): N_("Speed {speed} through a limit-{limit} corner needs {owed} Heat ({over} "
                      "over the limit, 1 for the Overheat token) but the engine has {paid}: "
                      "{car} pays {paid}, spins out to space {space}, takes {stress} Stress and "
                      "drops to 1st gear."),
    (True, True): N_("Speed {speed} through a limit-{limit} corner ({limit_note}) needs {owed} "
                     "Heat ({over} over the limit, 1 for the Overheat token) but the engine has "
                     "{paid}: {car} pays {paid}, spins out to space {space}, takes {stress} "
                     "Stress and drops to 1st gear."),
}
"""A corner check's sentence says why its limit is not the one printed on the board (a road
token, the cards' "Adjust speed limit" symbols) and the Overheat token's Heat: "limit-6" beside
a printed 7, or "pay 3 Heat" at Speed 5 by a limit 3, read as a mistake (found by a table test).
"""


def _check_corners(
    state: RaceState, turn: TurnState, out: list[Outcome]
) -> tuple[RaceState, bool]:
    """Step 7 (docs/rules.md §1.9-1.10): every Corner Line crossed this turn, in order, with Speed =
    cards + Stress + Adrenaline + Boost (never Slipstream). The limit in force is the printed one,
    changed by a road token (§5.2) and the cards' speed-limit symbols. Over the limit: pay the
    difference (+1 on an overheat road token); unable to pay: pay all, spin out to the space
    before that line, take Stress (1 in gear 1-2, 2 in gear 3-4), back to 1st gear; later lines
    are not checked. Returns the state and whether the car spun out."""
    car = state.car(turn.car)
    speed = turn.speed
    for line_at, corner in state.track.corner_lines_between(
        turn.start_distance, car.distance, state.laps
    ):
        printed, cards = corner.limit, turn.limit_adjust
        road = conditions.corner_limit(state, corner) - printed
        limit = printed + road + cards
        over = speed - limit
        overheat = over > 0 and conditions.overheats(state, corner)
        owed = over + 1 if overheat else over
        changed = bool(road or cards)
        note = {"limit_note": (
            f"printed {printed}, road token {road:+d}, cards {cards:+d}" if road and cards
            else f"printed {printed}, road token {road:+d}" if road
            else f"printed {printed}, cards {cards:+d}")}
        if owed <= 0:
            out.append(said("corner", car.id, _NO_HEAT[changed], speed=speed, limit=limit,
                            **note))
            continue
        if car.engine >= owed:
            car = evolve(car, engine=car.engine - owed)
            state = state.with_car(car)
            out.append(said("corner", car.id, _PAY[changed, overheat], speed=speed,
                            limit=limit, owed=owed, over=over, **note))
            continue
        stress = 1 if car.gear <= 2 else 2
        paid = car.engine
        spun = move_car(state, evolve(car, engine=0), line_at)
        spun = evolve(spun, gear=1, stress_taken=car.stress_taken + stress,
                       spinouts=car.spinouts + 1)
        state = state.with_car(spun)
        out.append(said(
            "spinout", car.id, _SPIN[changed, overheat],
            speed=speed, limit=limit, owed=owed, over=over, paid=paid, car=car.id,
            space=state.track.space_of(spun.distance), stress=stress, **note,
        ))
        return state, True
    return state, False


def _heat_lost_per_lap(state: RaceState, turn: TurnState, out: list[Outcome]) -> RaceState:
    """Pressure cooker (1965 race 4): each lap completed while still racing removes 1 Heat from
    the game, from the engine first, else from hand, discard pile or deck (docs/rules.md §3.3).
    Completing the final lap is finishing, not a lap raced under pressure."""
    event = state.modules.event_card
    if event is None or not event.heat_lost_per_lap:
        return state
    car = state.car(turn.car)
    track = state.track
    first, last = max(track.lap_of(turn.start_distance), 1), track.lap_of(car.distance)
    for _lap in (lap for lap in range(first, last) if lap < state.laps):
        for _ in range(event.heat_lost_per_lap):
            if car.engine > 0:
                car = evolve(car, engine=car.engine - 1, heat=car.heat - 1)
            elif car.heat > 0:
                car = evolve(car, heat=car.heat - 1)
        out.append(said("heat_lost", car.id,
                        N_("{car} completes a lap under pressure: 1 Heat leaves the game."),
                        car=car.id))
    return state.with_car(car)


def _end_turn(state: RaceState, turn: TurnState, out: list[Outcome]) -> RaceState:
    """Steps 7-9 and what modules add to the end of a turn."""
    state, spun = _check_corners(state, turn, out)
    car = state.car(turn.car)
    event = state.modules.event_card
    if spun and event is not None and event.spinout_eliminates:
        out.append(said("eliminated", car.id,
                        N_("{car} spins out and is eliminated (Title sponsor withdraws)."),
                        car=car.id))
        return state.with_car(evolve(car, eliminated=True, on_track=False,
                                     eliminated_at=(state.round + 1, state.order.index(car.id))))
    state = sponsorship.crowd_and_grandstand(state, car, turn.start_distance, out,
                                             award=not spun)
    if not spun:
        slip = (
            (turn.slipstream_from, turn.slipstream_to)
            if turn.slipstream_from is not None and turn.slipstream_to is not None else None
        )
        state = sponsorship.award(state, car.id, turn.start_distance, turn.speed, slip,
                                  turn.ahead_at_start, out)
    state = _heat_lost_per_lap(state, turn, out)
    _discard_reminder(state, state.car(turn.car), out)
    return state


_DISCARD_RULES = {
    "chicanes-for-safety": N_("Step 8: {car} may also discard Heat cards (Chicanes for "
                              "increased safety)."),
    "hold-on-tight": N_("Step 8: {car} may discard at most 1 card (Hold on tight)."),
    "tunnel-vision": N_("Step 8: {car} may also discard Stress cards (Tunnel vision)."),
}


def _discard_reminder(state: RaceState, car: CarState, out: list[Outcome]) -> None:
    """Step 8 is played with the cards in hand, which the engine does not track; where a rule
    changes it, the table is told (docs/rules.md §6 tunnels override events; §3.3 events). A car
    that finished skips the discard (docs/rules.md §1.12)."""
    if car.distance > state.finish_distance:
        return
    if state.track.space_of(car.distance) in state.track.tunnels:
        out.append(said("discard", car.id,
                        N_("Step 8: {car} is in a tunnel and may not discard any card."),
                        car=car.id))
        return
    event = state.modules.event
    if event in _DISCARD_RULES:
        out.append(said("discard", car.id, _DISCARD_RULES[event], car=car.id))


def apply_turn(state: RaceState, action: TurnAction, out: list[Outcome]) -> RaceState:
    """Apply one validated input of the car whose turn it is."""
    turn = state.turn
    assert turn is not None
    car = state.car(turn.car)
    if isinstance(action, ChooseGear):  # tournament mode: the gear comes with the cards
        state = pay_for_shift(state, car, action.gear, out)
        state = evolve(state, turn=evolve(turn, gear_set=True))
        if action.clogged:
            state = evolve(state, clogged=state.clogged | {car.id})
        return state
    if isinstance(action, PayHeat):
        return payment.settle(state, out, action.unpaid)
    if isinstance(action, AFTER_PAYMENT) and turn.pending and payment.due(state):
        state = payment.settle(state, out)
        turn = state.turn
        assert turn is not None
        car = state.car(turn.car)
    if isinstance(action, Reveal):
        return _reveal(state, turn, car, action, out)
    if isinstance(action, DirectPlay):
        return _direct_play(state, turn, car, action, out)
    if isinstance(action, Adrenaline):
        out.append(said("adrenaline", car.id,
                        N_("{car} is at the back: Adrenaline, 1 more space and +1 Speed."),
                        car=car.id))
        state = moved(state, car, car.distance + 1, out)
        return evolve(state, turn=evolve(turn, stage=TurnStage.ADRENALINE,
                                           speed=turn.speed + 1, adrenaline_used=True))
    if isinstance(action, Cooldown):
        state = state.with_car(evolve(car, engine=car.engine + action.amount))
        out.append(said("cooldown", car.id,
                        N_("{car} cools down: {amount} Heat back into the engine."),
                        car=car.id, amount=action.amount))
        return evolve(state, turn=evolve(turn, stage=TurnStage.COOLDOWN))
    if isinstance(action, SuperCool):
        state = state.with_car(evolve(car, engine=car.engine + action.amount))
        out.append(said("super_cool", car.id,
                        N_("{car} super cools: {amount} Heat from the discard pile back into "
                           "the engine."), car=car.id, amount=action.amount))
        return evolve(state, turn=evolve(turn, stage=TurnStage.SUPER_COOL))
    if isinstance(action, Boost):
        if conditions.boost_is_free(state, car):
            out.append(said("boost", car.id,
                            N_("{car} boosts for free (road condition) and flips a {value}: "
                               "+{value} Speed."), car=car.id, value=action.value))
        else:
            car = evolve(car, engine=car.engine - 1)
            out.append(said("boost", car.id,
                            N_("{car} pays 1 Heat to boost and flips a {value}: +{value} "
                               "Speed."), car=car.id, value=action.value))
        state = moved(state, car, car.distance + action.value, out)
        return evolve(state, turn=evolve(turn, stage=TurnStage.BOOST,
                                           speed=turn.speed + action.value,
                                           cards=turn.cards + (action.value,),
                                           plus_resolved=turn.plus_resolved + 1))
    if isinstance(action, Accelerate):
        gain = turn.accelerate * turn.plus_resolved
        out.append(said("accelerate", car.id,
                        N_("{car} accelerates: +{gain} Speed for {count} \"+\" resolved."),
                        car=car.id, gain=gain, count=turn.plus_resolved))
        state = moved(state, car, car.distance + gain, out)
        return evolve(state, turn=evolve(turn, stage=TurnStage.ACCELERATE,
                                           speed=turn.speed + gain))
    if isinstance(action, DraftMove):
        spaces = draft_spaces(state, car)
        assert spaces is not None
        out.append(said("draft", car.id,
                        N_("{car} drafts {spaces} space(s) to right behind the next car, Speed "
                           "unchanged."), car=car.id, spaces=spaces))
        state = moved(state, car, car.distance + spaces, out)
        return evolve(state, turn=evolve(turn, stage=TurnStage.DRAFT))
    if isinstance(action, Slipstream):
        partner = slipstream_partner(state, car)
        plain = conditions.plain_slipstream_spaces(state, car)
        assert partner is not None and plain is not None
        bonus = conditions.sector_slipstream_bonus(state, car) if action.sector else 0
        spaces = plain + bonus + action.extra
        out.append(said("slipstream", car.id,
                        N_("{car} slipstreams behind {other}: {spaces} more space(s), Speed "
                           "unchanged."), car=car.id, other=partner.id, spaces=spaces))
        state = moved(state, car, car.distance + spaces, out)
        return evolve(state, turn=evolve(turn, stage=TurnStage.SLIPSTREAM,
                                           slipstream_from=car.distance,
                                           slipstream_to=state.car(car.id).distance))
    if isinstance(action, EndTurn):
        state = _end_turn(state, turn, out)
        return evolve(state, turn=None, turn_index=state.turn_index + 1)
    raise TypeError(f"not a turn action: {action!r}")


def _reveal(
    state: RaceState, turn: TurnState, car: CarState, action: Reveal, out: list[Outcome]
) -> RaceState:
    """Step 3: the car moves by the cards revealed; the upgrade cards' Heat waits for React
    (docs/rules.md §4.4), unless the driver declares now the cards the engine cannot pay."""
    play = evaluate(action, car.engine)
    out.append(said("reveal", car.id, N_("{car} reveals speed {speed}."),
                    car=car.id, speed=play.speed))
    if play.declared:
        out.append(said("card_unpaid", car.id,
                        N_("{car} cannot pay for {count} upgrade card(s): each resolves as "
                           "a Stress card."), car=car.id, count=play.declared))
    owed = sum(DESIGNS[c.design].heat for c in play.pending)
    if owed:
        out.append(said("card_heat_owed", car.id,
                        N_("{car} owes {heat} Heat for {cards} upgrade card(s), paid after "
                           "Cooldown."), car=car.id, heat=owed,
                        cards=sum(1 for c in play.pending if DESIGNS[c.design].heat)))
    car = evolve(car, sponsor_cards=car.sponsor_cards - play.sponsors_used)
    state = moved(state, car, car.distance + play.speed, out)
    symbols = play.symbols
    return evolve(state, turn=evolve(
        turn, stage=TurnStage.MOVED, speed=play.speed, cards=play.basic_shown,
        card_cooldown=play.cooldown, card_super_cool=play.super_cool, pending=play.pending,
        slipstream_bonuses=symbols.slipstream_bonuses, limit_adjust=symbols.limit_adjust,
        accelerate=symbols.accelerate, draft=symbols.draft, plus_resolved=play.plus,
        upgrades_played=play.upgrades,
    ))


def _direct_play(
    state: RaceState, turn: TurnState, car: CarState, action: DirectPlay, out: list[Outcome]
) -> RaceState:
    """Direct play (docs/rules.md §4.3): the card from hand as if played. Its speed moves the car
    and counts for corners; its Cooldown is usable now, its Heat is paid with the others after
    Cooldown (Gas Pedal 4: Cooldown first, then its Heat)."""
    design = DESIGNS[action.card.design]
    value = design.speeds[0]
    out.append(said("direct", car.id,
                    N_("{car} plays {design} from hand: +{value} Speed, {heat} Heat to pay "
                       "after Cooldown."),
                    car=car.id, design=design.id, value=value, heat=design.heat))
    state = moved(state, car, car.distance + value, out)
    turn = evolve(turn, speed=turn.speed + value, card_cooldown=turn.card_cooldown
                  + design.cooldown, card_super_cool=turn.card_super_cool + design.super_cool,
                  upgrades_played=turn.upgrades_played + (design.id,))
    if design.heat:
        turn = evolve(turn, pending=turn.pending + (PendingCard(design.id, value),))
    else:
        turn = evolve(turn, accelerate=turn.accelerate + design.accelerate,
                      limit_adjust=turn.limit_adjust + design.limit, draft=turn.draft
                      + design.draft, slipstream_bonuses=turn.slipstream_bonuses
                      + ((design.slipstream,) if design.slipstream else ()))
    return evolve(state, turn=turn)
