"""A parsed track file: the engine's :class:`Track` plus what only the app needs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from companion.engine.track import Track


@dataclass(frozen=True)
class TrackInfo:
    """A parsed track file: the engine's :class:`Track` plus what only the app needs."""

    track: Track
    source: str
    """Where it was read ("tracks/data/usa.json", a path, or "inline track")."""
    names: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Localised names, e.g. ``{"zh_TW": "美國", "ko": "미국"}``."""
    expansion: str = "custom"
    gravel: frozenset[tuple[int, int]] = frozenset()
    """South Africa's gravel spots as ``(space, lane)``; the rule itself is uncertain
    (docs/rules.md §6.7)."""
    sources: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """What each group of facts in the file is taken from."""

    @property
    def id(self) -> str:
        return self.track.id

    @property
    def name(self) -> str:
        return self.track.name

    def display_name(self, locale: str | None = None) -> str:
        """The name for ``locale`` ("zh_TW", "ko", "ko_KR"…), else the English name."""
        if locale:
            normal = locale.replace("-", "_")
            for key in (normal, normal.split("_")[0]):
                if key in self.names:
                    return self.names[key]
        return self.track.name
