"""A React of seven or eight choices with long second lines at 800x480, six cars with
twelve-letter names, in English, Chinese and Korean: a Draft "behind" a twelve-character
name takes a whole row, and in Korean, under the two lines of the prompt, the five rows ran
3.8 px past the panel: it scrolled for End turn's last pixels (found by a table test). Every
choice is now whole on screen, none over another, over the prompt or over the rulings, and
the panel scrolls only where it must, its bar in sight."""

from __future__ import annotations

import pytest
from test_react_busy import _box, _inside, _overlap, _reach, _react_buttons

from companion import i18n
from companion.ui.views.race_view import RaceView, ReactButton
from companion.ui.widgets.lookup import find

pytestmark = pytest.mark.ui

AHEAD = ("歐陽娜娜司馬長風上官婉兒", "남궁민수황보영희제갈공명", "Bartholomews")
"""The car a Draft ends behind: twelve letters."""


def choices(ahead: str, count: int) -> tuple[ReactButton, ...]:
    """Seven or eight choices, as the app words them in the current language, a Draft behind
    ``ahead`` among them."""
    _ = i18n._
    rain = _("incl. {source} +{bonus}").format(source=_("Rain"), bonus=1)
    made = [
        ReactButton("adrenaline", _("Adrenaline +1")),
        ReactButton("cooldown:1", _("Cooldown {n}").format(n=1), series=_("Cooldown"),
                    amount="1", detail=rain),
        ReactButton("cooldown:2", _("Cooldown {n}").format(n=2), series=_("Cooldown"),
                    amount="2", detail=rain),
        ReactButton("boost", _("Boost (1 Heat)")),
        ReactButton("draft", _("Draft {n}").format(n=2),
                    detail=_("behind {car}").format(car=ahead)),
        ReactButton("slipstream", _("Slipstream +{n}").format(n=4), series=_("Slipstream"),
                    amount="+4", detail=_("with {source} +{bonus}").format(source=_("Sun"),
                                                                          bonus=2)),
        ReactButton("slipstream_plain:0", _("Slipstream +{n}").format(n=2),
                    series=_("Slipstream"), amount="+2",
                    detail=_("decline {source} +{bonus}").format(source=_("Sun"), bonus=2)),
        ReactButton("end", _("End turn")),
    ]
    return tuple(made if count == 8 else made[:2] + made[3:])


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_seven_or_eight_choices_with_long_lines_all_in_sight(ui, language: str) -> None:
    app = ui.app
    real = _reach(ui)
    app.set_language(language)
    ui.pump(3)
    screen = app.sm.current_screen
    window = (0, 0, app.root_window.width, app.root_window.height)
    for ahead in AHEAD:
        for count in (7, 8):
            react = choices(ahead, count)
            screen.ids.panel.show(RaceView("react", real.status, real.prompt, real.current,
                                           react=react))
            ui.pump(3)
            panel_box, panel = screen.ids.panel_box, screen.ids.panel
            buttons = _react_buttons(screen)
            assert sorted(buttons) == sorted(b.key for b in react)
            shown = _box(panel_box)
            boxes = {key: _box(widget) for key, widget in buttons.items()}
            others = {"prompt": _box(find(screen, "prompt")),
                      "rulings": _box(screen.ids.messages)}
            where = (language, ahead, count)
            assert panel.height <= panel_box.height + 1, (where, panel.height,
                                                          panel_box.height)
            for key, box in boxes.items():
                assert _inside(box, window) and _inside(box, shown), (where, key, box, shown)
                assert box[3] - box[1] >= 47.5, (where, key, box)  # a finger's target
                for name, other in others.items():
                    assert _overlap(box, other) == 0, (where, key, name)
                for other_key, other in boxes.items():
                    assert other_key == key or _overlap(box, other) == 0, (where, key,
                                                                          other_key)
                widget = buttons[key]
                widget.texture_update()
                assert widget.texture_size[1] <= widget.height + 1, (where, key)
                assert widget.texture_size[0] <= widget.width + 1, (where, key)
