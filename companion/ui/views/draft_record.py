"""A Garage draft as the race log keeps it, and back (Kivy-free).

A draft is stored when it begins (``companion.storage.drafts``): its **start**, one JSON object
written here, then each input the table makes (:meth:`DraftFlow.replay` reads them back):

* a single race's draft: the New race form as the table left it (track, laps, drivers with
  names, seats and handicaps, Legends, difficulty, Legends deck, grid, seed, tournament mode,
  every module) and the deal (the drivers in grid order, the cards revealed for round 1, the
  rest of the shuffled Upgrade deck, top first);
* a season race's draft: the Next race screen's draw (its seed, which decides the grid, the
  Weather and the Road Conditions; the Garage deck; the mechanics' choices) and the deal (the
  pick order, the cards revealed, each driver's earlier Upgrades, who may swap).

The deal is stored as dealt, not drawn again from the seed: a redraft after a power cut deals
the very cards already in the players' hands, whatever a later version of the app would shuffle.
Reading a start back checks every field (an unknown key, a wrong type, a card the app does not
know, a setup that no longer starts a race, a season that has moved on) and raises
:class:`~companion.ui.views.draft_flow.DraftRecordError` saying what is wrong; nothing is
changed then.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.engine import CarEntry, RaceSetup, start_race
from companion.engine.draft import Draft, RoundDraft
from companion.engine.garage import DESIGNS
from companion.engine.modules import EVENTS, Road, Weather

from .draft_flow import DraftFlow, DraftRecordError
from .drivers import MAX_BONUS, MAX_LEGENDS, MAX_SEATS, Driver
from .modules_form import DECKS, GARAGE_MODES, ROAD_MODES, WEATHER_MODES, ModulesForm
from .names import CAR_COLOURS
from .next_race import NextRace
from .race_form import RaceForm

START_VERSION = 1
"""The shape of a stored start (``version``): bump it when it changes."""

Finish = Callable[[dict[str, tuple[str, ...]]], Any]


@dataclass(frozen=True)
class DraftStart:
    """What storing a draft's start takes: the start itself, and the race it sets up as the
    list of things to continue shows it."""

    start: dict[str, Any]
    track_id: str
    laps: int
    cars: tuple[CarEntry, ...]
    season_id: str | None = None
    race_no: int | None = None


# --- writing --------------------------------------------------------------------------------


def form_doc(form: RaceForm) -> dict[str, Any]:
    """The New race form as JSON (:func:`form_from_doc` reads it back)."""
    modules = form.modules
    return {
        "track": form.track_id, "laps": form.laps,
        "drivers": [{"colour": d.colour, "name": d.name, "handicap": d.handicap,
                     "seat": d.seat} for d in form.drivers],
        "legends": form.legends, "bonus": form.bonus, "physical_deck": form.physical_deck,
        "random_grid": form.random_grid, "grid": list(form.grid), "seed": form.seed,
        "tournament": form.tournament,
        "modules": {
            "event": modules.event, "weather_mode": modules.weather_mode,
            "weather": modules.weather.name.lower(), "road_mode": modules.road_mode,
            "road": {str(line): token.value for line, token in sorted(modules.road.items())},
            "press": list(modules.press), "mechanics": dict(sorted(modules.mechanics.items())),
            "garage": modules.garage, "deck": modules.deck,
        },
    }


def _summary(setup: RaceSetup) -> tuple[int, tuple[CarEntry, ...]]:
    laps = start_race(setup).state.laps
    return laps, tuple(CarEntry(c.id, c.name, legend=c.legend) for c in setup.cars)


def race_draft(form: RaceForm, track: Any, finish: Finish) -> tuple[DraftFlow, DraftStart]:
    """The draft New race's Start race begins (``form.modules.garage`` is "draft"), and its
    start to store. ``finish``: what Start race does once the draft is over."""
    draft = form.modules.start_draft(form.human_order(), form.seed)
    flow = DraftFlow(draft, _names(form), finish, back="newrace")
    start = {"version": START_VERSION, "form": form_doc(form),
             "deal": {"drivers": list(draft.drivers), "market": list(draft.market),
                      "deck": list(draft.deck)}}
    laps, cars = _summary(form.setup(track))
    return flow, DraftStart(start, track.id, laps, cars)


def season_draft(plan: NextRace, finish: Finish) -> tuple[DraftFlow, DraftStart]:
    """The draft round Next race's Garage draft begins, and its start to store."""
    draft = plan.draft()
    swap = plan.picks[0] if plan.picks else None
    flow = DraftFlow(draft, plan.names(), finish, earlier=dict(plan.earlier), swap=swap,
                     back="nextrace")
    start = {"version": START_VERSION,
             "plan": {"seed": plan.seed, "deck": plan.deck,
                      "mechanics": dict(sorted(plan.mechanics.items()))},
             "deal": {"order": list(draft.order), "market": list(draft.market),
                      "earlier": {car: list(cards) for car, cards in
                                  sorted(plan.earlier.items())},
                      "swap": swap}}
    laps, cars = _summary(plan.setup({}))
    return flow, DraftStart(start, plan.track.id, laps, cars, plan.season_id, plan.number)


