"""Races: the history of the log, newest first, with Continue or Open and Export (heat-race/1
files) on every row, and a search by driver, track or date.

Only what is on screen is built: the list is a ``RecycleView`` (a few row widgets, recycled
as it scrolls) over one page of races at a time read from the log (``RaceLog.race_page``);
"Older races" at the end of the list reads the next page. Opening the screen costs a page,
however many races the log holds.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.recycleview import RecycleView
from kivy.uix.recycleview.views import RecycleDataViewBehavior

from companion.i18n import Text, _

from ..views.race_list import PAGE, matching_tracks, race_lines
from ..widgets.basic import Btn, MoreBelow, TLabel  # noqa: F401 - Btn, TLabel: races.kv
from ..widgets.name_input import NameInput  # noqa: F401 - used by races.kv
from .base import BaseScreen

SEARCH_DELAY = 0.3
"""Seconds after the last keystroke before the list is searched again."""


def export_race(session: Any, folder: Path) -> Path:
    """Write ``session``'s race file as ``<folder>/race-<id>.json``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"race-{session.race_id}.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(session.export(), indent=2, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)
    return path


class RaceList(RecycleView, MoreBelow):  # type: ignore[misc]
    """The races, a few rows recycled as it scrolls (a ``RecycleView``), with the lists' bar
    (a :class:`~..widgets.basic.MoreBelow`: in the accent colour, in sight while there is
    more below). Its bar was Kivy's grey one, wider than the other lists' (it can be dragged:
    a long history is crossed quickly by its bar), and a table did not see it from arm's
    length; it stays wider (``races.kv``), in the accent colour now."""


class RaceListRow(RecycleDataViewBehavior, BoxLayout):  # type: ignore[misc]
    """One race of the list (a recycled view: its data change as the list scrolls)."""

    race_id = StringProperty("")
    head = StringProperty("")
    drivers = StringProperty("")
    open_text = StringProperty("")
    over = BooleanProperty(False)

    def open(self) -> None:
        App.get_running_app().screen("races").open(self.race_id)

    def export(self) -> None:
        App.get_running_app().screen("races").export(self.race_id)


class RaceListMore(RecycleDataViewBehavior, BoxLayout):  # type: ignore[misc]
    """The end of the list: a button that reads the next page, or a note."""

    text = StringProperty("")
    more = BooleanProperty(False)

    def press(self) -> None:
        App.get_running_app().screen("races").more()


class RacesScreen(BaseScreen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._rows: list[dict[str, Any]] = []
        self._oldest: int | None = None
        """Position of the oldest race listed (the next page starts after it)."""
        self._has_more = False
        self._said: Text | None = None
        """What the last export said (rendered when shown)."""
        self._search = Clock.create_trigger(lambda _dt: self.refresh(), SEARCH_DELAY)

    def folder(self) -> Path:
        text = self.ids.folder.text.strip()
        app = App.get_running_app()
        return Path(text).expanduser() if text else app.data_path / "exports"

    def search_changed(self) -> None:
        self._search()

    def refresh(self) -> None:
        """The first page of races (of those the search names, if any), from the top."""
        app = App.get_running_app()
        if not self.ids.folder.text:
            self.ids.folder.text = str(app.data_path / "exports")
        self._say()
        self._search.cancel()
        self._rows = []
        self._oldest = None
        self._load_page()
        self.ids.list.scroll_y = 1

    def more(self) -> None:
        """The next page of races, after those listed."""
        if self._has_more:
            self._load_page()

    def _load_page(self) -> None:
        app = App.get_running_app()
        text = self.ids.search.text.strip()
        page = app.log().race_page(before=self._oldest, limit=PAGE + 1, text=text,
                                   track_ids=matching_tracks(text))
        self._has_more = len(page) > PAGE
        for position, race in page[:PAGE]:
            head, drivers = race_lines(race)
            self._rows.append({
                "viewclass": "RaceListRow", "race_id": race.id, "head": head,
                "drivers": drivers, "over": race.over,
                "open_text": _("Open") if race.over else _("Continue"),
            })
            self._oldest = position
        end = {"viewclass": "RaceListMore", "more": self._has_more}
        if self._has_more:
            end["text"] = _("Older races")
        elif not self._rows:
            end["text"] = _("No race matches this search.") if text else _("No races yet.")
        else:
            end["text"] = ""
        self.ids.list.data = [*self._rows, end]

    def open(self, race_id: str) -> None:
        app = App.get_running_app()
        link = app.season_of(race_id)
        app.season_id = link[0] if link else None
        app.open_session(app.season_store().open_race(race_id) if link
                         else app.log().open_race(race_id))

    def export(self, race_id: str) -> None:
        app = App.get_running_app()
        session = app.log().open_race(race_id)
        self._said = self._export(session)[0]
        self._say()

    def export_session_file(self) -> tuple[Text, bool] | None:
        """Export the race on the race/results screen (into the folder set here): what to say
        (rendered when shown, in the language then) and whether the file was written."""
        app = App.get_running_app()
        if app.session is None:
            return None
        return self._export(app.session)

    def _export(self, session: Any) -> tuple[Text, bool]:
        try:
            path = export_race(session, self.folder())
        except OSError as error:
            reason = error.strerror or str(error)
            return (lambda: _("Cannot export: {error}").format(error=reason)), False
        return (lambda: _("Race file written: {path}").format(path=path)), True

    def _say(self) -> None:
        """What the last export said, in the current language (again after a switch)."""
        self.ids.message.text = self._said() if self._said is not None else ""
