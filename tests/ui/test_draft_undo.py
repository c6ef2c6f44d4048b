"""The Garage draft's Undo, and what a draft under way locks on Next race.

* Undo on the draft screen takes back the last pick (or the swap, or No swap), in one tap,
  saying what it took back; it is an input of the draft's log like a pick, so a restart finds
  the draft where the undo left it. The table's Undo button does the same on the draft screen.
* Once a pick of a season's draft is recorded, Next race's deck (and the mechanics' choices),
  which the draft was dealt from, are locked: changing them dealt a new market and threw the
  picks away without a word (found by a table test). A tap on the greyed deck says why.
"""

from __future__ import annotations

from typing import Any

import pytest
from season_play import create_season

from companion import i18n
from companion.championship import parse_season
from companion.engine import CarEntry
from companion.engine.draft import start_round_draft
from companion.ui.views.draft_flow import DraftFlow
from companion.ui.widgets.basic import current_hint
from companion.ui.widgets.lookup import find, find_all

pytestmark = pytest.mark.ui

NAMES = ("Maximilianus", "Bartholomeus")
LANGUAGES = ["en", "zh_TW", "ko"]
DECK_WHY = ("The deck is locked: a pick of this draft is recorded. Undo every pick on the "
            "Garage draft screen to change it.")


def _tap(widget: Any) -> None:
    from kivy.tests.common import UnitTestTouch

    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def _cards(app: Any) -> list[str]:
    return [w.text for w in find_all(app.sm.current_screen, "card ")]


def _hands(app: Any) -> dict[str, str]:
    return {car: text for car, text in app.draft_flow.view().hands}


def _season_draft(ui: Any) -> Any:
    """A 1961 season of two drivers, Next race, its Garage draft: the flow."""
    create_season(ui, "1961", NAMES)
    ui.player.press("next race")
    ui.player.press("draft")
    assert ui.app.sm.current == "draft"
    return ui.app.draft_flow


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_deck_is_locked_once_a_pick_is_made(ui, language: str) -> None:
    """Back to Next race after a pick: the deck is greyed and a tap says why, in the player's
    language; Garage draft again takes the same draft up, the pick kept. Undone, the pick no
    longer locks the deck."""
    app = ui.app
    flow = _season_draft(ui)
    draft_id, market = flow.stored, flow.draft.market
    ui.player.press("back")
    assert not find(app.sm.current_screen, "garage deck").disabled  # no pick yet: it may change
    ui.player.press("draft")
    ui.player.press("card 0")
    picked = dict(app.draft_flow.cards())
    app.set_language(language)
    ui.player.press("back")
    assert app.sm.current == "nextrace"
    deck = find(app.sm.current_screen, "garage deck")
    label = deck.text
    assert deck.disabled and deck.opacity == 1
    assert deck.why_disabled == i18n._(DECK_WHY)
    assert language == "en" or deck.why_disabled != DECK_WHY  # translated
    ui.pump(2)
    _tap(deck)
    ui.pump(2)
    hint = current_hint()
    assert hint is not None and hint.text == deck.why_disabled
    assert find(app.sm.current_screen, "garage deck").text == label  # nothing changed
    ui.player.press("draft")
    assert app.draft_flow.stored == draft_id and app.draft_flow.cards() == picked
    ui.player.press("undo")
    assert app.draft_flow.draft.market == market
    ui.player.press("back")
    assert not find(app.sm.current_screen, "garage deck").disabled  # nothing to lose now


def test_the_deck_stays_locked_after_a_restart(ui) -> None:
    """The lock comes from the log: after a restart, Standings > Next race shows the deck
    locked too."""
    app = ui.app
    flow = _season_draft(ui)
    season_id, draft_id = app.season_id, flow.stored
    ui.player.press("card 0")
    app = ui.restart()
    app.season_id = season_id
    app.show("standings")
    ui.player.press("next race")
    assert find(app.sm.current_screen, "garage deck").disabled
    ui.player.press("draft")
    assert app.draft_flow.stored == draft_id and app.draft_flow.inputs == 1


