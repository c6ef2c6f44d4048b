"""The race screen at its busiest, six cars at 800x480, pictured in every language.

* ``BUSY_REACT``: a driver's React with sixteen choices at once (Adrenaline, Cooldown 1 to 3,
  Super cool, Boost, a Draft behind the next car, and a slipstream of +4 to +7 with the Sun
  sector's +2 or +2 to +5 declining it); ``heat-companion demo --headless`` writes it as
  ``react-busy-<language>.png``.
* ``BUSY_KEYPAD``: the card keypad of a car holding three Garage upgrades and Sponsorship cards
  (every kind of key: the Basic cards, Stress, the upgrades, the seven Sponsorship designs),
  before and after a Stress card (its key greyed): ``keypad-upgrades-<language>.png`` and
  ``keypad-upgrades-flip-<language>.png``.

The driver whose prompt it is is ``red`` (Maximilianus, 12 letters), last of six cars named as a
table would, Chinese and Korean names among them. The UI tests play the same races
(``tests/ui/test_react_busy.py``, ``tests/ui/test_one_line_labels.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .player import TablePlayer
from .react_shots import key_name, start, to_react
from .table_shots import LANGUAGES, Photographer

SIX_NAMES = {"blue": "Bartholomew", "green": "歐陽志明", "yellow": "Konstantinos",
             "black": "남궁민수", "grey": "Wilhelmina", "red": "Maximilianus"}
"""Six drivers (grid order; ``red`` last): up to 12 letters, a Chinese and a Korean name."""

_TRACK_40 = {
    "id": "test-40", "spaces": 40, "laps": 1, "heat": 6, "stress": 3,
    "corners": [{"line_after": 25, "limit": 5, "legend_line_after": 21},
                {"line_after": 35, "limit": 3, "legend_line_after": 31}],
}
"""A long straight (spaces 36 to 25, past the finish line) in the Sun's weather sector."""

_SLOW = {"gear": 2, "cards": [1, 2]}


def _six(red: Mapping[str, Any], rounds: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "format": "heat-race/2", "track": _TRACK_40,
        "modules": {"weather": "sun", "road": {"35": "weather"}},
        "cars": [{"id": car} for car in list(SIX_NAMES)[:-1]] + [{"id": "red", **red}],
        "rounds": rounds,
    }


BUSY_REACT = _six(
    {"upgrades": ["tires-3", "air-intake-0-slip", "wings-6"], "sponsor_cards": 3},
    [{car: _SLOW for car in SIX_NAMES},
     # red, last, moves 1 -> 11: beside Wilhelmina (grey) for a slipstream, two empty spaces
     # behind Bartholomew (blue) for a Draft; the Sun gives slipstreams +2 here, the cards +1
     # and +2 (taken or not), Adrenaline and the Sponsorship card Cooldown
     {"blue": {"gear": 3, "cards": [4, 4, 3]}, "green": {"gear": 2, "cards": [1, 1]},
      "yellow": {"gear": 2, "cards": [2, 2]}, "black": {"gear": 2, "cards": [3, 3]},
      "grey": {"gear": 3, "cards": [5, 4, 1]},
      "red": {"gear": 4, "cards": [{"upgrade": "sponsor-fredo"},
                                   {"upgrade": "air-intake-0-slip"},
                                   {"upgrade": "sponsor-aperault"},
                                   {"upgrade": "sponsor-eole"}]}}])
"""``red``'s React offers 16 choices (15 and End turn)."""

BUSY_KEYPAD = _six(
    {"upgrades": ["cooling-6", "brakes-1234", "air-intake-4"], "sponsor_cards": 2},
    [{**{car: _SLOW for car in SIX_NAMES}, "red": {"gear": 3, "cards": [1, 2, 3]}}])
"""``red``'s card keypad: 1-4, Stress, three upgrades, seven Sponsorship designs, back."""


def to_keypad(app: Any, player: TablePlayer, race: Mapping[str, Any],
              car: str = "red") -> None:
    """Play ``race``'s first round by touches until ``car``'s card keypad is up."""
    inputs = race["rounds"][0]
    for row in app.controller.view().gear_rows:
        player.press(f"gear {row.car} {inputs[row.car]['gear']}")
    while True:
        view = app.controller.view()
        if view.mode == "reveal" and view.current == car:
            return
        if view.mode == "reveal":
            for card in inputs[view.current]["cards"]:
                player.press(key_name(card))
        elif view.mode == "react":
            player.press("react end")
        else:
            raise AssertionError(f"unexpected prompt {view.mode!r}")
        if app.controller.error:
            raise AssertionError(app.controller.error)


def play_busy(app: Any, pump: Callable[[], None], frame: Callable[[], None],
              shot: Callable[[str], None], languages: tuple[str, ...] = LANGUAGES) -> None:
    """The busy React and the full keypad (and its Stress card's flip), each pictured in
    every language."""
    player = TablePlayer(app, pump)
    start(app, BUSY_REACT, SIX_NAMES)
    frame()
    to_react(app, player, BUSY_REACT)
    Photographer(app, frame, shot, languages).take("react-busy")
    start(app, BUSY_KEYPAD, SIX_NAMES)
    frame()
    to_keypad(app, player, BUSY_KEYPAD)
    Photographer(app, frame, shot, languages).take("keypad-upgrades")
    player.press("key stress")
    Photographer(app, frame, shot, languages).take("keypad-upgrades-flip")
