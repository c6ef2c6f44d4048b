"""Text measured with the app's font, cached: how wide a word is, how many lines a sentence
wraps to. Laying a screen out from these numbers costs a tap no texture rendering."""

from __future__ import annotations

from kivy.core.text import Label as CoreLabel

LINE_SPACING = 1.0
"""Kivy's default ``line_height``."""


class TextFit:
    """How many lines a text wraps to in a width, from the font's word widths (as Kivy wraps:
    at spaces, and inside a word only when the word alone is wider than the line, that word
    then starting a line of its own)."""

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
        """Lines ``text`` takes in ``width`` at font ``size``."""
        count = 0
        for paragraph in text.split("\n"):
            count += self._paragraph(paragraph, size, width)
        return count

    def _paragraph(self, text: str, size: float, width: float) -> int:
        lines, used = 1, 0.0
        space = self.width(" ", size)
        for word in text.split(" "):
            if not word:
                continue
            wide = self.width(word, size)
            if wide > width:  # a word (a Chinese sentence) broken by characters, from a line
                # of its own, as Kivy breaks it (it counted a line fewer when such a word
                # began on a line already begun: a zh_TW ruling then overflowed its box)
                if used:
                    lines, used = lines + 1, 0.0
                for char in word:
                    step = self.width(char, size)
                    if used and used + step > width:
                        lines, used = lines + 1, 0.0
                    used += step
                used += space
                continue
            if used and used + wide > width:
                lines, used = lines + 1, 0.0
            used += wide + space
        return lines


FIT = TextFit()
"""The app's one cache (the font is the same everywhere)."""
