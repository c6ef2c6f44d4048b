"""Lists that scroll say so: while one is taller than its view, its bar stays in sight, wide and
in the accent colour, styled once (``MoreBelow`` in ``common.kv``); Kivy's own bar, thin and
faint grey, showed only while scrolling (found by table tests)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.ui

UI = Path(__file__).resolve().parents[2] / "companion" / "ui"


def test_the_seasons_list_shows_its_bar(ui) -> None:
    """The Championship screen at 800x480: the official seasons under the stored ones are
    more than the view shows; its bar was Kivy's faint grey one (found by a table test)."""
    from pixels import accent_bar_hits

    app = ui.app
    ui.player.press("championship")
    ui.pump(3)
    view = app.sm.current_screen.ids.rows.parent
    assert view.viewport_size[1] > view.height  # more seasons than fit
    hits = accent_bar_hits(view, app.c_accent)
    assert hits >= 5, hits  # the bar, in the accent colour, along the list's side


def test_a_scroll_bar_is_styled_in_one_place() -> None:
    """The accent bar's colours are set by MoreBelow's rule alone: the race screen's gear
    panel repeated them (and its width), and a screen that repeats them drifts from the
    others when the style changes."""
    styled = []
    for path in sorted(UI.rglob("*.kv")):
        rule = ""
        for line in path.read_text(encoding="utf-8").splitlines():
            if re.match(r"<[^>]+>:", line):
                rule = line.split(">")[0].lstrip("<")
            if re.match(r"\s*bar_(color|inactive_color)\s*:", line):
                styled.append(f"{path.relative_to(UI)} {rule}")
    # both colours, once, in MoreBelow's rule (not by line number: common.kv grows)
    assert styled == ["widgets/common.kv MoreBelow", "widgets/common.kv MoreBelow"]


def test_the_race_panel_keeps_its_bar_when_it_scrolls(ui) -> None:
    """The race screen's panel (a FitScroller) scrolls only on a screen too small for its
    buttons: its bar is then the lists' own (a MoreBelow), in the accent colour, wide."""
    from companion.ui.demo.table_shots import SIX, start
    from companion.ui.widgets.basic import MoreBelow

    app = ui.app
    start(app, SIX, 0)
    ui.pump(3)
    box = app.sm.current_screen.ids.panel_box
    assert isinstance(box, MoreBelow)
    assert list(box.bar_color) == list(app.c_accent)
    assert list(box.bar_inactive_color) == list(app.c_accent)
    assert box.bar_width == max(4, app.fs * 0.3)
    assert not box.do_scroll_x


def _kv_widget_names(text: str) -> list[str]:
    """The widget classes a kv file names: its rules' (``<Name>``, ``<Name@Base+Other>``) and
    the widgets its rules build (an indented ``Name:`` line)."""
    names: list[str] = []
    for line in text.splitlines():
        header = re.match(r"<([^>]+)>:", line)
        if header:
            for part in re.split(r"[,@+]", header.group(1)):
                names.append(part.strip().lstrip("-"))
            continue
        child = re.match(r"\s+([A-Z]\w*)\s*:\s*(#.*)?$", line)
        if child:
            names.append(child.group(1))
    return names


def test_no_list_keeps_kivys_faint_bar(ui) -> None:
    """Every scrolling widget of the app is a MoreBelow (the accent bar, in sight while there is
    more below): Hardware check's seats, New race's options and notes, Start's unfinished
    races, the storage fault's reason, New season's races, Next race's lines and the Races
    list kept Kivy's thin faint grey bar (or, the Races list, a wider grey one), and a table
    did not know there was more below. Every widget a .kv file names is checked, and every
    widget class and call in the UI's Python."""
    import ast

    from kivy.factory import Factory
    from kivy.uix.scrollview import ScrollView

    from companion.ui.app.heat_app import SCREENS
    from companion.ui.widgets.basic import MoreBelow

    for name in SCREENS:
        ui.app.screen(name)  # its module imported and its kv file loaded
    faint, unknown = [], []
    for path in sorted(UI.rglob("*.kv")):
        for name in _kv_widget_names(path.read_text(encoding="utf-8")):
            if not name[0].isupper() or name in ("Color", "Rectangle", "Line", "Ellipse",
                                                 "RoundedRectangle", "PushMatrix",
                                                 "PopMatrix", "Rotate", "Translate", "Scale",
                                                 "Mesh", "StencilPush", "StencilPop",
                                                 "StencilUse", "StencilUnUse", "Triangle",
                                                 "Quad", "Point", "Bezier", "BorderImage"):
                continue
            try:
                cls = Factory.get(name)
            except Exception:  # noqa: BLE001 - a name the Factory does not know
                unknown.append(f"{path.relative_to(UI)} {name}")
                continue
            if issubclass(cls, ScrollView) and not issubclass(cls, MoreBelow):
                faint.append(f"{path.relative_to(UI)} {name}")
    for path in sorted(UI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "")
                         for b in node.bases}
                if bases & {"ScrollView", "RecycleView"} and "MoreBelow" not in bases \
                        and node.name != "MoreBelow":
                    faint.append(f"{path.relative_to(UI)} class {node.name}")
            elif isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if called in {"ScrollView", "RecycleView"}:
                    faint.append(f"{path.relative_to(UI)}:{node.lineno} {called}()")
    assert not unknown, unknown
    assert faint == [], faint


def _lists_without_room_for_the_bar() -> list[str]:
    """Each list of a .kv file (a ``MoreBelow`` or ``FitScroller``) whose content (its first
    child) does not keep the bar's width free on its right (``padding: ..., self.parent.
    bar_width + ...``) or say why not (a comment naming ``bar_width`` in its rule)."""
    bare = []
    for path in sorted(UI.rglob("*.kv")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            match = re.match(r"(\s*)(MoreBelow|FitScroller):\s*$", line)
            if not match:
                continue
            indent = len(match.group(1))
            rule: list[str] = []
            for following in lines[number + 1:]:
                if following.strip() and len(following) - len(following.lstrip()) <= indent:
                    break
                rule.append(following)
            if not any("bar_width" in text for text in rule):
                bare.append(f"{path.relative_to(UI)}:{number + 1}")
    return bare


def test_every_list_keeps_its_content_clear_of_its_bar() -> None:
    """The bar of a list is drawn over the list's right edge: Results' lines ran under it
    ("Bartholomeus won 0 Sponsorship cards" cut by the orange bar; found by a table test).
    Every list's content keeps the bar's width free on its right."""
    assert _lists_without_room_for_the_bar() == []
