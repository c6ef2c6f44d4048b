"""Every ruling readable (issue 10, point 1): the ruling box is tall enough for the longest
sentence the engine produces, in English, Chinese and Korean, at body size at 800x480; a round
where five Legends move puts each car's space and spot in its row of the race order, shows
whole sentences only, and the rest on a tap."""

from __future__ import annotations

import string
from contextlib import contextmanager

import pytest

from companion import i18n
from companion.i18n import extract
from companion.ui.widgets.lookup import find
from companion.ui.widgets.race_table import spot_text
from companion.ui.widgets.text_fit import FIT

pytestmark = pytest.mark.ui

CAR_FIELDS = {"car", "other", "current", "driver"}


def engine_templates() -> list[str]:
    """The engine's explanation templates, and the app's rulings of a Draft or a slipstream
    that replace the engine's (what the ruling box shows)."""
    sources = ("companion/engine/", "companion/ui/views/react_choices.py")
    return [msgid for msgid, files in extract.messages().items()
            if any(s in f.replace("\\", "/") for f in files for s in sources)]


def worst_params(template: str) -> dict[str, str]:
    """The longest value each field of ``template`` can take, in the current language."""
    from companion.engine.garage import DESIGNS
    from companion.engine.modules import EVENTS
    from companion.ui.views.names import CAR_COLOURS, legend_name, track_title
    from companion.ui.views.words import PARAM_WORDS, design_name, event_title

    def longest(values) -> str:
        return max(values, key=lambda v: FIT.width(v, 18))

    names = ["Maximilianus", "歐陽娜娜司馬長風上官婉兒", *(legend_name(c) for c in CAR_COLOURS)]
    out = {}
    for _lit, field, _spec, _conv in string.Formatter().parse(template):
        if not field:
            continue
        if field in CAR_FIELDS:
            out[field] = longest(names)
        elif field == "spot":
            out[field] = longest([i18n._("Race Line"), i18n._("outside")])
        elif field == "event":
            out[field] = longest([event_title(e) for e in EVENTS])
        elif field == "design":
            out[field] = longest([design_name(d) for d in DESIGNS])
        elif field == "track":
            out[field] = longest([track_title(t) for t in ("usa", "great-britain",
                                                            "south-africa", "espana")])
        elif field == "source":
            out[field] = longest([i18n._(w) for w in ("road token", "Storm", "Sun")])
        elif field == "step":
            out[field] = longest([i18n._(w) for w in PARAM_WORDS.values()])
        else:
            out[field] = "12"
    return out


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_the_longest_ruling_fits_the_box_whole(ui, language: str) -> None:
    from kivy.uix.label import Label

    from companion.ui.demo.table_shots import SIX, start
    from companion.ui.widgets.text_cache import keep_names

    app = ui.app
    start(app, SIX, 0)  # six drivers: the most the panel takes from the box
    # the worst names a race could have, kept whole as a race's drivers' names are
    keep_names(["Maximilianus", "歐陽娜娜司馬長風上官婉兒"])
    app.set_language(language)
    ui.pump(3)
    screen = app.sm.current_screen
    box = find(screen, "messages")
    room = screen.RULING_LINES * app.fs
    assert box.height >= room - 0.5
    templates = engine_templates()
    assert len(templates) > 60
    sentences, smaller = [], []
    for template in templates:
        text = i18n._(template).format(**worst_params(template))
        size = app.fs
        if FIT.lines(text, size, box.width) * FIT.line_height(size) > room:
            size = app.fs_small  # the box's step down: still whole
            smaller.append(text)
        height = FIT.lines(text, size, box.width) * FIT.line_height(size)
        assert height <= room, (language, text)
        sentences.append((height, size, text))
    # Only the longest few (a 12-character Chinese name in a Korean spin-out, the refusal that
    # explains unpaid cards) need it.
    assert len(smaller) <= len(templates) // 20, smaller
    # The app's labels draw the longest ones so (Kivy's wrapping, a Chinese line filled:
    # text_cache).
    for _height, size, text in sorted(sentences, reverse=True)[:5]:
        label = Label(text=text, font_size=size, text_size=(box.width, None))
        label.texture_update()
        assert label.texture.size[1] <= room, (language, text, label.texture.size)
    app.set_language("en")


