"""The next race of a stored season (Kivy-free): grid, draft order, Weather and Road Conditions
drawn, the draft's market, and the :class:`RaceSetup` handed to ``SeasonStore.start_race``.

Per docs/rules.md §3.1: the grid is random for race 1 and the standings order after it
(``Season.next_grid``); before every race one Garage draft round of players + 3 cards in reverse
standings order (``Season.draft_order``), the first picker may swap; Upgrades accumulate from
race to race (1 in race 1, 2 in race 2…, no Starting Upgrades); each driver draws the event's
Sponsorship cards; Weather and Road Conditions are drawn for every race.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.engine.draft import RoundDraft, start_round_draft

from .modules_form import deck_flags, draw_road, draw_weather, mechanics_event, next_deck
from .names import car_name


@dataclass
class NextRace:
    season_id: str
    stored: Any
    """``companion.storage.seasons.StoredSeason``."""
    seed: int
    track: Any
    grid: tuple[str, ...]
    picks: tuple[str, ...]
    """Draft pick order (human cars, last in the standings first)."""
    earlier: dict[str, tuple[str, ...]]
    """Each human's Upgrades from the previous race."""
    mechanics: dict[str, int] = field(default_factory=dict)
    deck: str = "both"

    @property
    def season(self) -> Any:
        return self.stored.season

    @property
    def number(self) -> int:
        return int(self.season.races_played) + 1

    @property
    def race(self) -> Any:
        return self.season.next_race

    @property
    def weather(self) -> Any:
        return draw_weather(self.seed)

    @property
    def road(self) -> dict[int, Any]:
        return draw_road(self.track, self.seed)

    @property
    def mechanics_event(self) -> bool:
        return mechanics_event(self.race.event)

    @property
    def swap_offered(self) -> bool:
        """Whether the draft will offer its first picker the swap: only one with an earlier
        Upgrade may swap (none before race 1; ``draft_flow.DraftFlow.mode``), for one of the 3
        cards the picks leave in the market (docs/rules.md §3.1)."""
        return bool(self.picks) and bool(self.earlier.get(self.picks[0]))

    def toggle_mechanics(self, car: str) -> None:
        self.mechanics[car] = -self.mechanics.get(car, 1)

    def cycle_deck(self) -> None:
        self.deck = next_deck(self.deck)

    def names(self) -> dict[str, str]:
        return {c.id: car_name(c) for c in self.season.cars}

    def draft(self) -> RoundDraft:
        basic, advanced = deck_flags(self.deck)
        drafted = tuple(card for cards in self.earlier.values() for card in cards)
        return start_round_draft(self.picks, seed=self.seed ^ 0xD4AF7, basic=basic,
                                 advanced=advanced, drafted=drafted)

    def setup(self, upgrades: Mapping[str, tuple[str, ...]]) -> Any:
        """The race's setup with each human's Upgrades and Sponsorship cards."""
        choices = {c: self.mechanics.get(c, 1) for c in self.picks} if \
            self.mechanics_event else None
        setup = self.season.next_race_setup(seed=self.seed, grid=self.grid,
                                            weather=self.weather, road=self.road,
                                            mechanics=choices)
        cars = tuple(car if car.legend else replace(
            car, upgrades=tuple(upgrades.get(car.id, ())), sponsor_cards=self.race.sponsors)
            for car in setup.cars)
        return replace(setup, cars=cars)


def plan_next_race(store: Any, season_id: str, seed: int | None = None) -> NextRace | None:
    """The next race of the season, or None when it is over or a race is still running."""
    import tracks

    stored = store.season(season_id)
    season = stored.season
    if season.over or stored.running is not None:
        return None
    seed = seed if seed is not None else random.SystemRandom().randrange(1, 2**31)
    track = tracks.load_track(season.next_race.track)
    grid = tuple(season.next_grid(seed))
    picks = season.draft_order(grid).picks
    earlier: dict[str, tuple[str, ...]] = {}
    if stored.race_ids:
        last = store.race_setup(stored.race_ids[-1])  # the stored setup: no replay
        earlier = {c.id: tuple(c.upgrades) for c in last.cars if not c.legend}
    return NextRace(season_id, stored, seed, track, grid, picks, earlier)
