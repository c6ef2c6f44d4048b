"""What a screen saved, in words ("Results and lap chart saved"), with where it went one tap
away ("Where?" shows the folder in small type): a full path is data, not a headline."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.i18n import Text, _

from .basic import Btn, ToneLabel


class SavedLine(BoxLayout):  # type: ignore[misc]
    test_name = StringProperty("saved line")
    shown = BooleanProperty(False)
    """True while the folder is shown."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", size_hint_y=None, height=0, **kwargs)
        app = App.get_running_app()
        self._words: Text | None = None
        self.where: Text | None = None
        """Where it went (rendered when shown, in the language then)."""
        self.row = BoxLayout(size_hint_y=None, height=app.tap, spacing=app.fs * 0.4)
        self.words = ToneLabel(tone="muted", scale="small", size_hint_y=1)
        self.words.test_name = "saved"
        self.button = Btn(size_hint_x=None, width=app.tap * 2.4, scale="small",
                          test_name="saved where")
        self.button.bind(on_release=lambda _b: self.toggle())
        self.path = ToneLabel(tone="muted", scale="small")
        self.path.test_name = "saved path"
        self.row.add_widget(self.words)
        self.row.add_widget(self.button)
        self.path.bind(height=lambda *_a: self._fit())
        for size in ("tap", "fs", "fs_small"):  # the sizes follow the window (settings._resize)
            app.bind(**{size: self._follow_sizes})

    def _follow_sizes(self, app: Any, _value: Any) -> None:
        """The row, its button and its gap at the app's sizes of now: built at the window's
        first size, the row stayed 56 px tall at 1280x720 (85 px when the app starts there)."""
        self.row.height = app.tap
        self.row.spacing = app.fs * 0.4
        self.button.width = app.tap * 2.4
        self.button.font_size = app.fs_small
        self._fit()

    def say(self, words: Text, where: Text | None = None) -> None:
        """Show ``words()`` and, on demand, ``where()`` (each called again after a language
        switch)."""
        self._words = words
        self.where = where
        self.render()

    def clear(self) -> None:
        self._words = None
        self.where = None
        self.shown = False
        self.render()

    def toggle(self) -> None:
        self.shown = not self.shown
        self.render()

    def render(self) -> None:
        """Draw what was said in the current language."""
        self.clear_widgets()
        if self._words is None:
            self.height = 0
            return
        self.add_widget(self.row)
        self.words.text = self._words()
        self.button.text = _("Hide folder") if self.shown else _("Where?")
        self.button.disabled = self.where is None
        self.button.opacity = 1 if self.where is not None else 0
        if self.shown and self.where is not None:
            self.path.text = self.where()
            self.add_widget(self.path)
        self._fit()

    def _fit(self) -> None:
        self.height = sum(child.height for child in self.children)
