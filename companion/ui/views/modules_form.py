"""The modules and the Garage on the New race form, as plain data (Kivy-free).

Weather is drawn from the race's seed (one of the six tokens) or set by hand. Road Condition
tokens are drawn as at the table: the 12 tokens (6 kinds x 2) are shuffled and one goes on each
corner, a chicane sharing one (docs/rules.md §5); or they are set per corner. Press Corners are
letters (A = the first corner after the start line, docs/rules.md §3.3). The Garage deals upgrades
by a guided draft or at random (docs/rules.md §4.1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from companion.engine.modules import EVENTS, RaceModules, Road, Weather
from companion.engine.rng import seed_state, shuffled

WEATHER_MODES = ("off", "drawn", "set")
ROAD_MODES = ("off", "drawn", "set")
GARAGE_MODES = ("off", "draft", "random")
DECKS = ("basic", "advanced", "both")
ROAD_TOKENS: tuple[Road, ...] = tuple(kind for kind in Road for _copy in range(2))
"""The 12 Road Condition tokens: each of the six kinds twice."""
_WEATHER_SALT = 0x57EA
_ROAD_SALT = 0x60AD
_GARAGE_SALT = 0x6A7A


def token_corners(track: Any) -> list[Any]:
    """The corners that take a Road Condition token: every corner, a chicane's two lines
    sharing the token on the first (the key ``modules.road`` uses)."""
    return [c for c in track.corners
            if c.chicane_with is None or c.chicane_with > c.line_after]


def chicane_number(track: Any, corner: Any) -> int | None:
    """The number (as the rulings count corners) of the second line of the chicane whose
    token ``corner`` holds (:func:`token_corners`), None for a corner that is no chicane."""
    other = next((c for c in track.corners
                  if corner.chicane_with is not None and c.line_after == corner.chicane_with),
                 None)
    return None if other is None else int(track.corner_number(other))


def draw_weather(seed: int) -> Weather:
    order, _state = shuffled(tuple(Weather), seed_state(seed ^ _WEATHER_SALT))
    return order[0]


def draw_road(track: Any, seed: int) -> dict[int, Road]:
    """One shuffled token per corner (docs/rules.md §5)."""
    tokens, _state = shuffled(ROAD_TOKENS, seed_state(seed ^ _ROAD_SALT))
    return {corner.line_after: tokens[i % len(tokens)]
            for i, corner in enumerate(token_corners(track))}


def press_letters(track: Any) -> list[str]:
    """The letters of the track's Press Corners (A, B, …)."""
    import tracks

    count = len(track.press_corners or tracks.default_press_corners(track.corners))
    return [chr(ord("A") + i) for i in range(min(count, 26))]


def press_corner_number(track: Any, letter: str) -> int:
    """The corner number (as the rulings count corners, 1 = the first after the start line)
    of Press Corner ``letter``."""
    import tracks

    line = tracks.press_corner_line(track, letter)
    return int(next(track.corner_number(c) for c in track.corners if c.line_after == line))


def deck_flags(deck: str) -> tuple[bool, bool]:
    """(basic, advanced) for a deck choice."""
    return deck in ("basic", "both"), deck in ("advanced", "both")


def garage_seed(seed: int) -> int:
    return seed ^ _GARAGE_SALT


def next_deck(deck: str) -> str:
    """The Garage deck choice after ``deck`` (basic -> advanced -> both -> basic)."""
    return DECKS[(DECKS.index(deck) + 1) % len(DECKS)]


def next_event(event: str | None, step: int) -> str | None:
    """The event ``step`` places on from ``event`` in "no event" followed by every card."""
    ids: list[str | None] = [None, *EVENTS]
    return ids[(ids.index(event) + step) % len(ids)]


def mechanics_event(event: str | None) -> bool:
    """True when ``event`` has each driver choose +1 or -1 Heat and Stress (Consulting the
    mechanics)."""
    card = EVENTS.get(event) if event else None
    return bool(card and card.choose_heat_and_stress)


