"""New race: track, laps, drivers (name, colour, handicap), Legends, deck, grid order."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.uix.boxlayout import BoxLayout

from companion import i18n
from companion.engine.modules import EVENTS
from companion.i18n import _

from ..views.drivers import MAX_BONUS, MAX_LEGENDS
from ..views.names import COLOUR_RGB, car_label, colour_name
from ..views.race_form import RaceForm
from ..widgets.basic import Btn, Swatch, TLabel
from ..widgets.name_input import NameInput
from .base import BaseScreen


class NewRaceScreen(BaseScreen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        import tracks

        self.tracks = tracks.available_tracks()
        self.form = RaceForm()
        self.form.first_race()
        from .new_race_modules import ModulesPanel

        self.panel = ModulesPanel(self.ids.modules, lambda: self.form,
                                  lambda: self.info.track, self.refresh)

    def new_form(self) -> None:
        self.form = RaceForm()
        self.form.first_race()
        self.refresh()

    @property
    def info(self) -> Any:
        return next(t for t in self.tracks if t.id == self.form.track_id)

    # --- actions (kv buttons call these) ------------------------------------------------------

    def change_track(self, step: int) -> None:
        ids = [t.id for t in self.tracks]
        self.form.track_id = ids[(ids.index(self.form.track_id) + step) % len(ids)]
        self.form.laps = None
        self.form.modules.fit_track(self.info.track)
        self.refresh()

    def change_laps(self, step: int) -> None:
        laps = (self.form.laps or self.info.track.laps) + step
        self.form.laps = max(1, min(laps, 9))
        self.refresh()

    def first_race(self) -> None:
        self.form.first_race()
        self.form.modules.fit_track(self.info.track)
        self.refresh()

    def change_legends(self, step: int) -> None:
        self.form.set_legends(self.form.legends + step)
        self.refresh()

    def change_bonus(self, step: int) -> None:
        self.form.set_bonus(self.form.bonus + step)
        self.refresh()

    def toggle(self, what: str) -> None:
        if what == "deck":
            self.form.physical_deck = not self.form.physical_deck
        elif what == "grid":
            self.form.random_grid = not self.form.random_grid
        elif what == "seed":
            self.form.new_seed()
        elif what == "add":
            self.form.add_driver()
        elif what == "tournament":
            self.form.tournament = not self.form.tournament
        self.refresh()

    def start(self) -> None:
        problem = self.form.problem(self.info.track)
        if problem:
            self.ids.problem.text = problem
            return
        if self.form.modules.garage == "draft":
            self._draft()
            return
        self._start_with(None)

    def _start_with(self, upgrades: dict[str, tuple[str, ...]] | None) -> None:
        app = App.get_running_app()
        session = app.log().new_race(self.form.setup(self.info.track, upgrades))
        app.save_seats(session.race_id, self.form.seat_map())
        self.form = RaceForm()
        self.form.first_race()
        app.season_id = None
        app.open_session(session)

    def _draft(self) -> None:
        """The guided Garage draft (three rounds), then the race with the cards drafted."""
        from ..views.draft_flow import DraftFlow

        app = App.get_running_app()
        form = self.form
        drivers = form.human_order()
        names = {d.colour: d.display_name for d in form.drivers}
        app.draft_flow = DraftFlow(form.modules.start_draft(drivers, form.seed), names,
                                   self._start_with, back="newrace")
        app.show("draft")

    # --- drawing -----------------------------------------------------------------------------

    def refresh(self) -> None:
        form, info = self.form, self.info
        track = info.track
        laps = form.laps or track.laps
        self.ids.track_name.text = info.display_name(i18n.language())
        self.ids.track_facts.text = _(
            "{laps} lap(s) on the board, {heat} Heat, {stress} Stress, {corners} corners"
        ).format(laps=track.laps, heat=track.heat, stress=track.stress,
                 corners=len(track.corners))
        notes = [_("Unverified data: {note}").format(note=_(n)) for n in track.unverified]
        self.ids.track_notes.text = "\n".join(notes)
        event = EVENTS.get(form.modules.event or "")
        if form.laps is None and event is not None:
            laps = max(1, laps + event.laps)
        self.ids.laps.text = _("Laps: {laps}").format(laps=laps)
        self.ids.legends.text = _("Legends: {count}").format(count=form.legends)
        self.ids.bonus.text = _("Legends difficulty: +{bonus}").format(bonus=form.bonus)
        self.ids.deck.text = (_("Legends deck: physical (enter each card)")
                              if form.physical_deck else _("Legends deck: virtual (app draws)"))
        self.ids.grid.text = (_("Grid: random (seed {seed})").format(seed=form.seed)
                              if form.random_grid else _("Grid: set by hand"))
        self.ids.tournament.text = (
            _("Gears: each driver at the car's turn (tournament)") if form.tournament
            else _("Gears: everyone at the start of the round"))
        self.ids.legends_minus.disabled = form.legends <= 0
        self.ids.legends_plus.disabled = form.legends >= MAX_LEGENDS or not form.free_colours()
        self.ids.bonus_minus.disabled = form.bonus <= 0
        self.ids.bonus_plus.disabled = form.bonus >= MAX_BONUS
        self._drivers()
        self.panel.refresh()
        self._grid()
        self.ids.problem.text = form.problem(track)

    def _drivers(self) -> None:
        box = self.ids.drivers
        box.clear_widgets()
        app = App.get_running_app()
        for index, driver in enumerate(self.form.drivers):
            row = BoxLayout(size_hint_y=None, height=app.tap, spacing=app.fs * 0.4)
            colour = Btn(text=colour_name(driver.colour), size_hint_x=0.22,
                         test_name=f"colour {index}")
            colour.bind(on_release=lambda _b, i=index: self._do(self.form.next_colour, i))
            swatch = Swatch(rgba=[*COLOUR_RGB[driver.colour], 1])
            swatch.size_hint_y = None
            name = NameInput(text=driver.name, hint_text=_("Driver name"), multiline=False,
                             font_size=app.fs, size_hint_x=0.32)
            name.test_name = f"name {index}"
            name.bind(text=lambda _w, text, d=driver: setattr(d, "name", text))
            handicap = Btn(
                text=_("Handicap: -{n} Heat").format(n=driver.handicap) if driver.handicap
                else _("No handicap"), size_hint_x=0.26, test_name=f"handicap {index}")
            seat = Btn(text=_("Seat {seat}").format(seat=driver.seat), size_hint_x=0.16,
                       test_name=f"seat {index}")
            seat.bind(on_release=lambda _b, i=index: self._do(self.form.next_seat, i))
            handicap.bind(on_release=lambda _b, i=index: self._do(self.form.cycle_handicap, i))
            remove = Btn(text="X", size_hint_x=None, width=app.tap, test_name=f"remove {index}",
                         disabled=len(self.form.drivers) <= 1)
            remove.bind(on_release=lambda _b, i=index: self._do(self.form.remove_driver, i))
            holder = BoxLayout(size_hint_x=None, width=app.fs * 1.6, padding=(0, app.fs * 0.6))
            holder.add_widget(swatch)
            for widget in (holder, colour, name, seat, handicap, remove):
                row.add_widget(widget)
            box.add_widget(row)
        self.ids.add_driver.disabled = not self.form.free_colours() or (
            len(self.form.drivers) + self.form.legends >= 6)

    def _grid(self) -> None:
        box = self.ids.grid_rows
        box.clear_widgets()
        if self.form.random_grid:
            return
        app = App.get_running_app()
        for position, car in enumerate(self.form.grid_order(), start=1):
            row = BoxLayout(size_hint_y=None, height=app.tap, spacing=app.fs * 0.4)
            label = TLabel(text=f"{position}.  {self._car_text(car)}")
            label.size_hint_y = 1
            up = Btn(text=_("Up"), size_hint_x=None, width=app.tap * 2,
                     disabled=position == 1, test_name=f"up {car}")
            up.bind(on_release=lambda _b, c=car: self._do(self.form.move_up, c))
            row.add_widget(label)
            row.add_widget(up)
            box.add_widget(row)

    def _car_text(self, car: str) -> str:
        driver = next((d for d in self.form.drivers if d.colour == car), None)
        if driver is None:
            return car_label(None, car) + " (" + _("Legend") + ")"
        return driver.display_name

    def _do(self, func: Any, *args: Any) -> None:
        func(*args)
        self.refresh()
