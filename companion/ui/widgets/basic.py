"""Small shared widgets, styled in ``common.kv``: buttons, wrapping labels, colour swatches, rows
and the banner."""

from __future__ import annotations

from typing import Any

from kivy.properties import ColorProperty, ListProperty, OptionProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.widget import Widget


class Btn(Button):  # type: ignore[misc]
    """A big flat button. ``role``: ``normal``, ``accent``, ``selected``, ``off``."""

    test_name = StringProperty("")
    role = StringProperty("normal")
    key = StringProperty("")


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


class Cell(Label):  # type: ignore[misc]
    """One line of a table, cut short with "..." when too long; ``tone``, ``scale`` and
    ``halign`` as for :class:`ToneLabel`."""

    test_name = StringProperty("")
    tone = OptionProperty("fg", options=TONES)
    scale = OptionProperty("small", options=SCALES)


class Swatch(Widget):  # type: ignore[misc]
    """A car colour square."""

    rgba = ListProperty([1, 1, 1, 1])


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
