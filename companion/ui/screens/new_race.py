"""New race: the usual race on one screen (track, laps, Legends and their difficulty, the
drivers with name, colour, table seat and handicap); everything else (Legends deck, when gears
are chosen, the starting grid, the modules) behind "More options"; the track's unverified data
notes behind "Details".

The three pages live in one screen: ``show_page`` swaps them, the form stays.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion import i18n
from companion.engine.modules import EVENTS
from companion.i18n import _, listed

from ..views.draft_lock import (
    DealChanged,
    cars_locked,
    colours_locked,
    deal_changed,
    garage_locked,
    grid_locked,
)
from ..views.name_length import DRIVER_NAME_LETTERS, driver_name_words
from ..views.names import COLOUR_RGB, colour_name, legend_name
from ..views.race_form import RaceForm, options_summary
from ..widgets.basic import (  # noqa: F401 - MoreBelow: new_race.kv
    Btn,
    MoreBelow,
    Swatch,
    ToneLabel,
    explain,
)
from ..widgets.measure import text_width
from ..widgets.name_input import NameInput
from ..widgets.text_fit import FIT
from .base import PagedScreen, show_legends, show_name_clash

PAGES = ("setup", "options", "notes")


def seat_words(seat: int) -> str:
    """A driver's table seat on the seat button, on two lines ("Seat" / "1")."""
    return _("Seat\n{seat}").format(seat=seat)


def say(stepper: Any, value: str, meaning: str) -> None:
    """A stepper's figure and, under it in small type, what it means."""
    stepper.value, stepper.meaning = value, meaning


def _lock(button: Any, why: str) -> None:
    """``button`` greyed because a pick of the draft under way was dealt from what it changes
    (``why``), unless it is greyed already for a reason of its own, which it says first."""
    if not button.disabled:
        button.disabled, button.why_disabled = True, why


