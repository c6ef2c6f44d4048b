"""The race's own rules in words, for the map opened over the window: its championship event,
its Weather token, its Road Condition tokens (docs/rules.md §3.3, §5). The race screen said
none of them (found by a table test: a Rain sector's Cooldown 2 in 2nd gear, a corner's limit
by its road token, went unexplained), while New race and Next race list them.
"""

from __future__ import annotations

from companion.engine import RaceState
from companion.i18n import _

from .modules_form import chicane_number, token_corners
from .words import event_line, road_line, weather_effect, weather_name


def race_rules(state: RaceState) -> list[str]:
    """One sentence per module the race uses (none without modules): the event ("Title:
    effect"), the Weather token and what it does, each corner's Road Condition token."""
    modules = state.modules
    lines: list[str] = []
    if modules.event is not None:
        lines.append(event_line(modules.event))
    if modules.weather is not None:
        lines.append(_("Weather: {token}. {effect}").format(
            token=weather_name(modules.weather), effect=weather_effect(modules.weather)))
    track = state.track
    lines += [road_line(track.corner_number(corner), modules.road[corner.line_after],
                        chicane_number(track, corner))
              for corner in token_corners(track) if corner.line_after in modules.road]
    return lines
