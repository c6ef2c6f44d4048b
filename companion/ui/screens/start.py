"""Start: Continue the race played last, New race, the other unfinished races, Championship,
Races (history), Settings, and what table hardware was found.

No unfinished race is ever out of reach: Continue opens the one the table played last, "Other
unfinished races" lists every other one, and New race asks first while one is unfinished
(``tests/ui/test_unfinished_races.py``). A Garage draft not over is one of them: Continue takes
it up where it was (after a power cut too), and New race asks first, then ends it
(``tests/ui/test_draft_resume.py``). With nothing to continue (a new table's first look),
New race and New season lead and Continue is a greyed tile among the smaller ones, saying why
when tapped. With nothing unfinished but a season with races to go, Continue is that season's
Next race (the season played last), beside New race and New season
(``tests/ui/test_start_season.py``).
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.i18n import _, listed
from companion.i18n.counts import fill

from ..views.names import car_name, season_name, track_title
from ..views.storage_fault import READ_ONLY, READ_ONLY_FIX, TITLES
from ..widgets.basic import Btn, MoreBelow, ToneLabel  # noqa: F401 - MoreBelow: start.kv
from .base import PagedScreen

PAGES = ("home", "ask", "unfinished")


def race_line(summary: Any, season: tuple[str, int, int] | None = None) -> str:
    """An unfinished race in words: its season's race when it is one (``season``: the
    season's name, the race's number, the season's races), track, laps, the round being
    played, the cars."""
    line = fill(_("{track}, {laps} lap(s), round {round}: {cars}"),
        track=track_title(summary.track_id), laps=summary.laps, round=summary.rounds + 1,
        cars=listed(car_name(car) for car in summary.cars))
    if season is None:
        return line
    name, number, races = season
    return _("{season}, race {n} of {races}: {race}").format(
        season=season_name(name), n=number, races=races, race=line)


def draft_line(summary: Any, season: tuple[str, int, int] | None = None) -> str:
    """A Garage draft not over in words: its season's race when it is one, track, laps, the
    draft's round (a single race drafts three rounds, a season's race one), the cars."""
    cars = listed(car_name(car) for car in summary.cars)
    if summary.season_id is None:
        line = fill(_("{track}, {laps} lap(s), Garage draft, round {round}: {cars}"),
                    track=track_title(summary.track_id), laps=summary.laps,
                    round=min(3, summary.inputs // max(1, summary.drivers) + 1), cars=cars)
    else:
        line = fill(_("{track}, {laps} lap(s), Garage draft: {cars}"),
                    track=track_title(summary.track_id), laps=summary.laps, cars=cars)
    if season is None:
        return line
    name, number, races = season
    return _("{season}, race {n} of {races}: {race}").format(
        season=season_name(name), n=number, races=races, race=line)


def item_line(app: Any, item: Any) -> str:
    """A race or a Garage draft not over, in words (with its season, if any)."""
    if item.kind == "draft":
        season = app.season_words(item.season_id, item.race_no) if item.season_id else None
        return draft_line(item, season)
    return race_line(item, app.season_of_race(item.id))


class StartScreen(PagedScreen):
    page = StringProperty("home")
    leads = StringProperty("unfinished")
    """What the screen leads with (``_lead``): "unfinished" (a race or a draft is unfinished,
    or the log is not read yet): Continue, in the accent colour, beside New race; "season"
    (nothing unfinished, a season has races to go): Continue, named Next race, opens the
    season's next race, beside New race and New season; "new" (neither): New race (accent)
    and New season, Continue a small greyed tile."""
    to_go: Any = None
    """The season race Continue opens while ``leads`` is "season" (``SeasonRaceToGo``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.pages = {name: self.ids[f"{name}_page"].__self__ for name in PAGES}
        self.lead = {name: self.ids[name].__self__ for name in (
            "continue_column", "continue_button", "new_race_button", "new_season_button")}
        """The tiles ``_lead`` moves (held here: one of them is out of the tree at a time)."""
        self._lead("unfinished")
        self._place_page()

    def on_pre_enter(self, *_args: Any) -> None:
        if self.page != "home":
            self.show_page("home")

    # --- actions -------------------------------------------------------------------------------

    def go_on(self) -> None:
        """Continue: the race (or draft) played last, or the next race of a season."""
        if self.leads == "season" and self.to_go is not None:
            self.next_race(self.to_go.season_id)
        else:
            self.continue_race()

    def next_race(self, season_id: str) -> None:
        """The season's Next race (its Back returns here)."""
        app = App.get_running_app()
        app.season_id = season_id
        app.screen("nextrace").prepare(back_to="start")
        app.show("nextrace")

    def continue_race(self, race_id: str | None = None) -> None:
        self.page = "home"
        self._place_page()
        App.get_running_app().continue_race(race_id)

    def continue_draft(self, draft_id: str) -> None:
        self.page = "home"
        self._place_page()
        App.get_running_app().continue_draft(draft_id)

    def new_race(self, confirmed: bool = False) -> None:
        """New race; while a race is unfinished, ask first (Continue it / new race anyway). A
        Garage draft not over that Continue would open is ended by a new race (asked first
        too): its cards are the new race's to deal again."""
        app = App.get_running_app()
        if not confirmed and app.race_log is not None and app.continue_target() is not None:
            self.show_page("ask")
            return
        if confirmed and app.race_log is not None:
            items = app.unfinished()
            if items and items[0].kind == "draft":
                app.abandon_draft(items[0].id)
        self.page = "home"
        self._place_page()
        app.screen("newrace").open_setup()
        app.show("newrace")

    def new_season(self) -> None:
        """New season (the 1961 season first; the table steps to another there); its Back
        returns here."""
        app = App.get_running_app()
        screen = app.screen("newseason")
        screen.new_form()
        screen.back_to = "start"
        app.show("newseason")

    # --- drawing -------------------------------------------------------------------------------

    def _lead(self, leads: str) -> None:
        """The tiles a table sees first. With a race to continue: Continue (and the race it
        opens) beside New race. With a season's race to go: Continue (its Next race, and which
        race it is) beside New race and New season (a table back at a season half played was
        led to New race and New season, the season only under Championship). With neither: New
        race and New season, and Continue greyed and small, last in the row below (a new
        table's first look was a large greyed Continue; Championship stays where Back's quick
        second touch lands, bottom left)."""
        self.leads = leads
        ids, tiles = self.ids, self.lead
        column, button = tiles["continue_column"], tiles["continue_button"]
        season = tiles["new_season_button"]
        for widget in (column, button, season):
            if widget.parent is not None:
                widget.parent.remove_widget(widget)
        if leads != "new":
            column.add_widget(button, index=len(column.children))
            ids.lead_row.add_widget(column, index=len(ids.lead_row.children))
            if leads == "season":
                ids.lead_row.add_widget(season)
            column.size_hint_x = 1.4 if leads == "season" else 1  # leads among three
        else:
            ids.lead_row.add_widget(season)
            ids.more_row.add_widget(button)

    def refresh(self) -> None:
        app = App.get_running_app()
        button = self.ids.continue_button
        info = self.ids.continue_info
        others = self.ids.others_button
        if app.race_log is None:  # opened right after the first frame
            button.disabled, button.opacity, info.text, others.text = True, 0.35, "", ""
            return
        new = self.ids.new_race_button
        new.disabled = app.storage_read_only  # said here, before a race is set up for nothing
        new.why_disabled = f"{_(TITLES[READ_ONLY])}. {_(READ_ONLY_FIX)}"
        season = self.lead["new_season_button"]
        season.disabled, season.why_disabled = new.disabled, new.why_disabled
        unfinished = app.unfinished()
        target = unfinished[0] if unfinished else None
        self.to_go = to_go = app.season_to_go() if target is None else None
        leads = "unfinished" if target is not None else "season" if to_go else "new"
        if self.leads != leads:
            self._lead(leads)
        # a season's next race cannot be stored on read-only storage: said here, as New race
        # says it, not after the table set it up (found by a developer helper)
        read_only = leads == "season" and bool(app.storage_read_only)
        button.disabled, button.opacity = leads == "new" or read_only, 1
        button.why_disabled = (new.why_disabled if read_only else
                               _("No race is unfinished: New race starts one."))
        line = item_line(app, target) if target is not None else ""
        if to_go is not None:
            info.text = _("{season}, race {n} of {races}: {race}").format(
                season=season_name(to_go.name), n=to_go.number, races=to_go.races,
                race=track_title(to_go.track))
        else:
            info.text = line or _("No unfinished race.")
        others.text = (_("Other unfinished races: {n}").format(n=len(unfinished) - 1)
                       if len(unfinished) > 1 else "")
        if self.page == "ask":
            draft = target is not None and target.kind == "draft"
            self.ids.ask_title.text = (_("A Garage draft is unfinished") if draft
                                       else _("A race is unfinished"))
            self.ids.ask_race.text = line
            self.ids.ask_continue.text = _("Continue the draft") if draft else _("Continue it")
            self.ids.ask_note.text = (
                _("A new race ends this draft: Continue no longer offers it.") if draft else
                _("A new race keeps it: it stays one tap away under Other unfinished races."))
        elif self.page == "unfinished":
            self._unfinished(unfinished)

    def _unfinished(self, races: list[Any]) -> None:
        app = App.get_running_app()
        box = self.ids.unfinished_rows
        box.clear_widgets()
        for summary in races:
            row = BoxLayout(size_hint_y=None, height=app.tap * 1.3, spacing=app.fs * 0.4)
            label = ToneLabel(text=item_line(app, summary), scale="small", size_hint_y=1)
            row.add_widget(label)
            button = Btn(text=_("Continue"), size_hint_x=None, width=app.tap * 2.6,
                         test_name=f"resume {summary.id}")
            if summary.kind == "draft":
                button.bind(on_release=lambda _b, r=summary.id: self.continue_draft(r))
            else:
                button.bind(on_release=lambda _b, r=summary.id: self.continue_race(r))
            row.add_widget(button)
            box.add_widget(row)
