"""A spin-out that eliminates the car (*Title sponsor withdraws*, docs/rules.md §3.3: it leaves
the track at once) tells the table to take the car off the track, not where to put it. A table
test was told "…spins out to space 20, takes 2 Stress and drops to 1st gear." and then that the
car was eliminated."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_controller import press  # the scripted table's next press

import tracks
from companion.engine import CarEntry, RaceSetup
from companion.engine.modules import RaceModules
from companion.i18n import set_language
from companion.session import RaceLog
from companion.ui.controller import RaceController
from companion.ui.demo import script
from companion.ui.demo.script import next_press
from companion.ui.views.names import car_label

pytestmark = pytest.mark.ui


def _eliminating_taps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                      ) -> Iterator[tuple[RaceController, str]]:
    """A race with Title sponsor withdraws and five drivers, its table playing as fast as the
    cards allow: the controller after each tap that eliminates a car, and the car."""
    monkeypatch.setattr(script, "target_speed", lambda state, car_id: 16)
    setup = RaceSetup(track=tracks.load_track("usa"), seed=3,
                      cars=tuple(CarEntry(c) for c in ("red", "blue", "green", "yellow", "grey")),
                      modules=RaceModules(event="title-sponsor-withdraws"))
    c = RaceController(RaceLog(tmp_path / "races.sqlite3").new_race(setup))
    for _ in range(2000):
        name = next_press(c)
        if name is None:
            return
        out = {car.id for car in c.state.cars if car.eliminated}
        press(c, name)
        assert not c.error
        for car in c.state.cars:
            if car.eliminated and car.id not in out:
                yield c, car.id
    raise AssertionError("the race did not end")


def _check(c: RaceController, car: str, name: str) -> None:
    mine = [r for r in c.rulings if r.car == car]
    assert not [r.text for r in mine if r.placement], "told where to put a car that is out"
    spun = [r for r in mine if r.spinout]
    assert len(spun) == 1, [r.text for r in mine]
    assert spun[0].text.endswith(
        f"{name} spins out and is eliminated (Title sponsor withdraws). Take the car off the "
        "track."), spun[0].text
    assert "space" not in spun[0].text and "Stress" not in spun[0].text
    assert spun[0].short == f"{name} spins out and is eliminated: take the car off the track."
    assert car not in c.moved  # neither its race order row nor the map lights it
    rows = c.view().order
    row = next(row for row in rows if row.car == car)
    assert not row.moved and row.eliminated
    out = [row.eliminated for row in rows]  # below every car still racing, the last out first
    assert out == sorted(out), rows
    left = {k.id: k.eliminated_at for k in c.state.cars if k.eliminated_at is not None}
    rounds = [left[r.car][0] for r in rows if r.eliminated]
    assert rounds == sorted(rounds, reverse=True) and left[car][0] == rounds[0]


def test_a_spin_out_that_eliminates_says_take_the_car_off(tmp_path, monkeypatch) -> None:
    taps = 0
    for c, car in _eliminating_taps(tmp_path, monkeypatch):
        name = car_label(c.state, car)  # unnamed: its colour's name
        _check(c, car, name)
        again = RaceController(c.session)  # Continue: the same sentences again
        _check(again, car, name)
        if not taps:
            set_language("ko")
            try:
                spun = next(r for r in c.rulings if r.spinout)
                assert "탈락" in spun.text and "번 칸" not in spun.text, spun.text
                assert "트랙에서 치우세요" in spun.short, spun.short
            finally:
                set_language("en")
        taps += 1
    assert taps >= 3


def test_every_spin_out_sentence_has_its_eliminating_form() -> None:
    """Each of the engine's spin-out sentences (a road token's or the cards' limit note, the
    Overheat token's Heat) becomes the eliminating one with the same figures and no space,
    Stress cards or gear."""
    import string

    from companion.engine import explain
    from companion.engine.turn import _SPIN
    from companion.ui.views.words import eliminating_spinout

    def fields(template: str) -> set[str]:
        return {f for _t, f, _s, _c in string.Formatter().parse(template) if f}

    seen = set()
    for template in _SPIN.values():
        out = eliminating_spinout(explain(template, car="red")).template
        assert fields(out) == fields(template) - {"space", "stress"}, out
        assert out.endswith("Take the car off the track.")
        seen.add(out)
    assert len(seen) == len(_SPIN)


def test_a_slipstream_into_an_eliminating_spin_out_places_nothing(tmp_path) -> None:
    """The tap that slipstreams a car into a corner it cannot pay for (its turn then ends by
    itself) said "Yellow to space 40, Race Line." before the spin-out that eliminates it: a
    table test was told where to put a car that leaves the track."""
    from companion.engine import Slipstream
    from companion.racesim import HotDriver, run_race

    class SlipstreamsAlways(HotDriver):  # type: ignore[misc]
        def slipstream(self, state: object, car_id: str, sim: object) -> bool:
            return True

    setup = RaceSetup(track=tracks.load_track("france"), seed=10,
                      cars=tuple(CarEntry(c) for c in ("red", "yellow", "grey", "black",
                                                       "blue", "green")),
                      modules=RaceModules(event="title-sponsor-withdraws"))
    actions = run_race(setup, seed=10, driver=SlipstreamsAlways).actions
    session = RaceLog(tmp_path / "races.sqlite3").new_race(setup)
    for action in actions[:84]:  # up to yellow's slipstream behind blue in round 10
        session.submit(action)
    slip = actions[84]
    assert isinstance(slip, Slipstream) and slip.car == "yellow"
    c = RaceController(session)
    c.slipstream(slip.extra)
    assert c.state.car("yellow").eliminated and c.state.current_car != "yellow"
    assert c.messages[0] == "Yellow slipstreams behind Blue: 2 more spaces, Speed unchanged."
    _check(c, "yellow", "Yellow")
    assert not any("Yellow to space" in text for text in c.messages), c.messages


def test_the_race_order_reads_no_step_to_know_when_cars_left(tmp_path, monkeypatch) -> None:
    """With a car out, the race order once asked the race's steps when each car left (every
    state of the race, a few thousand by its end); the engine keeps it in the car's state
    (``CarState.eliminated_at``): no step is read to draw the race order."""
    c, car = next(_eliminating_taps(tmp_path, monkeypatch))
    session = c.session
    reads = []
    steps = session.steps
    monkeypatch.setattr(session, "steps", lambda: reads.append(1) or steps())
    first = c.view().order
    assert c.view().order == first and c.order_rows() == first
    assert reads == []
    assert next(row for row in first if row.car == car).eliminated