class NewRaceScreen(PagedScreen):
    page = StringProperty("setup")
    """The page shown: ``setup`` (the usual race), ``options`` or ``notes``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        import tracks

        self.tracks = tracks.available_tracks()
        self._name_fields: list[NameInput] = []
        """The drivers' name fields, in the form's order."""
        self._too_long = False
        """A key or a paste in a name was refused (a name holds 12 letters): said above the
        names until a name changes or the form is redrawn."""
        self.form = RaceForm()
        self.form.first_race()
        self.begun: str | None = None
        """The Garage draft begun from this form and not over (its id in the race log): Start
        race again after Back from the draft takes it up where it was (the setup as changed,
        where the deal does not depend on it), or, with no pick in effect and the deal
        changed, abandons it for a new one."""
        self.locked = False
        """A pick of :attr:`begun` is in effect: what its deal depends on is greyed
        (:mod:`~companion.ui.views.draft_lock`)."""
        self.pages = {name: self.ids[f"{name}_page"].__self__ for name in PAGES}
        """The pages (held here: only the one shown is in the widget tree)."""
        self._place_page()
        from .new_race_modules import ModulesPanel

        self.panel = ModulesPanel(self.ids.modules, lambda: self.form,
                                  lambda: self.info.track, self.refresh,
                                  lambda: garage_locked() if self.locked else "")

    def new_form(self) -> None:
        self.form = RaceForm()
        self.form.first_race()
        self.begun = None
        self.page = "setup"
        self._place_page()
        self.refresh()

    def resume(self, form: RaceForm, flow: Any) -> None:
        """The form a Garage draft taken up after a restart began from (``flow``'s Back comes
        here: the setup as the table left it)."""
        self.form = form
        self.begun = flow.stored
        self.page = "setup"
        self._place_page()

    @property
    def info(self) -> Any:
        return next(t for t in self.tracks if t.id == self.form.track_id)

    # --- pages -------------------------------------------------------------------------------

    def open_setup(self) -> None:
        """Come in on the race setup (the form as it was left)."""
        self.page = "setup"
        self._place_page()

    def _place_page(self) -> Any:
        shown = super()._place_page()
        if not isinstance(shown, BoxLayout):
            shown.scroll_y = 1  # a scrolling page comes in at its top
        return shown

    def back(self) -> None:
        if self.page != "setup":
            self.show_page("setup")
        else:
            App.get_running_app().show("start")

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
        if self._names_checked():
            return  # said above the names; Start race is greyed until they are changed
        problem = self.form.problem(self.info.track)
        if problem:
            self.ids.problem.text = problem
            return
        if self.form.modules.garage == "draft":
            self._draft()
            return
        self._start_with(None)

    def _start_with(self, upgrades: dict[str, tuple[str, ...]] | None,
                    draft: str | None = None) -> None:
        """The race, with each driver's Garage cards from ``draft`` (the stored draft, which
        ends in the transaction that stores the race) and its seats (written before that
        transaction commits: a race stored has its seats, ``app.seated``)."""
        app = App.get_running_app()
        session = app.log().new_race(self.form.setup(self.info.track, upgrades), draft=draft,
                                     then=app.seated(self.form.seat_map()))
        self.new_form()
        app.season_id = None
        app.open_session(session)

    def start_drafted(self, upgrades: dict[str, tuple[str, ...]]) -> None:
        """The draft's Start race: the race with the cards drafted."""
        flow = App.get_running_app().draft_flow
        self._start_with(upgrades, draft=flow.stored if flow is not None else None)

    def _draft(self) -> None:
        """The guided Garage draft (three rounds), recorded pick by pick, then the race with
        the cards drafted."""
        from ..views.draft_record import race_draft

        app = App.get_running_app()
        flow, start = race_draft(self.form, self.info.track, self.start_drafted)
        try:
            app.begin_draft(flow, start, replacing=(self.begun,) if self.begun else (),
                            carry=self.begun)
        except DealChanged:  # said beside Start race: a line under six drivers had no room
            self.refresh()
            explain(self.ids.start, deal_changed())
            return
        self.begun = flow.stored
        app.show("draft")

    # --- drawing -----------------------------------------------------------------------------

    @staticmethod
    def name_size(text: str, width: float, size: float, smallest: float) -> float:
        """The track's name whole on one line in ``width``: ``size``, or smaller down to
        ``smallest`` (then cut with "..."); a table test saw the Korean "남아프리카 공화국"
        cut to "남아프...공화국" at 800x480."""
        wanted = FIT.width(text, size) if text else 0.0
        room = width - 4  # the label's own padding
        return max(smallest, size * room / wanted) if wanted > room > 0 else size

    def refresh(self) -> None:
        self._too_long = False
        self.locked = bool(self.begun) and App.get_running_app().draft_picks(self.begun) > 0
        form, info = self.form, self.info
        track = info.track
        self.ids.page_button.text = (_("Race setup") if self.page == "options"
                                     else _("More options"))
        self.ids.track_name.text = info.display_name(i18n.language())
        self.ids.track_facts.text = _(
            "{corners} corners. Each car starts with {heat} Heat and {stress} Stress.").format(
            corners=len(track.corners), heat=track.heat, stress=track.stress)
        self.ids.track_notice.text = (_("Track data not yet checked")
                                      if track.unverified else "")
        self.ids.notes_title.text = _("{track}: data not yet checked").format(
            track=info.display_name(i18n.language()))
        self.ids.track_notes.text = "\n\n".join(_(n) for n in track.unverified)
        say(self.ids.laps, _("Laps: {laps}").format(laps=self._laps()), self._laps_meaning())
        show_legends(form, self.ids)
        if self.locked:
            for button in (self.ids.legends_minus, self.ids.legends_plus):
                _lock(button, cars_locked())
        self.ids.options_summary.text = self._summary(form)
        self._drivers()
        if self.page == "options":
            self._options()
        names = self._names_checked()
        problem = form.problem(track)
        self.ids.problem.text = "" if problem == names else problem  # said above the names

    def _summary(self, form: RaceForm) -> str:
        """The options in one sentence of at most two lines in the column (more pushed the
        track's name off the top at 800x480): the modules named while they fit, else
        counted (More options names them)."""
        app = App.get_running_app()
        label = self.ids.options_summary
        from kivy.core.window import Window

        width = label.width if label.width > 1 else Window.width * 0.4 - app.fs
        text = options_summary(form)
        if FIT.lines(text, label.font_size, width) > 2:
            text = options_summary(form, short=True)
        return text

    def _laps(self) -> int:
        form, track = self.form, self.info.track
        laps = form.laps or track.laps
        event = EVENTS.get(form.modules.event or "")
        if form.laps is None and event is not None:
            laps = max(1, laps + event.laps)
        return laps

    def _laps_meaning(self) -> str:
        track = self.info.track
        event = EVENTS.get(self.form.modules.event or "")
        if self.form.laps is None and event is not None and event.laps:
            return _("Board: {laps}, event {extra:+d}").format(laps=track.laps,
                                                               extra=event.laps)
        if self._laps() == track.laps:
            return _("As printed on the board")
        return _("The board says {laps}").format(laps=track.laps)

    def _drivers(self) -> None:
        box = self.ids.drivers
        box.clear_widgets()
        self._name_fields.clear()
        app = App.get_running_app()
        form = self.form
        height = max(48, min(app.tap, round(app.tap * 0.9)))
        size = app.fs_small
        from ..views.names import CAR_COLOURS

        # Each column as wide as its longest label in this language (at least 48), the text
        # 7.5 px inside the button's edges, the seat on two lines as the handicap is ("Seat" /
        # "1"), the buttons 3.6 px apart as the rows are: what is left is the name's, and a
        # 12-letter Chinese or Korean name needs 187 px at the readable floor (the field
        # writes it smaller, down to that floor, rather than scroll it out of sight).
        widths = {
            "colour": text_width([colour_name(c) for c in CAR_COLOURS], size, margin=1.0),
            "seat": text_width([seat_words(n) for n in range(1, 9)], size, margin=1.0),
            "handicap": text_width([_("No\nhandicap"), _("Handicap:\n-{n} Heat").format(n=2)],
                                   size, margin=1.0),
        }
        widths = {key: max(48.0, width) for key, width in widths.items()}
        for index, driver in enumerate(form.drivers):
            row = BoxLayout(size_hint_y=None, height=height, spacing=app.fs * 0.2)
            holder = BoxLayout(size_hint_x=None, width=size * 1.3,
                               padding=(0, (height - size * 1.2) / 2))
            swatch = Swatch(rgba=[*COLOUR_RGB[driver.colour], 1])
            holder.add_widget(swatch)
            colour = Btn(text=colour_name(driver.colour), size_hint_x=None,
                         width=widths["colour"], scale="small", test_name=f"colour {index}",
                         disabled=self.locked, why_disabled=colours_locked())
            colour.bind(on_release=lambda _b, i=index: self._do(form.next_colour, i))
            name = NameInput(text=driver.name, hint_text=_("Driver name"), multiline=False,
                             font_size=app.fs, one_line=app.fs,
                             most_letters=DRIVER_NAME_LETTERS)
            name.test_name = f"name {index}"
            name.bind(text=lambda _w, text, d=driver: self._named(d, text),
                      on_too_long=lambda _w: self._refused())
            self._name_fields.append(name)
            seat = Btn(text=seat_words(driver.seat), size_hint_x=None,
                       width=widths["seat"], scale="small", test_name=f"seat {index}")
            seat.bind(on_release=lambda _b, i=index: self._do(form.next_seat, i))
            handicap = Btn(
                text=_("Handicap:\n-{n} Heat").format(n=driver.handicap) if driver.handicap
                else _("No\nhandicap"), size_hint_x=None, width=widths["handicap"],
                scale="small", test_name=f"handicap {index}")
            handicap.bind(on_release=lambda _b, i=index: self._do(form.cycle_handicap, i))
            remove = Btn(text="X", size_hint_x=None, width=48, test_name=f"remove {index}",
                         disabled=len(form.drivers) <= 1,
                         why_disabled=form.why_no_fewer_drivers())
            if self.locked:
                _lock(remove, cars_locked())
            remove.bind(on_release=lambda _b, i=index: self._do(form.remove_driver, i))
            for widget in (holder, colour, name, seat, handicap, remove):
                row.add_widget(widget)
            box.add_widget(row)
        self.ids.add_driver.disabled = not form.free_colours() or (
            len(form.drivers) + form.legends >= 6)
        self.ids.add_driver.why_disabled = form.why_no_more_cars()
        if self.locked:
            _lock(self.ids.add_driver, cars_locked())

    def _named(self, driver: Any, text: str) -> None:
        """A name typed: checked at once, key by key (``_names_checked``)."""
        driver.name = text
        self._too_long = False
        self._names_checked()

    def _refused(self) -> None:
        """A key or a paste would have made a name longer than it may be: said above the
        names (it was taken silently, 40 letters cut with "…" in the race)."""
        self._too_long = True
        self._names_checked()

    def _names_checked(self) -> str:
        """The drivers' names checked: Start race greyed while two clash (``show_name_clash``);
        returns the reason ("" when the names stand)."""
        return show_name_clash(self.form, self._name_fields, self.ids.drivers_title,
                               self.ids.start,
                               refused=driver_name_words() if self._too_long else "",
                               below=self.ids.name_refused)

    def _options(self) -> None:
        form = self.form
        self.ids.deck.text = (_("Legends deck: physical (enter each card)")
                              if form.physical_deck else _("Legends deck: virtual (app draws)"))
        self.ids.tournament.text = (
            _("Gears: each driver at the car's turn (tournament)") if form.tournament
            else _("Gears: everyone at the start of the round"))
        self.ids.grid.text = (_("Starting grid: drawn at random") if form.random_grid
                              else _("Starting grid: set by hand"))
        self.ids.new_seed.disabled = not form.random_grid
        self.ids.new_seed.why_disabled = _(
            "The grid is set by hand: there is no draw to make again.")
        self.ids.grid.disabled = False
        if self.locked:
            for button in (self.ids.grid, self.ids.new_seed):
                _lock(button, grid_locked())
        order = [self._car_text(car) for car in form.grid_order()]
        self.ids.grid_words.text = _("Pole position: {first}. Then: {rest}.").format(
            first=order[0], rest=listed(order[1:]) or "-") if form.random_grid else ""
        self.ids.seed_words.text = _(
            "Draw number {seed}: it decides the random grid and any drawn Weather and Road "
            "Conditions, and is saved with the race.").format(seed=form.seed)
        self._grid()
        self.panel.refresh()

    def _grid(self) -> None:
        box = self.ids.grid_rows
        box.clear_widgets()
        if self.form.random_grid:
            return
        app = App.get_running_app()
        for position, car in enumerate(self.form.grid_order(), start=1):
            row = BoxLayout(size_hint_y=None, height=app.tap, spacing=app.fs * 0.4)
            label = ToneLabel(text=f"{position}.  {self._car_text(car)}")
            label.size_hint_y = 1
            up = Btn(text=_("Up"), size_hint_x=None, width=app.tap * 2,
                     disabled=position == 1, test_name=f"up {car}",
                     why_disabled=_("Already first on the grid."))
            if self.locked:
                _lock(up, grid_locked())
            up.bind(on_release=lambda _b, c=car: self._do(self.form.move_up, c))
            row.add_widget(label)
            row.add_widget(up)
            box.add_widget(row)

    def _car_text(self, car: str) -> str:
        driver = next((d for d in self.form.drivers if d.colour == car), None)
        if driver is None:
            return legend_name(car)
        return driver.display_name

    def _do(self, func: Any, *args: Any) -> None:
        func(*args)
        self.refresh()
