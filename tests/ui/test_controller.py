"""The Kivy-free controller: keypad, entitled buttons, rejections, sentences, no tap without a
decision (the cards go in with the last one; a React step with nothing to take ends by
itself), what Undo says, and the last ruling shown again after Continue."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from race_forms import race_form

import tracks
from companion import i18n, racefile
from companion.engine import STRESS, EndTurn, Reveal
from companion.session import RaceLog
from companion.ui.controller import RaceController
from companion.ui.demo.script import next_press
from companion.ui.views.keypad import Entry
from companion.ui.views.race_form import RaceForm
from companion.ui.views.words import design_name


def _controller(tmp_path: Path, legends: int = 0, seed: int = 3) -> RaceController:
    form = RaceForm(seed=seed)
    form.first_race()
    form.set_legends(legends)
    log = RaceLog(tmp_path / "races.sqlite3")
    return RaceController(log.new_race(form.setup(tracks.load_track("usa"))))


def press(c: RaceController, name: str) -> None:
    """Do what the button ``name`` does (the scripted table's next press)."""
    kind, _sep, rest = name.partition(" ")
    if kind == "gear":
        car, gear = rest.split()
        c.choose_gear(car, int(gear))
    elif kind == "key":
        if c.view().mode == "boost":
            c.boost_value(int(rest))
        else:
            c.key(rest)
    elif kind == "react":
        c.react(rest)
    elif name == "run round":
        c.run_round()
    else:
        raise AssertionError(name)


def test_keypad_stress_prompts_for_flip_back_and_the_last_card_sends_them(tmp_path) -> None:
    c = _controller(tmp_path)
    for car in ("red", "blue"):
        c.choose_gear(car, 2)
    view = c.view()
    assert view.mode == "reveal" and not view.can_confirm
    assert "confirm" not in [k[0] for k in view.keys]  # no Move key: the count says it
    first = c.state.current_car
    c.key("stress")
    assert c.view().mode == "flip"
    assert [k[0] for k in c.view().keys] == [k[0] for k in view.keys]  # keys stay in place
    c.key("3")
    assert c.entry == ((STRESS,), (3,))
    c.key("back")
    assert c.entry == ((STRESS,), ())
    c.key("2")
    before = len(c.session.actions())
    c.key("1")  # the second card of gear 2: the cards go in at once
    assert c.error == ""
    assert isinstance(c.session.actions()[before], Reveal)
    assert c.session.actions()[before] == Reveal(first, (STRESS, 1), (2,))
    assert any("speed 3" in m for m in c.messages)
    assert c.view().mode in ("react", "reveal")


def test_a_key_that_cannot_be_typed_says_why(tmp_path) -> None:
    c = _controller(tmp_path)
    for car in ("red", "blue"):
        c.choose_gear(car, 1)
    c.key("stress")  # gear 1: a Stress card, then its flip
    view = c.view()
    assert view.mode == "flip"
    stress = next(k for k in view.keys if k[0] == "stress")
    assert stress[2] is False and "flipped" in view.why("stress")
    assert view.why("2") == ""  # enabled keys give no reason
    c.key("back")
    assert "No card entered" in c.view().why("back")


KEYPAD_COUNTS = {
    "en": ("is in gear 1: enter the 1 card revealed.",
           "In gear 1 a car reveals 1 card; no more can be entered. Tap < to change one.",
           "1 of 1 flipped card entered: no more are needed. Tap < to change one."),
    "zh_TW": ("在 1 檔：輸入翻開的 1 張牌。", "1 檔要翻開 1 張牌，1 張都已輸入。點 < 可修改一張。",
              "1 張翻出的牌都已輸入。點 < 可修改一張。"),
    "ko": ("1단 기어. 공개한 카드 1장을 입력하세요.",
           "1단 기어에서는 카드 1장을 공개하며, 1장을 모두 입력했습니다. 바꾸려면 <를 누르세요.",
           "뒤집은 카드 1장을 모두 입력했습니다. 바꾸려면 <를 누르세요."),
}


@pytest.mark.parametrize("language", sorted(KEYPAD_COUNTS))
def test_the_keypad_says_one_card_in_gear_1(tmp_path, language: str) -> None:
    """In gear 1 the keypad asked to "enter the 1 cards revealed", and a full keypad's key
    said "reveals 1 cards, and 1 are entered" (found by a table test): one card in words."""
    c = _controller(tmp_path)
    for car in ("red", "blue"):
        c.choose_gear(car, 1)
    i18n.set_language(language)
    try:
        prompt, full, flipped = KEYPAD_COUNTS[language]
        assert c.view().prompt.endswith(prompt), c.view().prompt
        car = c.state.car(c.state.current_car or "")
        assert Entry(["1"]).why_not("2", car) == full
        assert Entry(unpaid_needed=1, unpaid=[2]).why_not("3", car) == flipped
    finally:
        i18n.set_language("en")


SPENT = {
    "en": ("Every card of value 1 (a deck has 3) is in play this turn already.",
           "Every card of value 5 (a deck has 1) is in play this turn already."),
    "zh_TW": ("數值 1 的牌（牌庫中共 3 張）這回合都已出現。",
              "數值 5 的牌（牌庫中共 1 張）這回合都已出現。"),
    "ko": ("값 1 카드(덱에 3장)가 이번 턴에 모두 나왔습니다.",
           "값 5 카드(덱에 1장)가 이번 턴에 모두 나왔습니다."),
}


@pytest.mark.parametrize("language", sorted(SPENT))
def test_a_basic_value_s_key_is_greyed_once_every_copy_is_typed(tmp_path,
                                                                language: str) -> None:
    """A deck holds three of each value 1-4 and one 0 and one 5 (docs/rules.md §0): a fourth 1
    could be typed and was only then refused (found by a table test). Its key is greyed once
    every copy is in play (cards, flips for Stress, "+" and unpaid cards, and the turn's cards
    when the flips of cards left unpaid after Cooldown are asked), and says why."""
    c = _controller(tmp_path)
    car = replace(c.state.car("red"), gear=4)
    i18n.set_language(language)
    try:
        ones, five = SPENT[language]
        three = Entry(["1", "stress", "1", "1"])  # a flip for Stress counts as well
        assert not three.allowed("1", car) and three.why_not("1", car) == ones
        assert three.allowed("2", car) and three.why_not("2", car) == ""
        three.press("1", car)
        assert three.keys == ["1", "stress", "1", "1"]  # not typed
        assert Entry(["5"]).why_not("5", car) == five  # Starting Upgrades: one 5
        assert Entry(["1", "1"]).why_not("1", car) == ""  # the third 1 may be typed
        unpaid = Entry(unpaid_needed=1)
        assert unpaid.why_not("1", car, (1, 1, 1)) == ones and unpaid.allowed("2", car, (1,))
        garage = replace(car, upgrades=("brakes-1234", "body-3", "rpm-1"))
        choosing = Entry(["1", "1", "1", "up:brakes-1234"])  # its value is no Basic card
        assert choosing.allowed("1", garage) and choosing.why_not("1", garage) == ""
    finally:
        i18n.set_language("en")


SPONSORS_IN = {
    "en": ("Maximilianus holds 2 Sponsorship cards: 2 of 2 entered. Tap < to change one.",
           "Maximilianus holds 1 Sponsorship card: 1 of 1 entered. Tap < to change one."),
    "zh_TW": ("Maximilianus 持有 2 張贊助卡，2 張都已輸入。點 < 可修改一張。",
              "Maximilianus 持有 1 張贊助卡，1 張都已輸入。點 < 可修改一張。"),
    "ko": ("Maximilianus의 스폰서 카드는 2장이며, 2장을 모두 입력했습니다. 바꾸려면 <를 "
           "누르세요.",
           "Maximilianus의 스폰서 카드는 1장이며, 1장을 모두 입력했습니다. 바꾸려면 <를 "
           "누르세요."),
}


@pytest.mark.parametrize("language", sorted(SPONSORS_IN))
def test_a_sponsorship_key_greyed_by_the_count_says_the_count(tmp_path,
                                                              language: str) -> None:
    """A car holds Sponsorship cards, not designs: with its 2 entered (Sponsor 5 and Sponsor
    0), every Sponsorship key is greyed, and Sponsor 3 said "Every Sponsorship 3 card this car
    has is already entered." though the car never had one (found by a table test). The reason
    says the count held and entered, "1 card" / "2 cards", in the player's language; an
    upgrade card's key keeps its own reason."""
    c = _controller(tmp_path)
    car = replace(c.state.car("red"), name="Maximilianus", gear=4, sponsor_cards=2,
                  upgrades=("body-3",))
    i18n.set_language(language)
    try:
        two, one = SPONSORS_IN[language]
        both = Entry(["up:sponsor-eole", "up:sponsor-mercury"])
        for design in ("sponsor-deangeli", "sponsor-eole", "sponsor-dramdo"):
            assert not both.allowed(f"up:{design}", car)
            assert both.why_not(f"up:{design}", car) == two, design
        single = replace(car, sponsor_cards=1)
        assert Entry(["up:sponsor-lord"]).why_not("up:sponsor-deangeli", single) == one
        assert Entry(["up:sponsor-lord"]).why_not("up:sponsor-lord", single) == one
        body = Entry(["up:body-3"]).why_not("up:body-3", car)  # one upgrade card of it
        assert body == i18n._("Every {card} card this car has is already entered.").format(
            card=design_name("body-3")), body
    finally:
        i18n.set_language("en")


def test_react_offers_only_what_the_car_is_entitled_to(tmp_path) -> None:
    c = _controller(tmp_path)
    c.choose_gear("red", 1)
    c.choose_gear("blue", 1)
    first = c.state.current_car
    c.key("1")
    keys = [b.key for b in c.view().react]
    assert keys[-1] == "end" and len(keys) > 1
    assert "adrenaline" not in keys  # the leader is not the last car
    c.end_turn()
    assert any("to space" in m for m in c.messages)
    second = c.state.current_car
    assert second != first
    c.key("1")
    assert "adrenaline" in [b.key for b in c.view().react]


def test_rejection_changes_nothing_and_says_why(tmp_path) -> None:
    c = _controller(tmp_path)
    before = c.state
    c.choose_gear("red", 4)
    assert c.state is before
    assert "two gears" in c.error


def test_a_rejected_reveal_stays_on_the_keypad(tmp_path) -> None:
    c = _controller(tmp_path)
    c.choose_gear("red", 4 - 2)
    c.choose_gear("blue", 2)
    car = c.state.current_car
    c.key("0")
    before = c.state
    assert "value 0" in c.view().why("0")  # a deck has one 0: its key is greyed now
    c._entry.keys.append("0")  # typed all the same (as before its key was greyed) and sent
    c.confirm()  # the engine refuses, the cards stay to be fixed
    assert c.state is before and c.error
    assert c.entry == ((0, 0), ())
    assert c.state.current_car == car


def _play_until(c: RaceController, found, limit: int = 400) -> str:
    for _ in range(limit):
        name = next_press(c)
        assert name is not None, "the race ended first"
        count = len(c.session.actions())
        press(c, name)
        assert c.error == "", (name, c.error)
        if found(c, count, name):
            return name
    raise AssertionError("not found")


def _ended_by_itself(c: RaceController, count: int, name: str) -> bool:
    new = c.session.actions()[count:]
    return len(new) == 2 and isinstance(new[1], EndTurn) and name.startswith("key")


def test_a_react_step_with_nothing_to_take_ends_by_itself_and_undo_takes_both_back(
        tmp_path) -> None:
    c = _controller(tmp_path, legends=2)
    _play_until(c, _ended_by_itself)
    reveal, end = c.session.actions()[-2:]
    assert isinstance(reveal, Reveal) and isinstance(end, EndTurn)
    after = racefile.state_document(c.state)
    moved = set(c.moved)
    assert reveal.car in moved
    # One Undo takes back the table's decision (the cards) and the End turn it caused.
    assert c.undo()
    assert c.state.current_car == reveal.car and c.view().mode == "reveal"
    said = c.messages
    assert said[0].startswith("Undone: the end of") and said[1].startswith("Undone: ")
    assert "'s cards" in said[1]
    assert any("back to space" in line for line in said)
    assert reveal.car in c.moved
    # ...and puts the cards back on the keypad: fix the last one and they go in again.
    cards, flips = c.entry
    assert (cards, flips) == (reveal.cards, reveal.stress)
    last = str(reveal.cards[-1]) if reveal.cards[-1] != STRESS else str(reveal.stress[-1])
    c.key("back")
    c.key(last)
    assert racefile.state_document(c.state) == after
    # Redo brings back both as one step, and says so.
    assert c.undo()
    assert c.redo()
    assert racefile.state_document(c.state) == after
    assert c.messages[0].startswith("Redone: ")


def test_a_tap_and_the_end_turn_it_causes_are_one_transaction(
        tmp_path, monkeypatch, transactions) -> None:
    """The cards that end a turn by themselves and that End turn are one durable transaction
    (a pulled plug keeps both or neither); so is the Undo that takes both back. A write that
    fails records neither, changes nothing and keeps what was typed; Retry records it."""
    from companion.storage import DiskFullError, StorageError
    from companion.storage.db import EventLog

    c = _controller(tmp_path, legends=2)
    log = c.session._log  # type: ignore[attr-defined]

    def kinds() -> list[str]:
        return [row.kind for row in log.events(c.session.race_id)]  # type: ignore[attr-defined]

    for _ in range(400):
        name = next_press(c)
        assert name is not None, "the race ended first"
        count, before = len(c.session.actions()), len(transactions)
        press(c, name)
        if _ended_by_itself(c, count, name):
            break
    else:
        raise AssertionError("no turn ended by itself")
    assert len(transactions) - before == 1  # the cards and the End turn: one transaction
    logged = kinds()
    assert logged[-2:] == ["input", "input"]
    after = racefile.state_document(c.state)
    before = len(transactions)
    assert c.undo()
    assert len(transactions) - before == 1 and kinds()[-2:] == ["undo", "undo"]
    undone, typed = c.state, c.entry
    # The disk is full: the last card typed again is recorded neither with its End turn...
    c.on_fault = lambda error: isinstance(error, StorageError)

    def full(*_args: object, **_kwargs: object) -> None:
        raise DiskFullError(path=str(tmp_path / "races.sqlite3"), detail="disk full")

    append_many = EventLog.append_many
    monkeypatch.setattr(EventLog, "append_many", full)
    reveal_cards = typed[0]
    last = str(reveal_cards[-1]) if reveal_cards[-1] != STRESS else str(typed[1][-1])
    c.key("back")
    c.key(last)
    assert c.state is undone and c.entry == typed  # nothing changed; the keypad keeps it
    assert c.error.startswith("Not recorded") and kinds() == [*logged, "undo", "undo"]
    monkeypatch.setattr(EventLog, "append_many", append_many)  # ...until there is room
    before = len(transactions)
    assert c.retry() is True  # both at once
    assert len(transactions) - before == 1 and kinds()[-2:] == ["input", "input"]
    assert racefile.state_document(c.state) == after and c.error == ""


def test_undo_never_stops_at_a_step_with_nothing_to_decide(tmp_path) -> None:
    c = _controller(tmp_path, legends=2)
    for _ in range(150):
        name = next_press(c)
        if name is None:
            break
        press(c, name)
        view = c.view()
        assert not (view.mode == "react" and [b.key for b in view.react] == ["end"]), name
    while c.session.can_undo:
        c.undo()
        view = c.view()
        assert not (view.mode == "react" and [b.key for b in view.react] == ["end"])


def test_undo_of_a_gear_says_whose_gear(tmp_path) -> None:
    c = _controller(tmp_path)
    c.choose_gear("red", 2)
    assert c.undo()
    assert c.messages == ["Undone: Red's gear 2."]
    assert not c.undo()
    assert c.error == "Nothing to undo."


def test_continue_shows_the_last_ruling_again(tmp_path) -> None:
    c = _controller(tmp_path, legends=2)
    _play_until(c, lambda c, count, name: name == "react end")
    shown = c.messages
    assert shown
    # The app is killed; a new controller opens the same race from the log.
    path = tmp_path / "races.sqlite3"
    race_id = c.session.race_id
    again = RaceController(RaceLog(path).open_race(race_id))
    assert again.messages == shown
    assert again.moved  # the cars to place are lit again


def test_a_spin_out_s_sentences_are_marked_to_be_kept(tmp_path, monkeypatch) -> None:
    """The ruling box keeps a spin-out's sentence however many follow it (in a Legends round
    eight Legend sentences can follow a driver's spin-out): the controller marks exactly the
    spin-out's sentences. A table that plays as fast as its cards allow spins out."""
    from companion.ui.demo import script

    monkeypatch.setattr(script, "target_speed", lambda state, car_id: 16)
    c = _controller(tmp_path, legends=3)
    spun = followed = 0
    for _ in range(200):
        name = next_press(c)
        if name is None:
            break
        press(c, name)
        assert not c.error
        kinds = [o.kind for o in c.session.last_outcomes]
        kept = [r.text for r in c.rulings if r.spinout]
        assert len(kept) == kinds.count("spinout") + kinds.count("eliminated")
        assert all(" spins out " in text for text in kept), kept
        shorts = [r.short for r in c.rulings if r.short]  # each spin-out's one short line
        assert len(shorts) == kinds.count("spinout")
        assert all(" spins out to space " in s and s.endswith("1st gear.") for s in shorts)
        spun += len(kept)
        legends = [i for i, r in enumerate(c.rulings) if r.car and c.state.car(r.car).legend]
        first = next((i for i, r in enumerate(c.rulings) if r.spinout), None)
        followed += first is not None and any(i > first for i in legends)
    assert spun >= 3 and followed >= 1  # a spin-out with Legends' sentences after it


def _four_drivers_and_two_legends(tmp_path: Path) -> tuple[RaceLog, RaceController]:
    """A race at USA of Ana, Ben, Cleo and Dan and two Legends, logged in ``tmp_path``."""

    form = race_form(("Ana", "Ben", "Cleo", "Dan"), legends=2, seed=5)
    log = RaceLog(tmp_path / "races.sqlite3")
    return log, RaceController(log.new_race(form.setup(tracks.load_track("usa"))))


def _presses(c: RaceController, limit: int = 400) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """The scripted table's presses one by one (at most ``limit``), each with the inputs it
    recorded (none for a key typed)."""
    for _ in range(limit):
        name = next_press(c)
        if name is None:
            return
        count = len(c.session.actions())
        press(c, name)
        yield name, c.session.actions()[count:]


def test_continue_and_redo_say_what_the_decision_did_as_it_was_said(tmp_path) -> None:
    """After any input of a whole race (4 drivers, 2 Legends), a Continue (a new controller
    on the same log: the app killed and started again) shows the very sentences the table
    was shown and lights the same cars; and an Undo then a Redo brings those sentences back
    after "Redone: ...". Found by a table test: when the app ended a turn by itself after the
    table's last React choice (a Slipstream), Continue showed the End turn's sentences only,
    the Slipstream's lost; and a redone spin-out or Legends' card was not said."""
    log, c = _four_drivers_and_two_legends(tmp_path)
    auto_ended = redone = 0
    for name, new in _presses(c):
        assert c.error == "", (name, c.error)
        if not new:
            continue  # a key typed, nothing sent
        auto_ended += len(new) == 2 and isinstance(new[1], EndTurn) and name.startswith(
            "react")
        shown, lit = c.messages, c.moved
        again = RaceController(log.open_race(c.session.race_id))
        assert again.messages == shown, name
        assert again.moved == lit, name
        if redone < 60 and not c.state.over:
            c.undo()
            assert c.redo()
            headlines = [m for m in c.messages if m.startswith("Redone: ")]
            assert c.messages[len(headlines):len(headlines) + len(shown)] == shown, name
            redone += 1
    assert c.state.over
    assert auto_ended >= 3  # a React choice the app's End turn followed (else: proves little)


def test_continue_after_an_undo_or_a_redo_says_it_again(tmp_path) -> None:
    """The app stopped right after an Undo (or a Redo) and started again: Continue shows that
    Undo's words (what it took back, where the cars go back to, the cards given back) with
    the same cars lit and the keypad as Undo left it (an undone reveal back on it). Found by
    a table test: Continue showed the ruling of the input before the undone one ("Ana is
    ready."), and nothing said where the spun-out car goes back to. Two Undos in a row say
    the second; a Redo says the Redo's words."""
    log, c = _four_drivers_and_two_legends(tmp_path)

    def continued_as_shown(what: str) -> None:
        shown, lit, entry = c.messages, c.moved, c.entry
        again = RaceController(log.open_race(c.session.race_id))
        assert again.messages == shown, (what, again.messages, shown)
        assert again.moved == lit, what
        assert again.entry == entry, what

    checked = twice = reveals = 0
    for name, new in _presses(c):
        if not new or c.state.over or checked >= 40:
            continue
        assert c.undo()
        assert c.messages[0].startswith("Undone: "), c.messages
        reveals += bool(c.entry[0])  # an undone reveal: its cards back on the keypad
        continued_as_shown(f"undo of {name}")
        if checked % 8 == 7 and c.session.can_undo:  # Undo again: the second is said
            assert c.undo()
            continued_as_shown(f"second undo after {name}")
            assert c.redo()
            twice += 1
        assert c.redo()
        assert c.messages[0].startswith("Redone: "), c.messages
        continued_as_shown(f"redo of {name}")
        checked += 1
    assert checked == 40 and twice >= 4 and reveals >= 3
