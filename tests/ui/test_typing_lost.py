"""Cards typed on the keypad and not yet sent are not an input: a stopped app loses them
(README, "a pulled plug loses them"; by decision, not kept durably). After Continue the race
said nothing of it: the keypad stood empty under the last ruling, and a driver who had typed
a hand before the cut could take it for sent. Continue at a car's card keypad now says so in
the ruling box, in the table's language; not after an Undo or Menu and Continue (the app did
not stop: nothing typed is lost), nor at another prompt. When the app stopped after an Undo,
Continue says the Undo again, its cards back on the keypad as the Undo left them, and then
that what was typed after the Undo is not kept (a table test: Undo put '0 1 1 1' back, the
driver changed it to '0 1 1', and after a power cut the old hand stood one key from being
sent with no word)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.ui.demo.table_shots import start
from companion.ui.widgets.lookup import find

pytestmark = pytest.mark.ui

LOST = {"en": "Cards typed before the app stopped are not kept: type them again.",
        "zh_TW": "程式停止前輸入的牌沒有保留：請重新輸入。",
        "ko": "앱이 멈추기 전에 입력한 카드는 저장되지 않습니다: 다시 입력하세요."}


def _until(ui, mode: str) -> None:
    for _ in range(60):
        if ui.app.controller.view().mode == mode:
            return
        ui.player.step()
    raise AssertionError(f"never at the {mode} prompt")


def _said(app) -> list[str]:
    return [ruling.text for ruling in app.controller.view().rulings]


def _whole_in_every_language(ui: Any, sentences: dict[str, str]) -> None:
    """Each language's sentence whole in the race screen's ruling box."""
    app = ui.app
    box = find(app.sm.current_screen, "messages")
    try:
        for language, sentence in sentences.items():
            app.set_language(language)
            ui.pump(3)
            assert sentence in box.shown, (language, box.shown)  # whole, in the box
    finally:
        app.set_language("en")


def test_continue_at_the_card_keypad_says_typed_cards_are_lost(ui) -> None:
    app = ui.app
    start(app, ("Maximilianus", "Bartholomew"), 1)
    ui.pump(2)
    _until(ui, "reveal")
    ui.player.press("key 1")
    assert app.controller.entry[0]
    said = _said(app)
    assert LOST["en"] not in said
    app = ui.restart()  # the power is cut; the app starts again on the same data
    ui.player.press("continue")
    ui.pump(2)
    assert app.sm.current == "race" and app.controller.view().mode == "reveal"
    assert not app.controller.entry[0]  # what was typed is gone
    assert _said(app) == [*said, LOST["en"]]  # the last ruling again, then the sentence
    _whole_in_every_language(ui, LOST)
    ui.player.press("key 1")
    ui.player.press("key back")
    assert LOST["en"] in _said(app)  # typing says nothing new
    ui.player.play_to_end()
    assert app.session.state.over


@pytest.mark.parametrize("mode", ["gears", "react"])
def test_continue_at_another_prompt_says_nothing_of_typed_cards(ui, mode: str) -> None:
    app = ui.app
    start(app, ("Maximilianus", "Bartholomew"), 1)
    ui.pump(2)
    ui.player.step()  # past the first gears
    _until(ui, mode)
    said = _said(app)
    app = ui.restart()
    ui.player.press("continue")
    ui.pump(2)
    view = app.controller.view()
    assert view.mode == mode
    boost = any(b.key == "boost" and not b.why for b in view.react)  # (its own sentence)
    assert _said(app) == [*said, *([BOOST_LOST["en"]] if boost else [])]
    assert LOST["en"] not in _said(app)


def test_undo_and_menu_continue_say_nothing_of_typed_cards(ui) -> None:
    app = ui.app
    start(app, ("Maximilianus", "Bartholomew"), 1)
    ui.pump(2)
    _until(ui, "reveal")
    ui.player.press("key 1")
    ui.player.press("menu")
    ui.player.press("continue")  # the app did not stop: what was typed is still there
    assert app.controller.entry[0]
    assert LOST["en"] not in _said(app)
    ui.player.press("undo")  # the typing
    ui.player.press("undo")  # the input before it
    assert LOST["en"] not in _said(app)
    _until(ui, "reveal")
    assert LOST["en"] not in _said(app)


UNDONE = {"en": ("Cards typed after the Undo before the app stopped are not kept: "
                  "the keypad shows the cards as the Undo left them."),
          "zh_TW": "復原後、程式停止前輸入的牌沒有保留：鍵盤上是復原留下的牌。",
          "ko": ("되돌리기 후 앱이 멈추기 전에 입력한 카드는 저장되지 않습니다: "
                 "키패드에는 되돌리기가 남긴 카드가 있습니다.")}


def _undo_a_reveal(ui) -> None:
    from companion.engine import Reveal

    app = ui.app
    start(app, ("Maximilianus", "Bartholomew"), 1)
    ui.pump(2)
    for _ in range(60):
        before = app.session.actions()
        ui.player.step()
        if any(isinstance(a, Reveal) for a in app.session.actions()[len(before):]):
            break
    ui.player.press("undo")  # the reveal back on the keypad


def test_continue_right_after_an_undo_says_the_undo_and_that_later_typing_is_lost(ui) -> None:
    _undo_a_reveal(ui)
    app = ui.app
    typed, said = app.controller.entry, _said(app)
    assert typed[0] and app.controller.view().mode == "reveal"
    assert UNDONE["en"] not in said and LOST["en"] not in said
    app = ui.restart()
    ui.player.press("continue")
    ui.pump(2)
    assert app.controller.entry == typed
    assert _said(app) == [*said, UNDONE["en"]]  # the Undo's words again, then the sentence


def test_continue_after_an_undo_and_a_changed_hand_says_the_change_is_lost(ui) -> None:
    """The table test: Undo puts '0 1 1 1' back, the driver changes it to '0 1 1', the power
    is cut; Continue shows '0 1 1 1' again, one key from being sent, and must say so."""
    _undo_a_reveal(ui)
    app = ui.app
    typed, said = app.controller.entry, _said(app)
    assert len(typed[0]) >= 2, typed
    ui.player.press("key back")
    ui.player.press("key back")
    digit = next(key for key, _label, live in app.controller.view().keys
                 if live and key.isdigit())
    ui.player.press(f"key {digit}")
    assert app.controller.entry != typed
    app = ui.restart()
    ui.player.press("continue")
    ui.pump(2)
    assert app.controller.entry == typed  # the hand as the Undo left it, not as changed
    assert _said(app) == [*said, UNDONE["en"]]
    _whole_in_every_language(ui, UNDONE)
    ui.player.press("key back")
    assert UNDONE["en"] in _said(app)  # typing says nothing new


BOOST_LOST = {
    "en": ("A Boost tapped before the app stopped was not entered: if a card was flipped for "
           "it, tap Boost and enter that card."),
    "zh_TW": "程式停止前點的加速沒有輸入：如果已為它翻開一張牌，請點加速並輸入那張牌。",
    "ko": ("앱이 멈추기 전에 선택한 부스트는 입력되지 않았습니다: 부스트를 위해 카드를 "
           "뒤집었다면 부스트를 누르고 그 카드를 입력하세요."),
}


def _until_boost_offered(ui) -> None:
    app = ui.app
    for _ in range(60):
        view = app.controller.view()
        if view.mode == "react" and any(b.key == "boost" and not b.why for b in view.react):
            return
        ui.player.step()
    raise AssertionError("Boost never offered")


def test_continue_after_a_stop_at_the_boost_keypad_says_the_boost_was_not_entered(ui) -> None:
    """The Boost keypad is not an input (nothing is recorded until the flipped card is
    entered): a power cut there came back at React, Boost on offer again, with no word,
    though the table had flipped a card for it (found by a table test). Continue at React
    with Boost on offer now says so, as it does for cards typed on the keypad, in the
    table's language; the Boost is taken as before."""
    app = ui.app
    start(app, ("Maximilianus", "Bartholomew"), 1)
    ui.pump(2)
    _until_boost_offered(ui)
    ui.player.press("react boost")
    assert app.controller.view().mode == "boost"
    said = _said(app)
    assert BOOST_LOST["en"] not in said
    app = ui.restart()
    ui.player.press("continue")
    ui.pump(2)
    assert app.sm.current == "race" and app.controller.view().mode == "react"
    assert _said(app) == [*said, BOOST_LOST["en"]]  # the last ruling again, then the sentence
    assert LOST["en"] not in _said(app)
    _whole_in_every_language(ui, BOOST_LOST)
    ui.player.press("react boost")
    assert app.controller.view().mode == "boost"
    ui.player.play_to_end()
    assert app.session.state.over


