"""Replaying a race file round by round through the engine; the first input the rules do not
allow stops it with a one-line reason naming the round and the car (docs/race-file.md)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..engine import (
    STRESS,
    Accelerate,
    Action,
    Adrenaline,
    Boost,
    ChooseGear,
    Cooldown,
    DraftMove,
    EndTurn,
    LegendCard,
    PayHeat,
    Phase,
    RaceState,
    Rejection,
    Reveal,
    RunRound,
    SetupError,
    Slipstream,
    SuperCool,
    play,
    start_race,
)
from ..engine.actions import (
    ActionFormatError,
    CardValue,
    DirectPlay,
    Upgrade,
    card_from_json,
)
from .reading import RaceFile, RaceFileError, _is_int, check_round


def _say(r: int, car: str | None, rejection: Rejection | str) -> RaceFileError:
    text = rejection if isinstance(rejection, str) else rejection.text()
    text = text.rstrip(".")
    text = text[:1].lower() + text[1:]
    where = f"round {r}, car {car}" if car else f"round {r}"
    return RaceFileError(f"{where}: {text}")


def _cards(car: str, inputs: Mapping[str, Any], r: int) -> tuple[CardValue, ...]:
    cards = inputs["cards"]
    if not isinstance(cards, list):
        raise _say(r, car, 'cards: must be a list of card values and "stress"')
    out: list[CardValue] = []
    for card in cards:
        if card == STRESS or _is_int(card):
            out.append(card)
            continue
        try:
            parsed = card_from_json(card) if isinstance(card, dict) else None
        except ActionFormatError:
            parsed = None
        if parsed is None:
            raise _say(r, car, 'cards: must be a list of card values, "stress" and (in '
                               'heat-race/2) {"upgrade": id} objects')
        out.append(parsed)
    return tuple(out)


def _turn_actions(car: str, inputs: Mapping[str, Any], r: int) -> list[Action]:
    """The engine inputs of one car's turn, in race-file order: move, Adrenaline, (direct
    plays,) Cooldown, (Super cool, the upgrade cards' Heat,) Boost, (Accelerate, Draft,)
    Slipstream, then the corner checks (docs/race-file.md "Order inside a car's turn";
    docs/race-file-v2.md)."""
    if "cards" not in inputs:
        raise _say(r, car, "cards: required (or clogged: true)")
    stress, unpaid = inputs.get("stress", []), inputs.get("unpaid", [])
    if not isinstance(stress, list):
        raise _say(r, car, "stress: must be a list of Basic card values")
    if not isinstance(unpaid, list):
        raise _say(r, car, "unpaid: must be a list of Basic card values")
    actions: list[Action] = [Reveal(car, _cards(car, inputs, r), tuple(stress), tuple(unpaid))]
    flags = {key: inputs.get(key, False)
             for key in ("adrenaline", "accelerate", "draft", "slipstream")}
    for key, value in flags.items():
        if not isinstance(value, bool):
            raise _say(r, car, f"{key}: must be true or false")
    if flags["adrenaline"]:
        actions.append(Adrenaline(car))
    direct = inputs.get("direct", [])
    if not isinstance(direct, list):
        raise _say(r, car, 'direct: must be a list of {"upgrade": id} cards')
    for raw in direct:
        try:
            played = card_from_json(raw) if isinstance(raw, dict) else None
        except ActionFormatError:
            played = None
        if not isinstance(played, Upgrade):
            raise _say(r, car, 'direct: must be a list of {"upgrade": id} cards')
        actions.append(DirectPlay(car, played))
    cooldown = inputs.get("cooldown", 0)
    if not _is_int(cooldown) or cooldown < 0:
        raise _say(r, car, "cooldown: must be a whole number of Heat cards")
    if cooldown:
        actions.append(Cooldown(car, cooldown))
    super_cool = inputs.get("super_cool", 0)
    if not _is_int(super_cool) or super_cool < 0:
        raise _say(r, car, "super_cool: must be a whole number of Heat cards")
    if super_cool:
        actions.append(SuperCool(car, super_cool))
    if "unpaid_after_cooldown" in inputs:
        late = inputs["unpaid_after_cooldown"]
        if not isinstance(late, list):
            raise _say(r, car, "unpaid_after_cooldown: must be a list of Basic card values")
        if late:
            # An empty list names no unpaid card: the same as omitting the key, as an empty
            # ``unpaid`` is (docs/race-file-v2.md), also when nothing was left to pay.
            actions.append(PayHeat(car, tuple(late)))
    if "boost" in inputs:
        actions.append(Boost(car, inputs["boost"]))
    if flags["accelerate"]:
        actions.append(Accelerate(car))
    if flags["draft"]:
        actions.append(DraftMove(car))
    extra = inputs.get("slipstream_extra", 0)
    if not _is_int(extra) or extra < 0:
        raise _say(r, car, "slipstream_extra: must be a whole number of spaces")
    sector = inputs.get("slipstream_sector", True)
    if not isinstance(sector, bool):
        raise _say(r, car, "slipstream_sector: must be true or false")
    for key, given in (("slipstream_extra", extra != 0), ("slipstream_sector", not sector)):
        if given and not flags["slipstream"]:
            raise _say(r, car, f"{key}: only with slipstream: true")
    if flags["slipstream"]:
        actions.append(Slipstream(car, extra, sector))
    actions.append(EndTurn(car))
    return actions


def _step(state: RaceState, action: Action, r: int, car: str | None) -> RaceState:
    result = play(state, action)
    if isinstance(result, Rejection):
        raise _say(r, car, result)
    return result.state


def _legends_cards(state: RaceState, draws: Iterator[int] | None, r: int) -> RaceState:
    """Enter the table's next Legends card while the engine waits for one (a physical deck,
    ``legends.deck: "physical"``, docs/race-file-v2.md), until round ``r`` is over: a card the
    next round begins with belongs to that round (the table draws it then)."""
    while state.awaiting_legend_card and state.round < r:
        card = next(draws, None) if draws is not None else None
        if card is None:
            raise _say(r, None, "legends.cards: no Legends card left for the table to draw "
                                "(the deck is physical)")
        state = _step(state, LegendCard(card), r, None)
    return state


def play_round(
    state: RaceState, round_doc: Mapping[str, Mapping[str, Any]], r: int,
    draws: Iterator[int] | None = None,
) -> RaceState:
    """Replay one round of a race file; raises :class:`RaceFileError` on the first bad input.
    ``draws`` are the table's Legends cards when its deck is physical."""
    if state.phase is Phase.OVER:
        raise _say(r, None, "the race is over: every car has finished")
    for car_id in round_doc:
        if car_id not in state.index:
            raise _say(r, car_id, "not a car in this race")
        car = state.car(car_id)
        if car.legend:
            raise _say(r, car_id, "a Legend: its moves come from the Legends cards")
        if car.finished:
            raise _say(r, car_id, "already finished, so it has no inputs")
        if car.eliminated:
            raise _say(r, car_id, "eliminated, so it has no inputs")
    for car_id in state.order:
        if not state.car(car_id).legend and car_id not in round_doc:
            raise _say(r, car_id, "no inputs for this car (every human car still racing plays)")
    # A tournament round begun by Legends waits for the physical deck's card first.
    state = _legends_cards(state, draws, r)
    if state.round >= r:
        return state
    if all(state.car(c).legend for c in state.order):
        # No human car still racing: the round is `{}` and the Legends play it by themselves.
        if state.phase is Phase.PLANNING:
            state = _step(state, RunRound(), r, None)
        return _legends_cards(state, draws, r)
    tournament = state.modules.tournament
    if not tournament:
        # Steps 1-2, simultaneous: every human picks a gear (or is clogged).
        for car_id in state.order:
            if car_id in round_doc:
                state = _step(state, _gear_action(state, car_id, round_doc[car_id], r), r,
                              car_id)
    # Steps 3-9, car by car in race order; Legends and clogged cars play themselves. In the
    # tournament variant each gear is revealed with the cards, at the car's turn.
    while state.phase is Phase.TURNS and state.round < r:
        if state.awaiting_legend_card:
            state = _legends_cards(state, draws, r)
            continue
        current = state.current_car
        assert current is not None and state.turn is not None
        inputs = round_doc[current]
        if tournament:
            gear_action = _gear_action(state, current, inputs, r)
            state = _step(state, gear_action, r, current)
            if gear_action.clogged:
                continue
        for action in _turn_actions(current, inputs, r):
            state = _step(state, action, r, current)
    return state


def _gear_action(
    state: RaceState, car_id: str, inputs: Mapping[str, Any], r: int
) -> ChooseGear:
    """Steps 1-2 of one car: its gear (omitted: unchanged), or a clogged hand."""
    clogged = inputs.get("clogged", False)
    if not isinstance(clogged, bool):
        raise _say(r, car_id, "clogged: must be true or false")
    if clogged:
        extra = sorted(set(inputs) - {"gear", "clogged"})
        if extra:
            raise _say(r, car_id, f"{extra[0]}: a clogged car plays no cards and gets none "
                                  "of steps 4-8")
    gear = inputs.get("gear", state.car(car_id).gear)
    if not _is_int(gear):
        raise _say(r, car_id, "gear: must be 1-4")
    return ChooseGear(car_id, gear, clogged)


def replay(race: RaceFile) -> Iterator[RaceState]:
    """Every state after a round, in order; raises :class:`RaceFileError` at a bad input."""
    try:
        state = start_race(race.setup).state
    except SetupError as error:
        raise RaceFileError(f"cars: {error}") from error
    draws = iter(race.legend_draws)
    for r, raw_round in enumerate(race.rounds, start=1):
        state = play_round(state, check_round(raw_round, r, race.version), r, draws)
        yield state


