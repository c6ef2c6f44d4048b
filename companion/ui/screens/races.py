"""Races: the history of the log, with Open and Export (heat-race/1 files)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.uix.boxlayout import BoxLayout

from companion.i18n import _

from ..views.names import colour_name, track_title
from ..widgets.basic import Btn, TLabel
from ..widgets.name_input import NameInput  # noqa: F401 - used by races.kv
from .base import BaseScreen


def export_race(session: Any, folder: Path) -> Path:
    """Write ``session``'s race file as ``<folder>/race-<id>.json``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"race-{session.race_id}.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(session.export(), indent=2, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)
    return path


class RacesScreen(BaseScreen):
    def folder(self) -> Path:
        text = self.ids.folder.text.strip()
        app = App.get_running_app()
        return Path(text).expanduser() if text else app.data_path / "exports"

    def refresh(self) -> None:
        app = App.get_running_app()
        if not self.ids.folder.text:
            self.ids.folder.text = str(app.data_path / "exports")
        box = self.ids.rows
        box.clear_widgets()
        races = app.log().races()
        if not races:
            box.add_widget(TLabel(text=_("No races yet.")))
        for summary in races:
            row = BoxLayout(size_hint_y=None, height=app.tap, spacing=app.fs * 0.3)
            cars = ", ".join(colour_name(c.id) for c in summary.cars)
            status = _("finished") if summary.over else _("round {round}").format(
                round=summary.rounds + 1)
            text = f"{summary.created[:16].replace('T', ' ')}  {track_title(summary.track_id)}" \
                   f"  ({status})\n{cars}"
            label = TLabel(text=text, font_size=app.fs_small)
            label.size_hint_y = 1
            row.add_widget(label)
            open_button = Btn(text=_("Open"), size_hint_x=None, width=app.tap * 1.8,
                              test_name=f"open {summary.id}")
            open_button.bind(on_release=lambda _b, r=summary.id: self.open(r))
            export = Btn(text=_("Export"), size_hint_x=None, width=app.tap * 1.8,
                         test_name=f"export {summary.id}")
            export.bind(on_release=lambda _b, r=summary.id: self.export(r))
            row.add_widget(open_button)
            row.add_widget(export)
            box.add_widget(row)

    def open(self, race_id: str) -> None:
        app = App.get_running_app()
        link = app.season_of(race_id)
        app.season_id = link[0] if link else None
        app.open_session(app.season_store().open_race(race_id) if link
                         else app.log().open_race(race_id))

    def export(self, race_id: str) -> None:
        app = App.get_running_app()
        session = app.log().open_race(race_id)
        self._export(session, self.ids.message)

    def export_session_file(self, label: Any) -> None:
        """Export the race on the race/results screen (into the folder set here)."""
        app = App.get_running_app()
        if app.session is not None:
            self._export(app.session, label)

    def _export(self, session: Any, label: Any) -> None:
        try:
            path = export_race(session, self.folder())
        except OSError as error:
            label.text = _("Cannot export: {error}").format(error=error.strerror or error)
            return
        label.text = _("Race file written: {path}").format(path=path)
