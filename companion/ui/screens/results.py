"""Results: the finishing order and the lap chart, saved next to the race log."""

from __future__ import annotations

from typing import Any

from kivy.app import App

from companion.i18n import _

from ..views.names import car_label, track_title
from ..views.race_view import uses_sponsors
from ..views.results import lap_chart, results_document, results_paths, save_results
from ..widgets.basic import TLabel
from ..widgets.lap_chart import LapChartView  # noqa: F401 - used by results.kv
from .base import BaseScreen


class ResultsScreen(BaseScreen):
    saved_json: Any = None
    saved_png: Any = None

    def refresh(self) -> None:
        app = App.get_running_app()
        session = app.session
        if session is None:
            return
        season = app.season_id is not None and app.has_seasons() and (
            app.season_of(session.race_id) is not None)
        button = self.ids.standings_button
        button.disabled, button.opacity = not season, 1 if season else 0
        button.size_hint_x = 1 if season else 0.001
        chart, replayed = lap_chart(session.export())
        state = session.state
        self.replayed = replayed
        box = self.ids.standings
        box.clear_widgets()
        title = _("Results: {track}").format(track=track_title(state.track.id))
        self.ids.title.text = title
        sponsors = uses_sponsors(state)
        for car, place, rnd in state.results:
            text = _("{place}. {car} (round {round})").format(
                place=place, car=car_label(state, car), round=rnd)
            if sponsors and not state.car(car).legend:
                text += "\n" + _("{cards} Sponsorship card(s)").format(
                    cards=state.car(car).sponsors)
            label = TLabel(text=text)
            label.test_name = f"place {place}"
            box.add_widget(label)
        for car in (c for c in state.cars if c.eliminated):
            text = _("{car}: eliminated").format(car=car_label(state, car.id))
            if sponsors:
                text += "\n" + _("{cards} Sponsorship card(s)").format(cards=car.sponsors)
            label = TLabel(text=text, color=app.c_muted)
            label.test_name = f"out {car.id}"
            box.add_widget(label)
        view = self.ids.chart
        view.labels = {c.id: car_label(state, c.id) for c in state.cars}
        view.chart = chart
        view.redraw()
        if state.over:
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
            self.ids.saved.text = _("Saved: {path}").format(path=png.parent)

        self.ids.chart.export_png(png, tries, written)

    def export_race(self) -> None:
        App.get_running_app().screen("races").export_session_file(self.ids.saved)
