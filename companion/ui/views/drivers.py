"""The human drivers on the New race and New season forms (Kivy-free): colour, name, handicap,
table seat, and the editing both forms share (add, remove, next colour, Legends, bonus)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from companion.i18n import LANGUAGES, _, translation
from companion.i18n.counts import fill

from .name_length import kept
from .names import CAR_COLOURS, COLOUR_NAMES, colour_name

MAX_LEGENDS = 5
MAX_BONUS = 6
MAX_SEATS = 8
"""Seats a table can have (``hardware.events.MAX_SEATS``)."""


@dataclass
class Driver:
    colour: str
    name: str = ""
    handicap: int = 0
    seat: int = 0
    """The table seat (1-8) whose dial and Ready button play this driver; 0 = not set yet."""

    @property
    def display_name(self) -> str:
        """The name typed, else the colour's name."""
        return self.stored_name or colour_name(self.colour)

    @property
    def stored_name(self) -> str:
        """The name the race or season keeps: the name typed (spaces trimmed), else "" for
        a driver left unnamed, who is then shown by the colour's name in the language of the
        moment ("Red", "紅", "빨강"), not frozen in the language the race was made in."""
        return kept(self.name)


@dataclass(frozen=True)
class NameClash:
    """Drivers' names that cannot stand (:meth:`DriverList.name_clash`)."""

    why: str
    """The reason in full (Start race greyed says it when tapped)."""
    said: str
    """The reason in short, said above the names (it fits two lines of the drivers' column
    at 800x480 with a 12-letter name)."""
    drivers: tuple[int, ...]
    """The drivers (indexes) whose name to change: framed."""


_WIDE = "[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff]"
_SPACE_BY_WIDE = re.compile(f"(?<={_WIDE}) | (?={_WIDE})")
"""A space beside a Chinese or Korean letter: those names are written without spaces ("小 明"
is "小明"; found by a table test)."""
ALIASES = {"grey": ("Gray",)}
"""Other spellings of a colour's English name the table may type."""


def name_key(name: str) -> str:
    """A name as the table hears it: letter case, spaces and full-width letters aside ("ana ",
    "Ana" and "Ａｎａ" are one name; "小 明" and "小明" too)."""
    key = " ".join(unicodedata.normalize("NFKC", name).casefold().split())
    return _SPACE_BY_WIDE.sub("", key)


def said_names(colours: Iterable[str], legends: bool = False) -> set[str]:
    """What the app calls the cars of ``colours`` in any of its languages (a race may change
    language on the way): the colour's name ("Red", "紅色", "빨강"), or with ``legends`` a
    Legend's ("Legend Red"), each as :func:`name_key` gives it."""
    colours = tuple(colours)
    said: set[str] = set()
    for language in LANGUAGES:
        words = translation(language).gettext
        for colour in colours:
            spellings = [words(COLOUR_NAMES[colour])]
            if language == "en":
                spellings += ALIASES.get(colour, ())
            for name in spellings:
                if legends:
                    name = words("Legend {colour}").format(colour=name)
                said.add(name_key(name))
    return said


def first_drivers() -> list[Driver]:
    """A new form's drivers: red at seat 1, blue at seat 2."""
    return [Driver("red", seat=1), Driver("blue", seat=2)]


