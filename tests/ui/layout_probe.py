"""Play sections of the headless demo's tour in a WxH window and check the layout of every
screen they show.

``python tests/ui/layout_probe.py WxH OUT SECTION[,SECTION...]`` plays those sections of the
tour (``companion.ui.demo.run.TOUR``: ``screens``, ``modules``, ``season``, ``faults``), each
from the start screen: after every tap and before every picture, each visible button and label
of the current screen (every race mode, and each language the demo shows) must lie inside the
window, its text inside the window, and each touch target must be at least 48 px each way.
Prints one JSON line: ``{"checked": [...], "problems": [...], "shots": [...]}``. (A Kivy
window's size is fixed per process, hence a script of its own; ``test_layout.py`` runs the
tour's sections a few per process, so that no test plays the whole tour.)

The tour's two races (``TablePlayer.play_to_end``) are played by the same scripted table
(``companion.ui.demo.script``), each input made by what its button (or the demo table's dial
and Ready) calls on the race's controller; the screen is drawn, checked and pictured where it
shows a prompt or screen not checked yet in this process, and at the end. That is every check
and every picture a tap-by-tap race makes (a screen already checked is not checked again),
without drawing the race screen after every tap: the same races, the same pictures.
The frame rate is not capped (``maxfps`` 0): the probe pumps frames, it never waits for them.

The demo's tour only: the six-driver race and the Legends' round at 800x480, in three
languages, are checked the same way by ``test_table_race.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from companion.ui.headless import use_headless_kivy

use_headless_kivy()

MIN_TAP = 48
SLACK = 1.0
"""Pixels of rounding allowed at the window's edges."""


def _chain(widget: Any) -> list[Any]:
    chain = []
    while widget is not None and widget is not widget.parent:
        chain.append(widget)
        widget = widget.parent
    return chain


def _name(widget: Any) -> str:
    label = getattr(widget, "test_name", "") or getattr(widget, "text", "")
    return f"{type(widget).__name__}({str(label)[:40]!r})"


def check_screen(app: Any, where: str) -> list[str]:
    """What is wrong with the layout of ``app``'s current screen."""
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label
    from kivy.uix.scrollview import ScrollView
    from kivy.uix.textinput import TextInput

    window = app.root_window
    problems: list[str] = []
    for widget in app.sm.current_screen.walk(restrict=True):
        chain = _chain(widget)
        if any(w.opacity <= 0 or w.width <= 0 or w.height <= 0 for w in chain):
            continue
        is_button = isinstance(widget, (ButtonBehavior, TextInput))
        if not (is_button or isinstance(widget, Label)):
            continue
        scrolls = [w for w in chain[1:] if isinstance(w, ScrollView)]
        free_x = any(s.do_scroll_x for s in scrolls)
        free_y = any(s.do_scroll_y for s in scrolls)
        boxes = [("box", widget.x, widget.y, widget.width, widget.height)]
        if isinstance(widget, Label) and widget.text:
            tw, th = widget.texture_size
            boxes.append(("text", widget.center_x - tw / 2, widget.center_y - th / 2, tw, th))
        for kind, x, y, w, h in boxes:
            left, bottom = widget.parent.to_window(x, y) if widget.parent else (x, y)
            right, top = left + w, bottom + h
            out_x = left < -SLACK or right > window.width + SLACK
            out_y = bottom < -SLACK or top > window.height + SLACK
            if (out_x and not free_x) or (out_y and not free_y):
                problems.append(
                    f"{where}: {_name(widget)} {kind} ({left:.0f},{bottom:.0f})-"
                    f"({right:.0f},{top:.0f}) is outside {window.width}x{window.height}")
        if is_button and (widget.width < MIN_TAP - 0.5 or widget.height < MIN_TAP - 0.5):
            problems.append(f"{where}: {_name(widget)} is a {widget.width:.0f}x"
                            f"{widget.height:.0f} touch target (< {MIN_TAP} px)")
    return problems


