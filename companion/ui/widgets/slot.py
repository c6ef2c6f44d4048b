"""A box that moves by a translation, its text still drawn on the pixels it was drawn on.

When cars pass, the race screen puts each driver's gear cell and each car's race-order row
somewhere else. A Kivy box that moves lays out everything in it again (every child's position
changes, and every canvas rule bound to a position runs). A slot box lays its children out in
its own coordinates and draws them translated by its position (as Kivy's ``RelativeLayout``
does for a float layout): moving it changes that translation and nothing inside it
(``tests/ui/test_prompt_moves.py``).

Kivy draws a label's text at whole pixels: ``int(center - texture_size / 2)`` in the
coordinates the label is laid out in. In a slot those are the slot's own, and a slot at a
fractional position (a row at y = 53.25) would put the text between pixels, where it is
resampled and blurs. So each label in a slot has a correction just around its text (a
translation of less than a pixel, not of its background) that puts the text where it would be
were the box laid out in its parent's coordinates, to the pixel
(``tests/ui/test_slot_pixels.py``): the screen looks exactly as with a plain box.

The slot's own canvas rules (a row's background) are drawn in its parent's coordinates, before
the translation; its children and their canvases in the slot's.
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import PopMatrix, PushMatrix, Rectangle, Translate
from kivy.uix.label import Label

from .lookup import walk
from .touch_box import TouchBox


class TextSnap:
    """A label's correction: its text moved to the whole pixel it would be drawn on outside
    the slot."""

    __slots__ = ("instructions", "label", "shift", "uids")

    def __init__(self, label: Any, snapped: Any) -> None:
        canvas = label.canvas
        text = max(i for i, ins in enumerate(canvas.children) if isinstance(ins, Rectangle))
        rect = canvas.children[text]  # the text (Kivy's Label and Button rules draw it last)
        self.label = label
        self.shift = Translate()
        push, pop = PushMatrix(), PopMatrix()
        canvas.insert(text, self.shift)
        canvas.insert(text, push)
        canvas.insert(canvas.indexof(rect) + 1, pop)
        self.instructions = (push, self.shift, pop)
        self.uids = [(name, label.fbind(name, snapped, self))
                     for name in ("pos", "size", "texture_size")]

    def remove(self) -> None:
        for name, uid in self.uids:
            self.label.unbind_uid(name, uid)
        for instruction in self.instructions:
            self.label.canvas.remove(instruction)


class SlotMixin:
    """For a box layout: laid out in its own coordinates, drawn translated by its position."""

    pos: Any
    x: float
    y: float
    canvas: Any
    children: list[Any]
    disabled: bool
    _trigger_layout: Any

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # where the slot is does not change how its children are laid out in it
        self.funbind("pos", self._trigger_layout)  # type: ignore[attr-defined]
        self.funbind("parent", self._trigger_layout)  # type: ignore[attr-defined]
        with self.canvas.before:  # after the slot's own rules (drawn where the slot is)
            PushMatrix()
            self._translate = Translate()
        with self.canvas.after:
            PopMatrix()
        self._texts: dict[int, TextSnap] = {}
        """The labels inside and their corrections, by ``id``."""
        self.fbind("pos", self._moved)  # type: ignore[attr-defined]
        self._moved()

    def keep_texts_whole(self) -> None:
        """Correct the text of every label inside (call once the slot's labels are in it, and
        whenever one is put in or taken out)."""
        inside = {id(w): w for w in walk(self) if isinstance(w, Label)}
        for key in [key for key in self._texts if key not in inside]:
            self._texts.pop(key).remove()
        for key, label in inside.items():
            if key not in self._texts:
                self._texts[key] = snap = TextSnap(label, self._snapped)
                self._snap(snap)

    def _moved(self, *_args: Any) -> None:
        x, y = self.pos
        self._translate.xy = (x, y)
        for snap in self._texts.values():
            self._snap(snap)

    def _snapped(self, snap: TextSnap, *_args: Any) -> None:
        self._snap(snap)

    def _snap(self, snap: TextSnap) -> None:
        """Kivy's Label rule draws the text at ``int(center - texture_size / 2)`` of the slot's
        coordinates; outside the slot it would be at that ``int()`` taken in the parent's: the
        difference, less than a pixel, is the correction."""
        label = snap.label
        width, height = label.texture_size
        x, y = self.pos
        left = label.center_x - width / 2.0
        bottom = label.center_y - height / 2.0
        snap.shift.xy = (int(x + left) - x - int(left), int(y + bottom) - y - int(bottom))

    def do_layout(self, *_args: Any) -> None:
        """As the box lays its children out (``BoxLayout.do_layout``), at the slot's origin."""
        children = self.children
        if not children:
            super().do_layout()  # type: ignore[misc]
            return
        x0, y0 = self.pos
        for index, x, y, width, height in self._iterate_layout(  # type: ignore[attr-defined]
                [(c.size, c.size_hint, c.pos_hint, c.size_hint_min, c.size_hint_max)
                 for c in children]):
            child = children[index]
            child.pos = x - x0, y - y0
            hint_x, hint_y = child.size_hint
            if hint_x is None:
                if hint_y is not None:
                    child.height = height
            elif hint_y is None:
                child.width = width
            else:
                child.size = (width, height)

    # coordinates and touches, as Kivy's RelativeLayout
    def to_parent(self, x: float, y: float, **_kwargs: Any) -> tuple[float, float]:
        return x + self.x, y + self.y

    def to_local(self, x: float, y: float, **_kwargs: Any) -> tuple[float, float]:
        return x - self.x, y - self.y

    def _apply_transform(self, m: Any, pos: Any = None) -> Any:
        m.translate(self.x, self.y, 0)
        return super()._apply_transform(m, (0, 0))  # type: ignore[misc]

    def _in_slot(self, event: str, touch: Any) -> bool:
        touch.push()
        touch.apply_transform_2d(self.to_local)
        try:
            return bool(getattr(super(), event)(touch))
        finally:
            touch.pop()

    def on_touch_down(self, touch: Any) -> bool:
        if self.disabled:  # as Kivy's Widget: a disabled widget swallows a touch on it
            return bool(self.collide_point(*touch.pos))  # type: ignore[attr-defined]
        return self._in_slot("on_touch_down", touch)

    def on_touch_move(self, touch: Any) -> bool:
        return False if self.disabled else self._in_slot("on_touch_move", touch)

    def on_touch_up(self, touch: Any) -> bool:
        return False if self.disabled else self._in_slot("on_touch_up", touch)


class SlotBox(SlotMixin, TouchBox):
    """A :class:`~.touch_box.TouchBox` that moves by a translation (a driver's gear cell)."""
