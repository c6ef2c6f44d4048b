"""Fuzzing the race-file readers (issue 13, "The readers"): whatever a file holds, ``replay`` and
``championship --files`` either succeed or reject it with one line (exit 2); never a traceback.

Deterministic: a seeded mutator (:mod:`racefile_mutator`) and derandomized hypothesis. Each
test counts what it tried and fails on the first input (of all of them) that escapes as any
exception other than :class:`RaceFileError`, naming its index and its first bytes.

    .venv/bin/python -m pytest tests/readers/test_fuzz_readers.py -s   # prints the counts
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from racefile_mutator import NASTY, PLAUSIBLE, dump, mutants, mutate_doc, seed_races

from companion import championship_cli, cli, racefile
from companion.championship import SEASONS, official_season, season_doc
from companion.engine.modules import EVENTS, Road, Weather

SEASON_1961 = Path(__file__).resolve().parents[1] / "championship" / "season-1961"
FUZZ = settings(max_examples=900, derandomize=True, database=None, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def one_line(message: str) -> None:
    assert message, "an empty message"
    assert len(message.splitlines()) == 1 and not message.endswith(("\n", "\r")), message


def one_printed_line(err: str) -> None:
    assert err.endswith("\n"), err
    one_line(err[:-1])


def replay_bytes(data: bytes) -> str:
    """What ``replay`` does with a file's bytes, in-process: ``replayed`` or ``rejected``."""
    try:
        race = racefile.parse(racefile.loads(data, "fuzz.json"))
        states = [racefile.state_document(state) for state in racefile.replay(race)]
        json.dumps(states)
    except racefile.RaceFileError as error:
        one_line(str(error))
        return "rejected"
    return "replayed"


def tally(inputs: Iterable[bytes], check: Callable[[bytes], str]) -> Counter[str]:
    """Run ``check`` on every input; fail on the first exception that is not a rejection."""
    outcomes: Counter[str] = Counter()
    for index, data in enumerate(inputs):
        try:
            outcomes[check(data)] += 1
        except Exception as error:
            raise AssertionError(f"input {index} ({data[:160]!r}…) escaped as "
                                 f"{type(error).__name__}: {error}") from error
    print(f"\n{sum(outcomes.values())} inputs: {dict(outcomes)}; tracebacks: 0")
    return outcomes


def test_mutated_race_files_replay_or_are_rejected_in_one_line() -> None:
    outcomes = tally(mutants(4000, seed=13), replay_bytes)
    assert sum(outcomes.values()) == 4000
    # The mutants reach the engine: some still replay, most are refused somewhere.
    assert outcomes["replayed"] >= 200 and outcomes["rejected"] >= 2000, outcomes


def _run_cli(main: Callable[[], int]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main()
    return code, out.getvalue(), err.getvalue()


def test_mutated_files_through_the_replay_command(tmp_path: Path) -> None:
    """The real command in-process (``companion.cli.main``): exit 0 with the states on
    standard output, or exit 2 with one line on stderr and nothing else."""
    path = tmp_path / "race.json"
    each = iter([False, True] * 250)

    def check(data: bytes) -> str:
        path.write_bytes(data)
        each_round = next(each)
        argv = ["replay", str(path), *(["--each-round"] if each_round else [])]
        code, out, err = _run_cli(lambda: cli.main(argv))
        if code == 0:
            assert err == ""
            if out:  # nothing at all for --each-round of a file with no rounds
                [json.loads(line) for line in out.splitlines()] if each_round else json.loads(
                    out)
            return "exit 0"
        assert code == 2, (code, err)
        one_printed_line(err)
        if not each_round:
            assert out == ""
        return "exit 2"

    outcomes = tally(mutants(500, seed=14), check)
    assert outcomes["exit 0"] >= 25 and outcomes["exit 2"] >= 250, outcomes


def test_mutated_season_files_through_championship_files(tmp_path: Path) -> None:
    """``championship --files`` with one of the three 1961 race files damaged, and with a
    damaged custom season file."""
    races = [json.loads(p.read_text(encoding="utf-8"))
             for p in sorted(SEASON_1961.glob("race-*.json"))]
    paths = [tmp_path / f"race-{n}.json" for n in (1, 2, 3)]
    for path, race in zip(paths, races, strict=True):
        path.write_text(json.dumps(race), encoding="utf-8")
    custom = tmp_path / "season.json"
    rng = random.Random(15)
    seasons = [season_doc(official_season(season)) for season in SEASONS]

    def inputs() -> Iterable[bytes]:
        for _ in range(100):
            yield dump(mutate_doc(rng.choice(races), rng), rng)
        for _ in range(100):
            yield dump(mutate_doc(rng.choice(seasons), rng), rng)

    def check(data: bytes) -> str:
        if data.startswith((b'{"format": "heat-season', b'{\n "format": "heat-season')):
            custom.write_bytes(data)
            argv = ["--files", str(paths[0]), "--custom", str(custom)]
        else:
            target = paths[rng.randrange(3)]
            target.write_bytes(data)
            argv = ["--files", *map(str, paths), "--season", "1961"]
        code, out, err = _run_cli(lambda: championship_cli.main(argv))
        for path, race in zip(paths, races, strict=True):  # put the good files back
            path.write_text(json.dumps(race), encoding="utf-8")
        if code == 0:
            assert err == "" and json.loads(out)["format"]
            return "exit 0"
        assert (code, out) == (2, ""), (code, err)
        one_printed_line(err)
        return "exit 2"

    outcomes = tally(inputs(), check)
    assert outcomes["exit 0"] >= 5 and outcomes["exit 2"] >= 100, outcomes


# --- hypothesis: documents built from scratch, and raw bytes ----------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                  max_size=4),
    max_leaves=10,
)
"""Any JSON value."""
DAMAGE = st.sampled_from(NASTY) | JSON | st.sampled_from(["red", "blue", "", "²", "a\nb"])
INLINE_TRACK = {"id": "test-30", "spaces": 30, "laps": 1, "heat": 6, "stress": 3,
                "corners": [{"line_after": 10, "limit": 4, "legend_line_after": 6},
                            {"line_after": 20, "limit": 3, "legend_line_after": 16}]}
