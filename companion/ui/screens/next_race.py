"""Next race of a season: the race (track, event, Press Corners, Sponsorship cards), the grid,
the draft order, the Weather and Road Conditions drawn; Draft opens the Garage draft round and
its Start race starts the race through ``SeasonStore.start_race``."""

from __future__ import annotations

from typing import Any

from kivy.app import App

from companion.i18n import _, listed
from companion.i18n.counts import fill

from ..views.modules_form import chicane_number, press_corner_number, token_corners
from ..views.names import track_title
from ..views.next_race import NextRace, plan_next_race
from ..views.words import (
    deck_label,
    event_line,
    mechanics_choice,
    road_line,
    weather_effect,
    weather_name,
)
from ..widgets.basic import Btn, MoreBelow, ToneLabel  # noqa: F401 - MoreBelow: next_race.kv
from .base import BaseScreen


class NextRaceScreen(BaseScreen):
    plan: NextRace | None = None
    back_to = "standings"
    """Where Back leads: the season's standings, or Start when its Next race opened this."""

    def prepare(self, seed: int | None = None, back_to: str = "standings") -> None:
        """The next race of the app's season: the one its Garage draft under way is for (drawn
        from the same seed), else drawn afresh. ``back_to``: the screen Back returns to."""
        app = App.get_running_app()
        self.back_to = back_to
        if seed is None:
            self.plan = app.season_draft_plan(app.season_id)
            if self.plan is not None:
                return
            seed = app.race_seed  # fixed by the demo and the UI tests, else drawn
        self.plan = plan_next_race(app.season_store(), app.season_id, seed)

    def resume(self, plan: NextRace, _flow: Any) -> None:
        """The plan a season's Garage draft taken up after a restart began from (the draft's
        Back comes here)."""
        self.plan = plan
        self.back_to = "standings"

    def refresh(self) -> None:
        app = App.get_running_app()
        plan = self.plan
        box = self.ids.info
        box.clear_widgets()
        deck = self.ids.deck
        if plan is None:
            # opened with no race (a fresh app's first screen): its deck button had no text;
            # it says why there is none, the deck button goes, and with no season open Back
            # leads Home (the Standings it led to had none to show); Garage draft goes too
            # (a large greyed orange bar with nothing to draft for: found by a table test)
            self.ids.title.text = _("No race to start.")
            why = (_("No season is open: Championship on Home opens one.")
                   if app.season_id is None else
                   _("This season has no race to start now: Back shows its Standings."))
            label = ToneLabel(text=why, tone="muted")
            label.test_name = "no race"
            box.add_widget(label)
            if app.season_id is None:
                self.back_to = "start"
            for gone in (deck, self.ids.draft):
                gone.disabled, gone.opacity = True, 0
                gone.size_hint_x, gone.width = None, 0
            deck.text = ""
            return
        # a draft with picks was dealt from this deck and these choices: changing them dealt
        # a new market and threw the picks away without a word (found by a table test)
        locked = app.season_draft_picks(plan.season_id) > 0
        deck.disabled, deck.opacity, deck.size_hint_x = locked, 1, 0.4
        deck.why_disabled = _("The deck is locked: a pick of this draft is recorded. Undo "
                              "every pick on the Garage draft screen to change it.")
        self.ids.draft.disabled, self.ids.draft.opacity = False, 1
        self.ids.draft.size_hint_x = 1
        names = plan.names()
        race = plan.race
        self.ids.title.text = _("Race {n}: {track}").format(n=plan.number,
                                                            track=track_title(race.track))

        def add(text: str, name: str = "", muted: bool = False) -> None:
            label = ToneLabel(text=text, scale="small", tone="muted" if muted else "fg")
            label.test_name = name
            box.add_widget(label)

        add(event_line(race.event), "event")
        # which corner each letter names, as the season's details say ("E: corner 2"): the
        # letter alone sent the table back to them to place the Press marker (found by a
        # table test)
        press = listed(_("{letter}: corner {n}").format(
            letter=letter, n=press_corner_number(plan.track, letter)) for letter in race.press)
        # "draws 0 cards" read oddly, and so did "Press Corners: -." (found by table tests)
        if press:
            said = (_("Press Corners: {press}. Each driver draws {cards} Sponsorship card(s).")
                    if race.sponsors else
                    _("Press Corners: {press}. No Sponsorship cards to draw."))
        else:
            said = (_("No Press Corners this race. Each driver draws {cards} Sponsorship "
                      "card(s).") if race.sponsors else
                    _("No Press Corners this race. No Sponsorship cards to draw."))
        add(fill(said, press=press, cards=race.sponsors), "press")
        # a place and its car never on two lines ("5." at a line's end): a no-break space
        grid = listed(f"{i}.\u00a0{names[c]}" for i, c in enumerate(plan.grid, start=1))
        add(_("Grid: {grid}").format(grid=grid), "grid")
        # only what is true for this race: the first picker's swap is offered only to a driver
        # with an earlier Upgrade (none before race 1), and nobody has picked yet ("X picked
        # first and may then swap one earlier Upgrade" before race 1: found by a table test)
        order = listed(names[c] for c in plan.picks)
        first = plan.picks[0] if plan.picks else None
        add(fill(_("Draft order: {order}. {car} picks first and may then swap one earlier "
                   "Upgrade for a card left.") if plan.swap_offered else
                 _("Draft order: {order}. {car} picks first."), order=order, car=names[first])
            if first is not None else "",
            "draft order")
        add(_("Weather: {token}. {effect}").format(token=weather_name(plan.weather),
                                                   effect=weather_effect(plan.weather)),
            "weather")  # one sentence per language ("天氣：暴風雨。", not "暴風雨. ")
        road = plan.road
        add("\n".join(road_line(plan.track.corner_number(c), road[c.line_after],
                                chicane_number(plan.track, c))
                      for c in token_corners(plan.track) if c.line_after in road),
            "road", muted=True)
        if plan.mechanics_event:
            for car in plan.picks:
                text = mechanics_choice(names[car], plan.mechanics.get(car, 1))
                button = Btn(text=text, test_name=f"mechanics {car}", size_hint_y=None,
                             height=app.tap, disabled=locked, why_disabled=_(
                                 "The choice is locked: a pick of this draft is recorded. Undo "
                                 "every pick on the Garage draft screen to change it."))
                button.bind(on_release=lambda _b, c=car: self.toggle_mechanics(c))
                box.add_widget(button)
        self.ids.deck.text = deck_label(plan.deck)

    def toggle_mechanics(self, car: str) -> None:
        assert self.plan is not None
        if App.get_running_app().season_draft_picks(self.plan.season_id):
            return  # locked (greyed): the draft under way was dealt from this choice
        self.plan.toggle_mechanics(car)
        self.refresh()

    def cycle_deck(self) -> None:
        if self.plan is not None and not App.get_running_app().season_draft_picks(
                self.plan.season_id):
            self.plan.cycle_deck()
            self.refresh()

    def draft(self) -> None:
        """One Garage draft round for this race, recorded pick by pick (the season's draft
        under way taken up where it was, if it is for this very plan), then the race."""
        from ..views.draft_record import season_draft

        plan = self.plan
        if plan is None:
            return
        app = App.get_running_app()
        flow, start = season_draft(plan, self.start_race)
        app.begin_draft(flow, start)
        app.show("draft")

    def start_race(self, upgrades: dict[str, tuple[str, ...]]) -> Any:
        app = App.get_running_app()
        plan = self.plan
        assert plan is not None
        flow = app.draft_flow
        session = app.season_store().start_race(plan.season_id, plan.setup(upgrades),
                                                draft=flow.stored if flow is not None else None)
        self.plan = None
        app.season_id = plan.season_id
        app.open_session(session)
        return session
