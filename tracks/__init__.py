"""Track data for heat-companion: the bundled boards, their loader and validation.

>>> load_track("usa").spaces
69
>>> [info.id for info in available_tracks()][:4]
['usa', 'great-britain', 'france', 'italy']

* :func:`load_track` / :func:`load_track_info` — a bundled board by id (``tracks/data/<id>.json``,
  read with :mod:`importlib.resources`, validated strictly, cached).
* :func:`available_tracks` — every bundled board as :class:`TrackInfo`, base box first.
* :func:`track_from_dict` — a race-file inline track (docs/race-file.md, "Inline track").
* :func:`load_track_file` — a track file anywhere on disk.

All of them raise :class:`TrackError` (a :class:`ValueError`) naming the file and field.
The data sources of every bundled fact are in each file's ``"sources"`` object. Germany (Rocky
Roads) is not bundled: its Legend Lines in the only source are placeholders (docs/rules.md §6), and
:class:`companion.engine.track.Corner` has no way to say "no Legend Line".
"""

from __future__ import annotations

import functools
from importlib import resources
from os import PathLike
from pathlib import Path
from typing import Final

from companion.engine.track import Corner, Track

from .errors import INLINE_SOURCE, TrackError
from .fields import parse_json
from .info import TrackInfo
from .press import default_press_corners, press_corner_line
from .schema import EXPANSIONS, parse_track

__all__ = [
    "BUNDLED_ORDER",
    "EXPANSIONS",
    "Corner",
    "Track",
    "TrackError",
    "TrackInfo",
    "available_tracks",
    "bundled_track_ids",
    "default_press_corners",
    "load_track",
    "load_track_file",
    "load_track_info",
    "load_track_info_file",
    "press_corner_line",
    "track_from_dict",
    "track_info_from_dict",
]

DATA_PACKAGE: Final = "tracks.data"
BUNDLED_ORDER: Final = (
    "usa",
    "great-britain",
    "france",
    "italy",
    "japan",
    "mexico",
    "espana",
    "nederland",
    "south-africa",
)
"""Display order: base box in the order the Championship seasons introduce them, then the
expansions in publication order. Files not listed here come last, sorted by id."""


def _bundled_source(track_id: str) -> str:
    return f"tracks/data/{track_id}.json"


def bundled_track_ids() -> list[str]:
    """Ids of every ``tracks/data/*.json`` file, in display order."""
    return list(_bundled_ids())


@functools.cache
def _bundled_ids() -> tuple[str, ...]:
    found = {
        entry.name.removesuffix(".json")
        for entry in resources.files(DATA_PACKAGE).iterdir()
        if entry.name.endswith(".json") and entry.is_file()
    }
    listed = [track_id for track_id in BUNDLED_ORDER if track_id in found]
    return (*listed, *sorted(found - set(BUNDLED_ORDER)))


def load_track_info(track_id: str) -> TrackInfo:
    """A bundled track with its names, sources and extras. Raises :class:`TrackError`."""
    if not isinstance(track_id, str) or track_id not in _bundled_ids():
        known = ", ".join(_bundled_ids())
        raise TrackError("tracks", "", f"unknown track id {track_id!r} (bundled: {known})")
    return _load_bundled(track_id)


@functools.cache
def _load_bundled(track_id: str) -> TrackInfo:
    source = _bundled_source(track_id)
    resource = resources.files(DATA_PACKAGE).joinpath(f"{track_id}.json")
    try:
        text = resource.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TrackError(source, "", f"cannot read: {exc}") from exc
    return parse_track(parse_json(text, source), source, strict=True, expected_id=track_id)


def load_track(track_id: str) -> Track:
    """A bundled track by id (``"usa"``, ``"great-britain"``…). Raises :class:`TrackError`."""
    return load_track_info(track_id).track


def available_tracks() -> list[TrackInfo]:
    """Every bundled track, in display order (base box first)."""
    return [load_track_info(track_id) for track_id in bundled_track_ids()]


def track_info_from_dict(data: object, source: str = INLINE_SOURCE) -> TrackInfo:
    """Like :func:`track_from_dict`, keeping names, gravel and sources."""
    return parse_track(data, source)


def track_from_dict(data: object, source: str = INLINE_SOURCE) -> Track:
    """A track from decoded JSON, e.g. a race file's inline track.

    Only ``id``, ``spaces``, ``laps``, ``heat``, ``stress`` and ``corners`` (each with
    ``line_after``, ``limit``, ``legend_line_after``) are required; every other field of the
    bundled files is accepted, unknown keys are not. ``source`` names the data in messages
    (the default reads "inline track")."""
    return parse_track(data, source).track


def load_track_file(path: str | PathLike[str]) -> Track:
    """A track from a JSON file on disk (not strict: a user's own board). Raises TrackError."""
    return load_track_info_file(path).track


def load_track_info_file(path: str | PathLike[str]) -> TrackInfo:
    """Like :func:`load_track_file`, keeping names, gravel and sources."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TrackError(source, "", f"cannot read: {exc}") from exc
    return parse_track(parse_json(text, source), source)
