"""Explanations: every outcome the engine reports can say in one sentence why it happened.

The engine stays free of gettext (standard library only, no global state): an explanation is a
message template in English plus its parameters. The app translates the template with gettext
(the template is the msgid) and then fills in the parameters; tests and the replay command use the
English text. ``N_`` marks templates for extraction without translating them here.

A template says a count with a ``(s)`` after its noun ("{count} card(s)"); filled in, the noun
takes the count's number (:func:`counted`): "1 card", "2 cards". The app's catalogs use the same
convention (``companion.i18n.counts``, which takes :func:`counted` from here: the replay path
imports no i18n, docs/race-file.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

ParamValue = str | int

PLURAL_MARK = "(s)"
_PIECES = re.compile(r"(\{\w+\}|\(s\))")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def N_(message: str) -> str:  # noqa: N802 - the conventional gettext no-op marker name
    """Mark a message template for translation; returns it unchanged."""
    return message


@dataclass(frozen=True, slots=True)
class Explanation:
    """One sentence a player can read: a template and the values that fill it."""

    template: str
    params: Mapping[str, ParamValue] = field(default_factory=lambda: MappingProxyType({}))

    def text(self, translate: Callable[[str], str] | None = None) -> str:
        """The sentence, translated when a gettext-style ``translate`` is given, its counted
        nouns in their number ("2 cards", not "2 card(s)")."""
        template = translate(self.template) if translate is not None else self.template
        return counted(template, self.params).format(**self.params)

    def __str__(self) -> str:
        return self.text()


def explain(template: str, /, **params: ParamValue) -> Explanation:
    return Explanation(template, MappingProxyType(dict(params)))


def count_of(value: object) -> int | None:
    """``value`` as a count: a whole number, or a string of digits; else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


def counted(template: str, params: Mapping[str, object]) -> str:
    """``template`` with each ``(s)`` resolved by the count before it (placeholders kept):
    each ``(s)`` takes the count of the nearest placeholder before it whose value is a whole
    number, ``s`` unless that count is 1, nothing when it is 1.

    A ``(s)`` with no whole-number placeholder before it is left as it is: a message written
    that way is a bug in the message, and ``tests/ui/test_counts.py`` finds it in every catalog.
    """
    if PLURAL_MARK not in template:
        return template
    out: list[str] = []
    count: int | None = None
    for piece in _PIECES.split(template):
        if piece == PLURAL_MARK:
            out.append(piece if count is None else ("" if count == 1 else "s"))
            continue
        name = _PLACEHOLDER.fullmatch(piece)
        if name is not None:
            found = count_of(params.get(name.group(1)))
            if found is not None:
                count = found
        out.append(piece)
    return "".join(out)
