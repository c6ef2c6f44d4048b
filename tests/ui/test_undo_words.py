"""Undo says what (issue 10, point 6): which input of whose was undone and where the cars it
moved go back to (their rows lit), in the player's language; after Continue, the last ruling is
shown again."""

from __future__ import annotations

from typing import Any

import pytest

from companion.ui.views.race_view import KEYPAD_FAMILY
from companion.ui.widgets.lookup import find

pytestmark = pytest.mark.ui


def _until_a_car_moved(ui) -> None:
    app = ui.app
    for _ in range(80):
        name = ui.player.step()
        state = app.controller.state
        if name == "react end" and any(state.car(c).legend for c in app.controller.moved):
            return  # the End turn moved the Legends after the car
    raise AssertionError("no End turn")


def test_undo_says_whose_input_and_where_the_cars_go_back(ui) -> None:
    from companion.ui.demo.table_shots import start

    app = ui.app
    start(app, ("Maximilianus", "Bartholomew"), 2)
    ui.pump(2)
    _until_a_car_moved(ui)
    ui.player.press("undo")
    screen = app.sm.current_screen
    box = find(screen, "messages")
    shown = box.shown
    assert shown[0].startswith("Undone: the end of ")
    assert shown[0].endswith("'s turn.")
    back = [line for line in shown if " back to space " in line]
    assert back, shown
    assert app.controller.moved
    for car in app.controller.moved:
        row = next(r for r in app.controller.view().order if r.car == car)
        assert find(screen, f"space {car}").lit
        assert any(line.startswith(f"{row.name} back to space {row.space}, ") for line in back)
    from companion import i18n

    app.set_language("ko")
    ui.pump(2)
    undone = i18n._("Undone: {what}.").split("{what}")[0]
    assert undone != "Undone: " and box.shown[0].startswith(undone)
    from companion.ui.views.names import car_label

    legends = [c for c in app.controller.moved if app.controller.state.car(c).legend]
    assert legends
    for car in legends:  # a Legend's name is said in the language shown, not the undo's
        name = car_label(app.controller.state, car)
        assert not name.startswith("Legend ")
        assert any(line.startswith(name) for line in box.shown), (name, box.shown)
    app.set_language("en")


def test_continue_shows_the_last_ruling_again(ui) -> None:
    from companion.ui.demo.table_shots import start

    app = ui.app
    start(app, ("Maximilianus", "Bartholomew"), 2)
    ui.pump(2)
    _until_a_car_moved(ui)
    shown = find(app.sm.current_screen, "messages").shown
    moved = app.controller.moved
    app = ui.restart()  # the power is cut; the app starts again on the same data
    ui.player.press("continue")
    assert app.sm.current == "race"
    ui.pump(2)
    if app.controller.view().mode in KEYPAD_FAMILY:  # what was typed is lost: said after it
        shown = [*shown, "Cards typed before the app stopped are not kept: type them again."]
    assert find(app.sm.current_screen, "messages").shown == shown
    assert app.controller.moved == moved
    for car in moved:
        assert find(app.sm.current_screen, f"space {car}").lit


def test_undo_and_redo_say_what_each_driver_s_cards_are_again(ui) -> None:
    """An undone input that changed a driver's gear, Heat or Stress cards says what they are
    again ("back in gear 1; 6 Heat in the engine of 7; 0 Stress card(s) taken."): the table
    moves those cards back by hand (a spin-out's Stress cards, the Heat paid); a redo says
    them too ("now in gear ..."). Checked against the race order's columns over a whole
    race. Found by a table test: after undoing a spin-out nothing said to give back its
    Stress cards."""
    from companion.ui.demo.table_shots import start
    from companion.ui.views import inputs

    app = ui.app
    start(app, ("Maximilianus", "Bartholomew"), 1)
    ui.pump(2)
    said = kept = 0
    for _ in range(400):
        before = app.controller.state
        if ui.player.step() is None:
            break
        after = app.controller.state
        changed = inputs.cards_changed(before, after)
        if not changed or after.over:
            continue
        ui.player.press("undo")
        undone = app.controller.state
        lines = find(app.sm.current_screen, "messages")._all
        for car in inputs.cards_changed(after, undone):
            row = next(r for r in app.controller.view().order if r.car == car)
            dial = (f"gear {undone.planned[car]} chosen" if car in undone.planned
                    else f"back in gear {row.gear}")
            line = (f"{row.name}: {dial}; {row.engine} Heat in the engine of "
                    f"{row.heat}; {row.stress_taken} Stress card")
            assert any(text.startswith(line) for text in lines), (line, lines)
            said += 1
        for car, gear in undone.planned.items():  # a choice that stands: its dial stays
            if undone.car(car).heat == after.car(car).heat and (
                    undone.car(car).engine == after.car(car).engine):
                name = next(r.name for r in app.controller.view().order if r.car == car)
                assert not any(text.startswith(f"{name}: ") for text in lines), lines
                assert after.car(car).gear == gear  # the round had shifted it
                kept += 1
        ui.player.press("redo")
        assert app.controller.state == after
        lines = find(app.sm.current_screen, "messages")._all
        for car in inputs.cards_changed(undone, after):
            row = next(r for r in app.controller.view().order if r.car == car)
            assert any(text.startswith(f"{row.name}: now in gear {row.gear}; ")
                       for text in lines), lines
    assert said >= 10 and kept >= 5
    assert app.controller.state.over