@dataclass
class ModulesForm:
    event: str | None = None
    weather_mode: str = "off"
    weather: Weather = Weather.CLOUD
    """The token when ``weather_mode`` is "set"."""
    road_mode: str = "off"
    road: dict[int, Road] = field(default_factory=dict)
    """Tokens set by hand (``road_mode`` "set"), by corner ``line_after``."""
    press: list[str] = field(default_factory=list)
    mechanics: dict[str, int] = field(default_factory=dict)
    """Car -> +1 or -1 under Consulting the mechanics (default +1)."""
    garage: str = "off"
    deck: str = "basic"

    # --- editing -------------------------------------------------------------------------------

    def step_event(self, step: int) -> None:
        self.event = next_event(self.event, step)

    def cycle_weather(self) -> None:
        """off -> drawn -> each token set by hand -> off."""
        tokens = list(Weather)
        if self.weather_mode == "off":
            self.weather_mode = "drawn"
        elif self.weather_mode == "drawn":
            self.weather_mode, self.weather = "set", tokens[0]
        elif tokens.index(self.weather) + 1 < len(tokens):
            self.weather = tokens[tokens.index(self.weather) + 1]
        else:
            self.weather_mode = "off"

    def cycle_road_mode(self, track: Any, seed: int) -> None:
        self.road_mode = ROAD_MODES[(ROAD_MODES.index(self.road_mode) + 1) % len(ROAD_MODES)]
        if self.road_mode == "set":
            self.road = draw_road(track, seed)

    def cycle_road(self, line: int) -> None:
        """The next kind of token on the corner ``line`` (set by hand)."""
        kinds = list(Road)
        current = self.road.get(line)
        self.road[line] = kinds[(kinds.index(current) + 1) % len(kinds)] if current else kinds[0]

    def toggle_press(self, letter: str) -> None:
        if letter in self.press:
            self.press.remove(letter)
        else:
            self.press.append(letter)
            self.press.sort()

    def toggle_mechanics(self, car: str) -> None:
        self.mechanics[car] = -self.mechanics.get(car, 1)

    def cycle_garage(self) -> None:
        self.garage = GARAGE_MODES[(GARAGE_MODES.index(self.garage) + 1) % len(GARAGE_MODES)]

    def cycle_deck(self) -> None:
        self.deck = next_deck(self.deck)

    def fit_track(self, track: Any) -> None:
        """Forget what does not exist on a newly chosen track."""
        letters = press_letters(track)
        self.press = [p for p in self.press if p in letters]
        lines = {c.line_after for c in token_corners(track)}
        self.road = {line: token for line, token in self.road.items() if line in lines}

    # --- result --------------------------------------------------------------------------------

    @property
    def mechanics_event(self) -> bool:
        return mechanics_event(self.event)

    def weather_token(self, seed: int) -> Weather | None:
        if self.weather_mode == "drawn":
            return draw_weather(seed)
        return self.weather if self.weather_mode == "set" else None

    def road_tokens(self, track: Any, seed: int) -> dict[int, Road]:
        if self.road_mode == "drawn":
            return draw_road(track, seed)
        if self.road_mode == "set":
            lines = {c.line_after for c in token_corners(track)}
            return {line: token for line, token in self.road.items() if line in lines}
        return {}

    def race_modules(self, track: Any, seed: int, tournament: bool) -> RaceModules:
        import tracks

        press = tuple(tracks.press_corner_line(track, letter) for letter in self.press)
        return RaceModules(
            event=self.event, weather=self.weather_token(seed),
            road=MappingProxyType(self.road_tokens(track, seed)),
            press_corners=tuple(dict.fromkeys(press)), tournament=tournament)

    def mechanics_of(self, car: str) -> int:
        return self.mechanics.get(car, 1) if self.mechanics_event else 0

    def dealt(self, drivers: Sequence[str], seed: int) -> Mapping[str, tuple[str, ...]]:
        """The random Garage variant: three upgrades each (``{}`` unless garage is random)."""
        if self.garage != "random" or not drivers:
            return {}
        from companion.engine.draft import deal_random

        basic, advanced = deck_flags(self.deck)
        return deal_random(tuple(drivers), seed=garage_seed(seed), basic=basic,
                           advanced=advanced)

    def start_draft(self, drivers: Sequence[str], seed: int) -> Any:
        from companion.engine.draft import start_draft

        basic, advanced = deck_flags(self.deck)
        return start_draft(tuple(drivers), seed=garage_seed(seed), basic=basic,
                           advanced=advanced)