def test_continue_at_react_with_no_boost_on_offer_says_nothing_of_a_boost(ui) -> None:
    """At React with no Boost on offer (taken this turn, or no Heat to pay for it), there is
    no Boost to have lost: Continue says nothing of one."""
    app = ui.app
    start(app, ("Maximilianus", "Bartholomew"), 1)
    ui.pump(2)
    for _ in range(400):
        view = app.controller.view()
        if view.mode == "react" and not any(b.key == "boost" and not b.why
                                            for b in view.react):
            break
        ui.player.step()
    else:
        raise AssertionError("never at React without a Boost on offer")
    said = _said(app)
    app = ui.restart()
    ui.player.press("continue")
    ui.pump(2)
    assert app.controller.view().mode == "react"
    assert _said(app) == said


UNPAID_LOST = {
    "en": ("A \"Cannot pay\" tapped before the app stopped was not entered: if cards were "
           "flipped for it, tap \"Cannot pay\" and enter those cards."),
    "zh_TW": ("程式停止前點的「付不起熱度」沒有輸入：如果已為它翻開牌，請點「付不起熱度」"
              "並輸入那些牌。"),
    "ko": ("앱이 멈추기 전에 누른 \"열을 낼 수 없음\" 선택은 입력되지 않았습니다: 이를 위해 카드를 "
           "뒤집었다면 \"열을 낼 수 없음\" 버튼을 누르고 그 카드를 입력하세요."),
}