def _where(app: Any) -> str:
    """The screen (a race screen by its prompt) and the language being shown."""
    where = app.sm.current
    if where == "race" and app.controller is not None:
        where = f"race/{app.controller.view().mode}"
    return f"{where} [{app.language}]"


def _input(player: Any, controller: Any, name: str) -> None:
    """Make the input of the race screen's button ``name`` as its button does: the gears on
    the demo table's dial and Ready (``TablePlayer.step``), the rest by calling what the button
    calls on ``controller`` (as ``companion.ui.widgets.race_panel`` and ``react_grid`` wire
    them)."""
    kind, _sep, rest = name.partition(" ")
    mode = controller.view().mode
    if kind == "gear":
        car, gear = rest.split()
        seat = next((s for s, c in player.app.seat_map.items() if c == car), None)
        if player.table is not None and seat in player.table.seats:
            player.table.turn_dial(seat, int(gear))
            player.table.press_ready(seat)
            player.app.poll_hardware()
        else:
            controller.choose_gear(car, int(gear))
    elif kind == "key" and mode in ("boost", "legend_card"):
        getattr(controller, {"boost": "boost_value"}.get(mode, mode))(int(rest))
    elif kind == "key":
        controller.key(rest)
    elif kind == "react":
        controller.react(rest)
    elif name == "run round":
        controller.run_round()
    else:
        raise AssertionError(f"no race button {name!r}")


def main(argv: list[str]) -> int:
    from kivy.config import Config

    Config.set("graphics", "maxfps", "0")  # before Kivy's clock is made: pump, never wait
    Config.set("graphics", "multisamples", "0")  # one sample a pixel (as tests/ui/conftest.py)
    from companion.ui.demo import run as demo
    from companion.ui.demo.script import next_press

    size = demo.parse_size(argv[0])
    out = Path(argv[1])
    sections = argv[2].split(",")
    unknown = set(sections) - set(demo.TOUR)
    if unknown:
        raise SystemExit(f"no tour section {sorted(unknown)}; the tour's: {demo.TOUR}")
    checked: set[str] = set()
    problems: list[str] = []

    def check(app: Any, _shot: str = "") -> None:
        where = _where(app)
        if where in checked:
            return
        checked.add(where)
        problems.extend(p for p in check_screen(app, where) if p not in problems)

    press = demo.TablePlayer.press

    def checked_press(self: Any, name: str, *, touch: bool = True) -> None:
        press(self, name, touch=touch)
        check(self.app)

    def play_checked(self: Any, on_step: Any = None, limit: int = 2000) -> int:
        """``TablePlayer.play_to_end``, each input made by what its button (or the table's
        dial and Ready) calls, without drawing the race screen after each one: drawn, checked
        and shown to ``on_step`` (the tour's pictures) where it shows a prompt or screen not
        checked yet, and at the end."""
        app = self.app
        controller = app.controller
        redraw = controller.on_change
        presses = 0
        try:
            while not controller.state.over:
                name = next_press(controller)
                if name is None:
                    break
                controller.on_change = None
                _input(self, controller, name)
                controller.on_change = redraw
                if controller.error:
                    raise AssertionError(f"{name}: {controller.error}")
                presses += 1
                shown = "results" if controller.state.over else (
                    f"race/{controller.view().mode}")
                if f"{shown} [{app.language}]" not in checked:
                    redraw()
                    self.pump()
                    check(app)
                    if on_step is not None:
                        on_step(name)
                if presses > limit:
                    raise AssertionError("the scripted race does not finish")
        finally:
            controller.on_change = redraw
        redraw()
        self.pump()
        check(app)
        return presses

    demo.TablePlayer.press = checked_press  # type: ignore[method-assign]
    demo.TablePlayer.play_to_end = play_checked  # type: ignore[method-assign]
    shots = demo.run_headless(out, None, size, on_shot=check,
                              parts=tuple(f"tour:{section}" for section in sections))
    print(json.dumps({"checked": sorted(checked), "problems": problems,
                      "shots": [p.name for p in shots]}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