def test_five_legends_every_car_to_place_is_in_its_row(ui) -> None:
    from companion.ui.demo.table_shots import start

    app = ui.app
    start(app, ("Maximilianus",), 5)
    ui.pump(2)
    for _ in range(60):
        legends = [r for r in app.controller.rulings if r.car and r.car != "red"]
        if len(legends) >= 5:
            break
        ui.player.step()
    ui.pump(3)
    controller = app.controller
    state = controller.state
    screen = app.sm.current_screen
    moved = controller.moved
    assert len([c for c in moved if state.car(c).legend]) >= 3
    for row in controller.view().order:
        cell = find(screen, f"space {row.car}")
        assert cell.text == spot_text(row)
        car = state.car(row.car)
        if car.on_track:
            assert cell.text.split()[0] == str(state.track.space_of(car.distance))
        assert cell.lit == (row.car in moved and car.on_track)
    box = find(screen, "messages")
    assert box.texture_size[1] <= box.height + 1  # nothing cut, nothing to scroll
    every = controller.messages
    shown = box.shown
    assert shown and all(text in every for text in shown)  # whole sentences only
    if len(shown) < len(every):  # the rest is a tap away
        box.dispatch("on_release")
        overlay = box._overlay
        assert overlay is not None and overlay.parent is not None
        assert all(i18n._(t) in overlay.text or t in overlay.text for t in every)
        overlay.close()


def test_a_box_too_small_for_every_sentence_shows_how_the_input_ended(ui) -> None:
    """Four sentences of a Slipstream that ended in a spin-out, in a box with room for four
    small lines: the box shows the last sentences that fit whole (the spin-out, where the
    car really is, as the race order says) and "+N more: tap here", not the first ones (the
    space the Slipstream reached, which the spin-out undid). Found by a table test: the box
    said "to space 59", the race order "57"."""
    from types import SimpleNamespace

    sentences = [
        "Wilhelmina slipstreams behind Maximilianus: 2 more spaces, Speed unchanged.",
        "Space 60 is full, so Wilhelmina goes to space 59, outside.",
        "Wilhelmina spins out in corner 2: back to space 57, 2 Stress cards, gear 1.",
        "Konstantinos finished in place 1.",
    ]
    rulings = [SimpleNamespace(text=t, placement=False) for t in sentences]
    with _small_box(ui, rulings) as box:
        assert box.left_out >= 1
        assert box.shown == sentences[-len(box.shown):]  # the last ones, in order
        assert sentences[2] in box.shown
        assert box.more.text == f"+{box.left_out} more: tap here"
        assert box.texture_size[1] <= box.height + 1


def test_a_full_box_keeps_what_undo_took_back(ui) -> None:
    """An Undo's sentences in a box too small for all: its headline ("Undone: ...") stays,
    with the last sentences that fit and "+N more" (a table test found the box showing
    only "back in gear" lines after the last-sentences rule)."""
    from types import SimpleNamespace

    sentences = ["Undone: Wilhelmina's gear 2."] + [
        f"Driver{n}: back in gear 1; 6 Heat in the engine of 7; 0 Stress card(s) taken."
        for n in range(6)]
    rulings = [SimpleNamespace(text=t, placement=False, headline=i == 0)
               for i, t in enumerate(sentences)]
    with _small_box(ui, rulings) as box:
        assert box.shown[0] == sentences[0]
        assert box.shown[-1] == sentences[-1] and box.left_out >= 1
        assert box.texture_size[1] <= box.height + 1


