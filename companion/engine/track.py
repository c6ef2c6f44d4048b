"""The track as the engine sees it: spaces, corners, and the geometry of a lap.

Conventions (``docs/race-file.md``, "Conventions on the track"):

* Spaces are numbered ``1..L`` from the finish line; space ``L`` is the last one before it.
* A corner with ``line_after == c`` has its Corner Line between space ``c`` and ``c + 1``.
* The grid lies behind the finish line; a car on the grid has lap 0.

Internally every position is a *distance* ``d = (lap - 1) * L + space``: 0 is space ``L`` on the
grid (lap 0), 1 is the first space of lap 1. A race of N laps is finished by a car whose distance
exceeds ``N * L`` (it crossed the line for the (N+1)-th time). Distances make laps, wrap-around
corner zones and spin-outs behind the finish line plain arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Corner:
    """One Corner Line with its speed limit (docs/rules.md §1.9) and its Legend Line (§2.2)."""

    line_after: int
    """The Corner Line lies between this space and the next one."""
    limit: int
    """The printed speed limit."""
    legend_line_after: int
    """The Legend Line lies between this space and the next one (docs/rules.md §2.2)."""
    aggressive: int = 0
    """Aggressive Legends (docs/rules.md §2.2): a Legend starting within this many spaces of the
    line (1 = only the space right before it) may cross one extra Corner Line. 0 = no chevron."""
    aggressive_double: int = 0
    """Double chevron (Nederland): within this many spaces a Legend may cross two extra lines."""
    chicane_with: int | None = None
    """``line_after`` of the other Corner Line of a chicane (docs/rules.md §6), or None."""
    race_line_lane: int | None = None
    """Which lane (1 or 2) carries the Race Line in the sector after this corner (drawing only)."""
    name: str = ""


@dataclass(frozen=True, slots=True)
class Track:
    """A whole track. Built by the ``tracks`` loader or from an inline race-file track."""

    id: str
    spaces: int
    laps: int
    heat: int
    stress: int
    corners: tuple[Corner, ...]
    name: str = ""
    grid_size: int = 8
    flooded: frozenset[int] = field(default_factory=frozenset)
    tunnels: frozenset[int] = field(default_factory=frozenset)
    press_corners: tuple[int, ...] = ()
    """``line_after`` of the corners that carry the press-corner letters A, B, C… in order."""
    unverified: tuple[str, ...] = ()
    """Notes on data the sources flag as unverified; the app shows them (docs/rules.md §6)."""

    def __post_init__(self) -> None:
        # Programming errors only: the loaders validate user data with named fields first.
        if self.spaces < 4:
            raise ValueError(f"track {self.id}: too few spaces")
        lines = [c.line_after for c in self.corners]
        if lines != sorted(lines) or len(set(lines)) != len(lines):
            raise ValueError(f"track {self.id}: corners must be in track order")

    # --- geometry -------------------------------------------------------------------------

    def space_of(self, distance: int) -> int:
        """The space number (1..L) at a distance."""
        return (distance - 1) % self.spaces + 1

    def lap_of(self, distance: int) -> int:
        """How many times a car at this distance has crossed the finish line."""
        return (distance - self.space_of(distance)) // self.spaces + 1

    def distance_of(self, lap: int, space: int) -> int:
        return (lap - 1) * self.spaces + space

    def finish_distance(self, laps: int) -> int:
        """The last distance before the line that ends a race of ``laps`` laps."""
        return laps * self.spaces

    def corner_lines_between(
        self, start: int, end: int, laps: int
    ) -> list[tuple[int, Corner]]:
        """Every Corner Line crossed moving from distance ``start`` to ``end``, in order.

        A line after space ``c`` is crossed when the move goes from ``<= c`` to ``> c``
        (docs/race-file.md). Lines beyond the end of the race are ignored (docs/rules.md §1.9:
        "Corners after you complete the final lap are ignored"). Returns ``(line distance, corner)``
        pairs, where the line distance is the distance of the space just before the line.
        """
        crossed: list[tuple[int, Corner]] = []
        if end <= start:
            return crossed
        finish = self.finish_distance(laps)
        first_lap = (start - 1) // self.spaces - 1
        last_lap = (end - 1) // self.spaces + 1
        for lap_index in range(first_lap, last_lap + 1):
            base = lap_index * self.spaces
            for corner in self.corners:
                at = base + corner.line_after
                if start <= at < end and at < finish:
                    crossed.append((at, corner))
        crossed.sort(key=lambda pair: pair[0])
        return crossed

    def next_corner_line(self, distance: int) -> tuple[int, Corner]:
        """The first Corner Line ahead of a car at ``distance`` (a car on the space right before
        the line has it ahead), as ``(line distance, corner)``."""
        base = ((distance - 1) // self.spaces) * self.spaces
        best: tuple[int, Corner] | None = None
        for lap_offset in (0, self.spaces):
            for corner in self.corners:
                at = base + lap_offset + corner.line_after
                if at >= distance and (best is None or at < best[0]):
                    best = (at, corner)
            if best is not None:
                return best
        raise ValueError(f"track {self.id} has no corners")

    def legend_zone_length(self, corner: Corner) -> int:
        """How many spaces lie past the Legend Line up to the Corner Line (docs/rules.md §2.2)."""
        length = (corner.line_after - corner.legend_line_after) % self.spaces
        return length if length > 0 else self.spaces

    def corner_number(self, corner: Corner) -> int:
        """1-based position of the corner in track order (for messages)."""
        return self.corners.index(corner) + 1
