"""The championship points an event card gives, in words (Kivy-free; docs/rules.md §3.2, §3.3).

*Drivers' strike* gives the winner +2 and *Corruption in rules committee* places 1-3 +1 each.
Results and Standings showed those points with nothing to say where they came from: the
Standings' "11 (1)" under a legend of "points, then the place in brackets" (found by a table
test). Results says the bonus under the driver who got it (a race of a season only: a race
played alone scores no championship points), and the Standings' legend says which races gave
event points."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.engine.modules import EVENTS
from companion.i18n import _, listed
from companion.i18n.counts import fill_kept

from .words import event_title


def bonus_lines(event: str | None, place: int | None) -> list[str]:
    """What the event card adds to a finishing ``place``'s championship points, one line per
    bonus ("+2 points for the win: Drivers' strike"); none without a place or bonus."""
    card = EVENTS.get(event) if event is not None else None
    if card is None or place is None:
        return []
    lines = []
    if place == 1 and card.winner_bonus:
        lines.append(fill_kept(_("+{points} point(s) for the win: {event}"),
                               points=card.winner_bonus, event=event_title(card.id)))
    if place <= 3 and card.top_three_bonus:
        lines.append(fill_kept(_("+{points} point(s) for a top-three place: {event}"),
                               points=card.top_three_bonus, event=event_title(card.id)))
    return lines


def _races(numbers: list[int]) -> str:
    """ "Race 3", "Races 1, 3"."""
    if len(numbers) == 1:
        return fill_kept(_("Race {race}"), race=numbers[0])
    return fill_kept(_("Races {races}"), races=listed(str(n) for n in numbers))


def standings_note(races: Iterable[Any], standings: Iterable[Any]) -> list[str]:
    """The Standings legend's lines on event points: one per event card that gave points in
    the races played ("Race 3: +2 for the winner (Drivers' strike)."), short: the legend
    shares the table's column with its other lines; none when no race gave any. ``races``
    are the season's :class:`~companion.championship.SeasonRace` and ``standings`` its
    :class:`~companion.championship.Standing` lines."""
    races = tuple(races)
    given: dict[str, list[int]] = {}
    for line in standings:
        for number, points in enumerate(line.races, start=1):
            event = races[number - 1].event
            if points.bonus and event is not None and number not in given.get(event, []):
                given.setdefault(event, []).append(number)
    lines = []
    for event, numbers in sorted(given.items(), key=lambda item: min(item[1])):
        card = EVENTS[event]
        which = _races(sorted(numbers))
        if card.winner_bonus:
            lines.append(fill_kept(_("{races}: +{points} for the winner ({event})."),
                                   points=card.winner_bonus, races=which,
                                   event=event_title(event)))
        if card.top_three_bonus:
            lines.append(fill_kept(_("{races}: +{points} each for the top three ({event})."),
                                   points=card.top_three_bonus, races=which,
                                   event=event_title(event)))
    return lines
