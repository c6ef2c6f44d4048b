"""Reading race files: the shape of ``heat-race/1`` and ``/2`` documents, checked, into a
:class:`RaceFile` (docs/race-file.md, docs/race-file-v2.md)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import tracks

from ..engine import (
    CarEntry,
    RaceSetup,
)
from ..engine.modules import NO_MODULES
from ..modules_doc import ModulesError, parse_modules

FORMAT = "heat-race/1"
FORMAT_2 = "heat-race/2"
"""``heat-race/1`` plus what it cannot say (docs/race-file-v2.md): ``legends.aggressive``."""
FORMATS = (FORMAT, FORMAT_2)
STATE_FORMAT = "heat-race-state/1"
STATE_FORMAT_2 = "heat-race-state/2"
"""``heat-race-state/1`` plus each car's ``sponsors`` and ``eliminated``; written for races that
use modules (docs/race-file-v2.md)."""

_TOP_KEYS = {"format", "track", "laps", "seed", "cars", "legends", "rounds"}
_TOP_KEYS_2 = _TOP_KEYS | {"modules"}
_CAR_KEYS = {"id", "name", "legend", "handicap"}
_CAR_KEYS_2 = _CAR_KEYS | {"mechanics", "upgrades", "sponsor_cards"}
_LEGEND_KEYS = {"cards", "bonus"}
_LEGEND_KEYS_2 = _LEGEND_KEYS | {"aggressive", "deck"}
_INPUT_KEYS = {"gear", "cards", "stress", "clogged", "adrenaline", "cooldown", "boost",
               "slipstream"}
_INPUT_KEYS_2 = _INPUT_KEYS | {"unpaid", "direct", "accelerate", "slipstream_extra",
                               "super_cool", "unpaid_after_cooldown", "draft",
                               "slipstream_sector"}


MAX_MESSAGE = 1000
"""The longest message kept: a value quoted from a hostile file is cut short."""


_LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
"""Every character at which ``str.splitlines`` starts a new line."""


def one_line(text: str) -> str:
    """``text`` with every character that would start a new line escaped (``\\n``, ``\\r``,
    ``\\u2028``…), so a message quoting a car id or a key from a file stays one line."""
    if _LINE_BREAKS.isdisjoint(text):
        return text
    return "".join(ch.encode("unicode_escape").decode("ascii") if ch in _LINE_BREAKS else ch
                   for ch in text)


class RaceFileError(ValueError):
    """A file that is not a valid race, or an input the rules do not allow.

    The message is the one line the ``replay`` command prints, naming the round and the car
    where there is one (``round 3, car red: cannot boost: the engine is empty``). Whatever the
    file holds, the message is one line (newlines in quoted ids are escaped) of at most
    :data:`MAX_MESSAGE` characters.
    """

    def __init__(self, message: str) -> None:
        text = one_line(message[:2 * MAX_MESSAGE])
        if len(text) > MAX_MESSAGE:
            text = text[:MAX_MESSAGE - 1] + "…"
        super().__init__(text)


@dataclass(frozen=True)
class RaceFile:
    setup: RaceSetup
    rounds: tuple[object, ...]
    """The rounds as the file has them: each is checked (:func:`check_round`) when replayed."""
    legend_draws: tuple[int, ...] = ()
    """With ``legends.deck: "physical"`` (heat-race/2): the cards the table drew from its own
    Legends deck, entered one by one whenever the engine waits for one (the setup's own list
    is then empty: nothing is drawn by the seed)."""
    version: str = FORMAT
    """The file's ``format``: which input keys its rounds may use."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _unknown(where: str, data: Mapping[str, Any], allowed: set[str]) -> None:
    extra = sorted(set(data) - allowed)
    if extra:
        raise RaceFileError(f"{where}: unknown key {extra[0]!r}")


def _obj(where: str, value: object) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise RaceFileError(f"{where}: must be an object")
    return value


