"""Cost that must not grow with history: the Races, Seasons and Standings screens and the app's
memory with 5 and with 500 races in the log.

    .venv/bin/python bench/history.py [--runs 3] [--repeats 3] [--replay] [--keep DIR]

Two logs are built once, through the real storage API (``SeasonStore.start_race`` and
``RaceSession.submit``, with random legal races from :mod:`bench.racegen`):

* **5 races**: a 12-race custom season (six cars: three drivers with 12-letter names, three
  Legends) with its first 5 races played;
* **500 races**: the same season with 11 races played (the next race is its 12th), a 4-race
  season played to the end, 119 copies of that season (its rows copied in SQL under new ids) and
  9 races outside any season, copied the same way: 11 + 120 x 4 + 9 = 500 races, 121 seasons.

Each run starts the real app (``HeatApp``, headless: ``SDL_VIDEODRIVER=offscreen``) in a fresh
process on a fresh copy of one log, and times from the call that shows a screen (``app.show``,
as a tap on its button does) to the end of the frame that shows it (the first frame drawn with
no layout trigger pending, finished with ``glFinish``; see ``bench/app.py``): Races, then
Seasons, then the 12-race season's Standings, then its Next race. Each screen is opened once
cold (its module and kv load then) and ``--repeats`` times again from the start screen; the
figure is the median of those warm openings (the cold ones are printed too). The app's
resident memory (VmRSS) and its number of Python objects are read once every screen has been
opened. Sizes alternate, one fresh process each, ``--runs`` times; every figure is the median
over the runs.

Each opening starts after a full garbage collection (``gc.collect()``, while the start screen
is shown). A full collection of this app costs about as much as opening a screen (200 ms for
its ~170,000 objects on the CI host), and whether one falls inside a given opening depends on
what was allocated before, not on the log: without this, a screen measured 75 ms in one process
and 220 ms in the next. What a collection costs grows with the objects the app keeps, which
``objects_ratio`` (500 races / 5) and ``rss_ratio`` show.

The last line is one JSON object: ``<screen>_ms_5`` and ``<screen>_ms_500`` (warm, to the
frame), ``<screen>_cold_ms_<n>`` (first opening), ``<screen>_handler_ms_<n>`` (the app's own
code: the call to ``app.show`` alone, before layout and drawing), ``rss_mb_5`` and
``rss_mb_500``, and ``races_ratio``, ``seasons_ratio``, ``standings_ratio``,
``next_race_ratio`` and ``rss_ratio`` (500 races / 5, from the warm figures). Goal: every time
ratio <= 1.5, ``rss_ratio`` <= 1.1.

``--replay`` shows that the bench catches what it measures: the app then ignores the stored
race results (``companion.storage.results.USE_STORED = False``) and replays every race it needs,
as before they were stored; the Seasons, Standings and Next race ratios must blow up.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SMALL, LARGE = 5, 500
SEASON_ID = "history"
"""The 12-race season whose Standings and Next race are timed."""
SCREENS = ("races", "seasons", "standings", "next_race")

CHILD = r"""
import gc, json, os, sys, time
os.environ.update(SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_NO_CONFIG="1",
                  KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1", GPIOZERO_PIN_FACTORY="mock",
                  HEAT_COMPANION_WIRING="/nonexistent/wiring.toml")
REPEATS = int(os.environ["BENCH_REPEATS"])
SEASON = os.environ["BENCH_SEASON"]
if os.environ.get("BENCH_REPLAY") == "1":
    from companion.storage import results as stored_results
    stored_results.USE_STORED = False

from kivy.config import Config
Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics.opengl import glFinish
from companion.ui.app import HeatApp


def status(key):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def show_next_race(app):
    app.season_id = SEASON
    screen = app.screen("nextrace")
    screen.prepare()
    app.show("nextrace")
    assert screen.plan is not None, "the season has no next race"


def show_standings(app):
    app.season_id = SEASON
    app.show("standings")


OPEN = {
    "races": lambda app: app.show("races"),
    "seasons": lambda app: app.show("seasons"),
    "standings": show_standings,
    "next_race": show_next_race,
}
ORDER = ["races", "seasons", "standings", "next_race"]


