"""Framing, checksums, message parsing and the partial-line buffer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware import protocol as p
from hardware.events import TableButton
from hardware.outputs import LedPattern

REPO = Path(__file__).resolve().parents[2]


def test_crc16_ccitt_false_check_value() -> None:
    assert p.crc16(b"123456789") == 0x29B1
    assert p.crc16(b"") == 0xFFFF


def bitwise_crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE written out from its definition (poly 0x1021, init 0xFFFF)."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


@given(st.binary(max_size=200))
def test_crc16_is_the_ccitt_false_definition(data: bytes) -> None:
    assert p.crc16(data) == bitwise_crc16(data)


def test_frame_and_unframe_round_trip() -> None:
    line = p.frame("PRESS", 13, "READY", 5, 3)
    assert line == b"PRESS 13 READY 5 3*5855\n"
    assert p.unframe(line[:-1]) == ["PRESS", "13", "READY", "5", "3"]
    assert p.unframe(line[:-1] + b"\r") == ["PRESS", "13", "READY", "5", "3"]
    with pytest.raises(ValueError):
        p.frame("bad body")
    with pytest.raises(ValueError):
        p.frame("ERR", "x" * 100)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"", "empty"),
        (b"PING", "no-checksum"),
        (b"PING*642", "no-checksum"),
        (b"PING*6427X", "no-checksum"),
        (b"PING*6a27", "no-checksum"),
        (b"PING*6428", "bad-checksum"),
        (b"PRESS 13 READY 5 3*5856", "bad-checksum"),
        (b"PRESS 13 READY 5 4*5855", "bad-checksum"),
        (b"PRESS  13*0000", "bad-syntax"),
        (b" PING*0000", "bad-syntax"),
        (b"ping*0000", "bad-syntax"),
        (b"PING \xff*0000", "bad-syntax"),
        (b"A" * 97 + b"*0000", "too-long"),
    ],
)
def test_unframe_rejects(line: bytes, reason: str) -> None:
    with pytest.raises(p.ProtocolError) as info:
        p.unframe(line)
    assert info.value.reason == reason


def hub(*tokens: object) -> p.HubMessage:
    return p.parse_hub_message([str(t) for t in tokens])


def test_parse_hub_messages() -> None:
    assert hub("HELLO", 1, "3f2a9c01", 12, "5,6") == p.Hello(1, "3f2a9c01", 12, (5, 6))
    assert hub("HELLO", 1, "3f2a9c01", 0, "-") == p.Hello(1, "3f2a9c01", 0, ())
    assert hub("HELLO", 2, "3f2a9c01", 12, "5,6") == p.Hello(2, "3f2a9c01", 12, (5, 6))
    assert hub("HELLO", 3, "whatever", "the", "future", "says") == p.Hello(3, "", 0, ())
    assert hub("HELLO", 0) == p.Hello(0, "", 0, ())
    assert hub("PRESS", 13, "READY", 5, 3) == p.Press(13, "READY", 5, 3)
    assert hub("PRESS", 14, "NEXT", 0, 0) == p.Press(14, TableButton.NEXT, 0, 0)
    assert hub("DIAL", 5, 4) == p.Dial(5, 4)
    assert hub("GAP", 3, 40) == p.Gap(3, 40)
    assert hub("SYNCED", 12) == p.Synced(12)
    assert hub("PONG") == p.Pong(None)  # version 1
    assert hub("PONG", 15) == p.Pong(15)  # version 2: the hub's latest press
    assert hub("ERR", "version") == p.HubError("version")


@pytest.mark.parametrize(
    ("tokens", "reason"),
    [
        (("HELLO", 1, "3F2A9C01", 0, "5"), "bad-boot-id"),
        (("HELLO", 1, "3f2a9c01", 0), "bad-arity"),
        (("HELLO", 1, "3f2a9c01", 0, "5,,6"), "bad-number"),
        (("PRESS", 0, "READY", 5, 3), "out-of-range"),
        (("PRESS", "013", "READY", 5, 3), "bad-number"),
        (("PRESS", 1, "READY", 0, 3), "bad-seat"),
        (("PRESS", 1, "READY", 9, 3), "out-of-range"),
        (("PRESS", 1, "READY", 5, 5), "out-of-range"),
        (("PRESS", 1, "NEXT", 5, 0), "bad-seat"),
        (("PRESS", 1, "SKIP", 0, 0), "unknown-button"),
        (("DIAL", 5, 0), "out-of-range"),
        (("DIAL", 5), "bad-arity"),
        (("GAP", 9, 3), "out-of-range"),
        (("SYNCED", "-1"), "bad-number"),
        (("PONG", 1, 2), "bad-arity"),
        (("PONG", "x"), "bad-number"),
        (("PONG", 2**31), "out-of-range"),
        (("GAP", 0, 3), "out-of-range"),
        (("HELLO", 2, "3f2a9c01", 0), "bad-arity"),
        (("LED", 5, "ON"), "unknown-message"),
    ],
)
def test_parse_hub_message_rejects(tokens: tuple[object, ...], reason: str) -> None:
    with pytest.raises(p.ProtocolError) as info:
        hub(*tokens)
    assert info.value.reason == reason


def test_host_messages() -> None:
    def parse(line: bytes) -> p.HostCommand:
        return p.parse_host_message(p.unframe(line.rstrip(b"\n")))

    assert parse(p.hello()) == p.HostCommand("HELLO", (2,))
    assert parse(p.hello(1)) == p.HostCommand("HELLO", (1,))
    assert parse(p.sync(12)) == p.HostCommand("SYNC", (12,))
    assert parse(p.led(5, LedPattern.FAST_BLINK)) == p.HostCommand("LED", (5,),
                                                                   LedPattern.FAST_BLINK)
    assert parse(p.beep(2, 80, 80)) == p.HostCommand("BEEP", (2, 80, 80))
    assert parse(p.ping()) == p.HostCommand("PING")
    with pytest.raises(p.ProtocolError):
        p.parse_host_message(["LED", "5", "PINK"])


def test_line_buffer_keeps_partial_lines() -> None:
    buf = p.LineBuffer()
    assert buf.feed(b"PING*64") == []
    assert buf.pending == 7
    assert buf.feed(b"27\nPO") == [b"PING*6427"]
    assert buf.feed(b"NG*D687\n\n") == [b"PONG*D687", b""]
    assert buf.pending == 0


def test_line_buffer_cuts_endless_garbage() -> None:
    buf = p.LineBuffer()
    out = []
    for _ in range(1000):  # 100 kB without a newline
        out += buf.feed(b"x" * 100)
    assert out == [b"x" * (p.MAX_LINE + 1)]
    assert buf.pending == 0  # discarding, not storing
    assert buf.feed(b"yyy\nPING*6427\n") == [b"PING*6427"]


@given(st.lists(st.binary(max_size=30).filter(lambda b: b"\n" not in b), max_size=20),
       st.data())
def test_line_buffer_any_chunking_gives_the_same_lines(lines: list[bytes],
                                                       data: st.DataObject) -> None:
    stream = b"".join(line + b"\n" for line in lines)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    buf, got, start = p.LineBuffer(), [], 0
    for cut in [*cuts, len(stream)]:
        got += buf.feed(stream[start:cut])
        start = cut
    assert got == lines


def test_every_example_frame_in_the_protocol_doc_is_valid() -> None:
    """docs/serial-protocol.md: `> ` lines are host->hub, `< ` lines hub->host; a line whose
    comment says "rejected" must fail, every other one must parse."""
    doc = (REPO / "docs" / "serial-protocol.md").read_text(encoding="utf-8")
    examples = re.findall(r"^([<>]) (\S[^*\n]*\*[0-9A-Fa-f]{4})([ \t]+.*)?$", doc, re.MULTILINE)
    assert len(examples) >= 20
    for direction, frame, comment in examples:
        line = frame.encode()
        if "rejected" in (comment or ""):
            with pytest.raises(p.ProtocolError):
                p.parse_hub_message(p.unframe(line))
        elif direction == ">":
            p.parse_host_message(p.unframe(line))
        else:
            p.parse_hub_message(p.unframe(line))
