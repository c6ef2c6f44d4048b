"""Writing: ``heat-race-state/1`` (and ``/2``) documents, and a logged race exported as a race
file that replays to the same state (docs/race-file.md, docs/race-file-v2.md)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine import (
    Accelerate,
    Action,
    Adrenaline,
    Boost,
    CarEntry,
    ChooseGear,
    Cooldown,
    DraftMove,
    PayHeat,
    RaceSetup,
    RaceState,
    Rejection,
    Reveal,
    Slipstream,
    SuperCool,
    play,
    start_race,
)
from ..engine.actions import (
    DirectPlay,
    card_to_json,
)
from ..modules_doc import modules_doc, uses_modules
from .reading import FORMAT, FORMAT_2, STATE_FORMAT, STATE_FORMAT_2, RaceFileError


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


@dataclass(frozen=True)
class Unfinished:
    """The round a logged race stopped in, which a race file cannot hold (race files hold whole
    rounds): its number, how many engine inputs it had, and those inputs in race-file form,
    car by car (``{"red": {"gear": 3, "cards": [1, 2, 3]}, "blue": {"gear": 2}}``)."""

    round: int
    inputs: int
    cars: Mapping[str, Mapping[str, Any]]

    def describe(self) -> str:
        """One line saying what a file written without this round leaves out."""
        kept = (f"ends after round {self.round - 1}" if self.round > 1
                else "has no rounds")
        what = json.dumps(self.cars, ensure_ascii=False, separators=(", ", ": "))
        return (f"round {self.round} is not finished, so the file {kept}; left out: "
                f"{self.inputs} input{'s' if self.inputs != 1 else ''} of round {self.round}: "
                f"{what}")


def export(
    setup: RaceSetup, actions: Sequence[Action],
    track_doc: Mapping[str, Any] | str | None = None,
) -> dict[str, Any]:
    """A race file for the complete rounds of a logged race: ``heat-race/1`` when it can say
    everything, else ``heat-race/2`` (Aggressive Legends turned off).

    Round boundaries come from replaying the actions (the engine knows when a round ends). The
    Legends cards actually drawn are written out, so a replay draws the same cards whatever the
    deck mode was at the table. An unfinished round is left out: the format holds whole rounds
    (:func:`export_parts` says what was left out).
    """
    return export_parts(setup, actions, track_doc)[0]


def export_parts(
    setup: RaceSetup, actions: Sequence[Action],
    track_doc: Mapping[str, Any] | str | None = None,
) -> tuple[dict[str, Any], Unfinished | None]:
    """:func:`export`, and the unfinished round it leaves out (None if there is none)."""
    state = start_race(setup).state
    rounds: list[dict[str, dict[str, Any]]] = []
    current: dict[str, dict[str, Any]] = {}
    pending = 0
    drawn: tuple[int, ...] = ()
    for action in actions:
        before = state
        result = play(state, action)
        if isinstance(result, Rejection):
            raise RaceFileError(f"stored action {action!r} is rejected: {result.text()}")
        state = result.state
        _record(current, before, action)
        pending += 1
        if state.round > before.round:
            rounds.append(current)
            current = {}
            pending = 0
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
        if setup.physical_legends_deck and setup.modules.tournament:
            # A tournament round may begin with Legends: the table's physical deck then waits
            # for its card at the round's end, where a seeded deck would draw one by itself.
            # Said so, the replay waits too (docs/race-file-v2.md legends.deck).
            doc["legends"]["deck"] = "physical"
    doc["rounds"] = rounds
    rest = Unfinished(len(rounds) + 1, pending, current) if pending else None
    return doc, rest


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
    elif isinstance(action, SuperCool):
        current[action.car]["super_cool"] = action.amount
    elif isinstance(action, PayHeat):
        # Paying with nothing left unpaid is what the next step does by itself: no key.
        if action.unpaid:
            current[action.car]["unpaid_after_cooldown"] = list(action.unpaid)
    elif isinstance(action, DraftMove):
        current[action.car]["draft"] = True
    elif isinstance(action, Slipstream):
        current[action.car]["slipstream"] = True
        if action.extra:
            current[action.car]["slipstream_extra"] = action.extra
        if not action.sector:
            current[action.car]["slipstream_sector"] = False