def test_undoing_a_round_s_last_gear_choice_leaves_the_others_choices_standing(ui) -> None:
    """Gears chosen wait until every driver has chosen, then shift together, a shift of two
    paying 1 Heat (docs/rules.md §1.2). Undoing the last choice takes back that shift: the
    others' choices stand, so their dials do not move. A driver whose Heat comes back hears
    "gear 3 chosen", not "back in gear 1" (found by a table test: it read "back in gear 1"
    while the gear cell showed the gear chosen), and a driver whose dial and Heat are as
    they were hears nothing."""
    from companion.ui.demo.table_shots import start

    app = ui.app
    start(app, ("Ana", "Ben", "Chloé"), 0)
    ui.pump(2)
    car = {row.name: row.car for row in app.controller.view().order}
    first, second, third = car["Ana"], car["Ben"], car["Chloé"]
    ui.player.press(f"gear {first} 3")  # a shift of two: 1 Heat when the gears shift
    ui.player.press(f"gear {second} 2")
    engine = app.controller.state.car(first).engine
    ui.player.press(f"gear {third} 2")  # the last choice: every gear shifts
    assert app.controller.state.car(first).engine == engine - 1
    ui.player.press("undo")
    lines = find(app.sm.current_screen, "messages")._all
    assert lines[0] == "Undone: Chloé's gear 2."
    assert f"Ana: gear 3 chosen; {engine} Heat in the engine of " in "\n".join(lines)
    assert any(line.startswith("Chloé: back in gear 1; ") for line in lines), lines
    assert not any(line.startswith("Ben: ") for line in lines), lines
    ui.player.press("redo")
    lines = find(app.sm.current_screen, "messages")._all
    assert any(line.startswith(f"Ana: now in gear 3; {engine - 1} Heat") for line in lines)
    assert any(line.startswith("Chloé: now in gear 2; ") for line in lines), lines
    assert not any(line.startswith("Ben: ") for line in lines), lines


def test_undo_takes_back_cards_typed_and_not_yet_sent_first(ui) -> None:
    """Undo with a card typed on the keypad took back the input before it (a gear) and
    dropped the typed card unsaid; Redo could not bring it back (found by a table test).
    Undo now takes back the typing, and only that, saying so; the log is untouched; Undo
    again takes back the last recorded input. Undo is enabled by typing alone (the race's
    first reveal). A reveal put back on the keypad by Undo is not "typing": the next Undo
    goes further back."""
    app = ui.app
    ui.player.set_up_race()
    ui.player.press("start race")
    controller = app.controller
    screen = app.sm.current_screen

    def gears_and_one_card() -> None:
        for car in controller.state.humans_to_plan:
            ui.player.press(f"gear {car} 2")
        assert controller.view().mode == "reveal"
        ui.player.press("key 3")  # one of two cards: not sent yet
        assert find(screen, "entry").text == "3"

    gears_and_one_card()
    current = controller.state.current_car
    name = next(r.name for r in controller.view().order if r.car == current)
    logged = list(app.session.actions())
    ui.player.press("undo")
    assert find(screen, "entry").text == ""
    assert find(screen, "messages").shown[0] == (
        f"Undone: the cards typed for {name}, not yet sent (3).")
    assert list(app.session.actions()) == logged  # nothing recorded was taken back
    assert controller.view().mode == "reveal"
    ui.player.press("undo")  # now the last gear choice
    assert list(app.session.actions()) == logged[:-1]
    assert controller.view().mode == "gears"
    # The race's first reveal typed, nothing else recorded: Undo is enabled by the typing.
    while app.session.can_undo:
        ui.player.press("undo")
    gears_and_one_card()
    assert controller.view().can_undo and not find(screen, "undo").disabled
    # A reveal sent, then undone: it is back on the keypad; the next Undo goes further back.
    ui.player.press("key 4")
    sent = list(app.session.actions())
    assert find(screen, "entry").text == ""
    ui.player.press("undo")
    assert find(screen, "entry").text == "3  4"  # the undone reveal, put back
    assert len(app.session.actions()) < len(sent)
    # A card put back taken off, then Undo: the keypad is as Undo left it, and says so
    ui.player.press("key back")
    assert find(screen, "entry").text == "3"
    ui.player.press("undo")
    assert find(screen, "entry").text == "3  4"
    assert find(screen, "messages").shown[0] == (
        f"Undone: the change to {name}'s cards on the keypad; they are 3, 4 again.")
    # The card taken off typed on again (its send refused here, as the engine may): the
    # keypad is as Undo left it, so Undo goes further back, saying no empty "()"
    ui.player.press("key back")
    refused = controller.confirm
    controller.confirm = lambda: controller._changed()
    try:
        ui.player.press("key 4")
    finally:
        controller.confirm = refused
    assert find(screen, "entry").text == "3  4"
    before = len(app.session.actions())
    ui.player.press("undo")
    assert len(app.session.actions()) < before and find(screen, "entry").text == ""
    assert "()" not in find(screen, "messages").shown[0]


