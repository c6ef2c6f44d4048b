"""Korean particles in their one form after a number or a Hangul name ("열 3을", "민수는"),
both forms kept after a Latin name (its reading is unknown): ``companion.i18n.particles``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from companion import i18n
from companion.engine import explain
from companion.i18n.counts import fill
from companion.i18n.extract import po_path
from companion.i18n.particles import final_consonant, particles
from companion.i18n.pofile import read_po
from companion.ui.views.words import render


@pytest.mark.parametrize(("word", "final"), [
    ("0", "ㅇ"), ("1", "ㄹ"), ("2", ""), ("3", "ㅁ"), ("4", ""), ("5", ""), ("6", "ㄱ"),
    ("7", "ㄹ"), ("8", "ㄹ"), ("9", ""), ("10", "ㅂ"), ("20", "ㅂ"), ("100", "ㄱ"),
    ("1000", "ㄴ"), ("10000", "ㄴ"), ("12", ""), ("15", ""), ("17", "ㄹ"), ("110", "ㅂ"),
    ("수", ""), ("민", "ㄴ"), ("길", "ㄹ"), ("명", "ㅇ"),
])
def test_a_number_and_a_syllable_end_as_read_aloud(word: str, final: str) -> None:
    assert final_consonant(word) == final


def test_each_pair_takes_its_one_form() -> None:
    assert particles("열 3을(를), 열 2을(를), 3이(가), 2이(가), 3은(는), 2은(는)") == (
        "열 3을, 열 2를, 3이, 2가, 3은, 2는")
    assert particles("속도 3(으)로, 속도 9(으)로, 속도 7(으)로, 10(으)로") == (
        "속도 3으로, 속도 9로, 속도 7로, 10으로")  # after ㄹ: 로
    assert particles("남궁민수은(는) 제갈공명이(가) 황보영길과(와)") == (
        "남궁민수는 제갈공명이 황보영길과")
    kept = "Maximilianus은(는) 2등, Ana(으)로"
    assert particles(kept) == kept  # a Latin name: both forms stay


def test_a_number_that_ends_a_latin_word_keeps_both_forms() -> None:
    """A driver named "Ana2", a port "ttyACM0": the number ends a Latin word, read in English
    ("투", "제로") or in Korean ("이", "영"); "Ana2가" fitted one reading only. Both forms
    stay, as after a Latin name; a number on its own still takes its one form."""
    kept = "Ana2이(가), 포트 /dev/ttyACM0을(를), B12은(는)"
    assert particles(kept) == kept
    assert particles("+6이(가), 1-4을(를), 레전드3은(는)") == "+6이, 1-4를, 레전드3은"


def test_korean_rulings_take_the_particle_of_their_number_and_name() -> None:
    """A ruling filled with numbers read "열 3을(를) 냅니다", "열 2이(가) 엔진으로 돌아갑니다"
    (found by a table test): an engine sentence and a screen's message now take the form."""
    i18n.set_language("ko")
    try:
        paid = render(explain("Speed {speed} through a limit-{limit} corner: pay {owed} Heat.",
                              speed=7, limit=5, owed=2))
        assert paid == "속도 7로 제한 5 코너 통과: 열 2를 냅니다."
        cooled = render(explain("{car} cools down: {amount} Heat back into the engine.",
                                car="남궁민수", amount=2))
        assert cooled == "남궁민수 쿨다운: 열 2가 엔진으로 돌아갑니다."
        assert fill("{car}은(는) {n}을(를)", car="민수", n=3) == "민수는 3을"
    finally:
        i18n.set_language("en")


def test_the_screens_messages_take_the_particle_too() -> None:
    """Messages a screen fills in itself (not the engine's rulings) kept "민준(으)로",
    "빨강은(는)", "레이스 라인(으)로" (found by a table test): the name check, Undo's
    "back to", and the keypad's prompt take the one form as well."""
    import tracks
    from companion.engine import ChooseGear, apply
    from companion.ui.views import inputs
    from companion.ui.views.drivers import Driver
    from companion.ui.views.race_form import RaceForm

    i18n.set_language("ko")
    try:
        form = RaceForm(seed=1)
        form.drivers = [Driver("red", name="민준", seat=1), Driver("blue", name="민준", seat=2)]
        clash = form.name_clash()
        assert clash is not None and "민준으로" in clash.why and "(으)로" not in clash.why
        form.drivers = [Driver("red", seat=1), Driver("blue", name="빨강", seat=2)]
        clash = form.name_clash()
        assert clash is not None and clash.said.startswith("빨강은 ")
        form.drivers = [Driver("red", name="민준", seat=1), Driver("blue", name="서연", seat=2)]
        state = form.setup(tracks.load_track("usa"))
        from companion.engine import start_race

        race = start_race(state).state
        race = apply(race, ChooseGear("red", 1)).state
        back = inputs.back_to(race, "red")()
        assert "(으)로" not in back and back.endswith("로 되돌리세요."), back
    finally:
        i18n.set_language("en")