def test_the_mechanics_choices_are_locked_once_a_pick_is_made(ui) -> None:
    """Consulting the mechanics: each driver's choice is part of what the draft began from;
    changed after a pick, it too dealt a new market."""
    app = ui.app
    definition = parse_season({"name": "Mechanics cup",
                               "races": [{"track": "usa", "event": "consulting-mechanics"}]})
    cars = (CarEntry("red", NAMES[0]), CarEntry("blue", NAMES[1]),
            CarEntry("black", "", legend=True))
    app.season_id = app.season_store().create_season(definition, cars)
    app.show("standings")
    ui.player.press("next race")
    ui.player.press("mechanics red")  # before any pick: free to change
    ui.player.press("draft")
    draft_id = app.draft_flow.stored
    ui.player.press("card 0")
    ui.player.press("back")
    for car in ("red", "blue"):
        button = find(app.sm.current_screen, f"mechanics {car}")
        assert button.disabled and button.why_disabled
    ui.player.press("draft")
    assert app.draft_flow.stored == draft_id and app.draft_flow.inputs == 1


def test_undo_takes_back_the_last_pick_and_says_so(ui) -> None:
    app = ui.app
    flow = _season_draft(ui)
    screen = app.sm.current_screen
    undo = find(screen, "undo")
    assert undo.disabled and undo.why_disabled == (
        "Nothing to undo: no pick of this draft is recorded yet.")
    market, first, car = _cards(app), flow.draft.market[-1], flow.draft.to_pick
    assert flow.name(car) == "Maximilianus"
    ui.player.press(f"card {len(market) - 1}")  # Turbocharger 8 by mistake
    assert _hands(app)[car] != "-"
    ui.player.press("undo")
    flow = app.draft_flow
    assert _cards(app) == market and _hands(app)[car] == "-"
    assert flow.draft.to_pick == car
    assert find(screen, "error").text == (
        f"Undone: Maximilianus's pick, {_design_name(first)}, back to the market.")
    assert find(screen, "undo").disabled
    ui.player.press("card 0")  # the draft goes on, the undo's words gone
    assert find(screen, "error").text == ""
    assert _hands(app)[car] != "-"


def _design_name(design: str) -> str:
    from companion.ui.views.words import design_name

    return design_name(design)


def test_an_undone_pick_stays_undone_after_a_restart(ui) -> None:
    """Undo is recorded as an input of the draft: after a restart Continue shows the draft as
    the undo left it (the market whole, the hand empty), and the next pick is recorded after
    it."""
    app = ui.app
    flow = _season_draft(ui)
    draft_id, market, first = flow.stored, _cards(app), flow.draft.order
    ui.player.press("card 1")
    ui.player.press("card 0")  # both drivers picked
    ui.player.press("undo")  # Bartholomeus's pick back
    ui.player.press("undo")  # and Maximilianus's
    assert _cards(app) == market
    app = ui.restart()
    app.show("start")
    ui.player.press("continue")
    assert app.sm.current == "draft" and app.draft_flow.stored == draft_id
    assert _cards(app) == market and set(_hands(app).values()) == {"-"}
    assert app.draft_flow.draft.to_pick == first[0]
    assert find(app.sm.current_screen, "undo").disabled
    ui.player.press("card 2")
    app = ui.restart()
    app.show("start")
    ui.player.press("continue")
    assert _hands(app)[first[0]] != "-" and app.draft_flow.draft.to_pick == first[1]
    assert app.draft_flow.inputs == 5  # two picks, two undos, one pick: all in the log


def test_the_table_s_undo_button_undoes_a_pick_on_the_draft_screen(table) -> None:
    from hardware import TableButton

    ui, fake = table
    app = ui.app
    flow = _season_draft(ui)
    market, car = _cards(app), flow.draft.to_pick
    ui.player.press("card 0")
    fake.press(TableButton.UNDO)
    app.poll_hardware()
    ui.pump(2)
    assert app.draft_flow.draft.to_pick == car and _cards(app) == market
    assert find(app.sm.current_screen, "error").text.startswith("Undone: Maximilianus's pick")
    assert flow.stored == app.draft_flow.stored


