"""Text measured with the app's font, cached: how wide a word is, how many lines a sentence
wraps to. Laying a screen out from these numbers costs a tap no texture rendering."""

from __future__ import annotations

from collections.abc import Sequence

from kivy.core.text import Label as CoreLabel

LINE_SPACING = 1.0
"""Kivy's default ``line_height``."""

NO_LINE_START = frozenset("。，、：；！？）」』】〕〉》…,.:;!?)]}%")
"""Characters a line must not begin with: closing punctuation. Where Kivy breaks a text with no
spaces (a Chinese clause) by characters, a full stop or a closing quote could begin a line,
alone ("...的輸入" / "。"); the characters before it go down with it instead (the rule Chinese
and Japanese typesetting keep), on the screen (:func:`.text_cache`'s rendering) and in the
lines counted here alike."""


ORPHAN_FIXES = 4
"""Line breaks put in at most per text to keep closing punctuation from beginning a line."""


def carried(chars: Sequence[str]) -> int:
    """How many of a line's last characters ``chars`` (of a text with no spaces) go down to the
    next line with a character the next line must not begin with: the last one, and before it
    those that must not begin a line either; 0 when that would leave the line empty."""
    count = 1
    while count < len(chars) and chars[-count] in NO_LINE_START:
        count += 1
    return count if count < len(chars) else 0


def orphan_break(text: str, lines: Sequence[str]) -> int | None:
    """Where to put a line break in ``text`` so that the first of Kivy's ``lines`` (the text
    as laid out, in order) that begins with a character a line must not begin with, where
    Kivy broke a text with no spaces, begins with the characters before it instead
    (:func:`carried`); None when no line so begins (or the lines are not the text's)."""
    pos = 0
    before: list[tuple[int, str]] = []  # the previous line's characters and where they are
    for number, line in enumerate(lines):
        chars: list[tuple[int, str]] = []
        for char in line:
            if char.isspace():
                continue
            while pos < len(text) and text[pos].isspace():
                pos += 1
            if pos >= len(text) or text[pos] != char:
                return None
            chars.append((pos, char))
            pos += 1
        if not chars:
            continue
        start, first = chars[0]
        if number and before and before[-1][0] == start - 1 and first in NO_LINE_START:
            run = [before[-1]]  # the word's characters on the line before (no space between)
            for at, char in reversed(before[:-1]):
                if at != run[0][0] - 1:
                    break
                run.insert(0, (at, char))
            down = carried([c for _at, c in run])
            if down:
                return start - down
        before = chars
    return None


class TextFit:
    """How many lines a text wraps to in a width, from the font's word widths (as Kivy wraps:
    at spaces, and inside a word only when the word alone is wider than the line, that word
    then starting a line of its own; where such a word's line would begin with closing
    punctuation, a line break is put in before the characters that go down with it, and the
    text laid out again: :data:`NO_LINE_START`)."""

    def __init__(self) -> None:
        self._widths: dict[tuple[str, float], float] = {}
        self._heights: dict[float, float] = {}

    def width(self, text: str, size: float) -> float:
        key = (text, size)
        found = self._widths.get(key)
        if found is None:
            found = float(CoreLabel(font_size=size).get_extents(text)[0])
            self._widths[key] = found
        return found

    def line_height(self, size: float) -> float:
        found = self._heights.get(size)
        if found is None:
            found = float(CoreLabel(font_size=size).get_extents("Ag한字")[1]) * LINE_SPACING
            self._heights[size] = found
        return found

    def lines(self, text: str, size: float, width: float) -> int:
        """Lines ``text`` takes in ``width`` at font ``size``, as the app's labels draw it: a
        line break put in where a line would begin with closing punctuation, the text then
        laid out again, at most :data:`ORPHAN_FIXES` times (``text_cache`` renders so)."""
        fixes = 0
        while True:
            count, offset, at = 0, 0, None
            for paragraph in text.split("\n"):
                lines, orphan = self._paragraph(paragraph, size, width)
                if orphan is not None and fixes < ORPHAN_FIXES:
                    at = offset + orphan
                    break
                count += lines
                offset += len(paragraph) + 1
            if at is None:
                return count
            text, fixes = f"{text[:at]}\n{text[at:]}", fixes + 1

    def _paragraph(self, text: str, size: float, width: float) -> tuple[int, int | None]:
        """The lines of a paragraph, and where (an index in it) the first line that begins
        with closing punctuation inside a word broken by characters wants its break, if
        any."""
        lines, used = 1, 0.0
        orphan: int | None = None
        space = self.width(" ", size)
        offset = -1
        for word in text.split(" "):
            offset += 1
            start, offset = offset, offset + len(word)
            if not word:
                continue
            wide = self.width(word, size)
            if wide > width:  # a word (a Chinese sentence) broken by characters, from a line
                # of its own, as Kivy breaks it (it counted a line fewer when such a word
                # began on a line already begun: a zh_TW ruling then overflowed its box)
                if used:
                    lines, used = lines + 1, 0.0
                line: list[str] = []  # the word's characters on this line
                for index, char in enumerate(word):
                    step = self.width(char, size)
                    if used and used + step > width:
                        down = carried(line) if char in NO_LINE_START else 0
                        if down and orphan is None:
                            orphan = start + index - down
                        lines, used, line = lines + 1, 0.0, []
                    used += step
                    line.append(char)
                used += space
                continue
            if used and used + wide > width:
                lines, used = lines + 1, 0.0
            used += wide + space
        return lines, orphan


FIT = TextFit()
"""The app's one cache (the font is the same everywhere)."""
