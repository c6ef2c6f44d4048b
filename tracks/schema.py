"""Parse and validate track data: bundled JSON files, user files and race-file inline tracks.

Every problem raises :class:`TrackError`, whose message names the file (or "inline track") and
the field path, e.g. ``tracks/data/usa.json: corners[2].limit: must be an integer 1-10, got "x"``.

The schema (one JSON object per track; see ``tracks/data/*.json`` for full examples and
docs/rules.md §6.1 for what each key means):

* required: ``id``, ``spaces``, ``laps``, ``heat``, ``stress``, ``corners`` — exactly what a
  race-file inline track must give (docs/race-file.md, "Inline track");
* each corner: required ``line_after``, ``limit``, ``legend_line_after``; optional
  ``aggressive``, ``aggressive_double``, ``chicane_with``, ``race_line_lane``, ``name``
  (:mod:`tracks.corners`);
* optional: ``name``, ``names`` (locale -> name), ``expansion``, ``grid_size``, ``flooded``,
  ``tunnels``, ``gravel`` (:mod:`tracks.spaces`), ``press_corners`` (:mod:`tracks.press`),
  ``unverified``, ``sources``.

Bundled files are parsed in *strict* mode, which also requires ``name``, ``grid_size``,
``press_corners`` and ``sources`` (every data fact must say where it comes from).

Unknown keys are rejected everywhere, as are duplicate keys in a JSON object: a typo must never
be silently ignored. ``bool`` is not accepted where an integer is expected.

This module reads the document as a whole; the parts live in :mod:`tracks.errors`,
:mod:`tracks.fields`, :mod:`tracks.corners`, :mod:`tracks.press`, :mod:`tracks.spaces` and
:mod:`tracks.info`, and the names they export are re-exported here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Final

from companion.engine.track import Track

from .corners import (
    CORNER_OPTIONAL,
    CORNER_REQUIRED,
    MAX_LIMIT,
    check_legend_zones,
    read_corners,
)
from .errors import INLINE_SOURCE, TrackError, show
from .fields import FieldReader, parse_json
from .info import TrackInfo
from .press import default_press_corners, press_corner_line, read_press_corners
from .spaces import GRAVEL_KEYS, read_gravel, read_space_set

__all__ = [
    "EXPANSIONS",
    "INLINE_SOURCE",
    "MAX_LIMIT",
    "TrackError",
    "TrackInfo",
    "default_press_corners",
    "known_keys",
    "parse_json",
    "parse_track",
    "press_corner_line",
    "show",
]

EXPANSIONS: Final = ("base", "heavy-rain", "tunnel-vision", "rocky-roads", "custom")
"""Values of ``expansion``, in publication order (``custom``: not an official board)."""

_ID_RE: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
_LOCALE_RE: Final = re.compile(r"^[a-z]{2,3}(_[A-Z][A-Za-z]{1,3})?$")

_TOP_REQUIRED: Final = ("id", "spaces", "laps", "heat", "stress", "corners")
_TOP_OPTIONAL: Final = (
    "name",
    "names",
    "expansion",
    "grid_size",
    "flooded",
    "tunnels",
    "gravel",
    "press_corners",
    "unverified",
    "sources",
)
_STRICT_REQUIRED: Final = ("name", "grid_size", "press_corners", "sources")


class _DocumentReader(FieldReader):
    """Walks one track document; every check names its field path."""

    def track(self, data: object, *, strict: bool, expected_id: str | None) -> TrackInfo:
        doc = self.obj(data, "", _TOP_REQUIRED, _TOP_OPTIONAL)
        if strict:
            for key in _STRICT_REQUIRED:
                if key not in doc:
                    self.fail(key, "missing (required in a bundled track file)")

        track_id = doc["id"]
        if not isinstance(track_id, str) or not _ID_RE.match(track_id):
            self.fail(
                "id",
                "must be 1-64 letters, digits, '-' or '_' (starting with a letter "
                f"or digit), got {show(track_id)}",
            )
        if expected_id is not None and track_id != expected_id:
            self.fail("id", f"must match the file name {show(expected_id)}, got {show(track_id)}")

        spaces = self.integer(doc["spaces"], "spaces", 4, 300)
        laps = self.integer(doc["laps"], "laps", 1, 20)
        heat = self.integer(doc["heat"], "heat", 0, 30)
        stress = self.integer(doc["stress"], "stress", 0, 30)
        name = self.text(doc["name"], "name", 80) if "name" in doc else track_id
        names = self.names(doc.get("names", {}))
        expansion = doc.get("expansion", "custom")
        if not isinstance(expansion, str) or expansion not in EXPANSIONS:
            self.fail("expansion", f"must be one of {', '.join(EXPANSIONS)}, got {show(expansion)}")
        grid_size = 8
        if "grid_size" in doc:
            grid_size = self.integer(
                doc["grid_size"],
                "grid_size",
                2,
                min(24, 2 * (spaces - 1)),
                "two cars per space behind the line",
            )
            if grid_size % 2:
                self.fail("grid_size", f"must be even (two spots per space), got {grid_size}")

        corners = read_corners(self, doc["corners"], spaces)
        if strict:
            check_legend_zones(self, corners, spaces)
        if "press_corners" in doc:
            press = read_press_corners(self, doc["press_corners"], corners)
        else:
            press = default_press_corners(corners)

        flooded = read_space_set(self, doc.get("flooded", []), "flooded", spaces)
        tunnels = read_space_set(self, doc.get("tunnels", []), "tunnels", spaces)
        gravel = read_gravel(self, doc.get("gravel", {}), spaces)
        unverified = tuple(
            self.text(note, f"unverified[{i}]", 600)
            for i, note in enumerate(self.array(doc.get("unverified", []), "unverified"))
        )
        sources = self.sources(doc.get("sources", {}), strict=strict)

        track = Track(
            id=track_id,
            spaces=spaces,
            laps=laps,
            heat=heat,
            stress=stress,
            corners=corners,
            name=name,
            grid_size=grid_size,
            flooded=flooded,
            tunnels=tunnels,
            press_corners=press,
            unverified=unverified,
        )
        return TrackInfo(
            track=track,
            source="inline track" if self.source == INLINE_SOURCE else self.source,
            names=MappingProxyType(names),
            expansion=expansion,
            gravel=gravel,
            sources=MappingProxyType(sources),
        )

    def names(self, value: object) -> dict[str, str]:
        if not isinstance(value, dict):
            self.fail("names", f"must be a JSON object of locale -> name, got {show(value)}")
        result: dict[str, str] = {}
        for key, name in value.items():
            if not isinstance(key, str) or not _LOCALE_RE.match(key):
                self.fail(f"names.{key}", 'unknown key (locale codes look like "ko" or "zh_TW")')
            result[key] = self.text(name, f"names.{key}", 80)
        return result

    def sources(self, value: object, *, strict: bool) -> dict[str, str]:
        if not isinstance(value, dict):
            self.fail("sources", f"must be a JSON object of fact -> source, got {show(value)}")
        if strict and not value:
            self.fail("sources", "must not be empty in a bundled track file")
        return {str(k): self.text(v, f"sources.{k}", 1000) for k, v in value.items()}


def parse_track(
    data: object,
    source: str = INLINE_SOURCE,
    *,
    strict: bool = False,
    expected_id: str | None = None,
) -> TrackInfo:
    """Validate a decoded track document and build a :class:`TrackInfo`."""
    return _DocumentReader(source).track(data, strict=strict, expected_id=expected_id)


def known_keys() -> Mapping[str, Iterable[str]]:
    """The accepted keys, for documentation and tests."""
    return {
        "track": (*_TOP_REQUIRED, *_TOP_OPTIONAL),
        "corner": (*CORNER_REQUIRED, *CORNER_OPTIONAL),
        "gravel": GRAVEL_KEYS,
    }
