"""The Garage draft as the race log keeps it, Kivy-free: each input recorded before the draft
shows it (a record that fails changes nothing), a stored draft replayed to where it was (a
single race's three rounds, a season's round with the first picker's swap), and a start or an
input that is not what the draft accepts named, never taken."""

from __future__ import annotations

import json
from typing import Any

import pytest

import tracks
from companion.engine.draft import start_round_draft
from companion.engine.modules import Road, Weather
from companion.ui.views.draft_flow import DraftFlow, DraftRecordError
from companion.ui.views.draft_record import form_doc, form_from_doc, race_draft, resume_race
from companion.ui.views.drivers import Driver
from companion.ui.views.race_form import RaceForm

USA = tracks.load_track("usa")


def _form() -> RaceForm:
    form = RaceForm(seed=4242)
    form.first_race()
    form.drivers = [Driver("red", "Ana ", handicap=1, seat=3), Driver("blue", "", seat=1),
                    Driver("green", "Cy", seat=2)]
    form.set_legends(1)
    form.modules.garage = "draft"
    return form


def _json(doc: Any) -> Any:
    return json.loads(json.dumps(doc))


def test_the_new_race_form_reads_back_as_it_was() -> None:
    form = _form()
    form.bonus, form.physical_deck, form.tournament, form.laps = 2, True, True, 3
    form.random_grid = False
    form.move_up("green")
    modules = form.modules
    modules.event, modules.deck = "title-sponsor-withdraws", "both"
    modules.weather_mode, modules.weather = "set", Weather.SNOW
    modules.road_mode, modules.road = "set", {12: Road.OVERHEAT, 33: Road.LIMIT_MINUS}
    modules.press, modules.mechanics = ["A", "C"], {"blue": -1}
    again = form_from_doc(_json(form_doc(form)))
    assert again == form
    assert again.setup(USA) == form.setup(USA)


@pytest.mark.parametrize(("change", "problem"), [
    (lambda d: d.pop("seed"), "start.form: missing key 'seed'"),
    (lambda d: d.update(extra=1), "start.form: unknown key 'extra'"),
    (lambda d: d.update(track="atlantis"), "start.form.track: 'atlantis' is none of"),
    (lambda d: d.update(legends=True), "start.form.legends: True is not int"),
    (lambda d: d["drivers"][0].update(colour="pink"), "drivers[0].colour: 'pink' is none of"),
    (lambda d: d["modules"]["road"].update({"12": "ice"}), "start.form.modules.road: '12'"),
])
def test_a_form_that_is_not_what_the_app_wrote_is_named(change: Any, problem: str) -> None:
    doc = _json(form_doc(_form()))
    change(doc)
    with pytest.raises(DraftRecordError, match=problem.replace("(", r"\(").replace("[", r"\[")):
        form_from_doc(doc)


def test_each_pick_is_recorded_before_the_draft_shows_it() -> None:
    recorded: list[tuple[int, dict[str, Any], Any]] = []
    flow, start = race_draft(_form(), USA, lambda cards: None)
    flow.record = lambda seq, payload: recorded.append((seq, payload, flow.draft))
    first = flow.draft
    flow.pick(2)
    assert recorded == [(1, {"kind": "pick", "driver": first.to_pick,
                             "card": first.market[2]}, first)]  # recorded, then shown
    assert flow.draft.picks == ((first.to_pick, first.market[2]),) and flow.inputs == 1

    def full(seq: int, payload: dict[str, Any]) -> None:
        raise OSError("the storage is full")

    flow.record = full
    shown = (flow.draft, flow.inputs)
    with pytest.raises(OSError):
        flow.pick(0)
    assert (flow.draft, flow.inputs) == shown  # not recorded: not taken
    flow.record = None
    flow.pick_as("nobody", 0)  # refused by the rules: nothing to record
    assert flow.inputs == 1
    assert start.start["deal"] == {"drivers": list(first.drivers),
                                   "market": list(first.market), "deck": list(first.deck)}
    assert (start.track_id, start.laps) == ("usa", 1)
    assert [c.id for c in start.cars] == _form().grid_order()