MODULES = st.fixed_dictionaries({}, optional={
    "event": st.sampled_from(sorted(EVENTS)),
    "weather": st.sampled_from([w.name.lower() for w in Weather]),
    "road": st.dictionaries(st.sampled_from(["10", "20", "12", "²", "٣", "010", "+10"]),
                            st.sampled_from([r.value for r in Road]), max_size=2),
    "press": st.lists(st.sampled_from(["A", "B", "a", "AB", ""]), max_size=2),
    "tournament": st.booleans(),
})


@st.composite
def turn_inputs(draw: st.DrawFn) -> dict[str, Any]:
    """One car's inputs for a round: a gear and as many cards, and perhaps more."""
    gear = draw(st.integers(1, 4))
    doc: dict[str, Any] = {"gear": gear, "cards": draw(st.lists(
        st.sampled_from([1, 2, 3, 4, 5, 0, "stress"]), min_size=gear, max_size=gear))}
    if "stress" in doc["cards"]:
        doc["stress"] = [draw(st.integers(1, 4))] * doc["cards"].count("stress")
    for key in draw(st.lists(st.sampled_from(sorted(PLAUSIBLE)), max_size=2)):
        doc[key] = draw(st.sampled_from(PLAUSIBLE[key]))
    return doc


def _slots(value: Any) -> list[tuple[Any, Any]]:
    """(container, key) of every value inside ``value``."""
    found: list[tuple[Any, Any]] = []
    stack = [value]
    while stack:
        item = stack.pop()
        keys = list(item) if isinstance(item, dict) else range(len(item)) if isinstance(
            item, list) else []
        for key in keys:
            found.append((item, key))
            stack.append(item[key])
    return found


@st.composite
def race_documents(draw: st.DrawFn) -> Any:
    """A race built from scratch: cars, a track, rounds for the human cars; then up to two
    values anywhere in it replaced by nasty ones."""
    if draw(st.integers(0, 19)) == 0:
        return draw(JSON)
    ids = draw(st.lists(st.sampled_from(["red", "blue", "green", "yellow", "black", "grey"]),
                        min_size=1, max_size=4, unique=True))
    cars = [{"id": car, "legend": True} if draw(st.booleans()) else {"id": car}
            for car in ids]
    humans = [car["id"] for car in cars if not car.get("legend")]
    v2 = draw(st.booleans())
    doc: dict[str, Any] = {
        "format": racefile.FORMAT_2 if v2 else racefile.FORMAT,
        "track": draw(st.sampled_from(["usa", "italy", "france", INLINE_TRACK])),
        "laps": draw(st.integers(1, 2)), "seed": draw(st.integers(0, 2 ** 32)), "cars": cars,
        "rounds": draw(st.lists(st.fixed_dictionaries({car: turn_inputs() for car in humans}),
                                max_size=4)),
    }
    if len(humans) < len(cars):
        doc["legends"] = {"cards": draw(st.lists(st.integers(1, 10), max_size=6))}
    if v2 and draw(st.booleans()):
        doc["modules"] = draw(MODULES)
    for where, junk in draw(st.lists(st.tuples(st.integers(0, 10 ** 6), DAMAGE), max_size=2)):
        slots = _slots(doc)
        container, key = slots[where % len(slots)]
        container[key] = copy.deepcopy(junk)  # NASTY's values are shared: never change them
    return doc


def test_generated_race_documents() -> None:
    seen: Counter[str] = Counter()

    @FUZZ
    @given(doc=race_documents())
    def replay_one(doc: Any) -> None:
        seen[replay_bytes(json.dumps(doc).encode("utf-8", "surrogatepass"))] += 1

    replay_one()
    print(f"\nhypothesis, race documents: {sum(seen.values())} inputs: {dict(seen)}; "
          "tracebacks: 0")
    assert sum(seen.values()) >= 850 and seen["replayed"] >= 50, seen


def test_any_bytes() -> None:
    seen: Counter[str] = Counter()

    @settings(FUZZ, max_examples=600)
    @given(data=st.binary(max_size=200) | st.text(max_size=100).map(
        lambda t: t.encode("utf-8", "surrogatepass")))
    def read_one(data: bytes) -> None:
        seen[replay_bytes(data)] += 1

    read_one()
    print(f"\nhypothesis, bytes: {sum(seen.values())} inputs: {dict(seen)}; tracebacks: 0")
    assert sum(seen.values()) >= 550, seen


def test_seed_races_replay() -> None:
    """The mutator's starting points are good races (so a rejection comes from a mutation)."""
    races = seed_races()
    assert len(races) >= 90
    assert Counter(replay_bytes(json.dumps(race).encode()) for race in races)["replayed"] >= 60
