"""Run the headless demo in a WxH window and check the layout of every screen it shows.

``python tests/ui/layout_probe.py WxH OUT``: after every tap and before every picture, each
visible button and label of the current screen (every race mode, and each language the demo
shows) must lie inside the window, its text inside the window, and each touch target must be at
least 48 px each way. Prints one JSON line: ``{"checked": [...], "problems": [...]}``.
(A Kivy window's size is fixed per process, hence a script of its own.) The demo's tour only:
the six-driver race and the Legends' round at 800x480, in three languages, are checked the same
way by ``test_table_race.py``.
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


def main(argv: list[str]) -> int:
    from companion.ui.demo import run as demo

    size = demo.parse_size(argv[0])
    out = Path(argv[1])
    checked: set[str] = set()
    problems: list[str] = []

    def check(app: Any, _shot: str = "") -> None:
        screen = app.sm.current
        where = screen
        if screen == "race" and app.controller is not None:
            where = f"race/{app.controller.view().mode}"
        where = f"{where} [{app.language}]"
        if where in checked:
            return
        checked.add(where)
        problems.extend(p for p in check_screen(app, where) if p not in problems)

    press = demo.TablePlayer.press

    def checked_press(self: Any, name: str, *, touch: bool = True) -> None:
        press(self, name, touch=touch)
        check(self.app)

    demo.TablePlayer.press = checked_press  # type: ignore[method-assign]
    shots = demo.run_headless(out, None, size, on_shot=check, parts=("tour",))
    print(json.dumps({"checked": sorted(checked), "problems": problems,
                      "shots": [p.name for p in shots]}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
