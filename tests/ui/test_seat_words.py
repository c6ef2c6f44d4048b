"""A seat is named one way in each language wherever the app names it (the Hardware check, New
race, the hub's messages, a refusal of a seat's button): zh_TW "座位 4", ko "4번 자리". A
table test found "第 4 號座位" in a refusal beside "座位 4" on the Hardware check."""

from __future__ import annotations

import re

import pytest

from companion.i18n.extract import po_path
from companion.i18n.pofile import read_po

SEAT = re.compile(r"\{seats?\}")
FORMS = {"zh_TW": re.compile(r"座位[ \n]\{seats?\}"), "ko": re.compile(r"\{seats?\}번[ \n]자리")}
"""(A line break for the space: New race's seat button writes it on two lines.)"""


@pytest.mark.parametrize("language", sorted(FORMS))
def test_every_message_names_a_seat_the_same_way(language: str) -> None:
    catalog = read_po(po_path(language).read_text(encoding="utf-8"))
    named = {msgid: msgstr for msgid, msgstr in catalog.messages.items()
             if SEAT.search(msgid) and "seat" in msgid.lower()}
    assert len(named) >= 8  # (the hardware's messages: else this proves little)
    odd = {msgid: msgstr for msgid, msgstr in named.items()
           if len(FORMS[language].findall(msgstr)) != len(SEAT.findall(msgstr))}
    assert not odd, odd
