"""The Championship system (docs/rules.md §3): seasons, points, standings, grid and draft order.

Pure and deterministic: frozen values and functions over them, standard library and the
engine only. The only I/O is reading bundled track data through ``tracks.load_track``, which
every function that needs a track takes as a parameter. Storage is
:mod:`companion.storage.seasons`; the command is :mod:`companion.championship_cli`;
formats and rule choices are in docs/championship.md.

>>> season = Season(SEASONS["1961"], (CarEntry("red", "Ana"), CarEntry("black", legend=True)))
>>> season = season.with_result(RaceResult(order=("black", "red")))
>>> [(line.car.id, line.points) for line in season.standings()]
[('black', 9), ('red', 6)]
>>> season.draft_order().picks, season.next_grid()
(('red',), ('black', 'red'))
"""

from companion.engine.setup import CarEntry

from .report import STANDINGS_FORMAT, standings_csv, standings_document
from .scoring import (
    PLACE_POINTS,
    RacePoints,
    RaceResult,
    Standing,
    Status,
    event_bonus,
    place_points,
    result_doc,
    result_from_doc,
    result_from_state,
    standings,
)
from .season import DraftOrder, Season
from .seasons import (
    SEASON_FORMAT,
    SEASONS,
    SeasonDef,
    SeasonError,
    SeasonRace,
    official_season,
    on_season_board,
    parse_season,
    press_lines,
    season_doc,
)

__all__ = [
    "PLACE_POINTS", "SEASONS", "SEASON_FORMAT", "STANDINGS_FORMAT", "CarEntry", "DraftOrder",
    "RacePoints", "RaceResult", "Season", "SeasonDef", "SeasonError", "SeasonRace", "Standing",
    "Status", "event_bonus", "official_season", "on_season_board", "parse_season",
    "place_points", "press_lines", "result_doc", "result_from_doc", "result_from_state",
    "season_doc", "standings", "standings_csv", "standings_document",
]
