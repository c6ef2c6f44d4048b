"""Modules on the New race screen, the guided Garage draft, and upgrade cards on the keypad."""

from __future__ import annotations

import json

import pytest

import tracks
from companion import racefile
from companion.engine import CarEntry, RaceSetup, Upgrade
from companion.engine.modules import RaceModules, Road, Weather
from companion.ui.widgets.lookup import find, find_all

pytestmark = pytest.mark.ui


def _press_until(ui, button: str, target: str, text: str, limit: int = 40) -> None:
    for _ in range(limit):
        if find(ui.app.sm.current_screen, target).text == text:
            return
        ui.player.press(button)
    raise AssertionError(f"{target} never showed {text!r}")


def test_new_race_with_event_weather_and_road_tokens(ui, press) -> None:
    app = ui.app
    ui.player.set_up_race()
    press("more options")  # the modules
    screen = app.sm.current_screen
    _press_until(ui, "event next", "event", "Event: Title sponsor withdraws")
    assert find(screen, "event effect").text == (
        "Title sponsor withdraws: +1 Stress in every deck; a spin-out eliminates the car "
        "(0 points).")
    press("weather")  # drawn from the seed
    assert find(screen, "weather").text.startswith("Weather: drawn (")
    _press_until(ui, "weather", "weather", "Weather: Snow")
    assert find(screen, "weather effect").text == (
        "Start: remove 1 Heat from your engine. Weather sectors: +1 Cooldown.")
    press("road")
    assert len(find(screen, "road effects").text.splitlines()) == 4  # USA: four corners
    press("road")  # set per corner: start from the drawn tokens, then change corner 1
    before = screen.form.modules.road[12]
    press("road 12")
    after = screen.form.modules.road[12]
    assert after != before
    press("press A")
    press("press C")
    assert screen.form.modules.press == ["A", "C"]
    press("start race")
    assert app.sm.current == "race"
    modules = app.session.setup.modules
    assert modules.event == "title-sponsor-withdraws" and modules.weather is Weather.SNOW
    assert set(modules.road) == {12, 33, 49, 57} and modules.road[12] is after
    assert modules.press_corners == (12, 49)
    doc = app.session.export()
    assert doc["modules"]["weather"] == "snow" and doc["modules"]["press"] == ["A", "C"]
    # The setup reached the engine: Snow takes 1 Heat, the event adds 1 Stress.
    car = next(c for c in app.session.state.cars if not c.legend)
    assert car.engine == 5 and car.stress_in_deck == 4


def test_mechanics_choice_per_driver(ui, press) -> None:
    ui.player.set_up_race()
    press("more options")
    _press_until(ui, "event prev", "event", "Event: Consulting the mechanics")
    press("mechanics blue")
    assert find(ui.app.sm.current_screen, "mechanics blue").text == (
        "Ben: -1 Heat and -1 Stress")
    press("start race")
    cars = {c.id: c for c in ui.app.session.setup.cars}
    assert cars["red"].mechanics == 1 and cars["blue"].mechanics == -1


def test_guided_draft_of_two_drivers(ui, press) -> None:
    app = ui.app
    ui.player.set_up_race()
    press("more options")
    press("garage")
    assert find(app.sm.current_screen, "garage").text == "Garage: draft"
    press("garage deck")  # Advanced
    press("start race")
    assert app.sm.current == "draft"
    screen = app.sm.current_screen
    flow = app.draft_flow
    assert flow.draft.drivers == tuple(app.screen("newrace").form.human_order())
    assert len(find_all(screen, "card ")) == 5  # players + 3
    assert "Speed" in find(screen, "card 0").text
    rounds = []
    for _ in range(6):
        driver = flow.draft.to_pick
        rounds.append((flow.draft.round, driver))
        assert find(screen, "draft prompt").text.startswith(flow.name(driver) + ": pick")
        press("card 0")
    first, second = flow.draft.drivers
    assert rounds == [(1, second), (1, first), (2, first), (2, second), (3, second),
                      (3, first)]
    assert find(screen, "draft prompt").text == "Every driver has their cards: start the race."
    assert find(screen, "start race").disabled is False
    press("start race")
    assert app.sm.current == "race"
    upgrades = {c.id: c.upgrades for c in app.session.setup.cars if not c.legend}
    assert all(len(cards) == 3 for cards in upgrades.values())
    assert upgrades == {d: flow.draft.upgrades(d) for d in flow.draft.drivers}
    assert {c["id"]: tuple(c["upgrades"]) for c in app.session.export()["cars"]
            if "upgrades" in c} == upgrades
    ui.player.play_to_end()
    assert app.session.state.over


