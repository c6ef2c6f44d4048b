"""The ruling box: what the last input did, every sentence whole, never a box to scroll.

It shows the rejection reason (if the last input was refused) and the sentences of the last
input, in order. When they do not all fit at body size, the box first lets the font go down to
the small size, then leaves out the sentences that only say where a car goes (the race order's
Space column lights those cars), then shows the last sentences that fit whole (how the input
ended: a spin-out after a Slipstream, not the space the Slipstream reached) and "+N more: tap
here", keeping an Undo's or Redo's headline and every spin-out wherever they stand (a driver's
spin-out followed by eight Legends' moves; a spin-out in its one short line when the whole
sentence leaves no room: six drivers' gear cells leave the box two lines); a tap on the box
shows every sentence over the screen (:class:`RulingsOverlay`). The box
is as tall as the longest sentence the engine produces needs at body size, in every language
(``tests/ui/test_rulings_fit.py``), so any one sentence fits whole.

Wrapping is worked out with the font's own word widths (:mod:`.text_fit`, cached), so a tap
renders the box's text once (``tests/ui/test_rulings_fit.py`` checks that Kivy's own wrapping
agrees).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.app import App
from kivy.properties import ColorProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.i18n import _

from .text_fit import FIT

MAX_WAITS = 8
"""Layout passes the ruling box puts off in one frame at most (then it lays out anyway)."""


class RulingsOverlay(Label):  # type: ignore[misc]
    """Every sentence of the last input over the screen; a touch anywhere closes it."""

    test_name = StringProperty("rulings overlay")

    def open(self, text: str) -> None:
        from kivy.core.window import Window

        self.text = text
        self.size = (Window.width * 0.94, Window.height * 0.9)
        self.pos = (Window.width * 0.03, Window.height * 0.05)
        self.text_size = (self.width, self.height)
        if self.parent is None:
            from .basic import over_window

            Window.add_widget(self)
            over_window(self)

    def on_touch_down(self, touch: Any) -> bool:
        self.close()
        return True

    def close(self) -> None:
        if self.parent is not None:
            self.parent.remove_widget(self)


class RulingBox(ButtonBehavior, BoxLayout):  # type: ignore[misc]
    """Shows :meth:`show` ``(error, rulings)``; each ruling has ``text`` and ``placement``.

    Three plain labels (no markup: rendering markup costs a tap a millisecond or more): the
    refusal in the warning colour, the sentences, and "+N more" in the accent colour."""

    test_name = StringProperty("messages")
    font_size = NumericProperty(18)
    color = ColorProperty([1, 1, 1, 1])

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        super().__init__(**kwargs)
        self.error_label = self._label()
        self.error_label.test_name = "error"
        self.body = self._label()
        self.more = self._label()
        for label in (self.error_label, self.body, self.more):
            self.add_widget(label)
        self.add_widget(Widget())  # the room below: the sentences start at the top
        self.shown: list[str] = []
        """The sentences on show (whole), the refusal first."""
        self.left_out = 0
        """Sentences not on show (a tap shows them)."""
        self._all: list[str] = []
        self._error = ""
        self._rulings: Sequence[Any] = ()
        self._overlay: RulingsOverlay | None = None
        self._shown_key: tuple[object, ...] | None = None
        """What is shown: the error, the rulings, the theme and the font size."""
        self._filled: tuple[object, ...] | None = None
        """What the labels were last filled for: the rulings shown and the box's size."""
        self._waited = 0
        """Layout passes put off this frame while the rest of the column settled."""
        self.bind(color=self._colours)

    def _label(self) -> Label:
        label = Label(halign="left", valign="top", size_hint_y=None, height=0)
        label.bind(width=lambda w, width: setattr(w, "text_size", (width, None)))
        return label

    @property
    def text(self) -> str:
        """The rulings on show (the refusal above them is ``error_label``, test name
        ``error``)."""
        return "\n".join(t for t in (self.body.text, self.more.text) if t)

    @property
    def texture_size(self) -> tuple[float, float]:
        """The height the three labels' text takes (for the tests: never over the box)."""
        labels = [w for w in (self.error_label, self.body, self.more) if w.text]
        for label in labels:
            label.texture_update()
        return (max((w.texture_size[0] for w in labels), default=0),
                sum(w.texture_size[1] for w in labels))

    def _colours(self, *_args: Any) -> None:
        self.body.color = self.color

    def show(self, error: str, rulings: Sequence[Any]) -> None:
        """Show ``error`` and ``rulings``: laid out with the box, once, at the size the column
        gives it on this frame (:meth:`do_layout`)."""
        app = App.get_running_app()
        key = (error, tuple(rulings), app.theme_name, app.fs)
        if key == self._shown_key:
            return
        self._shown_key = key
        self._error, self._rulings = error, tuple(rulings)
        self._close_overlay()
        self._trigger_layout()

    def _close_overlay(self) -> None:
        """The overlay (every sentence, over the screen) never shows other sentences than the
        box: a new ruling closes it, as the zoomed map closes on a race change, so the prompt
        it covers is in sight. Only the table reaches the race while it is open (its Ready,
        Undo and Next presses come without a touch; a touch closes it first)."""
        if self._overlay is not None:
            self._overlay.close()

    def do_layout(self, *largs: Any) -> None:
        """Fill the labels for the box's size, then place them. The box takes the room the
        rest of its column leaves: while a layout above or beside it is still to run this
        frame (the panel taking new buttons, the column giving out the room), the box waits
        for it, so it is filled and laid out once, at its final size, not once before and
        again after (``tests/ui/test_ruling_layouts.py``)."""
        if self._waited < MAX_WAITS and self._column_unsettled():
            self._waited += 1
            self._trigger_layout()  # again, after the layouts pending before it
            return
        self._waited = 0
        filled = (self._shown_key, tuple(self.size))
        if filled != self._filled:
            self._filled = filled
            self._layout()
        super().do_layout(*largs)
        # the labels' new heights and the room left below them are placed now: the layout
        # they re-triggered has nothing left to do
        self._trigger_layout.cancel()

    def _column_unsettled(self) -> bool:
        """True while a layout of the box's parent or of a widget beside it (and theirs) is
        still pending this frame."""
        parent = self.parent
        if parent is None:
            return False
        stack = [parent]
        while stack:
            widget = stack.pop()
            trigger = getattr(widget, "_trigger_layout", None)
            if trigger is not None and trigger.is_triggered:
                return True
            stack.extend(child for child in widget.children if child is not self)
        return False

    def _layout(self) -> None:
        app = App.get_running_app()
        if self.width <= 1 or self.height <= 1:
            return
        sentences = [r.text for r in self._rulings]
        without_places = [r for r in self._rulings if not r.placement]
        error = [self._error] if self._error else []
        width, height = self.width, self.height
        choice: tuple[list[str], float] | None = None
        for texts in (sentences, [r.text for r in without_places]):
            for size in (app.fs, app.fs_small):
                if self._fits(error + texts, size, width, height):
                    choice = (texts, size)
                    break
            if choice is not None:
                break
        left = 0
        note: list[str] = []
        if choice is None:  # the last sentences that fit whole, then "+N more" (the last
            size = app.fs_small  # say how the input ended: a spin-out, the finish; the ones
            # before, how it went, may contradict the table), with the headline of an Undo
            # or Redo ("Undone: ...") and every spin-out, which are kept
            kept = [bool(getattr(r, "headline", False) or getattr(r, "spinout", False))
                    for r in without_places]
            shown = [r.text for r in without_places]
            # a kept sentence too long for the room left: its short line ("Ana spins out to
            # space 19: 2 Stress, 1st gear."), else nothing kept
            brief = [(getattr(r, "short", "") or r.text) if keep else r.text
                     for r, keep in zip(without_places, kept, strict=True)]
            texts = (self._kept_and_last(error, sentences, shown, kept, size, width, height)
                     or self._kept_and_last(error, sentences, brief, kept, size, width, height)
                     or self._kept_and_last(error, sentences, shown, [False] * len(shown),
                                            size, width, height))
            left = len(sentences) - len(texts)
            note = [_("+{n} more: tap here").format(n=left)] if left else []
            choice = (texts, size)
        texts, size = choice
        self.shown = error + texts
        self.left_out = left
        self.font_size = size
        self._all = error + sentences
        for label, lines, colour in ((self.error_label, error, app.c_warn),
                                     (self.body, texts, self.color),
                                     (self.more, note, app.c_accent)):
            label.text = "\n".join(lines)
            label.font_size = size
            label.color = colour
            label.height = sum(FIT.lines(t, size, width) for t in lines) * FIT.line_height(size)

    def _kept_and_last(self, error: list[str], sentences: list[str], shown: list[str],
                       kept: list[bool], size: float, width: float, height: float,
                       ) -> list[str]:
        """Of ``shown`` (the sentences but the placements), in their order: every one marked
        ``kept`` (an Undo's or Redo's headline, a spin-out) and as many of the last of the
        others as fit whole with the refusal and "+N more" ([] when the kept ones alone do
        not fit)."""
        chosen = {index for index, keep in enumerate(kept) if keep}

        def texts(indices: set[int]) -> list[str]:
            more = len(sentences) - len(indices)
            note = [_("+{n} more: tap here").format(n=more)] if more else []
            return error + [shown[i] for i in sorted(indices)] + note

        if chosen and not self._fits(texts(chosen), size, width, height):
            return []
        for index in reversed(range(len(shown))):
            if index in chosen:
                continue
            if not self._fits(texts(chosen | {index}), size, width, height):
                break
            chosen.add(index)
        return [shown[i] for i in sorted(chosen)]

    def _fits(self, texts: list[str], size: float, width: float, height: float) -> bool:
        lines = sum(FIT.lines(text, size, width) for text in texts)
        return lines * FIT.line_height(size) <= height + 0.5  # (a height from a sum of floats)

    def on_release(self) -> None:
        if not self._all:
            return
        if self._overlay is None:
            self._overlay = RulingsOverlay()
        self._overlay.open("\n".join(self._all))
