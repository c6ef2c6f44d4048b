"""Korean particles chosen by the word before them: "3을", "2를", "민수는", not "3을(를)".

A Korean message cannot know the value it will be filled with, so the catalog writes a
particle in both forms: ``{car}은(는)``, ``{value}을(를)``, ``{speed}(으)로``. Once the message
is filled in, each such pair after a number or a Hangul syllable becomes the one form that
word takes: the first form (은, 이, 을, 과, 으로) after a final consonant, the second after a
vowel, and 로 after a final ㄹ. A number is read as Sino-Korean numbers are read aloud: by its
last digit (3 삼, 2 이), or by its last unit when it ends in zeros (10 십, 100 백, 1000 천,
10000 만). After anything else (a Latin name: its reading is unknown) both forms stay, and
after a number that ends a Latin word ("Ana2", "ttyACM0": read in English or in Korean).

>>> particles("열 3을(를) 냅니다; 속도 7(으)로; 남궁민수은(는) 2이(가)")
'열 3을 냅니다; 속도 7로; 남궁민수는 2가'

Kivy-free and standard library only.
"""

from __future__ import annotations

import re

_PAIRS = {"은(는)": ("은", "는"), "이(가)": ("이", "가"), "을(를)": ("을", "를"),
          "과(와)": ("과", "와"), "(으)로": ("으로", "로")}
_PATTERN = re.compile(
    r"((?<![A-Za-z0-9])\d+|[가-힣])(은\(는\)|이\(가\)|을\(를\)|과\(와\)|\(으\)로)")

_DIGIT_FINAL = {"0": "ㅇ", "1": "ㄹ", "2": "", "3": "ㅁ", "4": "", "5": "", "6": "ㄱ",
                "7": "ㄹ", "8": "ㄹ", "9": ""}
"""The final consonant of each digit read aloud (영, 일, 이, 삼, 사, 오, 육, 칠, 팔, 구)."""
_UNIT_FINAL = ((10000, "ㄴ"), (1000, "ㄴ"), (100, "ㄱ"), (10, "ㅂ"))
"""... and of the units a number ending in zeros is read by last (만, 천, 백, 십)."""

_JONGSEONG = ("", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ",
              "ㄿ", "ㅀ", "ㅁ", "ㅂ", "ㅄ", "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ")


def final_consonant(word: str) -> str:
    """The final consonant of a number or a Hangul syllable read aloud ("" for a vowel)."""
    if word.isdigit():
        number = int(word)
        if number == 0 or number % 10:
            return _DIGIT_FINAL[word[-1]]
        return next(final for unit, final in _UNIT_FINAL if number % unit == 0)
    return _JONGSEONG[(ord(word[-1]) - 0xAC00) % 28]


def _chosen(match: re.Match[str]) -> str:
    word, pair = match.group(1), match.group(2)
    after_consonant, after_vowel = _PAIRS[pair]
    final = final_consonant(word)
    if pair == "(으)로":
        return word + (after_vowel if final in ("", "ㄹ") else after_consonant)
    return word + (after_consonant if final else after_vowel)


def particles(text: str) -> str:
    """``text`` with each two-form particle after a number or a Hangul syllable resolved."""
    if "(" not in text:
        return text
    return _PATTERN.sub(_chosen, text)