class Bench(HeatApp):
    def on_start(self):
        super().on_start()
        Window.bind(on_flip=self.first)
        self.times = {name: [] for name in ORDER}
        self.handlers = {name: [] for name in ORDER}
        self.plan = [(name, True) for name in ORDER for _ in range(REPEATS + 1)]
        self.pending = None

    def first(self, *a):
        Window.unbind(on_flip=self.first)
        Window.bind(on_draw=self.drawing, on_flip=self.flipped)
        Clock.schedule_once(self.step, 0.5)  # after the deferred start-up work

    def step(self, dt):
        if not self.plan:
            out = {name: values for name, values in self.times.items()}
            out["handlers"] = self.handlers
            out["rss"] = status("VmRSS")
            gc.collect()
            out["objects"] = len(gc.get_objects())
            out["hwm"] = status("VmHWM")
            print(json.dumps(out), flush=True)
            self.stop()
            return
        name, _ = self.plan.pop(0)
        self.show("start")  # every opening starts from the start screen, as a tap would
        gc.collect()  # and from the same collector state (see the module docstring)
        Clock.schedule_once(lambda dt: self.measure(name), 0.15)

    def measure(self, name):
        self.current = name
        self.shown = False
        self.pending = time.perf_counter()
        OPEN[name](self)
        self.handlers[name].append((time.perf_counter() - self.pending) * 1000)

    def drawing(self, *a):
        if self.pending is not None and not Clock.get_before_frame_events():
            self.shown = True

    def flipped(self, *a):
        glFinish()
        if self.pending is None or not self.shown:
            return
        self.times[self.current].append((time.perf_counter() - self.pending) * 1000)
        self.pending = None
        Clock.schedule_once(self.step, 0.5)  # let deferred work (the chart PNG) finish


