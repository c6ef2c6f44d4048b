"""Cars eliminated by *Title sponsor withdraws* have no place (docs/rules.md §3.3): Results, the
lap chart and the race order list them after every car with one, the later-eliminated first
(docs/rules-decisions.md #27). A table test saw six eliminated cars in grid order, the first out
(round 3) listed first and drawn in position 1 at the last round, and eliminated cars still
drawn in positions 1-6 in the rounds after they left."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

import tracks
from companion import racefile
from companion.championship import result_doc, result_from_state
from companion.engine import CarEntry, RaceSetup, RaceState, start_race
from companion.engine.modules import RaceModules
from companion.racesim import HotDriver, run_race
from companion.ui.views.race_view import order_rows, standings
from companion.ui.views.results import lap_chart, results_document

pytestmark = pytest.mark.ui

COLOURS = ("red", "yellow", "grey", "black", "blue", "green")


@cache
def _race(seed: int) -> tuple[RaceSetup, tuple[Any, ...]]:
    """Six hot drivers at France with Title sponsor withdraws: seed 1 has three finishers and
    three cars out (black in round 10, blue in 14, red in 15); seed 18 all six out (grey and
    green in round 11, then yellow, black, red, blue)."""
    setup = RaceSetup(track=tracks.load_track("france"),
                      cars=tuple(CarEntry(c, c.title()) for c in COLOURS), seed=seed,
                      modules=RaceModules(event="title-sponsor-withdraws"))
    return setup, tuple(run_race(setup, seed=seed, driver=HotDriver).actions)


def _states(seed: int) -> list[RaceState]:
    """The state after every input."""
    from companion.engine import apply

    setup, actions = _race(seed)
    state = start_race(setup).state
    states = [state]
    for action in actions:
        result = apply(state, action)
        state = result.state
        states.append(state)
    return states


def test_eliminated_cars_come_after_the_finishers_the_later_eliminated_first() -> None:
    from companion.ui.screens.results import place_lines

    states = _states(1)
    final = states[-1]
    assert final.over and [c for c, _p, _r in final.results] == ["green", "grey", "yellow"]
    out = {c.id: c.eliminated_at for c in final.cars if c.eliminated_at is not None}
    assert out == {"black": (10, out["black"][1]), "blue": (14, out["blue"][1]),
                   "red": (15, out["red"][1])}
    assert standings(final) == ["green", "grey", "yellow", "red", "blue", "black"]
    lines = place_lines(final)
    assert [(name, headline, gone) for name, headline, _w, gone in lines] == [
        ("place 1", "1. Green", False), ("place 2", "2. Grey", False),
        ("place 3", "3. Yellow", False), ("out red", "Red", True), ("out blue", "Blue", True),
        ("out black", "Black", True)]
    assert [words.split("\n")[0] for *_n, words, gone in lines if gone] == [
        "Out in round\u00a015: no place", "Out in round\u00a014: no place",
        "Out in round\u00a010: no place"]


def test_the_lap_chart_ends_an_eliminated_car_s_line_when_it_leaves() -> None:
    setup, actions = _race(18)
    chart, final = lap_chart(racefile.export(setup, actions, "france"))
    assert final.over and not final.results  # every car out
    assert chart.out == {"grey": 11, "green": 11, "yellow": 13, "black": 15, "red": 16,
                         "blue": 17}
    # the last out first; grey and green, both out in round 11, in that round's race order
    assert chart.cars == ("blue", "red", "black", "yellow", "grey", "green")
    for car, left in chart.out.items():  # the grid, then the rounds it completed
        assert len(chart.positions[car]) == left
    for round_no in range(chart.rounds + 1):  # the cars still in hold positions 1, 2, …
        held = sorted(p[round_no] for p in chart.positions.values() if len(p) > round_no)
        assert held == list(range(1, len(held) + 1))
    assert chart.positions["blue"][-1] == 1  # the last car in, alone in round 16


def test_the_race_order_lists_a_car_out_below_the_cars_still_racing() -> None:
    states = _states(1)
    # black spins out of the race in round 10, ahead of cars still to play their turns
    index = next(i for i, s in enumerate(states) if s.car("black").eliminated)
    state = states[index]
    assert not state.over and state.order.index("black") < len(state.order) - 1
    rows = order_rows(state)
    assert rows[-1].car == "black" and rows[-1].eliminated
    assert not any(row.eliminated for row in rows[:-1])


@pytest.mark.parametrize(("seed", "gone"), [
    (1, ["red", "blue", "black"]),
    (18, ["blue", "red", "black", "yellow", "grey", "green"]),
])
def test_the_results_data_lists_eliminated_cars_as_the_race_order_does(
        seed: int, gone: list[str]) -> None:
    """The saved results (``heat-results/1``) and a season's result (``RaceResult``, the
    standings document's ``eliminated``) listed them in grid order."""
    setup, actions = _race(seed)
    chart, final = lap_chart(racefile.export(setup, actions, "france"))
    assert [c for c in standings(final) if c in gone] == gone
    assert results_document("r1", final, chart)["eliminated"] == gone
    result = result_from_state(final)
    assert list(result.eliminated) == gone
    assert result_doc(result)["eliminated"] == gone
