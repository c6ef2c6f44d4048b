"""Standings of a season: rank, car, points per race, total (tie-break note), the points-by-race
chart; Next race or Continue race; the standings exported as CSV and JSON (``heat-standings/1``)
with the chart as PNG into ``<data>/seasons``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.uix.boxlayout import BoxLayout

from companion.i18n import _, listed
from companion.i18n.counts import fill_kept

from ..views.event_points import standings_note
from ..views.names import car_name, season_name
from ..views.standings_columns import RaceColumns, race_columns
from ..widgets.basic import (  # noqa: F401 - OneLineTitle, ToneLabel: standings.kv
    Cell,
    OneLineTitle,
    Row,
    ToneLabel,
)
from ..widgets.points_chart import (  # noqa: F401 - PointsChartView: standings.kv
    PointsChartView,
    ends_level,
    least_width,
    name_label,
)
from ..widgets.race_panel import MIN_NAME_FONT, fit_font
from ..widgets.saved_line import SavedLine  # noqa: F401 - used by standings.kv
from ..widgets.text_fit import FIT
from .base import BaseScreen


def standings_paths(data: Path, season_id: str) -> dict[str, Path]:
    folder = data / "seasons"
    return {kind: folder / f"season-{season_id}-standings.{kind}" for kind in ("csv", "json")} \
        | {"png": folder / f"season-{season_id}-points.png"}


def race_cell(points: Any) -> str:
    """A race's cell: its points, then the place in brackets ("9 (1)"; "0 (-)": out of the
    race, no place)."""
    return f"{points.total}" + (f" ({points.place})" if points.place else " (-)")


def points_series(season: Any) -> dict[str, list[int]]:
    """Car -> its total after race 0, 1, 2… (races played)."""
    out = {}
    for line in season.standings():
        totals = [0]
        for points in line.races:
            totals.append(totals[-1] + points.total)
        out[line.car.id] = totals
    return out


TABLE_SHARE = (0.45, 0.6)
"""The least and the most of the row (beside the points chart) the table takes."""
RACES_BESIDE_NAMES = 4
"""The race columns the table keeps beside names written at its size (a season's first races
sharing one of them); with fewer, the names are written smaller (to the readable floor)."""


class StandingsScreen(BaseScreen):
    stored: Any = None
    columns = RaceColumns(0, range(0))
    """The table's race columns (:mod:`..views.standings_columns`: a twelve-race season's
    first races share one)."""
    saved_png: Path | None = None
    saved_for: str | None = None
    """The season whose standings the saved line speaks of (another season's shows none)."""

    def refresh(self) -> None:
        app = App.get_running_app()
        if app.season_id is None:
            self._no_season()
            return
        self.ids.chart.opacity = 1
        self.ids.export.disabled = False
        self.stored = stored = app.season_store().season(app.season_id)
        season = stored.season
        definition = season.definition
        played = season.races_played
        # a number kept with the words beside it where a line wraps (fill_kept: "…, 57" /
        # "points." was read apart)
        self.ids.title.text = fill_kept(
            _("{season}: {played} of {races} race(s) played"),
            season=season_name(definition.name), played=played, races=len(definition.races))
        if season.over:
            self.ids.title.text = self.champion_words(season)
        self._table(season)
        chart = self.ids.chart
        chart.labels = {c.id: car_name(c) for c in season.cars}
        chart.races = len(definition.races)
        chart.series = points_series(season)
        chart.redraw()
        running = stored.running is not None
        button = self.ids.next
        button.text = _("Continue race") if running else _("Next race")
        button.disabled = season.over
        button.why_disabled = _("The season is over: every race of it is run.")
        # Over, the season has no next race: the tile goes (greyed, it stayed the row's
        # largest, orange tile under the champion's line), Back and Export take the row.
        button.opacity = 0 if season.over else 1
        button.size_hint_x, button.width = (None, 0) if season.over else (1, button.width)
        unplaced = any(not points.place for line in season.standings() for points in line.races)
        self.ids.note.text = "\n".join(
            [_("Each race: points, then the place in brackets.")]
            # a twelve-race season at 800x480: the first races share a column ("1–7")
            + ([fill_kept(_("{columns}: the points of races 1 to {last} added up."),
                          columns=self.columns.header(), last=self.columns.summed)]
               if self.columns.summed else [])
            # "(-)": eliminated, no place (Title sponsor withdraws, docs/rules.md §3.3)
            + ([_("(-): out of the race, no place.")] if unplaced else [])
            # the event points in a race's figure and the totals ("11 (1)": 9 for the win,
            # +2 for Drivers' strike; unexplained, found by a table test)
            + standings_note(definition.races, season.standings())
            + [_("Ties: the better place in the last race ranks first (BGA rule; the printed "
                 "rule is not known).")])
        if self.saved_for != stored.id:
            self.saved_for = None
            self.ids.saved_line.clear()  # what was saved was another season's standings
        self.ids.saved_line.render()
        self.saved_png = standings_paths(app.data_path, stored.id)["png"]
        if app.storage_read_only:  # nothing is written on read-only storage
            return
        from kivy.clock import Clock

        Clock.schedule_once(lambda _dt: self.export_chart(), 0)

    def _no_season(self) -> None:
        """Opened with no season (a fresh app's first screen): it was blank, an empty chart
        beside an orange button with no text that did nothing; it says no season is open,
        Back lists the seasons, and the table takes the row (no chart, no Next race)."""
        self.stored, self.saved_for = None, None
        self.ids.title.text = _("Standings")
        box = self.ids.table
        box.clear_widgets()
        box.parent.size_hint_x = 1
        box.add_widget(ToneLabel(text=_("No season is open: Back lists the seasons."),
                                 tone="muted"))
        box.add_widget(BoxLayout())
        chart = self.ids.chart
        chart.opacity, chart.size_hint_x = 0, 0
        self.ids.note.text = ""
        self.ids.export.disabled = True
        self.ids.export.why_disabled = _("No season is open: Back lists the seasons.")
        button = self.ids.next
        button.text, button.disabled, button.opacity = "", True, 0
        button.size_hint_x, button.width = None, 0
        self.ids.saved_line.clear()

    @staticmethod
    def champion_words(season: Any) -> str:
        """Who won the season that is over, with their points: the season-over screen said
        only "3 of 3 races played" (found by a table test). Cars level on points and on the
        last race's place share the title (docs/championship.md)."""
        lines = season.standings()
        first = [line for line in lines if line.rank == 1]
        if len(first) == 1:
            return fill_kept(_("{season} champion: {car}, {points} point(s)."),
                             season=season_name(season.definition.name), car=car_name(first[0].car),
                             points=first[0].points)
        return fill_kept(_("{season} champions, level: {cars}, {points} point(s) each."),
                         season=season_name(season.definition.name),
                         cars=listed(car_name(line.car) for line in first),
                         points=first[0].points)

    def _table(self, season: Any) -> None:
        app = App.get_running_app()
        box = self.ids.table
        box.clear_widgets()
        races = len(season.definition.races)
        lines = season.standings()
        played = max((len(line.races) for line in lines), default=0)
        size = app.fs_small
        pad = size * 0.6
        from kivy.core.window import Window

        room = Window.width - app.fs * (0.8 + 0.4)  # the screen's padding, the gap

        def widest(texts: list[str], font: float = size) -> float:
            return max(FIT.width(text, font) for text in texts) + pad

        # A race's column as wide as two-digit points need from the first race on (a column
        # does not widen as the season goes; "11 (1)": a race's points with a bonus, is never
        # cut).
        race_width = widest(["00 (0)", *(race_cell(points) for line in lines
                                         for points in line.races)])
        rank_width = widest([_("Rank"), *(str(line.rank) for line in lines)])
        total_width = widest([_("Total"), *(str(line.points) for line in lines)])
        # The races take what the rank, the total and the names leave of the most the table
        # may take: each car and its total are always in sight. The names keep the table's
        # size while that leaves RACES_BESIDE_NAMES race columns, else they are written
        # smaller, down to the readable floor.
        names = [car_name(line.car) for line in lines] or [""]
        # The chart keeps the room its races need (a twelve-race season's lines crowded in
        # 135 px at 800x480): the table takes at most what it leaves, but never less than
        # each car (its name at the readable floor), two race columns and the total need.
        chart = least_width(races, [name_label(car_name(line.car), line.points)
                                    for line in lines], app.fs_small,
                            ends_level(line.points for line in lines))
        least = rank_width + widest(names, MIN_NAME_FONT) + 2 * race_width + total_width
        high = min(TABLE_SHARE[1], max(least, room - chart) / room) if room > 0 else (
            TABLE_SHARE[1])
        low = min(TABLE_SHARE[0], high)
        spare = high * room - rank_width - total_width
        fits = int((spare - widest(names)) // race_width)
        if fits < min(races, RACES_BESIDE_NAMES):
            fits = int((spare - widest(names, MIN_NAME_FONT)) // race_width)
        columns = race_columns(races, played, fits)
        header = [_("Rank"), _("Car")] + ([columns.header()] if columns.summed else []) + [
            str(n) for n in columns.shown] + [_("Total")]
        rows = [(header, "standings header", "muted")]
        for line in lines:
            cells = [str(line.rank), car_name(line.car)]
            if columns.summed:
                cells.append(str(sum(points.total for points in line.races[:columns.summed])))
            cells += [race_cell(line.races[n - 1]) if n <= len(line.races) else ""
                      for n in columns.shown]
            cells.append(str(line.points))
            rows.append((cells, f"standing {line.car.id}", "fg"))
        widths = [rank_width, widest([cells[1] for cells, _n, _t in rows]),
                  *[race_width] * columns.count, total_width]
        # The table takes from the chart what its figures and names need (four races and
        # twelve-letter names: 0.55 of the row at 800x480), from 0.45 to 0.6 of the row (less
        # where the chart's races need more room).
        share = min(high, max(low, sum(widths) / room)) if room > 0 else low
        self.ids.table.parent.size_hint_x = share
        self.ids.chart.size_hint_x = 1 - share
        self.columns = columns
        # A name longer than its column is written smaller (to the readable floor) before
        # it is cut: twelve Chinese letters were cut in English, whose headers are wider.
        names_room = share * room - sum(widths) + widths[1] - pad
        for cells, name, tone in rows:
            row = Row(size_hint_y=None, height=size * 1.8)
            row.test_name = name
            for index, text in enumerate(cells):
                cell = Cell(text=text, tone=tone, halign="left" if index == 1 else "center")
                if index != 1:
                    cell.size_hint_x, cell.width = None, widths[index]
                else:
                    fit_font(cell, size, names_room)
                row.add_widget(cell)
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
        self.saved_for = stored.id
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