BOOST_UNDONE = {
    "en": "Undone: the Boost tapped for Maximilianus, its card not yet entered; Boost is "
          "offered again.",
    "zh_TW": "已復原：為 Maximilianus 點的加速，牌尚未輸入；可以再點加速。",
    "ko": "되돌림: Maximilianus의 부스트 선택 (카드는 아직 입력하지 않음). 부스트를 다시 "
          "선택할 수 있습니다.",
}


def _at_an_open_boost(ui) -> None:
    """A race of Maximilianus and Bartholomeus, at React with Boost offered."""
    from companion.ui.demo.script import next_press
    from companion.ui.demo.table_shots import start

    app = ui.app
    start(app, ("Maximilianus", "Bartholomeus"), 0)
    ui.pump(2)
    controller = app.controller
    for _ in range(80):
        view = controller.view()
        if view.mode == "react" and any(b.key == "boost" and not b.why for b in view.react) and (
                controller.state.current_car == "red"):
            return
        ui.player.press(next_press(controller))
    raise AssertionError("Boost never offered")


def test_undo_at_the_boost_keypad_takes_back_the_boost_tap_first(ui) -> None:
    """Undo at the Boost keypad (Boost tapped, the flipped card not entered) took back the
    car's whole reveal: "Undone: Maximilianus's cards …", the keypad back (found by a table
    test). As with cards typed and not sent, Undo now takes back the Boost tap, and only that,
    saying so: the car is at React again with its Boost still on offer, the log untouched;
    Undo again takes back the reveal."""
    _at_an_open_boost(ui)
    app = ui.app
    controller = app.controller
    screen = app.sm.current_screen
    logged, state = list(app.session.actions()), controller.state
    ui.player.press("react boost")
    assert controller.view().mode == "boost"
    assert controller.view().can_undo and not find(screen, "undo").disabled
    ui.player.press("undo")
    assert list(app.session.actions()) == logged and controller.state == state  # nothing taken
    view = controller.view()
    assert view.mode == "react"
    assert any(b.key == "boost" and not b.why for b in view.react)  # the Boost still to take
    assert [r.text for r in view.rulings] == [BOOST_UNDONE["en"]]
    assert find(screen, "messages").shown[0] == BOOST_UNDONE["en"]
    _said_then_reveal_undone(ui, BOOST_UNDONE, logged)
    assert find(screen, "messages").shown[0].startswith("Undone: Maximilianus's cards")
    ui.player.press("redo")  # what was recorded comes back; the Boost was never recorded
    assert list(app.session.actions()) == logged and controller.view().mode == "react"


def _said_then_reveal_undone(ui: Any, said: dict[str, str], logged: list[Any]) -> None:
    """The pending tap's Undo said in zh_TW and ko as in English; a second Undo then takes
    back the reveal (it is recorded)."""
    app = ui.app
    screen = app.sm.current_screen
    for language in ("zh_TW", "ko"):
        app.set_language(language)
        try:
            ui.pump(2)
            assert find(screen, "messages").shown[0] == said[language]
        finally:
            app.set_language("en")
    ui.player.press("undo")  # now the reveal
    assert len(app.session.actions()) < len(logged)
    assert app.controller.view().mode == "reveal"


UNPAID_UNDONE = {
    "en": "Undone: \"Cannot pay\" tapped for Maximilianus, no flipped card entered yet; it "
          "is offered again.",
    "zh_TW": "已復原：為 Maximilianus 點的「付不起熱度」，尚未輸入翻開的牌；可以再點一次。",
    "ko": "되돌림: Maximilianus의 '열을 낼 수 없음' 선택 (뒤집은 카드는 아직 입력하지 않음). "
          "다시 선택할 수 있습니다.",
}


def test_undo_at_the_cannot_pay_keypad_takes_back_that_tap_first(ui) -> None:
    """The same as the Boost's for React's "Cannot pay" (the keypad of the Basic cards
    flipped for upgrade cards the engine cannot pay): Undo there, nothing typed, took back
    the car's whole reveal. It now takes back the tap, and only that."""
    from companion.ui.demo.react_shots import CHOICES, start, to_react

    app = ui.app
    race = CHOICES["unpaid"][1]
    start(app, race)
    ui.pump(2)
    to_react(app, ui.player, race)
    controller = app.controller
    screen = app.sm.current_screen
    logged, state = list(app.session.actions()), controller.state
    ui.player.press("react unpaid")
    assert controller.view().mode == "unpaid"
    ui.player.press("undo")
    assert list(app.session.actions()) == logged and controller.state == state
    view = controller.view()
    assert view.mode == "react" and "unpaid" in [b.key for b in view.react]
    assert find(screen, "messages").shown[0] == UNPAID_UNDONE["en"]
    _said_then_reveal_undone(ui, UNPAID_UNDONE, logged)
