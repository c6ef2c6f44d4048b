"""Every key of the card keypad and every React choice reads whole at arm's length: at 800x480
with six cars, in English, Chinese and Korean, each key's label is one line at no less than
READABLE_PX (a key's font shrinks to fit, never below), and each React button's label and its
detail line are each one line ("스트레스" once broke over two lines of its key, and "Turbocharge
/ r 7" broke mid-word)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine.garage import DESIGNS
from companion.ui.demo.busy_shots import BUSY_KEYPAD, SIX_NAMES, to_keypad
from companion.ui.demo.react_shots import start
from companion.ui.views.keypad import key_label
from companion.ui.widgets import text_cache
from companion.ui.widgets.basic import Btn
from companion.ui.widgets.lookup import find, walk
from companion.ui.widgets.measure import READABLE_PX
from companion.ui.widgets.text_fit import FIT

pytestmark = pytest.mark.ui

LANGUAGES = ("en", "zh_TW", "ko")
INSET = 8.0
"""A button wraps its text this far inside its width (common.kv: ``dp(8)``)."""


def _lines(widget: Any) -> int:
    """How many lines Kivy drew the widget's text on."""
    widget.texture_update()
    return len(text_cache.renderer(widget)._cached_lines)


def _plain_lines(widget: Any) -> list[tuple[str, float]]:
    """A widget's text as ``(line, font size)``: a React button's label and its smaller
    detail (``[size=N]...[/size]`` markup), or its plain lines."""
    text = widget.text
    lines = []
    for line in text.split("\n"):
        size = float(widget.font_size)
        if line.startswith("[size="):
            size = float(line[6:line.index("]")])
            line = line[line.index("]") + 1:].replace("[/size]", "")
        lines.append((line.replace("&amp;", "&").replace("&bl;", "[").replace("&br;", "]"),
                      size))
    return lines


def one_line_problems(screen: Any, prefixes: tuple[str, ...], where: str) -> list[str]:
    """Each button (or run caption) named with one of ``prefixes``: every line of its text
    at READABLE_PX or more, as wide as its room at most, and drawn on one line of its own."""
    problems = []
    for widget in walk(screen):
        name = getattr(widget, "test_name", "")
        if not name.startswith(prefixes) or widget.get_root_window() is None:
            continue
        room = widget.width - (INSET if isinstance(widget, Btn) else 0)
        lines = _plain_lines(widget)
        for line, size in lines:
            if size < READABLE_PX:
                problems.append(f"{where}: {name} {line!r} at {size} px")
            if FIT.width(line, size) > room + 0.5:
                problems.append(f"{where}: {name} {line!r} is {FIT.width(line, size):.0f} px "
                                f"wide at {size} px, its room {room:.0f}")
        drawn = _lines(widget)
        if drawn != len(lines):
            problems.append(f"{where}: {name} {widget.text!r} drawn on {drawn} lines, not "
                            f"{len(lines)}")
    return problems


# --- the card keypad ---------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_of_the_keypad_on_one_line(ui, language: str) -> None:
    """The keypad of a car with Garage upgrades and Sponsorship cards (every kind of key),
    enabled and then greyed by a Stress card's flip, in six cars' race."""
    app = ui.app
    start(app, BUSY_KEYPAD, SIX_NAMES)
    ui.pump()
    to_keypad(app, ui.player, BUSY_KEYPAD)
    app.set_language(language)
    ui.pump(3)
    screen = app.sm.current_screen
    assert len(app.controller.state.cars) == 6 and app.root_window.size == (800, 480)
    keys = [k for k, _label, _on in app.controller.view().keys]
    assert {"stress", "up:cooling-6", "up:brakes-1234", "up:air-intake-4",
            "up:sponsor-dramdo", "back"} <= set(keys)
    assert find(screen, "key stress").font_size >= READABLE_PX
    assert one_line_problems(screen, ("key ",), f"keypad {language}") == []
    ui.player.press("key stress")  # the flip: Stress and the upgrades greyed
    ui.pump(2)
    assert find(screen, "key stress").disabled
    assert one_line_problems(screen, ("key ",), f"flip {language}") == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_design_fits_a_key(ui, language: str) -> None:
    """Every Garage and Sponsorship card design's key label, at the readable floor, fits a key
    of the keypad on screen (a car shows only its own cards: each design is checked here)."""
    app = ui.app
    start(app, BUSY_KEYPAD, SIX_NAMES)
    ui.pump()
    to_keypad(app, ui.player, BUSY_KEYPAD)
    app.set_language(language)
    ui.pump(3)
    room = find(app.sm.current_screen, "key stress").width - INSET
    too_wide = [(design.id, key_label(design.id), round(FIT.width(key_label(design.id),
                                                                    READABLE_PX)))
                for design in DESIGNS.values() if not design.heat_card
                and FIT.width(key_label(design.id), READABLE_PX) > room]
    assert too_wide == [], f"room {room:.0f} px"
