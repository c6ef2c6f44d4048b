"""Results: the finishing order (who finished in which round, the Sponsorship cards each driver
won), the lap chart, and what was saved next to the race log, in words."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.uix.boxlayout import BoxLayout

from companion.i18n import Text, _
from companion.i18n.counts import fill_kept

from ..views.event_points import bonus_lines
from ..views.names import car_label, track_title
from ..views.results import lap_chart, results_document, results_paths, save_results
from ..widgets.basic import MoreBelow, ToneLabel, explain  # noqa: F401 - MoreBelow: results.kv
from ..widgets.lap_chart import LapChartView  # noqa: F401 - used by results.kv
from ..widgets.saved_line import SavedLine  # noqa: F401 - used by results.kv
from .base import BaseScreen


def place_lines(state: Any, season: bool = False) -> list[tuple[str, str, str, bool]]:
    """``(test name, headline, what it means, out)`` for every car: finishers in order, then
    the eliminated, who have no place (docs/rules.md §3.3): the later-eliminated first, each
    with the round it left in (``CarState.eliminated_at``; docs/rules-decisions.md #27). A
    number stays on one line with the words beside it (``fill_kept``: the column is narrow,
    "…得到 1" / "張贊助卡" was read apart). The Sponsorship cards' line does not name the
    driver again under the headline that does: "Bartholomews won 1 Sponsorship card" wrapped
    as "…won 1 Sponsorship" / "card" beside the scroll bar's gutter (a list of six with its
    folder); "Won 1 Sponsorship card" keeps its noun whole on one line. A driver who won none
    is told nothing of cards ("Won 0 Sponsorship cards" was noise in a list that scrolls).
    In a ``season``'s race, a driver whose place the event card gives championship points
    for is told so ("+2 points for the win: Drivers' strike": Standings showed
    "11 (1)" with nothing to say where the 2 came from; found by a table test)."""
    lines = []
    for car, place, rnd in state.results:
        name = car_label(state, car)
        words = [fill_kept(_("Finished in round {round}"), round=rnd)]
        if state.car(car).sponsors and not state.car(car).legend:
            words.append(fill_kept(_("Won {cards} Sponsorship card(s)"),
                                   cards=state.car(car).sponsors))
        if season:
            words += bonus_lines(state.modules.event, place)
        lines.append((f"place {place}", _("{place}. {car}").format(place=place, car=name),
                      "\n".join(words), False))
    for car in (state.car(c) for c in state.out_of_race()):
        name = car_label(state, car.id)
        words = [fill_kept(_("Out in round {round}: no place"), round=car.eliminated_at[0])
                 if car.eliminated_at is not None else _("Eliminated: did not finish")]
        if car.sponsors and not car.legend:
            words.append(fill_kept(_("Won {cards} Sponsorship card(s)"), cards=car.sponsors))
        lines.append((f"out {car.id}", name, "\n".join(words), True))
    return lines


class ResultsScreen(BaseScreen):
    """The results of the race on show (``app.session``).

    A race that ends on a tap of the race screen shows its Results in two frames: the tap's
    frame shows the finishing order; the next one the lap chart, computed by replaying the
    race file, and saves the results (``refresh`` from the race screen; ``tests/ui/
    test_results_tap.py``). The screen is built ahead, at idle after a race screen is first
    drawn (:meth:`prepare`), so that tap builds no screen."""

    saved_json: Any = None
    saved_png: Any = None

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._entries: list[tuple[BoxLayout, ToneLabel, ToneLabel]] = []
        """One (box, headline, meaning) per car of the finishing order, built once and
        filled in by :meth:`refresh`."""
        self._pending: Any = None
        """The lap chart and saving still to do (the frame after a race's last tap)."""
        self._shown_race: str | None = None
        """The race whose results are on show."""
        self._standings = self.ids.standings_button.__self__
        """Standings (held here: the screen's ``ids`` hold it weakly, and it is taken out of
        its row for a race of no season)."""
        self._button_row = self._standings.parent

    def prepare(self) -> None:
        """Ready for the race on show: laid out at the screen manager's size as it will be
        shown (without Standings when no season is played: reads no storage), a row built for
        each of its cars in the finishing order (the race screen calls this at idle)."""
        app = App.get_running_app()
        manager = self.manager
        if manager is not None and manager.current_screen is not self:
            self.pos, self.size = manager.pos, manager.size
        session = app.session
        if session is None:
            return
        if app.season_id is None:  # no season, no Standings (known without reading storage)
            self._standings_button(False)
        while len(self._entries) < len(session.state.cars):
            self._entries.append(self._entry())
        self._show_entries(len(session.state.cars))

    def _standings_button(self, shown: bool) -> None:
        """Standings, for a season's race only."""
        button = self._standings
        button.disabled = not shown
        if shown and button.parent is None:  # back before Home, the row's last button
            self._button_row.add_widget(button, index=1)
        elif not shown and button.parent is not None:
            # out of the row, not an invisible button: the others share its room (a
            # standalone race's row had a gap where Standings would be)
            self._button_row.remove_widget(button)

    def _show_entries(self, count: int) -> None:
        """The first ``count`` rows in the finishing order's box (laid out at its width)."""
        box = self.ids.standings
        shown = [entry for entry, _label, _meaning in self._entries[:count]]
        if box.children[::-1] != shown:
            box.clear_widgets()
            for entry in shown:
                box.add_widget(entry)

    def _entry(self) -> tuple[BoxLayout, ToneLabel, ToneLabel]:
        entry = BoxLayout(orientation="vertical", size_hint_y=None)
        label = ToneLabel()
        meaning = ToneLabel(tone="muted", scale="small")
        for widget in (label, meaning):
            entry.add_widget(widget)
            widget.bind(height=lambda *_a, e=entry: setattr(
                e, "height", sum(c.height for c in e.children)))
        entry.height = label.height + meaning.height
        return entry, label, meaning

    def refresh(self) -> None:
        app = App.get_running_app()
        session = app.session
        if self._pending is not None:  # a race's chart not drawn yet: it is not this one's
            self._pending.cancel()
            self._pending = None
        if session is None:
            self._no_race()
            return
        self._race_shown(True)
        self.prepare()
        if self._shown_race != session.race_id:  # another race's results: its folder hidden
            self._shown_race = session.race_id  # until asked for (as the first race's was)
            self.ids.saved_line.shown = False
        season = app.season_id is not None and app.has_seasons() and (
            app.season_of(session.race_id) is not None)
        self._standings_button(season)
        self._undo_button(app.why_finish_stands() if session.state.over else (
            lambda: _("This race is not over: its race screen has Undo.")))
        state = session.state
        self.ids.title.text = _("Results: {track}").format(track=track_title(state.track.id))
        lines = place_lines(state, season)
        self._show_entries(len(lines))
        for (name, headline, words, out), (_entry, label, meaning) in zip(
                lines, self._entries, strict=False):
            label.text, label.tone, label.test_name = headline, "muted" if out else "fg", name
            meaning.text, meaning.test_name = words, f"{name} words"
        self.ids.saved_line.render()
        if app.sm.current == "race":  # the race's last tap: the chart on the next frame
            from kivy.clock import Clock

            if self.ids.chart.chart is not None:  # not another race's chart meanwhile
                self.ids.chart.chart = None
            self._pending = Clock.schedule_once(lambda _dt: self._chart_and_save(), 0)
        else:
            self._chart_and_save()

    def _undo_button(self, why: Text | None) -> None:
        """"Undo last input", greyed with ``why()`` when the race's finish stands."""
        button = self.ids.undo_finish
        button.disabled = why is not None
        button.why_disabled = why() if why is not None else ""

    def undo_last_input(self) -> None:
        """Take back the input that finished the race (the race screen's Undo, through the
        controller), and go back to the race screen, the race unfinished
        (``HeatApp.undo_finish``)."""
        App.get_running_app().undo_finish()

    def explain_undo(self, why: str) -> None:
        """Say by "Undo last input" why it does nothing (the table's Undo pressed while the
        race's finish stands), as a tap on it greyed says it."""
        explain(self.ids.undo_finish, why)

    def _no_race(self) -> None:
        """Opened with no race (a fresh app's first screen): a blank area beside an empty
        chart; it says there is no race to show and where the races are, without the chart,
        Export and Standings (Races and Home lead on)."""
        self._shown_race = None
        self.ids.saved_line.clear()
        self.ids.title.text = _("Results")
        self._race_shown(False)
        self._standings_button(False)
        self._undo_button(lambda: _("No race to undo: Races lists the races played."))
        box = self.ids.standings
        box.clear_widgets()
        box.add_widget(ToneLabel(
            text=_("No race to show: Races lists the races played."), tone="muted"))

    def _race_shown(self, shown: bool) -> None:
        """The lap chart beside the finishing order, and Export, for a race on show; with
        none, the list takes the row (it says there is no race) and Export is greyed."""
        self.ids.listing.size_hint_x = 0.36 if shown else 1
        chart = self.ids.chart
        chart.size_hint_x, chart.opacity = (0.64, 1) if shown else (0, 0)
        export = self.ids.export
        export.disabled = not shown
        export.why_disabled = "" if shown else _("No race to export.")

    def _chart_and_save(self) -> None:
        """The lap chart (the race file replayed) and, for a race that is over, the results
        saved with the race log and the chart's PNG written once it is laid out."""
        self._pending = None
        app = App.get_running_app()
        session = app.session
        if session is None:
            return
        chart, replayed = lap_chart(session.export())
        state = session.state
        self.replayed = replayed
        view = self.ids.chart
        view.labels = {c.id: car_label(state, c.id) for c in state.cars}
        view.chart = chart
        view.redraw()
        if state.over and not app.storage_read_only:  # read-only storage: nothing is written
            doc = results_document(session.race_id, state, chart)
            self.saved_json = save_results(app.data_path, session.race_id, doc)
            _json, png = results_paths(app.data_path, session.race_id)
            self.saved_png = png
            from kivy.clock import Clock

            Clock.schedule_once(lambda _dt: self.export_chart(), 0)

    def export_chart(self, tries: int = 20) -> None:
        """Write the lap chart PNG once the chart has been laid out."""
        png = self.saved_png
        if png is None:
            return

        def written() -> None:
            self.ids.saved_line.say(
                lambda: _("Results and lap chart saved (JSON and PNG) with the race log."),
                lambda: _("Folder: {path}").format(path=png.parent))

        self.ids.chart.export_png(png, tries, written)

    def export_race(self) -> None:
        """The race file (``heat-race/1``), into the Races screen's export folder."""
        done = App.get_running_app().screen("races").export_session_file()
        if done is None:
            return
        said, written = done
        if written:
            self.ids.saved_line.say(lambda: _("Race file exported (heat-race JSON)."), said)
        else:  # the reason, as the Races screen says it
            self.ids.saved_line.say(said)
