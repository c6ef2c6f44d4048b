"""Tinted labels and buttons (:mod:`companion.ui.widgets.tint`) draw exactly what Kivy's own
draw, in every colour, greyed out and selected, and a change of colour renders nothing again."""

from __future__ import annotations

from typing import Any

import pytest
from pixels import widget_pixels

pytestmark = pytest.mark.ui

LOOKS: list[dict[str, Any]] = [{}, {"role": "selected"}, {"role": "off"}, {"role": "accent"},
                               {"disabled": True}]


def _same_picture(a: Any, b: Any) -> None:
    first, second = widget_pixels(a), widget_pixels(b)
    assert len(first) == len(second)
    assert sum(1 for x in first if x > 200) > 100, "nothing drawn"
    assert max(abs(x - y) for x, y in zip(first, second, strict=True)) <= 1  # rounding


@pytest.mark.parametrize("look", LOOKS)
def test_a_tinted_button_draws_what_kivy_draws(ui, look: dict[str, Any]) -> None:
    from companion.ui.widgets.basic import Btn
    from companion.ui.widgets.tint import TintBtn

    made = [cls(text="Gear 2 ready", size=(170, 48), pos=(0, 0)) for cls in (Btn, TintBtn)]
    for button in made:
        button.font_size = 20  # (a Btn takes its size from its scale, not its constructor)
    ui.pump(1)
    for button in made:  # changed after it was first drawn, as on a tap
        for key, value in look.items():
            setattr(button, key, value)
    ui.pump(1)
    _same_picture(*made)


@pytest.mark.parametrize("colour", [(0.2, 0.9, 0.3, 1.0), (1.0, 0.5, 0.2, 0.6)])
def test_a_tinted_label_draws_what_kivy_draws(ui, colour: tuple[float, ...]) -> None:
    from kivy.uix.label import Label

    from companion.ui.widgets.tint import TintLabel

    made = [cls(text="Maximilianus", font_size=20, bold=True, size=(170, 40), pos=(0, 0))
            for cls in (Label, TintLabel)]
    ui.pump(1)
    for label in made:
        label.color = colour
    ui.pump(1)
    _same_picture(*made)


def test_a_change_of_colour_renders_nothing_again(ui) -> None:
    from test_tap_work import counting

    from companion.ui.widgets.tint import TintBtn, TintLabel

    button = TintBtn(text="2", size=(60, 48))
    button.font_size = 20
    label = TintLabel(text="Maximilianus", font_size=20)
    ui.pump(1)
    with counting() as counts:
        button.role = "selected"
        button.disabled = True
        label.color = (0.2, 0.9, 0.3, 1)
        ui.pump(1)
    assert not counts.renders
    # Kivy draws a disabled label in disabled_color: a button's is the theme's greyed colour
    assert button.tint == tuple(button.disabled_color) == tuple(ui.app.c_off_fg)
    assert label.tint == (0.2, 0.9, 0.3, 1.0)
    with counting() as counts:
        button.text = "3"
        button.markup = True  # markup text: its colours are in the text, rendered as Kivy does
        ui.pump(1)
    assert counts.renders and button.tint == (1.0, 1.0, 1.0, 1.0)


def test_the_race_screen_tints_its_buttons_and_names(ui) -> None:
    from companion.ui.demo.table_shots import start
    from companion.ui.widgets.lookup import find

    start(ui.app, ("Maximilianus", "Bartholomew"), 2)
    ui.pump()
    screen = ui.app.sm.current_screen
    undo, gear, name = find(screen, "undo"), find(screen, "gear red 2"), find(screen, "driver red")
    assert undo.disabled and undo.tint == tuple(undo.disabled_color)
    assert gear.tint == tuple(gear.color) and name.tint == tuple(name.color)
    assert undo._label.options["color"] == (1.0, 1.0, 1.0, 1.0)
