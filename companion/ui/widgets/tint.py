"""Labels and buttons whose colour changes render nothing again.

Kivy renders a label's text in its colour: a button greyed out or selected, a driver's name
turning green when the gear is picked, each renders its texture again (the text laid out word
by word and rasterised) though not a letter moved. A tinted label renders its text once, in
white, and the canvas draws that texture in the label's colour (Kivy's shader multiplies the
texture by the colour before it: white letters times the colour are the colour, with the same
coverage), so a change of colour or of ``disabled`` only changes the tint. Markup text keeps
Kivy's way (its colours are in the text).
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Rectangle
from kivy.uix.label import Label

from .basic import Btn

WHITE = (1.0, 1.0, 1.0, 1.0)
COLOUR_CHANGES = frozenset({"color", "disabled_color", "disabled"})
"""What a tinted label draws with its tint instead of rendering its text again."""


def text_colour(widget: Any) -> Color:
    """The canvas ``Color`` the text texture of ``widget`` is drawn with (Kivy's Label and
    Button rules: a constant white, the last colour before the Rectangle of the text)."""
    instructions = list(widget.canvas.children)
    text = max((i for i, ins in enumerate(instructions) if isinstance(ins, Rectangle)),
               default=None)
    if text is not None:
        for instruction in reversed(instructions[:text]):
            if isinstance(instruction, Color):
                return instruction
    raise LookupError(f"{type(widget).__name__}: no colour before its text")


class TintMixin:
    """For a :class:`~kivy.uix.label.Label` subclass: its text rendered in white, drawn in its
    colour (``disabled_color`` while disabled, as Kivy's)."""

    _tint: Color | None = None
    color: Any
    disabled_color: Any
    disabled: bool
    markup: bool
    _label: Any

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._tint_up()  # built in Python: its rules are applied by now

    def on_kv_post(self, base_widget: Any) -> None:
        super().on_kv_post(base_widget)  # type: ignore[misc]
        self._tint_up()  # built by a kv rule: its own rules are applied now

    def _tint_up(self) -> None:
        """Tint from now on, once the label exists and its canvas is drawn from its rules
        (until then, and for a rule with no such colour, the text is rendered as Kivy does)."""
        if self._tint is not None or getattr(self, "_label", None) is None:
            return
        try:
            self._tint = text_colour(self)
        except LookupError:
            return
        self._whiten()
        self._retint()

    @property
    def tint(self) -> tuple[float, ...]:
        """The colour the text is drawn in now."""
        return tuple(self._tint.rgba) if self._tint is not None else WHITE

    def _whiten(self) -> None:
        if not self.markup:
            self._label.options["color"] = WHITE

    def _retint(self) -> None:
        if self._tint is not None:
            colour = self.disabled_color if self.disabled else self.color
            self._tint.rgba = WHITE if self.markup else colour

    def _trigger_texture_update(self, name: str | None = None, source: Any = None,
                                value: Any = None) -> None:
        if self._tint is not None and not self.markup and name in COLOUR_CHANGES:
            self._retint()  # the same white letters, drawn in another colour
            return
        super()._trigger_texture_update(name, source, value)  # type: ignore[misc]
        if name == "markup" and self._tint is not None:
            self._whiten()
            self._retint()


class TintLabel(TintMixin, Label):  # type: ignore[misc]
    """A :class:`~kivy.uix.label.Label` whose colour changes render nothing again."""


class TintBtn(TintMixin, Btn):
    """A :class:`~companion.ui.widgets.basic.Btn` whose colour changes (greyed out, selected,
    back to normal) render nothing again."""
