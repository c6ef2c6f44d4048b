"""A seeded mutator of race files: the repository's own race files, damaged in the ways a file
on a USB stick, a hand edit or a hostile sender damages them.

Each mutant is bytes. Most start from a real race (a rule scenario, a solo race, a season race)
and change one to three things in its JSON: a value replaced by one of another type or size, a
key dropped, renamed or added, a list shortened or padded, two parts swapped, the ``modules``
object rebuilt from names that exist and names that do not. The rest damage the bytes: a flipped
byte, invalid UTF-8, a cut, thousands of brackets, a number of thousands of digits, UTF-16.

Deterministic: the same seed gives the same mutants.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from companion.engine.modules import EVENTS, Road, Weather

TESTS = Path(__file__).resolve().parents[1]


def seed_races() -> list[dict[str, Any]]:
    """Every race file in the tests: rule scenarios, solo races, the 1961 season."""
    races = []
    for path in sorted((TESTS / "engine" / "scenarios").glob("*.json")):
        races.append(json.loads(path.read_text(encoding="utf-8"))["race"])
    for folder in (TESTS / "engine" / "solo", TESTS / "championship" / "season-1961"):
        for path in sorted(folder.glob("*.json")):
            races.append(json.loads(path.read_text(encoding="utf-8")))
    return races


BIG = 10 ** 4000
"""Within Python's default 4,300-digit limit, so it parses: an absurd value the readers get."""

NASTY: tuple[Any, ...] = (
    None, True, False, 0, -1, 1, 2, 3, 4, 5, 7, 10, 11, 99, -(2 ** 63), 2 ** 63, 2 ** 64 + 1,
    BIG, -BIG, 0.5, 1.0, -0.0, 1e308, float("inf"), float("nan"),
    "", " ", "1", "²", "٣", "１", "1e3", "-1", "stress", "red", "A", "Z", "fog", "usa",
    "limit+1", "new-grandstand", "a\nb", "\u2028", "\x00", "\udcff", "é" * 3, "x" * 3000,
    [], [1], [1, 2, 3, 4], ["stress"], [None], [[]], [{}], {}, {"a": 1}, {"upgrade": "x"},
    {"upgrade": 1}, {"": ""}, [BIG], {"red": {}},
)

KEY_NAMES: tuple[str, ...] = (
    "", "²", "٣", "１", "1", "12", "-1", "a\nb", "\u2029", "turbo", "format", "cards",
    "modules", "red", "blue", "gear", "boost", "x" * 500,
)


def _nasty(rng: random.Random) -> Any:
    return copy.deepcopy(rng.choice(NASTY))


def _nested(depth: int, rng: random.Random) -> Any:
    value: Any = rng.choice((1, "x", None))
    for _ in range(depth):
        value = [value] if rng.random() < 0.5 else {"k": value}
    return value


def _modules(rng: random.Random) -> dict[str, Any]:
    """A ``modules`` object mixing names that exist with values of every type."""
    doc: dict[str, Any] = {}
    pools: dict[str, list[Any]] = {
        "event": [*EVENTS, *NASTY],
        "weather": [w.name.lower() for w in Weather] + list(NASTY),
        "road": [{}, {str(n): copy.deepcopy(rng.choice([r.value for r in Road] + list(NASTY)))
                      for n in rng.sample(range(0, 80), rng.randint(1, 4))},
                 {rng.choice(KEY_NAMES): rng.choice([r.value for r in Road])}, *NASTY],
        "press": [["A"], ["A", "B", "C"], ["a"], ["AB"], [1], ["²"], *NASTY],
        "tournament": [True, False, *NASTY],
    }
    for key, pool in pools.items():
        if rng.random() < 0.5:
            doc[key] = copy.deepcopy(rng.choice(pool))
    if rng.random() < 0.1:
        doc[rng.choice(KEY_NAMES)] = _nasty(rng)
    return doc


PLAUSIBLE: dict[str, tuple[Any, ...]] = {
    "gear": (1, 2, 3, 4, 0, 5, -1),
    "cards": ([1], [2, 3], [4, 4, 5], ["stress"], [0], [13], [-1], [1, 1, 1, 1],
              [{"upgrade": "x"}], [{"sponsor": 1}], [{"upgrade": 1}], []),
    "stress": ([1], [2, 3], [0], [10], [-3], ["stress"]),
    "unpaid": ([1], [0], [5, 5]),
    "clogged": (True, False),
    "adrenaline": (True, False),
    "cooldown": (0, 1, 2, 3, 9, -1, 10 ** 18),
    "boost": (0, 1, 2, 3, 4, 5, 6, 7, -1, 10 ** 18),
    "slipstream": (True, False),
    "slipstream_extra": (0, 1, 2, 10 ** 18),
    "accelerate": (True, False),
    "direct": ([], [{"upgrade": "x"}], [{"upgrade": "brakes"}]),
}
"""Round inputs of the right type or close to it, so that mutants reach the engine."""


