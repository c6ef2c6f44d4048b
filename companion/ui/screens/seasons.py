"""Championship: the stored seasons (with where they are) and the official seasons to start."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.uix.boxlayout import BoxLayout

from companion.i18n import _, listed, sentences
from companion.i18n.counts import fill

from ..views.names import car_name, season_name, track_title
from ..widgets.basic import Btn, MoreBelow, ToneLabel  # noqa: F401 - MoreBelow: seasons.kv
from .base import BaseScreen


def season_status(summary: Any, running: bool) -> str:
    """Where a season is: "not started", "race 2 of 3 under way" (a race started and not
    over), "1 of 3 race(s) played" (the next not started yet). A table test read "race 1 of
    3" as both "race 1 is on" and "race 1 is done"."""
    if summary.started == 0:
        return _("not started")
    if running:
        return _("race {n} of {races} under way").format(n=summary.started,
                                                         races=summary.races)
    return fill(_("{played} of {races} race(s) played"), played=summary.started,
                races=summary.races)


SEASONS_SHOWN = 4
"""Stored seasons listed at first (most recent first); "Older seasons" lists as many more."""


class SeasonsScreen(BaseScreen):
    shown = SEASONS_SHOWN

    def refresh(self) -> None:
        app = App.get_running_app()
        box = self.ids.rows
        box.clear_widgets()
        box.add_widget(ToneLabel(text=_("Your seasons"), tone="accent", scale="big"))
        # Only the seasons listed are read, each from its races' stored results (no replay).
        stored = app.season_store().seasons(limit=self.shown + 1) if app.has_seasons() else []
        if not stored:
            box.add_widget(ToneLabel(text=_("No season yet."), tone="muted"))
        for summary in stored[:self.shown]:
            season = app.season_store().season(summary.id)
            over = season.season.over
            status = _("over") if over else season_status(summary, season.running is not None)
            # the status in the language's brackets: full-width in zh_TW (it read "1962 (第 2
            # 場（共 3 場）進行中)": ASCII brackets around full-width ones)
            where = _("{season}  ({status})").format(season=season_name(summary.name),
                                                    status=status)
            # a place, its driver and the points on one line: no-break spaces between them
            # (Kivy breaks a line only at a space; "…제갈공명" / "4" was read as two entries);
            # listed() breaks between the drivers
            top = listed(f"{line.rank}.\u00a0{car_name(line.car)}\u00a0{line.points}"
                         for line in season.season.standings()[:3])
            text = f"{where}\n{top}"
            self._row(box, text, _("Open"), f"open season {summary.id}",
                      lambda s=summary.id: self.open(s))
        if len(stored) > self.shown:
            older = Btn(text=_("Older seasons"), test_name="older seasons", size_hint_y=None,
                        height=app.tap)
            older.bind(on_release=lambda _b: self.older())
            box.add_widget(older)
        box.add_widget(ToneLabel(text=_("Official seasons"), tone="accent", scale="big"))
        from companion.championship import SEASONS

        for year, definition in SEASONS.items():
            tracks = listed(track_title(r.track) for r in definition.races)
            # the language's colon: full-width in zh_TW (it read "1961: 英國、 美國、 義大利")
            text = _("{year}: {tracks}").format(year=year, tracks=tracks)
            playable = all(r.playable for r in definition.races)
            # the note's sentences as the language joins them (no ASCII space in zh_TW)
            notes = [_("Unverified data.")] if not definition.verified else []
            notes += [_("Race {n} ({track}) cannot be played.").format(
                n=number, track=track_title(race.track))
                for number, race in enumerate(definition.races, start=1) if not race.playable]
            if notes:
                text += "\n" + sentences(*notes)
            button = self._row(box, text, _("New season"), f"season {year}",
                               lambda y=year: self.new(y))
            button.disabled = not playable
            button.why_disabled = _(
                "This season cannot be played: one of its races is on a track the app does "
                "not have.")

    def _row(self, box: Any, text: str, label: str, name: str, action: Any) -> Btn:
        app = App.get_running_app()
        row = BoxLayout(size_hint_y=None, height=app.tap * 1.2, spacing=app.fs * 0.3)
        info = ToneLabel(text=text, scale="small")
        info.size_hint_y = 1
        row.add_widget(info)
        button = Btn(text=label, size_hint_x=None, width=app.tap * 2.6, test_name=name)
        button.bind(on_release=lambda _b: action())
        row.add_widget(button)
        box.add_widget(row)
        return button

    def older(self) -> None:
        self.shown += SEASONS_SHOWN
        self.refresh()

    def open(self, season_id: str) -> None:
        app = App.get_running_app()
        app.season_id = season_id
        app.show("standings")

    def new(self, kind: str) -> None:
        app = App.get_running_app()
        screen = app.screen("newseason")
        screen.new_form(kind)
        app.show("newseason")
