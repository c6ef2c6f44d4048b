"""Stored race results: what standings, seasons and the next race read instead of replaying.

The result of a race (finishing order, cars eliminated or still racing, Sponsorship cards won:
:class:`~companion.championship.RaceResult`) is derived from the race's final state, outside
the engine, by :func:`companion.championship.result_from_state`. It is stored in the
``race_results`` table (schema 3, :mod:`.schema`) in the same transaction as the event that
finished the race (:func:`summary_of` gives it to :meth:`.db.EventLog.append_many`), and removed in
the transaction of an undo that makes the race unfinished again.

It is derived data, never the source of truth. A stored result is used only while it is
**fresh**: its ``version`` is :data:`.schema.RESULTS_VERSION`, its ``seq`` is the race's last
event, and its ``fingerprint`` is the hash of the race's track, setup, last event and the stored
result itself (:func:`.schema.result_fingerprint`). Otherwise (a race finished before the log
was upgraded, an event added afterwards, a damaged row, a new derivation) the race is replayed
from its log, as before results were stored, and the result is written back when the log is
writable; on a log opened to read only (read-only storage) it is kept in memory for as long as
the log is open.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from contextlib import suppress

from companion.championship.scoring import (
    RaceResult,
    result_doc,
    result_from_doc,
    result_from_state,
)
from companion.championship.seasons import SeasonError
from companion.engine import RaceState

from . import schema
from .db import EventLog, ResultSource, Summary
from .errors import StorageError, UnknownRaceError

USE_STORED = True
"""False: ignore stored results and replay every race asked for, as before they were stored
(``bench/history.py --replay`` checks that the bench catches that cost)."""


def result_text(result: RaceResult) -> str:
    """A result as ``race_results.result`` holds it (compact JSON, keys sorted)."""
    return json.dumps(result_doc(result), separators=(",", ":"), ensure_ascii=False,
                      sort_keys=True)


def outcome_text(state: RaceState) -> str:
    """The ``race_results.result`` of a race that is over."""
    return result_text(result_from_state(state))


def summary_of(state: RaceState) -> Summary:
    """The summary the race log keeps in step with a race's events (``races`` row), with the
    race's result when it is over."""
    return Summary(rounds=state.round, over=state.over, results=state.results,
                   outcome=outcome_text(state) if state.over else None)


def stored_result(source: ResultSource) -> RaceResult | None:
    """The stored result of ``source``'s race if it is fresh (see the module docstring),
    else None."""
    stored = source.stored
    if stored is None or stored.version != schema.RESULTS_VERSION or stored.seq != source.seq:
        return None
    if stored.fingerprint != schema.result_fingerprint(
            source.track, source.setup, source.seq, source.kind, source.payload, stored.result):
        return None
    try:
        return result_from_doc(json.loads(stored.result))
    except (ValueError, TypeError, RecursionError, SeasonError):
        return None


class RaceResults:
    """The results of a log's races, stored ones when fresh, else replayed.

    ``replay(race_id)`` gives a race's state after every event in its log (it raises the log's
    own errors, e.g. :class:`~.errors.CorruptLogError` naming the race and event).
    """

    def __init__(self, log: EventLog, replay: Callable[[str], RaceState]) -> None:
        self._log = log
        self._replay = replay
        self._memo: dict[str, tuple[str, RaceResult | None]] = {}
        self.replayed: list[str] = []
        """The races replayed so far, in order (for tests and the curious)."""

    def results(self, race_ids: Sequence[str]) -> dict[str, RaceResult | None]:
        """Race id -> its result, None for a race that is not over.

        Costs a key lookup per race when the stored results are fresh, and a replay per race
        the first time one is not (written back in one transaction when the log is writable:
        a failure to write it only means it is replayed again next time).

        :raises UnknownRaceError: a race id not in the log.
        """
        sources = self._log.result_sources(race_ids)
        out: dict[str, RaceResult | None] = {}
        rebuilt: list[tuple[ResultSource, str]] = []
        for race_id in race_ids:
            source = sources.get(race_id)
            if source is None:
                raise UnknownRaceError(race_id)
            if not USE_STORED:
                state = self._replayed(race_id)
                out[race_id] = result_from_state(state) if state.over else None
                continue
            if not source.over:
                out[race_id] = None
                continue
            result = stored_result(source)
            if result is None:
                result, text = self._rebuilt(source)
                if text is not None:
                    rebuilt.append((source, text))
            out[race_id] = result
        if rebuilt and not self._log.read_only and self._log.has_results:
            # Derived data: if it cannot be written, it is replayed again by the next opening.
            with suppress(StorageError):
                self._log.store_results(rebuilt)
        return out

    def _replayed(self, race_id: str) -> RaceState:
        self.replayed.append(race_id)
        return self._replay(race_id)

    def _rebuilt(self, source: ResultSource) -> tuple[RaceResult | None, str | None]:
        """The result replayed from the log (or from this object's memory of that replay
        while the race's last event is the same), with its text to store."""
        key = schema.result_fingerprint(source.track, source.setup, source.seq, source.kind,
                                        source.payload, "")
        memo = self._memo.get(source.race_id)
        if memo is not None and memo[0] == key:
            result = memo[1]
        else:
            state = self._replayed(source.race_id)
            result = result_from_state(state) if state.over else None
            self._memo[source.race_id] = (key, result)
        if result is None:
            return None, None
        return result, result_text(result)
