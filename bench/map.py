"""The race screen's map: what drawing the track and placing its words costs, and that a tap
does not pay it.

    .venv/bin/python bench/map.py [--size 800x480] [--repeat 7] [--taps 40]

One headless app (SDL offscreen) starts a race of six drivers (``table_shots.SIX``) on each
bundled track and measures, in ms (median of ``--repeat``):

* ``track_ms``: drawing the track into its texture with the words' places worked out anew (as
  on entering the race screen, or at a new size);
* ``track_cached_ms``: the same with the places already known (a theme change);
* ``cars_ms``: a redraw of the cars only (what a tap that moves a car costs the map);
* ``zoom_ms``: the map a tap opens over the whole window, drawn with its words' places worked
  out anew (what the first tap on the map costs per track; the places are then kept).

Then it plays ``--taps`` scripted taps (the demo's table) on the last track and counts the
times the track was drawn again: a tap must redraw the cars only. **Exits 1** if a tap redrew
the track. The last line is one JSON object. Figures are of the host they ran on (compare
ratios measured in one run).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.ui.headless import use_headless_kivy  # noqa: E402

use_headless_kivy("heat-map-kivy-")


def _ms(run: Any) -> float:
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--taps", type=int, default=40)
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    from kivy.config import Config

    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    from kivy.base import EventLoop, runTouchApp

    import tracks
    from companion.ui.app import HeatApp
    from companion.ui.demo.player import TablePlayer
    from companion.ui.demo.table_shots import SIX, start
    from companion.ui.widgets import map_words, track_map

    def pump(frames: int = 2) -> None:
        for _ in range(frames):
            EventLoop.idle()

    renders = 0
    render = track_map.TrackMap._render_track

    def counted(self: Any, *args: Any) -> Any:
        nonlocal renders
        renders += 1
        return render(self, *args)

    track_map.TrackMap._render_track = counted  # type: ignore[method-assign]
    figures: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="heat-map-") as data:
        app = HeatApp(data=Path(data), hardware_factory=None)
        app._run_prepare()
        runTouchApp(embedded=True)
        pump(3)
        for info in tracks.available_tracks():
            start(app, SIX, 0, track=info.track.id)
            pump(3)
            the_map = app.sm.current_screen.ids.map

            def redraw_track(fresh: bool, the_map: Any = the_map) -> None:
                if fresh:
                    map_words._plan.cache_clear()
                the_map._static_key = None
                the_map._cars_key = None
                the_map.redraw()

            def redraw_cars(the_map: Any = the_map) -> None:
                the_map._cars_key = None
                the_map.redraw()

            row = {
                "track_ms": statistics.median(_ms(lambda: redraw_track(True))
                                              for _ in range(args.repeat)),
                "track_cached_ms": statistics.median(_ms(lambda: redraw_track(False))
                                                     for _ in range(args.repeat)),
                "cars_ms": statistics.median(_ms(redraw_cars) for _ in range(args.repeat)),
                "numbers_left_out": len(the_map.spaces_left_out),
            }
            screen = app.sm.current_screen
            screen.show_map()  # the map over the window: laid out, then drawn as it opens
            pump(2)
            zoomed = screen.map_zoom.map

            def redraw_zoomed(zoomed: Any = zoomed) -> None:
                map_words._plan.cache_clear()
                zoomed._static_key = None
                zoomed._cars_key = None
                zoomed.redraw()

            row["zoom_ms"] = statistics.median(_ms(redraw_zoomed) for _ in range(args.repeat))
            row["zoom_numbers_left_out"] = len(zoomed.spaces_left_out)
            screen.map_zoom.close()
            pump(2)
            figures[info.track.id] = row
            print(f"{info.track.id:14s} track {row['track_ms']:6.1f} ms   with places known "
                  f"{row['track_cached_ms']:5.1f} ms   cars only {row['cars_ms']:5.2f} ms   "
                  f"opened over the window {row['zoom_ms']:6.1f} ms", flush=True)
        renders = 0
        player = TablePlayer(app, pump)
        for _ in range(args.taps):
            player.step()
        pump(2)
        app._stop()
    by_track = list(figures.values())
    summary = {
        "size": args.size,
        "track_ms_median": statistics.median(r["track_ms"] for r in by_track),
        "track_ms_max": max(r["track_ms"] for r in by_track),
        "track_cached_ms_median": statistics.median(r["track_cached_ms"] for r in by_track),
        "cars_ms_median": statistics.median(r["cars_ms"] for r in by_track),
        "zoom_ms_median": statistics.median(r["zoom_ms"] for r in by_track),
        "zoom_ms_max": max(r["zoom_ms"] for r in by_track),
        "taps": args.taps,
        "track_redrawn_by_taps": renders,
        "by_track": figures,
    }
    print(json.dumps(summary))
    if renders:
        print(f"FAIL: {renders} of {args.taps} taps redrew the track", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