def test_a_full_box_keeps_a_spin_out_followed_by_the_legends(ui) -> None:
    """A driver's spin-out, then eight Legends' sentences, in a box too small for all: the
    spin-out stays (the table takes its Stress cards and drops its gear), with the last
    sentences that fit and "+N more". Found by a table test: in a Legends round a driver's
    spin-out sat behind "+8 more"."""
    from types import SimpleNamespace

    spin = ("Speed 9 through a limit-4 corner needs 5 Heat but the engine has 2: Ana pays 2, "
            "spins out to space 19, takes 2 Stress and drops to 1st gear.")
    sentences = ["Ana crossed no Corner Line.", spin] + [
        f"Legend {colour} moves 12 spaces and stops 2 spaces short of corner 2."
        for colour in ("Black", "Grey", "Blue", "Green", "Yellow", "Red", "White", "Pink")]
    rulings = [SimpleNamespace(text=t, placement=False, headline=False, spinout=t == spin)
               for t in sentences]
    with _small_box(ui, rulings) as box:
        assert box.shown[0] == spin and box.left_out >= 1
        tail = box.shown[1:]  # then the last sentences that fit, if any
        assert tail == (sentences[-len(tail):] if tail else [])
        assert box.texture_size[1] <= box.height + 1
    unmarked = [SimpleNamespace(text=t, placement=False, headline=False, spinout=False)
                for t in sentences]
    with _small_box(ui, unmarked) as box:  # the rule that keeps it, not room to spare
        assert spin not in box.shown
    # Two lines of room (six drivers' gear cells): the whole sentence and "+N more" do not
    # fit, its short line does (a table test saw only "+3 more" there).
    short = "Ana spins out to space 19: 2 Stress, 1st gear."
    rulings = [SimpleNamespace(text=t, placement=False, headline=False, spinout=t == spin,
                               short=short if t == spin else "") for t in sentences]
    with _small_box(ui, rulings, lines=2.2) as box:
        assert box.shown == [short] and box.left_out == len(sentences) - 1
        assert box.texture_size[1] <= box.height + 1
        assert spin in box._all  # a tap on the box shows the whole sentence


@contextmanager
def _small_box(ui, rulings, lines: float = 4.3):
    """A ruling box 420 px wide with room for four small lines and a bit (``lines``), over
    the window, showing ``rulings`` (taken away after)."""
    from kivy.core.window import Window

    from companion.ui.widgets.ruling_box import RulingBox

    box = RulingBox(size_hint=(None, None), width=420,
                    height=lines * FIT.line_height(ui.app.fs_small), font_size=ui.app.fs)
    Window.add_widget(box)
    try:
        box.show("", rulings)
        ui.pump(3)
        yield box
    finally:
        Window.remove_widget(box)


@pytest.mark.parametrize("text", [
    "Maximilianus 欠 1 張升級卡的 2 熱度，冷卻之後支付。",
    "傳奇卡 7：傳奇綠色的 19 會越過第 1 個彎道，因此停在彎道前 3 格（菱形 3）。",
    "Maximilianus 在 Bartholomew 後方滑流：多前進 4 格，含晴天加成 +2；速度不變。",
    "Bartholomeus：執行你能用的動作，然後結束回合。",
    "남궁민수황보영희제갈공명은(는) 코너 라인을 넘지 않았습니다.",
    # the Seasons list's "{season}  ({status})" in Korean: two spaces in a row
    "1965 (터널 비전)  (3개 중 1번째 레이스 진행 중)",
    "1964 (폭우)  (3개 중 2개 레이스 완료)",
])
def test_the_counted_lines_are_the_lines_kivy_draws(ui, text: str) -> None:
    """The ruling box, the prompt's room and the tables lay out from ``TextFit.lines``. It
    counted a line fewer than Kivy draws when a run with no space, wider than the line (a
    Chinese clause), began on a line already begun: Kivy starts such a run on a line of its
    own, then breaks it at any letter (found while trying no-break spaces in Chinese: the
    rulings ran over the gear buttons); and when two spaces stood in a row (the Seasons
    list's "{season}  ({status})"): Kivy keeps both on a line begun, it counted one."""
    first = FIT.width(text.split(" ")[0], 15)
    wrong = []
    for width in range(int(first) + 1, 420, 3):  # the first word fits its line
        drawn = _drawn_lines(text, width)
        if len(drawn) != FIT.lines(text, 15, width):
            wrong.append((width, len(drawn), FIT.lines(text, 15, width)))
    assert not wrong, wrong[:3]


