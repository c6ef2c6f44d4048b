"""A theme change reaches every screen already built (issue 10 point 4): after Settings ->
Light (and back to Dark) with all twelve screens open, every label, button and text field on
every screen reads against what is behind it (WCAG 2: 4.5:1 for text), and the charts' lines
and names read on the new background.

The screens are switched to directly (``sm.current``), not through ``app.show``, which would
re-render them: what is checked is what the theme change itself did to screens built before it.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.ui.widgets.lookup import walk

pytestmark = pytest.mark.ui


def _shown(widget: Any) -> bool:
    while widget is not None and widget is not widget.parent:
        if widget.opacity <= 0 or widget.width <= 0 or widget.height <= 0:
            return False
        widget = widget.parent
    return True


def _behind(widget: Any, window: Any) -> tuple[float, ...]:
    """The colour behind ``widget``'s text: its own or an ancestor's filled background."""
    from kivy.uix.button import Button
    from kivy.uix.textinput import TextInput

    from companion.ui.widgets.basic import Row

    node = widget
    while node is not None and node is not node.parent:
        if isinstance(node, (Button, TextInput)):
            return tuple(node.background_color)
        if isinstance(node, Row) and node.bg[3] > 0:
            return tuple(node.bg)
        node = node.parent
    return tuple(window.clearcolor)


def unreadable(app: Any, name: str) -> list[str]:
    """Every shown, enabled text on screen ``name`` below 4.5:1 against its background."""
    from kivy.uix.label import Label
    from kivy.uix.textinput import TextInput

    from companion.ui.widgets.line_chart import TEXT_CONTRAST, contrast

    problems = []
    screen = app.sm.get_screen(name)
    for widget in walk(screen):
        if widget.disabled or getattr(widget, "role", "") == "off" or not _shown(widget):
            continue
        if isinstance(widget, Label) and widget.text.strip():
            fg = tuple(widget.color)
        elif isinstance(widget, TextInput):
            fg = tuple(widget.foreground_color)
        else:
            continue
        if getattr(widget, "state", "normal") != "normal":
            continue
        ratio = contrast(fg, _behind(widget, app.root_window))
        if ratio < TEXT_CONTRAST:
            label = getattr(widget, "test_name", "") or widget.text[:30]
            problems.append(f"{name}: {type(widget).__name__} {label!r} {ratio:.2f}:1")
    return problems


def chart_problems(app: Any, name: str) -> list[str]:
    """Each car's line (its core, or the casing drawn round a core too close to the
    background) at 3:1, and its name at 4.5:1, against the chart's background."""
    from companion.ui.widgets.line_chart import (
        LINE_CONTRAST,
        TEXT_CONTRAST,
        LineChart,
        contrast,
    )

    problems = []
    for chart in (w for w in walk(app.sm.get_screen(name)) if isinstance(w, LineChart)):
        assert chart.inks, f"{name}: the chart drew no car"
        for car, ink in chart.inks.items():
            line = max(contrast(ink.core, app.c_panel), contrast(ink.casing, app.c_panel))
            if line < LINE_CONTRAST:
                problems.append(f"{name}: {car}'s line {line:.2f}:1")
            if contrast(ink.text, app.c_panel) < TEXT_CONTRAST:
                problems.append(f"{name}: {car}'s name")
    return problems


def _every_screen_built(ui: Any) -> None:
    """All twelve screens built and showing something: a race played to its results, a
    1961 season with its next race, a Garage draft, a race under way."""
    import tracks
    from companion.racesim import SensibleDriver, run_race
    from companion.ui.app import SCREENS
    from companion.ui.views.race_form import RaceForm

    app, player = ui.app, ui.player
    form = RaceForm(seed=5)
    form.first_race()
    form.set_legends(2)
    session = app.log().new_race(form.setup(tracks.load_track("usa")))
    for action in run_race(session.setup, seed=3, driver=SensibleDriver).actions:
        session.submit(action)  # a finished race without the taps
    app.open_session(session)
    assert app.sm.current == "results"
    app.screen("results").export_chart()
    player.press("home")
    player.press("championship")
    player.press("season 1961")
    for index, name in enumerate(("Ana", "Ben")):
        player.find(f"name {index}").text = name
    player.press("create season")
    player.press("next race")
    assert app.sm.current == "nextrace"
    app.show("start")
    player.set_up_race()
    player.press("more options")
    player.press("garage")
    player.press("start race")
    assert app.sm.current == "draft"
    app.show("start")
    player.set_up_race()
    player.press("start race")
    for _ in range(6):
        player.step()
    app.show("settings")
    player.press("hardware check")
    player.press("back")
    for name in SCREENS:
        app.screen(name)
    assert {s.name for s in app.sm.screens} == set(SCREENS)