class DriverList:
    """The drivers and Legends of a form (a base of the form dataclasses: they hold
    ``drivers``, ``legends`` and ``bonus``). Six cars at most, drivers and Legends together."""

    drivers: list[Driver]
    legends: int
    bonus: int

    def _cars_changed(self) -> None:
        """Called after the cars changed (the New race form keeps its grid in step)."""

    def legend_colours(self) -> list[str]:
        """Legends take the colours no driver uses, in the Legends mat order."""
        from companion.engine import LEGEND_COLOURS

        used = {d.colour for d in self.drivers}
        return [c for c in LEGEND_COLOURS if c not in used][: self.legends]

    def free_colours(self) -> list[str]:
        used = {d.colour for d in self.drivers}
        return [c for c in CAR_COLOURS if c not in used]

    def free_seats(self) -> list[int]:
        used = {d.seat for d in self.drivers}
        return [s for s in range(1, MAX_SEATS + 1) if s not in used]

    def add_driver(self) -> Driver | None:
        """A driver in the first free colour, at the first free seat (None: no room)."""
        free = self.free_colours()
        if not free or len(self.drivers) + self.legends >= len(CAR_COLOURS):
            return None
        driver = Driver(free[0], seat=self.free_seats()[0])
        self.drivers.append(driver)
        self._cars_changed()
        return driver

    def remove_driver(self, index: int) -> None:
        if len(self.drivers) > 1:
            del self.drivers[index]
            self._cars_changed()

    def next_colour(self, index: int) -> None:
        """Give driver ``index`` the next free colour."""
        free = self.free_colours()
        if not free:
            return
        order = list(CAR_COLOURS)
        start = order.index(self.drivers[index].colour)
        for step in range(1, len(order)):
            candidate = order[(start + step) % len(order)]
            if candidate in free:
                self.drivers[index].colour = candidate
                break
        self._cars_changed()

    def set_legends(self, count: int) -> None:
        room = len(CAR_COLOURS) - len(self.drivers)
        self.legends = max(0, min(count, MAX_LEGENDS, room))
        if not self.legends:
            self.bonus = 0  # the difficulty is the Legends' bonus: none to give it to
        self._cars_changed()

    def set_bonus(self, bonus: int) -> None:
        """The difficulty (the Legends' bonus on straights); none without a Legend (a table
        test set +2 with no Legend in the race: it applied to nothing)."""
        self.bonus = max(0, min(bonus, MAX_BONUS)) if self.legends else 0

    def difficulty_words(self) -> str:
        """What the difficulty stepper's figure means."""
        if not self.legends:
            return _("No Legends to speed up")
        if self.bonus:
            return _("Legends +{n} on straights").format(n=self.bonus)
        return _("Legends: cards as printed")

    # --- why a control is greyed out (a tap on it says so) -------------------------------

    def same_names(self) -> str:
        """Why the drivers' names cannot stand, or "" (:meth:`name_clash`)."""
        clash = self.name_clash()
        return clash.why if clash is not None else ""

    def name_clash(self) -> NameClash | None:
        """Why the drivers' names cannot stand (None when they can). Every ruling names the
        cars ("Ana to space 12"), a driver left unnamed by the colour's name, a Legend as
        "Legend Black", in any of the app's languages (the table may switch on the way), so a
        name is refused when it is, letter case and spaces aside (:func:`name_key`):

        * another driver's name, or the colour's name an unnamed driver is called by;
        * the colour's name of another car in the race (a driver's or a Legend's): the table
          sees that car in that colour. A driver may be named after their own car's colour;
        * how the app calls a Legend, "Legend Black", of any colour (it reads as a Legend).
        """
        legends = said_names(CAR_COLOURS, legends=True)
        for index, driver in enumerate(self.drivers):
            name = driver.stored_name
            if name_key(name) in legends:
                return NameClash(
                    fill(_("A driver is named {name}, as the app calls a Legend: give them "
                           "a name of their own."), name=name),
                    fill(_("{name} is what the app calls a Legend: change the name."),
                         name=name), (index,))
        cars = [d.colour for d in self.drivers] + self.legend_colours()
        for index, driver in enumerate(self.drivers):
            name = driver.stored_name
            if name and name_key(name) in said_names(c for c in cars if c != driver.colour):
                return NameClash(
                    fill(_("A driver is named {name}, the colour of another car: give them "
                           "a name of their own (a car without a name is called by its "
                           "colour)."), name=name),
                    fill(_("{name} is another car's colour: change the name."), name=name),
                    (index,))
        keys = [name_key(d.display_name) for d in self.drivers]
        for index, key in enumerate(keys):
            if key in keys[:index]:
                name = self.drivers[index].display_name
                return NameClash(
                    fill(_("Two drivers are named {name}: give each a name of their own "
                           "(the rulings name the cars)."), name=name),
                    fill(_("Two drivers are named {name}: change one name."), name=name),
                    tuple(i for i, other in enumerate(keys) if other == key))
        return None

    def why_no_more_cars(self) -> str:
        """Add driver (and Legends +) greyed: the cars are full."""
        return _("Six cars at most, drivers and Legends together: take one away first.")

    def why_no_more_legends(self) -> str:
        """Legends + greyed."""
        if self.legends >= MAX_LEGENDS:
            return _("{n} Legends at most.").format(n=MAX_LEGENDS)
        return self.why_no_more_cars()

    @staticmethod
    def why_no_fewer_legends() -> str:
        return _("No Legend to take away: this race has none.")

    @staticmethod
    def why_no_difficulty() -> str:
        """The difficulty's - and + greyed: no Legend races."""
        return _("The difficulty is the Legends' bonus on straights, and no Legend races: "
                 "add a Legend first.")

    @staticmethod
    def why_no_lower_bonus() -> str:
        return _("The Legends already move as their cards say: no bonus to take away.")

    @staticmethod
    def why_no_higher_bonus() -> str:
        return fill(_("Legends +{n} on straights is the highest difficulty."), n=MAX_BONUS)

    @staticmethod
    def why_no_fewer_drivers() -> str:
        """The last driver's X greyed."""
        return _("A race needs at least one driver.")