Bench(data=os.environ["BENCH_DATA"]).run()
"""


# --- building the logs ----------------------------------------------------------------------

TRACKS = ("usa", "great-britain", "france", "italy", "japan", "mexico", "espana", "nederland",
          "south-africa", "usa", "italy", "france")


def _cars() -> tuple[Any, ...]:
    from companion.engine import CarEntry

    return (CarEntry("red", "Christabella"), CarEntry("blue", "Maximilianus"),
            CarEntry("green", "Konstantinos"), CarEntry("black", legend=True),
            CarEntry("grey", legend=True), CarEntry("yellow", legend=True))


def _season(name: str, track_ids: tuple[str, ...]) -> Any:
    from companion.championship import SeasonDef, SeasonRace

    return SeasonDef("custom", name, tuple(SeasonRace(t) for t in track_ids))


def _fast(store: Any) -> None:
    """Building only: no fsync per input (the app itself always writes synchronous=FULL)."""
    for log in (store._log, store.races._log):
        log._db.execute("PRAGMA synchronous=OFF")


def _play(store: Any, season_id: str, number: int, created: str) -> str:
    """Start race ``number`` of the season and play it to the end with random legal inputs."""
    from bench import racegen

    season = store.season(season_id).season
    setup = season.next_race_setup(seed=1000 + number)
    race_id = f"{season_id}-{number}"
    session = store.start_race(season_id, setup, race_id=race_id, created=created)
    rng = random.Random(number)
    while True:
        action = racegen.next_action(session.state, rng)
        if action is None:
            break
        session.submit(action)
    assert session.state.over
    return race_id


def _stamp(index: int) -> str:
    """Race ``index`` a week after race ``index - 1``, from 2020 on."""
    day = time.gmtime(1577880000 + index * 7 * 86400)
    return time.strftime("%Y-%m-%dT20:00:00+00:00", day)


def _copy_rows(db: sqlite3.Connection, table: str, key: str, old: str, new: str,
               where: str | None = None, extra: dict[str, Any] | None = None) -> None:
    """Copy the rows of ``table`` whose ``where`` column is ``old`` with ``key`` set to ``new``
    (and the ``extra`` columns set as given): every column of the table, whatever the schema."""
    columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
    values = {key: new, **(extra or {})}
    select = ", ".join("?" if c in values else c for c in columns)
    params = [values[c] for c in columns if c in values]
    db.execute(f"INSERT INTO {table} ({', '.join(columns)}) SELECT {select} FROM {table} "
               f"WHERE {where or key} = ?", (*params, old))


def _clone_race(db: sqlite3.Connection, old: str, new: str, created: str) -> None:
    _copy_rows(db, "races", "id", old, new, extra={"created": created})
    _copy_rows(db, "events", "race_id", old, new)
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    for table in sorted(tables - {"races", "events", "seasons", "season_races"}):
        columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
        if "race_id" in columns:  # whatever the app stores per race beside its events
            _copy_rows(db, table, "race_id", old, new)


def build(folder: Path) -> dict[int, Path]:
    """The two logs (see the module docstring); returns {races: path}."""
    from companion.storage.seasons import SeasonStore

    folder.mkdir(parents=True, exist_ok=True)
    small, large = folder / "small.sqlite3", folder / "large.sqlite3"
    for old in folder.glob("*.sqlite3*"):  # built again from scratch
        old.unlink()
    with SeasonStore(small) as store:
        _fast(store)
        store.create_season(_season("History", TRACKS), _cars(), season_id=SEASON_ID,
                            created=_stamp(0))
        for number in range(1, SMALL + 1):
            _play(store, SEASON_ID, number, _stamp(number))
    shutil.copyfile(small, large)
    with SeasonStore(large) as store:
        _fast(store)
        for number in range(SMALL + 1, 12):
            _play(store, SEASON_ID, number, _stamp(number))
        store.create_season(_season("Cup", TRACKS[:4]), _cars(), season_id="cup-0",
                            created=_stamp(12))
        template = [_play(store, "cup-0", n, _stamp(12 + n)) for n in range(1, 5)]
    db = sqlite3.connect(large, isolation_level=None)
    try:
        db.execute("PRAGMA synchronous=OFF")
        db.execute("BEGIN")
        count = 11 + 4
        for copy in range(1, 120):
            season = f"cup-{copy}"
            when = _stamp(count + 1)
            _copy_rows(db, "seasons", "id", "cup-0", season, extra={"created": when})
            for number, race in enumerate(template, start=1):
                count += 1
                _clone_race(db, race, f"{season}-{number}", _stamp(count))
                db.execute("INSERT INTO season_races (season_id, race_no, race_id) "
                           "VALUES (?, ?, ?)", (season, number, f"{season}-{number}"))
        for extra in range(LARGE - count):
            count += 1
            _clone_race(db, template[extra % 4], f"race-{extra}", _stamp(count))
        db.execute("COMMIT")
        races = db.execute("SELECT COUNT(*) FROM races").fetchone()[0]
    finally:
        db.close()
    for path in (small, large):  # one file each, nothing left in a -wal beside it
        with sqlite3.connect(path) as done:
            done.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert races == LARGE, races
    return {SMALL: small, LARGE: large}


# --- running --------------------------------------------------------------------------------


def run_child(script: Path, log: Path, work: Path, env: dict[str, str]) -> dict[str, Any]:
    data = work / "data"
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir(parents=True)
    shutil.copyfile(log, data / "races.sqlite3")
    done = subprocess.run([sys.executable, str(script)], env=dict(env, BENCH_DATA=str(data)),
                          capture_output=True, text=True, timeout=1800, cwd=ROOT)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"benchmark child failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(lines[-1])  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per size")
    parser.add_argument("--repeats", type=int, default=3, help="warm openings per screen")
    parser.add_argument("--replay", action="store_true",
                        help="ignore the stored race results: replay every race (must fail)")
    parser.add_argument("--keep", type=Path, help="build the logs here and keep them")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="heat-history-"))
    try:
        started = time.perf_counter()
        logs = build(args.keep or work / "logs")
        print(f"built the logs in {time.perf_counter() - started:.1f} s", flush=True)
        script = work / "bench_history_child.py"
        script.write_text(CHILD, encoding="utf-8")
        env = dict(os.environ, KIVY_HOME=str(work / "kivy"), BENCH_REPEATS=str(args.repeats),
                   BENCH_SEASON=SEASON_ID, BENCH_REPLAY="1" if args.replay else "0")
        env.pop("DISPLAY", None)
        run_child(script, logs[SMALL], work, dict(env, BENCH_REPEATS="0"))  # warm the caches
        results: dict[int, list[dict[str, Any]]] = {SMALL: [], LARGE: []}
        for run in range(args.runs):
            for size in (SMALL, LARGE):
                result = run_child(script, logs[size], work, env)
                results[size].append(result)
                print(f"run {run + 1}, {size} races: " + ", ".join(
                    f"{name} {statistics.median(result[name][1:]):.0f} ms "
                    f"(cold {result[name][0]:.0f}, handler "
                    f"{statistics.median(result['handlers'][name][1:]):.0f}/"
                    f"{result['handlers'][name][0]:.0f})" for name in SCREENS)
                    + f", RSS {result['rss']:.1f} MB", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out: dict[str, Any] = {}
    for size in (SMALL, LARGE):
        for name in SCREENS:
            warm = [statistics.median(r[name][1:]) for r in results[size]]
            cold = [r[name][0] for r in results[size]]
            out[f"{name}_ms_{size}"] = round(statistics.median(warm), 1)
            out[f"{name}_cold_ms_{size}"] = round(statistics.median(cold), 1)
            handler = [statistics.median(r["handlers"][name][1:]) for r in results[size]]
            out[f"{name}_handler_ms_{size}"] = round(statistics.median(handler), 1)
        out[f"rss_mb_{size}"] = round(statistics.median(r["rss"] for r in results[size]), 1)
        out[f"peak_rss_mb_{size}"] = round(statistics.median(r["hwm"] for r in results[size]), 1)
        out[f"objects_{size}"] = round(statistics.median(r["objects"] for r in results[size]))
    for name in SCREENS:
        out[f"{name}_ratio"] = round(out[f"{name}_ms_{LARGE}"] / out[f"{name}_ms_{SMALL}"], 2)
    out["rss_ratio"] = round(out[f"rss_mb_{LARGE}"] / out[f"rss_mb_{SMALL}"], 3)
    out["objects_ratio"] = round(out[f"objects_{LARGE}"] / out[f"objects_{SMALL}"], 3)
    out.update(runs=args.runs, repeats=args.repeats, replay=args.replay)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
