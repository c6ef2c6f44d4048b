"""The corners of a track: Corner Lines, speed limits, Legend Lines, chevrons and chicanes.

Corners are listed in track order. Each has ``line_after`` (the Corner Line lies between this
space and the next), ``limit`` and ``legend_line_after`` (docs/rules.md §6.1), and optionally the
Aggressive-Legends distances ``aggressive`` and ``aggressive_double`` (§2.2), the other line of a
chicane ``chicane_with`` (§6.5), the Race-Line lane of the sector after it and a name. The two
lines of a chicane are neighbours in track order and share one speed limit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, NamedTuple

from companion.engine.track import Corner

from .fields import FieldReader

MAX_LIMIT: Final = 10
"""The highest printed speed limit (Great Britain's first corner, docs/rules.md §6.2)."""

CORNER_REQUIRED: Final = ("line_after", "limit", "legend_line_after")
CORNER_OPTIONAL: Final = (
    "aggressive",
    "aggressive_double",
    "chicane_with",
    "race_line_lane",
    "name",
)


class _CornerFields(NamedTuple):
    limit: int
    legend: int
    aggressive: int
    double: int
    lane: int | None
    name: str


def read_corners(reader: FieldReader, value: object, spaces: int) -> tuple[Corner, ...]:
    """The ``corners`` array of a track of ``spaces`` spaces, validated."""
    items = reader.array(value, "corners", allow_empty=False)
    parsed: list[dict[str, object]] = []
    lines: list[int] = []
    for index, raw in enumerate(items):
        path = f"corners[{index}]"
        doc = reader.obj(raw, path, CORNER_REQUIRED, CORNER_OPTIONAL)
        line = reader.integer(
            doc["line_after"],
            f"{path}.line_after",
            1,
            spaces - 1,
            "the Corner Line lies between this space and the next",
        )
        if lines and line <= lines[-1]:
            reader.fail(
                f"{path}.line_after",
                f"must be greater than corners[{index - 1}].line_after ({lines[-1]}): "
                f"corners are listed in track order, got {line}",
            )
        lines.append(line)
        parsed.append(doc)

    count = len(parsed)
    by_line = {line: index for index, line in enumerate(lines)}
    partner_of: dict[int, int] = {}
    fields: list[_CornerFields] = []
    for index, doc in enumerate(parsed):
        path = f"corners[{index}]"
        line = lines[index]
        limit = reader.integer(doc["limit"], f"{path}.limit", 1, MAX_LIMIT)
        legend = reader.integer(doc["legend_line_after"], f"{path}.legend_line_after", 1, spaces)
        if legend == line:
            reader.fail(
                f"{path}.legend_line_after",
                f"must differ from line_after ({line}): the Legend Line lies before the "
                "Corner Line",
            )
        zone = (line - legend) % spaces
        aggressive = reader.integer(
            doc.get("aggressive", 0),
            f"{path}.aggressive",
            0,
            zone,
            f"spaces before the Corner Line, within the {zone}-space Legend zone",
        )
        double = reader.integer(
            doc.get("aggressive_double", 0),
            f"{path}.aggressive_double",
            0,
            aggressive,
            "at most the single-chevron distance",
        )
        lane: int | None = None
        if "race_line_lane" in doc:
            lane = reader.integer(doc["race_line_lane"], f"{path}.race_line_lane", 1, 2)
        name = reader.text(doc["name"], f"{path}.name", 80) if "name" in doc else ""
        if "chicane_with" in doc:
            partner = reader.integer(
                doc["chicane_with"],
                f"{path}.chicane_with",
                1,
                spaces - 1,
                "the line_after of the other Corner Line of the chicane",
            )
            _pair_chicane(reader, index, partner, lines, by_line, partner_of, count)
        fields.append(_CornerFields(limit, legend, aggressive, double, lane, name))

    for index, other in sorted(partner_of.items()):
        if fields[index].limit != fields[other].limit:
            reader.fail(
                f"corners[{max(index, other)}].limit",
                "both Corner Lines of a chicane share one speed limit: "
                f"corners[{index}] has {fields[index].limit}, "
                f"corners[{other}] has {fields[other].limit}",
            )

    corners: list[Corner] = []
    for index, values in enumerate(fields):
        partner_index = partner_of.get(index)
        corners.append(
            Corner(
                line_after=lines[index],
                limit=values.limit,
                legend_line_after=values.legend,
                aggressive=values.aggressive,
                aggressive_double=values.double,
                chicane_with=None if partner_index is None else lines[partner_index],
                race_line_lane=values.lane,
                name=values.name,
            )
        )
    return tuple(corners)


def check_legend_zones(reader: FieldReader, corners: Sequence[Corner], spaces: int) -> None:
    """Each Legend Line lies before its own Corner Line and not behind the Corner Line before
    it (docs/rules.md §6.1: "a Legend Line must lie before its Corner Line"; on a loop every
    space is before every line, so the check is that the Legend zone holds no other corner's
    line). The Legend Line may stand on the line before (Great Britain, France, Nederland and
    España have such corners), and a chicane's two lines count as one corner: the second
    line's Legend Line may lie before the first (España's corner 4, Legend Line after 22, its
    pair's lines after 29 and 32), the corner before being the one before the chicane.

    Bundled boards only (strict mode): a user's board or a race file's inline track is taken
    as it is (docs/race-file.md: the engine must accept an inline track), and there a Legend
    Line behind the corner before changes nothing, a Legend looking only at the next Corner
    Line ahead of it (§2.2): it acts as if it stood on that corner's line
    (docs/rules-decisions.md #28)."""
    count = len(corners)
    for index, corner in enumerate(corners):
        before = (index - 1) % count
        if corner.chicane_with == corners[before].line_after and count > 2:
            before = (before - 1) % count
        line, previous = corner.line_after, corners[before].line_after
        gap = (line - previous) % spaces or spaces
        if (line - corner.legend_line_after) % spaces > gap:
            reader.fail(
                f"corners[{index}].legend_line_after",
                f"must lie on or after corners[{before}].line_after ({previous}) and before this "
                f"corner's line_after ({line}), got {corner.legend_line_after}: the Legend zone "
                "would hold another corner's line",
            )


def _pair_chicane(
    reader: FieldReader,
    index: int,
    partner: int,
    lines: Sequence[int],
    by_line: Mapping[int, int],
    partner_of: dict[int, int],
    count: int,
) -> None:
    """Record that corner ``index`` and the corner whose line is ``partner`` form a chicane."""
    path = f"corners[{index}].chicane_with"
    if partner == lines[index]:
        reader.fail(path, "a Corner Line cannot be its own chicane partner")
    if partner not in by_line:
        known = ", ".join(str(line) for line in lines)
        reader.fail(path, f"no corner has line_after {partner} (corner lines: {known})")
    other = by_line[partner]
    if other not in ((index + 1) % count, (index - 1) % count):
        reader.fail(
            path,
            f"the chicane partner must be the next or previous corner, got corners[{other}] "
            f"(line_after {partner})",
        )
    for me, them in ((index, other), (other, index)):
        known_partner = partner_of.get(me)
        if known_partner is not None and known_partner != them:
            reader.fail(
                path,
                f"corners[{me}] is already in a chicane with line_after {lines[known_partner]}",
            )
    partner_of[index] = other
    partner_of[other] = index
