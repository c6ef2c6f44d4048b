"""Schema 4: the Garage drafts in the race log (``companion.storage.drafts``): a draft's start and
each input recorded in a transaction of its own, read back checked, ended once by its race (in the
transaction that stores the race) or by the table, and the migration of a log made by the app
before drafts were stored."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from bench import racegen
from companion.championship import SEASONS
from companion.engine import CarEntry, RaceSetup
from companion.session import RaceLog
from companion.storage import RefusedError
from companion.storage.db import NEWEST_SCHEMA_VERSION
from companion.storage.drafts import (
    ABANDONED,
    OPEN,
    RACE,
    DamagedDraftError,
    DraftOverError,
    UnknownDraftError,
)
from companion.storage.seasons import SeasonLinkError, SeasonStore

MAIN_LOG = Path(__file__).parent / "data" / "log-schema3-1975965.sqlite3"
"""A log made by main at 1975965, before drafts were stored (``data/make_log.py``)."""
START = {"version": 1, "deal": {"market": ["rpm-1", "body-3"]}, "form": {"seed": 7}}
CARS = (CarEntry("red", "Ana"), CarEntry("black", "", legend=True), CarEntry("blue", ""))


def _sql(path: Path, statement: str, *params: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as db:
        return db.execute(statement, params).fetchall()


def _begin(log: RaceLog, **kwargs: object) -> str:
    return log.drafts.begin(START, track_id="usa", laps=1, cars=CARS, **kwargs)


def _pick(n: int) -> dict[str, object]:
    return {"kind": "pick", "driver": "red", "card": f"card-{n}"}


def test_a_draft_is_recorded_input_by_input_and_read_back(log: RaceLog, log_path: Path) -> None:
    draft = _begin(log, created="2024-06-01T20:00:00+02:00")
    for seq in (1, 2, 3):
        log.drafts.record(draft, seq, _pick(seq))
        assert _sql(log_path, "SELECT COUNT(*) FROM draft_inputs") == [(seq,)]  # committed
    stored = log.drafts.draft(draft)
    assert stored.start == START and stored.inputs == (_pick(1), _pick(2), _pick(3))
    assert (stored.state, stored.race_id, stored.season_id, stored.open) == (OPEN, None, None,
                                                                              True)
    [summary] = log.drafts.open_drafts()
    assert (summary.id, summary.created, summary.track_id, summary.laps, summary.inputs) == (
        draft, "2024-06-01T20:00:00+02:00", "usa", 1, 3)
    assert summary.cars == (CarEntry("red", "Ana"), CarEntry("black", "", legend=True),
                            CarEntry("blue", ""))
    assert summary.drivers == 2 and summary.kind == "draft"
    assert log.drafts.open_draft_like(dict(START), None) == draft
    assert log.drafts.open_draft_like({**START, "version": 2}, None) is None


def test_an_input_out_of_order_or_twice_is_refused_and_writes_nothing(log: RaceLog,
                                                                     log_path: Path) -> None:
    draft = _begin(log)
    log.drafts.record(draft, 1, _pick(1))
    for seq in (1, 3):
        with pytest.raises(RefusedError, match=f"input {seq} is not the next one"):
            log.drafts.record(draft, seq, _pick(9))
    with pytest.raises(UnknownDraftError):
        log.drafts.record("nosuch", 1, _pick(1))
    assert log.drafts.draft(draft).inputs == (_pick(1),)


def test_its_race_ends_the_draft_in_the_same_transaction(log: RaceLog, log_path: Path,
                                                         setup: RaceSetup) -> None:
    draft = _begin(log)
    log.drafts.record(draft, 1, _pick(1))
    race = log.new_race(setup, draft=draft)
    stored = log.drafts.draft(draft)
    assert (stored.state, stored.race_id) == (RACE, race.race_id)
    assert log.drafts.open_drafts() == []
    # Its Start race again (a second tap, another copy of the app): refused, no second race.
    with pytest.raises(DraftOverError):
        log.new_race(setup, draft=draft)
    with pytest.raises(DraftOverError):
        log.drafts.record(draft, 2, _pick(2))
    assert [r.id for r in log.races()] == [race.race_id]
    # What fails in that transaction stores neither the race nor the draft's end.
    other = _begin(log)

    def fails(db: sqlite3.Connection, race_id: str) -> None:
        raise RefusedError("the link fails")

    with pytest.raises(RefusedError, match="the link fails"):
        log.new_race(setup, draft=other, then=fails)
    assert [r.id for r in log.races()] == [race.race_id]
    assert log.drafts.draft(other).state == OPEN


def test_a_season_race_is_stored_linked_and_ends_its_draft_in_one_transaction(
        log_path: Path) -> None:
    with SeasonStore(log_path) as store:
        season_id = store.create_season(SEASONS["1961"], (CarEntry("red", "Ana"),
                                                          CarEntry("blue", "Ben")))
        season = store.season(season_id).season
        setup = season.next_race_setup(seed=3, grid=tuple(season.next_grid(3)))
        drafts = store.races.drafts
        draft = drafts.begin(START, track_id=setup.track.id, laps=1, cars=setup.cars,
                             season_id=season_id, race_no=1)
        assert [d.id for d in drafts.open_drafts(season_id)] == [draft]
        assert drafts.open_drafts(single=True) == []
        # A setup the season refuses: nothing stored, the draft still open.
        wrong = season.next_race_setup(seed=3, grid=tuple(reversed(season.next_grid(3))))
        wrong = RaceSetup(track=wrong.track, cars=wrong.cars[:1], seed=3)
        with pytest.raises(SeasonLinkError):
            store.start_race(season_id, wrong, draft=draft)
        assert store.races.races() == [] and drafts.draft(draft).state == OPEN
        race = store.start_race(season_id, setup, draft=draft)
        assert store.season_of(race.race_id) == (season_id, 1)
        assert (drafts.draft(draft).state, drafts.draft(draft).race_id) == (RACE, race.race_id)


def test_abandoned_and_replaced_drafts_are_kept_but_no_longer_open(log: RaceLog) -> None:
    first = _begin(log)
    log.drafts.record(first, 1, _pick(1))
    second = _begin(log, replacing=(first,))  # the setup changed: begun afresh
    assert [d.id for d in log.drafts.open_drafts()] == [second]
    assert log.drafts.draft(first).state == ABANDONED
    assert log.drafts.draft(first).inputs == (_pick(1),)  # nothing recorded is lost
    log.drafts.abandon(second)
    assert log.drafts.open_drafts() == [] and log.drafts.draft(second).state == ABANDONED
    with pytest.raises(DraftOverError):
        log.drafts.abandon(second)


def test_a_draft_carried_to_a_changed_start_keeps_every_input(log: RaceLog,
                                                               log_path: Path) -> None:
    """The setup changed where the deal does not depend on it (a name corrected): a new draft
    holds the changed start and every input of the one before, which is abandoned in the same
    transaction with its own rows as they were; a draft that has ended cannot be carried."""
    first = _begin(log)
    for n in (1, 2):
        log.drafts.record(first, n, _pick(n))
    log.drafts.record(first, 3, {"kind": "undo", "undoes": 2})
    changed = {**START, "form": {"seed": 7, "name": "Anna"}}
    cars = (CarEntry("red", "Anna"), *CARS[1:])
    second = log.drafts.begin(changed, track_id="usa", laps=1, cars=cars, carry=first)
    carried = log.drafts.draft(second)
    assert carried.start == changed and carried.open
    assert carried.inputs == log.drafts.draft(first).inputs == (
        _pick(1), _pick(2), {"kind": "undo", "undoes": 2})
    assert log.drafts.draft(first).state == ABANDONED
    [summary] = log.drafts.open_drafts()
    assert (summary.id, summary.inputs, summary.cars) == (second, 1, cars)
    log.drafts.record(second, 4, _pick(3))  # it goes on after the inputs carried
    before = _sql(log_path, "SELECT * FROM drafts ORDER BY rowid")
    with pytest.raises(DraftOverError):
        log.drafts.begin(changed, track_id="usa", laps=1, cars=cars, carry=first)
    assert _sql(log_path, "SELECT * FROM drafts ORDER BY rowid") == before  # nothing written


@pytest.mark.parametrize(("statement", "seq", "problem"), [
    ("UPDATE drafts SET start = '{\"cut' ", None, "the start is not a JSON object"),
    ("UPDATE drafts SET start = '[1, 2]'", None, "the start is not a JSON object"),
    ("UPDATE draft_inputs SET payload = 'pick' WHERE seq = 2", 2, "the input is not a JSON"),
    ("DELETE FROM draft_inputs WHERE seq = 2", 2, "missing (the next stored input is 3)"),
    ("PRAGMA ignore_check_constraints = ON; UPDATE drafts SET state = 'later'", None,
     "state 'later' is none of"),
])
def test_a_damaged_draft_is_named_and_nothing_is_changed(
        log: RaceLog, log_path: Path, statement: str, seq: int | None, problem: str) -> None:
    draft = _begin(log)
    for n in (1, 2, 3):
        log.drafts.record(draft, n, _pick(n))
    with sqlite3.connect(log_path) as db:  # as a damaged file, or other software, has it
        db.executescript(statement)
    _sql(log_path, "PRAGMA wal_checkpoint(TRUNCATE)")
    before = log_path.read_bytes()
    with pytest.raises(DamagedDraftError) as caught:
        log.drafts.draft(draft)
    error = caught.value
    assert (error.draft_id, error.seq) == (draft, seq) and problem in error.problem
    assert error.reason == (f"Garage draft {draft} in the race log is damaged." if seq is None
                            else f"Garage draft {draft} in the race log is damaged at input "
                                 f"{seq}.")
    assert log_path.read_bytes() == before


def test_a_draft_whose_cars_cannot_be_read_is_still_listed(log: RaceLog, log_path: Path) -> None:
    """The list of things to continue reads no draft's start: a damaged one is listed (opening
    it says what is damaged) and hides no other."""
    damaged, fine = _begin(log), _begin(log)
    _sql(log_path, "UPDATE drafts SET cars = 'x' WHERE id = ?", damaged)
    listed = {d.id: d.cars for d in log.drafts.open_drafts()}
    assert listed == {damaged: (), fine: CARS}


def test_a_log_made_by_main_before_drafts_is_migrated_and_keeps_everything(
        tmp_path: Path) -> None:
    """The file ``data/make_log.py`` made with main at 1975965 (schema 3): read only it is read
    as it is, unchanged and with no drafts; opened to write it gains the draft tables in one
    step, every race and the season as they were, and a draft can be stored."""
    path = tmp_path / "races.sqlite3"
    shutil.copyfile(MAIN_LOG, path)
    assert _sql(path, "PRAGMA user_version") == [(3,)]
    before = path.read_bytes()
    with RaceLog(path, read_only=True) as log:
        old = {r.id: (r.over, r.rounds, r.results, r.cars) for r in log.races()}
        states = {race_id: log.open_race(race_id).state for race_id in old}
        assert log.drafts.open_drafts() == [] and log.drafts.open_draft_like(START, None) is None
        with pytest.raises(UnknownDraftError):
            log.drafts.draft("any")
    assert path.read_bytes() == before
    assert set(old) == {"olddone", "oldrun", "oldseas1"}
    with SeasonStore(path) as store:
        assert _sql(path, "PRAGMA user_version") == [(NEWEST_SCHEMA_VERSION,)] == [(4,)]
        log = store.races
        assert {r.id: (r.over, r.rounds, r.results, r.cars) for r in log.races()} == old
        assert {race_id: log.open_race(race_id).state for race_id in old} == states
        assert [r.id for r in log.unfinished_races()] == ["oldseas1", "oldrun"]
        assert store.season("oldseason").running == "oldseas1"
        assert store.season_of("oldseas1") == ("oldseason", 1)
        assert log.drafts.open_drafts() == []
        draft = _begin(log)
        log.drafts.record(draft, 1, _pick(1))
        assert log.drafts.draft(draft).inputs == (_pick(1),)
    tables = {name for (name,) in _sql(path, "SELECT name FROM sqlite_master WHERE type = "
                                             "'table'")}
    assert {"drafts", "draft_inputs"} <= tables
    racegen_setup = racegen.setup(humans=2, legends=0, laps=1, seed=1)
    with RaceLog(path) as log:  # and races go on being stored beside the drafts
        log.new_race(racegen_setup, draft=draft)
        assert log.drafts.open_drafts() == []
