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


def show_name_clash(form: Any, fields: Any, title: Any, go: Any, refused: str = "",
                    below: Any = None) -> str:
    """Two drivers of one name (or a name like another car's colour, or a Legend's) make
    every ruling ambiguous (``DriverList.name_clash``): the names to change framed in the
    warning colour, the reason in short in ``title`` (in place of "Drivers: 2"; with six
    drivers there is no room under the names for it), ``go`` (Start race, Create season)
    greyed until they are changed (a tap on it says the reason in full). Returns the reason
    ("" when the names stand). New race's and New season's.

    ``refused``: why the last key or paste in a name went unheard (a name holds 12 letters),
    said in ``title`` in the same way until a name changes; while a clash is said there (what
    keeps Start race greyed), on the line ``below`` the names instead: the refusal took the
    clash's place, and the two do not fit the title's two lines at 800x480 with six drivers
    (found by a table test)."""
    from companion.i18n import _

    clash = form.name_clash()
    for index, field in enumerate(fields):
        field.clash = clash is not None and index in clash.drivers
    clashing = clash.said if clash is not None else ""
    under = refused if refused and clashing and below is not None else ""
    said = clashing if under else (refused or clashing)
    title.text = said or _("Drivers: {count}").format(count=len(form.drivers))
    title.tone = "warn" if said else "accent"
    title.scale = "small" if said else "body"
    if below is not None:
        below.text = under
    why: str = clash.why if clash is not None else ""
    go.disabled = bool(why)
    go.why_disabled = why
    return why


def show_legends(form: Any, ids: Any) -> None:
    """The Legends' and the difficulty's steppers (``ids``: ``legends``, ``bonus`` and their
    ``_minus`` and ``_plus`` buttons), each greyed button saying why when tapped. With no
    Legend the difficulty (their bonus on straights) applies to nothing: its - and + are
    greyed and the line under it says so. New race's and New season's."""
    from companion.i18n import _

    from ..views.drivers import MAX_BONUS, MAX_LEGENDS
    from ..views.race_form import legends_words

    ids.legends.value = _("Legends: {count}").format(count=form.legends)
    ids.legends.meaning = legends_words(form.legends)
    ids.bonus.value = _("Difficulty: +{bonus}").format(bonus=form.bonus)
    ids.bonus.meaning = form.difficulty_words()
    ids.legends_minus.disabled = form.legends <= 0
    ids.legends_minus.why_disabled = form.why_no_fewer_legends()
    ids.legends_plus.disabled = form.legends >= MAX_LEGENDS or not form.free_colours()
    ids.legends_plus.why_disabled = form.why_no_more_legends()
    none = form.legends <= 0
    ids.bonus_minus.disabled = none or form.bonus <= 0
    ids.bonus_minus.why_disabled = form.why_no_difficulty() if none \
        else form.why_no_lower_bonus()
    ids.bonus_plus.disabled = none or form.bonus >= MAX_BONUS
    ids.bonus_plus.why_disabled = form.why_no_difficulty() if none \
        else form.why_no_higher_bonus()
