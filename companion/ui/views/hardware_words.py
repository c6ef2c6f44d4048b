"""What the table hardware layer says, in the player's language (Kivy-free).

``hardware.detect`` explains a missing or partial table in its own technical English ("no wiring
file at /etc/heat-companion/wiring.toml: running touch-only"; problems joined by "; "). The
table reads :func:`reason_sentences` instead; the technical text stays available on the
Hardware check screen under "Technical details".
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from companion.i18n import N_, _
from companion.i18n.counts import fill

if TYPE_CHECKING:
    from hardware.events import Reason

REASONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^no wiring file\b", re.I),
     N_("No wiring file: no buttons or dials are set up for this table.")),
    (re.compile(r"^wiring file rejected\b", re.I),
     N_("The wiring file has a mistake, so its buttons and dials are not used.")),
    (re.compile(r"^no GPIO\b", re.I),
     N_("The Pi's input pins could not be opened.")),
    (re.compile(r"describes no hardware$", re.I),
     N_("The wiring file names no buttons, dials or hub.")),
    (re.compile(r"^No module named\b|not installed", re.I),
     N_("Hardware support is not installed.")),
)
"""The hardware layer's reasons (``hardware/detection.py``) -> a sentence for the table."""
UNKNOWN = N_("The table hardware could not be used.")
TOUCH_ONLY = re.compile(r"^\s*running touch-only\s*$", re.I)


PROTOCOL_PROBLEMS: dict[str, str] = {
    "no-checksum": N_("no checksum"),
    "bad-checksum": N_("a wrong checksum"),
    "too-long": N_("a line too long"),
    "out-of-range": N_("a number out of range"),
    "bad-syntax": N_("not a hub line"),
    "empty": N_("an empty line"),
    "bad-arity": N_("a wrong number of fields"),
    "bad-boot-id": N_("a wrong boot id"),
    "bad-number": N_("a wrong number"),
    "bad-pattern": N_("an unknown light pattern"),
    "bad-seat": N_("a seat the hub does not have"),
    "unknown-button": N_("an unknown button"),
    "unknown-message": N_("an unknown message"),
}
"""A hub line's problem (``hardware.protocol.ProtocolError``'s code) in the table's words."""


def reason_text(reason: Reason) -> str:
    """A hub's or the table's reason (an input not used, a hub offline) in the player's
    language: its sentence is in the catalogs (``hardware/`` marks it with ``N_``). Its
    ``problem``, when it is a hub line's problem code, in words; when it is the system's own
    text (an OS error, in English), pointed to, not shown: it is in the Hardware check's
    technical details (:func:`reason_technical`)."""
    values = dict(reason.values)
    problem = values.get("problem")
    if problem is not None:
        code = str(problem)
        values["problem"] = (_(PROTOCOL_PROBLEMS[code]) if code in PROTOCOL_PROBLEMS
                             else _("see the technical details"))
    return fill(_(reason.template), **values)  # a Korean particle after a number: one form


def reason_technical(reason: Reason) -> str:
    """The reason as the hardware layer says it, in English, with the system's own words
    (``str(reason)``), for the technical details; "" when it carries none."""
    problem = reason.values.get("problem")
    if problem is None or str(problem) in PROTOCOL_PROBLEMS:
        return ""
    return str(reason)


def reason_parts(reason: str) -> list[str]:
    """The separate problems in a hardware reason (``"; "``-joined; a rejected wiring file's
    own message, after its first line, belongs to that problem)."""
    head, _newline, _detail = reason.strip().partition("\n")
    return [part.strip() for part in head.split(";") if part.strip()]


def reason_sentences(reason: str) -> list[str]:
    """Each problem of ``reason`` as a translated sentence (unknown ones in general words),
    without the layer's own "running touch-only" (the app says that itself)."""
    out: list[str] = []
    for part in reason_parts(reason):
        if TOUCH_ONLY.match(part):
            continue
        sentence = next((text for pattern, text in REASONS if pattern.search(part)), UNKNOWN)
        if _(sentence) not in out:
            out.append(_(sentence))
    return out
