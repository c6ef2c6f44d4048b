"""Championship seasons as data: the official seasons of docs/rules.md §3.3 and custom seasons.

A season is a list of races; each race names a bundled track, a Championship event (an id of
:data:`companion.engine.modules.EVENTS`), the Sponsorship cards every driver draws before it
and its Press Corners as letters. Letters are turned into Corner Lines with
:func:`tracks.press_corner_line` when the race is set up (A = first corner after the start
line, a chicane counts once, letters wrap; docs/rules.md §3.3).

The same document format, ``heat-season/1``, describes a custom season and stores any season
(docs/championship.md)::

    {"format": "heat-season/1", "name": "Autumn cup",
     "races": [{"track": "usa", "event": "corruption", "press": ["A", "C"], "sponsors": 1}]}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

import tracks
from companion.engine.modules import EVENTS
from companion.engine.track import Track

SEASON_FORMAT = "heat-season/1"
MAX_RACES = 12
"""A custom season has 1 to this many races (official seasons have 3 or 4, docs/rules.md §3.1)."""
MAX_SPONSORS = 3
"""Sponsorship cards drawn before a race: 0-3 on the event cards (docs/rules.md §3.3)."""
DEFAULT_SPONSORS = 1
"""Sponsorship cards drawn before a custom race that does not say (the commonest value)."""

_DOC_KEYS = {"format", "id", "name", "verified", "note", "races"}
_RACE_KEYS = {"track", "event", "press", "sponsors", "playable", "note"}


class SeasonError(ValueError):
    """A season, a result or a request that the Championship rules do not allow. The message is
    one line in English naming the race or the field."""


@dataclass(frozen=True, slots=True)
class SeasonRace:
    """One race of a season (docs/rules.md §3.3 table row)."""

    track: str
    """A bundled track id (``tracks.load_track``)."""
    event: str | None = None
    """A Championship event id (``EVENTS``), or None for a race without an event."""
    sponsors: int = 0
    """Sponsorship cards every driver draws into hand before the race (docs/rules.md §3.1)."""
    press: tuple[str, ...] = ()
    """Press Corners as letters, A = the first corner after the start line (docs/rules.md §3.3)."""
    playable: bool = True
    """False when the app cannot run the race (its track is not bundled); ``note`` says why."""
    note: str = ""


@dataclass(frozen=True, slots=True)
class SeasonDef:
    """A season: its races in order. ``id`` is the year of an official season or ``custom``."""

    id: str
    name: str
    races: tuple[SeasonRace, ...]
    verified: bool = True
    """False when docs/rules.md could not confirm the season's data from two sources."""
    note: str = ""


def _race(track: str, event: str, sponsors: int, press: str = "", **kw: Any) -> SeasonRace:
    return SeasonRace(track, event, sponsors, tuple(press), **kw)


_GERMANY = ("Germany (Rocky Roads) is not bundled: its Legend Lines in the only source are "
            "placeholders (docs/rules.md §6), so this race cannot be played; a custom season can "
            "replace it")

SEASONS: Mapping[str, SeasonDef] = MappingProxyType({s.id: s for s in (
    # docs/rules.md §3.3, confirmed for 1961-1965 by bga-heat constants.inc.php and the fan app.
    SeasonDef("1961", "1961", (
        _race("great-britain", "new-grandstand", 2, "A"),
        _race("usa", "new-speed-record", 1, "B"),
        _race("italy", "drivers-strike", 1, "C"),
    )),
    SeasonDef("1962", "1962", (
        _race("italy", "engine-restrictions-lifted", 2, "E"),
        _race("great-britain", "record-crowds", 1, "CE"),
        _race("france", "corruption", 1, "C"),
    )),
    SeasonDef("1963", "1963", (
        _race("usa", "new-title-sponsor", 3, "A"),
        _race("great-britain", "live-television", 1, "BD"),
        _race("france", "safety-regulations", 1, "D"),
        _race("italy", "title-sponsor-withdraws", 0, "D"),
    )),
    SeasonDef("1964", "1964 (Heavy Rain)", (
        _race("japan", "going-global", 0, "BC"),
        _race("france", "turbulent-winds", 1, "B"),
        _race("mexico", "chicanes-for-safety", 1, "C"),
        _race("japan", "sudden-heavy-rain", 1, ""),
    )),
    SeasonDef("1965", "1965 (Tunnel Vision)", (
        _race("great-britain", "hold-on-tight", 2, "D"),
        _race("usa", "smile-and-wave", 0, "C"),
        _race("espana", "tunnel-vision", 0, "AC"),
        _race("nederland", "pressure-cooker", 1, "B"),
    )),
    SeasonDef("1966", "1966 (Rocky Roads)", (
        _race("france", "tight-maneuvers", 1, "E"),
        _race("germany", "smooth-start", 1, "C", playable=False, note=_GERMANY),
        _race("italy", "crowd-goes-wild", 1, "C"),
        _race("south-africa", "consulting-mechanics", 1, "B"),
    ), verified=False, note=(
        "Unverified: 1966 comes from BGA's unfinished (TODO) event texts and the fan app only "
        "(docs/rules.md §3.3). Race 2 (Germany) cannot be played.")),
)})
"""The official seasons of docs/rules.md §3.3, by year."""


def official_season(season_id: str) -> SeasonDef:
    """An official season by year; raises :class:`SeasonError`."""
    if season_id not in SEASONS:
        raise SeasonError(f"unknown season {season_id!r} (official seasons: "
                          f"{', '.join(SEASONS)})")
    return SEASONS[season_id]


