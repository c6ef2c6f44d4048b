"""An undo that makes a finished season race unfinished (Results' "Undo last input"): its
result, and so the standings, follow the log (the result is derived data, removed by the undo
and stored again by the redo); refused, with nothing written, once something was begun from
that result: the season's next race started, or its Garage draft under way. The log only
grows: the undo and the redo are events."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from season_1961 import CARS, SEEDS
from strategies import SensibleDriver, run_race

from companion.championship import SEASONS
from companion.engine import Rejection
from companion.session import RaceSession
from companion.storage import FinishStandsError
from companion.storage.seasons import SeasonStore


def _play(session: RaceSession, seed: int) -> None:
    for action in run_race(session.setup, seed=seed, driver=SensibleDriver).actions:
        assert not isinstance(session.submit(action), Rejection)
    assert session.state.over


def _start(store: SeasonStore, number: int) -> RaceSession:
    season = store.season("s61").season
    setup = season.next_race_setup(seed=SEEDS[number - 1])
    return store.start_race("s61", setup, race_id=f"r{number}", created="2024-06-01")


def _points(store: SeasonStore) -> dict[str, int]:
    return {s.car.id: s.points for s in store.season("s61").season.standings()}


def _events(path: Path, race_id: str) -> list[tuple[int, str]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT seq, kind FROM events WHERE race_id = ? ORDER BY seq",
                          (race_id,)).fetchall()


@pytest.fixture(scope="module")
def two_races(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 1961 season with races 1 and 2 played (each test works on a copy)."""
    path = tmp_path_factory.mktemp("season") / "races.sqlite3"
    with SeasonStore(path) as store:
        store.create_season(SEASONS["1961"], CARS, season_id="s61",
                            created="2024-06-01T20:00:00+02:00")
        for number in (1, 2):
            _play(_start(store, number), SEEDS[number - 1])
    return path


@pytest.fixture
def log(two_races: Path, tmp_path: Path) -> Path:
    path = tmp_path / "races.sqlite3"
    shutil.copyfile(two_races, path)
    return path


def test_undoing_the_latest_race_takes_its_points_back_and_redo_restores_them(
        log: Path) -> None:
    with SeasonStore(log) as store:
        both = _points(store)
        assert store.followed("r2") is None
        race = store.open_race("r2")
        before = _events(log, "r2")
        assert race.undo() and not race.state.over
        assert store.season("s61").running == "r2"
        only_race_1 = _points(store)
        assert only_race_1 != both
        assert sum(only_race_1.values()) < sum(both.values())
        assert race.redo() and race.state.over
        assert _points(store) == both
        assert _events(log, "r2") == [*before, (len(before) + 1, "undo"),
                                      (len(before) + 2, "redo")]


def test_a_race_stays_over_once_the_next_race_of_its_season_started(log: Path) -> None:
    with SeasonStore(log) as store:
        _start(store, 3)
        assert store.followed("r2") == ("race", 3)
        assert store.followed("r1") == ("race", 2)
        points = _points(store)
        race = store.open_race("r2")
        before = _events(log, "r2")
        with pytest.raises(FinishStandsError, match="race 3"):
            race.undo()
        assert race.state.over and not race.can_redo  # the session is as it was
        assert _events(log, "r2") == before  # nothing written
        assert store.season("s61").running == "r3" and _points(store) == points
    with SeasonStore(log) as store:  # and the log replays as before
        assert store.open_race("r2").state.over


def test_a_race_stays_over_while_the_next_races_draft_is_under_way(log: Path) -> None:
    with SeasonStore(log) as store:
        setup = store.season("s61").season.next_race_setup(seed=SEEDS[2])
        drafts = store.races.drafts
        draft = drafts.begin({"plan": "r3"}, track_id=setup.track.id, laps=1,
                             cars=setup.cars, season_id="s61", race_no=3)
        assert store.followed("r2") is None  # opened, nothing chosen: nothing begun yet
        drafts.record(draft, 1, {"kind": "pick", "card": 0})
        assert store.followed("r2") == ("draft", 3)
        race = store.open_race("r2")
        with pytest.raises(FinishStandsError, match="Garage draft"):
            race.undo()
        assert race.state.over
        drafts.abandon(draft)  # given up: nothing under way is begun from the result now
        assert store.followed("r2") is None
        assert race.undo() and not race.state.over


def test_a_race_of_no_season_is_followed_by_nothing(log: Path) -> None:
    with SeasonStore(log) as store:
        single = store.races.new_race(store.open_race("r1").setup, race_id="x1")
        _play(single, SEEDS[0])
        assert store.followed("x1") is None
        assert single.undo() and not single.state.over


def test_a_draft_opened_with_nothing_chosen_is_set_aside_by_the_undo(log: Path) -> None:
    """A Garage draft opened from a result, nothing chosen in it (or every pick undone),
    does not make the result stand: the undo sets it aside in its own transaction (it was
    dealt from the result), so the next draft is dealt from the result of then."""
    with SeasonStore(log) as store:
        setup = store.season("s61").season.next_race_setup(seed=SEEDS[2])
        drafts = store.races.drafts
        draft = drafts.begin({"plan": "r3"}, track_id=setup.track.id, laps=1,
                             cars=setup.cars, season_id="s61", race_no=3)
        drafts.record(draft, 1, {"kind": "pick", "card": 0})
        drafts.record(draft, 2, {"kind": "undo", "undoes": 1})
        assert store.followed("r2") is None
        race = store.open_race("r2")
        assert race.undo() and not race.state.over
        assert drafts.open_drafts("s61") == []
        assert drafts.draft(draft).state == "abandoned"
        assert len(drafts.draft(draft).inputs) == 2  # what it recorded is kept
