"""The base of every screen, and of the screens made of pages (Start, New race, New season)."""

from __future__ import annotations

from typing import Any

from kivy.uix.screenmanager import Screen

from ..widgets.touch_gate import screen_changed


class BaseScreen(Screen):  # type: ignore[misc]
    """A screen that can re-render itself (after a language, theme or race change)."""

    def refresh(self) -> None:
        pass


class PagedScreen(BaseScreen):
    """A screen that shows one of its pages at a time in its ``pages`` holder (``ids.pages``).

    A subclass sets ``self.pages`` (name → page widget) and has a ``page`` property naming the
    page on show."""

    pages: dict[str, Any]
    page: str

    def show_page(self, page: str) -> None:
        self.page = page
        self._place_page()
        self.refresh()

    def _place_page(self) -> Any:
        """Put the page named by ``page`` in the holder; returns it."""
        holder = self.ids.pages
        shown = self.pages[self.page]
        if list(holder.children) != [shown]:
            holder.clear_widgets()
            holder.add_widget(shown)
            screen_changed()  # a touch on the page before does not act on this one
        return shown
