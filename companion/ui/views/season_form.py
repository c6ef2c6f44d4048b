"""The New season form as plain data (Kivy-free): an official season or a custom one, and the
cars (human drivers and Legends).

A custom season is checked exactly as a stored one is read back: its ``heat-season/1``
document goes through :func:`companion.championship.parse_season`, whose errors name the race
and the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.i18n import _, listed, sentences
from companion.i18n.counts import fill

from .drivers import Driver, DriverList, first_drivers
from .modules_form import next_event
from .name_length import kept

KINDS = ("1961", "1962", "1963", "1964", "1965", "1966", "custom")


@dataclass
class CustomRace:
    track: str = "usa"
    event: str | None = None
    press: list[str] = field(default_factory=list)
    sponsors: int = 1

    def doc(self) -> dict[str, Any]:
        out: dict[str, Any] = {"track": self.track, "press": list(self.press),
                               "sponsors": self.sponsors}
        if self.event is not None:
            out["event"] = self.event
        return out


@dataclass
class SeasonForm(DriverList):
    kind: str = "1961"
    name: str = ""
    races: list[CustomRace] = field(default_factory=lambda: [CustomRace()])
    drivers: list[Driver] = field(default_factory=first_drivers)
    legends: int = 2
    bonus: int = 0

    # --- editing -------------------------------------------------------------------------------

    def step_kind(self, step: int) -> None:
        self.kind = KINDS[(KINDS.index(self.kind) + step) % len(KINDS)]

    def add_race(self) -> None:
        from companion.championship.seasons import MAX_RACES

        if len(self.races) < MAX_RACES:
            self.races.append(CustomRace())

    def remove_race(self, index: int) -> None:
        if len(self.races) > 1:
            del self.races[index]

    def step_track(self, index: int, step: int) -> None:
        import tracks

        ids = tracks.bundled_track_ids()
        race = self.races[index]
        race.track = ids[(ids.index(race.track) + step) % len(ids)] if race.track in ids \
            else ids[0]
        race.press = []

    def step_event(self, index: int, step: int) -> None:
        race = self.races[index]
        race.event = next_event(race.event, step)

    def toggle_press(self, index: int, letter: str) -> None:
        press = self.races[index].press
        if letter in press:
            press.remove(letter)
        else:
            press.append(letter)

    def cycle_sponsors(self, index: int) -> None:
        race = self.races[index]
        race.sponsors = (race.sponsors + 1) % 4

    # --- result --------------------------------------------------------------------------------

    def race_list(self) -> list[Any]:
        """The season's races: the official season's definitions, or the custom races (both
        have ``track``)."""
        if self.kind == "custom":
            return list(self.races)
        from companion.championship import SEASONS

        return list(SEASONS[self.kind].races)

    def doc(self) -> dict[str, Any]:
        """The custom season's ``heat-season/1`` document (a season left unnamed is stored as
        "Custom season", in English, and shown in the player's language: ``season_name``)."""
        from .names import CUSTOM_SEASON_NAME

        return {"format": "heat-season/1", "id": "custom",
                "name": kept(self.name) or CUSTOM_SEASON_NAME,
                "races": [race.doc() for race in self.races]}

    def definition(self) -> Any:
        """The :class:`SeasonDef`; raises ``SeasonError`` (one line, names the field)."""
        from companion.championship import SEASONS, parse_season

        if self.kind != "custom":
            return SEASONS[self.kind]
        return parse_season(self.doc())

    def cars(self) -> tuple[Any, ...]:
        from companion.engine import CarEntry

        humans = tuple(CarEntry(id=d.colour, name=d.stored_name, handicap=d.handicap)
                       for d in self.drivers)
        legends = tuple(CarEntry(id=c, legend=True) for c in self.legend_colours())
        return humans + legends

    def problem(self) -> str:
        """Why the season cannot be created, or ""."""
        from companion.championship import SeasonError

        try:
            definition = self.definition()
        except SeasonError as error:
            return _("This season cannot be created: {error}").format(error=error)
        for number, race in enumerate(definition.races, start=1):
            if not race.playable:
                from .names import track_title

                # the track as the table knows it (it read "第 2 場（germany）", its id)
                return _("Race {n} ({track}) cannot be played: the track is not in the "
                         "app.").format(n=number, track=track_title(race.track))
        return self.same_names()


def race_words(number: int, race: Any) -> str:
    """An official season's race in words: its track, Press Corners (with the corner each
    letter names) and the Sponsorship cards each driver draws."""
    from .names import track_title

    press = listed(race.press)
    if race.playable and race.press:
        import tracks

        from .modules_form import press_corner_number

        track = tracks.load_track(race.track)
        press = listed(_("{letter}: corner {n}").format(
            letter=letter, n=press_corner_number(track, letter)) for letter in race.press)
    text = fill(_("Race {n}: {track}. Press Corners: {press}. Each driver draws {cards} "
                  "Sponsorship card(s) before the race.") if race.sponsors else
                _("Race {n}: {track}. Press Corners: {press}. No Sponsorship cards to draw "
                  "before the race."),
        n=number, track=track_title(race.track), press=press or _("none"), cards=race.sponsors)
    if not race.playable:
        text = sentences(text, _("Cannot be played: the track is not in the app."))
    return text
