"""A season's standings as a JSON document (``heat-standings/1``) and as CSV.

Both formats are described in docs/championship.md. Pure: they return values, the caller
writes them.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from companion.engine.modules import EVENTS

from .scoring import RacePoints, Status
from .season import Season

STANDINGS_FORMAT = "heat-standings/1"


def _race_points_doc(number: int, points: RacePoints) -> dict[str, Any]:
    return {
        "race": number, "place": points.place, "status": points.status.value,
        "points": points.points, "bonus": points.bonus, "total": points.total,
        "sponsors": points.sponsors,
    }


def standings_document(
    season: Season, sources: Sequence[str] = (), *, running: str | None = None
) -> dict[str, Any]:
    """The ``heat-standings/1`` document: the season, its races (played, running or to come),
    the standings with points by race, and the grid and draft of the next race.

    ``sources`` names where each race came from (a stored race id or a file), race 1 first;
    ``running`` is the id of the next race when it is being played."""
    definition = season.definition
    races = []
    for index, race in enumerate(definition.races):
        played = index < len(season.results)
        status = "over" if played else "running" if (
            running is not None and index == len(season.results)) else "to come"
        card = EVENTS[race.event] if race.event is not None else None
        entry: dict[str, Any] = {
            "race": index + 1, "track": race.track, "event": race.event,
            "press": list(race.press), "sponsors_drawn": race.sponsors,
            "winner_bonus": card.winner_bonus if card else 0,
            "top_three_bonus": card.top_three_bonus if card else 0,
            "status": status,
            "source": (sources[index] if index < len(sources) else
                       running if status == "running" else None),
        }
        if played:
            result = season.results[index]
            entry["order"] = list(result.order)
            entry["eliminated"] = list(result.eliminated)
            entry["unfinished"] = list(result.unfinished)
        if not race.playable:
            entry["playable"] = False
            entry["note"] = race.note
        races.append(entry)
    lines = [{
        "rank": line.rank, "car": line.car.id, "name": line.car.name or line.car.id,
        "legend": line.car.legend, "points": line.points, "last_place": line.last_place,
        "races": [_race_points_doc(n, p) for n, p in enumerate(line.races, start=1)],
    } for line in season.standings()]
    return {
        "format": STANDINGS_FORMAT,
        "season": {
            "id": definition.id, "name": definition.name, "verified": definition.verified,
            "note": definition.note, "races": len(definition.races),
            "played": season.races_played, "over": season.over,
        },
        "races": races,
        "standings": lines,
        "next": _next(season),
    }


def _next(season: Season) -> dict[str, Any] | None:
    race = season.next_race
    if race is None:
        return None
    number = season.races_played + 1
    doc: dict[str, Any] = {"race": number, "track": race.track, "event": race.event,
                           "playable": race.playable}
    if season.results:
        grid = season.next_grid()
        draft = season.draft_order()
        doc["grid"] = list(grid)
        doc["draft"] = {"picks": list(draft.picks), "swap": draft.swap, "market": draft.market}
    else:  # race 1: the grid is drawn at random and the draft follows it (reverse grid)
        doc["grid"] = None
        doc["draft"] = None
    return doc


def standings_csv(season: Season) -> str:
    """The standings as CSV: one row per car, ``raceN_place`` and ``raceN_points`` (place
    points plus event bonus) for every race of the season; empty for races not played yet."""
    count = len(season.definition.races)
    header = ["rank", "car", "name", "legend", "points"]
    for number in range(1, count + 1):
        header += [f"race{number}_place", f"race{number}_points"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for line in season.standings():
        row: list[str | int] = [line.rank, line.car.id, line.car.name or line.car.id,
                                "yes" if line.car.legend else "no", line.points]
        for number in range(count):
            if number < len(line.races):
                points = line.races[number]
                place = (points.place if points.status is Status.PLACED
                         else points.status.value)
                row += [place if place is not None else "", points.total]
            else:
                row += ["", ""]
        writer.writerow(row)
    return out.getvalue()
