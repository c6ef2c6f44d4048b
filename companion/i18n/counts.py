"""Counted words: "1 card", "2 cards", never "2 card(s)".

A message says a count with a ``(s)`` after its noun: ``"{car} won {cards} Sponsorship
card(s)"``. That stays the msgid (the catalogs need no plural forms: Traditional Chinese and
Korean do not inflect a noun for its count, and their translations carry no ``(s)``); when the
message is filled in, each ``(s)`` takes the count of the nearest placeholder before it whose
value is a whole number: ``s`` unless that count is 1, nothing when it is 1.

>>> fill("{car} won {cards} Sponsorship card(s)", car="Ana", cards=1)
'Ana won 1 Sponsorship card'
>>> fill("{count} Stress card(s) played, so give {count} flipped Basic card(s), not {given}.",
...      count=2, given=1)
'2 Stress cards played, so give 2 flipped Basic cards, not 1.'

A line that wraps in a narrow column keeps each number with the words beside it
(:func:`fill_kept`): the spaces either side of it are no-break spaces (Kivy breaks a line only
at a space), so "得到 1" / "張贊助卡" cannot happen.

>>> fill_kept("{car} 得到 {cards} 張贊助卡", car="Ana Lee", cards=1)
'Ana Lee 得到\xa01\xa0張贊助卡'

Kivy-free and standard library only. The engine resolves the ``(s)`` of its own English
sentences alike (:func:`companion.engine.explain.counted`: the replay command imports no
i18n); this module keeps its own copy, as importing the engine's would load the whole engine
with the app's first screen (``tests/ui/test_startup.py``). ``tests/ui/test_counts.py`` checks
that the two agree.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .particles import particles

PLURAL_MARK = "(s)"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
NO_BREAK_SPACE = "\u00a0"
_NUMBER = re.compile(r"\{(\w+)\}|\d+")
"""A placeholder (a number when its value is a whole number) or digits written in a message."""


def _count(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


def counted(template: str, params: Mapping[str, object]) -> str:
    """``template`` with each ``(s)`` resolved by the count before it (placeholders kept).

    A ``(s)`` with no whole-number placeholder before it is left as it is: a message written
    that way is a bug in the message, and ``tests/ui/test_counts.py`` finds it in every catalog.
    """
    if PLURAL_MARK not in template:
        return template
    out: list[str] = []
    count: int | None = None
    for piece in re.split(r"(\{\w+\}|\(s\))", template):
        if piece == PLURAL_MARK:
            out.append(piece if count is None else ("" if count == 1 else "s"))
            continue
        name = _PLACEHOLDER.fullmatch(piece)
        if name is not None:
            found = _count(params.get(name.group(1)))
            if found is not None:
                count = found
        out.append(piece)
    return "".join(out)


def fill(template: str, /, **params: object) -> str:
    """``template`` (already translated) with its counted words resolved, then filled in (a
    Korean particle after a number or a name then in the one form it takes: ``particles``)."""
    return particles(counted(template, params).format(**params))


def kept_together(template: str, params: Mapping[str, object]) -> str:
    """``template`` with each space beside a number made a no-break space: beside a
    placeholder whose value in ``params`` is a whole number, or beside digits the message
    writes itself ("第 {round} 回合", "races 1 to {last}"). A name's own spaces (a value's) are
    kept as they are."""
    chars = list(template)
    for found in _NUMBER.finditer(template):
        name = found.group(1)
        if name is not None and _count(params.get(name)) is None:
            continue
        start, end = found.span()
        if start > 0 and chars[start - 1] == " ":
            chars[start - 1] = NO_BREAK_SPACE
        if end < len(chars) and chars[end] == " ":
            chars[end] = NO_BREAK_SPACE
    return "".join(chars)


def fill_kept(template: str, /, **params: object) -> str:
    """:func:`fill`, each number kept on one line with the words beside it
    (:func:`kept_together`): for lines that wrap in a narrow column (Results, Standings), where
    a count was read apart from its noun ("…得到 1" / "張贊助卡"; found by a table test)."""
    return fill(kept_together(template, params), **params)