def _play(doc: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Change one input of one car in one round to a plausible value."""
    rounds = doc.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        return doc
    round_doc = rng.choice(rounds)
    if not isinstance(round_doc, dict) or not round_doc:
        return doc
    inputs = round_doc[rng.choice(list(round_doc))]
    if isinstance(inputs, dict):
        key = rng.choice(list(PLAUSIBLE))
        if rng.random() < 0.15:
            inputs.pop(key, None)
        else:
            inputs[key] = copy.deepcopy(rng.choice(PLAUSIBLE[key]))
    return doc


def _setup(doc: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Change the race's set-up to a plausible but possibly impossible one."""
    key = rng.choice(("laps", "seed", "legends", "cars"))
    if key == "laps":
        doc["laps"] = rng.choice((1, 2, 3, 0, 10 ** 6, BIG))
    elif key == "seed":
        doc["seed"] = rng.choice((0, -1, 2 ** 64, BIG))
    elif key == "legends":
        doc["legends"] = {"cards": [rng.randint(0, 11) for _ in range(rng.randint(0, 5))],
                          "bonus": rng.choice((0, 1, 5, 10 ** 9))}
    elif isinstance(doc.get("cars"), list) and doc["cars"]:
        car = rng.choice(doc["cars"])
        if isinstance(car, dict):
            field = rng.choice(("handicap", "legend", "mechanics", "upgrades", "sponsor_cards",
                                "id"))
            car[field] = rng.choice({
                "handicap": (0, 1, 2, 3), "legend": (True, False), "mechanics": (-1, 0, 1),
                "upgrades": ([], ["x"], ["brakes"]), "sponsor_cards": (0, 1, 3, 10 ** 9),
                "id": ("red", "blue", "", "a\nb", "x" * 200),
            }[field])
    return doc


def _slots(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every value inside ``value`` (the root excluded)."""
    if isinstance(value, dict):
        for key, child in value.items():
            yield (*path, key)
            yield from _slots(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield (*path, index)
            yield from _slots(child, (*path, index))


def _get(doc: Any, path: Sequence[Any]) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def _replacement(old: Any, doc: Any, rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.45:
        return _nasty(rng)
    if roll < 0.7 and isinstance(old, int) and not isinstance(old, bool):
        return old + rng.choice((-10, -2, -1, 1, 2, 10, 1000))
    if roll < 0.85:  # a value from elsewhere in the same file
        slots = list(_slots(doc))
        return copy.deepcopy(_get(doc, rng.choice(slots))) if slots else None
    return _nested(rng.choice((3, 10, 31, 33, 60)), rng)


def _mutate_once(doc: Any, rng: random.Random) -> Any:
    slots = list(_slots(doc))
    roll = rng.random()
    if not isinstance(doc, dict) or not slots or roll < 0.04:
        return _nasty(rng)
    if roll < 0.12:
        doc["modules"] = _modules(rng)
        if rng.random() < 0.8:
            doc["format"] = "heat-race/2"
        return doc
    if roll < 0.16:
        doc["format"] = rng.choice(("heat-race/1", "heat-race/2", "heat-race/3", 1, None))
        return doc
    if roll < 0.2 and isinstance(doc.get("rounds"), list):  # more rounds than the race has
        doc["rounds"] = doc["rounds"] + copy.deepcopy(doc["rounds"][-3:])
        return doc
    if roll < 0.45:
        return _play(doc, rng)
    if roll < 0.5:
        return _setup(doc, rng)
    path = rng.choice(slots)
    parent = _get(doc, path[:-1])
    key = path[-1]
    if roll < 0.75:
        parent[key] = _replacement(parent[key], doc, rng)
    elif roll < 0.83:
        del parent[key]
    elif roll < 0.9 and isinstance(parent, dict):
        parent[rng.choice(KEY_NAMES)] = parent.pop(key)
    elif roll < 0.95 and isinstance(parent, list):
        parent.insert(rng.randrange(len(parent) + 1),
                      copy.deepcopy(parent[key]) if rng.random() < 0.5 else _nasty(rng))
    else:
        other = rng.choice(slots)
        other_parent = _get(doc, other[:-1])
        if other[:len(path)] != path and path[:len(other)] != other:
            parent[key], other_parent[other[-1]] = other_parent[other[-1]], parent[key]
    return doc


def mutate_doc(race: Any, rng: random.Random) -> Any:
    doc = copy.deepcopy(race)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        doc = _mutate_once(doc, rng)
    return doc


def dump(doc: Any, rng: random.Random) -> bytes:
    text = json.dumps(doc, ensure_ascii=rng.random() < 0.5, allow_nan=True,
                      indent=rng.choice((None, 1)))
    return text.encode("utf-8", "surrogatepass")


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    roll = rng.random()
    at = rng.randrange(len(data) + 1)
    if roll < 0.15 and data:
        i = rng.randrange(len(data))
        return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1:]
    if roll < 0.3:
        return data[:at] + rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\xe2\x80"))\
            + data[at:]
    if roll < 0.4:
        return data[:at]
    if roll < 0.55:
        n = rng.choice((40, 1000, 100_000))
        return data[:at] + b"[" * n + data[at:]
    if roll < 0.7:
        digits = b"7" * rng.choice((4000, 4301, 5000, 20_000))
        i = data.find(b": ", at)
        i = at if i < 0 else i + 2
        return data[:i] + rng.choice((b"", b"-")) + digits + b", " + data[i:]
    if roll < 0.8:
        return data.decode("utf-8", "surrogatepass").encode(
            rng.choice(("utf-16", "utf-16-be", "utf-32")), "surrogatepass")
    if roll < 0.9:
        return b"\xef\xbb\xbf" + data
    return bytes(rng.randrange(256) for _ in range(rng.randrange(64)))


def mutants(count: int, seed: int, races: Sequence[Any] | None = None) -> Iterator[bytes]:
    """``count`` mutants, the same for the same ``seed``: three in four change the JSON, one in
    four the bytes."""
    rng = random.Random(seed)
    pool = list(races) if races is not None else seed_races()
    for _ in range(count):
        race = rng.choice(pool)
        if rng.random() < 0.75:
            yield dump(mutate_doc(race, rng), rng)
        else:
            yield mutate_bytes(dump(race, rng), rng)
