"""Race files: ``heat-race/1`` in, ``heat-race-state/1`` out (see ``race-file.md``).

A race file holds inputs only; the engine derives everything else. This module turns a file into a
:class:`RaceSetup` plus one list of engine actions per round, replays it, and writes states. It
also turns a logged action list back into a race file (export). Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import tracks

from .engine import (
    STRESS,
    Accelerate,
    Action,
    Adrenaline,
    Boost,
    CarEntry,
    ChooseGear,
    Cooldown,
    EndTurn,
    Phase,
    RaceSetup,
    RaceState,
    Rejection,
    Reveal,
    RunRound,
    SetupError,
    Slipstream,
    play,
    start_race,
)
from .engine.actions import (
    ActionFormatError,
    CardValue,
    DirectPlay,
    Upgrade,
    card_from_json,
    card_to_json,
)
from .engine.modules import NO_MODULES
from .modules_doc import ModulesError, modules_doc, parse_modules, uses_modules

FORMAT = "heat-race/1"
FORMAT_2 = "heat-race/2"
"""``heat-race/1`` plus what it cannot say (docs/race-file-v2.md): ``legends.aggressive``."""
FORMATS = (FORMAT, FORMAT_2)
STATE_FORMAT = "heat-race-state/1"
STATE_FORMAT_2 = "heat-race-state/2"
"""``heat-race-state/1`` plus each car's ``sponsors`` and ``eliminated``; written for races that
use modules (docs/race-file-v2.md)."""

_TOP_KEYS = {"format", "track", "laps", "seed", "cars", "legends", "rounds"}
_TOP_KEYS_2 = _TOP_KEYS | {"modules"}
_CAR_KEYS = {"id", "name", "legend", "handicap"}
_CAR_KEYS_2 = _CAR_KEYS | {"mechanics", "upgrades", "sponsor_cards"}
_LEGEND_KEYS = {"cards", "bonus"}
_LEGEND_KEYS_2 = _LEGEND_KEYS | {"aggressive"}
_INPUT_KEYS = {"gear", "cards", "stress", "clogged", "adrenaline", "cooldown", "boost",
               "slipstream"}
_INPUT_KEYS_2 = _INPUT_KEYS | {"unpaid", "direct", "accelerate", "slipstream_extra"}


class RaceFileError(ValueError):
    """A file that is not a valid race, or an input the rules do not allow.

    The message is the one line the ``replay`` command prints, naming the round and the car
    where there is one (``round 3, car red: cannot boost: the engine is empty``).
    """


@dataclass(frozen=True)
class RaceFile:
    setup: RaceSetup
    rounds: tuple[Mapping[str, Mapping[str, Any]], ...]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _unknown(where: str, data: Mapping[str, Any], allowed: set[str]) -> None:
    extra = sorted(set(data) - allowed)
    if extra:
        raise RaceFileError(f"{where}: unknown key {extra[0]!r}")


def _obj(where: str, value: object) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise RaceFileError(f"{where}: must be an object")
    return value


def parse(data: object, *, load_track: Callable[[str], Any] | None = None) -> RaceFile:
    """Check the shape of a ``heat-race/1`` document and build its setup."""
    doc = _obj("race file", data)
    version = doc.get("format")
    if version not in FORMATS:
        raise RaceFileError(
            f"format: expected {FORMAT!r} or {FORMAT_2!r}, got {version!r} "
            "(unknown race-file format)"
        )
    v2 = version == FORMAT_2
    _unknown("race file", doc, _TOP_KEYS_2 if v2 else _TOP_KEYS)
    for key in ("track", "cars", "rounds"):
        if key not in doc:
            raise RaceFileError(f"{key}: required")
    raw_track = doc["track"]
    try:
        if isinstance(raw_track, str):
            track = (load_track or tracks.load_track)(raw_track)
        elif isinstance(raw_track, dict):
            track = tracks.track_from_dict(raw_track, source="inline track")
        else:
            raise RaceFileError("track: must be a track id or an inline track object")
    except tracks.TrackError as error:
        raise RaceFileError(f"track: {error}") from error
    laps = doc.get("laps")
    if laps is not None and (not _is_int(laps) or laps < 1):
        raise RaceFileError("laps: must be a whole number of at least 1")
    seed = doc.get("seed", 0)
    if not _is_int(seed):
        raise RaceFileError("seed: must be an integer")
    cars_raw = doc["cars"]
    if not isinstance(cars_raw, list):
        raise RaceFileError("cars: must be a list")
    cars = []
    for i, raw in enumerate(cars_raw):
        entry = _obj(f"cars[{i}]", raw)
        _unknown(f"cars[{i}]", entry, _CAR_KEYS_2 if v2 else _CAR_KEYS)
        car_id, name = entry.get("id"), entry.get("name", "")
        legend, handicap = entry.get("legend", False), entry.get("handicap", 0)
        if not isinstance(car_id, str) or not car_id:
            raise RaceFileError(f"cars[{i}].id: must be a non-empty string")
        if not isinstance(name, str):
            raise RaceFileError(f"cars[{i}].name: must be a string")
        if not isinstance(legend, bool):
            raise RaceFileError(f"cars[{i}].legend: must be true or false")
        if not _is_int(handicap) or handicap not in (0, 1, 2):
            raise RaceFileError(f"cars[{i}].handicap: must be 1 or 2")
        mechanics = entry.get("mechanics", 0)
        if not _is_int(mechanics) or mechanics not in (-1, 0, 1):
            raise RaceFileError(f"cars[{i}].mechanics: must be 1 or -1")
        upgrades = entry.get("upgrades", [])
        if not isinstance(upgrades, list) or not all(isinstance(u, str) for u in upgrades):
            raise RaceFileError(f"cars[{i}].upgrades: must be a list of upgrade card ids")
        sponsor_cards = entry.get("sponsor_cards", 0)
        if not _is_int(sponsor_cards) or sponsor_cards < 0:
            raise RaceFileError(f"cars[{i}].sponsor_cards: must be a whole number")
        cars.append(CarEntry(id=car_id, name=name, legend=legend, handicap=handicap,
                             mechanics=mechanics, upgrades=tuple(upgrades),
                             sponsor_cards=sponsor_cards))
    legend_doc = _obj("legends", doc.get("legends", {}))
    _unknown("legends", legend_doc, _LEGEND_KEYS if version == FORMAT else _LEGEND_KEYS_2)
    cards = legend_doc.get("cards", [])
    bonus = legend_doc.get("bonus", 0)
    aggressive = legend_doc.get("aggressive", True)
    if not isinstance(aggressive, bool):
        raise RaceFileError("legends.aggressive: must be true or false")
    if not isinstance(cards, list) or not all(_is_int(c) and 1 <= c <= 10 for c in cards):
        raise RaceFileError("legends.cards: must be a list of Legends cards 1-10")
    if not _is_int(bonus) or bonus < 0:
        raise RaceFileError("legends.bonus: must be a whole number of at least 0")
    rounds_raw = doc["rounds"]
    if not isinstance(rounds_raw, list):
        raise RaceFileError("rounds: must be a list")
    rounds = []
    for r, raw_round in enumerate(rounds_raw, start=1):
        round_doc = _obj(f"round {r}", raw_round)
        for car_id, inputs in round_doc.items():
            _unknown(f"round {r}, car {car_id}", _obj(f"round {r}, car {car_id}", inputs),
                     _INPUT_KEYS_2 if v2 else _INPUT_KEYS)
            played = inputs.get("cards")
            if not v2 and isinstance(played, list) and any(isinstance(c, dict) for c in played):
                raise RaceFileError(f"round {r}, car {car_id}: cards: upgrade and Sponsorship "
                                    "cards need heat-race/2")
        rounds.append(round_doc)
    try:
        modules = parse_modules(doc["modules"], track) if "modules" in doc else NO_MODULES
    except ModulesError as error:
        raise RaceFileError(str(error)) from error
    setup = RaceSetup(
        modules=modules,
        track=track, cars=tuple(cars), laps=laps, seed=seed, legend_cards=tuple(cards),
        legend_bonus=bonus, aggressive_legends=aggressive,
    )
    return RaceFile(setup=setup, rounds=tuple(rounds))


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
    plays,) Cooldown, Boost, (Accelerate,) Slipstream, then the corner checks (race-file.md
    "Order inside a car's turn"; docs/race-file-v2.md)."""
    if "cards" not in inputs:
        raise _say(r, car, "cards: required (or clogged: true)")
    stress, unpaid = inputs.get("stress", []), inputs.get("unpaid", [])
    if not isinstance(stress, list):
        raise _say(r, car, "stress: must be a list of Basic card values")
    if not isinstance(unpaid, list):
        raise _say(r, car, "unpaid: must be a list of Basic card values")
    actions: list[Action] = [Reveal(car, _cards(car, inputs, r), tuple(stress), tuple(unpaid))]
    flags = {key: inputs.get(key, False) for key in ("adrenaline", "accelerate", "slipstream")}
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
    if "boost" in inputs:
        actions.append(Boost(car, inputs["boost"]))
    if flags["accelerate"]:
        actions.append(Accelerate(car))
    extra = inputs.get("slipstream_extra", 0)
    if not _is_int(extra) or extra < 0:
        raise _say(r, car, "slipstream_extra: must be a whole number of spaces")
    if extra and not flags["slipstream"]:
        raise _say(r, car, "slipstream_extra: only with slipstream: true")
    if flags["slipstream"]:
        actions.append(Slipstream(car, extra))
    actions.append(EndTurn(car))
    return actions