HARD_CODED = re.compile(r"\{(\w+)\}(은|는|이|가|을|를|과|와|으로|로)(?=[\s.,:;)]|$)")
"""A placeholder followed by one form of a particle that has two: "+{bonus}는" read "+1는"
(found by a table test); the catalog writes both, "+{bonus}은(는)", and the app picks one."""


def test_no_korean_message_hard_codes_a_particle_after_a_placeholder() -> None:
    catalog = read_po(po_path("ko").read_text(encoding="utf-8"))
    found = [(msgid, match.group(0)) for msgid, msgstr in catalog.messages.items()
             for match in HARD_CODED.finditer(msgstr or "")]
    assert found == []


@pytest.mark.parametrize(("bonus", "said"), [(1, "+1은"), (2, "+2는")])
def test_a_declined_bonus_takes_its_number_s_particle(bonus: int, said: str) -> None:
    i18n.set_language("ko")
    try:
        declined = render(explain(
            "{car} slipstreams behind {other}: {spaces} more space(s), {source} bonus +{bonus} "
            "declined; Speed unchanged.", car="민준", other="서연", spaces=3, source="맑음",
            bonus=bonus))
        assert f"맑음 보너스 {said} 받지 않음" in declined, declined
    finally:
        i18n.set_language("en")


def test_the_hardware_s_and_the_legends_limit_s_words_take_the_particle_too() -> None:
    """Their messages were filled with ``format``, which leaves both forms: "+6이(가)"."""
    from companion.ui.views import drivers
    from companion.ui.views.hardware_words import reason_text
    from hardware.events import Reason

    i18n.set_language("ko")
    try:
        said = reason_text(Reason.of("The hub's press numbers are at {latest}, behind {last}: "
                                     "presses after {latest} will be used.", latest=3, last=9))
        assert said.startswith("허브의 누름 번호가 3으로,"), said
        note = drivers.DriverList.why_no_higher_bonus()
        assert note == "레전드 직선 +6이 가장 높은 난이도입니다.", note
    finally:
        i18n.set_language("en")


PAIR = re.compile(r"\{\w+\}[)」']?(?:은\(는\)|이\(가\)|을\(를\)|과\(와\)|\(으\)로)")
"""A placeholder followed by a particle in both forms: only :func:`particles` (through
``counts.fill`` or ``words.render``) picks the one form the value takes."""


def _format_calls(path: Path) -> list[tuple[int, str | None]]:
    """Each ``_(message).format(...)`` in the module at ``path`` that no ``particles(...)``
    wraps, with its msgid (a string, or a module constant set to ``N_("...")`` or a string);
    None when the message is not one the module writes (a parameter: any message)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], ast.Name):
            value = node.value
            if (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                    and value.func.id == "N_" and value.args):
                value = value.args[0]
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                constants[node.targets[0].id] = value.value
    wrapped = {id(arg) for node in ast.walk(tree) if isinstance(node, ast.Call)
               and isinstance(node.func, ast.Name) and node.func.id == "particles"
               for arg in node.args}
    found: list[tuple[int, str | None]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "format" and id(node) not in wrapped):
            continue
        message = node.func.value
        if not (isinstance(message, ast.Call) and isinstance(message.func, ast.Name)
                and message.func.id == "_" and message.args):
            continue
        arg = message.args[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            found.append((node.lineno, arg.value))
        elif isinstance(arg, ast.Name) and arg.id in constants:
            found.append((node.lineno, constants[arg.id]))
        else:
            found.append((node.lineno, None))
    return found


def test_no_message_with_a_two_form_particle_is_filled_by_format_alone() -> None:
    """``str.format`` leaves a Korean particle in both forms: a refusal read "민준은(는)
    이미 2단 기어로 준비했습니다" (the controller's refusals, the table hardware's lines, the
    storage faults' reasons, a new log's name, the engine's parameter words and a Garage
    card's figures filled their messages so). Every ``_(message).format(...)`` in the app
    and the hardware code fills a message whose Korean has no two-form particle after a
    placeholder; one that could be any message (a parameter) is filled with
    ``counts.fill``, which picks the one form."""
    catalog = read_po(po_path("ko").read_text(encoding="utf-8"))
    two_forms = {msgid for msgid, msgstr in catalog.messages.items() if PAIR.search(msgstr)}
    assert len(two_forms) > 80  # the scan reads the catalog
    root = Path(__file__).resolve().parents[2]
    found, calls = [], 0
    for path in sorted([*(root / "companion").rglob("*.py"), *(root / "hardware").rglob("*.py")]):
        for line, msgid in _format_calls(path):
            calls += 1
            if msgid is None or msgid in two_forms:
                found.append((str(path.relative_to(root)), line, msgid))
    assert calls > 50  # the scan finds the calls
    assert not found, "\n".join(map(str, found))
