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
