"""The human drivers on the New race and New season forms (Kivy-free): colour, name, handicap,
table seat, and the editing both forms share (add, remove, next colour, Legends, bonus)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.i18n import _

from .names import CAR_COLOURS, colour_name

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
        return " ".join(self.name.split())


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
        self._cars_changed()

    def set_bonus(self, bonus: int) -> None:
        self.bonus = max(0, min(bonus, MAX_BONUS))

    # --- why a control is greyed out (a tap on it says so) -------------------------------

    def same_names(self) -> str:
        """Why the drivers' names cannot stand, or "": two drivers of one name (letter case
        and spaces aside) make every ruling about either ambiguous ("Ana to space 12")."""
        seen: set[str] = set()
        for driver in self.drivers:
            key = driver.display_name.casefold()  # its spaces already trimmed
            if key in seen:
                return _("Two drivers are named {name}: give each a name of their own "
                         "(the rulings name the cars).").format(name=driver.display_name)
            seen.add(key)
        return ""

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
    def why_no_lower_bonus() -> str:
        return _("The Legends already move as their cards say: no bonus to take away.")

    @staticmethod
    def why_no_higher_bonus() -> str:
        return _("Legends +{n} on straights is the highest difficulty.").format(n=MAX_BONUS)

    @staticmethod
    def why_no_fewer_drivers() -> str:
        """The last driver's X greyed."""
        return _("A race needs at least one driver.")
