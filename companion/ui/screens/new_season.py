"""New season: an official year or a custom season (tracks, events, Press Corners, Sponsorship
cards), the human drivers and the Legends; Create stores it and opens its standings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.uix.boxlayout import BoxLayout

from companion.i18n import _

from ..views.modules_form import press_letters
from ..views.names import colour_name, track_title
from ..views.season_form import SeasonForm
from ..views.words import event_title
from ..widgets.basic import Btn, TLabel
from ..widgets.name_input import NameInput
from .base import BaseScreen


class NewSeasonScreen(BaseScreen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.form = SeasonForm()

    def new_form(self, kind: str = "1961") -> None:
        self.form = SeasonForm(kind=kind)

    def _do(self, func: Callable[..., object], *args: Any) -> None:
        func(*args)
        self.refresh()

    def _btn(self, text: str, name: str, func: Callable[..., None], *args: Any,
             **kw: Any) -> Btn:
        button = Btn(text=text, test_name=name, **kw)
        button.bind(on_release=lambda _b: self._do(func, *args))
        return button

    def step(self, step: int) -> None:
        self._do(self.form.step_kind, step)

    def change(self, what: str, step: int) -> None:
        if what == "legends":
            self._do(self.form.set_legends, self.form.legends + step)
        elif what == "bonus":
            self._do(self.form.set_bonus, self.form.bonus + step)
        elif what == "driver":
            self._do(self.form.add_driver)
        elif what == "race":
            self._do(self.form.add_race)

    def refresh(self) -> None:
        form = self.form
        app = App.get_running_app()
        self.ids.kind.text = (_("Custom season") if form.kind == "custom"
                              else _("Season {year}").format(year=form.kind))
        box = self.ids.races
        box.clear_widgets()
        if form.kind == "custom":
            self._custom(box)
        else:
            from companion.championship import SEASONS

            definition = SEASONS[form.kind]
            for number, race in enumerate(definition.races, start=1):
                text = _("Race {n}: {track}, {event}, Press Corners {press}, {cards} "
                         "Sponsorship card(s)").format(
                    n=number, track=track_title(race.track),
                    event=event_title(race.event) if race.event else _("No event"),
                    press=", ".join(race.press) or "-", cards=race.sponsors)
                if not race.playable:
                    text += "\n" + _("Cannot be played: the track is not in the app.")
                box.add_widget(TLabel(text=text, font_size=app.fs_small))
            if not definition.verified:
                label = TLabel(text=_("Unverified data: this season's event texts come from "
                                      "unfinished sources."), color=app.c_warn)
                label.test_name = "season note"
                box.add_widget(label)
        self._drivers()
        self.ids.legends.text = _("Legends: {count}").format(count=form.legends)
        self.ids.bonus.text = _("Legends difficulty: +{bonus}").format(bonus=form.bonus)
        self.ids.problem.text = form.problem()

    def _custom(self, box: Any) -> None:
        import tracks

        app = App.get_running_app()
        form = self.form
        name = NameInput(text=form.name, hint_text=_("Season name"), multiline=False,
                         font_size=app.fs, size_hint_y=None, height=app.tap)
        name.test_name = "season name"
        name.bind(text=lambda _w, text: setattr(form, "name", text))
        box.add_widget(name)
        for index, race in enumerate(form.races):
            row = BoxLayout(size_hint_y=None, height=app.tap, spacing=app.fs * 0.3)
            row.add_widget(TLabel(text=f"{index + 1}.", size_hint_x=None, width=app.fs * 1.5))
            row.add_widget(self._btn(track_title(race.track), f"race {index} track",
                                     form.step_track, index, 1))
            row.add_widget(self._btn(event_title(race.event) if race.event else _("No event"),
                                     f"race {index} event", form.step_event, index, 1,
                                     font_size=app.fs_small))
            row.add_widget(self._btn(_("{cards} card(s)").format(cards=race.sponsors),
                                     f"race {index} sponsors", form.cycle_sponsors, index,
                                     size_hint_x=0.5, font_size=app.fs_small))
            row.add_widget(self._btn("X", f"race {index} remove", form.remove_race, index,
                                     size_hint_x=None, width=app.tap,
                                     disabled=len(form.races) <= 1))
            box.add_widget(row)
            letters = BoxLayout(size_hint_y=None, height=app.tap, spacing=app.fs * 0.3)
            letters.add_widget(TLabel(text=_("Press Corners:"), size_hint_x=None,
                                      width=app.tap * 3))
            for letter in press_letters(tracks.load_track(race.track)):
                letters.add_widget(self._btn(
                    letter, f"race {index} press {letter}", form.toggle_press, index, letter,
                    role="selected" if letter in race.press else "normal"))
            box.add_widget(letters)
        box.add_widget(self._btn(_("Add race"), "add race", form.add_race, size_hint_y=None,
                                 height=app.tap))

    def _drivers(self) -> None:
        app = App.get_running_app()
        box = self.ids.drivers
        box.clear_widgets()
        for index, driver in enumerate(self.form.drivers):
            row = BoxLayout(size_hint_y=None, height=app.tap, spacing=app.fs * 0.3)
            row.add_widget(self._btn(colour_name(driver.colour), f"colour {index}",
                                     self.form.next_colour, index, size_hint_x=0.3))
            name = NameInput(text=driver.name, hint_text=_("Driver name"), multiline=False,
                             font_size=app.fs)
            name.test_name = f"name {index}"
            name.bind(text=lambda _w, text, d=driver: setattr(d, "name", text))
            row.add_widget(name)
            row.add_widget(self._btn("X", f"remove {index}", self.form.remove_driver, index,
                                     size_hint_x=None, width=app.tap,
                                     disabled=len(self.form.drivers) <= 1))
            box.add_widget(row)

    def create(self) -> None:
        app = App.get_running_app()
        problem = self.form.problem()
        if problem:
            self.ids.problem.text = problem
            return
        season_id, error = app.create_season(self.form)
        if season_id is None:
            self.ids.problem.text = _("This season cannot be created: {error}").format(
                error=error)
            return
        self.form = SeasonForm()
        app.season_id = season_id
        app.show("standings")
