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
