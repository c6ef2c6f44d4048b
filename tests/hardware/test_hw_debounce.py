"""Settle-time debouncing (injected clock) and dial decoding."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware import dial
from hardware.debounce import Debouncer
from hardware.dial import DialKind

SETTLE = 0.03


def test_bouncing_press_gives_exactly_one_transition() -> None:
    t = 100.0
    d = Debouncer(False, SETTLE, t)
    for level in (True, False, True, False, True, False, True):  # 1 ms contact bounce
        d.feed(level, t)
        assert d.poll(t) == []
        t += 0.001
    assert d.poll(t + SETTLE - 0.002) == []  # not yet steady long enough
    assert d.poll(t + SETTLE) == [True]
    assert d.poll(t + 1) == []
    assert d.stable is True


def test_glitch_shorter_than_settle_is_ignored() -> None:
    d = Debouncer(False, SETTLE, 0.0)
    d.feed(True, 1.0)
    d.feed(False, 1.0 + SETTLE / 2)
    assert d.poll(5.0) == []
    assert d.stable is False and not d.pending


def test_late_poll_still_sees_a_short_press() -> None:
    # The ticker stalled: the press and the release both happened between two polls.
    d = Debouncer(False, SETTLE, 0.0)
    d.feed(True, 1.0)
    d.feed(False, 1.1)  # the press had been steady 100 ms: it counts
    assert d.poll(2.0) == [True, False]


def test_reset_takes_a_value_as_stable() -> None:
    d = Debouncer(False, SETTLE, 0.0)
    d.feed(True, 0.0)
    d.reset(True, 0.0)
    assert d.poll(1.0) == [] and d.stable is True
    with pytest.raises(ValueError):
        Debouncer(False, 0, 0.0)


@given(
    gaps=st.lists(st.floats(min_value=0.0001, max_value=SETTLE * 0.99), max_size=40),
    final=st.booleans(),
)
def test_any_bounce_shorter_than_settle_gives_at_most_one_event(
    gaps: list[float], final: bool
) -> None:
    # Edges closer together than the settle time, then the switch rests at `final`.
    d = Debouncer(False, SETTLE, 0.0)
    t, level, events = 1.0, True, []
    for gap in gaps:
        d.feed(level, t)
        events += d.poll(t)
        t += gap
        level = not level
    d.feed(final, t)
    events += d.poll(t + SETTLE)
    assert events == ([True] if final else [])


def test_gray_dial_decodes_one_change_per_detent() -> None:
    codes = [dial.encode(DialKind.GRAY, g) for g in (1, 2, 3, 4, 1)]
    for a, b in zip(codes, codes[1:], strict=False):
        assert sum(x != y for x, y in zip(a, b, strict=True)) == 1
    assert [dial.decode(DialKind.GRAY, c) for c in codes] == [1, 2, 3, 4, 1]


def test_one_hot_dial_between_positions_is_none() -> None:
    for gear in (1, 2, 3, 4):
        assert dial.decode(DialKind.POSITIONS, dial.encode(DialKind.POSITIONS, gear)) == gear
    assert dial.decode(DialKind.POSITIONS, (False,) * 4) is None  # break-before-make
    assert dial.decode(DialKind.POSITIONS, (True, True, False, False)) is None  # make-before
    with pytest.raises(ValueError):
        dial.decode(DialKind.GRAY, (True,))