def test_a_theme_change_reaches_every_open_screen(ui) -> None:
    from companion.ui.app import SCREENS

    app = ui.app
    _every_screen_built(ui)
    assert app.sm.current == "settings"
    before = {name: unreadable(app, name) for name in SCREENS}
    assert before == {name: [] for name in SCREENS}
    for theme in ("light", "dark"):
        ui.player.press(f"theme {theme}")
        assert app.theme_name == theme
        for name in SCREENS:
            app.sm.current = name  # no re-render: what the theme change itself did
            ui.pump()
            assert unreadable(app, name) == [], theme
        assert chart_problems(app, "results") == [] and chart_problems(app, "standings") == []
        app.sm.current = "settings"
        ui.pump()


def test_the_light_theme_from_a_cold_start_matches_a_switch(ui) -> None:
    """The colours a screen gets when the app starts in Light are the ones a switch gives."""
    app = ui.app
    ui.player.set_up_race()
    ui.player.press("start race")
    for _ in range(4):
        ui.player.step()
    app.show("settings")
    ui.player.press("theme light")
    app.sm.current = "race"
    ui.pump()
    switched = _colours(app, "race")
    app = ui.restart()
    assert app.theme_name == "light"
    ui.player.press("continue")
    ui.pump()
    cold = _colours(app, "race")
    assert len(cold) > 20 and cold.keys() == switched.keys()
    same_state = [name for name in cold if cold[name][0] == switched[name][0]]
    assert len(same_state) > 20  # (Undo or a key may be enabled in one and not the other)
    assert {n: cold[n] for n in same_state} == {n: switched[n] for n in same_state}


def _colours(app: Any, name: str) -> dict[str, tuple[bool, tuple[float, ...]]]:
    """Test name -> (disabled, text colour) of every named label on screen ``name``."""
    from kivy.uix.label import Label

    return {w.test_name: (w.disabled, tuple(round(c, 3) for c in w.color))
            for w in walk(app.sm.get_screen(name))
            if isinstance(w, Label) and getattr(w, "test_name", "")}


def _over(colour: tuple[float, ...], behind: tuple[float, ...]) -> tuple[float, ...]:
    """``colour`` as it shows drawn over ``behind`` (its alpha blended)."""
    alpha = colour[3] if len(colour) > 3 else 1.0
    return tuple(alpha * c + (1 - alpha) * b for c, b in zip(colour[:3], behind[:3], strict=True))


def test_a_greyed_end_turn_reads_on_both_themes(ui) -> None:
    """End turn greyed beside Cannot pay (a card's Heat the engine cannot pay) was drawn in
    Kivy's disabled colour, white at 30 %, whatever the theme: 2.4:1 against the dark theme's
    button, 1.2:1 against the light one's, dim from arm's length. A greyed button's text is
    drawn in the theme's greyed colour now, at 4.5:1 at least (WCAG 2 text) on a button and
    on an off button in both themes, with at most half the contrast of an enabled
    button's text (it still reads greyed); every greyed button of the race screen so drawn,
    in Dark and in Light."""
    import copy

    from companion.ui.app.theme import THEMES
    from companion.ui.demo.react_shots import CHOICES, start, to_react
    from companion.ui.widgets.basic import Btn
    from companion.ui.widgets.line_chart import TEXT_CONTRAST, contrast
    from companion.ui.widgets.lookup import find
    from companion.ui.widgets.tint import TintBtn

    for name, colours in THEMES.items():
        greyed = colours["off_fg"]
        assert contrast(greyed, colours["btn"]) >= TEXT_CONTRAST, name
        assert contrast(greyed, colours["off"]) >= TEXT_CONTRAST, name
        enabled = contrast(colours["btn_fg"], colours["btn"])
        assert contrast(greyed, colours["btn"]) <= enabled / 2, name
    app = ui.app
    race = copy.deepcopy(CHOICES["unpaid"][1])
    start(app, race)
    ui.pump()
    to_react(app, ui.player, race)
    ui.pump(2)
    screen = app.sm.current_screen
    end = find(screen, "react end")
    assert end.disabled and find(screen, "react unpaid").text.startswith("Cannot pay")
    for theme in ("dark", "light"):
        app.set_theme(theme, save=False)
        ui.pump()
        greyed = [w for w in walk(screen)
                  if isinstance(w, Btn) and w.disabled and w.text and _shown(w)]
        assert end in greyed
        for button in greyed:
            behind = tuple(button.background_color)
            drawn = button.tint if isinstance(button, TintBtn) else tuple(button.disabled_color)
            ratio = contrast(_over(drawn, behind), behind)
            assert ratio >= TEXT_CONTRAST, (theme, button.test_name, drawn, round(ratio, 2))
