"""Legend movement, the Legends deck and Legends in the race (docs/rules.md §2).

Every position below is a *distance* (``companion.engine.track``): on lap 1 the distance is the
space number, space ``s`` of lap 2 is ``L + s``, the grid is 0 and below. The states are built
with ``start_race`` and then ``dataclasses.replace`` to put the cars where a test needs them.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import BASE_TRACKS, BUNDLED_TRACKS, SOLO_DIR, inline_tracks, solo_race

import tracks
from companion import racefile
from companion.engine import (
    LEGEND_COLOURS,
    CarEntry,
    ChooseGear,
    EndTurn,
    LegendCard,
    Phase,
    RaceSetup,
    RaceState,
    Rejection,
    Reveal,
    RunRound,
    SetupError,
    Slipstream,
    Track,
    fill_grid,
    legends,
    play,
    start_race,
    validate,
)
from companion.engine.modules import Road
from companion.engine.placement import race_order_key

# docs/rules.md §2.1, the 10 base Legends cards as "number/diamond" per colour
# (Black, Blue, Green, Red, Gray, Yellow). Copied from docs/rules.md, independently of the engine.
RULES_TABLE = {
    1: "16/2 18/3 15/2 13/1 14/1 11/0",
    2: "18/3 16/2 12/1 17/2 19/3 13/1",
    3: "17/2 14/1 10/0 11/0 13/1 15/2",
    4: "14/1 12/1 18/3 15/2 16/2 17/2",
    5: "13/1 17/2 16/2 10/0 12/1 19/3",
    6: "19/3 10/0 13/1 14/1 18/3 12/1",
    7: "15/2 13/1 19/3 18/3 11/0 14/1",
    8: "11/0 19/3 14/1 12/1 10/0 16/2",
    9: "12/1 11/0 17/2 19/3 15/2 10/0",
    10: "10/0 15/2 11/0 16/2 17/2 18/3",
}
TABLE_COLOURS = ("black", "blue", "green", "red", "grey", "yellow")


def table_entry(card: int, colour: str) -> tuple[int, int]:
    number, diamond = RULES_TABLE[card].split()[TABLE_COLOURS.index(colour)].split("/")
    return int(number), int(diamond)


def card_giving(colour: str, number: int) -> int:
    """The Legends card that gives ``colour`` this helmet number (docs/rules.md §2.1 table)."""
    (card,) = [c for c in RULES_TABLE if table_entry(c, colour)[0] == number]
    return card


def track(track_id: str) -> Track:
    return tracks.load_track(track_id)


CarSpec = tuple[str, bool, int] | tuple[str, bool, int, bool]


def build(
    board: Track, cars: Sequence[CarSpec], *, laps: int | None = None,
    cards: Sequence[int] = (), bonus: int = 0, aggressive: bool = True,
    physical: bool = False, seed: int = 0,
) -> RaceState:
    """A race before round 1 with the cars moved to chosen distances; ``cars`` are
    ``(id, legend, distance[, race_line])``; the race order follows the positions."""
    setup = RaceSetup(
        track=board, cars=tuple(CarEntry(spec[0], legend=spec[1]) for spec in cars),
        laps=laps, seed=seed, legend_cards=tuple(cards), legend_bonus=bonus,
        aggressive_legends=aggressive, physical_legends_deck=physical,
    )
    state = start_race(setup).state
    taken: Counter[int] = Counter()
    for spec in cars:
        distance = spec[2]
        race_line = spec[3] if len(spec) == 4 else taken[distance] == 0
        taken[distance] += 1
        state = state.with_car(replace(state.car(spec[0]), distance=distance,
                                       race_line=race_line))
    order = tuple(c.id for c in sorted(state.cars, key=race_order_key))
    return replace(state, order=order)


def aim(board: Track | str, colour: str, distance: int, card: int, **kwargs: Any) -> int:
    """Where ``legend_move`` sends a lone Legend at ``distance`` with ``card``."""
    board = track(board) if isinstance(board, str) else board
    state = build(board, [(colour, True, distance)], cards=(card,), **kwargs)
    return legends.legend_move(state, colour, distance, card).target


def after_round(board: Track | str, colour: str, distance: int, card: int,
                **kwargs: Any) -> int:
    """Where a lone Legend stands after the engine plays one round with ``card``."""
    board = track(board) if isinstance(board, str) else board
    state = build(board, [(colour, True, distance)], cards=(card,), **kwargs)
    result = play(state, RunRound())
    assert not isinstance(result, Rejection), result.text()
    assert result.state.deck.drawn == (card,)
    return result.state.car(colour).distance


def ok(state: RaceState, action: Any) -> RaceState:
    result = play(state, action)
    assert not isinstance(result, Rejection), result.text()
    return result.state


# --- the Legends cards (docs/rules.md §2.1) ------------------------------------------------------


def test_engine_cards_are_the_rules_table() -> None:
    """docs/rules.md §2.1 table (BGA LegendCards.php, cross-checked with the fan app)."""
    assert sorted(legends.LEGENDS_CARDS) == list(range(1, 11))
    for card in RULES_TABLE:
        for colour in TABLE_COLOURS:
            assert legends.card_entry(card, colour) == table_entry(card, colour), (card, colour)


@pytest.mark.parametrize("colour", LEGEND_COLOURS)
def test_each_colour_gets_every_value_once_over_the_ten_cards(colour: str) -> None:
    """docs/rules.md §2.1: across the ten cards each colour gets every number 10-19 once."""
    numbers = [legends.card_entry(card, colour)[0] for card in range(1, 11)]
    assert sorted(numbers) == list(range(10, 20))


def test_every_card_gives_each_colour_one_number() -> None:
    """docs/rules.md §2.1: a card gives each of the six colours one helmet number."""
    for card, numbers in legends.LEGENDS_CARDS.items():
        assert len(numbers) == len(LEGEND_COLOURS), card


@pytest.mark.parametrize(
    ("number", "diamond"),
    [(10, 0), (11, 0), (12, 1), (13, 1), (14, 1), (15, 2), (16, 2), (17, 2), (18, 3), (19, 3)],
)
def test_diamond_follows_from_the_number(number: int, diamond: int) -> None:
    """docs/rules.md §2.1: 10-11 -> diamond 0, 12-14 -> 1, 15-17 -> 2, 18-19 -> 3."""
    assert legends.diamond_for(number) == diamond
    colour = "green"
    assert legends.card_entry(card_giving(colour, number), colour) == (number, diamond)


# --- movement on the straight (docs/rules.md §2.2 branch "B") ------------------------------------


def test_straight_move_is_the_helmet_number() -> None:
    """docs/rules.md §2.3 example 1: USA, Green on 14, card 3 gives 10/0; 14 + 10 = 24 <= 33."""
    assert aim("usa", "green", 14, 3) == 24
    assert after_round("usa", "green", 14, 3) == 24


def test_straight_move_may_end_on_the_space_before_the_corner_line() -> None:
    """docs/rules.md §2.2: move N if s + N <= C[k] (the move does not cross corner k): USA corner
    2 is after 33; green 10 from 23 ends exactly on 33."""
    assert aim("usa", "green", 23, card_giving("green", 10)) == 33


@pytest.mark.parametrize(
    ("number", "start", "diamond", "stop"),
    [(11, 23, 0, 33), (13, 22, 1, 32), (16, 20, 2, 31), (19, 20, 3, 30)],
)
def test_straight_stops_diamond_short_of_the_corner(
    number: int, start: int, diamond: int, stop: int
) -> None:
    """docs/rules.md §2.2 "B": a number that would cross corner k stops on C[k] - D ("D = 0 -> the
    space right before the Corner Line"). USA corner 2: line after 33."""
    card = card_giving("green", number)
    assert table_entry(card, "green") == (number, diamond)
    assert start + number > 33
    assert aim("usa", "green", start, card) == stop
    assert after_round("usa", "green", start, card) == stop


def test_a_stop_short_of_the_corner_says_how_far_in_words() -> None:
    """docs/rules.md §2.2 "B": the ruling says where the Legend stops: "right before its
    line" for diamond 0 (not "0 spaces short of it"), "N spaces short of it" otherwise."""
    board = track("usa")
    for number, start, stop, words in (
            (11, 23, 33, "so it stops right before its line (diamond 0)."),
            (13, 22, 32, "so it stops 1 space short of it (diamond 1)."),
            (16, 20, 31, "so it stops 2 spaces short of it (diamond 2).")):
        card = card_giving("green", number)
        state = build(board, [("green", True, start)], cards=(card,))
        move = legends.legend_move(state, "green", start, card)
        assert move.target == stop
        assert move.why.text().endswith(words), move.why.text()


def test_worked_example_2_stops_three_short() -> None:
    """docs/rules.md §2.3 example 2: Green on 24, card 4 gives 18/3: 42 > 33, stop on 33 - 3 =
    30."""
    assert aim("usa", "green", 24, 4) == 30


def test_straight_at_or_past_its_diamond_takes_the_corner() -> None:
    """Open point (docs/rules.md §8.1; legends.py "Already at or past its diamond space"): South
    Africa corner 3 (line after 24, limit 2, Legend Line after 22) has a 2-space zone, so a Legend
    on 22 with diamond 2 or 3 is on or past its stop space: it takes the corner, limit + diamond,
    instead of standing still or going backwards (the BGA "101 spaces" wrap bug 190947)."""
    assert aim("south-africa", "green", 22, card_giving("green", 15)) == 22 + 2 + 2
    assert aim("south-africa", "green", 22, card_giving("green", 18)) == 22 + 2 + 3
    # With diamond 1 the stop space (23) is still ahead: normal straight stop.
    assert aim("south-africa", "green", 22, card_giving("green", 13)) == 23


# --- the corner zone (docs/rules.md §2.2 branch "A") ---------------------------------------------


def test_worked_example_3_corner_zone_moves_limit_plus_diamond() -> None:
    """docs/rules.md §2.3 example 3: Green on 30 (in 28..33), card 7 gives 19/3: 3 + 3 = 6 -> 36."""
    assert aim("usa", "green", 30, 7) == 36
    assert after_round("usa", "green", 30, 7) == 36


@pytest.mark.parametrize(("road", "noted"), [(None, False), (Road.LIMIT_MINUS, True),
                                             (Road.LIMIT_PLUS, True), (Road.OVERHEAT, False)])
def test_a_legend_in_a_road_token_s_corner_uses_the_printed_limit_and_says_so(
        road: Road | None, noted: bool) -> None:
    """docs/rules.md §2 ("The limit a Legend uses"): the printed limit, whatever the corner's
    road token. Where the token changes the drivers' limit, the sentence says the Legend's is
    the printed one: "limit 3" beside a driver's "limit-2 (printed 3, road token -1)" read as a
    mistake (found by a table test). Example 3's move (3 + 3 = 6) is unchanged."""
    board = track("usa")
    line = board.corners[1].line_after
    state = build(board, [("green", True, 30)], cards=(7,))
    if road is not None:
        state = replace(state, modules=replace(state.modules, road={line: road}))
    move = legends.legend_move(state, "green", 30, 7)
    assert move.target == 36
    said = move.why.text()
    assert said.startswith("Legends card 7: green takes corner 2 at limit 3 + diamond 3 = 6")
    assert ("a Legend uses the printed limit, not the road token" in said) == noted


@pytest.mark.parametrize(("number", "diamond"), [(10, 0), (12, 1), (15, 2), (18, 3)])
def test_corner_zone_ignores_the_number(number: int, diamond: int) -> None:
    """docs/rules.md §2.2 "A": in the corner zone "move = S[k] + D": USA corner 2, limit 3; from 28
    the move is 3 + D whatever the helmet number."""
    assert aim("usa", "green", 28, card_giving("green", number)) == 28 + 3 + diamond


def test_first_space_after_the_legend_line_is_in_the_zone() -> None:
    """docs/rules.md §2.2: the corner zone is the spaces L[k]+1 .. C[k]; BGA fix 98944:
    the first space after the Legend Line is already in the corner zone. USA corner 2: Legend Line
    after 27. Card 3 gives green 10/0."""
    assert aim("usa", "green", 28, 3) == 28 + 3  # zone: limit 3 + diamond 0
    assert aim("usa", "green", 33, 3) == 33 + 3  # the last space before the Corner Line


def test_the_legend_line_space_itself_is_not_in_the_zone() -> None:
    """docs/rules.md §2.2: the zone starts at L[k] + 1, so a Legend on L[k] (USA 27) is on the
    straight: 27 + 10 = 37 would cross the line after 33, so it stops on 33 - 0."""
    assert aim("usa", "green", 27, 3) == 33


def test_worked_example_4_never_more_than_one_corner_line() -> None:
    """docs/rules.md §2.3 example 4: Great Britain, Legend on 29, corner 2 after 30 (limit 6),
    corner 3 after 37. Diamond 3: 6 + 3 = 9 would reach 38 across two lines, so it stops on 37 (BGA
    fix 107185 "Legend clearing two corners")."""
    card = card_giving("green", 18)
    assert aim("great-britain", "green", 29, card, aggressive=False) == 37
    assert after_round("great-britain", "green", 29, card, aggressive=False) == 37
    # Aggressive Legends at that corner only from space 30 (distance 1): 29 is too far back.
    assert aim("great-britain", "green", 29, card, aggressive=True) == 37


def test_aggressive_legends_cross_a_second_line_from_the_chevron() -> None:
    """docs/rules.md §2.2 Aggressive Legends / §2.3 example 4: GB corner 2 has a chevron at distance
    1 (space 30): starting there, a Legend may cross one extra line: 30 + 9 = 39, across the lines
    after 30 and 37. With the option off it stops on 37."""
    card = card_giving("green", 18)
    assert aim("great-britain", "green", 30, card, aggressive=True) == 39
    assert after_round("great-britain", "green", 30, card, aggressive=True) == 39
    assert aim("great-britain", "green", 30, card, aggressive=False) == 37


def test_aggressive_option_is_on_by_default() -> None:
    """docs/rules.md §2.2: Aggressive Legends are on by default (a BGA option since 2024)."""
    setup = RaceSetup(track=track("great-britain"), cars=(CarEntry("green", legend=True),))
    assert setup.aggressive_legends is True
    assert start_race(setup).state.deck.aggressive is True


def test_nederland_double_chevron_allows_three_lines() -> None:
    """docs/rules.md §2.2: two extra lines within Nederland's double chevron; §6.3 Nederland corner
    1: line after 9, limit 5, aggressive 3, double 1; then lines after 13 (chicane) and 16. From 9
    with diamond 3: 5 + 3 = 8 -> 17, across 9, 13 and 16."""
    board = track("nederland")
    first = board.corners[0]
    assert (first.line_after, first.aggressive, first.aggressive_double) == (9, 3, 1)
    card = card_giving("green", 18)
    assert aim(board, "green", 9, card) == 17
    assert aim(board, "green", 9, card, aggressive=False) == 13


def test_single_chevron_distance_allows_only_one_extra_line() -> None:
    """docs/rules.md §2.2 data terms: allowed if C[k] - s + 1 <= A[k]; double chevron within
    aggressive_double. Inline track, lines after 10, 12, 14; corner 1 limit 5, chevrons 3 and 1.
    From 9 (distance 2: single chevron) the Legend crosses 10 and 12, stops on 14; from 10 it
    crosses all three."""
    board = tracks.track_from_dict({
        "id": "double-chevron", "spaces": 30, "laps": 2, "heat": 6, "stress": 3,
        "corners": [
            {"line_after": 10, "limit": 5, "legend_line_after": 4, "aggressive": 3,
             "aggressive_double": 1},
            {"line_after": 12, "limit": 5, "legend_line_after": 10},
            {"line_after": 14, "limit": 5, "legend_line_after": 12},
        ],
    })
    card = card_giving("green", 18)
    assert aim(board, "green", 10, card) == 18
    assert aim(board, "green", 9, card) == 14
    assert aim(board, "green", 8, card) == 14  # distance 3: single chevron, 16 would be 3 lines
    assert aim(board, "green", 7, card) == 12  # distance 4 > 3: no chevron, only one line
    assert aim(board, "green", 10, card, aggressive=False) == 12


# --- chicanes (docs/rules.md §6 expansion tracks; BGA bug 193578) --------------------------------


def test_japan_chicane_10_12() -> None:
    """docs/rules.md §6 Japan: 10:4:3 (aggr 3) and 12:4:10 (chicane). A Legend in corner 1's zone
    with limit 4 + diamond 3 stops before the second chicane line unless the chevron allows both."""
    card = card_giving("green", 18)
    assert aim("japan", "green", 5, card) == 12  # 5 + 7 = 12: only the line after 10
    assert aim("japan", "green", 6, card) == 12  # 13 would cross 10 and 12
    assert aim("japan", "green", 8, card) == 15  # chevron distance 3: both lines
    assert aim("japan", "green", 8, card, aggressive=False) == 12
    # Between the two lines the Legend is in the second line's zone (Legend Line after 10).
    assert aim("japan", "green", 11, card) == 11 + 4 + 3


def test_mexico_chicane_50_51() -> None:
    """docs/rules.md §6 Mexico: 50:2:45 (aggr 3) and 51:2:50 (chicane)."""
    card = card_giving("green", 18)
    assert aim("mexico", "green", 46, card) == 51  # 46 + 5 = 51: only the line after 50
    assert aim("mexico", "green", 47, card) == 51  # 52 would cross 50 and 51
    assert aim("mexico", "green", 48, card) == 53  # chevron distance 3
    assert aim("mexico", "green", 48, card, aggressive=False) == 51
    assert aim("mexico", "green", 51, card) == 51 + 2 + 3  # second line's own zone


def test_espana_chicane_29_32() -> None:
    """docs/rules.md §6 España: 29:4:22 (a3) and 32:4:22 (chicane): both Legend Lines after 22."""
    card = card_giving("green", 18)
    assert aim("espana", "green", 23, card) == 30
    assert aim("espana", "green", 26, card) == 32  # 33 would cross 29 and 32
    assert aim("espana", "green", 27, card) == 34  # chevron distance 3
    assert aim("espana", "green", 27, card, aggressive=False) == 32
    # Past the line after 29 the Legend is still inside the zone of the line after 32.
    assert aim("espana", "green", 30, card) == 30 + 4 + 3


def test_espana_chicane_95_98() -> None:
    """docs/rules.md §6 España: 95:4:92 (a3), 98:4:95 (chicane, a1), 103:3:98."""
    card = card_giving("green", 18)
    assert aim("espana", "green", 93, card) == 100  # chevron: both chicane lines
    assert aim("espana", "green", 93, card, aggressive=False) == 98
    assert aim("espana", "green", 96, card) == 103  # line after 98 only
    assert aim("espana", "green", 97, card) == 103  # 104 would cross 98 and 103
    assert aim("espana", "green", 98, card) == 105  # chevron distance 1 at the line after 98


# --- a corner zone across the finish line, and the final lap --------------------------------

WRAP = {
    "id": "wrap-30", "spaces": 30, "laps": 2, "heat": 6, "stress": 3,
    "corners": [
        {"line_after": 3, "limit": 3, "legend_line_after": 26},
        {"line_after": 15, "limit": 4, "legend_line_after": 10},
    ],
}


def test_corner_zone_wraps_past_the_finish_line() -> None:
    """docs/rules.md §2.2: the zone is L[k]+1 .. C[k] modulo the track length; BGA bug 190947 (wrap
    around). Inline 30-space track, Legend Line after 26, Corner Line after 3 (limit 3): the zone
    is 27..30 and 1..3 of the next lap. Not the final lap (2 laps)."""
    board = tracks.track_from_dict(WRAP)
    card = card_giving("green", 15)  # 15/2
    assert aim(board, "green", 27, card) == 27 + 3 + 2
    assert aim(board, "green", 30, card) == 30 + 3 + 2
    assert aim(board, "green", 30 + 2, card) == 32 + 3 + 2  # space 2 of lap 2
    # On the Legend Line space the Legend is on the straight: 26 + 15 would cross the line after
    # space 3 of lap 2 (distance 33), so it stops diamond 2 short: distance 31 = space 1, lap 2.
    assert aim(board, "green", 26, card) == 31
    state = build(board, [("green", True, 26)], cards=(card,))
    doc = racefile.state_document(ok(state, RunRound()))
    assert (doc["cars"]["green"]["lap"], doc["cars"]["green"]["space"]) == (2, 1)


def test_corner_zone_wrapping_includes_the_grid() -> None:
    """docs/rules.md §2.2 zone modulo the track length; docs/race-file.md: pole is space L on the
    grid. On the wrap track the pole (distance 0 = space 30) is in the zone of the line after 3."""
    board = tracks.track_from_dict(WRAP)
    card = card_giving("green", 18)
    assert aim(board, "green", 0, card) == 0 + 3 + 3


def test_final_lap_wrapping_zone_still_takes_the_corner() -> None:
    """docs/rules.md §2.2: the corner-zone branch "A" (move S[k] + D) is decided first;
    the final-lap exception "(final lap and the finish line comes before corner k): move = N" is
    part of the straight branch "B" only (as in BGA LegendTrait). On the last lap of the wrap
    track a Legend on 27 is in the zone of the line after 3 (beyond the finish), so it moves
    limit 3 + diamond 0 = 3 spaces to 30, not its helmet number 11 across the line."""
    board = tracks.track_from_dict(WRAP)
    card = card_giving("green", 11)
    assert aim(board, "green", 27, card, laps=1) == 30


def test_final_lap_moves_the_number_across_the_finish() -> None:
    """docs/rules.md §2.3 example 5: USA final lap, Legend on 60; the next corner (after 12) lies
    beyond the finish line (after 69), so it just moves its number: 15 -> 75, finished."""
    card = card_giving("green", 15)
    assert aim("usa", "green", 60, card, laps=1) == 75
    state = build(track("usa"), [("green", True, 60)], laps=1, cards=(card,))
    after = ok(state, RunRound())
    assert after.car("green").finished_place == 1
    assert after.over


def test_final_lap_exception_vs_the_same_space_on_a_non_final_lap() -> None:
    """docs/rules.md §2.2 "B": "(final lap and the finish line comes before corner k): move = N".
    USA space 60 with card 7 (green 19/3) plus bonus 5 = 24: on the final lap 60 + 24 = 84;
    with a lap to go the line after 12 of lap 2 (distance 81) is corner k, so it stops on
    81 - 3 = 78 (space 9 of lap 2)."""
    card = card_giving("green", 19)
    assert aim("usa", "green", 60, card, laps=1, bonus=5) == 84
    assert aim("usa", "green", 60, card, laps=2, bonus=5) == 78
    # Without the bonus both end on 79: 60 + 19 does not reach the line after 12 of lap 2.
    assert aim("usa", "green", 60, card, laps=1) == aim("usa", "green", 60, card, laps=2) == 79


def test_corner_lines_beyond_the_finish_are_ignored_in_the_corner_zone() -> None:
    """docs/rules.md §2.2: Corner Lines after the end of the race are ignored (§1.9). Inline track
    with lines after 3 and 28 (limit 5): from 27 with diamond 3 the move of 8 crosses the line after
    28 and then the line after 3 of lap 2. On the final lap that second line is past the finish and
    does not count (-> 35); with a lap to go it stops on the space before it (distance 33)."""
    board = tracks.track_from_dict({
        "id": "late-corner", "spaces": 30, "laps": 1, "heat": 6, "stress": 3,
        "corners": [
            {"line_after": 3, "limit": 3, "legend_line_after": 1},
            {"line_after": 28, "limit": 5, "legend_line_after": 24},
        ],
    })
    card = card_giving("green", 18)
    assert aim(board, "green", 27, card, laps=1) == 35
    assert aim(board, "green", 27, card, laps=2) == 33


# --- difficulty bonus (docs/rules.md §2.4) -------------------------------------------------------


def test_bonus_is_added_to_the_number_on_the_straight() -> None:
    """docs/rules.md §2.4: a bonus on every helmet number, never on the diamond (BGA +1 to +6);
    docs/race-file.md legends.bonus. USA 14, card 3 (green 10) + 3 = 13 -> 27."""
    assert aim("usa", "green", 14, 3, bonus=3) == 27
    assert after_round("usa", "green", 14, 3, bonus=3) == 27


def test_bonus_keeps_the_diamond_of_the_printed_number() -> None:
    """docs/rules.md §2.4 (diamond unchanged): green 10/0 + bonus 4 = 14 from 20 crosses 33, and
    stops diamond 0 short (33), not diamond 1 (the column of a printed 14)."""
    assert aim("usa", "green", 20, 3, bonus=4) == 33


def test_bonus_does_not_change_the_corner_move() -> None:
    """docs/rules.md §2.4 and §2.2 "A": the corner move is S[k] + D; the bonus is not in it."""
    assert aim("usa", "green", 30, 7, bonus=6) == aim("usa", "green", 30, 7) == 36


# --- the deck: one card per round -----------------------------------------------------------


def test_virtual_deck_draws_listed_cards_then_seeded_shuffles() -> None:
    """docs/race-file.md legends.cards: "the Legends cards in the order they are drawn; when the
    list runs out, the deck is reshuffled from seed"; docs/rules.md §2.2 "reshuffle all 10 when
    empty"."""
    deck = legends.new_deck(seed=5, listed=(3, 7, 3))
    drawn = []
    for _ in range(23):
        card, deck = legends.draw(deck)
        drawn.append(card)
    assert drawn[:3] == [3, 7, 3]
    assert sorted(drawn[3:13]) == list(range(1, 11))
    assert sorted(drawn[13:23]) == list(range(1, 11))
    assert deck.drawn == tuple(drawn)


def test_same_seed_same_draws_other_seed_other_draws() -> None:
    """Replays must be identical (docs/race-file.md seed); the engine keeps no global random
    state."""

    def draws(seed: int) -> list[int]:
        deck = legends.new_deck(seed=seed)
        out = []
        for _ in range(20):
            card, deck = legends.draw(deck)
            out.append(card)
        return out

    assert draws(1) == draws(1)
    assert draws(1) != draws(2)


def legends_marathon(seed: int, cards: Sequence[int] = ()) -> list[RaceState]:
    """Three Legends alone for 12 rounds of a long race (Legends-only rounds need RunRound)."""
    setup = RaceSetup(
        track=track("usa"), laps=6, seed=seed, legend_cards=tuple(cards),
        cars=tuple(CarEntry(c, legend=True) for c in ("black", "green", "yellow")),
    )
    states = [start_race(setup).state]
    for _ in range(12):
        states.append(ok(states[-1], RunRound()))
    return states


def test_one_card_per_round_for_all_legends() -> None:
    """docs/rules.md §2.2: that one card moves every Legend this round."""
    state = build(track("usa"), [("black", True, 15), ("green", True, 14), ("yellow", True, 13)],
                  cards=(8,))
    result = play(state, RunRound())
    assert not isinstance(result, Rejection)
    assert result.state.deck.drawn == (8,)
    moves = [o for o in result.outcomes if o.kind == "legend"]
    assert [o.car for o in moves] == ["black", "green", "yellow"]
    assert {o.why.params["card"] for o in moves} == {8}
    # Card 8: black 11, green 14, yellow 16 (all on the straight before the line after 33).
    assert [result.state.car(c).distance for c in ("black", "green", "yellow")] == [26, 28, 29]
    states = legends_marathon(4, cards=(2, 9))
    assert [len(s.deck.drawn) for s in states] == list(range(13))
    assert states[-1].deck.drawn[:2] == (2, 9)


def test_card_is_drawn_when_the_first_legend_acts() -> None:
    """docs/rules.md §2.2: "WHEN a Legend's turn comes ... if no Legends card revealed this round:
    reveal top card". A human ahead plays first; the card is drawn only after its turn."""
    state = build(track("usa"), [("red", False, 20), ("green", True, 14)], cards=(3,))
    state = ok(state, ChooseGear("red", 1))
    assert state.current_car == "red"
    assert state.legend_card is None and state.deck.drawn == ()
    state = ok(state, Reveal("red", (2,)))
    assert state.deck.drawn == ()
    result = play(state, EndTurn("red"))
    assert not isinstance(result, Rejection)
    kinds = [o.kind for o in result.outcomes]
    assert kinds.index("legend_card") < kinds.index("legend")
    assert result.state.deck.drawn == (3,)
    assert result.state.round == 1


def test_no_legends_no_cards() -> None:
    """docs/rules.md §2.2: the card is drawn when a Legend acts; a race without Legends draws
    none."""
    state = build(track("usa"), [("red", False, 0)])
    state = ok(ok(ok(state, ChooseGear("red", 1)), Reveal("red", (3,))), EndTurn("red"))
    assert state.round == 1 and state.deck.drawn == ()


def test_seeded_legends_races_replay_identically() -> None:
    """docs/race-file.md seed: "seeds everything random that the file does not pin"."""
    first, again, other = legends_marathon(9), legends_marathon(9), legends_marathon(10)
    assert [s.deck.drawn for s in first] == [s.deck.drawn for s in again]
    assert [racefile.state_document(s) for s in first] == [
        racefile.state_document(s) for s in again
    ]
    assert first[-1].deck.drawn != other[-1].deck.drawn


def test_export_pins_the_drawn_cards_so_a_replay_is_identical() -> None:
    """racefile.export: "The Legends cards actually drawn are written out, so a replay draws the
    same cards whatever the deck mode was at the table"."""
    setup = RaceSetup(track=track("usa"), seed=3, laps=1,
                      cars=(CarEntry("green", legend=True), CarEntry("red", "Ana")))
    state = start_race(setup).state
    actions: list[Any] = []
    docs = []
    for _ in range(3):
        for action in (ChooseGear("red", 1), Reveal("red", (2,)), EndTurn("red")):
            actions.append(action)
            state = ok(state, action)
        docs.append(racefile.state_document(state))
    doc = racefile.export(setup, actions)
    assert doc["legends"]["cards"] == list(state.deck.drawn)
    assert len(state.deck.drawn) == 3
    replayed = [racefile.state_document(s) for s in racefile.replay(racefile.parse(doc))]
    assert replayed == docs


# --- the physical deck ----------------------------------------------------------------------


def physical_race() -> RaceState:
    return build(track("usa"), [("green", True, 14), ("black", True, 13), ("red", False, 5)],
                 physical=True)


def test_physical_deck_waits_for_the_card() -> None:
    """docs/race-file.md / state.py DeckMode.PHYSICAL: "The table draws real Legends cards and
    enters each number"; the race waits for it when the first Legend acts (docs/rules.md §2.2)."""
    state = ok(physical_race(), ChooseGear("red", 1))
    assert state.phase is Phase.TURNS
    assert state.current_car == "green"
    assert state.awaiting_legend_card
    assert state.car("green").distance == 14
    assert validate(state, Reveal("red", (3,))) is not None  # not red's turn yet
    state = ok(state, LegendCard(3))
    assert not state.awaiting_legend_card
    # Card 3: green 10 from 14 -> 24, black 17 from 13 -> 30 (short of the line after 33).
    assert state.car("green").distance == 24
    assert state.car("black").distance == 30
    assert state.current_car == "red"
    assert state.deck.drawn == (3,)


@pytest.mark.parametrize("card", [0, 11, -1, True, "3"])
def test_physical_deck_rejects_invalid_card_numbers(card: Any) -> None:
    """Legends cards are numbered 1-10 (docs/rules.md §2.1)."""
    state = ok(physical_race(), ChooseGear("red", 1))
    rejection = validate(state, LegendCard(card))
    assert isinstance(rejection, Rejection)
    assert "1-10" in rejection.text()
    assert isinstance(play(state, LegendCard(card)), Rejection)


def test_physical_deck_card_only_when_needed() -> None:
    """Only one card a round, and only when a Legend is about to act (docs/rules.md §2.2)."""
    state = physical_race()
    assert validate(state, LegendCard(3)) is not None  # planning: no card yet
    state = ok(ok(state, ChooseGear("red", 1)), LegendCard(3))
    assert validate(state, LegendCard(4)) is not None  # already drawn this round
    state = ok(ok(state, Reveal("red", (2,))), EndTurn("red"))
    assert state.round == 1
    state = ok(state, ChooseGear("red", 1))
    assert state.awaiting_legend_card
    state = ok(state, LegendCard(7))
    assert state.deck.drawn == (3, 7)


def test_physical_race_exports_to_a_replayable_file() -> None:
    """racefile.export writes the drawn cards, so a physical-deck race replays identically."""
    setup = RaceSetup(track=track("usa"), laps=1, physical_legends_deck=True,
                      cars=(CarEntry("green", legend=True), CarEntry("red")))
    state = start_race(setup).state
    actions: list[Any] = [ChooseGear("red", 1), LegendCard(5), Reveal("red", (3,)),
                          EndTurn("red"), ChooseGear("red", 2), LegendCard(9),
                          Reveal("red", (3, 4)), EndTurn("red")]
    for action in actions:
        state = ok(state, action)
    doc = racefile.export(setup, actions)
    assert doc["legends"]["cards"] == [5, 9]
    final = list(racefile.replay(racefile.parse(doc)))[-1]
    assert racefile.state_document(final) == racefile.state_document(state)


# --- Legends in the race ---------------------------------------------------------------------


def test_legend_is_blocked_by_full_space() -> None:
    """docs/rules.md §2.4: Legends act in race order, take spots and block; §1.3: the same
    placement rule places every move, the Legends' too. Two humans land on
    24; the Legend aiming for 24 (card 3, green 10 from 14) goes to 23, Race Line spot."""
    state = build(track("usa"), [("red", False, 20), ("blue", False, 21), ("green", True, 14)],
                  cards=(3,))
    state = ok(ok(state, ChooseGear("red", 1)), ChooseGear("blue", 1))
    assert state.current_car == "blue"
    state = ok(ok(state, Reveal("blue", (3,))), EndTurn("blue"))
    state = ok(state, Reveal("red", (4,)))
    result = play(state, EndTurn("red"))
    assert not isinstance(result, Rejection)
    green = result.state.car("green")
    assert (green.distance, green.race_line) == (23, True)
    assert any(o.kind == "blocked" and o.car == "green" for o in result.outcomes)


def test_legends_take_spots_and_block_humans() -> None:
    """docs/rules.md §2.4 (Legends take spots, block); §1.3 placement. Card 3: green 10 from 14 and
    red 11 from 13 both reach 24 (Race Line, then the other spot); the human aiming for 24 is
    blocked and goes to 23."""
    state = build(track("usa"), [("green", True, 14), ("red", True, 13), ("ana", False, 12)],
                  cards=(3,))
    state = ok(state, ChooseGear("ana", 3))  # two gears up: 1 Heat
    assert state.car("green").distance == 24 and state.car("green").race_line
    assert state.car("red").distance == 24 and not state.car("red").race_line
    state = ok(state, Reveal("ana", (4, 4, 4)))
    assert (state.car("ana").distance, state.car("ana").race_line) == (23, True)


def test_legend_gives_slipstream_to_a_human() -> None:
    """docs/rules.md §2.4 (Legends give slipstream); §1.8: a car on the space directly in
    front."""
    state = build(track("usa"), [("green", True, 14), ("ana", False, 10)], cards=(3,))
    state = ok(state, ChooseGear("ana", 3))
    assert state.car("green").distance == 24
    state = ok(state, Reveal("ana", (4, 4, 5)))
    assert state.car("ana").distance == 23
    assert validate(state, Slipstream("ana")) is None
    result = play(state, Slipstream("ana"))
    assert not isinstance(result, Rejection)
    assert result.state.car("ana").distance == 25
    (slip,) = [o for o in result.outcomes if o.kind == "slipstream"]
    assert slip.why.params["other"] == "green"


@pytest.mark.parametrize(
    ("legends_ahead", "legends_behind", "entitled"),
    [
        (1, 0, True),   # 2 cars, human last
        (0, 1, False),  # 2 cars, the Legend behind is last
        (2, 2, False),  # 5 cars, human 3rd
        (3, 1, True),   # 5 cars, human 4th: the last two get it with 5+ cars
        (3, 0, True),   # 4 cars, human last
        (2, 1, False),  # 4 cars, human 3rd: only the last one with fewer than 5
    ],
)
def test_legends_count_for_adrenaline(legends_ahead: int, legends_behind: int,
                                      entitled: bool) -> None:
    """docs/rules.md §1.6 "with 5 or more cars in the race (Legends count) the last two cars get
    it"; §2.4 "count for Adrenaline placement"."""
    colours = list(LEGEND_COLOURS)
    cars: list[CarSpec] = [(colours.pop(), True, 30 + 2 * i) for i in range(legends_ahead)]
    cars.append(("ana", False, 20))
    cars += [(colours.pop(), True, 10 - 2 * i) for i in range(legends_behind)]
    state = ok(build(track("usa"), cars), ChooseGear("ana", 1))
    assert state.current_car == "ana"
    assert state.turn is not None and state.turn.adrenaline_entitled is entitled


def test_legends_finish_and_get_places() -> None:
    """docs/rules.md §2.2 "END OF ROUND: Legends that crossed the finish line after the last lap go
    to the podium with everyone else"; §1.12 furthest past the line first. USA 1 lap, card 1:
    green 15 from 60 -> 75, black 16 from 58 -> 74, the human stays short of the line."""
    state = build(track("usa"), [("green", True, 60), ("black", True, 58), ("ana", False, 40)],
                  laps=1, cards=(1,))
    state = ok(ok(state, ChooseGear("ana", 1)), Reveal("ana", (2,)))
    state = ok(state, EndTurn("ana"))
    assert state.results == (("green", 1, 1), ("black", 2, 1))
    assert state.order == ("ana",)
    assert not state.car("green").on_track
    doc = racefile.state_document(state)
    assert doc["cars"]["black"]["finished"] == {"place": 2, "round": 1}


def test_legends_only_rounds_need_run_round() -> None:
    """docs/race-file.md rounds: a finished car must not appear; actions.RunRound "Play a round in
    which no human car is still racing: the Legends move on their own"."""
    state = build(track("usa"), [("ana", False, 66), ("green", True, 20)], laps=1, cards=(3, 3))
    assert isinstance(validate(state, RunRound()), Rejection)  # a human still racing
    state = ok(ok(ok(state, ChooseGear("ana", 2)), Reveal("ana", (3, 4))), EndTurn("ana"))
    assert state.car("ana").finished_place == 1
    assert state.phase is Phase.PLANNING and not state.over
    assert state.humans_to_plan == ()
    assert isinstance(validate(state, ChooseGear("ana", 1)), Rejection)
    # The race waits: nothing moves until the table asks for the Legends-only round.
    assert state.car("green").distance == 30
    assert validate(state, RunRound()) is None
    rounds = 0
    while not state.over:
        state = ok(state, RunRound())
        rounds += 1
        assert rounds < 20
    assert [c for c, _, _ in state.results] == ["ana", "green"]
    assert validate(state, RunRound()) is not None


def test_race_file_legends_only_rounds_are_empty_objects() -> None:
    """docs/race-file.md: "Every human car still racing must appear; a finished car must not" — once
    the humans have finished, a round is `{}`."""
    short = {"id": "short-20", "spaces": 20, "laps": 1, "heat": 6, "stress": 3,
             "corners": [{"line_after": 10, "limit": 10, "legend_line_after": 2}]}
    race: dict[str, Any] = {
        "format": "heat-race/1", "track": short, "seed": 1,
        "cars": [{"id": "red", "name": "Ana"}, {"id": "green", "legend": True}],
        "legends": {"cards": [3, 3, 3]},  # green 10/0
        "rounds": [{"red": {"gear": 3, "cards": [4, 4, 2]}},
                   {"red": {"gear": 4, "cards": [4, 4, 3, 3]}}],
    }
    states = list(racefile.replay(racefile.parse(race)))
    doc = racefile.state_document(states[-1])
    assert doc["cars"]["red"]["finished"] == {"place": 1, "round": 2}
    assert doc["cars"]["green"]["finished"] is None
    assert not doc["over"]
    race["rounds"] += [{}]
    final = racefile.state_document(list(racefile.replay(racefile.parse(race)))[-1])
    assert final["over"]
    assert [r["car"] for r in final["results"]] == ["red", "green"]
    # A `{}` round while the human still races is rejected, naming the car.
    early = dict(race, rounds=[{}])
    with pytest.raises(racefile.RaceFileError, match=r"^round 1, car red: no inputs"):
        list(racefile.replay(racefile.parse(early)))


# --- fill_grid (docs/rules.md §2.4) ---------------------------------------------------------------


def test_fill_grid_solo_five_legends() -> None:
    """docs/rules.md §2.4: Legends fill a field, solo play needs at least one; the Legends
    take the colours the humans do not use (docs/race-file.md: a Legend's id is a Legend colour)."""
    grid = fill_grid((CarEntry("red", "Ana"),), 5, seed=1)
    assert len(grid) == 6
    assert sorted(c.id for c in grid) == sorted(LEGEND_COLOURS)
    assert [c.legend for c in grid].count(True) == 5
    assert next(c for c in grid if c.id == "red").legend is False
    state = start_race(RaceSetup(track=track("usa"), cars=grid)).state
    assert len(state.cars) == 6


def test_fill_grid_seeded_shuffle_is_deterministic() -> None:
    """docs/rules.md §2.4: humans and Legends shuffled together, as BGA does; no global random
    state, so a seed gives one grid."""
    humans = (CarEntry("red", "Ana"),)
    grids = {tuple(c.id for c in fill_grid(humans, 5, seed=s)) for s in range(12)}
    assert len(grids) > 1
    assert fill_grid(humans, 5, seed=7) == fill_grid(humans, 5, seed=7)
    assert {g.index("red") for g in grids} != {0}


def test_fill_grid_set_by_hand() -> None:
    """setup.fill_grid shuffle=False: "humans first in the given order then Legends"."""
    humans = (CarEntry("blue", "Bo"), CarEntry("red", "Ana"))
    grid = fill_grid(humans, 3, seed=99, shuffle=False)
    assert [c.id for c in grid] == ["blue", "red", "black", "green", "grey"]
    assert [c.legend for c in grid] == [False, False, True, True, True]


@pytest.mark.parametrize(("humans", "count"), [(("red",), 6), (("red", "blue"), 5),
                                               (("ana",), 7), (("red",), -1)])
def test_fill_grid_too_many_legends(humans: tuple[str, ...], count: int) -> None:
    """Six Legend colours (docs/rules.md §2.1); the humans' colours are taken."""
    with pytest.raises(SetupError):
        fill_grid(tuple(CarEntry(h) for h in humans), count, seed=0)


# --- properties of a single move ------------------------------------------------------------


def lines_crossed(board: Track, laps: int, start: int, end: int) -> int:
    """Corner Lines crossed from ``start`` to ``end`` before the finish, counted space by space
    (docs/race-file.md: a line after c is crossed moving from <= c to > c)."""
    lines = {c.line_after for c in board.corners}
    finish = board.finish_distance(laps)
    return sum(1 for d in range(start, end) if d < finish and board.space_of(d) in lines)


def next_corner(board: Track, start: int) -> tuple[int, Any]:
    d = start
    while True:
        for corner in board.corners:
            if board.space_of(d) == corner.line_after:
                return d, corner
        d += 1


@st.composite
def single_moves(draw: st.DrawFn) -> tuple[Track, int, str, int, int, bool, int]:
    if draw(st.booleans()):
        board = tracks.load_track(draw(st.sampled_from(BUNDLED_TRACKS)))
    else:
        board = tracks.track_from_dict(draw(inline_tracks()))
    laps = draw(st.integers(1, 3))
    start = draw(st.integers(-(board.grid_size // 2 - 1), board.finish_distance(laps)))
    return (board, laps, draw(st.sampled_from(LEGEND_COLOURS)), draw(st.integers(1, 10)),
            draw(st.integers(0, 6)), draw(st.booleans()), start)


@settings(max_examples=400, deadline=None)
@given(single_moves())
def test_a_legend_move_crosses_at_most_the_allowed_corner_lines(
    case: tuple[Track, int, str, int, int, bool, int],
) -> None:
    """docs/rules.md §2.2: at most one Corner Line per move (BGA fix 107185); Aggressive Legends:
    one extra from the chevron distance (C[k] - s + 1 <= A[k]), two extra from the double chevron;
    lines beyond the finish do not count. And a Legend always moves forward."""
    board, laps, colour, card, bonus, aggressive, start = case
    state = build(board, [(colour, True, start)], laps=laps, bonus=bonus, aggressive=aggressive)
    target = legends.legend_move(state, colour, start, card).target
    assert target > start
    line_at, corner = next_corner(board, start)
    reach = line_at - start + 1
    allowed = 1
    if aggressive and corner.aggressive_double and reach <= corner.aggressive_double:
        allowed = 3
    elif aggressive and corner.aggressive and reach <= corner.aggressive:
        allowed = 2
    assert lines_crossed(board, laps, start, target) <= allowed


# --- full solo races (tests/engine/solo, written by strategies.py) --------------------------

SOLO_FILES = {track_id: SOLO_DIR / f"{track_id}.json" for track_id in BASE_TRACKS}


@pytest.mark.parametrize("track_id", BASE_TRACKS)
def test_solo_race_replays_to_the_end(track_id: str) -> None:
    """docs/rules.md §2.4 solo: one human against Legends; §1.12 "Play continues until all cars have
    finished, to fix all positions"; docs/race-file.md rounds (`{}` once the human has finished,
    docs/rules-decisions.md #5). Two laps of a base track against five Legends."""
    doc = json.loads(SOLO_FILES[track_id].read_text(encoding="utf-8"))
    assert (doc["format"], doc["track"], doc["laps"]) == ("heat-race/1", track_id, 2)
    humans = [c["id"] for c in doc["cars"] if not c.get("legend")]
    assert humans == ["red"] and len(doc["cars"]) == 6
    states = [racefile.state_document(s) for s in racefile.replay(racefile.parse(doc))]
    assert len(states) == len(doc["rounds"])
    final = states[-1]
    assert final["over"] is True and final["order"] == []
    assert all(not state["over"] for state in states[:-1])
    results = final["results"]
    assert [r["place"] for r in results] == [1, 2, 3, 4, 5, 6]
    assert sorted(r["car"] for r in results) == sorted(c["id"] for c in doc["cars"])
    assert [r["round"] for r in results] == sorted(r["round"] for r in results)
    assert results[-1]["round"] == final["round"] == len(doc["rounds"])
    for r in results:
        assert final["cars"][r["car"]]["finished"] == {"place": r["place"], "round": r["round"]}
    # The human plays until it finishes; after that every round is a Legends-only `{}`.
    red_round = final["cars"]["red"]["finished"]["round"]
    assert all("red" in rnd for rnd in doc["rounds"][:red_round])
    trailing = doc["rounds"][red_round:]
    assert trailing and all(rnd == {} for rnd in trailing)
    assert not states[red_round - 1]["over"]
    # Heat is the human's own: the engine never holds more than the car owns.
    car = final["cars"]["red"]
    assert car["heat"] == tracks.load_track(track_id).heat + 1
    assert 0 <= car["engine"] <= car["heat"]


def test_solo_generator_is_deterministic() -> None:
    """strategies.py generates the solo files from a seed with the engine's SplitMix64, so the
    generator gives the same race every time."""
    assert solo_race("usa") == solo_race("usa")
    assert solo_race("usa")["rounds"][0] == json.loads(
        SOLO_FILES["usa"].read_text(encoding="utf-8"))["rounds"][0]


def reference_target(board: Track, laps: int, start: int, number: int, diamond: int,
                     aggressive: bool) -> int:
    """docs/rules.md §2.2 rule, written again from the document (not from legends.py).

    When more lines lie ahead than Aggressive Legends allow, the Legend stops before the first
    line it may not cross (the engine's reading; docs/rules.md says "the second line",
    the same thing without a chevron). No bundled track has three lines within a chevron move
    (Nederland's double chevron allows all three), so only inline tracks can tell the two apart.
    """
    finish = board.finish_distance(laps)
    line_at, corner = next_corner(board, start)
    zone = (corner.line_after - corner.legend_line_after) % board.spaces
    if line_at - start >= zone:  # "B": on the straight
        if start + number <= line_at or line_at > finish:
            return start + number
        if line_at - diamond > start:
            return line_at - diamond
        # docs/rules-decisions.md #6: at or past its diamond space, it takes the corner.
    reach = line_at - start + 1
    allowed = 1
    if aggressive and corner.aggressive_double and reach <= corner.aggressive_double:
        allowed = 3
    elif aggressive and corner.aggressive and reach <= corner.aggressive:
        allowed = 2
    target = start + corner.limit + diamond
    lines = [d for d in range(start, target)
             if d < finish and any(board.space_of(d) == c.line_after for c in board.corners)]
    if len(lines) > allowed:
        return lines[allowed]  # the space just before the first line it may not cross
    return target


@settings(max_examples=400, deadline=None)
@given(single_moves())
def test_legend_move_matches_the_rules_pseudo_code(
    case: tuple[Track, int, str, int, int, bool, int],
) -> None:
    """docs/rules.md §2.2 (the movement rule), with the decisions of docs/rules-decisions.md,
    on bundled and inline tracks (zones wrapping past the finish line included)."""
    board, laps, colour, card, bonus, aggressive, start = case
    state = build(board, [(colour, True, start)], laps=laps, bonus=bonus, aggressive=aggressive)
    number, diamond = table_entry(card, colour)
    expected = reference_target(board, laps, start, number + bonus, diamond, aggressive)
    assert legends.legend_move(state, colour, start, card).target == expected


def test_physical_deck_legends_only_round_waits_for_the_card() -> None:
    """A Legends-only round (RunRound) with the physical deck also waits for the table's card
    (state.py awaiting_legend_card)."""
    state = build(track("usa"), [("green", True, 14)], physical=True)
    state = ok(state, RunRound())
    assert state.awaiting_legend_card and state.round == 0
    state = ok(state, LegendCard(3))
    assert state.round == 1 and state.car("green").distance == 24
