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

What the app controls, apart from rasterising the frame (software rendering on a slow host
is most of a tap's frame):

* ``tap_work_ms_p99`` (goal <= 4 ms): the wall time of the tap's own work, from the touch's
  dispatch to the end of its handler (validate, apply, the durable SQLite commit, the screen
  refresh) plus the layout and text it leaves for the frame (from the handler's end to the
  start of that frame's drawing; for a later frame, its CPU time before drawing, since its
  wall time holds the frame-rate sleep). ``tap_cpu_ms_p99`` is the same in the main thread's
  CPU time (the commit's disk wait not counted); ``commit_ms_p99`` is the durable append alone
  (wall) and ``tap_work_without_commit_ms_p99`` the rest (the app's own code and layout),
  wall time: on a shared host a tap the scheduler preempts counts the time it waited;
  ``tap_cpu_without_commit_ms_p99`` is the same in CPU time (the main thread's, less the
  commit's), which other processes do not inflate;
* ``tap_gc_ms_p99`` / ``tap_gc_ms_max``: time in the garbage collector during a tap;
  ``full_gc_ms``: what a full collection costs at the end of a run (median), the pause a tap
  pays the day the collector's oldest generation is due (the app freezes what start-up made:
  ``gc.freeze()``);
* ``frame_ratio`` (goal <= 1.3): tap-to-frame p99 / the p99 of a forced redraw of the same
  screen with no input (``Window.canvas.ask_update()``, to the end of that frame), measured in
  the same runs, each redraw right after a tap's frame: what a tap costs beyond drawing the
  screen at all;
* ``commit_floor_ms_p99``: the least a durable input costs on this disk, measured in the same
  runs: after each tap's redraw, one short row inserted in its own transaction into a database
  beside the app's log, with the log's pragmas (WAL, ``synchronous=FULL``). ``commit_ms_p99``
  near it says the app's append costs the disk's sync and little more; a 4 ms goal with the
  commit included cannot be met on a disk whose floor is over it.
* ``one_commit_per_input``: every accepted input is exactly one durable commit. Every run
  counts the write transactions each tap commits to the log (``transactions_per_input``: the
  distinct counts seen, ``[1]`` when right); one more run (``--trace-inputs`` taps, timings
  unused) goes under the ``LD_PRELOAD`` tracer of :mod:`bench.synctrace`, which counts each
  tap's writes and successful ``fsync``/``fdatasync`` calls on the log's files
  (``wal_syncs_per_input``: ``[1]`` when right; a tap whose commit set off SQLite's
  checkpoint also syncs the database file and is counted in ``checkpoints`` instead).
  The bench exits 1 when this fails.

Faults the bench must catch (``goals_met`` says which goals the run met):

* ``--inject-ms N``: every tap's handler sleeps N ms: ``tap_work_ms_p99`` and
  ``tap_work_without_commit_ms_p99`` go up by N, ``commit_ms_p99`` does not (nor do the CPU
  figures: a wait is no CPU time, which is why the goals are judged on wall time);
* ``--inject-busy-ms N``: every tap's handler computes N ms: the CPU figures go up by N too;
* ``--double-commit``: every append is followed by a second transaction (the race's summary
  row written again): ``transactions_per_input`` and ``wal_syncs_per_input`` say 2;
* ``--unsynced``: the app's log is switched to ``synchronous=OFF``: ``wal_syncs_per_input``
  says 0.

What a tap makes Kivy do, counted from the touch to the start of the frame that shows it:
``label_renders_per_tap`` (mean; ``_max``), every label text rendered (a core label's
``refresh``: by a label itself, or once by the kept textures for every label that shows it,
:mod:`companion.ui.widgets.text_cache`)
and ``widgets_built_per_tap_max``, every widget constructed; in a race, also every layout pass of
a box, grid, float or anchor layout (``do_layout``).

**A whole race** (``--race-runs N``, default 2; 0: none): the gear / Undo taps above are the
cheapest taps of a race (the same two prompts, nothing rebuilt). These runs play a whole race
through the same touches, the demo's scripted table (:mod:`companion.ui.demo.script`: 4 drivers
with names of 12 letters and 2 Legends, or with ``--race-table 6`` six drivers, USA, 1 lap;
``bench/taps.py``'s tables), every tap timed
and counted as above: the gears, the cards typed on the keypad, the React choices, End turn and
what follows it. ``race_tap_work_ms_p50`` / ``_p99`` (wall, the commit included; a card typed
commits nothing), ``race_tap_cpu_without_commit_ms_p50`` / ``_p99``,
``race_share_over_goal`` (the share of a race's taps whose work, wall or CPU without the
commit, is over the 4 ms goal), ``race_label_renders_per_tap``,
``race_widgets_built_per_tap``, ``race_layouts_per_tap`` and the same by kind of tap
(``race_by_kind``: p99 and p50 CPU, renders, builds, layouts); ``race_transactions_per_tap``,
the write transactions each tap committed to the log (the distinct counts: ``[0, 1]`` when
right, a card typed commits none; a tap and the End turn that follows it by itself are one;
the bench exits 1 on more). The race's last tap (an End
turn) opens the Results screen: ``race_results_tap`` gives its figures apart (the max over the
runs: wall, CPU without the commit, renders, builds, layouts) and ``next_frame_cpu_ms_max``, the
CPU time of the frame after it, where the app draws the lap chart and saves the results
(``ResultsScreen._chart_and_save``; None for an app that does it all on the tap).

``--profile FILE`` adds one run whose taps' work (from the touch to the start of the frame that
shows it) is profiled with cProfile (``python -m pstats FILE``), and one race run profiled the
same way (``FILE`` with the suffix ``.race.prof``; each kind of tap's alone in
``FILE.race.<kind>.prof``, e.g. ``/tmp/rt.race.react.prof``).

The last line is one JSON object: ``start_ratio`` and ``rss_ratio`` (median app / median
hello-world; target <= 1.3), ``input_to_frame_ms_p99`` (target <= 16.7, one 60 Hz frame),
``handler_ms_p99`` (touch dispatch to the end of the handler, SQLite commit included),
``tap_work_ms_p99``, ``tap_work_without_commit_ms_p99``, ``commit_ms_p99``,
``commit_floor_ms_p99``, ``one_commit_per_input`` and ``frame_ratio``, then the ``race_*`` figures.
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

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import synctrace  # noqa: E402
from companion.storage.paths import LOG_FILE  # noqa: E402

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
INJECT = float(os.environ.get("BENCH_INJECT_MS", "0")) / 1000
INJECT_BUSY = float(os.environ.get("BENCH_INJECT_BUSY_MS", "0")) / 1000
DOUBLE_COMMIT = os.environ.get("BENCH_DOUBLE_COMMIT") == "1"
UNSYNCED = os.environ.get("BENCH_UNSYNCED") == "1"
PROFILE = os.environ.get("BENCH_PROFILE", "")
TRACE = os.environ.get("BENCH_TRACE_FILE", "")
RACE = os.environ.get("BENCH_RACE") == "1"
HUMANS, LEGENDS = (int(n) for n in os.environ.get("BENCH_RACE_TABLE", "4,2").split(","))
sys.path.append(os.getcwd())  # the repository (bench.taps: the scripted race's table)
import contextlib, gc, sqlite3
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics.opengl import glFinish
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from companion.ui.app import HeatApp

# What a tap makes Kivy do, counted: every label text rendered (a core label's refresh: the text
# laid out, its texture made; by a label itself or by the kept textures for it,
# companion.ui.widgets.text_cache) and every widget built, from the tap's touch to the start of
# the frame that shows it.
from kivy.core.text import LabelBase
rendering = [0, 0]  # label texts rendered, widgets built
_refresh = LabelBase.refresh
_widget_init = Widget.__init__
NO_TEXT_CACHE = os.environ.get("BENCH_NO_TEXT_CACHE") == "1"


def refresh(self, *largs):
    rendering[0] += 1
    return _refresh(self, *largs)


def __init__(self, **kwargs):
    rendering[1] += 1
    _widget_init(self, **kwargs)


LabelBase.refresh = refresh
Widget.__init__ = __init__

# ... and every layout pass of a box, grid, float or anchor layout (``do_layout``: Kivy's layout
# trigger calls it by its name, so the wrapper keeps it).
from kivy.uix.anchorlayout import AnchorLayout
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.gridlayout import GridLayout
laying = [0]


def counted_layout(do_layout):
    def do_layout_counted(self, *largs, **kwargs):
        laying[0] += 1
        return do_layout(self, *largs, **kwargs)

    do_layout_counted.__name__ = "do_layout"
    return do_layout_counted


for _layout_class in (AnchorLayout, BoxLayout, FloatLayout, GridLayout):
    _layout_class.do_layout = counted_layout(_layout_class.do_layout)

result = {}
latencies = []
handlers = []
works = []
cpus = []
redraws = []
commits = []
floors = []
transactions = []
syncs = []
gcs = []
renders = []
builds = []
layouts = []
results_stages = []
kinds = []
committing = [0.0, 0.0]  # wall, CPU
commit_cpus = []
committed = [0]
collecting = [0.0, 0.0]  # time in GC during the tap, start of the running collection


def instrument_log():
    # Time every durable append (the SQLite commit) the app makes, and count every write
    # transaction it commits to the log (an accepted input must be exactly one). Every append
    # goes through EventLog.append_many (a tap's events, one transaction).
    from companion.storage import db
    append = db.EventLog.append_many
    transaction = db.EventLog.transaction

    def timed(self, *args, **kwargs):
        t, c = time.perf_counter(), time.thread_time()
        try:
            return append(self, *args, **kwargs)
        finally:
            committing[0] += time.perf_counter() - t
            committing[1] += time.thread_time() - c

    @contextlib.contextmanager
    def counted(self):
        with transaction(self) as connection:
            yield connection
        committed[0] += 1

    db.EventLog.append_many = timed
    db.EventLog.transaction = counted
    if DOUBLE_COMMIT:  # the fault the commit count must catch: an input in two transactions
        def doubled(self, race_id, *args, **kwargs):
            timed(self, race_id, *args, **kwargs)
            t, c = time.perf_counter(), time.thread_time()
            with self.transaction() as connection:  # the race's summary row written again
                # (a real change: SQLite writes nothing for an update to the same value)
                connection.execute("UPDATE races SET rounds = rounds + 1 WHERE id = ?",
                                   (race_id,))
            committing[0] += time.perf_counter() - t
            committing[1] += time.thread_time() - c

        db.EventLog.append_many = doubled


class CommitFloor:
    # The least a durable input can cost on this disk: one short row inserted in its own
    # transaction, in a database beside the app's log with the log's pragmas (WAL,
    # synchronous=FULL), timed between the taps of the same run.
    def __init__(self, folder):
        self.db = sqlite3.connect(os.path.join(folder, "floor.sqlite3"), isolation_level=None)
        assert self.db.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, v TEXT)")

    def commit(self):
        t = time.perf_counter()
        self.db.execute("BEGIN IMMEDIATE")
        self.db.execute("INSERT INTO rows (v) VALUES (?)", ("x" * 120,))
        self.db.execute("COMMIT")
        return (time.perf_counter() - t) * 1000


