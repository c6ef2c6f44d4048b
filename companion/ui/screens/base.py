"""The base of every screen."""

from __future__ import annotations

from kivy.uix.screenmanager import Screen


class BaseScreen(Screen):  # type: ignore[misc]
    """A screen that can re-render itself (after a language, theme or race change)."""

    def refresh(self) -> None:
        pass