@pytest.mark.parametrize("text", [
    "Before the race, put all Stress into your discard pile (table only).",
    "The race log is in use by another copy of heat-companion (process 12 on 12).",
    "Maximilianus spins out and is eliminated (Title sponsor withdraws). Take the car off the "
    "track.",
])
def test_a_line_is_measured_whole_as_kivy_measures_it(ui, text: str) -> None:
    """Kivy fits a line by measuring its words together, ``TextFit`` by summing each word's
    width and the spaces': "Take the car off the track." is 184 px whole and 185 summed, so
    in 184 px (and "…(table only)." in 110, 117, 164 and 233 px, "…(process 12 on 12)." in
    272) it counted a line more than Kivy draws (a blank line left in a box, a ruling the
    box would show counted too tall). At every width from 100 to 420 px the lines counted
    are the lines drawn."""
    wrong = [(width, len(drawn), FIT.lines(text, 15, width))
             for width in range(100, 420)
             if len(drawn := _drawn_lines(text, width)) != FIT.lines(text, 15, width)]
    assert not wrong, wrong


def _starts_by_width(text: str, widths: range) -> tuple[list[tuple[int, list[str], list[int]]],
                                                         list[tuple[int, list[str], int]]]:
    """``text`` drawn at each of ``widths``: the width, the lines drawn and where in ``text``
    each begins (nothing lost: asserted); and the widths whose lines counted are not the lines
    drawn."""
    from companion.ui.widgets.line_breaks import line_starts

    laid, wrong = [], []
    for width in widths:
        drawn = _drawn_lines(text, width)
        assert "".join(drawn).replace(" ", "") == text.replace(" ", "")  # nothing lost
        if len(drawn) != FIT.lines(text, 15, width):
            wrong.append((width, drawn, FIT.lines(text, 15, width)))
        starts = line_starts(text, drawn)
        assert starts is not None, (text, drawn)
        laid.append((width, drawn, starts))
    return laid, wrong


def _drawn_lines(text: str, width: float, size: float = 15) -> list[str]:
    """The lines a label of the app (its textures kept: ``text_cache``) draws ``text`` in,
    at ``size`` px in ``width`` (the spaces it made no-break as spaces)."""
    from kivy.uix.label import Label

    from companion.ui.widgets import text_cache

    label = Label(text=text, font_size=size, text_size=(width, None))
    label.texture_update()
    return ["".join(word.text for word in line.words).replace("\u00a0", " ")
            for line in text_cache.renderer(label)._cached_lines]


@pytest.mark.parametrize("text", [
    "無法重做：「重做」會找回被「復原」的輸入。",
    "開新比賽不會刪除它：在「其他未完成的比賽」中點一下即可回到它。",
    "Bartholomeus：執行你能用的動作，然後結束回合。",
    "橘色：該座位旋鈕所在的檔位；按就緒即選定。",
])
def test_closing_punctuation_never_begins_a_line(ui, text: str) -> None:
    """Kivy breaks a text with no spaces (a Chinese clause) at any character, so a full stop
    or a closing quote began a line, alone ("...的輸入" / "。": found by a table test). The
    characters before it now go down with it (``line_breaks.NO_LINE_START``), and the lines
    counted (from which the boxes are laid out) are the lines drawn; at every width from the
    first word's to 420 px."""
    from companion.ui.widgets.line_breaks import NO_LINE_START

    first = FIT.width(text.split(" ")[0].split("：")[0], 15)
    orphans, wrong = [], []
    for width in range(int(first) + 4, 420, 3):
        drawn = _drawn_lines(text, width)
        assert "".join(drawn).replace(" ", "") == text.replace(" ", "")  # nothing lost
        orphans += [(width, drawn) for before, line in zip(drawn, drawn[1:], strict=False)
                    if line[:1] in NO_LINE_START and before[-1:].strip()]
        if len(drawn) != FIT.lines(text, 15, width):
            wrong.append((width, len(drawn), FIT.lines(text, 15, width)))
    assert not orphans, orphans[:2]
    assert not wrong, wrong[:3]


