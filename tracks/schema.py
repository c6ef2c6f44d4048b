"""Parse and validate track data: bundled JSON files, user files and race-file inline tracks.

Every problem raises :class:`TrackError`, whose message names the file (or "inline track") and
the field path, e.g. ``tracks/data/usa.json: corners[2].limit: must be an integer 1-10, got "x"``.

The schema (one JSON object per track; see ``tracks/data/*.json`` for full examples):

* required: ``id``, ``spaces``, ``laps``, ``heat``, ``stress``, ``corners`` — exactly what a
  race-file inline track must give (docs/race-file.md, "Inline track");
* each corner: required ``line_after``, ``limit``, ``legend_line_after``; optional
  ``aggressive``, ``aggressive_double``, ``chicane_with``, ``race_line_lane``, ``name``;
* optional: ``name``, ``names`` (locale -> name), ``expansion``, ``grid_size``, ``flooded``,
  ``tunnels``, ``gravel``, ``press_corners``, ``unverified``, ``sources``.

Bundled files are parsed in *strict* mode, which also requires ``name``, ``grid_size``,
``press_corners`` and ``sources`` (every data fact must say where it comes from).

Unknown keys are rejected everywhere, as are duplicate keys in a JSON object: a typo must never
be silently ignored. ``bool`` is not accepted where an integer is expected.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, NamedTuple, NoReturn

from companion.engine.track import Corner, Track

INLINE_SOURCE: Final = "<inline>"
"""The ``source`` of a track given inline (race file); messages call it "inline track"."""

EXPANSIONS: Final = ("base", "heavy-rain", "tunnel-vision", "rocky-roads", "custom")
"""Values of ``expansion``, in publication order (``custom``: not an official board)."""

MAX_LIMIT: Final = 10
"""The highest printed speed limit (Great Britain's first corner, docs/rules.md §6)."""

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
_CORNER_REQUIRED: Final = ("line_after", "limit", "legend_line_after")
_CORNER_OPTIONAL: Final = (
    "aggressive",
    "aggressive_double",
    "chicane_with",
    "race_line_lane",
    "name",
)
_GRAVEL_KEYS: Final = ("lane1", "lane2")


class TrackError(ValueError):
    """Invalid track data. ``source`` names the file (or "inline track"), ``field`` the path."""

    def __init__(self, source: str, field_path: str, problem: str) -> None:
        self.source = "inline track" if source == INLINE_SOURCE else source
        self.field = field_path
        self.problem = problem
        where = f"{self.source}: {field_path}" if field_path else self.source
        super().__init__(f"{where}: {problem}")


@dataclass(frozen=True)
class TrackInfo:
    """A parsed track file: the engine's :class:`Track` plus what only the app needs."""

    track: Track
    source: str
    """Where it was read ("tracks/data/usa.json", a path, or "inline track")."""
    names: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Localised names, e.g. ``{"zh_TW": "美國", "ko": "미국"}``."""
    expansion: str = "custom"
    gravel: frozenset[tuple[int, int]] = frozenset()
    """South Africa's gravel spots as ``(space, lane)``; the rule itself is uncertain (§6)."""
    sources: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """What each group of facts in the file is taken from."""

    @property
    def id(self) -> str:
        return self.track.id

    @property
    def name(self) -> str:
        return self.track.name

    def display_name(self, locale: str | None = None) -> str:
        """The name for ``locale`` ("zh_TW", "ko", "ko_KR"…), else the English name."""
        if locale:
            normal = locale.replace("-", "_")
            for key in (normal, normal.split("_")[0]):
                if key in self.names:
                    return self.names[key]
        return self.track.name


def show(value: object) -> str:
    """A value as it would look in JSON, shortened for messages."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def parse_json(text: str, source: str) -> object:
    """Decode JSON text, rejecting duplicate keys and NaN/Infinity."""

    def no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
        result: dict[str, object] = {}
        for key, value in pairs:
            if key in result:
                raise TrackError(source, key, "key appears twice in one JSON object")
            result[key] = value
        return result

    def no_constant(name: str) -> NoReturn:
        raise TrackError(source, "", f"{name} is not allowed in track data")

    try:
        data: object = json.loads(text, object_pairs_hook=no_duplicates, parse_constant=no_constant)
    except json.JSONDecodeError as exc:
        raise TrackError(
            source, "", f"not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"
        ) from None
    return data


class _CornerFields(NamedTuple):
    limit: int
    legend: int
    aggressive: int
    double: int
    lane: int | None
    name: str


class _Parser:
    """Walks one track document; every check names its field path."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, problem: str) -> NoReturn:
        raise TrackError(self.source, path, problem)

    # --- primitives ---------------------------------------------------------------------

    def obj(
        self,
        value: object,
        path: str,
        required: Sequence[str],
        optional: Sequence[str],
    ) -> dict[str, object]:
        if not isinstance(value, dict):
            self.fail(path, f"must be a JSON object, got {show(value)}")
        known = (*required, *optional)
        prefix = f"{path}." if path else ""
        for key in value:
            if key not in known:
                close = difflib.get_close_matches(str(key), known, n=1)
                hint = f'did you mean "{close[0]}"?' if close else f"known keys: {', '.join(known)}"
                self.fail(f"{prefix}{key}", f"unknown key ({hint})")
        for key in required:
            if key not in value:
                self.fail(f"{prefix}{key}", "missing (required)")
        return {str(k): v for k, v in value.items()}

    def integer(self, value: object, path: str, low: int, high: int, why: str = "") -> int:
        if type(value) is not int or not low <= value <= high:
            note = f" ({why})" if why else ""
            self.fail(path, f"must be an integer {low}-{high}{note}, got {show(value)}")
        return value

    def text(self, value: object, path: str, max_length: int = 200) -> str:
        if not isinstance(value, str) or not value.strip() or len(value) > max_length:
            self.fail(
                path,
                f"must be a non-empty string of at most {max_length} characters, got {show(value)}",
            )
        return value

    def array(self, value: object, path: str, *, allow_empty: bool = True) -> list[object]:
        if not isinstance(value, list):
            self.fail(path, f"must be a JSON array, got {show(value)}")
        if not allow_empty and not value:
            self.fail(path, "must not be empty")
        return list(value)

    def space_set(self, value: object, path: str, spaces: int) -> frozenset[int]:
        """A list of spaces: each entry a space number or an inclusive ``[first, last]`` range."""
        found: set[int] = set()
        for index, entry in enumerate(self.array(value, path)):
            at = f"{path}[{index}]"
            if isinstance(entry, list):
                if len(entry) != 2:
                    self.fail(at, f"a range must be [first, last], got {show(entry)}")
                first = self.integer(entry[0], f"{at}[0]", 1, spaces, "a space on this track")
                last = self.integer(entry[1], f"{at}[1]", first, spaces, "first <= last")
                group = set(range(first, last + 1))
            else:
                group = {self.integer(entry, at, 1, spaces, "a space on this track")}
            twice = sorted(found & group)
            if twice:
                self.fail(at, f"space {twice[0]} is listed twice")
            found |= group
        return frozenset(found)

    # --- the document -------------------------------------------------------------------

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

        corners = self.corners(doc["corners"], spaces)
        if "press_corners" in doc:
            press = self.press_corners(doc["press_corners"], corners)
        else:
            press = default_press_corners(corners)

        flooded = self.space_set(doc.get("flooded", []), "flooded", spaces)
        tunnels = self.space_set(doc.get("tunnels", []), "tunnels", spaces)
        gravel = self.gravel(doc.get("gravel", {}), spaces)
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

    def gravel(self, value: object, spaces: int) -> frozenset[tuple[int, int]]:
        doc = self.obj(value, "gravel", (), _GRAVEL_KEYS)
        spots: set[tuple[int, int]] = set()
        for lane, key in enumerate(_GRAVEL_KEYS, start=1):
            for space in self.space_set(doc.get(key, []), f"gravel.{key}", spaces):
                spots.add((space, lane))
        return frozenset(spots)

    def corners(self, value: object, spaces: int) -> tuple[Corner, ...]:
        items = self.array(value, "corners", allow_empty=False)
        parsed: list[dict[str, object]] = []
        lines: list[int] = []
        for index, raw in enumerate(items):
            path = f"corners[{index}]"
            doc = self.obj(raw, path, _CORNER_REQUIRED, _CORNER_OPTIONAL)
            line = self.integer(
                doc["line_after"],
                f"{path}.line_after",
                1,
                spaces - 1,
                "the Corner Line lies between this space and the next",
            )
            if lines and line <= lines[-1]:
                self.fail(
                    f"{path}.line_after",
                    f"must be greater than corners[{index - 1}].line_after ({lines[-1]}): "
                    f"corners are listed in track order, got {line}",
                )
            lines.append(line)
            parsed.append(doc)

        count = len(parsed)
        by_line = {line: index for index, line in enumerate(lines)}
        partner_of: dict[int, int] = {}
        fields: list[_CornerFields] = []
        for index, doc in enumerate(parsed):
            path = f"corners[{index}]"
            line = lines[index]
            limit = self.integer(doc["limit"], f"{path}.limit", 1, MAX_LIMIT)
            legend = self.integer(doc["legend_line_after"], f"{path}.legend_line_after", 1, spaces)
            if legend == line:
                self.fail(
                    f"{path}.legend_line_after",
                    f"must differ from line_after ({line}): the Legend Line lies before the "
                    "Corner Line",
                )
            zone = (line - legend) % spaces
            aggressive = self.integer(
                doc.get("aggressive", 0),
                f"{path}.aggressive",
                0,
                zone,
                f"spaces before the Corner Line, within the {zone}-space Legend zone",
            )
            double = self.integer(
                doc.get("aggressive_double", 0),
                f"{path}.aggressive_double",
                0,
                aggressive,
                "at most the single-chevron distance",
            )
            lane: int | None = None
            if "race_line_lane" in doc:
                lane = self.integer(doc["race_line_lane"], f"{path}.race_line_lane", 1, 2)
            name = self.text(doc["name"], f"{path}.name", 80) if "name" in doc else ""
            if "chicane_with" in doc:
                partner = self.integer(
                    doc["chicane_with"],
                    f"{path}.chicane_with",
                    1,
                    spaces - 1,
                    "the line_after of the other Corner Line of the chicane",
                )
                self.chicane(index, partner, lines, by_line, partner_of, count)
            fields.append(_CornerFields(limit, legend, aggressive, double, lane, name))

        for index, other in sorted(partner_of.items()):
            if fields[index].limit != fields[other].limit:
                self.fail(
                    f"corners[{max(index, other)}].limit",
                    "both Corner Lines of a chicane share one speed limit: "
                    f"corners[{index}] has {fields[index].limit}, "
                    f"corners[{other}] has {fields[other].limit}",
                )

        corners: list[Corner] = []
        for index, values in enumerate(fields):
            partner_index = partner_of.get(index)
            corners.append(
                Corner(
                    line_after=lines[index],
                    limit=values.limit,
                    legend_line_after=values.legend,
                    aggressive=values.aggressive,
                    aggressive_double=values.double,
                    chicane_with=None if partner_index is None else lines[partner_index],
                    race_line_lane=values.lane,
                    name=values.name,
                )
            )
        return tuple(corners)

    def chicane(
        self,
        index: int,
        partner: int,
        lines: Sequence[int],
        by_line: Mapping[int, int],
        partner_of: dict[int, int],
        count: int,
    ) -> None:
        path = f"corners[{index}].chicane_with"
        if partner == lines[index]:
            self.fail(path, "a Corner Line cannot be its own chicane partner")
        if partner not in by_line:
            known = ", ".join(str(line) for line in lines)
            self.fail(path, f"no corner has line_after {partner} (corner lines: {known})")
        other = by_line[partner]
        if other not in ((index + 1) % count, (index - 1) % count):
            self.fail(
                path,
                f"the chicane partner must be the next or previous corner, got corners[{other}] "
                f"(line_after {partner})",
            )
        for me, them in ((index, other), (other, index)):
            known_partner = partner_of.get(me)
            if known_partner is not None and known_partner != them:
                self.fail(
                    path,
                    f"corners[{me}] is already in a chicane with line_after {lines[known_partner]}",
                )
        partner_of[index] = other
        partner_of[other] = index

    def press_corners(self, value: object, corners: Sequence[Corner]) -> tuple[int, ...]:
        items = self.array(value, "press_corners", allow_empty=False)
        lines = [c.line_after for c in corners]
        by_line = {c.line_after: c for c in corners}
        result: list[int] = []
        for index, entry in enumerate(items):
            path = f"press_corners[{index}]"
            if type(entry) is not int or entry not in by_line:
                known = ", ".join(str(line) for line in lines)
                self.fail(path, f"must be the line_after of a corner ({known}), got {show(entry)}")
            if result and entry <= result[-1]:
                self.fail(
                    path,
                    f"press corners go in track order: must be greater than "
                    f"{result[-1]}, got {entry}",
                )
            partner = by_line[entry].chicane_with
            if partner is not None and partner in result:
                self.fail(path, f"a chicane counts once: {partner} and {entry} are one chicane")
            result.append(entry)
        return tuple(result)


def default_press_corners(corners: Sequence[Corner]) -> tuple[int, ...]:
    """Press-corner lines A, B, C…: every corner in track order, a chicane counted once, at its
    second Corner Line (docs/rules.md §3.3; BGA ``Circuit::getPressCornersMapping`` keeps the second
    line of a chicane)."""
    count = len(corners)
    index_of = {c.line_after: i for i, c in enumerate(corners)}
    result: list[int] = []
    for index, corner in enumerate(corners):
        if corner.chicane_with is not None:
            other = index_of[corner.chicane_with]
            first_of_pair = other == index + 1 or (index == count - 1 and other == 0 and count > 2)
            if first_of_pair:
                continue
        result.append(corner.line_after)
    return tuple(result)


def press_corner_line(track: Track, letter: str | int) -> int:
    """The Corner Line (``line_after``) of press corner ``letter`` ("A", "B"… or a 0-based index).

    Letters past the track's last press corner wrap around (docs/rules.md §3.3: Italy has three
    press corners, so "E" is its second)."""
    press = track.press_corners or default_press_corners(track.corners)
    if isinstance(letter, str):
        if len(letter) != 1 or not "A" <= letter.upper() <= "Z":
            raise ValueError(f"press corner must be a letter A-Z, got {letter!r}")
        index = ord(letter.upper()) - ord("A")
    else:
        index = letter
    if index < 0:
        raise ValueError(f"press corner index must be >= 0, got {index}")
    return press[index % len(press)]


def parse_track(
    data: object,
    source: str = INLINE_SOURCE,
    *,
    strict: bool = False,
    expected_id: str | None = None,
) -> TrackInfo:
    """Validate a decoded track document and build a :class:`TrackInfo`."""
    return _Parser(source).track(data, strict=strict, expected_id=expected_id)


def known_keys() -> Mapping[str, Iterable[str]]:
    """The accepted keys, for documentation and tests."""
    return {
        "track": (*_TOP_REQUIRED, *_TOP_OPTIONAL),
        "corner": (*_CORNER_REQUIRED, *_CORNER_OPTIONAL),
        "gravel": _GRAVEL_KEYS,
    }
