"""A one-line text field in the theme colours (styled in ``common.kv``). A module of its own so
that only the screens with a text field load Kivy's ``TextInput`` (not the first screen)."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.textinput import TextInput

from ..views.name_length import fitting
from .basic import one_line_size


class NameInput(TextInput):  # type: ignore[misc]
    """A driver's or a season's name, or a folder.

    ``one_line``: when set (a font size), the name is written whole in the field: ``font_size``
    is the largest size up to ``one_line`` at which it fits, never below the readable floor
    (:func:`~companion.ui.widgets.basic.one_line_size`); a name longer than the field holds
    even then scrolls while it is typed. 0: ``font_size`` as set.

    Whenever the field is not being typed in, it shows its text from the start: Kivy leaves a
    field scrolled to its cursor, at the end of the text, after the text is set or the typing
    moves on to another field (a table saw "!수의축구이야기들", the end of a name)."""

    test_name = StringProperty("")
    clash = BooleanProperty(False)
    """The name cannot stand (another driver's, another car's colour): its text and a frame
    in the warning colour, the reason said beside the names."""
    one_line = NumericProperty(0)
    most_letters = NumericProperty(0)
    """The most letters the name may hold (:func:`~companion.ui.views.name_length.letters`;
    0: any number). A key, a paste or an input method's letter (a Korean syllable being
    composed) that would make it longer adds nothing (a paste: what fits of its start), and
    the field says ``on_too_long``: its screen says why. A name set longer (a stored one) is
    shown as it is, and may be shortened."""

    __events__ = ("on_too_long",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for name in ("one_line", "width", "text", "padding"):
            self.fbind(name, self._fit_one_line)
        # Kivy puts the cursor at the end after it has said the text changed: the cursor goes
        # back to the start once the text is set (before the next frame)
        self._to_start = Clock.create_trigger(self._from_start, -1)
        self.fbind("text", self._to_start)
        self.fbind("focus", self._from_start)
        self._fit_one_line()
        self._to_start()

    def on_too_long(self) -> None:
        """Something typed or pasted was refused: the name holds ``most_letters``."""

    def insert_text(self, substring: Any, from_undo: bool = False) -> None:
        """Every key, paste and input method's letter goes in here (Kivy's TextInput)."""
        if self.most_letters and not from_undo and substring:
            if isinstance(substring, bytes):
                substring = substring.decode("utf8")
            text, at = self._typed()
            allowed = fitting(text, at, substring, int(self.most_letters))
            if allowed != substring:
                if allowed:
                    super().insert_text(allowed, from_undo)
                self.dispatch("on_too_long")
                return
        super().insert_text(substring, from_undo)

    def window_on_textedit(self, window: Any, ime_input: str) -> None:
        """An input method's letter being composed (Korean: "ㄱ", "기", "김") is drawn in the
        field before it is typed: not when it could not go in."""
        if self.most_letters and ime_input:
            text, at = self._typed()
            if fitting(text, at, ime_input, int(self.most_letters)) != ime_input:
                super().window_on_textedit(window, "")  # the letter drawn so far goes
                self.dispatch("on_too_long")
                return
        super().window_on_textedit(window, ime_input)

    def _typed(self) -> tuple[str, int]:
        """The text and the cursor's index in it, without the letter an input method is
        composing (drawn in the text before it is typed)."""
        text, at = self.text, self.cursor_index()
        composing = self._ime_composition
        if composing and self._ime_cursor:
            end = self.cursor_index(self._ime_cursor)
            if text[end - len(composing):end] == composing:
                text = text[:end - len(composing)] + text[end:]
                at -= len(composing) if at >= end else 0
        return text, at

    def _fit_one_line(self, *_args: Any) -> None:
        if not self.one_line:
            return
        # Kivy scrolls a line that reaches the right padding (the cursor stands after it)
        room = self.width - self.padding[0] - self.padding[2] - 1
        self.font_size = one_line_size(self.text or self.hint_text, self.one_line, room)

    def _from_start(self, *_args: Any) -> None:
        if not self.focus:
            # the cursor at the start: Kivy scrolls the field back to it when it next lays
            # the text out (setting ``scroll_x`` alone is undone then)
            self.cursor = (0, 0)