def quoted_messages() -> list[str]:
    """The zh_TW catalog's messages with a term in corner brackets, their fields filled (a
    twelve-character name, the button a hint names, a two-digit number)."""
    from companion.i18n.pofile import read_po

    catalog = read_po(extract.po_path("zh_TW").read_text(encoding="utf-8"))
    values = {"button": "付不起熱度", "n": "12", "count": "12", "gain": "12"}
    out = []
    for msgstr in catalog.messages.values():
        if "「" in msgstr:
            fields = [f for _lit, f, _spec, _conv in string.Formatter().parse(msgstr) if f]
            out.append(msgstr.format(**{f: values.get(f, "歐陽娜娜司馬長風上官婉兒")
                                        for f in fields}))
    return out


def test_a_short_term_in_corner_brackets_stays_on_one_line(ui) -> None:
    """A zh_TW hint broke a line inside a quoted term: "點「重" / "試」", "只有「諮詢技" /
    "師」事件提供這個選擇。" (Kivy breaks a Chinese run at any character, and the filled
    lines did too). A term of at most ``line_breaks.QUOTED_KEPT`` characters in 「」 is now
    kept on one line wherever it fits one (with the closing punctuation after it); never an
    opening bracket at a line's end. Every such message of the catalog at every width from
    60 to 420 px: nothing lost, the lines counted are the lines drawn."""
    import re

    from companion.ui.widgets.line_breaks import line_starts

    term = re.compile("「[^「」]{1,12}」[。，、：；！？）]*")  # line_breaks.QUOTED_KEPT
    messages = quoted_messages()
    assert len(messages) >= 15
    split, opened, wrong = [], [], []
    for text in messages:
        terms = [(m.start(), m.end(), m.group()) for m in term.finditer(text)]
        assert terms, text
        for width in range(60, 420, 3):
            drawn = _drawn_lines(text, width)
            assert "".join(drawn).replace(" ", "") == text.replace(" ", "")  # nothing lost
            if len(drawn) != FIT.lines(text, 15, width):
                wrong.append((width, drawn, FIT.lines(text, 15, width)))
            opened += [(width, drawn) for line in drawn[:-1] if line.rstrip()[-1:] in "「『"]
            starts = line_starts(text, drawn)
            assert starts is not None, (text, drawn)
            split += [(width, quoted, drawn) for start, end, quoted in terms
                      if FIT.width(quoted, 15) <= width
                      and any(start < at < end for at in starts)]
    assert not (split or opened or wrong), (split[:3], opened[:3], wrong[:3])


@pytest.mark.parametrize("text", [
    "Maximilianus 以速度 9 通過第 2 個彎道（限速 5）：支付 4 點熱度，並且失去一張壓力牌。",
    "Maximilianus 在 Bartholomew 後方滑流：多前進幾格，含晴天加成；速度不變。",
    "傳奇黑色 在直線上前進其數字，因此停在彎道前的格子，賽車線上。",
    "桌面集線器 Maximilianus 離線：在它恢復之前，第 3 號座位請用螢幕操作。",
])
def test_a_chinese_line_is_filled_before_the_next_begins(ui, monkeypatch, text: str) -> None:
    """Kivy moves a text with no spaces (a Chinese clause) down to the next line whole when it
    does not fit the rest of a line, and starts it on a line of its own when it is wider than
    a line, so "…通過第 2" / "個彎道…" left half a line empty: 3.7 % of the catalog's zh_TW
    sentences, laid out at 60-760 px, took a line more than filling each line does. A line
    is now filled with the clause's first characters (never before closing punctuation nor
    after an opening bracket, never inside a Latin name or a number, never beside a no-break
    space; not after a line that ends a sentence or a clause) where that saves a line (else
    no word is broken for nothing). At every width from the first word's to 420 px: the
    lines counted (from which the boxes are laid out) are the lines drawn, nothing is lost,
    never more lines than unfilled; where filled, no line followed by a clause moved down
    could have taken its first character; and some widths save a line."""
    from kivy.core.text import Label as CoreLabel

    from companion.ui.widgets import text_cache
    from companion.ui.widgets.line_breaks import NO_LINE_END, NO_LINE_START, chinese

    def unfilled_lines(width: float) -> int:
        """The lines the app's rendering draws with no line filled (Kivy's own breaks, no
        closing punctuation beginning a line)."""
        with monkeypatch.context() as patch:
            patch.setattr(text_cache, "FILL_FIXES", 0)
            core = CoreLabel(text=text, font_size=15, text_size=(width, None))
            return len(text_cache.LabelTextures._render(core).renderer._cached_lines)

    first = FIT.width(text.split(" ")[0].split("：")[0], 15)
    unfilled, wrong, saved = [], [], 0
    for width in range(int(first) + 4, 420, 3):
        drawn = _drawn_lines(text, width)
        assert "".join(drawn).replace(" ", "") == text.replace(" ", "")  # nothing lost
        if len(drawn) != FIT.lines(text, 15, width):
            wrong.append((width, len(drawn), FIT.lines(text, 15, width)))
        plain = unfilled_lines(width)
        assert len(drawn) <= plain, (width, drawn)
        if len(drawn) == plain:
            continue
        saved += 1
        at = 0
        for before, line in zip(drawn, drawn[1:], strict=False):
            at = text.index(before, at) + len(before)
            spaced = text[at:at + 1] == " "  # the next line's run was moved down whole
            at = text.index(line, at)
            if (spaced and chinese(line[0]) and len(line) > 1 and line[1] not in NO_LINE_START
                    and before.rstrip()[-1:] not in NO_LINE_START
                    and line[0] not in NO_LINE_END
                    and FIT.width(f"{before} {line[0]}", 15) <= width - 1):
                unfilled.append((width, before, line))
    assert not wrong, wrong[:3]
    assert not unfilled, unfilled[:3]
    assert saved


