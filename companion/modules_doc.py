"""The ``modules`` object of a ``heat-race/2`` file (docs/race-file-v2.md) and back.

```json
"modules": {"event": "new-grandstand", "weather": "fog", "road": {"12": "limit+1"},
            "press": ["A"], "tournament": false}
```
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from types import MappingProxyType
from typing import Any

from .engine.modules import EVENTS, RaceModules, Road, Weather
from .engine.track import Track

KEYS = {"event", "weather", "road", "press", "tournament"}
WEATHER_NAMES = {w.name.lower(): w for w in Weather}
ROAD_NAMES = {r.value: r for r in Road}


class ModulesError(ValueError):
    """A ``modules`` object that is not valid; the message names the field."""


def press_line(track: Track, letter: str) -> int:
    """Press-corner letter A, B, C… to the corner's ``line_after``; letters wrap modulo the
    track's press corners (docs/rules.md §3.3)."""
    if not track.press_corners:
        raise ModulesError(f"modules.press: track {track.id} has no press corners")
    if len(letter) != 1 or not "A" <= letter <= "Z":
        raise ModulesError(f"modules.press: {letter!r} is not a letter A-Z")
    return track.press_corners[(ord(letter) - ord("A")) % len(track.press_corners)]


def _name(where: str, value: object, names: Iterable[str]) -> str | None:
    """``value`` if it is one of ``names`` (None if absent); else :class:`ModulesError`."""
    known = list(names)
    if value is None:
        return None
    if not isinstance(value, str) or value not in known:
        raise ModulesError(f"{where}: one of {', '.join(known)}, got {_quote(value)}")
    return value


def _quote(value: object) -> str:
    """A value from the file for a message (a string as Python quotes it, anything else as its
    JSON text), cut short."""
    try:
        text = repr(value) if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    except (ValueError, RecursionError):  # pragma: no cover - parsed JSON always dumps
        text = "?"
    return text if len(text) <= 40 else text[:39] + "…"


def parse_modules(doc: object, track: Track) -> RaceModules:
    """The race's modules from a ``modules`` object; :class:`ModulesError` naming the field if
    anything in it is not valid (any JSON value may come in)."""
    if not isinstance(doc, dict):
        raise ModulesError("modules: must be an object")
    extra = sorted(set(doc) - KEYS)
    if extra:
        raise ModulesError(f"modules: unknown key {extra[0]!r}")
    event = doc.get("event")
    if event is not None and (not isinstance(event, str) or event not in EVENTS):
        raise ModulesError(f"modules.event: unknown event {_quote(event)}")
    weather_name = _name("modules.weather", doc.get("weather"), WEATHER_NAMES)
    weather = None if weather_name is None else WEATHER_NAMES[weather_name]
    road_doc = doc.get("road", {})
    if not isinstance(road_doc, dict):
        raise ModulesError("modules.road: must map corner line_after to a token")
    lines = {str(c.line_after): c for c in track.corners}
    road: dict[int, Road] = {}
    for key, value in road_doc.items():
        corner = lines.get(key)  # "12" only: not "012", "²", "١٢" or "+12"
        if corner is None:
            raise ModulesError(f"modules.road.{key}: not a corner of {track.id}")
        token = _name(f"modules.road.{key}", value, ROAD_NAMES)
        if token is None:
            raise ModulesError(f"modules.road.{key}: one of {', '.join(ROAD_NAMES)}, got null")
        if corner.chicane_with is not None and corner.chicane_with < corner.line_after:
            raise ModulesError(f"modules.road.{key}: a chicane's token goes on its first line "
                               f"({corner.chicane_with})")
        road[corner.line_after] = ROAD_NAMES[token]
    press_doc = doc.get("press", [])
    if not isinstance(press_doc, list) or not all(isinstance(x, str) for x in press_doc):
        raise ModulesError("modules.press: must be a list of letters")
    press = tuple(press_line(track, letter) for letter in press_doc)
    tournament = doc.get("tournament", False)
    if not isinstance(tournament, bool):
        raise ModulesError("modules.tournament: must be true or false")
    return RaceModules(event=event, weather=weather, road=MappingProxyType(road),
                       press_corners=press, tournament=tournament)


def modules_doc(modules: RaceModules, track: Track) -> dict[str, Any]:
    """The ``modules`` object for a race file (only what is set)."""
    doc: dict[str, Any] = {}
    if modules.event is not None:
        doc["event"] = modules.event
    if modules.weather is not None:
        doc["weather"] = modules.weather.name.lower()
    if modules.road:
        doc["road"] = {str(line): token.value for line, token in sorted(modules.road.items())}
    if modules.press_corners:
        doc["press"] = [_letter(track, line) for line in modules.press_corners]
    if modules.tournament:
        doc["tournament"] = True
    return doc


def _letter(track: Track, line: int) -> str:
    return chr(ord("A") + track.press_corners.index(line))


def uses_modules(modules: RaceModules) -> bool:
    return bool(modules.event or modules.weather is not None or modules.road
                or modules.press_corners or modules.tournament)