def press_lines(track: Track, letters: tuple[str, ...]) -> tuple[int, ...]:
    """The Corner Lines of a race's Press Corners (docs/rules.md §3.3; letters wrap); raises
    :class:`SeasonError` for a bad letter or two letters that name the same corner."""
    lines: list[int] = []
    for letter in letters:
        if not isinstance(letter, str) or len(letter) != 1 or not "A" <= letter <= "Z":
            raise SeasonError(f"press corner {letter!r} is not a letter A-Z")
        line = tracks.press_corner_line(track, letter)
        if line in lines:
            first = letters[lines.index(line)]
            raise SeasonError(f"press corners {first} and {letter} are the same corner of "
                              f"{track.id} (letters wrap after its "
                              f"{len(track.press_corners)} press corners)")
        lines.append(line)
    return tuple(lines)


def on_season_board(track: Track, track_id: str,
                    load_track: Callable[[str], Track] = tracks.load_track) -> bool:
    """``track`` (a race file's) is the bundled board ``track_id`` names: the same id and the
    same spaces, corners, lines and track data, whatever it is called. A race file may give a
    track of its own, inline, under a bundled track's id (docs/race-file.md): that is not the
    season's race (docs/championship.md)."""
    if track.id != track_id:
        return False
    try:
        bundled = load_track(track_id)
    except tracks.TrackError:
        return False
    return replace(track, name=bundled.name, unverified=bundled.unverified) == bundled


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_keys(where: str, doc: object, allowed: set[str]) -> dict[str, Any]:
    if not isinstance(doc, dict):
        raise SeasonError(f"{where}: must be an object")
    extra = sorted(set(doc) - allowed)
    if extra:
        raise SeasonError(f"{where}: unknown key {extra[0]!r}")
    return doc


def _parse_race(i: int, raw: object, load_track: Callable[[str], Track]) -> SeasonRace:
    where = f"races[{i}]"
    doc = _check_keys(where, raw, _RACE_KEYS)
    track_id = doc.get("track")
    if not isinstance(track_id, str) or not track_id:
        raise SeasonError(f"{where}.track: required, a bundled track id")
    playable = doc.get("playable", True)
    note = doc.get("note", "")
    if not isinstance(playable, bool) or not isinstance(note, str):
        raise SeasonError(f"{where}: playable must be true or false, note a string")
    event = doc.get("event")
    if event is not None and (not isinstance(event, str) or event not in EVENTS):
        raise SeasonError(f"{where}.event: unknown event {event!r} (see docs/race-file-v2.md)")
    sponsors = doc.get("sponsors", DEFAULT_SPONSORS)
    if not _is_int(sponsors) or not 0 <= sponsors <= MAX_SPONSORS:
        raise SeasonError(f"{where}.sponsors: must be a whole number 0-{MAX_SPONSORS}")
    press = doc.get("press", [])
    if not isinstance(press, list) or not all(
            isinstance(x, str) and len(x) == 1 and "A" <= x <= "Z" for x in press):
        raise SeasonError(f"{where}.press: must be a list of letters A-Z, like [\"A\", \"C\"]")
    race = SeasonRace(track_id, event, sponsors, tuple(press), playable, note)
    try:
        track = load_track(track_id)
    except tracks.TrackError as error:
        if not playable:  # a race the app cannot run may be on a track it lacks (1966 Germany)
            return race
        raise SeasonError(f"{where}.track: {error}") from error
    try:
        press_lines(track, race.press)
    except SeasonError as error:
        raise SeasonError(f"{where}.press: {error}") from error
    return race


def parse_season(
    data: object, *, load_track: Callable[[str], Track] = tracks.load_track
) -> SeasonDef:
    """A season from a ``heat-season/1`` document (a custom season file, or a stored season).

    Every race must name a bundled track (or be marked ``"playable": false``), a known event if
    any, 0-3 Sponsorship cards and Press Corner letters that name different corners. Raises
    :class:`SeasonError` naming the field."""
    doc = _check_keys("season", data, _DOC_KEYS)
    if doc.get("format", SEASON_FORMAT) != SEASON_FORMAT:
        raise SeasonError(f"format: expected {SEASON_FORMAT!r}, got {doc.get('format')!r}")
    season_id = doc.get("id", "custom")
    name = doc.get("name", "Custom season")
    verified = doc.get("verified", True)
    note = doc.get("note", "")
    if not isinstance(season_id, str) or not season_id:
        raise SeasonError("id: must be a non-empty string")
    if not isinstance(name, str) or not name.strip():
        raise SeasonError("name: must be a non-empty string")
    if not isinstance(verified, bool) or not isinstance(note, str):
        raise SeasonError("verified must be true or false, note a string")
    races_raw = doc.get("races")
    if not isinstance(races_raw, list) or not 1 <= len(races_raw) <= MAX_RACES:
        raise SeasonError(f"races: required, a list of 1-{MAX_RACES} races")
    races = tuple(_parse_race(i, raw, load_track) for i, raw in enumerate(races_raw))
    return SeasonDef(season_id, name, races, verified, note)


def season_doc(season: SeasonDef) -> dict[str, Any]:
    """The ``heat-season/1`` document of a season (inverse of :func:`parse_season`)."""
    races = []
    for race in season.races:
        entry: dict[str, Any] = {"track": race.track}
        if race.event is not None:
            entry["event"] = race.event
        entry["sponsors"] = race.sponsors
        entry["press"] = list(race.press)
        if not race.playable:
            entry["playable"] = False
        if race.note:
            entry["note"] = race.note
        races.append(entry)
    doc: dict[str, Any] = {"format": SEASON_FORMAT, "id": season.id, "name": season.name}
    if not season.verified:
        doc["verified"] = False
    if season.note:
        doc["note"] = season.note
    doc["races"] = races
    return doc
