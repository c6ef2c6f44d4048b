"""What the race screen's map draws, read back from its canvas, for every bundled track.

``python tests/ui/map_probe.py WxH [TRACK,...|all] [zoom]``: in a WxH window, in en, zh_TW and
ko (the app switched to each in turn), start a race of six drivers (``table_shots.SIX``) on
each bundled track (or those named), and print one JSON line per track and language with what
the map's offscreen canvas holds, taken from the drawing instructions themselves (not from the
map's own notes on where it put things). With ``zoom``, the map is the one a tap on the race
screen's map opens over the whole window (``MapZoom``):

* ``texts``: every text drawn (a textured rectangle), its string and its **ink** box (the
  texture's inked pixels, any alpha above zero, placed where the rectangle draws them);
* ``lines``: every line, its points and half width (Kivy draws ``width`` either side), the
  closed one being the track band; ``circles``: the corner rings' lines (the ellipse's box
  and the line's half width);
* ``squares`` and ``discs``: the corner markers' filled square and ring;
* ``map``: the widget's box; ``centres``: each space's centre (where the cars stand);
  ``band``: the band's width; ``corners``: each corner's line, limit and its line's middle;
  ``font_sizes``: the sizes the map drew its texts at; ``badge``: the box of the magnifier the
  race screen's map draws over its track (words must keep clear of it), or None;
  ``left_out``: the spaces whose number the map says it left out.

A process of its own because a Kivy window's size is fixed per process (as ``layout_probe``).
Three switches of language, not one per track (each rebuilds every screen): the same canvases
as a race started before the switch, in half the time. The frame rate is not capped (the
probe pumps frames, it never waits for them).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from companion.ui.headless import use_headless_kivy

use_headless_kivy()

LANGUAGES = ("en", "zh_TW", "ko")


def inked(rect: Any) -> list[float] | None:
    """The box of a textured rectangle's inked pixels on the canvas (None if none)."""
    texture = rect.texture
    width, height = texture.size
    pixels = texture.pixels
    rows = [y for y in range(height)
            if any(pixels[y * width * 4 + 3:(y + 1) * width * 4:4])]
    columns = [x for x in range(width) if any(pixels[x * 4 + 3::width * 4])]
    if not rows or not columns:
        return None
    sx, sy = rect.size[0] / width, rect.size[1] / height
    x, y = rect.pos
    if texture.uvsize[1] < 0:  # flipped: the pixel rows run top down on the canvas
        bottom, top = height - rows[-1] - 1, height - rows[0]
    else:
        bottom, top = rows[0], rows[-1] + 1
    return [x + columns[0] * sx, y + bottom * sy, x + (columns[-1] + 1) * sx, y + top * sy]


def read_canvas(fbo: Any) -> dict[str, list[Any]]:
    from kivy.graphics import Ellipse, Line, Rectangle

    found: dict[str, list[Any]] = {"texts": [], "lines": [], "circles": [], "squares": [],
                                   "discs": []}
    for instruction in fbo.children:
        if isinstance(instruction, Ellipse):  # (an Ellipse is a kind of Rectangle)
            x, y = instruction.pos
            w, h = instruction.size
            found["discs"].append([x, y, x + w, y + h])
        elif isinstance(instruction, Rectangle):
            if id(instruction.texture) in TEXTS:  # a label's texture, not the plain white one
                box = inked(instruction)
                if box is not None:
                    found["texts"].append({"box": box, "text": TEXTS[id(instruction.texture)]})
            else:
                x, y = instruction.pos
                w, h = instruction.size
                found["squares"].append([x, y, x + w, y + h])
        elif isinstance(instruction, Line):
            half = max(float(instruction.width), 1.0)
            if instruction.circle:
                cx, cy, r = instruction.circle[:3]
                found["circles"].append({"box": [cx - r, cy - r, cx + r, cy + r],
                                         "half_width": half})
                continue
            if instruction.ellipse:
                x, y, w, h = instruction.ellipse[:4]
                found["circles"].append({"box": [x, y, x + w, y + h], "half_width": half})
                continue
            points = list(instruction.points)
            found["lines"].append({"points": [points[i:i + 2] for i in range(0, len(points), 2)],
                                   "half_width": half, "closed": bool(instruction.close)})
    return found


TEXTS: dict[int, str] = {}
"""id(texture) -> the text it was made from (recorded as the map makes its labels)."""


def _record_texts() -> None:
    """Note the string of every label texture made from now on (a texture does not say what
    it reads)."""
    from kivy.core.text import Label as CoreLabel

    original = CoreLabel.refresh

    def refresh(self: Any) -> None:
        original(self)
        if self.texture is not None:
            TEXTS[id(self.texture)] = str(self.text)

    CoreLabel.refresh = refresh


def main() -> None:
    width, height = (int(v) for v in sys.argv[1].split("x"))
    os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="heat-map-kivy-"))
    from kivy.config import Config

    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "maxfps", "0")  # the probe pumps frames, it never waits for them
    Config.set("graphics", "multisamples", "0")  # one sample a pixel (as tests/ui/conftest.py)
    from kivy.base import EventLoop, runTouchApp

    import tracks
    from companion.ui.app import HeatApp
    from companion.ui.demo.table_shots import SIX, start
    from companion.ui.widgets.track_map import zoom_badge_box

    bundled = [info.track for info in tracks.available_tracks()]
    named = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] != "all" else ""
    wanted = named.split(",") if named else [t.id for t in bundled]
    zoom = sys.argv[3:] == ["zoom"]
    unknown = set(wanted) - {t.id for t in bundled}
    if unknown:
        raise SystemExit(f"no bundled track {sorted(unknown)}")
    _record_texts()
    with tempfile.TemporaryDirectory(prefix="heat-map-") as data:
        app = HeatApp(data=Path(data), hardware_factory=None)
        app._run_prepare()
        runTouchApp(embedded=True)
        for _ in range(3):
            EventLoop.idle()
        try:
            for language in LANGUAGES:
                app.set_language(language)
                for track in (t for t in bundled if t.id in wanted):
                    start(app, SIX, 0, track=track.id)
                    for _ in range(3):
                        EventLoop.idle()
                    screen = app.sm.current_screen
                    track_map = screen.ids.map
                    if zoom:
                        screen.show_map()
                        for _ in range(3):
                            EventLoop.idle()
                        track_map = screen.map_zoom.map
                    geometry = track_map.geometry
                    found = read_canvas(track_map._fbo)
                    print(json.dumps({
                        "track": track.id, "language": language, "size": sys.argv[1],
                        "map": [track_map.x, track_map.y, track_map.right, track_map.top],
                        "band": geometry.band,
                        "centres": [list(c) for c in geometry.centres],
                        "corners": [{"line_after": c.line_after, "limit": c.limit,
                                     "middle": list(geometry.line_after(c.line_after)[0])}
                                    for c in track.corners],
                        "font_sizes": [size for _text, size in track_map.texts],
                        "left_out": list(track_map.spaces_left_out),
                        "badge": (list(zoom_badge_box(track_map.x, track_map.top, app))
                                  if track_map.zoom_badge else None),
                        **found}), flush=True)
                    if zoom:
                        screen.map_zoom.close()
            app.set_language("en")
        finally:
            app._stop()


if __name__ == "__main__":
    main()
