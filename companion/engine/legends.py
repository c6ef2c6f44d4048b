"""The Legends: automated cars moved by one shared card per round (docs/rules.md §2).

A Legends card gives each of the six colours a helmet number (its straight-line speed) and a
diamond (0-3). Movement, from docs/rules.md §2.2 (the BGA implementation; the official text was not
available):

* On the straight (before the Legend Line of the next corner): move the number, unless that would
  cross the Corner Line; then stop ``diamond`` spaces short of the last space before the line.
* In the corner zone (past the Legend Line, up to the Corner Line): move the corner's speed limit
  plus the diamond, but never across more than one Corner Line; stop on the last space before the
  second line instead. Aggressive Legends: starting within the chevron distance of the line, one
  extra line may be crossed (two on a double chevron).
* When the next Corner Line lies beyond the finish line of the race (the final lap), just move the
  number (docs/rules.md §2.2 "Final lap").
* The difficulty bonus is added to every helmet number, never to the diamond or the corner move
  (docs/rules.md §2.4, docs/race-file.md ``legends.bonus``).

Legends never pay Heat, spin out, take Adrenaline, cool down, boost or slipstream.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import conditions, rng
from .evolve import evolve
from .explain import N_, Explanation, explain
from .state import DeckMode, LegendsDeck, RaceState
from .track import Corner

# The ten base Legends cards: number per colour, in LEGEND_COLOURS order
# (black, blue, green, red, grey, yellow). Source: docs/rules.md §2.1 table (BGA LegendCards.php,
# cross-checked with the fan app card for card). The diamond follows from the number.
LEGENDS_CARDS: dict[int, tuple[int, int, int, int, int, int]] = {
    1: (16, 18, 15, 13, 14, 11),
    2: (18, 16, 12, 17, 19, 13),
    3: (17, 14, 10, 11, 13, 15),
    4: (14, 12, 18, 15, 16, 17),
    5: (13, 17, 16, 10, 12, 19),
    6: (19, 10, 13, 14, 18, 12),
    7: (15, 13, 19, 18, 11, 14),
    8: (11, 19, 14, 12, 10, 16),
    9: (12, 11, 17, 19, 15, 10),
    10: (10, 15, 11, 16, 17, 18),
}
_COLUMN = {"black": 0, "blue": 1, "green": 2, "red": 3, "grey": 4, "yellow": 5}


def diamond_for(number: int) -> int:
    """The card column a helmet number sits in: 10-11 -> 0, 12-14 -> 1, 15-17 -> 2, 18-19 -> 3
    (docs/rules.md §2.1)."""
    if number <= 11:
        return 0
    if number <= 14:
        return 1
    if number <= 17:
        return 2
    return 3


def card_entry(card: int, colour: str) -> tuple[int, int]:
    """``(number, diamond)`` for a Legend colour on a Legends card."""
    number = LEGENDS_CARDS[card][_COLUMN[colour]]
    return number, diamond_for(number)


def draw(deck: LegendsDeck) -> tuple[int, LegendsDeck]:
    """Draw the next card of a virtual deck: the listed cards first, then seeded shuffles of all
    ten, reshuffling whenever a shuffle is used up (docs/race-file.md ``legends.cards``)."""
    if deck.listed_next < len(deck.listed):
        card = deck.listed[deck.listed_next]
        return card, evolve(deck, listed_next=deck.listed_next + 1, drawn=deck.drawn + (card,))
    remaining, state = deck.shuffled, deck.rng
    if not remaining:
        remaining, state = rng.shuffled(tuple(range(1, 11)), state)
    card = remaining[0]
    return card, evolve(deck, shuffled=remaining[1:], rng=state, drawn=deck.drawn + (card,))


@dataclass(frozen=True, slots=True)
class LegendMove:
    target: int
    why: Explanation


def _lines_allowed(state: RaceState, corner: Corner, spaces_to_line: int) -> int:
    """How many Corner Lines a Legend may cross this move (docs/rules.md §2.2 Aggressive Legends:
    allowed if ``C[k] - s + 1 <= A[k]``)."""
    if not state.deck.aggressive:
        return 1
    reach = spaces_to_line + 1
    if corner.aggressive_double and reach <= corner.aggressive_double:
        return 3
    if corner.aggressive and reach <= corner.aggressive:
        return 2
    return 1


def legend_move(state: RaceState, colour: str, distance: int, card: int) -> LegendMove:
    """Where a Legend at ``distance`` aims this round, and why (before spot placement)."""
    track = state.track
    number, diamond = card_entry(card, colour)
    number += state.deck.bonus
    line_at, corner = track.next_corner_line(distance)
    k = track.corner_number(corner)
    spaces_to_line = line_at - distance
    in_zone = spaces_to_line < track.legend_zone_length(corner)
    if not in_zone:
        # "B", the straight (docs/rules.md §2.2): the zone is decided first, and the final-lap
        # exception belongs to the straight only (docs/rules-decisions.md #23).
        if line_at >= state.finish_distance:
            return LegendMove(
                distance + number,
                explain(
                    N_("Legends card {card}: {car} moves its number {number}; "
                       "no corner before the finish line."),
                    card=card, car=colour, number=number,
                ),
            )
        if distance + number <= line_at:
            return LegendMove(
                distance + number,
                explain(
                    N_("Legends card {card}: {car} moves its number {number} "
                       "on the straight."),
                    card=card, car=colour, number=number,
                ),
            )
        stop = line_at - diamond
        if stop > distance:
            return LegendMove(
                stop,
                explain(
                    N_("Legends card {card}: {car}'s {number} would pass corner {corner}, "
                       "so it stops right before its line (diamond 0).") if diamond == 0
                    else N_("Legends card {card}: {car}'s {number} would pass corner "
                            "{corner}, so it stops {diamond} space(s) short of it "
                            "(diamond {diamond})."),
                    card=card, car=colour, number=number, corner=k, diamond=diamond,
                ),
            )
        # Already at or past its diamond space without being in the corner zone (only possible
        # where the zone is shorter than the diamond): it takes the corner, as a Legend waiting
        # at its diamond would. Open point: docs/rules-decisions.md #6 (docs/rules.md §8.1).
    move = corner.limit + diamond
    target = distance + move
    # the printed limit, whatever the corner's road token (docs/rules.md §2, "The limit a
    # Legend uses"): said when a token changes the drivers' limit there, else the table reads
    # "limit 7" beside a driver's "limit-6" as a mistake (found by a table test)
    token_limit = conditions.corner_limit(state, corner) != corner.limit
    allowed = _lines_allowed(state, corner, spaces_to_line)
    crossed = track.corner_lines_between(distance, target, state.laps)
    if len(crossed) > allowed:
        stop_at = crossed[allowed][0]
        second = track.corner_number(crossed[allowed][1])
        return LegendMove(
            stop_at,
            explain(
                N_("Legends card {card}: {car} takes corner {corner} at limit {limit} + "
                   "diamond {diamond} but may not cross corner {second} too, so it stops "
                   "right before it.") if not token_limit else
                N_("Legends card {card}: {car} takes corner {corner} at limit {limit} + "
                   "diamond {diamond} (a Legend uses the printed limit, not the road token) "
                   "but may not cross corner {second} too, so it stops right before it."),
                card=card, car=colour, corner=k, limit=corner.limit, diamond=diamond,
                second=second,
            ),
        )
    return LegendMove(
        target,
        explain(
            N_("Legends card {card}: {car} takes corner {corner} at limit {limit} + "
               "diamond {diamond} = {move} spaces.") if not token_limit else
            N_("Legends card {card}: {car} takes corner {corner} at limit {limit} + "
               "diamond {diamond} = {move} spaces (a Legend uses the printed limit, not the "
               "road token)."),
            card=card, car=colour, corner=k, limit=corner.limit, diamond=diamond, move=move,
        ),
    )


def new_deck(
    *,
    seed: int,
    listed: tuple[int, ...] = (),
    bonus: int = 0,
    physical: bool = False,
    aggressive: bool = True,
) -> LegendsDeck:
    return LegendsDeck(
        mode=DeckMode.PHYSICAL if physical else DeckMode.VIRTUAL,
        listed=listed,
        rng=rng.seed_state(seed),
        bonus=bonus,
        aggressive=aggressive,
    )
