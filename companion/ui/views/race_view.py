"""What the race screen shows (Kivy-free): the view records and the race order.

:class:`RaceView` is what :meth:`~companion.ui.controller.RaceController.view` returns; the
prompts that fill it live in :mod:`.race_prompts` (round and turn) and :mod:`.keypad` (the card
keypads).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from companion.engine import RaceState

from .names import car_label, colour_name

__all__ = ["GearRow", "OrderRow", "RaceView", "ReactButton", "Ruling", "order_rows",
           "standings", "uses_sponsors"]

KEYPAD_FAMILY = frozenset({"reveal", "flip", "value", "plus", "unpaid"})
"""Modes of one car's card keypad: the same keys in the same places, only what each accepts
changes (so switching between them is not a new prompt under the finger)."""


@dataclass(frozen=True)
class GearRow:
    car: str
    name: str
    gear: int
    """The gear the car is in now."""
    planned: int | None
    """The gear picked this round (ready), or None."""
    clogged: bool
    allowed: tuple[bool, bool, bool, bool]
    can_clog: bool


@dataclass(frozen=True)
class OrderRow:
    car: str
    name: str
    position: int
    legend: bool
    lap: int
    gear: int
    engine: int
    heat: int
    stress_taken: int
    finished_place: int | None
    current: bool
    sponsors: int = 0
    """Sponsorship cards earned this race (races with modules)."""
    eliminated: bool = False
    space: int = 0
    """The space the car stands on (1..L), as the rulings say it."""
    race_line: bool = True
    """On the Race Line spot of that space (else the other spot)."""
    moved: bool = False
    """The last input moved this car: the table must place it (or put it back, after undo)."""
    on_track: bool = True
    label: str = ""
    """The name as the race order shows it: the driver's name, or a Legend's colour (the
    Legend is told by its square swatch)."""


@dataclass(frozen=True)
class ReactButton:
    key: str
    """``adrenaline``, ``direct:<design>`` (a Gas Pedal card from hand), ``cooldown:N``,
    ``super_cool:N``, ``unpaid`` (upgrade Heat the engine cannot pay), ``boost``,
    ``accelerate``, ``draft``, ``slipstream``, ``slipstream:N`` (with N optional spaces of the
    cards), ``slipstream_plain:N`` (the sector's bonus declined) or ``end``."""
    label: str
    why: str = ""
    """Not "" for a greyed button: why the rules refuse it here (a tap shows it)."""
    detail: str = ""
    """A second, smaller line under the label: what the choice takes or declines ("with
    Storm +2", "behind Ana", "Wings 6: 2 Heat")."""
    series: str = ""
    """The name of the run of amounts the choice belongs to ("Cooldown", "Slipstream"; the
    run is the choices with the same series and detail), "" for none."""
    amount: str = ""
    """The choice within its run ("2", "+6"): a React with more choices than its panel holds
    shows a long run as one row, its name and then one key per amount
    (:func:`~companion.ui.views.react_layout.react_rows`)."""


@dataclass(frozen=True)
class Ruling:
    """One sentence of what the last input did, for the ruling box."""

    text: str
    car: str | None = None
    placement: bool = False
    """Only says where to put a car ("Ana to space 23, Race Line."); the race order shows the
    same in that car's row, so the box may leave it out when room is short."""
    headline: bool = False
    """What an Undo or Redo took back or brought back: shown even when room is short."""
    spinout: bool = False
    """A car's spin-out or elimination: shown even when room is short (in a Legends round
    eight Legend sentences may follow a driver's spin-out, whose Stress cards the table
    must take)."""
    short: str = ""
    """The same in one short line (a spin-out without its sums), for a box with no room
    for the whole sentence; "" when it has none."""


@dataclass(frozen=True)
class RaceView:
    mode: str
    """``gears``, ``turn_gear`` (tournament: the current car's gear), ``reveal``, ``flip``,
    ``value`` (a card's chosen value), ``plus`` (a "+" flip), ``unpaid`` (flips for cards whose
    Heat the engine cannot pay), ``react``, ``boost``, ``legend_card``, ``run_round`` or
    ``over``."""
    status: str
    prompt: str
    current: str | None
    gear_rows: tuple[GearRow, ...] = ()
    entry: str = ""
    keys: tuple[tuple[str, str, bool], ...] = ()
    """Keypad keys as ``(key, label, enabled)``; key is a digit, ``stress``, ``back``."""
    key_why: tuple[tuple[str, str], ...] = ()
    """``(key, why)`` for each disabled key: why it cannot be typed now, in words."""
    can_confirm: bool = False
    react: tuple[ReactButton, ...] = ()
    order: tuple[OrderRow, ...] = ()
    messages: tuple[str, ...] = ()
    error: str = ""
    can_undo: bool = False
    can_redo: bool = False
    sponsors: bool = False
    """Show the Sponsorship column and eliminated cars (the race uses modules that award or
    eliminate)."""
    tournament: bool = False
    rulings: tuple[Ruling, ...] = ()
    """What the last input did (``messages`` as sentences with their car)."""
    revision: int = 0
    """Counts the changes to the race (every input recorded, every undo and redo) since the
    race was opened on this screen."""

    @property
    def prompt_id(self) -> tuple[object, ...]:
        """What identifies the prompt on screen: a touch that began before it changed must not
        act on it (:mod:`companion.ui.widgets.touch_gate`).

        Every input the race records is a new prompt (a Legends card entered, the next Legend
        asks for another; a Next round, the next one), except one driver's gear among the
        drivers picking theirs: the others' buttons stay what they were. One car's card keypad
        is one prompt while cards are typed (a quick "2, 2" is two cards), except when it
        starts asking for the cards the engine cannot pay for: its digits then mean something
        else. React changes with the buttons it offers."""
        family = "cards" if self.mode in KEYPAD_FAMILY - {"unpaid"} else self.mode
        react = tuple(b.key for b in self.react) if self.mode == "react" else ()
        revision = None if self.mode == "gears" else self.revision
        return (family, self.current, self.status, react, revision)

    @property
    def position_id(self) -> tuple[object, ...]:
        """What Undo and Redo act on: the prompt and the race's last change (each undo is a
        change: the quick second tap of a double tap on Undo must not take back a second
        input)."""
        return (self.prompt_id, self.revision)

    def why(self, key: str) -> str:
        """Why keypad ``key`` is disabled ("" when it is not, or when nobody said)."""
        return dict(self.key_why).get(key, "")


def standings(state: RaceState) -> list[str]:
    """Every car by position: finished cars by place, then the race order of the cars still
    racing; last the eliminated cars, which have no place (``RaceState.out_of_race``: the
    later-eliminated first; docs/rules-decisions.md #27)."""
    finished = [car for car, _place, _round in state.results]
    gone = list(state.out_of_race())
    racing = [c for c in state.order if c not in finished and c not in gone]
    rest = [c.id for c in state.cars
            if c.id not in finished and c.id not in racing and c.id not in gone]
    return finished + racing + rest + gone


def order_rows(state: RaceState, moved: Collection[str] = ()) -> tuple[OrderRow, ...]:
    """The race order's rows, in :func:`standings`' order."""
    rows = []
    current = state.current_car
    for position, car_id in enumerate(standings(state), start=1):
        car = state.car(car_id)
        name = car_label(state, car_id)
        rows.append(OrderRow(
            car=car_id, name=name, position=position, legend=car.legend,
            lap=max(0, min(state.laps, state.track.lap_of(car.distance))), gear=car.gear,
            engine=car.engine, heat=car.heat, stress_taken=car.stress_taken,
            finished_place=car.finished_place, current=car_id == current,
            sponsors=car.sponsors, eliminated=car.eliminated,
            space=state.track.space_of(car.distance), race_line=car.race_line,
            moved=car_id in moved, on_track=car.on_track,
            label=colour_name(car_id) if car.legend else name,
        ))
    return tuple(rows)


def uses_sponsors(state: RaceState) -> bool:
    """True when the race can award Sponsorship cards or eliminate cars (modules)."""
    modules = state.modules
    return bool(modules.event or modules.press_corners) or any(
        c.sponsors or c.eliminated for c in state.cars)
