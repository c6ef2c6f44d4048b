"""Results and the lap chart of a race (Kivy-free).

The lap chart is the position of every car after every round. It is computed by replaying the
session's exported race file (``companion.racefile``) through the engine and taking the
standings at each round end, so it is exactly what the log says happened.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import racefile
from companion.engine import RaceState, start_race
from companion.i18n import Text, _

from .race_view import standings


@dataclass(frozen=True)
class LapChart:
    cars: tuple[str, ...]
    """Every car, in finishing order, then the order of the last round, then the eliminated
    cars (the later-eliminated first: :func:`~.race_view.standings`)."""
    positions: Mapping[str, tuple[int, ...]]
    """Car -> its position (1 = leading) on the grid and after each round it ended in the
    race: an eliminated car's line ends at the last round it completed (it has no position
    once it is out, docs/rules.md §3.3; the cars behind it move up)."""
    out: Mapping[str, int] = field(default_factory=dict)
    """Eliminated car -> the round it left the race in."""

    @property
    def rounds(self) -> int:
        return max((len(p) for p in self.positions.values()), default=1) - 1


def lap_chart(race_doc: Mapping[str, Any]) -> tuple[LapChart, RaceState]:
    """The lap chart of a ``heat-race/1`` document, and the final state of its replay."""
    race = racefile.parse(dict(race_doc))
    state = start_race(race.setup).state
    states = [state, *racefile.replay(race)]
    state = states[-1]
    history = [standings(snapshot) for snapshot in states]
    final = history[-1]
    positions = {
        car: tuple(snapshot.index(car) + 1 for snapshot, at in zip(history, states, strict=True)
                   if not at.car(car).eliminated)
        for car in final
    }
    return LapChart(cars=tuple(final), positions=positions,
                    out={car.id: car.eliminated_at[0] for car in state.cars
                         if car.eliminated_at is not None}), state


def results_document(race_id: str, state: RaceState, chart: LapChart) -> dict[str, Any]:
    """The results saved with the race (``<data>/results/<race>.json``)."""
    return {
        "format": "heat-results/1",
        "race": race_id,
        "track": state.track.id,
        "laps": state.laps,
        "rounds": state.round,
        "results": [
            {"place": place, "car": car, "name": state.car(car).name,
             "legend": state.car(car).legend, "round": rnd}
            for car, place, rnd in state.results
        ],
        "lap_chart": {car: list(chart.positions[car]) for car in chart.cars},
        "eliminated": [car for car in chart.cars if state.car(car).eliminated],
        "sponsors": {c.id: c.sponsors for c in state.cars if not c.legend},
    }


def results_paths(data_dir: Path, race_id: str) -> tuple[Path, Path]:
    """Where the results JSON and the lap-chart PNG of a race are kept."""
    folder = data_dir / "results"
    return folder / f"{race_id}.json", folder / f"{race_id}-lap-chart.png"


def save_results(data_dir: Path, race_id: str, document: Mapping[str, Any]) -> Path:
    path, _png = results_paths(data_dir, race_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(document, indent=2, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)
    return path


def finish_stands(followed: tuple[str, int] | None, read_only: bool) -> Text | None:
    """Why Results cannot take back the input that finished its race (None: it can), in
    words: the log is read only, or something was begun from the race's result
    (``SeasonStore.followed``: the season's next race started, its Garage draft under way)."""
    if read_only:
        return lambda: _("The race log is read-only: an undo cannot be recorded.")
    if followed is None:
        return None
    what, number = followed
    if what == "race":
        return lambda: _("Race {number} of this season has started: this race's result "
                         "stands and cannot be undone.").format(number=number)
    # what frees it said too: with every pick undone the draft is set aside by the undo
    # (it said "it stands and cannot be undone", which every pick undone made untrue)
    return lambda: _("A pick of the Garage draft for race {number}, dealt from this race's "
                     "result, is recorded: undo every pick on the Garage draft screen "
                     "first.").format(number=number)