def gc_timer(phase, info):
    if phase == "start":
        collecting[1] = time.perf_counter()
    else:
        collecting[0] += time.perf_counter() - collecting[1]


class Bench(HeatApp):
    def on_start(self):
        super().on_start()
        if NO_TEXT_CACHE:  # every label renders its own text again, as Kivy's (the A/B run)
            from companion.ui.widgets import text_cache
            text_cache.uninstall()
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
        if RACE:  # a whole race played by the scripted table: 4 drivers, 2 Legends, 1 lap
            # (or the --race-table asked for)
            from bench.taps import NAMES, SEED
            from companion.ui.views.drivers import Driver
            from companion.ui.views.names import CAR_COLOURS
            form = RaceForm(seed=SEED)
            form.track_id = "usa"
            form.laps = 1
            form.drivers = [Driver(colour, name=name) for colour, name in
                            zip(CAR_COLOURS, NAMES[:HUMANS], strict=False)]
            form.set_legends(LEGENDS)
        self.open_session(self.log().new_race(form.setup(tracks.load_track("usa"))))
        result["rss_settled"] = rss_mb()
        instrument_log()
        if UNSYNCED:  # the fault the sync count must catch: commits the disk may not have
            self.session._log._db.execute("PRAGMA synchronous=OFF")
        self.floor = CommitFloor(os.environ["BENCH_DATA"])
        self.trace = open(TRACE, "rb") if TRACE else None
        self.profile = None
        self.profiles = {}  # a race's taps: one profile per kind of tap too
        if PROFILE:
            import cProfile
            self.profile = cProfile.Profile()
        gc.callbacks.append(gc_timer)
        if INJECT or INJECT_BUSY:  # the fault the bench must catch: a slow handler
            from companion.ui.controller import RaceController
            changed = RaceController._changed

            def slow(controller):
                time.sleep(INJECT)  # waiting (wall time only)
                spin = time.thread_time() + INJECT_BUSY  # working (CPU time too)
                while time.thread_time() < spin:
                    pass
                changed(controller)

            RaceController._changed = slow
        self.phase = None
        self.count = 0
        self.clock = 0.0
        Window.bind(on_draw=self.drawing, on_flip=self.flipped)
        # the first tap at a person's pace after the race screen appears (its first frame
        # alone takes ~0.1 s here): the app does its work for later (the Results screen,
        # built ahead) in the frames right after that one
        Clock.schedule_once(self.do_tap, 0.5)

    def do_tap(self, dt):
        from kivy.tests.common import UnitTestTouch
        from companion.ui.widgets.lookup import find
        screen = self.sm.current_screen
        if RACE:
            from bench.taps import kind_of
            from companion.ui.demo.script import next_press
            self.time_results_stage()
            view = self.controller.view()
            name = next_press(self.controller, view)
            if name is None:  # the race is over
                if getattr(self.sm.current_screen, "_pending", None) is not None:
                    return Clock.schedule_once(self.do_tap, 0.05)  # its next frame first
                return self.finish()
            kind = kind_of(name, view.mode)
        else:
            car = self.controller.view().gear_rows[0].car
            name = f"gear {car} 2" if self.count % 2 == 0 else "undo"
            kind = "gear" if self.count % 2 == 0 else "undo"
        widget = find(screen, name)
        x, y = widget.to_window(*widget.center)
        released = []

        def seen(*_args):
            released.append(True)

        widget.bind(on_release=seen)
        touch = UnitTestTouch(x, y)
        self.clock += 1.0  # a person's pace: no tap is a double tap
        touch.time_start = touch.time_update = self.clock
        before = self.controller.state
        if self.trace is not None:
            self.trace.read()  # what came before this tap
        self.phase = "tap"
        committing[0] = committing[1] = 0.0
        committed[0] = 0
        collecting[0] = 0.0
        rendering[0] = rendering[1] = 0
        laying[0] = 0
        if self.profile is not None:
            if RACE:
                import cProfile
                self.profile = self.profiles.setdefault(kind, cProfile.Profile())
            self.profile.enable()
        self.t0 = time.perf_counter()
        self.c0 = time.thread_time()
        touch.touch_down()
        touch.touch_up()
        self.t_handler = time.perf_counter()
        self.c_handler = time.thread_time()
        handlers.append((self.t_handler - self.t0) * 1000)
        self.work = self.t_handler - self.t0
        self.cpu = self.c_handler - self.c0
        self.first_draw = True
        widget.unbind(on_release=seen)
        if not released:
            raise SystemExit(f"tap {self.count} ({name}) did not reach its button")
        if self.controller.state is before and not RACE:  # (a card typed changes no state)
            raise SystemExit(f"tap {self.count} ({name}) changed nothing")
        kinds.append(kind)
        self.shown = False

    def time_results_stage(self):
        # A race that ends on a tap shows its Results in two frames: the tap's, then the lap
        # chart and the saving in the next frame (ResultsScreen._chart_and_save, where the
        # app has it), whose CPU time is recorded here (not a tap's, but a frame's work).
        module = sys.modules.get("companion.ui.screens.results")
        stage = getattr(getattr(module, "ResultsScreen", None), "_chart_and_save", None)
        if stage is None or getattr(stage, "timed", False):
            return

        def timed_stage(screen):
            c = time.thread_time()
            try:
                return stage(screen)
            finally:
                results_stages.append((time.thread_time() - c) * 1000)

        timed_stage.timed = True
        module.ResultsScreen._chart_and_save = timed_stage

    def redraw(self, dt):
        # The same screen drawn again with no input: what a frame costs by itself.
        self.phase = "redraw"
        self.t0 = time.perf_counter()
        Window.canvas.ask_update()

    def drawing(self, *a):
        if self.phase != "tap":
            return
        now, cpu = time.perf_counter(), time.thread_time()
        if self.first_draw:  # the layout and text the tap caused, before this frame draws
            self.work += now - self.t_handler
            self.cpu += cpu - self.c_handler
            self.first_draw = False
        else:  # a later frame: its CPU before drawing (its wall time holds the fps sleep)
            self.work += cpu - self.c_flipped
            self.cpu += cpu - self.c_flipped
        # This frame shows the tap only if no layout/texture trigger is left for a later frame.
        if not Clock.get_before_frame_events():
            self.shown = True
            renders.append(rendering[0])
            builds.append(rendering[1])
            layouts.append(laying[0])
            if self.profile is not None:
                self.profile.disable()

    def flipped(self, *a):
        glFinish()  # the frame is done when its pixels are; nothing is left for the next one
        now = time.perf_counter()
        self.c_flipped = time.thread_time()
        if self.phase == "redraw":
            redraws.append((now - self.t0) * 1000)
            self.phase = None
            floors.append(self.floor.commit())
            self.next_tap()
            return
        if self.phase != "tap" or not self.shown:
            return
        latencies.append((now - self.t0) * 1000)
        works.append(self.work * 1000)
        cpus.append(self.cpu * 1000)
        commits.append(committing[0] * 1000)
        commit_cpus.append(committing[1] * 1000)
        transactions.append(committed[0])
        gcs.append(collecting[0] * 1000)
        if self.trace is not None:  # the writes and syncs of the log the tap caused
            lines = self.trace.read().decode("ascii").splitlines()
            syncs.append({kind: sum(1 for line in lines if line == f"~S {kind}")
                          for kind in ("wal", "db", "journal")}
                         | {"writes": sum(1 for line in lines if line.startswith("~W"))})
        self.phase = None
        if RACE:  # every kind of tap, one after the other (no redraw between them)
            self.next_tap()
        else:
            Clock.schedule_once(self.redraw, 0.02)

    def next_tap(self):
        self.count += 1
        if self.count >= INPUTS:
            self.finish()
        else:
            Clock.schedule_once(self.do_tap, 0.02)

    def finish(self):
        gc.callbacks.remove(gc_timer)
        t = time.perf_counter()  # what a full collection would cost a tap now
        gc.collect()
        result["full_gc_ms"] = (time.perf_counter() - t) * 1000
        result["gc_objects"] = len(gc.get_objects())
        result["gc_frozen"] = gc.get_freeze_count()
        if self.profile is not None:
            if RACE:  # all the taps in FILE, each kind's in FILE with the kind before its suffix
                import pstats
                stem, dot, suffix = PROFILE.rpartition(".")
                for kind, profile in self.profiles.items():
                    profile.dump_stats(f"{stem}.{kind}.{suffix}" if dot else f"{PROFILE}.{kind}")
                pstats.Stats(*self.profiles.values()).dump_stats(PROFILE)
            else:
                self.profile.dump_stats(PROFILE)
        result.update(latencies=latencies, handlers=handlers, works=works, cpus=cpus,
                      redraws=redraws, commits=commits, commit_cpus=commit_cpus,
                      floors=floors, transactions=transactions, syncs=syncs, gcs=gcs,
                      renders=renders, builds=builds, layouts=layouts, kinds=kinds,
                      results_stages=results_stages,
                      race_over=bool(self.controller.state.over))
        print(json.dumps(result), flush=True)
        self.stop()