def test_draft_refuses_a_pick_out_of_turn(ui, press) -> None:
    ui.player.set_up_race()
    press("more options")
    press("garage")
    press("start race")
    flow = ui.app.draft_flow
    waiting = next(d for d in flow.draft.drivers if d != flow.draft.to_pick)
    flow.pick_as(waiting, 0)
    ui.app.sm.current_screen.refresh()
    assert find(ui.app.sm.current_screen, "error").text == (
        f"It is {flow.name(flow.draft.to_pick)}'s pick.")


def _hands_shown(screen) -> list[str]:
    """The drivers whose cards the draft screen lists, as they read: top to bottom, and left
    to right where they stand side by side (the draft done, they take the row)."""
    def place(label) -> tuple[float, float]:
        x, top = label.to_window(label.x, label.top)
        return -round(top), x

    return [label.test_name.removeprefix("hand ")
            for label in sorted(find_all(screen.ids.hands, "hand "), key=place)]


def test_the_draft_lists_the_hands_in_the_order_the_drivers_pick(ui, press) -> None:
    """Three drivers draft for a single race: each round the hands are listed in that round's
    pick order, the order the prompt names (last on the grid first in rounds 1 and 3, pole
    first in round 2, docs/rules.md §4.1); a table found them in grid order under a prompt
    that said "order: Ana, Cy, Ben"."""
    app = ui.app
    ui.player.set_up_race(("Ana", "Ben"))
    press("add driver")
    ui.player.find("name 2").text = "Cy"
    press("more options")
    press("garage")
    press("start race")
    screen = app.sm.current_screen
    flow = app.draft_flow
    grid = flow.draft.drivers
    for round_ in (1, 2, 3):
        assert flow.draft.round == round_
        order = flow.draft.order
        assert order == (grid if round_ == 2 else tuple(reversed(grid)))
        names = ", ".join(flow.name(car) for car in order)
        assert find(screen, "draft prompt").text.endswith(f"(order: {names}).")
        for picked in range(3):
            assert _hands_shown(screen) == list(order), (round_, picked)
            press("card 0")
    assert flow.mode == "done" and _hands_shown(screen) == list(reversed(grid))


def _garage_race(app):
    """Red (Brakes 1/2/3/4, 4WD 0 +3, Turbo 7) starts with 1 Heat in the engine: handicap 2,
    New safety regulations -2, Snow -1."""
    setup = RaceSetup(
        track=tracks.load_track("usa"), seed=5,
        cars=(CarEntry("red", "Ana", handicap=2,
                       upgrades=("brakes-1234", "4wd-0-plus3", "turbo-7")),
              CarEntry("blue", "Ben")),
        modules=RaceModules(event="safety-regulations", weather=Weather.SNOW,
                            road={12: Road.LIMIT_PLUS}))
    app.open_session(app.log().new_race(setup))
    return app.controller


