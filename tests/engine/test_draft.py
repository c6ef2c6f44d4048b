"""The single-race Garage draft (docs/rules.md §4.1; deck sizes docs/rules.md §0)."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.engine.draft import deal_random, pick, pick_problem, start_draft, upgrade_deck


def test_deck_sizes_match_the_box() -> None:
    """docs/rules.md §0: 34 Basic + 62 Advanced Upgrade cards (16 and 30 designs twice, plus two
    Heat cards in each)."""
    base: tuple[str, ...] = ()
    assert len(upgrade_deck(basic=True, expansions=base)) == 34
    assert len(upgrade_deck(basic=False, advanced=True, expansions=base)) == 62
    assert len(upgrade_deck(basic=True, advanced=True, expansions=base)) == 96
    assert Counter(upgrade_deck())["heat"] == 2
    both = Counter(upgrade_deck(basic=True, advanced=True))
    assert both.pop("heat") == 4 and set(both.values()) == {2}


def test_heavy_rain_air_intake_joins_the_advanced_deck() -> None:
    """Heavy Rain's six Air Intake designs (BGA card types 49-54) are Advanced Upgrades, two of
    each: with the expansion the Advanced deck holds 74 cards, the Basic deck is unchanged."""
    advanced = Counter(upgrade_deck(basic=False, advanced=True, expansions=("heavy-rain",)))
    air = {d: n for d, n in advanced.items() if d.startswith("air-intake-")}
    assert len(air) == 6 and set(air.values()) == {2}
    assert sum(advanced.values()) == 74
    assert upgrade_deck(basic=True) == upgrade_deck(basic=True, expansions=())
    assert not any(d.startswith("air-intake-") for d in upgrade_deck(advanced=True,
                                                                     expansions=()))


def test_three_rounds_in_the_bga_pick_order() -> None:
    """Each round reveals players + 3 cards; round 1 last on the grid picks first, round 2 the
    pole, round 3 the last again; leftovers leave the game; everyone ends with 3 Upgrades."""
    drivers = ("red", "blue", "green")
    draft = start_draft(drivers, seed=4)
    shuffled = draft.market + draft.deck
    seen: list[str] = []
    for expected_order in (("green", "blue", "red"), ("red", "blue", "green"),
                           ("green", "blue", "red")):
        assert len(draft.market) == len(drivers) + 3
        revealed = draft.market
        seen.extend(revealed)
        for driver in expected_order:
            assert draft.to_pick == driver
            draft = pick(draft, driver, draft.market[0])
    assert draft.done and draft.to_pick is None
    assert all(len(draft.upgrades(d)) == 3 for d in drivers)
    assert seen == list(shuffled[:18])  # 6 fresh cards a round; leftovers never come back


def test_illegal_picks_are_refused_with_a_reason() -> None:
    draft = start_draft(("red", "blue"), seed=1)
    problem = pick_problem(draft, "red", draft.market[0])
    assert problem is not None and "blue's pick" in problem.text()
    missing = next(d for d in upgrade_deck() if d not in draft.market)
    problem = pick_problem(draft, "blue", missing)
    assert problem is not None and "not among the revealed cards" in problem.text()
    with pytest.raises(ValueError, match="blue's pick"):
        pick(draft, "red", draft.market[0])


def test_same_seed_same_draft() -> None:
    assert start_draft(("a", "b"), seed=9) == start_draft(("a", "b"), seed=9)
    assert start_draft(("a", "b"), seed=9).market != start_draft(("a", "b"), seed=10).market


def test_random_deal_gives_three_distinct_cards_each() -> None:
    dealt = deal_random(("a", "b", "c"), seed=3, advanced=True)
    assert [len(cards) for cards in dealt.values()] == [3, 3, 3]
    together = Counter(card for cards in dealt.values() for card in cards)
    assert together <= Counter(upgrade_deck(advanced=True))


def test_championship_round_excludes_cards_already_drafted() -> None:
    """docs/rules.md §3.1: one round of players + 3 cards before each race, in the season's pick
    order; cards drafted in earlier races are out of the deck (one copy each)."""
    from companion.engine.draft import round_pick, start_round_draft

    deck = Counter(upgrade_deck(basic=True, advanced=True))
    drafted = tuple(card for card, _ in deck.most_common()[:40]) * 2  # both copies of 40 designs
    draft = start_round_draft(("yellow", "red"), seed=2, drafted=drafted)
    assert len(draft.market) == 5 and set(draft.market).isdisjoint(drafted)
    assert draft.to_pick == "yellow"
    with pytest.raises(ValueError, match="yellow's pick"):
        round_pick(draft, "red", draft.market[0])
    draft = round_pick(draft, "yellow", draft.market[0])
    draft = round_pick(draft, "red", draft.market[0])
    assert draft.done and len(draft.market) == 3
