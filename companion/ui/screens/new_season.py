"""New season: an official year or a custom season, the human drivers and the Legends on one
screen without scrolling; the season's races (what each brings, or their editor for a custom
season: tracks, events, Press Corners, Sponsorship cards) on a second page. Create stores the
season and opens its standings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.i18n import _, listed
from companion.i18n.counts import fill

from ..views.modules_form import press_corner_number, press_letters
from ..views.name_length import (
    DRIVER_NAME_LETTERS,
    SEASON_NAME_LETTERS,
    driver_name_words,
    season_name_words,
)
from ..views.names import CAR_COLOURS, COLOUR_RGB, colour_name, track_title
from ..views.season_form import SeasonForm, race_words
from ..views.words import event_line, event_title
from ..widgets.basic import Btn, MoreBelow, Swatch, ToneLabel  # noqa: F401 - MoreBelow: new_season.kv
from ..widgets.measure import text_width
from ..widgets.name_input import NameInput
from .base import PagedScreen, show_legends, show_name_clash

PAGES = ("setup", "races")


class NewSeasonScreen(PagedScreen):
    page = StringProperty("setup")
    back_to = "seasons"
    """The screen Back returns to: Championship, or Start when its New season tile opened
    this one (set after ``new_form``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.form = SeasonForm()
        self._name_fields: list[NameInput] = []
        """The drivers' name fields, in the form's order."""
        self._too_long = False
        """A key or a paste in a driver's name was refused (12 letters): said above the names
        until a name changes or the form is redrawn."""
        self.pages = {name: self.ids[f"{name}_page"].__self__ for name in PAGES}
        self._place_page()

    def new_form(self, kind: str = "1961") -> None:
        self.form = SeasonForm(kind=kind)
        self.back_to = "seasons"
        self.page = "setup"
        self._place_page()

    def _do(self, func: Callable[..., object], *args: Any) -> None:
        func(*args)
        self.refresh()

    def _btn(self, text: str, name: str, func: Callable[..., None], *args: Any,
             **kw: Any) -> Btn:
        button = Btn(text=text, test_name=name, **kw)
        button.bind(on_release=lambda _b: self._do(func, *args))
        return button

    # --- pages ---------------------------------------------------------------------------------

    def back(self) -> None:
        if self.page != "setup":
            self.show_page("setup")
        else:
            App.get_running_app().show(self.back_to)

    # --- actions -------------------------------------------------------------------------------

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

    def create(self) -> None:
        app = App.get_running_app()
        if self._names_checked():
            return  # said above the names; Create season is greyed until they are changed
        problem = self.form.problem()
        if problem:
            self.ids.problem.text = problem
            return
        season_id, error = app.create_season(self.form)
        if season_id is None:
            self.ids.problem.text = _("This season cannot be created: {error}").format(
                error=error)
            return
        self.new_form()
        app.season_id = season_id
        app.show("standings")

    # --- drawing -------------------------------------------------------------------------------

    def refresh(self) -> None:
        self._too_long = False
        form = self.form
        custom = form.kind == "custom"
        self.ids.kind.text = (_("Custom season") if custom
                              else _("Season {year}").format(year=form.kind))
        self._name_row(custom)
        tracks = listed(track_title(r.track) for r in form.race_list())
        self.ids.races_summary.text = fill(_("{n} race(s): {tracks}"),
            n=len(form.race_list()), tracks=tracks)
        self.ids.races_button.text = (_("Edit the races") if custom
                                      else _("Events and Press Corners"))
        show_legends(form, self.ids)
        self._drivers()
        if self.page == "races":
            self._races()
        names = self._names_checked()
        problem = form.problem()
        self.ids.problem.text = "" if problem == names else problem  # said above the names

    def _named(self, driver: Any, text: str) -> None:
        """A name typed: checked at once, key by key (``_names_checked``)."""
        driver.name = text
        self._heard()

    def _refused(self) -> None:
        """A key or a paste would have made a driver's name longer than it may be: said above
        the names."""
        self._heard(drivers_too_long=True)

    def _season_named(self, text: str) -> None:
        self.form.name = text
        self._heard()

    def _season_refused(self) -> None:
        """A key or a paste would have made the season's name longer than the Championship
        list and the Standings show whole: said at the foot of the form, where New season says
        why it cannot go on."""
        self._heard()
        self.ids.problem.text = season_name_words()

    def _heard(self, drivers_too_long: bool = False) -> None:
        """A name changed, or a key in one was refused: only the last refusal is said (the
        drivers' title counts the drivers again, the foot of the form says nothing of the
        season's name)."""
        self._too_long = drivers_too_long
        self._names_checked()
        if self.ids.problem.text == season_name_words():
            self.ids.problem.text = ""

    def _names_checked(self) -> str:
        """The drivers' names checked: Create season greyed while two clash (``show_name_clash``);
        returns the reason ("" when the names stand)."""
        return show_name_clash(self.form, self._name_fields, self.ids.drivers_title,
                               self.ids.create,
                               refused=driver_name_words() if self._too_long else "",
                               below=self.ids.name_refused)

    def _name_row(self, custom: bool) -> None:
        app = App.get_running_app()
        row = self.ids.name_row
        if not custom:
            row.clear_widgets()
            row.height = 0
            return
        if not row.children:
            # written whole: smaller, down to the readable floor, as a driver's name is
            name = NameInput(multiline=False, font_size=app.fs, one_line=app.fs,
                             most_letters=SEASON_NAME_LETTERS)
            name.test_name = "season name"
            name.bind(text=lambda _w, text: self._season_named(text),
                      on_too_long=lambda _w: self._season_refused())
            row.add_widget(name)
        # the field is kept: its hint in the language of now (it stayed English after a
        # change of language)
        row.children[0].hint_text = _("Season name")
        row.children[0].text = self.form.name
        row.height = app.tap

    def _races(self) -> None:
        box = self.ids.races
        box.clear_widgets()
        form = self.form
        title = (_("Custom season: the races") if form.kind == "custom"
                 else _("Season {year}: the races").format(year=form.kind))
        box.add_widget(ToneLabel(text=title, tone="accent", scale="big"))
        box.add_widget(ToneLabel(text=_(
            "Press Corners: a driver who crosses one of these corners 2 or more over its "
            "speed limit, or with a slipstream move, wins a Sponsorship card."),
            tone="muted", scale="small"))
        if form.kind == "custom":
            self._custom(box)
            return
        from companion.championship import SEASONS

        definition = SEASONS[form.kind]
        for number, race in enumerate(definition.races, start=1):
            label = ToneLabel(text=race_words(number, race), scale="small")
            label.test_name = f"season race {number}"
            box.add_widget(label)
            box.add_widget(ToneLabel(text=event_line(race.event), tone="muted", scale="small"))
        if not definition.verified:
            label = ToneLabel(text=_("Unverified data: this season's event texts come from "
                                     "unfinished sources."), tone="warn", scale="small")
            label.test_name = "season note"
            box.add_widget(label)

    def _custom(self, box: Any) -> None:
        import tracks

        app = App.get_running_app()
        form = self.form
        for index, race in enumerate(form.races):
            row = BoxLayout(size_hint_y=None, height=app.tap, spacing=app.fs * 0.3)
            row.add_widget(ToneLabel(text=f"{index + 1}.", size_hint_x=None,
                                     width=app.fs * 1.5, size_hint_y=1))
            # The track and the event step forward on a tap, back on "<" beside them (35
            # events: one back need not be 34 forward), "<" a full touch target (app.tap: it
            # was 48 px, under the app's 56 at 800x480).
            row.add_widget(self._btn("<", f"race {index} track prev", form.step_track, index,
                                     -1, size_hint_x=None, width=app.tap))
            row.add_widget(self._btn(track_title(race.track), f"race {index} track",
                                     form.step_track, index, 1))
            row.add_widget(self._btn("<", f"race {index} event prev", form.step_event, index,
                                     -1, size_hint_x=None, width=app.tap))
            row.add_widget(self._btn(event_title(race.event) if race.event else _("No event"),
                                     f"race {index} event", form.step_event, index, 1,
                                     scale="small"))
            row.add_widget(self._btn(
                _("Sponsorship cards drawn: {cards}").format(cards=race.sponsors),
                f"race {index} sponsors", form.cycle_sponsors, index, scale="small"))
            row.add_widget(self._btn("X", f"race {index} remove", form.remove_race, index,
                                     size_hint_x=None, width=48,
                                     disabled=len(form.races) <= 1,
                                     why_disabled=_("A season needs at least one race.")))
            box.add_widget(row)
            track = tracks.load_track(race.track)
            letters = GridLayout(cols=4, size_hint_y=None, spacing=app.fs * 0.3)
            letters.bind(minimum_height=letters.setter("height"))
            for letter in press_letters(track):
                text = _("{letter}: corner {n}").format(letter=letter,
                                                       n=press_corner_number(track, letter))
                letters.add_widget(self._btn(
                    text, f"race {index} press {letter}", form.toggle_press, index, letter,
                    role="selected" if letter in race.press else "normal", size_hint_y=None,
                    height=app.tap, scale="small"))
            box.add_widget(letters)
        box.add_widget(self._btn(_("Add race"), "add race", form.add_race, size_hint_y=None,
                                 height=app.tap))

    def _drivers(self) -> None:
        app = App.get_running_app()
        box = self.ids.drivers
        box.clear_widgets()
        self._name_fields.clear()
        form = self.form
        height = max(48, round(app.tap * 0.9))
        size = app.fs_small
        colour_width = max(48.0, text_width([colour_name(c) for c in CAR_COLOURS], size))
        for index, driver in enumerate(form.drivers):
            row = BoxLayout(size_hint_y=None, height=height, spacing=app.fs * 0.25)
            holder = BoxLayout(size_hint_x=None, width=size * 1.3,
                               padding=(0, (height - size * 1.2) / 2))
            holder.add_widget(Swatch(rgba=[*COLOUR_RGB[driver.colour], 1]))
            row.add_widget(holder)
            row.add_widget(self._btn(colour_name(driver.colour), f"colour {index}",
                                     form.next_colour, index, size_hint_x=None,
                                     width=colour_width, scale="small"))
            name = NameInput(text=driver.name, hint_text=_("Driver name"), multiline=False,
                             font_size=app.fs, one_line=app.fs,
                             most_letters=DRIVER_NAME_LETTERS)
            name.test_name = f"name {index}"
            name.bind(text=lambda _w, text, d=driver: self._named(d, text),
                      on_too_long=lambda _w: self._refused())
            self._name_fields.append(name)
            row.add_widget(name)
            row.add_widget(self._btn("X", f"remove {index}", form.remove_driver, index,
                                     size_hint_x=None, width=48,
                                     disabled=len(form.drivers) <= 1,
                                     why_disabled=form.why_no_fewer_drivers()))
            box.add_widget(row)
        self.ids.add_driver.disabled = not form.free_colours() or (
            len(form.drivers) + form.legends >= len(CAR_COLOURS))
        self.ids.add_driver.why_disabled = form.why_no_more_cars()
