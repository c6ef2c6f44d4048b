"""A slot box draws the same pixels as a plain box at the same place, at a fractional position
too, and after it moved there: its texts on the whole pixels a plain box puts them on.

Kivy draws a label's text at ``int(center - texture_size / 2)`` of the coordinates the label is
laid out in; a slot lays its labels out in its own, and translated by a fractional position
their text fell between pixels and blurred (the first try at slots changed 51 of the demo's
screenshots so). The pixels are read back from the window (``glReadPixels``)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui

AREA = (40, 100, 320, 60)
"""The window's area the boxes are drawn in (x, y, width, height)."""


def _drawn(ui: Any, make_box: Any, place: tuple[float, float],
           first: tuple[float, float] | None = None) -> bytes:
    """The area's pixels with the box of ``make_box`` at ``place`` (laid out at ``first``
    and moved to ``place`` when given) over a black ground."""
    from kivy.core.window import Window
    from kivy.graphics import Color, Rectangle
    from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels
    from kivy.uix.label import Label
    from kivy.uix.widget import Widget

    from companion.ui.widgets.basic import Btn

    ground = Widget()
    with ground.canvas:
        Color(0, 0, 0, 1)
        Rectangle(pos=AREA[:2], size=AREA[2:])
    box = make_box(size_hint=(None, None), size=(300.3, 41.7), padding=(3.3, 2.7), spacing=1.9,
                   pos=first or place)
    box.add_widget(Label(text="Maximilianus 68 RL", font_size=15.3, color=(1, 1, 1, 1)))
    key = Btn(text="3", size_hint_x=None, width=50.45)
    key.font_size = 21.7  # a fractional size (a Btn's constructor takes a scale, not a size)
    box.add_widget(key)
    if hasattr(box, "keep_texts_whole"):
        box.keep_texts_whole()
    ground.add_widget(box)
    Window.add_widget(ground)
    try:
        ui.pump(3)
        if first is not None:
            box.pos = place
            ui.pump(3)
        return bytes(glReadPixels(*AREA, GL_RGB, GL_UNSIGNED_BYTE))
    finally:
        Window.remove_widget(ground)


def _lit(pixels: bytes) -> int:
    return sum(1 for value in pixels if value > 40)


def _differing(a: bytes, b: bytes) -> int:
    """How many pixels differ."""
    return sum(1 for i in range(0, len(a), 3) if a[i:i + 3] != b[i:i + 3])


@pytest.mark.parametrize("place", [(50.3, 110.61), (57.5, 112.25), (60.0855, 113.8)])
def test_a_slot_draws_as_a_plain_box_at_a_fractional_place(ui, place) -> None:
    from companion.ui.widgets.slot import SlotBox
    from companion.ui.widgets.touch_box import TouchBox

    plain = _drawn(ui, TouchBox, place)
    assert _lit(plain) > 500, "nothing drawn: the test proves nothing"
    slot = _drawn(ui, SlotBox, place)
    assert not _differing(slot, plain), "the slot's text is not where a box puts it"


def test_a_slot_moved_draws_as_a_plain_box_laid_out_there(ui) -> None:
    """Laid out at one place and moved (by a translation, nothing laid out again) to another,
    a fractional pixel away: the pixels of a box laid out there."""
    from companion.ui.widgets.slot import SlotBox
    from companion.ui.widgets.touch_box import TouchBox

    place = (52.7, 111.35)
    plain = _drawn(ui, TouchBox, place)
    assert _differing(_drawn(ui, TouchBox, (50.0, 110.0)), plain)  # a move shows in pixels
    moved = _drawn(ui, SlotBox, place, first=(50.0, 110.0))
    assert not _differing(moved, plain), "the moved slot's text is not where a box puts it"
