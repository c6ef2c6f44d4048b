"""App start-up and input latency, against a bare Kivy hello-world started the same way.

    .venv/bin/python bench/app.py [--runs 5] [--inputs 200]

Each run is a fresh subprocess (SDL offscreen, Mesa llvmpipe here, same environment) that
reports the time from just before the process was spawned to the first drawn frame (the first
``Window.on_flip``) and its resident memory at that moment. For the app, what it loads right
after that frame (engine, race log, hardware) is reported separately as ``rss_settled`` (RSS
once a race is open), so the lazy start-up does not hide memory.

The app run then opens a race and taps buttons through real touch events (``UnitTestTouch``
down + up on the button's centre, so hit-testing and the ScrollView run as for a finger): a
gear choice (validated, applied, committed to SQLite, screen refreshed), then Undo (also
committed), alternately. A tap that changes nothing stops the benchmark. Each tap is timed
from its dispatch to the end of **the frame that shows it**, defined as:

* the first frame whose ``on_draw`` starts after the tap's handler returned and when no
  before-frame Clock trigger is pending (``Clock.get_before_frame_events()`` is empty): Kivy
  runs input handlers, then the layout and label-texture triggers, then draws, in one loop
  iteration, so every widget the tap changed is laid out and re-rendered in that frame; if a
  trigger were left over, the next frame would be the one that shows it;
* that frame ends when ``glFinish()`` returns in its ``on_flip``: all of its pixels are
  rasterised. Every frame of the benchmarked app ends with ``glFinish()``, so a tap never pays
  for rendering deferred from an earlier frame (llvmpipe otherwise rasterises lazily, at the
  next texture upload or swap, which would move one frame's cost into another's).

The last line is one JSON object: ``start_ratio`` and ``rss_ratio`` (median app / median
hello-world; target <= 1.3) and ``input_to_frame_ms_p99`` (target <= 16.7, one 60 Hz frame);
``handler_ms_p99`` is the part spent in the app's own code (touch dispatch to the end of the
handler, SQLite commit included).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMON = r"""
import json, os, sys, time
START = float(os.environ["BENCH_START"])
os.environ.update(SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_NO_CONFIG="1",
                  KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1")

def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0
"""

HELLO = COMMON + r"""
from kivy.app import App
from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

class Hello(App):
    def build(self):
        box = BoxLayout(orientation="vertical")
        box.add_widget(Label(text="Hello, world"))
        box.add_widget(Button(text="Press"))
        return box
    def on_start(self):
        Window.bind(on_flip=self.flipped)
    def flipped(self, *a):
        Window.unbind(on_flip=self.flipped)
        print(json.dumps({"start": time.time() - START, "rss": rss_mb()}), flush=True)
        self.stop()

Hello().run()
"""

APP = COMMON + r"""
INPUTS = int(os.environ["BENCH_INPUTS"])
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics.opengl import glFinish
from companion.ui.app import HeatApp

result = {}
latencies = []
handlers = []


class Bench(HeatApp):
    def on_start(self):
        super().on_start()
        Window.bind(on_flip=self.first)

    def first(self, *a):
        Window.unbind(on_flip=self.first)
        result.update(start=time.time() - START, rss=rss_mb())
        Clock.schedule_once(self.open_race, 0.3)  # after the deferred start-up work

    def open_race(self, dt):
        import tracks
        from companion.ui.views.race_form import RaceForm
        form = RaceForm(seed=1)
        form.first_race()
        form.set_legends(2)
        self.open_session(self.log().new_race(form.setup(tracks.load_track("usa"))))
        result["rss_settled"] = rss_mb()
        self.pending = None
        self.count = 0
        Window.bind(on_draw=self.drawing, on_flip=self.flipped)
        Clock.schedule_once(self.do_tap, 0.1)

    def do_tap(self, dt):
        from kivy.tests.common import UnitTestTouch
        from companion.ui.widgets.lookup import find
        screen = self.sm.current_screen
        car = self.controller.view().gear_rows[0].car
        name = f"gear {car} 2" if self.count % 2 == 0 else "undo"
        widget = find(screen, name)
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        before = self.controller.state
        self.pending = time.perf_counter()
        touch.touch_down()
        touch.touch_up()
        handlers.append((time.perf_counter() - self.pending) * 1000)
        if self.controller.state is before:
            raise SystemExit(f"tap {self.count} ({name}) changed nothing")
        self.shown = False

    def drawing(self, *a):
        # This frame shows the tap only if no layout/texture trigger is left for a later frame.
        if self.pending is not None and not Clock.get_before_frame_events():
            self.shown = True

    def flipped(self, *a):
        glFinish()  # the frame is done when its pixels are; nothing is left for the next one
        if self.pending is None or not self.shown:
            return
        latencies.append((time.perf_counter() - self.pending) * 1000)
        self.pending = None
        self.count += 1
        if self.count >= INPUTS:
            result["latencies"] = latencies
            result["handlers"] = handlers
            print(json.dumps(result), flush=True)
            self.stop()
        else:
            Clock.schedule_once(self.do_tap, 0.02)

Bench(data=os.environ["BENCH_DATA"]).run()
"""


def run(script: str, env: dict[str, str]) -> dict[str, object]:
    """Run ``script`` from a file (Kivy's App needs its source file) and read its JSON."""
    folder = Path(env["KIVY_HOME"]).parent
    path = folder / f"bench_{abs(hash(script))}.py"
    if not path.exists():
        path.write_text(script, encoding="utf-8")
    env = dict(env, BENCH_START=repr(time.time()))
    done = subprocess.run([sys.executable, str(path)], env=env, capture_output=True,
                          text=True, timeout=120, cwd=Path(__file__).resolve().parent.parent)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"benchmark child failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(lines[-1])  # type: ignore[no-any-return]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--inputs", type=int, default=200)
    args = parser.parse_args(argv)
    home = tempfile.mkdtemp(prefix="heat-bench-")
    env = dict(os.environ, KIVY_HOME=str(Path(home) / "kivy"), BENCH_INPUTS=str(args.inputs))
    env.pop("DISPLAY", None)
    hello: list[dict[str, object]] = []
    app: list[dict[str, object]] = []
    run(HELLO, env)  # warm the caches (.pyc, fonts) for both before measuring
    run(APP, dict(env, BENCH_DATA=str(Path(home) / "warm"), BENCH_INPUTS="2"))
    for i in range(args.runs):
        hello.append(run(HELLO, env))
        app.append(run(APP, dict(env, BENCH_DATA=str(Path(home) / f"data{i}"))))
    hello_start = statistics.median(float(r["start"]) for r in hello)  # type: ignore[arg-type]
    app_start = statistics.median(float(r["start"]) for r in app)  # type: ignore[arg-type]
    hello_rss = statistics.median(float(r["rss"]) for r in hello)  # type: ignore[arg-type]
    app_rss = statistics.median(float(r["rss"]) for r in app)  # type: ignore[arg-type]
    latencies = [float(v) for r in app for v in r["latencies"]]  # type: ignore[attr-defined]
    handlers = [float(v) for r in app for v in r["handlers"]]  # type: ignore[attr-defined]
    settled = statistics.median(float(r["rss_settled"]) for r in app)  # type: ignore[arg-type]
    print(f"hello-world: start {hello_start * 1000:.0f} ms, rss {hello_rss:.1f} MB")
    print(f"app:         start {app_start * 1000:.0f} ms, rss {app_rss:.1f} MB "
          f"({settled:.1f} MB with a race open)")
    print(f"input to frame: p50 {percentile(latencies, 0.5):.2f} ms, "
          f"p99 {percentile(latencies, 0.99):.2f} ms over {len(latencies)} taps "
          f"(handler p99 {percentile(handlers, 0.99):.2f} ms)")
    print(json.dumps({
        "start_ratio": round(app_start / hello_start, 3),
        "rss_ratio": round(app_rss / hello_rss, 3),
        "input_to_frame_ms_p99": round(percentile(latencies, 0.99), 2),
        "input_to_frame_ms_p50": round(percentile(latencies, 0.5), 2),
        "handler_ms_p99": round(percentile(handlers, 0.99), 2),
        "app_rss_settled_mb": round(settled, 1),
        "hello_start_ms": round(hello_start * 1000, 1),
        "app_start_ms": round(app_start * 1000, 1),
        "hello_rss_mb": round(hello_rss, 1),
        "app_rss_mb": round(app_rss, 1),
        "runs": args.runs,
        "taps": len(latencies),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