def _step(state: RaceState, action: Action, r: int, car: str | None) -> RaceState:
    result = play(state, action)
    if isinstance(result, Rejection):
        raise _say(r, car, result)
    return result.state


def play_round(state: RaceState, round_doc: Mapping[str, Mapping[str, Any]], r: int) -> RaceState:
    """Replay one round of a race file; raises :class:`RaceFileError` on the first bad input."""
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
    if all(state.car(c).legend for c in state.order):
        # No human car still racing: the round is `{}` and the Legends play it by themselves.
        return _step(state, RunRound(), r, None)
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
    for r, round_doc in enumerate(race.rounds, start=1):
        state = play_round(state, round_doc, r)
        yield state


def state_document(state: RaceState) -> dict[str, Any]:
    """A ``heat-race-state/1`` document (``/2`` for a race that uses modules)."""
    v2 = uses_modules(state.modules)
    cars: dict[str, Any] = {}
    for car in state.cars:
        cars[car.id] = {
            "legend": car.legend,
            "lap": state.track.lap_of(car.distance),
            "space": state.track.space_of(car.distance),
            "race_line": car.race_line,
            "gear": None if car.legend else car.gear,
            "engine": None if car.legend else car.engine,
            "heat": None if car.legend else car.heat,
            "stress_taken": car.stress_taken,
            "spinouts": car.spinouts,
            "finished": (
                None if car.finished_place is None
                else {"place": car.finished_place, "round": car.finished_round}
            ),
        }
        if v2:
            cars[car.id]["sponsors"] = car.sponsors
            cars[car.id]["eliminated"] = car.eliminated
    return {
        "format": STATE_FORMAT_2 if v2 else STATE_FORMAT,
        "track": state.track.id,
        "laps": state.laps,
        "round": state.round,
        "over": state.over,
        "order": list(state.order) if not state.over else [],
        "cars": cars,
        "results": [{"place": p, "car": c, "round": r} for c, p, r in state.results],
    }


