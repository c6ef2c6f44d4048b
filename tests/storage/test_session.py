"""RaceLog / RaceSession: round trip, undo/redo, rejections, reopen, export, races list."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest

import tracks
from bench import racegen
from companion import racefile
from companion.engine import (
    Applied,
    CarEntry,
    ChooseGear,
    LegendCard,
    RaceSetup,
    Rejection,
    SetupError,
)
from companion.session import RaceLog, RaceSession
from companion.storage import UnknownRaceError, WriteConflictError
from companion.storage.db import NEWEST_SCHEMA_VERSION
from companion.storage.fold import fold_state


def _rows(path: Path, race_id: str) -> list[tuple[int, str, str]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT seq, kind, payload FROM events WHERE race_id = ? ORDER BY seq",
                          (race_id,)).fetchall()


def _doc(session: RaceSession) -> dict[str, object]:
    return racefile.state_document(session.state)


def test_round_trip(log: RaceLog, log_path: Path, setup: RaceSetup) -> None:
    race = log.new_race(setup, created="2024-06-01T20:00:00+02:00")
    assert racegen.drive(race, 120) == 120
    again = log.open_race(race.race_id)
    assert again.setup == setup
    assert again.created == "2024-06-01T20:00:00+02:00"
    assert again.actions() == race.actions()
    assert again.state == race.state
    assert _doc(again) == _doc(race)
    assert [kind for _, kind, _ in _rows(log_path, race.race_id)] == ["input"] * 120


def test_reopen_in_a_new_process_gives_identical_state(log_path: Path, setup: RaceSetup) -> None:
    with RaceLog(log_path) as log:
        race = log.new_race(setup)
        racegen.drive(race, 200, seed=4)
        race.undo()
        race.undo()
        race.redo()
        expected, race_id = _doc(race), race.race_id
    with RaceLog(log_path) as log:
        again = log.open_race(race_id)
        assert _doc(again) == expected
        assert again.can_undo and again.can_redo
        assert again.state == fold_state(setup, again.actions())


def test_undo_redo_and_undo_after_redo(log: RaceLog, log_path: Path, setup: RaceSetup) -> None:
    race = log.new_race(setup)
    assert not race.can_undo and not race.can_redo
    assert race.undo() is False and race.redo() is False
    racegen.drive(race, 30)
    states = [race.state]
    actions = race.actions()
    assert race.undo() and race.undo()
    assert race.actions() == actions[:-2]
    assert race.state == fold_state(setup, actions[:-2])
    assert race.can_redo
    assert race.redo()
    assert race.actions() == actions[:-1]
    assert race.undo()  # undo after redo
    assert race.actions() == actions[:-2]
    assert race.redo() and race.redo()
    assert race.state == states[0]
    assert race.redo() is False
    kinds = [kind for _, kind, _ in _rows(log_path, race.race_id)]
    assert kinds[30:] == ["undo", "undo", "redo", "undo", "redo", "redo"]
    assert log.open_race(race.race_id).state == race.state


def test_undo_everything_back_to_the_start(log: RaceLog, setup: RaceSetup) -> None:
    race = log.new_race(setup)
    start = race.state
    racegen.drive(race, 10)
    while race.undo():
        pass
    assert race.state == start and race.actions() == ()
    assert log.open_race(race.race_id).state == start


def test_a_new_input_clears_redo(log: RaceLog, setup: RaceSetup) -> None:
    race = log.new_race(setup)
    racegen.drive(race, 5)
    race.undo()
    assert race.can_redo
    racegen.drive(race, 1, seed=99)
    assert not race.can_redo
    assert race.redo() is False
    again = log.open_race(race.race_id)
    assert not again.can_redo and again.actions() == race.actions()


def test_a_rejection_writes_nothing(log: RaceLog, log_path: Path, setup: RaceSetup) -> None:
    race = log.new_race(setup)
    racegen.drive(race, 3)
    before, rows = race.state, _rows(log_path, race.race_id)
    result = race.submit(ChooseGear("red", 4, clogged=True))
    assert isinstance(result, Rejection)
    assert isinstance(race.submit(LegendCard(3)), Rejection)
    assert race.state is before
    assert _rows(log_path, race.race_id) == rows
    assert race.events_logged == len(rows)


def test_submit_returns_what_the_engine_says(log: RaceLog, setup: RaceSetup) -> None:
    race = log.new_race(setup)
    result = race.submit(ChooseGear("red", 2))
    assert isinstance(result, Applied)
    assert result.state is race.state
    assert race.last_outcomes == result.outcomes


def test_two_writers_on_one_race_conflict(log: RaceLog, setup: RaceSetup) -> None:
    race = log.new_race(setup)
    racegen.drive(race, 2)
    twin = log.open_race(race.race_id)
    racegen.drive(race, 1, seed=5)
    state = twin.state
    with pytest.raises(WriteConflictError, match=r"event seq 3"):
        racegen.drive(twin, 1, seed=6)
    assert twin.state is state  # a failed append changes nothing in memory
    with pytest.raises(WriteConflictError):
        twin.undo()
    assert twin.state is state and not twin.can_redo


def test_export_replays_to_the_same_state(log: RaceLog, setup: RaceSetup) -> None:
    race = log.new_race(setup)
    racegen.drive(race, 400, seed=8)
    race.undo()
    doc = race.export()
    rounds = len(doc["rounds"])
    assert rounds >= 3
    # The export holds complete rounds: compare with the state right after the last one.
    steps = [s.state for s in race._timeline.steps()]
    boundary = next(s for s in steps if s.round == rounds)
    states = list(racefile.replay(racefile.parse(doc)))
    assert racefile.state_document(states[-1]) == racefile.state_document(boundary)


def test_export_of_a_finished_race(log: RaceLog) -> None:
    setup = racegen.setup(humans=2, legends=2, laps=1, seed=3)
    race = log.new_race(setup)
    racegen.drive(race, 5000, seed=2)
    assert race.state.over
    exported = race.export()
    assert exported["format"] == "heat-race/1"
    final = list(racefile.replay(racefile.parse(exported)))[-1]
    assert racefile.state_document(final) == racefile.state_document(race.state)


def test_physical_legends_deck_round_trip_and_export(log: RaceLog) -> None:
    setup = racegen.setup(humans=2, legends=2, laps=1, seed=3, physical=True)
    race = log.new_race(setup)
    racegen.drive(race, 150, seed=4)
    assert any(isinstance(a, LegendCard) for a in race.actions())
    assert log.open_race(race.race_id).state == race.state
    doc = race.export()
    steps = [s.state for s in race._timeline.steps()]
    boundary = next(s for s in steps if s.round == len(doc["rounds"]))
    final = list(racefile.replay(racefile.parse(doc)))[-1]
    assert racefile.state_document(final) == racefile.state_document(boundary)


INLINE = {"id": "test-30", "spaces": 30, "laps": 1, "heat": 6, "stress": 3,
          "corners": [{"line_after": 10, "limit": 4, "legend_line_after": 6},
                      {"line_after": 20, "limit": 3, "legend_line_after": 16}]}


def test_inline_track_is_kept_for_export(log: RaceLog) -> None:
    track = tracks.track_from_dict(INLINE)
    setup = RaceSetup(track=track, cars=(CarEntry("red", "Ana"), CarEntry("blue", "Bo")))
    race = log.new_race(setup, track_doc=dict(INLINE))
    racegen.drive(race, 40)
    again = log.open_race(race.race_id)
    assert again.setup == setup and again.track_doc == INLINE
    assert again.export()["track"] == INLINE
    racefile.parse(again.export())


def test_a_track_that_is_not_bundled_is_stored_inline(log: RaceLog) -> None:
    track = tracks.track_from_dict(INLINE)
    setup = RaceSetup(track=track, cars=(CarEntry("red"),), laps=2, seed=5)
    race = log.new_race(setup)
    assert isinstance(race.track_doc, dict)
    assert log.open_race(race.race_id).setup == setup


def test_bundled_track_is_stored_by_id(log: RaceLog, setup: RaceSetup) -> None:
    race = log.new_race(setup)
    assert race.track_doc == "usa"
    assert race.export()["track"] == "usa"


def test_track_doc_must_match_the_track(log: RaceLog, setup: RaceSetup) -> None:
    with pytest.raises(ValueError, match="does not describe"):
        log.new_race(setup, track_doc=INLINE)
    with pytest.raises(ValueError, match="does not describe"):
        log.new_race(setup, track_doc="france")
    assert log.races() == []


def test_setup_options_survive(log: RaceLog) -> None:
    setup = RaceSetup(
        track=tracks.load_track("italy"),
        cars=(CarEntry("red", "Ana", handicap=2), CarEntry("black", legend=True),
              CarEntry("blue", "Bo", handicap=1)),
        laps=3, seed=-42, legend_cards=(3, 7, 1), legend_bonus=2,
        physical_legends_deck=False, aggressive_legends=False,
    )
    race = log.new_race(setup)
    assert log.open_race(race.race_id).setup == setup


def test_a_setup_the_engine_refuses_is_not_stored(log: RaceLog) -> None:
    bad = RaceSetup(track=tracks.load_track("usa"), cars=(CarEntry("red"), CarEntry("red")))
    with pytest.raises(SetupError):
        log.new_race(bad)
    assert log.races() == []


def test_races_and_unfinished_race(log: RaceLog) -> None:
    assert log.races() == [] and log.unfinished_race() is None
    done = log.new_race(racegen.setup(humans=2, legends=1, laps=1, seed=1), created="a")
    racegen.drive(done, 5000)
    assert done.state.over
    assert log.unfinished_race() is None
    running = log.new_race(racegen.setup(humans=2, legends=0, laps=2), created="b")
    racegen.drive(running, 25)
    assert log.unfinished_race() == running.race_id
    listed = log.races()
    assert [r.id for r in listed] == [running.race_id, done.race_id]
    first, second = listed
    assert first.created == "b" and first.track_id == "usa" and first.laps == 2
    assert first.car_ids == ("red", "blue") and first.status == "running"
    assert first.rounds == running.state.round and not first.over
    assert second.over and second.status == "over"
    assert second.results == done.state.results and second.rounds == done.state.round
    done_again = log.open_race(done.race_id)
    assert done_again.undo()  # the summary follows undo
    assert not log.races()[1].over
    assert log.races()[1].results == done_again.state.results
    assert log.unfinished_race() == running.race_id  # the most recently created one
    log.delete_race(running.race_id)
    assert log.unfinished_race() == done.race_id


def test_delete_race(log: RaceLog, setup: RaceSetup) -> None:
    race = log.new_race(setup)
    racegen.drive(race, 5)
    log.delete_race(race.race_id)
    assert log.races() == []
    with pytest.raises(UnknownRaceError):
        log.open_race(race.race_id)
    with pytest.raises(UnknownRaceError):
        log.delete_race(race.race_id)


def test_unknown_race(log: RaceLog) -> None:
    with pytest.raises(UnknownRaceError, match="unknown race 'nope'"):
        log.open_race("nope")


def test_wal_and_synchronous_full(log: RaceLog, log_path: Path, setup: RaceSetup) -> None:
    log.new_race(setup)
    db = log._log._db
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    with sqlite3.connect(log_path) as other:
        assert other.execute("PRAGMA user_version").fetchone()[0] == NEWEST_SCHEMA_VERSION


def test_close_is_idempotent(log_path: Path) -> None:
    log = RaceLog(log_path)
    log.close()
    log.close()


def test_export_keeps_aggressive_legends_off(log: RaceLog) -> None:
    """heat-race/1 cannot say "Aggressive Legends off", so such a race exports as heat-race/2."""
    setup = dataclasses.replace(racegen.setup(humans=2, legends=3, laps=2, seed=1,
                                              track="nederland"), aggressive_legends=False)
    race = log.new_race(setup)
    racegen.drive(race, 5000, seed=1)
    exported = race.export()
    assert exported["format"] == "heat-race/2"
    assert exported["legends"]["aggressive"] is False
    final = list(racefile.replay(racefile.parse(exported)))[-1]
    assert racefile.state_document(final) == racefile.state_document(race.state)


def test_one_transaction_records_the_block_whole_when_it_ends(
        log: RaceLog, log_path: Path, setup: RaceSetup, transactions: list[int]) -> None:
    race = log.new_race(setup)
    racegen.drive(race, 4)
    rows = _rows(log_path, race.race_id)
    start = len(transactions)
    with race.one_transaction():
        racegen.drive(race, 3, seed=5)
        assert race.undo()
        with race.one_transaction():  # a block inside another is part of it
            assert race.redo()
        assert _rows(log_path, race.race_id) == rows  # nothing written yet
        assert race.events_logged == len(rows) + 5 and len(race.actions()) == 7
    assert transactions[start:] == [1]  # five events, one durable transaction
    after = _rows(log_path, race.race_id)
    assert after[:len(rows)] == rows
    assert [(seq, kind) for seq, kind, _ in after[len(rows):]] == [
        (5, "input"), (6, "input"), (7, "input"), (8, "undo"), (9, "redo")]
    again = log.open_race(race.race_id)
    assert again.state == race.state and again.actions() == race.actions()
    with race.one_transaction():  # a block that records nothing writes nothing
        pass
    assert transactions[start:] == [1]


def test_one_transaction_that_fails_leaves_the_session_as_it_was(
        log: RaceLog, log_path: Path, setup: RaceSetup) -> None:
    race = log.new_race(setup)
    racegen.drive(race, 6)
    assert race.undo()
    before = (race.state, race.actions(), race.events_logged, race.can_undo, race.can_redo)
    rows = _rows(log_path, race.race_id)
    other = log.open_race(race.race_id)  # another writer takes the next seq first
    assert other.redo()
    with pytest.raises(WriteConflictError), race.one_transaction():
        racegen.drive(race, 2, seed=8)
        assert race.undo()
    assert (race.state, race.actions(), race.events_logged, race.can_undo,
            race.can_redo) == before
    after = _rows(log_path, race.race_id)  # the other's redo alone was recorded
    assert after[:len(rows)] == rows and [kind for _, kind, _ in after[len(rows):]] == ["redo"]
    with pytest.raises(ValueError), race.one_transaction():  # a block that raises: nothing
        racegen.drive(race, 1, seed=9)
        raise ValueError("a bug")
    assert race.state == before[0] and race.events_logged == before[2]