@pytest.mark.parametrize("text", [
    "Maximilianus flips a 3: +3 Speed, and takes 2 Stress for the spin-out.",
    "Bartholomew is in gear 2: enter the 2 cards revealed.",
    "Speed 6 · Heat 1 · Cooldown 1",
    "傳奇黑色 翻出 2：速度 +2。Maximilianus 拿 2 張壓力卡，第 30 格。",
    "남궁민수는 37번 칸으로 스핀아웃, 스트레스 2장을 받고 1단 기어로 내려갑니다.",
])
def test_a_number_stays_on_the_line_of_the_words_beside_it(ui, text: str) -> None:
    """A number was drawn on one line and its noun or verb on the next ("…takes 2" /
    "Stress", "…拿 2" / "張壓力卡", "37번" / "칸으로", "Cooldown" / "1": found by a table
    test on the race screen and the draft's cards; Results and Standings kept them already).
    Every label's rendering now keeps a number with the words beside it (no-break spaces,
    where they fit a line: ``line_breaks.kept_numbers``). At every width from the widest group
    of words so joined to 420 px: no line ends or begins with a number (but after closing
    punctuation), nothing is lost, and the lines counted are the lines drawn."""
    from companion.ui.widgets.line_breaks import NO_LINE_START

    widest = max(FIT.width(group, 15) for group in (
        "flips a 3: +3 Speed,", "and takes 2 Stress", "gear 2: enter the 2 cards",
        "Speed 6 · Heat 1 · Cooldown 1", "翻出 2：速度 +2。", "拿 2 張壓力卡，第 30 格。",
        "남궁민수는 37번 칸으로", "스트레스 2장을 받고 1단 기어로"))
    torn, wrong = [], []
    for width in range(int(widest) + 4, 420, 3):  # each group of words joined fits a line
        drawn = _drawn_lines(text, width)
        assert "".join(drawn).replace(" ", "") == text.replace(" ", "")  # nothing lost
        if len(drawn) != FIT.lines(text, 15, width):
            wrong.append((width, len(drawn), FIT.lines(text, 15, width)))
        for before, line in zip(drawn, drawn[1:], strict=False):
            end, start = before.rstrip().split(" ")[-1], line.lstrip().split(" ")[0]
            if end[-1:] in NO_LINE_START:
                continue
            if end[-1:].isdigit() or start[:1].isdigit() or (
                    start[:1] in "+-" and start[1:2].isdigit()):
                torn.append((width, before, line))
    assert not torn, torn[:3]
    assert not wrong, wrong[:3]


