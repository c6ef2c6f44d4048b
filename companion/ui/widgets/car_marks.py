"""The cars on the track map, drawn once and moved in place.

Every car has the same few canvas instructions, in the race's car order: the halo of a car the
last input moved, the ring of the car whose turn it is, then its edge and its colour (a disc
for a driver, a square for a Legend). A redraw moves them and sets their colours; a halo or
ring not wanted, and a car off the track, are drawn fully transparent (no pixel changes). The
words a car reaches are drawn again after all the cars (:class:`CarMarks` keeps them last).

Built anew only when the cars, their kinds or the map's look change: a canvas instruction
freed and another made on every tap costs more than the car drawing itself (on a GL driver, a
drawn instruction holds vertex buffers that freeing gives back: about 0.3 ms a redraw here,
``bench/tap_parts.py``'s ``map``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kivy.graphics import BindTexture, Color, Ellipse, Line, Rectangle

HALO = 5.0
"""A moved car's halo reaches this far past its disc."""
RING_GAP = 4.0
"""The ring of the car whose turn it is, this far past its disc ..."""
TURN_RING_WIDTH = 2.2
"""... drawn this wide."""
HALO_ALPHA = 0.45
"""The halo's opacity (in the accent colour): the car under it stays in sight."""


@dataclass(frozen=True)
class CarSpot:
    """Where and how one car is drawn."""

    car: str
    legend: bool
    on_track: bool
    x: float
    y: float
    moved: bool
    current: bool
    colour: tuple[float, float, float, float]


@dataclass
class _Marks:
    halo_colour: Any
    halo: Any
    ring_colour: Any
    ring: Any
    edge_colour: Any
    edge: Any
    fill_colour: Any
    fill: Any


class CarMarks:
    """The cars' instructions in ``canvas`` (which holds nothing else)."""

    def __init__(self, canvas: Any) -> None:
        self.canvas = canvas
        self._built_for: tuple[object, ...] | None = None
        self._marks: list[_Marks] = []
        self._again: list[Any] = []
        """The words drawn again over the cars at the last redraw (their instructions)."""

    def clear(self) -> None:
        self.canvas.clear()
        self._built_for = None
        self._marks = []
        self._again = []

    def place(self, spots: Sequence[CarSpot], radius: float, look: tuple[object, ...],
              accent: Sequence[float], edge: Sequence[float],
              again: Sequence[Callable[[], None]]) -> None:
        """The cars at ``spots`` (the race's cars, in order, on the track or not), each
        ``radius`` px, in the colours of ``accent`` (halo, ring) and ``edge``; then the
        words of ``again`` drawn over them. ``look``: what else the instructions depend on
        (the map's size and theme): built anew when it or the cars change."""
        built_for = (tuple((s.car, s.legend) for s in spots), radius, look)
        if built_for != self._built_for:
            self.clear()
            with self.canvas:
                self._marks = [self._new(spot.legend) for spot in spots]
            self._built_for = built_for
        else:
            for instruction in self._again:  # (a texture's binding goes with its rectangle)
                if not isinstance(instruction, BindTexture):
                    self.canvas.remove(instruction)
        for marks, spot in zip(self._marks, spots, strict=True):
            self._move(marks, spot, radius, accent, edge)
        before = len(self.canvas.children)
        with self.canvas:
            for draw in again:
                draw()
        self._again = list(self.canvas.children[before:])

    @staticmethod
    def _new(legend: bool) -> _Marks:
        shape = Rectangle if legend else Ellipse
        return _Marks(Color(0, 0, 0, 0), Ellipse(), Color(0, 0, 0, 0),
                      Line(circle=(0, 0, 1), width=TURN_RING_WIDTH), Color(0, 0, 0, 0), shape(),
                      Color(0, 0, 0, 0), shape())

    @staticmethod
    def _move(marks: _Marks, spot: CarSpot, radius: float, accent: Sequence[float],
              edge: Sequence[float]) -> None:
        x, y, r = spot.x, spot.y, radius
        shown = spot.on_track
        marks.halo_colour.rgba = (*accent[:3], HALO_ALPHA if shown and spot.moved else 0.0)
        marks.halo.pos = (x - r - HALO, y - r - HALO)
        marks.halo.size = (2 * r + 2 * HALO, 2 * r + 2 * HALO)
        marks.ring_colour.rgba = (*accent[:3], accent[3] if shown and spot.current else 0.0)
        marks.ring.circle = (x, y, r + RING_GAP)
        marks.edge_colour.rgba = (*edge[:3], edge[3] if shown else 0.0)
        marks.fill_colour.rgba = (*spot.colour[:3], spot.colour[3] if shown else 0.0)
        if spot.legend:
            marks.edge.pos, marks.edge.size = (x - r - 1, y - r - 1), (2 * r + 2, 2 * r + 2)
            marks.fill.pos, marks.fill.size = (x - r + 1, y - r + 1), (2 * r - 2, 2 * r - 2)
        else:
            marks.edge.pos = (x - r - 1.5, y - r - 1.5)
            marks.edge.size = (2 * r + 3, 2 * r + 3)
            marks.fill.pos, marks.fill.size = (x - r, y - r), (2 * r, 2 * r)
