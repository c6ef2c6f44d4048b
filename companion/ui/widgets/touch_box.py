"""Boxes and grids that hand a touch only to the child it is on.

Kivy hands a touch to every child of a widget in turn until one takes it, and a touch's release
to every widget of the screen (no widget takes a release it did not grab): on the race screen
that is some 40 widget calls per tap, most of a tap's dispatch. The children of a box or a grid
do not overlap and none of those used here wants a touch that is not on it, so these hand a
touch only to the child under it: the same widget gets it, the others are not asked. A touch a
widget grabbed (a pressed button's release, a scroll) still reaches it through the grab, which
Kivy dispatches to the grabbing widget directly. :class:`FitScroller`, a scroll view with
nothing to scroll, hands a touch straight to its content too, grabbing nothing; when it does
scroll, its bar is every list's (:class:`~.basic.MoreBelow`).
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from .basic import MoreBelow


def dispatch_to_hit(widget: Any, event: str, touch: Any) -> bool:
    """Dispatch ``event`` to the children of ``widget`` under ``touch``, topmost first, until
    one takes it (``touch`` is in ``widget``'s coordinates: a box is not a relative layout)."""
    x, y = touch.pos
    for child in widget.children[:]:
        if child.collide_point(x, y) and child.dispatch(event, touch):
            return True
    return False


class HitMixin:
    """For a layout whose children do not overlap: a touch goes only to the child under it."""

    disabled: bool

    def on_touch_down(self, touch: Any) -> bool:
        if self.disabled and self.collide_point(*touch.pos):  # type: ignore[attr-defined]
            return True  # as Kivy's Widget: a disabled widget swallows a touch on it
        return dispatch_to_hit(self, "on_touch_down", touch)

    def on_touch_move(self, touch: Any) -> bool:
        if self.disabled:
            return False
        return dispatch_to_hit(self, "on_touch_move", touch)

    def on_touch_up(self, touch: Any) -> bool:
        if self.disabled:
            return False
        return dispatch_to_hit(self, "on_touch_up", touch)


class TouchBox(HitMixin, BoxLayout):  # type: ignore[misc]
    """A :class:`BoxLayout` that hands a touch only to the child under it."""


class TouchGrid(HitMixin, GridLayout):  # type: ignore[misc]
    """A :class:`GridLayout` that hands a touch only to the child under it."""


class FitScroller(MoreBelow):  # type: ignore[misc]
    """A scroll view that, while it has nothing to scroll (``do_scroll_x`` and ``do_scroll_y``
    off: its content fits), hands a touch straight to its content; while it scrolls, its bar
    is in sight (a :class:`~.basic.MoreBelow`). Kivy's would still ask its content for a
    scroll gesture first and grab the touch, and a grabbed touch's moves and release are
    dispatched to it once more, through every parent's coordinates. Its release and moves
    reach the content as any touch's do (the grab of the button it pressed included)."""

    def on_touch_down(self, touch: Any) -> bool:
        if self.do_scroll_x or self.do_scroll_y or self._touch is not None:
            return bool(super().on_touch_down(touch))
        if not self.collide_point(*touch.pos):
            return False
        if self.disabled:
            return True
        return bool(self.simulate_touch_down(touch))