def test_upgrade_cards_on_the_keypad_replay_exactly(ui, press) -> None:
    app = ui.app
    controller = _garage_race(app)
    assert controller.state.car("red").engine == 1
    press("gear red 2")
    press("gear blue 2")
    while controller.state.current_car == "blue":
        ui.player.step()
    screen = app.sm.current_screen
    assert controller.view().mode == "reveal"
    assert find_all(screen, "key 0") == [] and find_all(screen, "key 5") == []  # no Starting
    assert find(screen, "key up:brakes-1234").text == "Brakes 1-4"
    press("key up:brakes-1234")
    assert controller.view().mode == "value"
    assert [k for k, _l, on in controller.view().keys if on] == ["1", "2", "3", "4", "back"]
    press("key 3")
    press("key up:4wd-0-plus3")
    assert controller.view().mode == "plus"
    for flip in ("1", "4"):
        press(f"key {flip}")
    assert find(screen, "entry").text == "Brakes 1/2/3/4=3  4 Wheel Drive 0 (+1,4,?)"
    press("key 2")  # the last "+" flip of the last card: the cards go in
    assert controller.error == ""
    reveal = next(a for a in app.session.actions()
                  if getattr(a, "car", "") == "red" and type(a).__name__ == "Reveal")
    assert reveal.cards == (Upgrade("brakes-1234", 3), Upgrade("4wd-0-plus3", None, (1, 4, 2)))
    assert any("speed 10" in m for m in controller.messages)  # 3 + 0 + the three flips
    if controller.view().mode == "react" and controller.state.current_car == "red":
        assert controller.state.car("red").engine == 1  # the Brakes' Heat: paid after Cooldown
        press("react end")
    assert controller.state.car("red").engine == 0  # the Brakes' Heat was paid
    # Next round: the Turbocharger's 2 Heat cannot be paid: React offers to say so, and the
    # keypad asks for a flip.
    while controller.view().mode != "gears":
        ui.player.step()
    press("gear red 2")
    press("gear blue 2")
    while controller.state.current_car != "red":
        ui.player.step()
    press("key up:turbo-7")
    press("key 2")  # the second card: the cards go in
    assert controller.view().mode == "react"
    unpaid = find(screen, "react unpaid")
    assert unpaid.text.startswith("Cannot pay\n") and "Turbocharger 7: 2 Heat" in unpaid.text
    press("react unpaid")
    assert controller.view().mode == "unpaid"
    assert "cannot pay the Heat of 1 card" in find(screen, "prompt").text
    press("key 3")  # the flip for it: the payment goes in
    assert controller.error == "", controller.error
    assert any("speed 5" in m.lower() for m in controller.messages), controller.messages
    while controller.state.round < 2:  # the race file holds complete rounds
        ui.player.step()
    # The exported heat-race/2 file replays to the same state.
    doc = json.loads(json.dumps(app.session.export()))
    assert doc["format"] == "heat-race/2"
    red = [r["red"] for r in doc["rounds"]]
    assert red[0]["cards"] == [{"upgrade": "brakes-1234", "value": 3},
                               {"upgrade": "4wd-0-plus3", "plus": [1, 4, 2]}]
    assert red[1]["cards"][0] == {"upgrade": "turbo-7"}
    assert red[1]["unpaid_after_cooldown"] == [3]
    replayed = list(racefile.replay(racefile.parse(doc)))[-1]
    assert racefile.state_document(replayed) == racefile.state_document(controller.state)


