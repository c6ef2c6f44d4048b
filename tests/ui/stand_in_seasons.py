"""A made-up season shown by the app without a race log: a stand-in season store (the Standings
tests of ``test_kept_numbers.py`` and ``test_standings_split.py``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any


def show_stand_in_season(app: Any, season: Any) -> SimpleNamespace:
    """Make ``season`` the app's current season ("s1"), held by a stand-in store that answers
    the Standings (``season``) and Start (``seasons_to_go``: none); the stored season, whose
    ``season`` a test may change."""
    stored = SimpleNamespace(id="s1", season=season, running=None, race_ids=())
    app.season_store = lambda: SimpleNamespace(season=lambda _id: stored,
                                               seasons_to_go=lambda: [])  # (Start's)
    app.season_id = "s1"
    return stored