Bench(data=os.environ["BENCH_DATA"]).run()
"""


def run(script: str, env: dict[str, str], pass_fds: tuple[int, ...] = ()) -> dict[str, object]:
    """Run ``script`` from a file (Kivy's App needs its source file) and read its JSON."""
    folder = Path(env["KIVY_HOME"]).parent
    path = folder / f"bench_{abs(hash(script))}.py"
    if not path.exists():
        path.write_text(script, encoding="utf-8")
    env = dict(env, BENCH_START=repr(time.time()))
    done = subprocess.run([sys.executable, str(path)], env=env, capture_output=True,
                          text=True, timeout=300, cwd=Path(__file__).resolve().parent.parent,
                          pass_fds=pass_fds)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"benchmark child failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(lines[-1])  # type: ignore[no-any-return]


def child_env(home: Path, inputs: int, **faults: str) -> dict[str, str]:
    """The environment of a benchmark child (``faults``: ``BENCH_...`` variables)."""
    env = dict(os.environ, KIVY_HOME=str(home / "kivy"), BENCH_INPUTS=str(inputs), **faults)
    env.pop("DISPLAY", None)
    return env


def traced_run(env: dict[str, str], folder: Path,
               library: Path | None = None) -> dict[str, object]:
    """One app run under :mod:`bench.synctrace`: every write and sync of the race log, counted
    tap by tap (its timings are not used: the tracer costs every write a ``readlink``)."""
    library = library or synctrace.build(folder)
    data = folder / "traced"
    trace = folder / "trace.log"
    with open(trace, "wb") as sink:
        traced_env = dict(env, BENCH_DATA=str(data), BENCH_TRACE_FILE=str(trace),
                          **synctrace.environment(library, data / LOG_FILE, sink.fileno()))
        return run(APP, traced_env, pass_fds=(sink.fileno(),))


TAP_WORK_GOAL_MS = 4.0
RACE_TABLES = {"4+2": "4,2", "6": "6,0"}
"""``--race-table``: humans, Legends."""
RACE_TAP_LIMIT = 2000
"""A scripted race that has not finished after this many taps stops the bench."""
FRAME_RATIO_GOAL = 1.3


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def commits_per_input(transactions: list[int], syncs: list[dict[str, int]]) -> dict[str, object]:
    """Whether every accepted input was exactly one durable commit.

    ``transactions``: the write transactions committed to the log per tap (every run);
    ``syncs``: per tap of the traced run, the successful ``fsync``/``fdatasync`` calls on the
    log's WAL and database file and the writes to them. One durable commit in WAL mode is
    writes to the WAL then one sync of it; a checkpoint (SQLite's, every 1,000 WAL pages) adds
    syncs of the WAL and of the database file to the commit that triggers it, and is counted
    apart.
    """
    checkpoints = sum(1 for s in syncs if s["db"])
    commit_syncs = [s["wal"] for s in syncs if not s["db"]]
    traced = bool(syncs)
    one = (set(transactions) == {1}
           and (not traced or (set(commit_syncs) == {1} and all(s["writes"] for s in syncs)
                               and not any(s["journal"] for s in syncs))))
    return {
        "transactions_per_input": sorted(set(transactions)),
        "wal_syncs_per_input": sorted(set(commit_syncs)) if traced else None,
        "traced_inputs": len(syncs),
        "checkpoints": checkpoints,
        "one_commit_per_input": one,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--inputs", type=int, default=200)
    parser.add_argument("--trace-inputs", type=int, default=100,
                        help="taps of the run under the sync tracer (0: no traced run)")
    parser.add_argument("--inject-ms", type=float, default=0.0,
                        help="make every tap's handler sleep this long (the bench must then "
                             "report tap_work_ms_p99 over its goal)")
    parser.add_argument("--inject-busy-ms", type=float, default=0.0,
                        help="make every tap's handler compute this long (CPU time: the bench "
                             "must then report tap_cpu_without_commit_ms_p99 over its goal)")
    parser.add_argument("--double-commit", action="store_true",
                        help="make every input two durable transactions (the bench must then "
                             "report one_commit_per_input false and exit 1)")
    parser.add_argument("--unsynced", action="store_true",
                        help="switch the app's log to synchronous=OFF after it opens (the "
                             "traced run must then see no sync: one_commit_per_input false)")
    parser.add_argument("--race-runs", type=int, default=2,
                        help="runs of a whole race played by the scripted table (every kind "
                             "of tap: gears, cards, React, Legends; 0: none)")
    parser.add_argument("--race-table", choices=sorted(RACE_TABLES), default="4+2",
                        help="the whole race's table: 4 humans and 2 Legends, or 6 humans")
    parser.add_argument("--text-cache-ab", action="store_true",
                        help="play each whole race also with every label rendering its own "
                             "text (no kept textures, as Kivy's), the runs interleaved, and "
                             "report the ratio of the two")
    parser.add_argument("--no-text-cache", action="store_true",
                        help="every label renders its own text (as Kivy's) in every run")
    parser.add_argument("--profile", metavar="FILE",
                        help="also write a cProfile of the taps' work (handler + layout, "
                             "one extra run) to FILE")
    args = parser.parse_args(argv)
    home = Path(tempfile.mkdtemp(prefix="heat-bench-"))
    env = child_env(home, args.inputs, BENCH_RACE_TABLE=RACE_TABLES[args.race_table],
                    BENCH_INJECT_MS=str(args.inject_ms),
                    BENCH_INJECT_BUSY_MS=str(args.inject_busy_ms),
                    BENCH_DOUBLE_COMMIT="1" if args.double_commit else "0",
                    BENCH_UNSYNCED="1" if args.unsynced else "0",
                    BENCH_NO_TEXT_CACHE="1" if args.no_text_cache else "0")
    hello: list[dict[str, object]] = []
    app: list[dict[str, object]] = []
    run(HELLO, env)  # warm the caches (.pyc, fonts) for both before measuring
    run(APP, dict(env, BENCH_DATA=str(home / "warm"), BENCH_INPUTS="2"))
    for i in range(args.runs):
        hello.append(run(HELLO, env))
        app.append(run(APP, dict(env, BENCH_DATA=str(home / f"data{i}"))))
    traced: dict[str, object] = {}
    if args.trace_inputs:
        traced = traced_run(dict(env, BENCH_INPUTS=str(args.trace_inputs)), home)
    races: list[dict[str, object]] = []
    uncached: list[dict[str, object]] = []
    for i in range(args.race_runs):
        race_env = dict(env, BENCH_DATA=str(home / f"race{i}"), BENCH_RACE="1",
                        BENCH_INPUTS=str(RACE_TAP_LIMIT))
        races.append(run(APP, race_env))
        if args.text_cache_ab:
            uncached.append(run(APP, dict(race_env, BENCH_DATA=str(home / f"race{i}-own"),
                                          BENCH_NO_TEXT_CACHE="1")))
    if args.profile:
        run(APP, dict(env, BENCH_DATA=str(home / "profiled"), BENCH_PROFILE=args.profile))
        if args.race_runs:
            race_profile = str(Path(args.profile).with_suffix(".race.prof"))
            run(APP, dict(env, BENCH_DATA=str(home / "race-profiled"), BENCH_RACE="1",
                          BENCH_INPUTS=str(RACE_TAP_LIMIT), BENCH_PROFILE=race_profile))
    figures = report(args, hello, app, traced)
    figures.update(race_report(races))
    if races:
        figures["race_table"] = args.race_table
    figures["text_cache"] = not args.no_text_cache
    if uncached:
        print("the same races, every label rendering its own text (no kept textures):")
        own = race_report(uncached)
        figures["race_without_text_cache"] = {
            key: own[key] for key in ("race_tap_cpu_without_commit_ms_p50",
                                      "race_tap_cpu_without_commit_ms_p99",
                                      "race_label_renders_per_tap", "race_by_kind")}
        figures["text_cache_cpu_p99_ratio"] = round(
            float(figures["race_tap_cpu_without_commit_ms_p99"])  # type: ignore[arg-type]
            / float(own["race_tap_cpu_without_commit_ms_p99"]), 3)  # type: ignore[arg-type]
        figures["text_cache_cpu_p50_ratio"] = round(
            float(figures["race_tap_cpu_without_commit_ms_p50"])  # type: ignore[arg-type]
            / float(own["race_tap_cpu_without_commit_ms_p50"]), 3)  # type: ignore[arg-type]
    print(json.dumps(figures))
    one_per_tap = max(figures.get("race_transactions_per_tap", [1])) <= 1  # type: ignore[call-overload]
    return 0 if figures["one_commit_per_input"] and one_per_tap else 1


def race_report(races: list[dict[str, object]]) -> dict[str, object]:
    """The taps of whole races, by kind (gear, cards, move, react, end, legends): the work
    of each tap (wall, and CPU without the commit, which other processes do not inflate),
    the label textures it rendered and the widgets it built. Printed; returned as ``race_*``
    figures."""
    if not races:
        return {}
    for race in races:
        if not race["race_over"]:
            raise RuntimeError(f"the scripted race did not finish in {RACE_TAP_LIMIT} taps")
    taps: list[tuple[str, float, float, int, int, int]] = []
    last: list[tuple[str, float, float, int, int, int]] = []
    for race in races:
        cpu = [c - k for c, k in zip(race["cpus"], race["commit_cpus"], strict=True)]  # type: ignore[call-overload]
        played = list(zip(race["kinds"], race["works"], cpu, race["renders"],  # type: ignore[call-overload]
                          race["builds"], race["layouts"], strict=True))  # type: ignore[call-overload]
        taps += played
        last.append(played[-1])  # the tap that ends the race: the Results screen opens
    kinds = sorted({t[0] for t in taps})
    print(f"a whole race played by touches ({len(races)} run(s), {len(taps)} taps): the work "
          "per tap, wall (commit included) and CPU without the commit, p50 / p99; label "
          "textures rendered, widgets built and layouts done per tap (mean, max)")

    def line(label: str, some: list[tuple[str, float, float, int, int, int]]) -> None:
        works, cpus = [t[1] for t in some], [t[2] for t in some]
        print(f"  {label:8s} {len(some):4d} taps: {percentile(works, 0.5):6.2f} / "
              f"{percentile(works, 0.99):6.2f} ms wall, {percentile(cpus, 0.5):6.2f} / "
              f"{percentile(cpus, 0.99):6.2f} ms CPU; renders "
              f"{statistics.mean(t[3] for t in some):5.1f} (max {max(t[3] for t in some)}), "
              f"built {statistics.mean(t[4] for t in some):5.1f} "
              f"(max {max(t[4] for t in some)}), layouts "
              f"{statistics.mean(t[5] for t in some):5.1f} (max {max(t[5] for t in some)})")

    for kind in ["all", *kinds]:
        line(kind, [t for t in taps if kind in ("all", t[0])])
    line("results", last)
    stages = [float(v) for race in races for v in race["results_stages"]]  # type: ignore[attr-defined]
    if stages:
        print(f"  results, the frame after its tap (the lap chart replayed, drawn and saved): "
              f"{max(stages):6.2f} ms CPU (max of {len(stages)})")
    works, cpus = [t[1] for t in taps], [t[2] for t in taps]
    committed = sorted({int(n) for race in races for n in race["transactions"]})  # type: ignore[attr-defined]
    print(f"  write transactions per tap (a card typed commits none): {committed}")
    return {
        "race_taps": len(taps),
        "race_transactions_per_tap": committed,
        "race_tap_work_ms_p50": round(percentile(works, 0.5), 2),
        "race_tap_work_ms_p99": round(percentile(works, 0.99), 2),
        "race_tap_cpu_without_commit_ms_p50": round(percentile(cpus, 0.5), 2),
        "race_tap_cpu_without_commit_ms_p99": round(percentile(cpus, 0.99), 2),
        "race_share_over_goal": {  # the taps over the goal of a tap's work, by each measure
            "work": round(sum(w > TAP_WORK_GOAL_MS for w in works) / len(works), 3),
            "cpu_without_commit": round(sum(c > TAP_WORK_GOAL_MS for c in cpus) / len(cpus), 3),
        },
        "race_label_renders_per_tap": round(statistics.mean(t[3] for t in taps), 2),
        "race_widgets_built_per_tap": round(statistics.mean(t[4] for t in taps), 2),
        "race_by_kind": {kind: {
            "taps": sum(1 for t in taps if t[0] == kind),
            "work_ms_p99": round(percentile([t[1] for t in taps if t[0] == kind], 0.99), 2),
            "cpu_without_commit_ms_p99":
                round(percentile([t[2] for t in taps if t[0] == kind], 0.99), 2),
            "label_renders": round(statistics.mean(t[3] for t in taps if t[0] == kind), 2),
            "widgets_built": round(statistics.mean(t[4] for t in taps if t[0] == kind), 2),
            "cpu_without_commit_ms_p50":
                round(percentile([t[2] for t in taps if t[0] == kind], 0.5), 2),
            "layouts": round(statistics.mean(t[5] for t in taps if t[0] == kind), 2),
        } for kind in kinds},
        "race_layouts_per_tap": round(statistics.mean(t[5] for t in taps), 2),
        "race_results_tap": {
            "work_ms_max": round(max(t[1] for t in last), 2),
            "cpu_without_commit_ms_max": round(max(t[2] for t in last), 2),
            "label_renders_max": max(t[3] for t in last),
            "widgets_built_max": max(t[4] for t in last),
            "layouts_max": max(t[5] for t in last),
            "next_frame_cpu_ms_max": max(
                (float(v) for race in races for v in race["results_stages"]),  # type: ignore[attr-defined]
                default=None),
        },
    }


def report(args: argparse.Namespace, hello: list[dict[str, object]],
           app: list[dict[str, object]], traced: dict[str, object]) -> dict[str, object]:
    """Print the figures in words; return them for the last JSON line."""
    hello_start = statistics.median(float(r["start"]) for r in hello)  # type: ignore[arg-type]
    app_start = statistics.median(float(r["start"]) for r in app)  # type: ignore[arg-type]
    hello_rss = statistics.median(float(r["rss"]) for r in hello)  # type: ignore[arg-type]
    app_rss = statistics.median(float(r["rss"]) for r in app)  # type: ignore[arg-type]

    def values(key: str) -> list[float]:
        return [float(v) for r in app for v in r[key]]  # type: ignore[attr-defined]

    latencies, handlers = values("latencies"), values("handlers")
    works, cpus, redraws = values("works"), values("cpus"), values("redraws")
    commits, floors, gcs = values("commits"), values("floors"), values("gcs")
    ui_cpu = [w - c for w, c in zip(cpus, values("commit_cpus"), strict=True)]
    transactions = [int(v) for v in values("transactions")]
    renders, builds = values("renders"), values("builds")
    syncs: list[dict[str, int]] = list(traced.get("syncs", []))  # type: ignore[call-overload]
    ui_work = [w - c for w, c in zip(works, commits, strict=True)]
    tap_work = percentile(works, 0.99)
    without_commit = percentile(ui_work, 0.99)
    frame_ratio = percentile(latencies, 0.99) / percentile(redraws, 0.99)
    floor = percentile(floors, 0.99)
    durable = commits_per_input(transactions, syncs)
    settled = statistics.median(float(r["rss_settled"]) for r in app)  # type: ignore[arg-type]
    print(f"hello-world: start {hello_start * 1000:.0f} ms, rss {hello_rss:.1f} MB")
    print(f"app:         start {app_start * 1000:.0f} ms, rss {app_rss:.1f} MB "
          f"({settled:.1f} MB with a race open)")
    print(f"input to frame: p50 {percentile(latencies, 0.5):.2f} ms, "
          f"p99 {percentile(latencies, 0.99):.2f} ms over {len(latencies)} taps "
          f"(handler p99 {percentile(handlers, 0.99):.2f} ms)")
    print(f"the app's work per tap (handler + layout, SQLite commit included): "
          f"p99 {tap_work:.2f} ms wall, {percentile(cpus, 0.99):.2f} ms CPU "
          f"(goal <= {TAP_WORK_GOAL_MS} ms)")
    print(f"  of which the SQLite commit: p99 {percentile(commits, 0.99):.2f} ms; the rest "
          f"(the app's own code and layout): p99 {without_commit:.2f} ms "
          f"(p50 {percentile(ui_work, 0.5):.2f} ms), in CPU time p99 "
          f"{percentile(ui_cpu, 0.99):.2f} ms (p50 {percentile(ui_cpu, 0.5):.2f} ms); in GC: "
          f"p99 {percentile(gcs, 0.99):.2f} ms, max {max(gcs):.2f} ms")
    print(f"  the commit floor on this disk (a bare one-row transaction, same pragmas, same "
          f"folder, between the same taps): p99 {floor:.2f} ms, p50 "
          f"{percentile(floors, 0.5):.2f} ms")
    print(f"durable commits per accepted input: transactions {durable['transactions_per_input']}"
          f" over {len(transactions)} taps; WAL syncs {durable['wal_syncs_per_input']} over "
          f"{durable['traced_inputs']} traced taps ({durable['checkpoints']} with a checkpoint)"
          f" -> exactly one: {durable['one_commit_per_input']}")
    full_gc = statistics.median(float(r["full_gc_ms"]) for r in app)  # type: ignore[arg-type]
    print(f"a full collection at the end of a run: {full_gc:.1f} ms (median), "
          f"{statistics.median(int(r['gc_objects']) for r in app)} objects tracked, "  # type: ignore[call-overload]
          f"{statistics.median(int(r['gc_frozen']) for r in app)} frozen")  # type: ignore[call-overload]
    print(f"label textures rendered per tap: mean {statistics.mean(renders):.2f}, max "
          f"{max(renders):.0f}; widgets built per tap: max {max(builds):.0f}")
    print(f"a redraw of the same screen with no input: p99 {percentile(redraws, 0.99):.2f} ms;"
          f" tap-to-frame / redraw = {frame_ratio:.2f} (goal <= {FRAME_RATIO_GOAL})")
    return {
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
        "redraw_ms_p99": round(percentile(redraws, 0.99), 2),
        "tap_cpu_ms_p99": round(percentile(cpus, 0.99), 2),
        "commit_ms_p99": round(percentile(commits, 0.99), 2),
        "commit_floor_ms_p99": round(floor, 2),
        "commit_floor_ms_p50": round(percentile(floors, 0.5), 2),
        "tap_cpu_without_commit_ms_p99": round(percentile(ui_cpu, 0.99), 2),
        "tap_cpu_without_commit_ms_p50": round(percentile(ui_cpu, 0.5), 2),
        "tap_gc_ms_p99": round(percentile(gcs, 0.99), 2),
        "label_renders_per_tap": round(statistics.mean(renders), 2),
        "label_renders_per_tap_max": int(max(renders)),
        "widgets_built_per_tap_max": int(max(builds)),
        "tap_gc_ms_max": round(max(gcs), 2),
        "full_gc_ms": round(full_gc, 1),
        "injected_ms": args.inject_ms,
        "injected_busy_ms": args.inject_busy_ms,
        "double_commit": args.double_commit,
        "unsynced": args.unsynced,
        **durable,
        "goals_met": {"tap_work_ms_p99": tap_work <= TAP_WORK_GOAL_MS,
                      "tap_work_without_commit_ms_p99": without_commit <= TAP_WORK_GOAL_MS,
                      "tap_cpu_without_commit_ms_p99":
                          percentile(ui_cpu, 0.99) <= TAP_WORK_GOAL_MS,
                      "frame_ratio": frame_ratio <= FRAME_RATIO_GOAL,
                      "one_commit_per_input": durable["one_commit_per_input"]},
        "tap_work_ms_p50": round(percentile(works, 0.5), 2),
        "tap_work_without_commit_ms_p50": round(percentile(ui_work, 0.5), 2),
        "redraw_ms_p50": round(percentile(redraws, 0.5), 2),
        "tap_work_without_commit_ms_p99": round(without_commit, 2),
        "tap_work_ms_p99": round(tap_work, 2),
        "frame_ratio": round(frame_ratio, 3),
    }


if __name__ == "__main__":
    sys.exit(main())