def test_a_separator_between_a_card_s_figures_is_never_joined() -> None:
    """A Garage card's figures are written "Speed 0 · 1 個「+」（翻基本卡） · Cooldown 3": the
    numbers kept with their words joined the whole line into one run across the "·", wider
    than the card, and Kivy broke it inside a word ("（翻基本" / "卡）"; found by a table test).
    A word with no letter or digit is never joined; each figure keeps its number."""
    from companion.ui.widgets.line_breaks import kept_numbers

    def measure(text: str) -> float:
        return 10.0 * len(text)

    kept = kept_numbers("速度 0 · 1 個「+」（翻基本卡） · 冷卻 3", 400, measure)
    assert kept == "速度\u00a00 · 1\u00a0個「+」（翻基本卡） · 冷卻\u00a03"
    assert kept_numbers("Speed 6 · Heat 1 · Cooldown 1", 400, measure) == (
        "Speed\u00a06 · Heat\u00a01 · Cooldown\u00a01")


@pytest.mark.parametrize("text", [
    "1962 第 2 場（共 3 場）：英國，3 圈，車庫選牌：박지성、 傳奇灰色、 황보세종대왕、 傳奇黑色、 "
    "이순신장군님、 남궁민수",
    "1962 第 2 場（共 3 場）：英國，3 圈，第 2 回合：박지성、 傳奇灰色、 황보세종대왕",
    "美國，1 圈，第 2 回合：남궁민수、 박지성、 황보세종대왕、 김연아、 제갈공명、 이순신장군님",
])
def test_a_korean_name_in_a_chinese_line_is_not_broken_inside(ui, text: str) -> None:
    """Start's Continue line in zh_TW read "…車庫選牌：박지" / "성、 傳奇灰色…" (found by a
    table test): a Korean name joined to the Chinese before it (no space between) was broken
    between its syllables where the line could break before it. A Hangul word that fits a
    line is broken inside only where nothing else on the line may break; at every width from
    120 to 420 px, the lines counted are the lines drawn."""
    import re


    names = [(m.start(), m.end()) for m in re.finditer("[가-힣]+", text)]
    laid, wrong = _starts_by_width(text, range(120, 420, 4))
    broken = [(width, text[start:end], drawn) for width, drawn, starts in laid
              for start, end in names
              if FIT.width(text[start:end] + "、", 15) <= width
              and any(start < at < end for at in starts)]
    assert not (broken or wrong), (broken[:3], wrong[:3])


def equations(language: str) -> list[str]:
    """The catalog's messages in ``language`` with an operator written as a word of its own
    (a Legends card's "limit {limit} + diamond {diamond} = {move} spaces"), their fields
    filled (a twelve-letter name, two-digit numbers)."""
    import re

    names = {"en": "Maximilianus", "zh_TW": "歐陽娜娜司馬長風上官婉兒",
             "ko": "제갈공명남궁민수황보영희"}
    catalog = i18n.translation(language)
    out = []
    for msgid in extract.messages():
        if not re.search("(^| )[+=→]( |$)", msgid):
            continue
        msgstr = catalog.gettext(msgid)
        fields = [f for _lit, f, _spec, _conv in string.Formatter().parse(msgstr) if f]
        out.append(msgstr.format(**{f: names[language] if f in CAR_FIELDS else "12"
                                    for f in fields}))
    return out


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_an_equation_never_breaks_after_an_operator(ui, language: str) -> None:
    """A zh_TW Legends ruling, at the body size after Continue, read "…+ 菱形 2 =" / "9 格…"
    (found by a table test): Kivy breaks at any space, so a line could end with "+" or "=",
    or begin with "= 9". No line ends with an operator ("+", "=", "→") nor begins with "="
    or "→" now (``line_breaks.kept_numbers``), in every message of the catalog that writes
    one as a word of its own, at the ruling box's two sizes (15 and 18 px at 800x480), at
    every width from the equation's ("+ diamond 12 = 12 spaces.") to 420 px; nothing is lost
    and the lines counted are the lines drawn."""
    texts = equations(language)
    assert len(texts) >= 4, texts
    torn, wrong = [], []
    for text in texts:
        for size in (15, 18):
            widest = _widest_kept(text, size)
            assert widest < 300, (text, widest)  # the equation is kept, not the sentence
            for width in range(int(widest) + 2, 420, 5):
                drawn = _drawn_lines(text, width, size)
                assert "".join(drawn).replace(" ", "") == text.replace(" ", "")  # nothing lost
                if len(drawn) != FIT.lines(text, size, width):
                    wrong.append((size, width, drawn, FIT.lines(text, size, width)))
                torn += [(size, width, before, line)
                         for before, line in zip(drawn, drawn[1:], strict=False)
                         if before.rstrip()[-1:] in "+=→" or line.lstrip()[:1] in "=→"]
    assert not torn, torn[:3]
    assert not wrong, wrong[:3]


