"""No phantom input (issue 10, point 2): no touch acts on a prompt that appeared after it
began, and the quick second tap of a double tap does not act on the prompt the first tap
brought up; a deliberate tap on the new prompt still does.

Every tap here is a real touch through the window with a synthetic timestamp; between the two
taps the app draws one or two frames (taps one and two 60 Hz frames apart). Nothing depends on
the wall clock."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion.ui.widgets.lookup import find, walk
from companion.ui.widgets.touch_gate import NEAR_PX, QUICK_S, PromptGate, TouchLedger

pytestmark = pytest.mark.ui

FRAME = 1 / 60
T0 = 1.0e9
"""Synthetic touch times start here (the ledger only compares touches with each other; the
scripted players' timeline starts at 0)."""


# --- the rule, without a window ----------------------------------------------------------------


def _touch(t: float, x: float = 100, y: float = 100, double: bool = False) -> SimpleNamespace:
    return SimpleNamespace(time_start=t, x=x, y=y, is_double_tap=double, ud={})


def test_a_burst_that_began_before_the_prompt_is_refused_a_later_tap_is_not() -> None:
    ledger = TouchLedger()
    gate = PromptGate(ledger)
    first = _touch(T0)
    ledger.stamp(first)
    assert not gate.refuses(first)
    gate.show("cards")  # the first tap brought a new prompt up
    assert gate.refuses(first)  # released after the prompt changed: not on it
    second = _touch(T0 + FRAME)
    ledger.stamp(second)
    assert gate.refuses(second)  # the double tap's second touch
    third = _touch(T0 + 2 * FRAME + 0.01)
    ledger.stamp(third)
    assert gate.refuses(third)  # a triple tap is one burst too
    later = _touch(T0 + 2 * FRAME + 0.01 + QUICK_S + 0.01)
    ledger.stamp(later)
    assert not gate.refuses(later)  # a deliberate tap acts
    elsewhere = _touch(later.time_start + 0.05, x=100 + NEAR_PX * 2)
    ledger.stamp(elsewhere)
    gate.show("react")
    fresh = _touch(elsewhere.time_start + 0.05, x=100)
    ledger.stamp(fresh)
    assert not gate.refuses(fresh)  # quick, but far from the last touch: not a double tap
    marked = _touch(fresh.time_start + 5, double=True)  # Kivy said "double tap"
    gate.show("next")
    ledger.stamp(marked)
    assert gate.refuses(marked)


def test_the_same_prompt_shown_again_changes_nothing() -> None:
    ledger = TouchLedger()
    gate = PromptGate(ledger)
    gate.show("gears")
    touch = _touch(T0)
    ledger.stamp(touch)
    assert not gate.show("gears")
    assert not gate.refuses(touch)


# --- on the race screen ------------------------------------------------------------------------


class Fingers:
    """Real touches through the window at chosen times."""

    def __init__(self, ui) -> None:
        self.ui = ui

    def down(self, x: float, y: float, at: float):
        from kivy.tests.common import UnitTestTouch

        touch = UnitTestTouch(x, y)
        touch.time_start = touch.time_update = at
        touch.touch_down()
        return touch

    def tap(self, x: float, y: float, at: float) -> None:
        self.down(x, y, at).touch_up()

    def centre(self, name: str) -> tuple[float, float]:
        widget = find(self.ui.app.sm.current_screen, name)
        return widget.to_window(*widget.center)


def _snapshot(app) -> tuple[object, ...]:
    c = app.controller
    return (c.state, c.entry, c.view().mode, app.sm.current)


def _button_at(app, x: float, y: float):
    from companion.ui.widgets.basic import Btn

    for widget in walk(app.sm.current_screen):
        if isinstance(widget, Btn) and not widget.disabled and widget.gate is not None and (
                widget.collide_point(*widget.to_widget(x, y))):
            return widget
    return None


def _second_finger(app, x: float, y: float):
    """Where a double tap's second touch lands on a button of the new prompt: the first
    touch's place, or as near it as a finger lands twice (within the ledger's NEAR_PX)."""
    for radius in (0, 8, 16, 24, 32):
        for dx, dy in ((0, 0), (radius, 0), (-radius, 0), (0, radius), (0, -radius)):
            target = _button_at(app, x + dx, y + dy)
            if target is not None:
                return x + dx, y + dy, target
    raise AssertionError("no button of the new prompt under the finger")


def _start(ui, names=("Ana", "Ben")) -> None:
    from companion.ui.demo.table_shots import start

    start(ui.app, names, 0)
    ui.pump(3)


def _advance_to(ui, wanted, limit: int = 200) -> None:
    for _ in range(limit):
        if wanted(ui.app.controller.view()):
            ui.pump(2)
            return
        ui.player.step()
    raise AssertionError("never reached")


def _double_tap_then_deliberate(ui, name: str, frames: int) -> None:
    """Tap ``name``; the prompt changes; a second tap at the same place ``frames`` frames
    later does nothing; a tap there a second later acts."""
    app = ui.app
    fingers = Fingers(ui)
    x, y = fingers.centre(name)
    before = app.controller.view().prompt_id
    fingers.tap(x, y, T0)
    ui.pump(frames)
    assert app.controller.view().prompt_id != before, "the first tap changed no prompt"
    x, y, target = _second_finger(app, x, y)
    shown = _snapshot(app)
    fingers.tap(x, y, T0 + frames * FRAME)
    ui.pump(2)
    assert _snapshot(app) == shown, f"the second tap acted on {target.test_name!r}"
    fingers.tap(x, y, T0 + 1.5)
    ui.pump(2)
    assert _snapshot(app) != shown, f"a deliberate tap on {target.test_name!r} did nothing"


@pytest.mark.parametrize("frames", [1, 2])
def test_gears_to_cards(ui, frames: int) -> None:
    _start(ui)
    ui.player.press("gear blue 2")
    _double_tap_then_deliberate(ui, "gear red 2", frames)  # the last gear: the keypad comes up


@pytest.mark.parametrize("frames", [1, 2])
def test_cards_to_react(ui, frames: int) -> None:
    _start(ui)
    _advance_to(ui, lambda v: v.mode == "reveal")
    car = ui.app.controller.state.car(ui.app.controller.view().current)
    for _ in range(car.gear - 1):
        ui.player.press("key 1")
    _double_tap_then_deliberate(ui, "key 2", frames)  # the last card: the cards go in


@pytest.mark.parametrize("frames", [1, 2])
def test_react_to_the_next_car(ui, frames: int) -> None:
    _start(ui)
    state = lambda: ui.app.controller.state  # noqa: E731
    _advance_to(ui, lambda v: v.mode == "react" and state().order[-1] != v.current)
    _double_tap_then_deliberate(ui, "react end", frames)


@pytest.mark.parametrize("frames", [1, 2])
def test_react_to_boost_and_back(ui, frames: int) -> None:
    _start(ui)
    state = lambda: ui.app.controller.state  # noqa: E731
    _advance_to(ui, lambda v: v.mode == "react" and "boost" in [b.key for b in v.react]
                and state().order[-1] != v.current)
    _double_tap_then_deliberate(ui, "react boost", frames)
    ui.pump(2)
    if ui.app.controller.view().mode != "boost":
        ui.player.press("react boost")
    _double_tap_then_deliberate(ui, "key 2", frames)  # the Boost's card: back to React


@pytest.mark.parametrize("frames", [1, 2])
def test_a_touch_held_while_the_table_moves_on_does_not_act(ui, frames: int) -> None:
    """A finger on a React button while the End turn comes from the table (its Next button):
    lifting it does nothing, neither to the old prompt nor to the new one."""
    app = ui.app
    _start(ui)
    _advance_to(ui, lambda v: v.mode == "react" and len(v.react) > 1)
    fingers = Fingers(ui)
    x, y = fingers.centre(f"react {app.controller.view().react[0].key}")
    touch = fingers.down(x, y, T0)
    app.controller.end_turn()  # what the table's Next button does
    ui.pump(frames)
    shown = _snapshot(app)
    touch.touch_up()
    ui.pump(2)
    assert _snapshot(app) == shown


@pytest.mark.parametrize("frames", [1, 2])
def test_a_draft_pick_does_not_pick_for_the_next_driver(ui, frames: int) -> None:
    app = ui.app
    ui.player.set_up_race()
    ui.player.press("more options")  # the modules
    ui.player.press("garage")
    ui.player.press("start race")
    assert app.sm.current == "draft"
    flow = app.draft_flow
    first = flow.draft.to_pick
    fingers = Fingers(ui)
    x, y = fingers.centre("card 0")
    fingers.tap(x, y, T0)
    ui.pump(frames)
    assert flow.draft.to_pick != first
    picked = dict(flow.cards())
    fingers.tap(x, y, T0 + frames * FRAME)
    ui.pump(2)
    assert dict(flow.cards()) == picked  # the next driver did not pick by accident
    fingers.tap(x, y, T0 + 1.5)
    ui.pump(2)
    assert dict(flow.cards()) != picked  # a deliberate pick is taken


# --- Undo and Redo -----------------------------------------------------------------------------


def _recorded_inputs(ui, count: int) -> list[object]:
    """The race's state before and after each of ``count`` inputs (the scripted table's)."""
    states = [ui.app.controller.state]
    while len(states) <= count:
        before = ui.app.controller.state
        ui.player.step()
        if ui.app.controller.state != before:
            states.append(ui.app.controller.state)
    return states


def _double_tap_history(ui, name: str, frames: int, expected: list[object]) -> None:
    """A double tap on ``name`` (Undo or Redo) ``frames`` frames apart (0: its second touch
    goes down before any frame shows the first one's effect) takes one step, to
    ``expected[0]``; a deliberate tap a moment later takes a second, to ``expected[1]``."""
    app = ui.app
    fingers = Fingers(ui)
    x, y = fingers.centre(name)
    fingers.tap(x, y, T0)
    if frames:
        ui.pump(frames)
    fingers.tap(x, y + 6, T0 + max(frames, 0.5) * FRAME)  # a finger lands twice a little apart
    ui.pump(2)
    assert app.controller.state == expected[0], f"a double tap on {name!r} took two steps"
    fingers.tap(x, y, T0 + 1.5)
    ui.pump(2)
    assert app.controller.state == expected[1], f"a deliberate {name!r} did nothing"


@pytest.mark.parametrize("frames", [0, 1, 2])
def test_a_double_tap_on_undo_undoes_one_input(ui, frames: int) -> None:
    _start(ui)
    states = _recorded_inputs(ui, 3)
    _double_tap_history(ui, "undo", frames, [states[2], states[1]])


@pytest.mark.parametrize("frames", [0, 1, 2])
def test_a_double_tap_on_redo_redoes_one_input(ui, frames: int) -> None:
    _start(ui)
    states = _recorded_inputs(ui, 3)
    for _ in range(3):
        ui.player.press("undo")
    assert ui.app.controller.state == states[0]
    _double_tap_history(ui, "redo", frames, [states[1], states[2]])


def test_undo_then_a_quick_redo_beside_it_both_act(ui) -> None:
    """Undo and Redo side by side: a quick tap on the other one is not the first one's double
    tap (it lands a button away), it is a decision."""
    app = ui.app
    _start(ui)
    states = _recorded_inputs(ui, 2)
    fingers = Fingers(ui)
    fingers.tap(*fingers.centre("undo"), T0)
    ui.pump(1)
    assert app.controller.state == states[1]
    fingers.tap(*fingers.centre("redo"), T0 + 0.2)
    ui.pump(2)
    assert app.controller.state == states[2]


# --- screens and pages -------------------------------------------------------------------------


def _page(app) -> tuple[object, ...]:
    screen = app.sm.current_screen
    return (app.sm.current, getattr(screen, "page", None))


def _any_button_near(app, x: float, y: float):
    """An enabled button of the screen on show under a finger landing near (x, y)."""
    from companion.ui.widgets.basic import Btn

    for radius in (0, 8, 16, 24, 32):
        for dx, dy in ((0, 0), (radius, 0), (-radius, 0), (0, radius), (0, -radius)):
            for widget in walk(app.sm.current_screen):
                if (isinstance(widget, Btn) and not widget.disabled and widget.opacity > 0
                        and widget.get_root_window() is not None
                        and widget.collide_point(*widget.to_widget(x + dx, y + dy))):
                    return x + dx, y + dy, widget
    raise AssertionError("no button of the new screen under the finger")


def _double_tap_changes_page(ui, name: str, frames: int, low: bool = False) -> None:
    """Tap ``name`` (``low``: near its bottom edge): another screen or page comes up; the
    second touch of the double tap, ``frames`` frames later on the button now in that place,
    presses nothing; a deliberate tap there a moment later does."""
    app = ui.app
    fingers = Fingers(ui)
    x, y = fingers.centre(name)
    if low:
        widget = find(app.sm.current_screen, name)
        y = widget.to_window(widget.x, widget.y + widget.height * 0.06)[1]
    at = T0
    before = _page(app)
    fingers.tap(x, y, at)
    ui.pump(frames)
    shown = _page(app)
    assert shown != before, f"{name!r} changed neither screen nor page"
    x, y, target = _any_button_near(app, x, y)
    released: list[bool] = []
    target.bind(on_release=lambda *_a: released.append(True))
    fingers.tap(x, y, at + frames * FRAME)
    ui.pump(2)
    assert not released and _page(app) == shown, (
        f"the second tap on {name!r} pressed {target.test_name!r} of the new page")
    fingers.tap(x, y, at + 1.5)
    ui.pump(2)
    assert released, f"a deliberate tap on {target.test_name!r} did nothing"


@pytest.mark.parametrize("frames", [1, 2])
def test_more_options_and_back_to_the_setup(ui, frames: int) -> None:
    """More options and Race setup are the same button: a double tap on it went there and
    back."""
    ui.player.press("new race")
    _double_tap_changes_page(ui, "more options", frames)


@pytest.mark.parametrize("frames", [1, 2])
def test_new_race_while_one_is_unfinished(ui, frames: int) -> None:
    """New race asks first (a race is unfinished): the double tap's second touch does not
    answer the question."""
    _start(ui)
    ui.player.press("menu")
    _double_tap_changes_page(ui, "new race", frames, low=True)


@pytest.mark.parametrize("frames", [1, 2])
def test_a_double_tap_on_menu_does_not_act_on_the_menu(ui, frames: int) -> None:
    """Menu on the race screen opens the Start screen; the double tap's second touch, landing
    a little below the first (on the "touch only" notice, which opens the Hardware check),
    presses nothing there; a deliberate tap a moment later does."""
    _start(ui)
    assert ui.app.sm.current == "race"
    _double_tap_changes_page(ui, "menu", frames, low=True)
    assert ui.app.sm.current == "hwcheck"  # the deliberate tap: the notice under the finger


@pytest.mark.parametrize("frames", [1, 2])
def test_new_race_then_back(ui, frames: int) -> None:
    ui.player.press("new race")
    _double_tap_changes_page(ui, "back", frames)  # back to the start screen


def test_a_quick_double_tap_on_a_card_key_types_two_cards(ui) -> None:
    """Typing cards is one prompt (the race records nothing until the last card): a quick
    "2, 2" on the keypad is two cards, not one and a stray tap."""
    app = ui.app
    _start(ui)
    for row in app.controller.view().gear_rows:
        ui.player.press(f"gear {row.car} 2")
    assert app.controller.view().mode == "reveal"
    before = app.controller.state
    fingers = Fingers(ui)
    x, y = fingers.centre("key 2")
    fingers.tap(x, y, T0)
    ui.pump(1)
    assert app.controller.state == before and app.controller.entry[0]  # one card typed
    fingers.tap(x, y + 4, T0 + 2 * FRAME)
    ui.pump(2)
    assert app.controller.state != before, "the second card of a quick 2, 2 was refused"
