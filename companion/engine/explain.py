"""Explanations: every outcome the engine reports can say in one sentence why it happened.

The engine stays free of gettext (standard library only, no global state): an explanation is a
message template in English plus its parameters. The app translates the template with gettext
(the template is the msgid) and then fills in the parameters; tests and the replay command use the
English text. ``N_`` marks templates for extraction without translating them here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

ParamValue = str | int


def N_(message: str) -> str:  # noqa: N802 - the conventional gettext no-op marker name
    """Mark a message template for translation; returns it unchanged."""
    return message


@dataclass(frozen=True, slots=True)
class Explanation:
    """One sentence a player can read: a template and the values that fill it."""

    template: str
    params: Mapping[str, ParamValue] = field(default_factory=lambda: MappingProxyType({}))

    def text(self, translate: Callable[[str], str] | None = None) -> str:
        """The sentence, translated when a gettext-style ``translate`` is given."""
        template = translate(self.template) if translate is not None else self.template
        return template.format(**self.params)

    def __str__(self) -> str:
        return self.text()


def explain(template: str, /, **params: ParamValue) -> Explanation:
    return Explanation(template, MappingProxyType(dict(params)))
