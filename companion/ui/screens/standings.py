"""Standings of a season: rank, car, points per race, total (tie-break note), the points-by-race
chart; Next race or Continue race; the standings exported as CSV and JSON (``heat-standings/1``)
with the chart as PNG into ``<data>/seasons``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.uix.boxlayout import BoxLayout

from companion.i18n import _
from companion.i18n.counts import fill

from ..views.names import car_name
from ..widgets.basic import Cell, Row, ToneLabel  # noqa: F401 - ToneLabel: standings.kv
from ..widgets.points_chart import PointsChartView  # noqa: F401 - used by standings.kv
from ..widgets.saved_line import SavedLine  # noqa: F401 - used by standings.kv
from .base import BaseScreen


def standings_paths(data: Path, season_id: str) -> dict[str, Path]:
    folder = data / "seasons"
    return {kind: folder / f"season-{season_id}-standings.{kind}" for kind in ("csv", "json")} \
        | {"png": folder / f"season-{season_id}-points.png"}


def points_series(season: Any) -> dict[str, list[int]]:
    """Car -> its total after race 0, 1, 2… (races played)."""
    out = {}
    for line in season.standings():
        totals = [0]
        for points in line.races:
            totals.append(totals[-1] + points.total)
        out[line.car.id] = totals
    return out


class StandingsScreen(BaseScreen):
    stored: Any = None
    saved_png: Path | None = None

    def refresh(self) -> None:
        app = App.get_running_app()
        if app.season_id is None:
            return
        self.stored = stored = app.season_store().season(app.season_id)
        season = stored.season
        definition = season.definition
        played = season.races_played
        self.ids.title.text = fill(_("{season}: {played} of {races} race(s) played"),
            season=definition.name, played=played, races=len(definition.races))
        self._table(season)
        chart = self.ids.chart
        chart.labels = {c.id: car_name(c) for c in season.cars}
        chart.races = len(definition.races)
        chart.series = points_series(season)
        chart.redraw()
        running = stored.running is not None
        self.ids.next.text = _("Continue race") if running else _("Next race")
        self.ids.next.disabled = season.over
        self.ids.next.why_disabled = _("The season is over: every race of it is run.")
        self.ids.note.text = (
            _("Each race: points, then the place in brackets.") + "\n"
            + _("Ties: the better place in the last race ranks first (BGA rule; the printed "
                "rule is not known)."))
        self.ids.saved_line.render()
        self.saved_png = standings_paths(app.data_path, stored.id)["png"]
        if app.storage_read_only:  # nothing is written on read-only storage
            return
        from kivy.clock import Clock

        Clock.schedule_once(lambda _dt: self.export_chart(), 0)

    def _table(self, season: Any) -> None:
        app = App.get_running_app()
        box = self.ids.table
        box.clear_widgets()
        races = len(season.definition.races)
        size = app.fs_small
        hints = [0.12, 0.40] + [0.34 / races] * races + [0.14]
        header = [_("Rank"), _("Car")] + [str(n) for n in range(1, races + 1)] + [_("Total")]
        rows = [(header, "standings header", "muted")]
        for line in season.standings():
            cells = [str(line.rank), car_name(line.car)]
            for number in range(races):
                if number < len(line.races):
                    points = line.races[number]
                    cells.append(f"{points.total}" + (f" ({points.place})" if points.place
                                                     else " (-)"))
                else:
                    cells.append("")
            cells.append(str(line.points))
            rows.append((cells, f"standing {line.car.id}", "fg"))
        for cells, name, tone in rows:
            row = Row(size_hint_y=None, height=size * 1.8)
            row.test_name = name
            for index, (hint, text) in enumerate(zip(hints, cells, strict=True)):
                row.add_widget(Cell(text=text, size_hint_x=hint, tone=tone,
                                    halign="left" if index == 1 else "center"))
            box.add_widget(row)
        box.add_widget(BoxLayout())

    def export_chart(self, tries: int = 20) -> None:
        """Write the points chart PNG once the chart has been laid out."""
        if self.saved_png is not None:
            self.ids.chart.export_png(self.saved_png, tries)

    def export(self) -> None:
        """CSV and JSON (``heat-standings/1``) of the standings, and the chart PNG."""
        from companion.championship import standings_csv, standings_document

        app = App.get_running_app()
        stored = self.stored
        if stored is None:
            return
        paths = standings_paths(app.data_path, stored.id)
        paths["csv"].parent.mkdir(parents=True, exist_ok=True)
        doc = standings_document(stored.season, stored.race_ids, running=stored.running)
        for kind, text in (("csv", standings_csv(stored.season)),
                           ("json", json.dumps(doc, indent=2, ensure_ascii=False))):
            tmp = paths[kind].with_suffix(".tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(paths[kind])
        self.export_chart()
        self.ids.saved_line.say(
            lambda: _("Standings saved (CSV and JSON) with the points chart (PNG)."),
            lambda: _("Folder: {path}").format(path=paths["csv"].parent))

    def next_race(self) -> None:
        app = App.get_running_app()
        stored = self.stored
        if stored is None:
            return
        if stored.running is not None:
            app.open_session(app.season_store().open_race(stored.running))
            return
        screen = app.screen("nextrace")
        screen.prepare()
        app.show("nextrace")