def export(
    setup: RaceSetup, actions: Sequence[Action],
    track_doc: Mapping[str, Any] | str | None = None,
) -> dict[str, Any]:
    """A race file for the complete rounds of a logged race: ``heat-race/1`` when it can say
    everything, else ``heat-race/2`` (Aggressive Legends turned off).

    Round boundaries come from replaying the actions (the engine knows when a round ends). The
    Legends cards actually drawn are written out, so a replay draws the same cards whatever the
    deck mode was at the table. An unfinished round is left out: the format holds whole rounds.
    """
    state = start_race(setup).state
    rounds: list[dict[str, dict[str, Any]]] = []
    current: dict[str, dict[str, Any]] = {}
    drawn: tuple[int, ...] = ()
    for action in actions:
        before = state
        result = play(state, action)
        if isinstance(result, Rejection):
            raise RaceFileError(f"stored action {action!r} is rejected: {result.text()}")
        state = result.state
        _record(current, before, action)
        if state.round > before.round:
            rounds.append(current)
            current = {}
            drawn = state.deck.drawn
    doc: dict[str, Any] = {
        "format": FORMAT if _fits_version_1(setup) else FORMAT_2,
        "track": track_doc if track_doc is not None else setup.track.id,
        "laps": state.laps,
        "seed": setup.seed,
        "cars": [_car_doc(c) for c in setup.cars],
    }
    if uses_modules(setup.modules):
        doc["modules"] = modules_doc(setup.modules, setup.track)
    if any(c.legend for c in setup.cars):
        doc["legends"] = {"cards": list(drawn), "bonus": setup.legend_bonus}
        if not setup.aggressive_legends:
            doc["legends"]["aggressive"] = False
    doc["rounds"] = rounds
    return doc


