"""How long a name the table may type (Kivy-free): a driver's name holds 12 letters, the
length every screen is made and tested for (the race order and the status line cut a longer
one with "…"); a season's name holds what the Championship list, the Standings' title and
New season's name field show whole at 800x480 in every language.

Only typing is held to it (:class:`~companion.ui.widgets.name_input.NameInput`): a name
already stored longer (an older log, a race file, a Garage draft taken up) is kept as it is."""

from __future__ import annotations

import unicodedata

from companion.i18n import _

DRIVER_NAME_LETTERS = 12
SEASON_NAME_LETTERS = 20
"""A Chinese or Korean season name of 20 letters is written whole on one line in New season's
name field (at the readable floor), in the Championship list beside "race 12 of 12 under way"
and in the Standings' title (``tests/ui/test_name_length.py``)."""

_NOT_LETTERS = ("Mn", "Me", "Cf")
"""Marks drawn on the letter before them, and invisible format characters: no letter."""


def kept(name: str) -> str:
    """A name as the forms keep it: spaces at its ends dropped, a run of spaces inside as one
    (:attr:`~companion.ui.views.drivers.Driver.stored_name`)."""
    return " ".join(name.split())


def letters(name: str) -> int:
    """The letters of ``name`` as kept (:func:`kept`): a Chinese or Korean letter is one, as a
    Latin one is (a Korean syllable typed as its parts too), a space between words is one, an
    accent typed after its letter none."""
    return sum(1 for char in unicodedata.normalize("NFC", kept(name))
               if unicodedata.category(char) not in _NOT_LETTERS)


def fitting(text: str, at: int, typed: str, most: int) -> str:
    """The part of ``typed`` (keys, a paste) that may go in at index ``at`` of ``text``: the
    most of it from its start that leaves the name within ``most`` letters, or no longer than
    it was (a name stored longer may be shortened, never lengthened). A space is not taken
    beside a full name either: it would not be kept, and only a letter refused could follow."""
    bound = max(most, letters(text))
    head, tail = text[:at], text[at:]
    typed = typed[:8 * (bound + 1)]  # a paste of pages: what could fit is at its start
    taken, count = 0, letters(text)
    for end in range(1, len(typed) + 1):
        before, count = count, letters(head + typed[:end] + tail)
        if count > bound or (typed[end - 1].isspace() and before >= bound):
            break
        taken = end
    return typed[:taken]


def driver_name_words() -> str:
    """Said above the drivers when a key or a paste would make a name longer."""
    return _("A driver's name holds up to {n} letters.").format(n=DRIVER_NAME_LETTERS)


def season_name_words() -> str:
    """Said under New season's form when a key or a paste would make its name longer."""
    return _("A season's name holds up to {n} letters.").format(n=SEASON_NAME_LETTERS)