def test_react_offers_accelerate_and_each_slipstream_extra(tmp_path) -> None:
    from companion.session import RaceLog
    from companion.ui.controller import RaceController

    setup = RaceSetup(
        track=tracks.load_track("usa"), seed=2,
        cars=(CarEntry("red", "Ana"),
              CarEntry("blue", "Ben", upgrades=("rpm-1", "gas-2", "4wd-0-accelerate"))))
    with RaceLog(tmp_path / "races.sqlite3") as log:
        c = RaceController(log.new_race(setup))
        c.choose_gear("red", 2)
        c.choose_gear("blue", 2)
        assert c.state.current_car == "red"
        for key in ("1", "2"):
            c.key(key)  # the second card sends them
        if c.state.current_car == "red":
            c.end_turn()
        for key in ("up:rpm-1", "up:4wd-0-accelerate", "2"):
            c.key(key)
        assert c.error == ""
        buttons = {b.key: b.label for b in c.view().react}
        assert buttons["accelerate"] == "Accelerate +1"
        assert buttons["slipstream"] == "Slipstream +2"
        assert buttons["slipstream:2"] == "Slipstream +4"
        assert buttons["direct:gas-2"] == "Play Gas Pedal 2"  # from hand, before Cooldown
        assert c.state.turn is not None
        speed = c.state.turn.speed
        c.react("direct:gas-2")
        assert c.error == "" and c.state.turn is not None and c.state.turn.speed == speed + 2
        assert "direct:gas-2" not in {b.key for b in c.view().react}  # one card, played
        count = len(c.session.actions())
        c.react("accelerate")
        assert c.error == ""
        from companion.engine import Accelerate, EndTurn

        done = c.session.actions()[count:]
        assert done[0] == Accelerate("blue")
        if c.state.turn is not None and c.state.current_car == "blue":
            assert c.state.turn.speed == speed + 2 + 1
        else:  # nothing left to take: the turn ended by itself
            assert done[1:] == (EndTurn("blue"),)


def test_championship_round_draft_and_the_first_pickers_swap() -> None:
    from companion.engine.draft import start_round_draft
    from companion.ui.views.draft_flow import DraftFlow

    done: list[dict[str, tuple[str, ...]]] = []
    draft = start_round_draft(("blue", "red"), seed=9)
    assert len(draft.market) == 2 + 3 and draft.to_pick == "blue"
    flow = DraftFlow(draft, {"red": "Ana", "blue": "Ben"}, done.append,
                     earlier={"blue": ("body-3",), "red": ("rpm-1",)}, swap="blue")
    first, second = draft.market[0], draft.market[1]
    flow.pick(0)
    flow.pick_as("blue", 0)  # not Ben's pick any more
    assert "Ana's pick" in flow.view().error
    flow.pick(0)
    assert flow.mode == "swap" and [c.design for c in flow.view().own] == ["body-3"]
    flow.pick(0)
    assert "First tap" in flow.view().error
    left = flow.draft.market[0]
    flow.choose_own(0)
    flow.pick(0)
    assert flow.mode == "done" and "body-3" in flow.draft.market
    flow.start()
    assert done == [{"blue": (left, first), "red": ("rpm-1", second)}]


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_every_upgrade_card_s_text_fits_its_button_in_the_draft(ui, press,
                                                                language: str) -> None:
    """Every Upgrade design in the draft's market at 800x480: each card's name and symbols
    fit inside its button (the button grows with its text). Found by a table test: in
    English "Air Intake 0" was cut at the top and "Fuel 0" lost its last line."""
    from dataclasses import replace

    from companion.engine.garage import DESIGNS

    app = ui.app
    ui.player.set_up_race()
    press("more options")
    press("garage")
    press("start race")
    assert app.sm.current == "draft"
    app.set_language(language)
    flow = app.draft_flow
    flow.draft = replace(flow.draft, market=tuple(DESIGNS))
    screen = app.sm.current_screen
    screen.refresh()
    ui.pump(3)
    cards = find_all(screen, "card ")
    assert len(cards) == len(DESIGNS)
    for card in cards:
        assert card.texture_size[1] <= card.height, (card.text, card.height)
        assert card.height >= app.tap


def test_the_weather_line_is_one_sentence_in_each_language(ui) -> None:
    """The Next race screen's weather line is written whole in the player's language: zh_TW
    read "天氣：暴風雨. 開賽：…" (an English full stop added in code; found by a table
    test)."""
    from companion.ui.widgets.lookup import find

    app = ui.app
    ui.player.press("championship")
    ui.player.press("season 1964")
    ui.player.press("create season")
    ui.player.press("next race")
    screen = app.sm.current_screen
    try:
        app.set_language("zh_TW")
        screen.refresh()
        text = find(screen, "weather").text
        assert text.startswith("天氣：") and ". " not in text and "。" in text, text
    finally:
        app.set_language("en")
