"""What a single race's Garage draft under way locks on the New race form, and why, in words
(Kivy-free).

The draft is dealt from the form (``RaceForm.human_order`` and ``ModulesForm.start_draft``):
the drivers who pick, in grid order, and the cards, shuffled from the draw in the Garage deck.
So it depends on the cars (each driver's colour, how many drivers and Legends: the grid is
drawn among them all), on the grid (drawn from the draw, or set by hand), on the draw itself
and on the Garage and its deck. Once a pick of the draft is in effect, those are greyed on New
race, as a season's Next race greys its deck, and a tap says why: changing them would deal
another draft and set the picks aside. Undoing every pick frees them (nothing is lost then).

Everything else may change (a name corrected, a seat, a handicap, the track, the laps, the
difficulty, the Legends deck, tournament mode, the event, Weather, Road Conditions, Press
Corners, the mechanics' choices): Start race takes the draft up where it was, the setup as
changed (``DraftStore.begin``'s ``carry`` records it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.i18n import _


class DealChanged(Exception):
    """Start race from a New race form that deals another draft than the one begun from it,
    a pick of which is in effect: refused, nothing recorded (the picks are never set aside)."""

    def __init__(self, draft_id: str) -> None:
        self.draft_id = draft_id
        super().__init__(f"draft {draft_id}: the setup deals another draft")


def cars_locked() -> str:
    """Add driver, a driver's X, the Legends' - and +."""
    return _("The cars are locked: a pick of this race's Garage draft is recorded. Undo every "
             "pick on the Garage draft screen to add or take one away.")


def colours_locked() -> str:
    """A driver's colour."""
    return _("The colours are locked: a pick of this race's Garage draft is recorded. Undo "
             "every pick on the Garage draft screen to change them.")


def grid_locked() -> str:
    """Random grid or by hand, Draw again, Up."""
    return _("The grid is locked: a pick of this race's Garage draft is recorded. Undo every "
             "pick on the Garage draft screen to change it.")


def garage_locked() -> str:
    """The Garage (off, draft, random 3) and its deck."""
    return _("The Garage is locked: a pick of this race's Garage draft is recorded. Undo "
             "every pick on the Garage draft screen to change it.")


def deal_changed() -> str:
    """Start race, should the form deal another draft all the same: refused."""
    return _("A pick of this race's Garage draft is recorded, and this setup deals another "
             "draft: undo every pick on the Garage draft screen first.")


def same_deal(stored: Mapping[str, Any], start: Mapping[str, Any]) -> bool:
    """A single race's draft stored with start ``stored`` deals as ``start`` does: the same
    drivers in the same order, the same cards revealed and the same deck below them."""
    return "deal" in stored and stored.get("deal") == start.get("deal")
