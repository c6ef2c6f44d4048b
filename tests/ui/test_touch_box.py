"""The race screen's boxes and grids hand a touch only to the child it is on (the others are not
asked: less work per tap), and what the touch does is what Kivy's own boxes would do: the
button under the finger is pressed and released, a disabled box swallows a touch on it, a
release outside the button still reaches the button that grabbed the touch."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui


def _box(kind: str) -> tuple[Any, list[str], Any, Any]:
    from kivy.uix.button import Button

    from companion.ui.widgets.touch_box import TouchBox, TouchGrid

    box = TouchBox() if kind == "box" else TouchGrid(cols=2)
    box.size, box.pos = (200, 100), (0, 0)
    asked: list[str] = []
    buttons = []
    for name in ("left", "right"):
        button = Button(text=name)
        for event in ("on_touch_down", "on_touch_move", "on_touch_up"):
            button.fbind(event, lambda _w, _t, name=name, event=event: asked.append(
                f"{event[9:]} {name}"))
        box.add_widget(button)
        buttons.append(button)
    box.do_layout()
    return box, asked, *buttons


def _touch(x: float, y: float) -> Any:
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(x, y)
    touch.x, touch.y = touch.pos = (x, y)  # in the box's coordinates (it is in no window)
    return touch


@pytest.mark.parametrize("kind", ["box", "grid"])
def test_a_touch_goes_only_to_the_child_under_it(kind: str) -> None:
    box, asked, left, right = _box(kind)
    released: list[str] = []
    right.bind(on_release=lambda _b: released.append("right"))
    left.bind(on_release=lambda _b: released.append("left"))
    touch = _touch(*right.center)
    assert box.dispatch("on_touch_down", touch)
    assert right.state == "down"
    touch.grab_current = right  # Kivy's dispatch of the grabbed release
    right.dispatch("on_touch_up", touch)
    touch.grab_current = None
    box.dispatch("on_touch_up", touch)
    assert released == ["right"]
    assert [a for a in asked if a.endswith("left")] == []


@pytest.mark.parametrize("kind", ["box", "grid"])
def test_a_release_away_from_the_button_still_reaches_it_through_its_grab(kind: str) -> None:
    box, _asked, left, right = _box(kind)
    touch = _touch(*right.center)
    box.dispatch("on_touch_down", touch)
    assert right in [ref() for ref in touch.grab_list]
    touch.x, touch.y = touch.pos = left.center  # released over the other button
    touch.grab_current = right
    right.dispatch("on_touch_up", touch)
    touch.grab_current = None
    box.dispatch("on_touch_up", touch)
    assert right.state == "normal" and left.state == "normal"


def test_a_disabled_box_swallows_a_touch_on_it() -> None:
    box, asked, _left, right = _box("box")
    box.disabled = True
    assert box.dispatch("on_touch_down", _touch(*right.center))
    assert asked == []
    assert not box.dispatch("on_touch_down", _touch(500, 500))  # not on it: not taken


def test_a_panel_that_fits_hands_a_tap_straight_to_its_button(ui) -> None:
    """The race screen's panel scrolls only when its buttons do not fit. While they fit, a
    tap goes straight to the button under it: the scroller asks for no scroll gesture and
    grabs no touch (Kivy would dispatch a grabbed touch's release to it once more). When the
    panel does scroll, the scroller is Kivy's again, and a tap still presses the button."""
    from kivy.uix.scrollview import ScrollView
    from spies import calls_to

    from companion.ui.demo.player import TAP_GAP_S, TablePlayer, tap_screen
    from companion.ui.demo.table_shots import start
    from companion.ui.widgets.lookup import find

    app = ui.app
    start(app, ("Maximilianus", "Bartholomew"), 2)
    ui.pump(2)
    screen = app.sm.current_screen
    scroller = screen.ids.panel_box
    assert not scroller.do_scroll_y  # two drivers' gears fit

    def tap(name: str) -> tuple[list[str], list[Any]]:
        button = find(screen, name)
        released: list[str] = []
        grabbed: list[Any] = []
        button.fbind("on_release", lambda _b: released.append(name))
        TablePlayer.last_tap += TAP_GAP_S
        with calls_to(ScrollView, "on_scroll_start", grabbed.append):
            tap_screen(*button.to_window(*button.center), at=TablePlayer.last_tap)
        ui.pump(2)
        return released, grabbed

    released, asked = tap("gear red 2")
    assert released == ["gear red 2"] and asked == []
    assert app.controller.state.planned.get("red") == 2
    scroller.do_scroll_y = True  # as when a busy React does not fit
    released, asked = tap("gear red 3")
    assert released == ["gear red 3"] and asked == [scroller]
    assert app.controller.state.planned.get("red") == 3
