"""JSON for what the log stores: the race setup, its track, and each event's payload.

The track is stored as a bundled track id (``"usa"``, loaded with :func:`tracks.load_track`) or as
an inline track object (rebuilt with :func:`tracks.track_from_dict`); the document is kept as
given, so an export reproduces it. Decoding is strict: an unknown key or a wrong type is an
error, never silently ignored.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

import tracks
from companion.engine import (
    Action,
    ActionFormatError,
    CarEntry,
    RaceSetup,
    Track,
    action_from_dict,
    action_to_dict,
)
from companion.engine.modules import NO_MODULES
from companion.modules_doc import ModulesError, modules_doc, parse_modules, uses_modules

from .fold import Event, EventKind

TrackDoc = str | dict[str, Any]
"""A bundled track id, or an inline track object (docs/race-file.md, "Inline track")."""

_SETUP_KEYS = {
    "laps", "seed", "cars", "legend_cards", "legend_bonus", "physical_legends_deck",
    "aggressive_legends",
}
_SETUP_OPTIONAL = {"modules"}
_CAR_KEYS = {"id", "name", "legend", "handicap"}
_CAR_OPTIONAL = {"mechanics", "upgrades", "sponsor_cards"}


class CodecError(ValueError):
    """A stored document that does not decode; the message says which field."""


def dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


# --- tracks -------------------------------------------------------------------------------------


def track_to_doc(track: Track) -> dict[str, Any]:
    """An inline track document for ``track`` (every field the engine uses)."""
    corners = []
    for corner in track.corners:
        doc: dict[str, Any] = {
            "line_after": corner.line_after, "limit": corner.limit,
            "legend_line_after": corner.legend_line_after,
        }
        if corner.aggressive:
            doc["aggressive"] = corner.aggressive
        if corner.aggressive_double:
            doc["aggressive_double"] = corner.aggressive_double
        if corner.chicane_with is not None:
            doc["chicane_with"] = corner.chicane_with
        if corner.race_line_lane is not None:
            doc["race_line_lane"] = corner.race_line_lane
        if corner.name:
            doc["name"] = corner.name
        corners.append(doc)
    out: dict[str, Any] = {
        "id": track.id, "spaces": track.spaces, "laps": track.laps, "heat": track.heat,
        "stress": track.stress, "corners": corners, "grid_size": track.grid_size,
    }
    if track.name and track.name != track.id:
        out["name"] = track.name
    if track.flooded:
        out["flooded"] = sorted(track.flooded)
    if track.tunnels:
        out["tunnels"] = sorted(track.tunnels)
    if track.press_corners:
        out["press_corners"] = list(track.press_corners)
    if track.unverified:
        out["unverified"] = list(track.unverified)
    return out


def load_track_doc(doc: object) -> Track:
    """The track of a stored document; raises :class:`CodecError`."""
    try:
        if isinstance(doc, str):
            return tracks.load_track(doc)
        if isinstance(doc, dict):
            return tracks.track_from_dict(doc)
    except tracks.TrackError as error:
        raise CodecError(f"track: {error}") from error
    raise CodecError("track: must be a bundled track id or an inline track object")


def resolve_track_doc(track: Track, given: TrackDoc | None) -> TrackDoc:
    """The document to store for ``track``: ``given`` if it rebuilds exactly this track, else the
    bundled id if the track is the bundled one, else an inline document built from the track.

    :raises CodecError: ``given`` does not describe ``track``.
    """
    if given is not None:
        if isinstance(given, dict):
            given = json.loads(dumps(given))  # a private, JSON-clean copy
        if load_track_doc(given) != track:
            raise CodecError(f"track: the document given does not describe track {track.id!r}")
        return given
    try:
        if tracks.load_track(track.id) == track:
            return track.id
    except tracks.TrackError:
        pass
    doc = track_to_doc(track)
    if load_track_doc(doc) != track:  # pragma: no cover - a field the schema cannot express
        raise CodecError(f"track: {track.id!r} cannot be stored; pass its document as track_doc")
    return doc


# --- the setup ----------------------------------------------------------------------------------


def _car_doc(car: CarEntry) -> dict[str, Any]:
    doc: dict[str, Any] = {"id": car.id, "name": car.name, "legend": car.legend,
                           "handicap": car.handicap}
    if car.mechanics:
        doc["mechanics"] = car.mechanics
    if car.upgrades:
        doc["upgrades"] = list(car.upgrades)
    if car.sponsor_cards:
        doc["sponsor_cards"] = car.sponsor_cards
    return doc


def setup_to_doc(setup: RaceSetup) -> dict[str, Any]:
    """Everything of a :class:`RaceSetup` but the track. The modules (events, weather, road
    conditions, press corners, tournament mode) and the cars' Garage and Championship extras are
    written only when used, so logs written before them still read the same."""
    doc: dict[str, Any] = {
        "laps": setup.laps,
        "seed": setup.seed,
        "cars": [_car_doc(c) for c in setup.cars],
        "legend_cards": list(setup.legend_cards),
        "legend_bonus": setup.legend_bonus,
        "physical_legends_deck": setup.physical_legends_deck,
        "aggressive_legends": setup.aggressive_legends,
    }
    if uses_modules(setup.modules):
        doc["modules"] = modules_doc(setup.modules, setup.track)
    return doc


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _keys(
    where: str, doc: object, keys: set[str], optional: frozenset[str] | set[str] = frozenset()
) -> Mapping[str, Any]:
    if not isinstance(doc, dict):
        raise CodecError(f"{where}: must be an object")
    if not keys <= set(doc) <= keys | optional:
        extra, missing = sorted(set(doc) - keys - optional), sorted(keys - set(doc))
        raise CodecError(f"{where}: unknown key {extra[0]!r}" if extra
                         else f"{where}: missing key {missing[0]!r}")
    return doc


def _typed(where: str, value: Any, kind: type) -> Any:
    ok = _is_int(value) if kind is int else isinstance(value, kind)
    if not ok:
        raise CodecError(f"{where}: must be {kind.__name__}, got {value!r}")
    return value


def _cars(cars_raw: object) -> tuple[CarEntry, ...]:
    cars = []
    for i, raw in enumerate(_typed("setup.cars", cars_raw, list)):
        c = _keys(f"setup.cars[{i}]", raw, _CAR_KEYS, _CAR_OPTIONAL)
        upgrades = _typed(f"setup.cars[{i}].upgrades", c.get("upgrades", []), list)
        cars.append(CarEntry(
            id=_typed(f"setup.cars[{i}].id", c["id"], str),
            name=_typed(f"setup.cars[{i}].name", c["name"], str),
            legend=_typed(f"setup.cars[{i}].legend", c["legend"], bool),
            handicap=_typed(f"setup.cars[{i}].handicap", c["handicap"], int),
            mechanics=_typed(f"setup.cars[{i}].mechanics", c.get("mechanics", 0), int),
            upgrades=tuple(_typed(f"setup.cars[{i}].upgrades[]", u, str) for u in upgrades),
            sponsor_cards=_typed(f"setup.cars[{i}].sponsor_cards", c.get("sponsor_cards", 0),
                                 int),
        ))
    return tuple(cars)


def setup_cars(doc: object) -> tuple[CarEntry, ...]:
    """Just the cars of a stored setup (for listings); raises :class:`CodecError`."""
    return _cars(_keys("setup", doc, _SETUP_KEYS, _SETUP_OPTIONAL)["cars"])


def setup_from_doc(doc: object, track: Track) -> RaceSetup:
    """Inverse of :func:`setup_to_doc`; raises :class:`CodecError`."""
    d = _keys("setup", doc, _SETUP_KEYS, _SETUP_OPTIONAL)
    cars = _cars(d["cars"])
    try:
        modules = parse_modules(d["modules"], track) if "modules" in d else NO_MODULES
    except ModulesError as error:
        raise CodecError(f"setup.{error}") from error
    laps = d["laps"]
    if laps is not None:
        _typed("setup.laps", laps, int)
    cards = _typed("setup.legend_cards", d["legend_cards"], list)
    return RaceSetup(
        track=track,
        cars=cars,
        laps=laps,
        seed=_typed("setup.seed", d["seed"], int),
        legend_cards=tuple(_typed("setup.legend_cards[]", v, int) for v in cards),
        legend_bonus=_typed("setup.legend_bonus", d["legend_bonus"], int),
        physical_legends_deck=_typed("setup.physical_legends_deck",
                                     d["physical_legends_deck"], bool),
        aggressive_legends=_typed("setup.aggressive_legends", d["aggressive_legends"], bool),
        modules=modules,
    )


# --- events -------------------------------------------------------------------------------------


def event_payload(event: Event) -> str:
    """The JSON payload column of an event: the action of an input, ``{}`` for undo/redo."""
    if event.action is None:
        return "{}"
    return dumps(action_to_dict(event.action))


def decode_event(kind: object, payload: object) -> Event:
    """An event from its ``kind`` and ``payload`` columns; raises :class:`CodecError`."""
    try:
        event_kind = EventKind(kind)
    except ValueError:
        raise CodecError(f"unknown event kind {kind!r}") from None
    if not isinstance(payload, str):
        raise CodecError(f"payload must be JSON text, got {type(payload).__name__}")
    if event_kind is not EventKind.INPUT:
        if _json(payload) != {}:
            raise CodecError(f"{event_kind.value} event: payload must be {{}}, got {payload!r}")
        return Event(event_kind)
    return Event(event_kind, _action(payload))


def _json(payload: str) -> Any:
    try:
        return json.loads(payload)
    except json.JSONDecodeError as error:
        raise CodecError(f"payload is not JSON ({error.msg}): {payload[:80]!r}") from None


@functools.lru_cache(maxsize=4096)
def _action(payload: str) -> Action:
    """The action of an input payload. Cached: a race repeats the same few inputs (end of turn,
    gear choices) and actions are frozen values, so sharing them is safe."""
    data = _json(payload)
    if not isinstance(data, dict):
        raise CodecError(f"input payload must be an object, got {payload[:80]!r}")
    try:
        return action_from_dict(data)
    except (ActionFormatError, TypeError) as error:
        raise CodecError(f"input payload {payload[:80]!r}: {error}") from None