def test_a_single_race_draft_replays_to_where_it_was() -> None:
    recorded: list[dict[str, Any]] = []
    flow, start = race_draft(_form(), USA, lambda cards: None)
    flow.record = lambda seq, payload: recorded.append(payload)
    for index in (0, 3, 1, 0, 2, 0, 1):  # into round 3
        flow.pick(index)
    form, again = resume_race(_json(start.start), _json(recorded), lambda cards: None)
    assert form == _form()
    assert (again.draft, again.inputs, again.mode) == (flow.draft, 7, "pick")
    assert again.view() == flow.view()
    assert again.back == "newrace" and again.record is None


@pytest.mark.parametrize("skip", [False, True])
def test_a_season_round_with_its_swap_replays_to_where_it_was(skip: bool) -> None:
    recorded: list[dict[str, Any]] = []
    draft = start_round_draft(("blue", "red"), seed=9)
    flow = DraftFlow(draft, {"red": "Ana", "blue": "Ben"}, lambda cards: None,
                     earlier={"blue": ("body-3", "rpm-1"), "red": ("rpm-1", "body-5")},
                     swap="blue", record=lambda seq, payload: recorded.append(payload))
    flow.pick(1)
    flow.pick(0)
    assert flow.mode == "swap"
    if skip:
        flow.skip_swap()
    else:
        flow.choose_own(1)
        flow.pick(2)
    assert flow.mode == "done" and len(recorded) == 3
    again = DraftFlow(draft, {"red": "Ana", "blue": "Ben"}, lambda cards: None,
                      earlier={"blue": ("body-3", "rpm-1"), "red": ("rpm-1", "body-5")},
                      swap="blue")
    again.replay(_json(recorded))
    assert (again.draft, again.earlier, again.mode, again.cards()) == (
        flow.draft, flow.earlier, "done", flow.cards())


@pytest.mark.parametrize(("stored", "problem"), [
    ({"kind": "pick", "driver": "red", "card": "body-3"}, "a pick by 'red' where the draft "
                                                          "awaits a pick by 'blue'"),
    ({"kind": "pick", "driver": "blue", "card": "turbo-8"}, "'turbo-8' is not among the cards"),
    ({"kind": "swap", "driver": "blue", "give": "x", "at": 0, "card": "body-3"},
     "a swap by 'blue' where the draft awaits a pick by 'blue'"),
    ({"kind": "pick", "driver": "blue"}, "not a pick, a swap or no swap"),
    ({"kind": "redo"}, "not a pick, a swap or no swap"),
    ({"kind": "undo", "undoes": 1}, "an undo that does not take back the last input"),
])
def test_an_input_the_draft_does_not_accept_is_named(stored: dict[str, Any],
                                                     problem: str) -> None:
    draft = start_round_draft(("blue", "red"), seed=9)
    stored = {k: (draft.market[0] if v == "body-3" else v) for k, v in stored.items()}
    flow = DraftFlow(draft, {}, lambda cards: None)
    with pytest.raises(DraftRecordError) as caught:
        flow.replay([stored])
    assert caught.value.seq == 1 and problem in caught.value.problem


def test_a_deal_that_is_not_the_form_s_is_named() -> None:
    flow, start = race_draft(_form(), USA, lambda cards: None)
    for change, problem in (
            (lambda d: d["deal"]["drivers"].reverse(), "are not the form's drivers"),
            (lambda d: d["deal"]["market"].append("heat"), "7 cards for 3 drivers"),
            (lambda d: d["deal"]["deck"].append("front-wing-9"), "not a card the app knows"),
            (lambda d: d.update(version=2), "start.version: 2 is none of [1]"),
            (lambda d: d["form"]["modules"].update(garage="random"), "not a draft")):
        doc = _json(start.start)
        change(doc)
        with pytest.raises(DraftRecordError, match=problem.replace("[", r"\[")):
            resume_race(doc, [], lambda cards: None)
