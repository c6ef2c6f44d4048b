"""Where the app's labels break their lines, beyond Kivy's own breaks at spaces (Kivy-free):
a number kept with the words beside it (:func:`kept_numbers`), a Chinese line filled with the
next clause's first characters (:func:`fill_break`), a word Kivy had to break by characters
broken again where a line may break (:func:`orphan_break`), a short term in corner brackets
or parentheses kept on one line (:func:`kept_terms`), a short aside in ASCII parentheses kept
on one line (:func:`kept_asides`), a name kept whole on one line (:func:`kept_names`). The
rendering (:mod:`.text_cache`) puts these breaks in and :class:`.text_fit.TextFit` counts
the lines they give, so both follow the same rules (:func:`kept_spaces`: the spaces no line
breaks at)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

NO_LINE_START = frozenset("。，、：；！？）」』】〕〉》…,.:;!?)]}%·")
"""Characters a line must not begin with: closing punctuation, and the middle dot between a
card's figures. Where Kivy breaks a text with no spaces (a Chinese clause) by characters, a
full stop or a closing quote could begin a line, alone ("...的輸入" / "。"); the characters
before it go down with it instead (the rule Chinese and Japanese typesetting keep), on the
screen (:func:`.text_cache`'s rendering) and in the lines counted here alike. A word that
ends with one ends a clause: no number is joined to the word after it (:func:`kept_numbers`)."""


ORPHAN_FIXES = 8
"""Line breaks put in at most per text where Kivy broke a word by characters where a line may
not break (closing punctuation beginning a line, a number torn from its noun)."""

NO_LINE_END = frozenset("「『（【〔〈《([{")
"""Characters a line must not end with: opening brackets."""

NO_BREAK = frozenset("\u00a0\u202f\u2060")
"""No-break spaces and the word joiner: no line breaks beside them (a number kept with its
noun: ``companion.i18n.counts.fill_kept``)."""

FILL_FIXES = 12
"""Line breaks put in at most per text to fill a line with a Chinese run's first characters."""

QUOTES = {"「": "」", "『": "』", "（": "）"}
"""Corner brackets, opening to closing: a zh_TW message quotes a button or a term in them;
and full-width parentheses, round a short term explained ("1 個「+」（翻基本卡）", a Garage
card's figures)."""

QUOTED_KEPT = 12
"""A term in corner brackets or parentheses of at most this many characters (a button's
name, an event's, a twelve-character name) is kept on one line where it fits one
(:func:`kept_terms`)."""

_NAMES: frozenset[str] = frozenset()
"""The race's drivers' names, kept whole on one line where they fit one, besides the
Legends' (:func:`keep_names`)."""
_kept: frozenset[str] | None = None


def keep_names(names: Iterable[str]) -> bool:
    """Keep ``names`` (the race's drivers', in place of those given before) whole on one line
    from now on, where each fits one (the Legends' names are always kept:
    :func:`names_kept`); True when they changed (the texts laid out before may then break
    differently)."""
    global _NAMES, _kept
    given = frozenset(name.strip() for name in names if len(name.strip()) > 1)
    if given == _NAMES:
        return False
    _NAMES, _kept = given, None
    return True


def names_kept() -> frozenset[str]:
    """The names no line breaks inside where they fit one: every Legend's in every language
    ("Legend Grey", "레전드 회색", "傳奇灰色") and the drivers' given to :func:`keep_names`."""
    global _kept
    if _kept is None:
        from ..views.names import legend_names

        _kept = legend_names() | _NAMES
    return _kept


def kept_names(text: str, width: float, measure: Callable[[str], float]) -> str:
    """``text`` with the spaces inside each name of :func:`names_kept` made no-break spaces
    where the name fits a line with what it is written against (a Korean particle, closing
    punctuation: "레전드 초록이", "Legend Red's"; ``measure``: a text's width), so no line
    ends inside it. A Korean Legends ruling read "…레전드 카드 6: 레전드" / "초록이 13칸 이동하면…"
    (found by a table test): the number kept with the words beside it took the colour down
    and left "레전드" alone at a line's end. A name with no space in it (a Chinese one) is
    kept so by :func:`kept_terms`."""
    names = [name for name in names_kept() if " " in name and name in text]
    if not names:
        return text

    def fits(term: str) -> bool:
        return measure(term) <= width

    for name in sorted(names, key=len, reverse=True):
        joined = name.replace(" ", "\u00a0")
        start = 0
        while (at := text.find(name, start)) >= 0:
            end = at + len(name)
            start = end
            first = max(text.rfind(" ", 0, at), text.rfind("\n", 0, at)) + 1
            last = min((k for k in (text.find(" ", end), text.find("\n", end)) if k >= 0),
                       default=len(text))
            word = text[first:at] + joined + text[end:last]
            cuts = [0, *fill_breaks(word, fits), len(word)]
            head = max(cut for cut in cuts if cut <= at - first)
            tail = min(cut for cut in cuts if cut >= at - first + len(name))
            if fits(word[head:tail]):
                text = text[:at] + joined + text[end:]
    return text


_CHINESE = re.compile("[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def has_chinese(text: str) -> bool:
    """``text`` has a character :func:`chinese` in it (one search, not a call a character)."""
    return _CHINESE.search(text) is not None


def chinese(char: str) -> bool:
    """A character set as Chinese is (Han, kana, CJK and full-width punctuation): a line may
    break before or after it. Hangul is not: Korean breaks at its spaces."""
    code = ord(char)
    return (0x3000 <= code <= 0x30FF or 0x3400 <= code <= 0x4DBF or 0x4E00 <= code <= 0x9FFF
            or 0xF900 <= code <= 0xFAFF or 0xFF00 <= code <= 0xFFEF)


def _numeric(word: str) -> bool:
    return any("0" <= char <= "9" for char in word)


NUMBER_EDGE = 3
"""A number within this many characters of a word's edge is kept with the word beyond that
edge ("+3", "limit-5"), and a word of at most one more with a number in it with the words on
both sides ("37번", "2장을", "2：速度"; not "+2。Maximilianus" with the word after it)."""


def _worded(word: str) -> bool:
    """``word`` has a letter or a digit in it (not a separator such as "·"), or is a symbol in
    quotes, named as a noun is ('"+"': a Garage card's '"+" 1개 (기본 카드를 뒤집음)' kept its
    count with the aside after it and left '"+"' alone at a line's end once the aside was
    kept whole: :func:`kept_asides`)."""
    return any(char.isalnum() for char in word) or (
        len(word) > 2 and word[0] in "\"“" and word[-1] in "\"”")


OPERATORS = frozenset("+=→")
"""An equation's operators, written as words of their own ("limit 7 + diamond 2 = 9 spaces"):
no line ends with one, the words after it stay with it (:func:`kept_numbers`)."""

RELATIONS = frozenset("=→")
"""Operators that no line begins with either: "= 9" stays with the number before it (a line
that began "= 9 spaces" read as a sum of its own)."""


def _operator_joins(before: str, word: str) -> bool:
    """The space between ``before`` and ``word`` is one an equation keeps: after an operator
    (:data:`OPERATORS`), before a relation (:data:`RELATIONS`). A zh_TW Legends ruling broke
    "… + 菱形 2 =" / "9 格…" (found by a table test)."""
    return before in OPERATORS or word in RELATIONS


def _number_first(word: str) -> bool:
    """``word`` begins with a number (within :data:`NUMBER_EDGE` characters)."""
    return any("0" <= char <= "9" for char in word[:NUMBER_EDGE])


def _number_last(word: str) -> bool:
    """``word`` ends with a number (within :data:`NUMBER_EDGE` characters)."""
    return any("0" <= char <= "9" for char in word[-NUMBER_EDGE:])


KOREAN_NUMBERS = frozenset(("한", "두", "세", "네", "다섯", "여섯"))
"""Korean numbers written as words before a counter ("한 장", "두 대", "세 라운드"): one to
six, as many as a table's cars ("열", ten, is not one: the catalog's "열" is Heat)."""

KOREAN_COUNTERS = ("장", "명", "대", "번", "단", "칸", "랩", "개", "턴", "가지", "라운드")
"""Korean counter words (what is counted: cards, drivers, cars, times, gears, spaces, laps...),
as a word after a number begins with one ("장을", "번에")."""


def _korean_count(before: str, word: str) -> bool:
    """``before`` is a Korean number written as a word and ``word`` its counter ("한 장을"):
    a counted phrase, kept as a number is with its words (:func:`kept_numbers`)."""
    return before in KOREAN_NUMBERS and word.startswith(KOREAN_COUNTERS)


LIST_SEPARATORS = (",", "、", ":", "：")
"""What a word before a list's item ends with ("1, 4," "…車庫選牌：")."""

_LIST_NUMBER = re.compile(r"\d{1,2}[.)]")
_BARE_NUMBER = re.compile(r"[+-]?\d{1,3}[.)。）]*")


def _list_joins(first: str, before: str, word: str, after: str) -> bool:
    """The space between ``before`` and ``word`` is inside a list's item: after an item's
    number ("1. Maximilianus", the number first in the text or after a list's separator
    ``first`` ends with), or before a list's last item when it is a number alone at the
    paragraph's end (``after`` empty: "…스트레스," / "1." read as a list's "1." with nothing
    after it; found by a table test in a Korean Undo)."""
    if _LIST_NUMBER.fullmatch(before) and (not first or first.endswith(LIST_SEPARATORS)):
        return True
    return (not after and before.endswith(LIST_SEPARATORS[:2])
            and _BARE_NUMBER.fullmatch(word) is not None)


def kept_numbers(text: str, width: float, measure: Callable[[str], float]) -> str:
    """``text`` with each space beside a number made a no-break space, so a number is never
    on one line and its noun or its verb on the next ("…takes 2" / "Stress", "…拿 2" / "張壓
    力卡", "37번" / "칸으로", "Cooldown" / "1": found by a table test on the race screen, the
    draft's cards, everywhere but Results and Standings, whose messages keep them already):
    the spaces beside a word that begins or ends with a number ("37번", "+3", "limit-5"; not
    a name with a number inside it), unless the word before the space ends a clause (closing
    punctuation: "space 12, Race Line" keeps its break after the comma). A space whose words,
    so joined, would be wider than ``width`` from the last place a line may break before it
    to the first after it stays a space: Kivy would break a word inside (``measure``: a
    text's width). An equation's operators are kept so too (:func:`_operator_joins`): no line
    ends with "+", "=" or "→", none begins with "=" or "→", where the words so joined fit. A
    Korean number written as a word is kept as a number is, with its counter and the noun
    before it ("…업그레이드 한" / "장을 바꿀…" read a line that began with the counter:
    :func:`_korean_count`). A list's item keeps its number, and a list's last number is not
    left alone on a line (:func:`_list_joins`)."""
    if not _numeric(text) and not any(number in text for number in KOREAN_NUMBERS):
        return text

    def fits(term: str) -> bool:
        return measure(term) <= width

    paragraphs = []
    for paragraph in text.split("\n"):
        words = paragraph.split(" ")
        out = [words[0]]
        for index, (before, word) in enumerate(zip(words, words[1:], strict=False)):
            after = words[index + 2] if index + 2 < len(words) else ""
            # never a word with no letter or digit ("·" between a card's figures) but an
            # equation's operator
            if (before and word and _list_joins(words[index - 1] if index else "", before,
                                                word, after)) or (
                    before and word and before[-1] not in NO_LINE_START
                    and (_operator_joins(before, word) or _korean_count(before, word)
                         or (_korean_count(word, after) and _worded(before)) or (
                        _worded(before) and _worded(word)
                        and (_number_last(before) or _number_first(word)
                             or (len(before) <= NUMBER_EDGE + 1 and _numeric(before))
                             or (len(word) <= NUMBER_EDGE + 1 and _numeric(word)))))):
                # the part around the space no line may break inside once it is joined
                group = out[-1]
                breaks, head = fill_breaks(group, fits), fill_breaks(word, fits)
                tail = group[breaks[-1]:] if breaks else group
                if measure(f"{tail}\u00a0{word[:head[0]] if head else word}") <= width:
                    out[-1] = f"{group}\u00a0{word}"
                    continue
            out.append(word)
        paragraphs.append(" ".join(out))
    return "\n".join(paragraphs)


ASIDE_WORDS = 4
"""An aside in ASCII parentheses of at most this many words is kept on one line wherever it
fits one (:func:`kept_asides`): a term, read as one thing ("(table only)", "(flip a Basic
card)", "(타이틀 스폰서 철수)", "(order: Ben, Ana)"); not a clause ("(it counts as a Stress
card)", "(a Legend uses the printed limit, not the road token)"), read in its lines as the
sentence around it is. Bounded by its words, not by a share of the line: kept whole, an
aside goes down whole where it does not fit the rest of a line, leaving that line short by
less than its own width, the ragged edge Kivy leaves after any long word it moves down (a
twelve-letter name, "Slipstream"); a narrow label is where an aside breaks, and there a
share bounds it away: the Garage draft's cards at 800x480 broke "(flip a Basic" / "card)"
and "(기본 카드를" / "뒤집음)", asides 61 % and 68 % of the card's line (147 and 165 px at
18 px in 242), kept by no third nor half of it."""


def kept_asides(text: str, width: float, measure: Callable[[str], float]) -> str:
    """``text`` with the spaces inside each short aside in ASCII parentheses made no-break
    spaces, so a line never breaks inside it ("(flip a Basic" / "card)" on a Garage card,
    "…탈락했습니다 (타이틀" / "스폰서 철수)." in a ruling: a table reads an aside as one thing):
    at most :data:`ASIDE_WORDS` words, and with the words it is written against (no space
    between: "코너(도로 상태)를", "(last: 12).") no wider than ``width`` (``measure``: a text's
    width): a line is never drawn wider than ``width`` nor a word broken inside for it. Kivy
    then moves the aside down whole where it does not fit the rest of a line. (A Chinese name
    in it may still be broken to fill the line before, :func:`fill_break`, where that saves
    a line: none of the catalog's asides, each at a sentence's end, ever does.) Two spaces
    in a row end an aside: left be."""
    if "(" not in text:
        return text

    def fits(term: str) -> bool:
        return measure(term) <= width

    paragraphs = []
    for paragraph in text.split("\n"):
        words = paragraph.split(" ")
        out: list[str] = []
        index = 0
        while index < len(words):
            last = _aside_end(words, index)
            if last is not None:
                joined = "\u00a0".join(words[index:last + 1])
                opening = words[index].rfind("(")
                closing = len(joined) - len(words[last]) + words[last].index(")")
                cuts = [0, *fill_breaks(joined, fits), len(joined)]
                start = max(cut for cut in cuts if cut <= opening)
                end = min(cut for cut in cuts if cut > closing)
                if fits(joined[start:end]):
                    out.append(joined)
                    index = last + 1
                    continue
            out.append(words[index])
            index += 1
        paragraphs.append(" ".join(out))
    return "\n".join(paragraphs)


def _aside_end(words: Sequence[str], index: int) -> int | None:
    """The index of the word that closes the aside ``words[index]`` opens (its last "(" not
    closed in it), within :data:`ASIDE_WORDS` words; None for no such aside (none opened,
    closed beyond, another opened inside, two spaces in a row)."""
    word = words[index]
    opening = word.rfind("(")
    if opening < 0 or ")" in word[opening:]:
        return None
    for last in range(index + 1, min(len(words), index + ASIDE_WORDS)):
        inner = words[last]
        closing = inner.find(")")
        if not inner or "(" in (inner if closing < 0 else inner[:closing]):
            return None
        if closing >= 0:
            return last
    return None


def kept_spaces(text: str, width: float, measure: Callable[[str], float]) -> str:
    """``text`` with every space no line may break at made a no-break space: inside a name
    (:func:`kept_names`), inside a short aside in parentheses (:func:`kept_asides`), then
    beside a number or an equation's operator where the words so joined still fit a line
    (:func:`kept_numbers`). The aside first: "값 12 카드(덱에 12장)가…" kept "값 12 카드(덱에"
    together, number by number, and left no room for the aside ("카드(덱에" / "12장)가"); now
    "값 12" / "카드(덱에 12장)가…", each number still on the line of a word beside it. The
    rendering (:mod:`.text_cache`) draws this text and :class:`.text_fit.TextFit` counts its
    lines."""
    return kept_numbers(kept_asides(kept_names(text, width, measure), width, measure),
                        width, measure)


def breakable(char: str) -> bool:
    """A character a line may break before or after inside a word: Chinese (:func:`chinese`)
    or a Hangul syllable (a Korean word wider than a line breaks between syllables)."""
    return chinese(char) or _hangul(char)


def break_allowed(before: str, after: str, hangul: bool = True) -> bool:
    """A line may break between ``before`` and ``after`` inside a word: one of them
    :func:`breakable` (Chinese only unless ``hangul``; never inside a Latin name), neither a
    digit (a number stays with what it is written against: "37번", "第2個"), ``after`` not
    closing punctuation (:data:`NO_LINE_START`), ``before`` not an opening bracket
    (:data:`NO_LINE_END`), neither a no-break space (:data:`NO_BREAK`)."""
    near = breakable if hangul else chinese
    return ((near(before) or near(after)) and after not in NO_LINE_START
            and before not in NO_LINE_END and before not in NO_BREAK and after not in NO_BREAK
            and not "0" <= before <= "9" and not "0" <= after <= "9")


def kept_terms(word: str, fits: Callable[[str], bool]) -> list[tuple[int, int]]:
    """The short terms in corner brackets or full-width parentheses in ``word`` (a run with no
    spaces) that no line breaks inside, each as the indexes of its opening and its closing
    bracket: at most :data:`QUOTED_KEPT` characters between them, and the term with the
    closing punctuation after it fitting a line (``fits``; a term wider than a line breaks as
    Chinese does). Kivy and the filled lines broke a line anywhere in a Chinese run, so a hint
    read "點「重" / "試」" or "只有「諮詢技" / "師」事件提供這個選擇。", a Garage card "（翻基本" /
    "卡）". A name of :func:`names_kept` with Chinese in it ("傳奇灰色", a driver's
    "歐陽娜娜司馬長風上官婉兒") is such a term too, with a Korean particle written against it
    ("…의"): a Korean Undo read "…보내지 않은 歐陽娜娜司馬長風上官婉" / "兒의 카드 입력…"."""
    terms = _kept_name_terms(word, fits)
    if not any(opening in word for opening in QUOTES):
        return terms
    for opening, char in enumerate(word):
        if char not in QUOTES:
            continue
        closing = word.find(QUOTES[char], opening + 1, opening + QUOTED_KEPT + 2)
        if closing < 0 or any(c in QUOTES for c in word[opening + 1:closing]):
            continue
        end = closing + 1
        while end < len(word) and word[end] in NO_LINE_START:
            end += 1
        if fits(word[opening:end]):
            terms.append((opening, closing))
    return terms


def _kept_name_terms(word: str, fits: Callable[[str], bool]) -> list[tuple[int, int]]:
    """The names of :func:`names_kept` with Chinese in them that ``word`` holds, each as the
    indexes of its first character and of the last no line may break before (a Korean
    particle and closing punctuation after the name go with it), where that fits a line."""
    if not has_chinese(word):
        return []
    terms = []
    for name in names_kept():
        if not has_chinese(name):
            continue
        joined = name.replace(" ", "\u00a0")
        for written in {name, joined}:
            start = 0
            while (at := word.find(written, start)) >= 0:
                end = start = at + len(written)
                while end < len(word) and _hangul(word[end]):
                    end += 1
                while end < len(word) and word[end] in NO_LINE_START:
                    end += 1
                if fits(word[at:end]):
                    terms.append((at, end - 1))
    return terms


def _may_break(word: str, at: int, terms: Sequence[tuple[int, int]], hangul: bool) -> bool:
    """A line may break in ``word`` before index ``at``: :func:`break_allowed`, and not
    inside one of ``terms`` (:func:`kept_terms`)."""
    return (break_allowed(word[at - 1], word[at], hangul)
            and not any(opening < at <= closing for opening, closing in terms))


def fill_breaks(word: str, fits: Callable[[str], bool]) -> list[int]:
    """Where a run with no spaces may be broken as Chinese is set (:func:`break_allowed`,
    never inside a short term in corner brackets that ``fits`` a line: :func:`kept_terms`;
    a Korean word is not broken inside: Korean lines break at spaces)."""
    if not has_chinese(word):
        return []
    terms = kept_terms(word, fits)
    return [k for k in range(1, len(word)) if _may_break(word, k, terms, False)]


def blank(char: str) -> bool:
    """A space Kivy breaks a line at (not a no-break space)."""
    return char.isspace() and char not in NO_BREAK


def fill_prefix(line: str, word: str, width: float, measure: Callable[[str], float]) -> int:
    """How many of ``word``'s first characters still fit on the line whose text so far is
    ``line`` (the spaces before the word included), in ``width`` (``measure``: a text's
    width, as the label measures a line: whole): the most at one of :func:`fill_breaks`, 0
    for none. Kivy moves a word
    that does not fit the rest of a line down whole, and starts a word wider than a line on
    a line of its own, so a Chinese clause after a number ("第 2" / "個彎道...") left the
    line before it half empty: 3.7 % of the catalog's zh_TW sentences, laid out at 60-760 px,
    took a line more than filling each line does."""
    if not has_chinese(word):
        return 0
    breaks = fill_breaks(word, lambda term: measure(term) <= width)
    best, low, high = 0, 0, len(breaks) - 1
    while low <= high:  # a longer start is never narrower
        middle = (low + high) // 2
        if measure(f"{line}{word[:breaks[middle]]}") <= width:
            best, low = breaks[middle], middle + 1
        else:
            high = middle - 1
    return best


def _placed(text: str, lines: Sequence[str]) -> list[list[tuple[int, str]]] | None:
    """Each of Kivy's ``lines`` (the text as laid out, in order) as its characters but the
    spaces it breaks at, each with where it is in ``text``; None when the lines are not the
    text's."""
    pos = 0
    placed: list[list[tuple[int, str]]] = []
    for line in lines:
        chars: list[tuple[int, str]] = []
        for char in line:
            if blank(char):
                continue
            while pos < len(text) and blank(text[pos]):
                pos += 1
            if pos >= len(text) or text[pos] != char:
                return None
            chars.append((pos, char))
            pos += 1
        placed.append(chars)
    return placed


def line_starts(text: str, lines: Sequence[str]) -> list[int] | None:
    """Where in ``text`` each of Kivy's ``lines`` (the text as laid out, in order) begins; None
    when the lines are not the text's."""
    placed = _placed(text, lines)
    if placed is None:
        return None
    starts: list[int] = []
    end = 0  # just after the line before (where an empty line is)
    for chars in placed:
        starts.append(chars[0][0] if chars else end)
        end = chars[-1][0] + 1 if chars else end
    return starts


def fill_break(text: str, lines: Sequence[str], width: float,
               measure: Callable[[str], float]) -> int | None:
    """Where to put a line break in ``text`` so that the first of Kivy's ``lines`` that a
    Chinese run moved down to, whole, leaving room on the line before, gives that line the
    run's first characters (:func:`fill_prefix`); None when no line so ends (or the lines
    are not the text's)."""
    starts = line_starts(text, lines)
    if starts is None:
        return None
    for number in range(1, len(lines)):
        start = starts[number]
        if start == 0 or text[start - 1] != " " or not lines[number - 1].strip():
            continue  # a line after a line break, or inside a run Kivy broke by characters
        end = start
        while end < len(text) and not blank(text[end]):
            end += 1
        line = text[starts[number - 1]:start]
        if line.rstrip()[-1:] in NO_LINE_START:
            continue  # a line that ends a sentence or a clause: a break that reads well
        count = fill_prefix(line, text[start:end], width, measure)
        if count:
            return start + count
    return None


def carried(chars: Sequence[str], following: str, fits: Callable[[str], bool]) -> int:
    """How many of a line's last characters ``chars`` (of a word Kivy broke by characters,
    ``following`` the word's characters from the next line's first on) go down to the next
    line so that the line breaks where a line may (:func:`break_allowed`, not inside a short
    term in corner brackets that ``fits`` a line: :func:`kept_terms`): 0 where it may
    already, else back to the nearest place it may (a full stop alone on a line, a number
    torn from the character it is joined to, a Latin name broken inside, "點「重" / "試」");
    where there is none on the line, before closing punctuation the last character (and any
    closing punctuation before it) still goes down, else 0."""
    word = "".join(chars) + following
    terms = kept_terms(word, fits)
    end = len(chars)
    for count in range(end):
        at = end - count
        if _may_break(word, at, terms, True) and not _inside_a_korean_word(word, at, fits):
            return count
    if _inside_a_korean_word(word, end, fits):
        return 0  # no other place on the line: the Korean word breaks where Kivy broke it
    if following[:1] not in NO_LINE_START:
        return 0
    # no place to break on the line (a Latin name fills it): closing punctuation still never
    # begins a line, the name's last letter goes down with it
    count = 1
    while count < len(chars) and chars[-count] in NO_LINE_START:
        count += 1
    return count if count < len(chars) else 0


def _inside_a_korean_word(word: str, at: int, fits: Callable[[str], bool]) -> bool:
    """``at`` is between two Hangul syllables of a run of them that ``fits`` a line (a Korean
    name joined to the Chinese before it: "…車庫選牌：박지" / "성、" broke it where the line
    could break before it; found by a table test). A Korean word wider than a line is not
    one: it breaks between syllables."""
    if not (0 < at < len(word) and _hangul(word[at - 1]) and _hangul(word[at])):
        return False
    start, end = at - 1, at + 1
    while start > 0 and _hangul(word[start - 1]):
        start -= 1
    while end < len(word) and _hangul(word[end]):
        end += 1
    while end < len(word) and word[end] in NO_LINE_START:
        end += 1  # with the punctuation that cannot begin the next line
    return fits(word[start:end])


def _hangul(char: str) -> bool:
    return 0xAC00 <= ord(char) <= 0xD7A3


def orphan_break(text: str, lines: Sequence[str], width: float,
                 measure: Callable[[str], float]) -> int | None:
    """Where to put a line break in ``text`` so that the first of Kivy's ``lines`` (the text
    as laid out, in order) that Kivy began inside a word it broke by characters where a line
    may not break (:func:`break_allowed`: before closing punctuation, beside a no-break
    space...; inside a short term in corner brackets that fits in ``width``, ``measure``: a
    text's width) begins with the characters before it instead (:func:`carried`); None when
    no line so begins (or the lines are not the text's)."""
    placed = _placed(text, lines)
    if placed is None:
        return None

    def fits(term: str) -> bool:
        return measure(term) <= width

    before: list[tuple[int, str]] = []  # the previous line's characters and where they are
    for number, chars in enumerate(placed):
        if not chars:
            continue
        start, _first = chars[0]
        if number and before and before[-1][0] == start - 1:
            run = [before[-1]]  # the word's characters on the line before (no space between)
            for at, char in reversed(before[:-1]):
                if at != run[0][0] - 1:
                    break
                run.insert(0, (at, char))
            end = start
            while end < len(text) and not blank(text[end]):
                end += 1
            down = carried([c for _at, c in run], text[start:end], fits)
            if down:
                return start - down
        before = chars
    return None