def _names(form: RaceForm) -> dict[str, str]:
    return {d.colour: d.display_name for d in form.drivers}


# --- reading ---------------------------------------------------------------------------------


class _Doc:
    """Strict reading of one JSON object: every key known, each of its type."""

    def __init__(self, where: str, doc: object, keys: Sequence[str]) -> None:
        if not isinstance(doc, dict):
            raise DraftRecordError(None, f"{where}: not a JSON object: {doc!r}")
        if set(doc) != set(keys):
            extra, missing = sorted(set(doc) - set(keys)), sorted(set(keys) - set(doc))
            raise DraftRecordError(None, f"{where}: unknown key {extra[0]!r}" if extra
                                   else f"{where}: missing key {missing[0]!r}")
        self.where, self.doc = where, doc

    def get(self, key: str, kind: type | tuple[type, ...], *,
            within: Sequence[Any] | None = None) -> Any:
        value = self.doc[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            raise DraftRecordError(None, f"{self.where}.{key}: {value!r} is not "
                                         f"{' or '.join(k.__name__ for k in kinds)}")
        if within is not None and value not in within:
            raise DraftRecordError(None, f"{self.where}.{key}: {value!r} is none of "
                                         f"{list(within)}")
        return value

    def strings(self, key: str, within: Container[str] | None = None,
                what: str = "one of the cars") -> tuple[str, ...]:
        """A list of strings, each in ``within`` (``what`` it then is) if given."""
        values = self.get(key, list)
        for value in values:
            if not isinstance(value, str) or (within is not None and value not in within):
                raise DraftRecordError(None, f"{self.where}.{key}: {value!r} is not {what}")
        return tuple(values)

    def cards(self, key: str) -> tuple[str, ...]:
        """A list of Upgrade cards, each a design the app knows."""
        return self.strings(key, DESIGNS, "a card the app knows")


def _whole(doc: _Doc, key: str, low: int, high: int) -> int:
    value = doc.get(key, int)
    if not low <= value <= high:
        raise DraftRecordError(None, f"{doc.where}.{key}: {value} is not {low} to {high}")
    return int(value)


def form_from_doc(doc: object) -> RaceForm:
    """The form :func:`form_doc` wrote. :raises DraftRecordError:"""
    import tracks

    d = _Doc("start.form", doc, ("track", "laps", "drivers", "legends", "bonus",
                                 "physical_deck", "random_grid", "grid", "seed", "tournament",
                                 "modules"))
    track_id = d.get("track", str, within=[t.id for t in tracks.available_tracks()])
    laps = d.get("laps", (int, type(None)))
    drivers = []
    for index, raw in enumerate(d.get("drivers", list)):
        one = _Doc(f"start.form.drivers[{index}]", raw, ("colour", "name", "handicap", "seat"))
        drivers.append(Driver(one.get("colour", str, within=CAR_COLOURS), one.get("name", str),
                              _whole(one, "handicap", 0, 2), _whole(one, "seat", 0, MAX_SEATS)))
    m = _Doc("start.form.modules", d.get("modules", dict),
             ("event", "weather_mode", "weather", "road_mode", "road", "press", "mechanics",
              "garage", "deck"))
    road = {}
    for line, token in m.get("road", dict).items():
        if not line.isdigit() or token not in {r.value for r in Road}:
            raise DraftRecordError(None, f"start.form.modules.road: {line!r}: {token!r}")
        road[int(line)] = Road(token)
    mechanics = m.get("mechanics", dict)
    if any(car not in CAR_COLOURS or value not in (1, -1) for car, value in mechanics.items()):
        raise DraftRecordError(None, f"start.form.modules.mechanics: {mechanics!r}")
    modules = ModulesForm(
        event=m.get("event", (str, type(None)), within=[None, *EVENTS]),
        weather_mode=m.get("weather_mode", str, within=WEATHER_MODES),
        weather=Weather[m.get("weather", str, within=[w.name.lower() for w in Weather])
                        .upper()],
        road_mode=m.get("road_mode", str, within=ROAD_MODES), road=road,
        press=list(m.strings("press")), mechanics=dict(mechanics),
        garage=m.get("garage", str, within=GARAGE_MODES), deck=m.get("deck", str, within=DECKS))
    return RaceForm(
        track_id=track_id, laps=laps, drivers=drivers,
        legends=_whole(d, "legends", 0, MAX_LEGENDS), bonus=_whole(d, "bonus", 0, MAX_BONUS),
        physical_deck=d.get("physical_deck", bool), random_grid=d.get("random_grid", bool),
        grid=list(d.strings("grid", CAR_COLOURS)), seed=d.get("seed", int),
        tournament=d.get("tournament", bool), modules=modules)


def resume_race(start: Mapping[str, Any], inputs: Sequence[Mapping[str, Any]],
                finish: Finish) -> tuple[RaceForm, DraftFlow]:
    """A single race's draft as stored: the form it began from, and the flow where the draft
    was (every input replayed). :raises DraftRecordError:"""
    import tracks

    top = _Doc("start", start, ("version", "form", "deal"))
    top.get("version", int, within=[START_VERSION])
    form = form_from_doc(top.doc["form"])
    track = tracks.load_track(form.track_id)
    if form.modules.garage != "draft":
        raise DraftRecordError(None, "start.form: its Garage is not a draft")
    problem = form.problem(track)
    if problem:
        raise DraftRecordError(None, f"start.form cannot start a race: {problem}")
    deal = _Doc("start.deal", top.doc["deal"], ("drivers", "market", "deck"))
    drivers = deal.strings("drivers", CAR_COLOURS)
    if list(drivers) != form.human_order():
        raise DraftRecordError(None, f"start.deal.drivers: {list(drivers)} are not the form's "
                                     f"drivers in grid order {form.human_order()}")
    market = deal.cards("market")
    if len(market) != len(drivers) + 3:
        raise DraftRecordError(None, f"start.deal.market: {len(market)} cards for "
                                     f"{len(drivers)} drivers")
    draft = Draft(drivers=drivers, deck=deal.cards("deck"), market=market, round=1)
    flow = DraftFlow(draft, _names(form), finish, back="newrace")
    flow.replay(inputs)
    return form, flow


def season_seed(start: Mapping[str, Any]) -> int | None:
    """The seed a season race's draft drew its Next race from (its grid, Weather and Road
    Conditions), None when the start does not say it (it is damaged, or a single race's)."""
    plan = start.get("plan")
    seed = plan.get("seed") if isinstance(plan, Mapping) else None
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None


def resume_season(store: Any, season_id: str, race_no: int, start: Mapping[str, Any],
                  inputs: Sequence[Mapping[str, Any]],
                  finish: Finish) -> tuple[NextRace, DraftFlow]:
    """A season race's draft as stored: the Next race plan it began from (drawn again from its
    seed, with its deck and mechanics' choices) and the flow where the draft was.
    :raises DraftRecordError:"""
    from .next_race import plan_next_race

    top = _Doc("start", start, ("version", "plan", "deal"))
    top.get("version", int, within=[START_VERSION])
    p = _Doc("start.plan", top.doc["plan"], ("seed", "deck", "mechanics"))
    plan = plan_next_race(store, season_id, p.get("seed", int))
    if plan is None or plan.number != race_no:
        raise DraftRecordError(None, f"season {season_id} has moved on: race {race_no} is no "
                                     "longer the next race to set up")
    deal = _Doc("start.deal", top.doc["deal"], ("order", "market", "earlier", "swap"))
    order = deal.strings("order", plan.picks)
    earlier_doc = _Doc("start.deal.earlier", deal.get("earlier", dict), sorted(plan.earlier))
    earlier = {car: earlier_doc.cards(car) for car in plan.earlier}
    swap = deal.get("swap", (str, type(None)))
    if order != plan.picks or earlier != plan.earlier or swap != (
            plan.picks[0] if plan.picks else None):
        raise DraftRecordError(None, "start.deal: the pick order or the earlier Upgrades are "
                                     "not the season's")
    mechanics = p.get("mechanics", dict)
    if any(car not in plan.picks or value not in (1, -1) for car, value in mechanics.items()):
        raise DraftRecordError(None, f"start.plan.mechanics: {mechanics!r}")
    plan.deck = p.get("deck", str, within=DECKS)
    plan.mechanics = dict(mechanics)
    market = deal.cards("market")
    if len(market) != len(order) + 3:
        raise DraftRecordError(None, f"start.deal.market: {len(market)} cards for "
                                     f"{len(order)} drivers")
    flow = DraftFlow(RoundDraft(order, market), plan.names(), finish, earlier=dict(earlier),
                     swap=swap, back="nextrace")
    flow.replay(inputs)
    return plan, flow