def _fits_version_1(setup: RaceSetup) -> bool:
    return (setup.aggressive_legends and not uses_modules(setup.modules)
            and not any(c.mechanics or c.upgrades or c.sponsor_cards for c in setup.cars))


def _car_doc(car: CarEntry) -> dict[str, Any]:
    doc: dict[str, Any] = {"id": car.id}
    if car.name and car.name != car.id:
        doc["name"] = car.name
    if car.legend:
        doc["legend"] = True
    if car.handicap:
        doc["handicap"] = car.handicap
    if car.mechanics:
        doc["mechanics"] = car.mechanics
    if car.upgrades:
        doc["upgrades"] = list(car.upgrades)
    if car.sponsor_cards:
        doc["sponsor_cards"] = car.sponsor_cards
    return doc


def _record(current: dict[str, dict[str, Any]], before: RaceState, action: Action) -> None:
    """Fold one engine input into the race-file entry of its car for the current round."""
    if isinstance(action, ChooseGear):
        entry = current.setdefault(action.car, {})
        entry.pop("gear", None)
        entry.pop("clogged", None)
        if action.gear != before.car(action.car).gear:
            entry["gear"] = action.gear
        if action.clogged:
            entry["clogged"] = True
    elif isinstance(action, Reveal):
        entry = current[action.car]
        entry["cards"] = [card_to_json(card) for card in action.cards]
        if action.stress:
            entry["stress"] = list(action.stress)
        if action.unpaid:
            entry["unpaid"] = list(action.unpaid)
    elif isinstance(action, Accelerate):
        current[action.car]["accelerate"] = True
    elif isinstance(action, DirectPlay):
        current[action.car].setdefault("direct", []).append(action.card.to_dict())
    elif isinstance(action, Adrenaline):
        current[action.car]["adrenaline"] = True
    elif isinstance(action, Cooldown):
        current[action.car]["cooldown"] = action.amount
    elif isinstance(action, Boost):
        current[action.car]["boost"] = action.value
    elif isinstance(action, Slipstream):
        current[action.car]["slipstream"] = True
        if action.extra:
            current[action.car]["slipstream_extra"] = action.extra
