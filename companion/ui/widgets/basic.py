"""Small shared widgets, styled in ``common.kv``: buttons, wrapping labels, colour swatches, rows,
the banner and the hint that says why a control is greyed out."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from .measure import READABLE_PX
from .text_fit import FIT
from .touch_gate import refused

HINT_S = 4.0
"""How long a hint stays up (a touch anywhere closes it sooner)."""


class Btn(Button):  # type: ignore[misc]
    """A big flat button. ``role``: ``normal``, ``accent``, ``selected``, ``off``, ``dialled``
    (a normal button whose text is in the accent colour: the gear a seat's dial is on).

    ``why_disabled``: while the button is disabled, a tap on it shows this text (already in the
    player's language) in a :class:`Hint` beside it, instead of doing nothing silently.
    ``gate``: a :class:`~companion.ui.widgets.touch_gate.PromptGate`; a touch the gate refuses
    (it began before the prompt this button belongs to appeared) neither presses nor releases
    the button. Every button also refuses a touch that began before its screen (or the page of
    its screen) came up (:data:`~companion.ui.widgets.touch_gate.SCREEN_GATE`).
    ``one_line``: when set (a font size), the text stays on one line: ``font_size`` is the
    largest size up to ``one_line`` at which the text fits inside the button, and never below
    :data:`~companion.ui.widgets.measure.READABLE_PX` (a keypad key: "스트레스" in a quarter
    of the panel). 0: ``font_size`` as set.
    ``scale``: the app's text size the button is drawn in, ``body`` (``app.fs``), ``small``
    or ``big``; common.kv's rule sets ``font_size`` from it, and follows the window. A
    ``font_size`` given to the constructor is refused: the rule, applied after the
    constructor's arguments, would overwrite it (buttons asked for in the small size were
    drawn in the body size, wider than the widths measured for them).
    """

    test_name = StringProperty("")
    role = StringProperty("normal")
    key = StringProperty("")
    why_disabled = StringProperty("")
    gate = ObjectProperty(None, allownone=True)
    one_line = NumericProperty(0)
    scale = OptionProperty("body", options=("body", "small", "big"))
    action: Any = None
    """What a pooled button does on release (set by its panel)."""

    def __init__(self, **kwargs: Any) -> None:
        if "font_size" in kwargs:
            raise TypeError("Btn(font_size=...) would be overwritten by common.kv's rule: "
                            "give scale='small' or 'big' (or one_line)")
        super().__init__(**kwargs)
        for name in ("one_line", "width", "text"):
            self.fbind(name, self._fit_one_line)

    def _fit_one_line(self, *_args: Any) -> None:
        if not self.one_line:
            return
        # the text wraps at ``width - dp(8)`` (common.kv)
        self.font_size = one_line_size(self.text, self.one_line, self.width - dp(8))

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return bool(super().on_touch_down(touch)) if not self.disabled else False
        if refused(touch, self.gate):
            return True  # swallowed: it must not reach what lies under the button either
        if self.disabled:
            if self.why_disabled and self.opacity > 0:
                explain(self, self.why_disabled, touch)
            return True
        return bool(super().on_touch_down(touch))

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is self and refused(touch, self.gate):
            touch.ungrab(self)  # pressed on the prompt before: not a release on this one
            self.state = "normal"
            return True
        return bool(super().on_touch_up(touch))


def one_line_size(text: str, largest: float, room: float) -> float:
    """The largest font size up to ``largest`` at which ``text`` fits on one line ``room``
    pixels wide, never below :data:`~companion.ui.widgets.measure.READABLE_PX` (a text that
    does not fit even then is a wording to shorten: the tests say which)."""
    if room <= 0 or not text:
        return largest
    wide = max(FIT.width(line, largest) for line in text.split("\n"))
    if wide <= room:
        return largest
    size = max(READABLE_PX, float(int(largest * room / wide)))
    while size > READABLE_PX and max(FIT.width(line, size) for line in text.split("\n")) > room:
        size -= 1
    return size


class Hint(Label):  # type: ignore[misc]
    """A short explanation beside a control (why it is greyed out), over the screen for
    :data:`HINT_S` or until the next touch anywhere; one at a time (:func:`explain`)."""

    test_name = StringProperty("hint")
    shown = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._opened_by: Any = None
        self.bind(texture_size=self._fit)

    def show(self, anchor: Any, text: str, touch: Any = None) -> None:
        from kivy.clock import Clock
        from kivy.core.window import Window

        self.text = text
        self._anchor = anchor
        self._opened_by = getattr(touch, "uid", None)
        if self.parent is None:
            Window.add_widget(self)
            Window.bind(on_touch_down=self._any_touch)
            over_window(self)
        self.shown = True
        self._fit()
        Clock.unschedule(self.close)
        Clock.schedule_once(self.close, HINT_S)

    def _fit(self, *_args: Any) -> None:
        from kivy.core.window import Window

        anchor = getattr(self, "_anchor", None)
        if anchor is None:
            return
        width = min(Window.width * 0.6, max(Window.width * 0.3, anchor.width))
        self.text_size = (width, None)  # the padding (common.kv) is inside this box
        self.size = (width, self.texture_size[1])
        left, bottom = anchor.to_window(anchor.x, anchor.y)
        box = (left, bottom, left + anchor.width, bottom + anchor.height)
        self.pos = hint_place(self.size, box, (Window.width, Window.height),
                              buttons_on(Window, self, anchor))

    def _any_touch(self, _window: Any, touch: Any) -> None:
        if getattr(touch, "uid", None) != self._opened_by:
            self.close()  # and the touch goes on to whatever it was aimed at

    def close(self, *_args: Any) -> None:
        from kivy.core.window import Window

        self.shown = False
        self._anchor = None
        if self.parent is not None:
            Window.unbind(on_touch_down=self._any_touch)
            self.parent.remove_widget(self)


Box = tuple[float, float, float, float]
"""left, bottom, right, top in window pixels."""
HINT_GAP = 4.0
"""Between the hint and what it is beside, and the window's edges."""


def buttons_on(window: Any, hint: Any, anchor: Any) -> list[Box]:
    """Where the buttons a player may tap next are: every enabled button on show (not
    ``anchor``, not under ``hint``)."""
    boxes: list[Box] = []
    stack = [w for w in window.children if w is not hint]
    while stack:
        widget = stack.pop()
        if getattr(widget, "opacity", 1) <= 0:
            continue
        stack.extend(widget.children)
        if isinstance(widget, Btn) and not widget.disabled and widget is not anchor and (
                widget.width > 0 and widget.height > 0):
            left, bottom = widget.to_window(widget.x, widget.y)
            boxes.append((left, bottom, left + widget.width, bottom + widget.height))
    return boxes


def _overlap(a: Box, b: Box) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def hint_place(size: tuple[float, float], anchor: Box, window: tuple[float, float],
               buttons: list[Box]) -> tuple[float, float]:
    """Where a hint of ``size`` goes: inside the window, over none of ``buttons`` (the next tap
    must reach them; a keypad's other keys, Undo beside a greyed Redo) and not over
    ``anchor`` where it can, and then as near ``anchor`` as it can (above or below it first,
    then beside it, then past the buttons around it)."""
    width, height = size
    win_w, win_h = window
    gap = HINT_GAP
    left, bottom, right, top = anchor
    xs = [(left + right) / 2 - width / 2, left, right - width, right + gap, left - width - gap]
    ys = [top + gap, bottom - height - gap, (bottom + top) / 2 - height / 2]
    for b in buttons:
        xs += [b[2] + gap, b[0] - width - gap]
        ys += [b[3] + gap, b[1] - height - gap]

    def inside(value: float, length: float, room: float) -> float:
        return min(max(gap, value), max(gap, room - length - gap))

    best: tuple[float, float, float] | None = None
    place = (gap, gap)
    seen: set[tuple[float, float]] = set()
    for y in ys:
        for x in xs:
            spot = (inside(x, width, win_w), inside(y, height, win_h))
            if spot in seen:
                continue
            seen.add(spot)
            box = (spot[0], spot[1], spot[0] + width, spot[1] + height)
            covered = sum(_overlap(box, b) for b in buttons)
            distance = abs(box[0] + width / 2 - (left + right) / 2) + abs(
                box[1] + height / 2 - (bottom + top) / 2)
            score = (covered, _overlap(box, anchor), distance)
            if best is None or score < best:
                best, place = score, spot
    return place


_hint: Hint | None = None
_overlays: list[Any] = []
"""Widgets put over the whole window (the hint, the rulings overlay): they go with the app."""


def over_window(widget: Any) -> None:
    """Remember ``widget``, added to the window, so :func:`remove_overlays` takes it away."""
    if widget not in _overlays:
        _overlays.append(widget)


def remove_overlays() -> None:
    """Take every hint and overlay off the window (the app stops, a test's app is torn down)."""
    for widget in list(_overlays):
        close = getattr(widget, "close", None)
        if close is not None:
            close()
        elif widget.parent is not None:
            widget.parent.remove_widget(widget)


def explain(anchor: Any, text: str, touch: Any = None) -> Hint:
    """Show ``text`` in the app's one :class:`Hint`, beside ``anchor``."""
    global _hint
    if _hint is None:
        _hint = Hint()
    _hint.show(anchor, text, touch)
    return _hint


def current_hint() -> Hint | None:
    """The hint on screen now, if any."""
    return _hint if _hint is not None and _hint.shown else None


class TLabel(Label):  # type: ignore[misc]
    """Wrapping text in the theme colour."""

    test_name = StringProperty("")


TONES = ("fg", "muted", "accent", "warn", "ok")
SCALES = ("body", "small", "big")


class ToneLabel(TLabel):
    """A wrapping label built in Python: ``tone`` (a theme colour) and ``scale`` (``body``,
    ``small``, ``big``) are bound in ``common.kv`` to the app's colours and sizes, so the text
    follows every theme change. (Passing ``color=app.c_muted`` instead would be overridden by
    the kv rule, and a colour read at build time never follows the theme.)"""

    tone = OptionProperty("fg", options=TONES)
    scale = OptionProperty("body", options=SCALES)


class OneLineTitle(Label):  # type: ignore[misc]
    """A screen's title in the accent colour, on one line: written smaller than the big size
    when it is too long for the screen's width, down to the readable floor
    (:func:`one_line_size`; ``common.kv``), and only then on two lines (a Standings title with
    a twelve-letter champion wrapped in English: found by a table test). The row keeps the
    big size's height."""

    test_name = StringProperty("")


class Cell(Label):  # type: ignore[misc]
    """One line of a table, cut short with "..." when too long; ``tone``, ``scale`` and
    ``halign`` as for :class:`ToneLabel`."""

    test_name = StringProperty("")
    tone = OptionProperty("fg", options=TONES)
    scale = OptionProperty("small", options=SCALES)


class MoreBelow(ScrollView):  # type: ignore[misc]
    """A list that scrolls up and down and says so: while its content is taller than it, its
    bar stays in sight, wide and in the accent colour (``common.kv``), so the table knows
    there is more below (Kivy's own bar, thin and faint grey, showed only while scrolling:
    the draft's seventh card and the results' last rows lay cut at the bottom edge with
    nothing to say so; found by table tests)."""


class Swatch(Widget):  # type: ignore[misc]
    """A car's colour: a ``square`` (a Legend, as on the map) or a ``disc`` (a driver)."""

    rgba = ListProperty([1, 1, 1, 1])
    shape = StringProperty("square")


class Row(BoxLayout):  # type: ignore[misc]
    test_name = StringProperty("")
    bg = ColorProperty([0, 0, 0, 0])


class Toast(Label):  # type: ignore[misc]
    """A one-off banner at the top of the window (added to the Window, over every screen).
    A tap closes it; so does :meth:`close` (the App schedules it)."""

    test_name = StringProperty("toast")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        from kivy.core.window import Window

        Window.bind(size=self._place)
        self.bind(texture_size=self._place, text=self._place)
        self._place()

    def _place(self, *_args: Any) -> None:
        from kivy.core.window import Window

        width = Window.width * 0.94
        pad = self.font_size
        self.text_size = (width - 2 * pad, None)
        self.size = (width, self.texture_size[1] + pad)
        self.pos = ((Window.width - width) / 2, Window.height - self.height - pad * 0.4)

    def on_touch_down(self, touch: Any) -> bool:
        if self.parent is not None and self.collide_point(*touch.pos):
            self.close()
            return True
        return False

    def close(self, *_args: Any) -> None:
        if self.parent is not None:
            self.parent.remove_widget(self)
