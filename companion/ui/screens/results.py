"""Results: the finishing order (who finished in which round, the Sponsorship cards each driver
won), the lap chart, and what was saved next to the race log, in words."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.uix.boxlayout import BoxLayout

from companion.i18n import _
from companion.i18n.counts import fill

from ..views.names import car_label, track_title
from ..views.race_view import uses_sponsors
from ..views.results import lap_chart, results_document, results_paths, save_results
from ..widgets.basic import ToneLabel
from ..widgets.lap_chart import LapChartView  # noqa: F401 - used by results.kv
from ..widgets.saved_line import SavedLine  # noqa: F401 - used by results.kv
from .base import BaseScreen


class _Reply:
    """Stands in for a label: what the Races screen's export says."""

    text = ""


def place_lines(state: Any) -> list[tuple[str, str, str, bool]]:
    """``(test name, headline, what it means, out)`` for every car: finishers in order, then
    the eliminated."""
    sponsors = uses_sponsors(state)
    out = []
    for car, place, rnd in state.results:
        name = car_label(state, car)
        words = [_("Finished in round {round}").format(round=rnd)]
        if sponsors and not state.car(car).legend:
            words.append(fill(_("{car} won {cards} Sponsorship card(s)"),
                car=name, cards=state.car(car).sponsors))
        out.append((f"place {place}", _("{place}. {car}").format(place=place, car=name),
                    "\n".join(words), False))
    for car in (c for c in state.cars if c.eliminated):
        name = car_label(state, car.id)
        words = [_("Eliminated: did not finish")]
        if sponsors and not car.legend:
            words.append(fill(_("{car} won {cards} Sponsorship card(s)"),
                car=name, cards=car.sponsors))
        out.append((f"out {car.id}", name, "\n".join(words), True))
    return out


class ResultsScreen(BaseScreen):
    saved_json: Any = None
    saved_png: Any = None

    def refresh(self) -> None:
        app = App.get_running_app()
        session = app.session
        if session is None:
            self.ids.saved_line.clear()
            return
        season = app.season_id is not None and app.has_seasons() and (
            app.season_of(session.race_id) is not None)
        button = self.ids.standings_button
        button.disabled, button.opacity = not season, 1 if season else 0
        button.size_hint_x = 1 if season else 0.001
        chart, replayed = lap_chart(session.export())
        state = session.state
        self.replayed = replayed
        self.ids.title.text = _("Results: {track}").format(track=track_title(state.track.id))
        box = self.ids.standings
        box.clear_widgets()
        for name, headline, words, out in place_lines(state):
            entry = BoxLayout(orientation="vertical", size_hint_y=None)
            label = ToneLabel(text=headline, tone="muted" if out else "fg")
            label.test_name = name
            meaning = ToneLabel(text=words, tone="muted", scale="small")
            meaning.test_name = f"{name} words"
            for widget in (label, meaning):
                entry.add_widget(widget)
                widget.bind(height=lambda *_a, e=entry: setattr(
                    e, "height", sum(c.height for c in e.children)))
            entry.height = label.height + meaning.height
            box.add_widget(entry)
        view = self.ids.chart
        view.labels = {c.id: car_label(state, c.id) for c in state.cars}
        view.chart = chart
        view.redraw()
        self.ids.saved_line.render()
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
                _("Folder: {path}").format(path=png.parent))

        self.ids.chart.export_png(png, tries, written)

    def export_race(self) -> None:
        """The race file (``heat-race/1``), into the Races screen's export folder."""
        reply = _Reply()
        App.get_running_app().screen("races").export_session_file(reply)
        failed = reply.text.startswith(_("Cannot export: {error}").partition("{")[0])
        if failed:  # the reason, as the Races screen said it
            self.ids.saved_line.say(lambda text=reply.text: text)
        else:
            self.ids.saved_line.say(lambda: _("Race file exported (heat-race JSON)."),
                                    reply.text)