def _widest_kept(text: str, size: float) -> float:
    """The widest part of ``text`` that no line may break inside once its numbers and
    operators are kept (``kept_numbers`` with room for any line; a Chinese run broken where
    a line may break in it): the narrowest line in which every such part fits whole."""
    from companion.ui.widgets.line_breaks import fill_breaks, kept_numbers

    def measure(part: str) -> float:
        return FIT.width(part, size)

    widest = 0.0
    for word in kept_numbers(text, 10_000, measure).split(" "):
        cuts = [0, *fill_breaks(word, lambda part: True), len(word)]
        parts = zip(cuts, cuts[1:], strict=False)
        widest = max([widest, *(measure(word[a:b]) for a, b in parts)])
    return widest


def test_a_short_term_in_parentheses_is_not_broken_inside(ui) -> None:
    """A zh_TW Garage card read "速度 0 · 1 個「+」（翻基本" / "卡） · 冷卻 3" on a narrow card
    (found by a table test): a line broke inside a parenthesised term. A short term wholly in
    parentheses stays on one line where it fits one, as a term in corner brackets does, at
    every width the card's figures take; the lines counted are the lines drawn."""

    text = "速度 0 · 1 個「+」（翻基本卡） · 冷卻 3"
    term = text.index("（"), text.index("）")
    laid, wrong = _starts_by_width(text, range(100, 320, 2))
    broken = [(width, drawn) for width, drawn, starts in laid
              if any(term[0] < at <= term[1] for at in starts)]
    assert not (broken or wrong), (broken[:3], wrong[:3])


KOREAN_COUNTED = (
    ("Draft order: {order}. {car} picks first and may then swap one earlier Upgrade for a "
     "card left.", "업그레이드 한 장을"),
    ("{car} picked first: swap one earlier Upgrade for a card left, or skip.",
     "업그레이드 한 장을"),
    ("{car} is in gear {gear}: enter the {gear} card(s) revealed.", "카드 3장을"),
)
"""Korean messages with a counted phrase (a noun, its number, the counter), the phrase."""


@pytest.mark.parametrize(("msgid", "phrase"), KOREAN_COUNTED)
def test_a_korean_counted_phrase_stays_whole(ui, msgid: str, phrase: str) -> None:
    """Next race's draft-order line in Korean broke "…업그레이드 한" / "장을 바꿀…" (found by a
    table test): a number written as a word ("한", "두", "세") was torn from its counter, a
    line began with "장을". A counted phrase ("업그레이드 한 장을", "카드 3장을") stays on one
    line wherever it fits one, at every width from 120 to 420 px; the lines counted are the
    lines drawn."""

    name = "정우성한지민송강호김혜수"
    text = i18n.translation("ko").gettext(msgid).format(
        order=", ".join([name, "Maximilianus", "歐陽娜娜司馬長風上官婉兒"]), car=name, gear=3)
    start = text.index(phrase)
    laid, wrong = _starts_by_width(text, range(120, 420, 4))
    broken = [(width, drawn) for width, drawn, starts in laid
              if FIT.width(phrase, 15) <= width
              and any(start < at < start + len(phrase) for at in starts)]
    assert not (broken or wrong), (broken[:3], wrong[:3])
