"""The modules part of the New race screen: event, Weather, Road Conditions, Press Corners,
the mechanics' choice and the Garage, each with what it does in words.

Buttons edit the screen's :class:`~companion.ui.views.modules_form.ModulesForm`; every change
redraws the section (a handful of widgets, built in a few milliseconds).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.i18n import _

from ..views.modules_form import (
    ModulesForm,
    chicane_number,
    press_corner_number,
    press_letters,
    token_corners,
)
from ..views.words import (
    deck_label,
    event_line,
    event_title,
    mechanics_choice,
    road_button,
    road_line,
    weather_effect,
    weather_name,
)
from ..widgets.basic import Btn, ToneLabel


def _row(app: Any) -> BoxLayout:
    return BoxLayout(size_hint_y=None, height=app.tap, spacing=app.fs * 0.4)


def _note(text: str, name: str) -> ToneLabel:
    label = ToneLabel(text=text, tone="muted", scale="small")
    label.test_name = name
    return label


class ModulesPanel:
    """Fills ``box`` from ``form()``; ``changed()`` is called after every edit;
    ``garage_locked()`` says why the Garage and its deck are greyed ("": they are not)."""

    def __init__(self, box: Any, form: Callable[[], Any], track: Callable[[], Any],
                 changed: Callable[[], None],
                 garage_locked: Callable[[], str] = lambda: "") -> None:
        self.box = box
        self.form = form
        self.track = track
        self.changed = changed
        self.garage_locked = garage_locked

    @property
    def modules(self) -> ModulesForm:
        return self.form().modules  # type: ignore[no-any-return]

    def _do(self, func: Callable[..., None], *args: Any) -> None:
        func(*args)
        self.changed()

    def _btn(self, text: str, name: str, func: Callable[..., None], *args: Any,
             **kw: Any) -> Btn:
        button = Btn(text=text, test_name=name, **kw)
        button.bind(on_release=lambda _b: self._do(func, *args))
        return button

    def refresh(self) -> None:
        app = App.get_running_app()
        box = self.box
        box.clear_widgets()
        form, modules, track = self.form(), self.modules, self.track()
        box.add_widget(ToneLabel(text=_("Modules"), tone="accent", scale="big"))
        # Championship event.
        row = _row(app)
        row.add_widget(self._btn("<", "event prev", modules.step_event, -1, size_hint_x=None,
                                 width=app.tap))
        name = (_("Event: {title}").format(title=event_title(modules.event))
                if modules.event else _("No event"))
        row.add_widget(self._btn(name, "event", modules.step_event, 1))
        row.add_widget(self._btn(">", "event next", modules.step_event, 1, size_hint_x=None,
                                 width=app.tap))
        box.add_widget(row)
        if modules.event:
            box.add_widget(_note(event_line(modules.event), "event effect"))
        if modules.mechanics_event:
            for driver in form.drivers:
                choice = modules.mechanics_of(driver.colour)
                text = mechanics_choice(driver.display_name, choice)
                box.add_widget(self._btn(text, f"mechanics {driver.colour}",
                                         modules.toggle_mechanics, driver.colour,
                                         size_hint_y=None, height=app.tap))
        # Weather.
        weather = modules.weather_token(form.seed)
        if weather is None:
            text = _("Weather: off")
        elif modules.weather_mode == "drawn":
            text = _("Weather: drawn ({token})").format(token=weather_name(weather))
        else:
            text = _("Weather: {token}").format(token=weather_name(weather))
        box.add_widget(self._btn(text, "weather", modules.cycle_weather, size_hint_y=None,
                                 height=app.tap))
        if weather is not None:
            box.add_widget(_note(weather_effect(weather), "weather effect"))
        # Road Conditions.
        text = {"off": _("Road Conditions: off"),
                "drawn": _("Road Conditions: drawn (12 tokens, one per corner)"),
                "set": _("Road Conditions: set per corner")}[modules.road_mode]
        box.add_widget(self._btn(text, "road", modules.cycle_road_mode, track, form.seed,
                                 size_hint_y=None, height=app.tap))
        tokens = modules.road_tokens(track, form.seed)
        corners = token_corners(track)
        if modules.road_mode == "set":
            grid = GridLayout(cols=3, spacing=app.fs * 0.3, size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            for corner in corners:
                label = road_button(track.corner_number(corner), tokens.get(corner.line_after),
                                    chicane_number(track, corner))
                grid.add_widget(self._btn(label, f"road {corner.line_after}",
                                          modules.cycle_road, corner.line_after,
                                          size_hint_y=None, height=app.tap,
                                          scale="small"))
            box.add_widget(grid)
        lines = [road_line(track.corner_number(c), tokens[c.line_after], chicane_number(track, c))
                 for c in corners if c.line_after in tokens]
        if lines:
            box.add_widget(_note("\n".join(lines), "road effects"))
        # Press Corners.
        box.add_widget(ToneLabel(text=_("Press Corners"), tone="accent"))
        box.add_widget(_note(_(
            "A driver who crosses a chosen corner's line 2 or more over its speed limit, or "
            "with a slipstream move, wins a Sponsorship card. Tap the corners that count."),
            "press note"))
        grid = GridLayout(cols=4, spacing=app.fs * 0.3, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for letter in press_letters(track):
            chosen = letter in modules.press
            text = _("{letter}: corner {n}").format(letter=letter,
                                                   n=press_corner_number(track, letter))
            grid.add_widget(self._btn(text, f"press {letter}", modules.toggle_press, letter,
                                      role="selected" if chosen else "normal",
                                      size_hint_y=None, height=app.tap))
        box.add_widget(grid)
        # Garage.
        row = _row(app)
        text = {"off": _("Garage: off"), "draft": _("Garage: draft"),
                "random": _("Garage: random 3")}[modules.garage]
        # a single race's draft with a pick in effect was dealt from them (draft_lock)
        locked = self.garage_locked()
        row.add_widget(self._btn(text, "garage", modules.cycle_garage, disabled=bool(locked),
                                 why_disabled=locked))
        off = modules.garage == "off"
        row.add_widget(self._btn(deck_label(modules.deck), "garage deck", modules.cycle_deck,
                                 disabled=off or bool(locked),
                                 why_disabled=_("The Garage is off: no upgrade deck is used.")
                                 if off else locked))
        box.add_widget(row)
        if modules.garage == "draft":
            box.add_widget(_note(_("Start race opens the draft: three rounds, one card each."),
                                 "garage note"))