def test_continue_after_a_stop_at_the_cannot_pay_keypad_says_it_was_not_entered(ui) -> None:
    """React's "Cannot pay" keypad (a Basic card flipped for each card the engine cannot pay)
    is no input either, as the Boost keypad is not: a power cut there came back at React,
    "Cannot pay" on offer again, with no word, though the table had flipped cards for it
    (found by a table test; the Boost keypad said so). Continue at React with "Cannot pay" on
    offer now says so, in the table's language, whole in the ruling box; the choice is taken
    as before, and the next input takes the sentence away."""
    from companion.ui.demo.react_shots import CHOICES, to_react
    from companion.ui.demo.react_shots import start as start_race

    app = ui.app
    race = CHOICES["unpaid"][1]
    start_race(app, race)
    ui.pump(2)
    to_react(app, ui.player, race)
    view = app.controller.view()
    assert view.mode == "react" and any(b.key == "unpaid" and not b.why for b in view.react)
    ui.player.press("react unpaid")
    assert app.controller.view().mode == "unpaid"
    said = _said(app)
    assert UNPAID_LOST["en"] not in said
    app = ui.restart()
    ui.player.press("continue")
    ui.pump(2)
    assert app.sm.current == "race" and app.controller.view().mode == "react"
    assert _said(app) == [*said, UNPAID_LOST["en"]]  # the last ruling again, then the sentence
    assert LOST["en"] not in _said(app) and BOOST_LOST["en"] not in _said(app)
    _whole_in_every_language(ui, UNPAID_LOST)
    ui.player.press("react unpaid")
    assert app.controller.view().mode == "unpaid"
    ui.player.press("key 2")  # the flipped card: the Heat left unpaid
    assert not any(b.key == "unpaid" for b in app.controller.view().react)
    assert UNPAID_LOST["en"] not in _said(app)  # gone with the next input
