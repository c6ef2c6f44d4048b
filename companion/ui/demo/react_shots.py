"""The React choices of the rules' second pass, each reached by touches and pictured.

Four races, each the setup and inputs of an engine scenario (``tests/engine/scenarios``; the UI
tests check that they still match), with the two cars named as a table would (names of 12
letters): Super cool in a Cloud sector (Cooldown greyed), an upgrade card whose Heat the engine
cannot pay after Cooldown, a Draft to right behind the next car, and a slipstream whose Storm
+2 would cross the finish line (greyed, saying why) beside the plain 2-space one.
:func:`to_react` plays a race by touches (gears, card keys, End turn) up to the React step of
the car whose choice it is; :func:`play_react` pictures each such prompt in every language
(``heat-companion demo --headless`` writes ``react-<choice>-<language>.png``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from .player import TablePlayer
from .table_shots import LANGUAGES, Photographer

_TRACK_30 = {
    "id": "test-30", "spaces": 30, "laps": 1, "heat": 6, "stress": 3,
    "corners": [{"line_after": 10, "limit": 4, "legend_line_after": 6},
                {"line_after": 20, "limit": 3, "legend_line_after": 16}],
}

CHOICES: dict[str, tuple[str, dict[str, Any]]] = {
    "super-cool": ("super-cool-in-a-cloud-sector", {
        "format": "heat-race/2", "track": _TRACK_30,
        "modules": {"weather": "cloud", "road": {"20": "weather"}},
        "cars": [{"id": "red", "sponsor_cards": 1}],
        "rounds": [{"red": {"gear": 3, "cards": [{"upgrade": "sponsor-mercury"}, 2, 3],
                            "super_cool": 2}}],
    }),
    "unpaid": ("upgrade-unpaid-after-cooldown-moves-again", {
        "format": "heat-race/2", "track": {**_TRACK_30, "id": "test-30-1heat", "heat": 1},
        "cars": [{"id": "red", "upgrades": ["wings-6", "body-3", "rpm-1"]}],
        "rounds": [{"red": {"cards": [{"upgrade": "wings-6"}],
                            "unpaid_after_cooldown": [2]}}],
    }),
    "draft": ("eole-draft-to-right-behind-a-car", {
        "format": "heat-race/2", "track": _TRACK_30,
        "cars": [{"id": "blue"}, {"id": "red", "sponsor_cards": 1}],
        "rounds": [{"blue": {"gear": 2, "cards": [4, 4]},
                    "red": {"cards": [{"upgrade": "sponsor-eole"}], "draft": True,
                            "slipstream": True}}],
    }),
    "slipstream": ("plain-slipstream-where-the-storm-bonus-would-cross-the-finish", {
        "format": "heat-race/2",
        "track": {"id": "test-12", "spaces": 12, "laps": 1, "heat": 6, "stress": 3,
                  "corners": [{"line_after": 6, "limit": 7, "legend_line_after": 3}]},
        "modules": {"weather": "storm", "road": {"6": "weather"}},
        "cars": [{"id": "blue"}, {"id": "red"}],
        "rounds": [{"blue": {"gear": 2, "cards": [4, 4]}, "red": {"gear": 2, "cards": [4, 4]}},
                   {"blue": {"gear": 1, "cards": [2]},
                    "red": {"gear": 1, "cards": [1], "slipstream": True,
                            "slipstream_sector": False}}],
    }),
}
"""``choice: (scenario name, its race document)``; the car whose choice it is is ``red``."""

NAMES = {"red": "Maximilianus", "blue": "Bartholomew"}
"""The drivers' names (12 and 11 letters): the labels and rulings at their longest."""


def start(app: Any, race: Mapping[str, Any], names: Mapping[str, str] = NAMES) -> None:
    """The race of ``race`` (a ``heat-race/2`` document) on the race screen, its cars named."""
    from companion.racefile.reading import parse

    setup = parse(race).setup
    setup = replace(setup, cars=tuple(replace(car, name=names.get(car.id, car.name))
                                      for car in setup.cars))
    app.open_session(app.log().new_race(setup))


def key_name(card: object) -> str:
    """The keypad key of a race file's card (a number, ``"stress"`` or an upgrade)."""
    if isinstance(card, dict):
        return f"key up:{card['upgrade']}"
    return f"key {card}"


def to_react(app: Any, player: TablePlayer, race: Mapping[str, Any], car: str = "red") -> None:
    """Play ``race``'s rounds by touches (each driver's gear, the cards typed, End turn) until
    ``car`` is at React in the last round."""
    rounds = race["rounds"]
    for number, inputs in enumerate(rounds):
        for row in app.controller.view().gear_rows:
            gear = inputs.get(row.car, {}).get("gear", app.controller.state.car(row.car).gear)
            player.press(f"gear {row.car} {gear}")
        while True:
            view = app.controller.view()
            if view.mode in ("gears", "over"):
                break
            if view.mode == "reveal":
                for card in inputs[view.current]["cards"]:
                    player.press(key_name(card))
            elif view.mode == "react":
                if number == len(rounds) - 1 and view.current == car:
                    return
                player.press("react end")
            else:
                raise AssertionError(f"unexpected prompt {view.mode!r}")
            if app.controller.error:
                raise AssertionError(app.controller.error)
    raise AssertionError(f"{car} never reached React in the last round")


def play_react(app: Any, pump: Callable[[], None], frame: Callable[[], None],
               shot: Callable[[str], None],
               languages: tuple[str, ...] = LANGUAGES) -> list[str]:
    """Each choice's React prompt pictured (``shot("react-<choice>")`` once per language, the
    app switched to it); returns the choices pictured."""
    taken = []
    for choice, (_scenario, race) in CHOICES.items():
        start(app, race)
        frame()
        to_react(app, TablePlayer(app, pump), race)
        Photographer(app, frame, shot, languages).take(f"react-{choice}")
        taken.append(choice)
    return taken
