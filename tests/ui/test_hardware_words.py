"""The hardware layer's reasons in the table's words (issue 10 point 5): every reason
``hardware.detect`` gives for a missing or partial table maps to its own sentence, translated,
never to a file path; the technical text itself stays with the caller."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from gpiozero.exc import BadPinFactory

from companion import i18n
from companion.ui.views.hardware_words import REASONS, UNKNOWN, reason_sentences
from hardware import InputQueue, detect

GPIO_ONLY = "[seat.1]\ndial.gray = [17, 27]\nready = 22\nled = 23\n"


def _not_a_pi() -> None:
    raise BadPinFactory("Unable to load any default pin factory!")


def _reasons(tmp_path: Path) -> dict[str, str]:
    """What ``detect`` says for each kind of missing table (real calls, real messages)."""
    queue = InputQueue()
    broken = tmp_path / "broken.toml"
    broken.write_text("[seat.1]\nready = 0\ndial.gray = [17, 27]\n", encoding="utf-8")
    empty = tmp_path / "empty.toml"
    empty.write_text("version = 1\n", encoding="utf-8")
    gpio = tmp_path / "gpio.toml"
    gpio.write_text(GPIO_ONLY, encoding="utf-8")
    return {
        "no file": detect(queue, tmp_path / "missing.toml").reason,
        "rejected": detect(queue, broken).reason,
        "empty": detect(queue, empty).reason,
        "no gpio": detect(queue, gpio, pin_factory=_not_a_pi).reason,
    }


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_every_detection_reason_has_its_own_translated_sentence(tmp_path: Path,
                                                                language: str) -> None:
    reasons = _reasons(tmp_path)
    english = {kind: reason_sentences(reason) for kind, reason in reasons.items()}
    i18n.set_language(language)
    try:
        said = {kind: reason_sentences(reason) for kind, reason in reasons.items()}
        known = {i18n._(text) for _pattern, text in REASONS}
        for kind, sentences in said.items():
            assert len(sentences) == 1, (kind, sentences)  # "running touch-only" dropped
            assert sentences[0] in known, (kind, sentences)
            assert "/" not in sentences[0] and str(tmp_path) not in sentences[0]
        assert len({s[0] for s in said.values()}) == len(said)  # each its own sentence
        if language != "en":  # translated: no English word left but the Pi's "GPIO"
            for kind, sentences in said.items():
                assert sentences != english[kind]
                assert re.findall(r"[A-Za-z]{2,}", sentences[0]) in ([], ["Pi"], ["GPIO"])
    finally:
        i18n.set_language("en")


def test_an_unknown_reason_is_said_in_general_words() -> None:
    assert reason_sentences("OSError: [Errno 5] Input/output error") == [UNKNOWN]
    assert reason_sentences("") == []
    assert reason_sentences("running touch-only") == []


def test_every_hub_line_problem_is_said_in_words() -> None:
    """Every problem code ``hardware.protocol`` gives a bad hub line ("no-checksum") has its
    words in each language ("Bad lines from the hub so far: 1 (last: no checksum)."): a table test
    saw the code itself inside zh_TW and ko sentences."""
    from companion.ui.views.hardware_words import PROTOCOL_PROBLEMS, reason_text
    from hardware.events import Reason

    source = (Path(__file__).resolve().parents[2] / "hardware" / "protocol.py").read_text(
        encoding="utf-8")
    codes = set(re.findall(r'ProtocolError\("([a-z-]+)"', source))
    assert codes and codes <= set(PROTOCOL_PROBLEMS)
    reason = Reason.of("Bad lines from the hub so far: {count} (last: {problem}).", count=3,
                       problem="no-checksum")
    try:
        for language in ("zh_TW", "ko"):
            i18n.set_language(language)
            text = reason_text(reason)
            assert "no-checksum" not in text and "checksum" not in text, text
            assert not re.search(r"[A-Za-z]", text), text
    finally:
        i18n.set_language("en")
    assert reason_text(reason) == "Bad lines from the hub so far: 3 (last: no checksum)."