def test_a_single_race_draft_undone_counts_its_round_again(ui) -> None:
    """The Start screen says a single race's draft's round from the picks in effect: an undone
    pick is not counted."""
    app = ui.app
    ui.player.press("new race")
    for index, name in enumerate(NAMES):
        ui.player.find(f"name {index}").text = name
    ui.player.press("more options")
    ui.player.press("garage")
    ui.player.press("start race")
    ui.player.press("card 0")
    ui.player.press("card 0")  # round 2
    ui.player.press("undo")  # round 1 again
    assert app.draft_flow.draft.round == 1
    app.show("start")
    assert "Garage draft, round 1" in find(app.sm.current_screen, "continue info").text


# --- the flow alone (Kivy-free) -------------------------------------------------------------


def _swap_flow() -> tuple[DraftFlow, list[tuple[int, dict[str, Any]]]]:
    draft = start_round_draft(("red", "blue"), seed=5)
    recorded: list[tuple[int, dict[str, Any]]] = []
    flow = DraftFlow(draft, {"red": "Ana", "blue": "Ben"}, lambda _cards: None,
                     earlier={"red": ("body-1",), "blue": ("rpm-2",)}, swap="red",
                     record=lambda seq, payload: recorded.append((seq, payload)))
    flow.pick(0)
    flow.pick(0)
    return flow, recorded


def test_undo_of_a_swap_gives_the_card_back_and_the_swap_again() -> None:
    flow, recorded = _swap_flow()
    assert flow.mode == "swap"
    market, earlier = flow.draft.market, dict(flow.earlier)
    flow.choose_own(0)
    flow.pick(1)
    assert flow.mode == "done" and flow.earlier["red"] == (market[1],)
    flow.undo()
    assert flow.mode == "swap" and flow.draft.market == market and flow.earlier == earlier
    assert flow.view().notice == (
        f"Undone: Ana's swap: {_design_name(market[1])} back to the market, "
        f"{_design_name('body-1')} back in Ana's hand.")
    assert recorded[-1] == (4, {"kind": "undo", "undoes": 3})
    flow.skip_swap()
    assert flow.mode == "done" and flow.view().notice == ""
    flow.undo()
    assert flow.mode == "swap" and flow.view().notice == (
        "Undone: Ana's No swap: Ana may swap again.")
    flow.undo()
    flow.undo()
    flow.undo()  # both picks back: nothing left to undo
    assert flow.draft.market == start_round_draft(("red", "blue"), seed=5).market
    assert flow.view().error == "Nothing to undo: no pick of this draft is recorded yet."
    assert [seq for seq, _payload in recorded] == list(range(1, 9))


def test_a_stored_draft_with_undos_replays_to_where_it_was() -> None:
    flow, recorded = _swap_flow()
    flow.choose_own(0)
    flow.pick(1)
    flow.undo()
    flow.undo()  # Ben's pick back
    again = DraftFlow(start_round_draft(("red", "blue"), seed=5), {"red": "Ana", "blue": "Ben"},
                      lambda _cards: None, earlier={"red": ("body-1",), "blue": ("rpm-2",)},
                      swap="red")
    again.replay([payload for _seq, payload in recorded])
    assert (again.draft, again.earlier, again.mode, again.inputs) == (
        flow.draft, flow.earlier, flow.mode, flow.inputs)
    assert again.draft.to_pick == "blue"


@pytest.mark.parametrize("undo", [{"kind": "undo", "undoes": 1},
                                  {"kind": "undo", "undoes": 2, "extra": 1},
                                  {"kind": "undo"}])
def test_an_undo_that_is_not_of_the_last_input_is_named(undo: dict[str, Any]) -> None:
    from companion.ui.views.draft_flow import DraftRecordError

    flow = DraftFlow(start_round_draft(("red", "blue"), seed=5), {}, lambda _cards: None)
    first = {"kind": "pick", "driver": "red", "card": flow.draft.market[0]}
    second = {"kind": "pick", "driver": "blue", "card": flow.draft.market[1]}
    with pytest.raises(DraftRecordError) as raised:
        flow.replay([first, second, undo])
    assert raised.value.seq == 3
