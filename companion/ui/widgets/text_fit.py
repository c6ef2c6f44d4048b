"""Text measured with the app's font, cached: how wide a word is, how many lines a sentence
wraps to. Laying a screen out from these numbers costs a tap no texture rendering."""

from __future__ import annotations

from kivy.core.text import Label as CoreLabel

from .line_breaks import (
    FILL_FIXES,
    NO_LINE_START,
    ORPHAN_FIXES,
    carried,
    fill_prefix,
    has_chinese,
    kept_spaces,
)

LINE_SPACING = 1.0
"""Kivy's default ``line_height``."""

class TextFit:
    """How many lines a text wraps to in a width, from the font's word widths (as Kivy wraps:
    at spaces, and inside a word only when the word alone is wider than the line, that word
    then starting a line of its own; where such a word's line would begin with closing
    punctuation, a line break is put in before the characters that go down with it, and the
    text laid out again: :data:`NO_LINE_START`)."""

    def __init__(self) -> None:
        self._widths: dict[tuple[str, float], float] = {}
        self._heights: dict[float, float] = {}
        self._lines: dict[tuple[str, float, float], int] = {}

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
        """Lines ``text`` takes in ``width`` at font ``size``, as the app's labels draw it:
        its numbers kept with the words beside them and its short asides in parentheses
        whole (:func:`kept_spaces`), a line break put in where a Chinese run moved down
        whole leaves room for its first characters
        (:func:`fill_prefix`, at most :data:`FILL_FIXES` times) and where a line would begin
        with closing punctuation (at most :data:`ORPHAN_FIXES` times), the one nearer the
        start first, the text laid out again after each; the lines so filled if fewer than
        without the fills (``text_cache`` renders so)."""
        key = (text, size, width)
        found = self._lines.get(key)
        if found is None:
            kept = kept_spaces(text, width, lambda line: self.width(line, size))
            found = self._counted(kept, size, width, FILL_FIXES)
            if has_chinese(kept):  # drawn unfilled unless a line is saved
                found = min(found, self._counted(kept, size, width, 0))
            if len(self._lines) >= MAX_KEPT_LINES:
                self._lines.clear()
            self._lines[key] = found
        return found

    def forget_lines(self) -> None:
        """Forget the line counts kept (the rules that break the lines changed: a name to
        keep whole, :func:`.text_cache.keep_names`)."""
        self._lines.clear()

    def _counted(self, text: str, size: float, width: float, most_fills: int) -> int:
        """:meth:`lines` with at most ``most_fills`` runs' first characters moved up."""
        fills = fixes = 0
        while True:
            count, offset, at = 0, 0, None
            for paragraph in text.split("\n"):
                lines, orphan, fill = self._paragraph(paragraph, size, width,
                                                      fills < most_fills,
                                                      fixes < ORPHAN_FIXES)
                if fill is not None:
                    at, fills = offset + fill, fills + 1
                    break
                if orphan is not None:
                    at, fixes = offset + orphan, fixes + 1
                    break
                count += lines
                offset += len(paragraph) + 1
            if at is None:
                break
            text = f"{text[:at]}\n{text[at:]}"
        return count

    def _paragraph(self, text: str, size: float, width: float, filling: bool = False,
                   fixing: bool = True) -> tuple[int, int | None, int | None]:
        """The lines of a paragraph and the first break it wants, if any, as an index in it:
        when ``fixing``, where the first line that begins with closing punctuation inside a
        word broken by characters wants its break (the orphan); when ``filling``, where the
        first Chinese run moved down whole wants its break to fill the line before
        (:func:`fill_prefix`). Only the one nearer the start is given (breaking it changes
        the lines after it), and the lines are then not all counted."""
        lines, used = 1, 0.0
        orphan: int | None = None

        def fits(term: str) -> bool:
            return self.width(term, size) <= width

        space = self.width(" ", size)
        line_start = 0  # where the line so far begins in the paragraph
        offset = -1
        for word in text.split(" "):
            offset += 1
            start, offset = offset, offset + len(word)
            if not word:  # a space after a space: Kivy keeps it on a line begun ("{season}
                if used:  # ({status})" in Korean was counted a line short), drops it at the
                    used += space  # start of a line
                continue
            wide = self.width(word, size)
            over = bool(used) and used + wide > width
            if over:  # Kivy measures the line with the word together: at times a pixel
                # narrower than its words' widths summed ("Take the car off the track." 184
                # px, 185 summed: it counted a line more than drawn, a blank line in a box)
                together = self.width(text[line_start:start + len(word)], size)
                over = together > width
                if not over:
                    used = together - wide
            if (over and filling
                    and text[line_start:start].rstrip()[-1:] not in NO_LINE_START):
                count = fill_prefix(text[line_start:start], word, width,
                                    lambda s: self.width(s, size))
                if count and orphan is None:
                    return lines, None, start + count
                if count:
                    return lines, orphan, None
            if wide > width:  # a word (a Chinese sentence) broken by characters, from a line
                # of its own, as Kivy breaks it (it counted a line fewer when such a word
                # began on a line already begun: a zh_TW ruling then overflowed its box)
                if used:
                    lines, used = lines + 1, 0.0
                line_start = start
                line: list[str] = []  # the word's characters on this line
                for index, char in enumerate(word):
                    step = self.width(char, size)
                    if used and used + step > width:
                        # Kivy measures the line's characters together: a little narrower,
                        # at times, than their widths summed ("點「付不起熱度」" in 120 px)
                        together = self.width("".join(line) + char, size)
                        if together <= width:
                            used = together
                            line.append(char)
                            continue
                        down = carried(line, word[index:], fits) if fixing else 0
                        if down and orphan is None:
                            orphan = start + index - down
                        lines, used, line = lines + 1, 0.0, []
                        line_start = start + index
                    used += step
                    line.append(char)
                used += space
                continue
            if over:
                lines, used = lines + 1, 0.0
            if not used:
                line_start = start
            used += wide + space
        return lines, orphan, None


MAX_KEPT_LINES = 8192
"""Texts whose line counts :class:`TextFit` keeps (forgotten all at once past this)."""


FIT = TextFit()
"""The app's one cache (the font is the same everywhere)."""