def parse(data: object, *, load_track: Callable[[str], Any] | None = None) -> RaceFile:
    """Check the shape of a ``heat-race/1`` document and build its setup."""
    doc = _obj("race file", data)
    version = doc.get("format")
    if version not in FORMATS:
        raise RaceFileError(
            f"format: expected {FORMAT!r} or {FORMAT_2!r}, got {version!r} "
            "(unknown race-file format)"
        )
    v2 = version == FORMAT_2
    _unknown("race file", doc, _TOP_KEYS_2 if v2 else _TOP_KEYS)
    for key in ("track", "cars", "rounds"):
        if key not in doc:
            raise RaceFileError(f"{key}: required")
    raw_track = doc["track"]
    try:
        if isinstance(raw_track, str):
            track = (load_track or tracks.load_track)(raw_track)
        elif isinstance(raw_track, dict):
            track = tracks.track_from_dict(raw_track, source="inline track")
        else:
            raise RaceFileError("track: must be a track id or an inline track object")
    except tracks.TrackError as error:
        raise RaceFileError(f"track: {error}") from error
    laps = doc.get("laps")
    if laps is not None and (not _is_int(laps) or laps < 1):
        raise RaceFileError("laps: must be a whole number of at least 1")
    seed = doc.get("seed", 0)
    if not _is_int(seed):
        raise RaceFileError("seed: must be an integer")
    cars_raw = doc["cars"]
    if not isinstance(cars_raw, list):
        raise RaceFileError("cars: must be a list")
    cars = []
    for i, raw in enumerate(cars_raw):
        entry = _obj(f"cars[{i}]", raw)
        _unknown(f"cars[{i}]", entry, _CAR_KEYS_2 if v2 else _CAR_KEYS)
        car_id, name = entry.get("id"), entry.get("name", "")
        legend, handicap = entry.get("legend", False), entry.get("handicap", 0)
        if not isinstance(car_id, str) or not car_id:
            raise RaceFileError(f"cars[{i}].id: must be a non-empty string")
        if not isinstance(name, str):
            raise RaceFileError(f"cars[{i}].name: must be a string")
        if not isinstance(legend, bool):
            raise RaceFileError(f"cars[{i}].legend: must be true or false")
        # 0 is read as no handicap (docs/rules-decisions.md #24).
        if not _is_int(handicap) or handicap not in (0, 1, 2):
            raise RaceFileError(f"cars[{i}].handicap: must be 1 or 2")
        mechanics = entry.get("mechanics", 0)
        if not _is_int(mechanics) or mechanics not in (-1, 0, 1):
            raise RaceFileError(f"cars[{i}].mechanics: must be 1 or -1")
        upgrades = entry.get("upgrades", [])
        if not isinstance(upgrades, list) or not all(isinstance(u, str) for u in upgrades):
            raise RaceFileError(f"cars[{i}].upgrades: must be a list of upgrade card ids")
        sponsor_cards = entry.get("sponsor_cards", 0)
        if not _is_int(sponsor_cards) or sponsor_cards < 0:
            raise RaceFileError(f"cars[{i}].sponsor_cards: must be a whole number")
        cars.append(CarEntry(id=car_id, name=name, legend=legend, handicap=handicap,
                             mechanics=mechanics, upgrades=tuple(upgrades),
                             sponsor_cards=sponsor_cards))
    legend_doc = _obj("legends", doc.get("legends", {}))
    _unknown("legends", legend_doc, _LEGEND_KEYS if version == FORMAT else _LEGEND_KEYS_2)
    cards = legend_doc.get("cards", [])
    bonus = legend_doc.get("bonus", 0)
    aggressive = legend_doc.get("aggressive", True)
    if not isinstance(aggressive, bool):
        raise RaceFileError("legends.aggressive: must be true or false")
    if not isinstance(cards, list) or not all(_is_int(c) and 1 <= c <= 10 for c in cards):
        raise RaceFileError("legends.cards: must be a list of Legends cards 1-10")
    if not _is_int(bonus) or bonus < 0:
        raise RaceFileError("legends.bonus: must be a whole number of at least 0")
    deck = legend_doc.get("deck", "virtual")
    if deck not in ("virtual", "physical"):
        raise RaceFileError('legends.deck: must be "virtual" or "physical"')
    rounds_raw = doc["rounds"]
    if not isinstance(rounds_raw, list):
        raise RaceFileError("rounds: must be a list")
    # A round's own shape is checked when it is replayed (check_round), so that a bad round
    # stops the replay where it stands: with --each-round, the rounds before it are printed,
    # as for an input the rules refuse (docs/race-file.md: "the rounds completed before the
    # bad one").
    try:
        modules = parse_modules(doc["modules"], track) if "modules" in doc else NO_MODULES
    except ModulesError as error:
        raise RaceFileError(str(error)) from error
    setup = RaceSetup(
        modules=modules,
        track=track, cars=tuple(cars), laps=laps, seed=seed,
        legend_cards=() if deck == "physical" else tuple(cards),
        legend_bonus=bonus, aggressive_legends=aggressive,
        physical_legends_deck=deck == "physical",
    )
    draws = tuple(cards) if deck == "physical" else ()
    return RaceFile(setup=setup, rounds=tuple(rounds_raw), legend_draws=draws, version=version)


def check_round(raw_round: object, r: int, version: str) -> Mapping[str, Mapping[str, Any]]:
    """Round ``r`` of a race file in ``version``, its shape checked: an object of cars, each an
    object of known input keys; upgrade and Sponsorship cards only in ``heat-race/2``."""
    v2 = version == FORMAT_2
    round_doc = _obj(f"round {r}", raw_round)
    for car_id, inputs in round_doc.items():
        _unknown(f"round {r}, car {car_id}", _obj(f"round {r}, car {car_id}", inputs),
                 _INPUT_KEYS_2 if v2 else _INPUT_KEYS)
        played = inputs.get("cards")
        if not v2 and isinstance(played, list) and any(isinstance(c, dict) for c in played):
            raise RaceFileError(f"round {r}, car {car_id}: cards: upgrade and Sponsorship "
                                "cards need heat-race/2")
    return round_doc


