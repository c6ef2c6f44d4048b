"""React's whole buttons with the longest names at the table: the car ahead named with twelve
Chinese, Korean or Latin letters, in English, Chinese and Korean at 800x480, every React
button's text (its label and, under it, the detail naming the car) is inside its button. Draft
beside another choice wrapped its "behind <name>" to a third line in a half-row button, the
label over the button above and the name's last word under its bottom edge (found by a table
test)."""

from __future__ import annotations

import copy

import pytest

from companion.ui.demo.react_shots import CHOICES, start, to_react
from companion.ui.widgets.lookup import walk

pytestmark = pytest.mark.ui

LONG_NAMES = ("박지성선수의축구이야기들", "제갈공명선생의후손이라네", "司馬長風萬里雲天海闊山高",
              "諸葛孔明先生字臥龍南陽人", "Bartholomeus", "Maximilianus")


@pytest.mark.parametrize("ahead", LONG_NAMES)
def test_every_react_button_holds_its_text_with_a_long_name_ahead(ui, ahead: str) -> None:
    app = ui.app
    race = copy.deepcopy(CHOICES["draft"][1])
    start(app, race, {"red": "Maximilianus", "blue": ahead})
    ui.pump()
    to_react(app, ui.player, race)
    ui.pump(2)
    assert app.controller.view().mode == "react"
    assert app.root_window.size == (800, 480)
    for language in ("en", "zh_TW", "ko"):
        app.set_language(language)
        ui.pump(3)
        buttons = [w for w in walk(app.sm.current_screen)
                   if getattr(w, "test_name", "").startswith("react ")]
        assert "react draft" in {w.test_name for w in buttons}
        for widget in buttons:
            widget.texture_update()
            tw, th = widget.texture_size
            assert tw <= widget.width + 1 and th <= widget.height + 1, (
                f"{language}: {widget.text!r} ({tw:.0f}x{th:.0f}) overflows its "
                f"{widget.width:.0f}x{widget.height:.0f} button")
    app.set_language("en")
    ui.pump(2)
