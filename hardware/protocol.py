"""Heat hub serial line protocol, versions 1 and 2 (specified in docs/serial-protocol.md).

Every message is one ASCII line ``BODY*CCCC\\n``: ``BODY`` is space-separated tokens,
``CCCC`` the CRC-16/CCITT-FALSE of ``BODY`` as 4 upper-case hex digits. This module is pure:
framing, parsing and encoding, no I/O. The same rules are implemented by the reference firmware
(deploy/hub-firmware/main.py); a test runs that firmware's logic against this module.

Version 2 adds one thing: ``PONG <latest>`` carries the number of the hub's last press, so an
idle host notices a press whose line was lost. The host speaks both versions (see
:mod:`hardware.hub_session`).
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass

from .events import GEARS, MAX_SEATS, TableButton
from .outputs import LedPattern

PROTOCOL_VERSION = 2
"""The newest version this host speaks; it sends it in ``HELLO``."""
OLDEST_PROTOCOL_VERSION = 1
"""The oldest hub version this host still works with (a hub answers ``HELLO`` with the version
both sides will speak)."""
MAX_LINE = 96
"""Longest valid line in bytes, without the newline."""
MAX_SEQ = 2**31 - 1

_BODY = re.compile(rb"[A-Z][A-Z?]*(?: [0-9A-Za-z,._:/?-]+)*")
_NUMBER = re.compile(r"0|[1-9][0-9]{0,9}")
_BOOT_ID = re.compile(r"[0-9a-f]{8}")
LED_TOKENS: dict[LedPattern, str] = {
    LedPattern.OFF: "OFF",
    LedPattern.ON: "ON",
    LedPattern.BLINK: "BLINK",
    LedPattern.FAST_BLINK: "FAST",
}
_LED_BY_TOKEN = {token: pattern for pattern, token in LED_TOKENS.items()}
READY = "READY"
_BUTTON_BY_TOKEN = {b.value.upper(): b for b in TableButton}


class ProtocolError(ValueError):
    """A line that is not a valid message; ``reason`` is a short stable word for counting."""

    def __init__(self, reason: str, detail: str = "") -> None:
        self.reason = reason
        super().__init__(f"{reason}: {detail}" if detail else reason)


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final XOR.

    The standard library's ``crc_hqx`` is exactly this CRC (the XMODEM one with the initial
    value given), in C; the firmware keeps its own bit-by-bit loop, and a test checks that the
    two agree."""
    return binascii.crc_hqx(data, 0xFFFF)


def frame(*tokens: object) -> bytes:
    """One wire line (with its newline) for ``tokens``."""
    body = " ".join(str(t) for t in tokens).encode("ascii")
    if not _BODY.fullmatch(body):
        raise ValueError(f"not a valid message body: {body!r}")
    line = body + b"*%04X" % crc16(body)
    if len(line) > MAX_LINE:
        raise ValueError(f"message too long ({len(line)} > {MAX_LINE} bytes)")
    return line + b"\n"


def unframe(line: bytes) -> list[str]:
    """Tokens of one received line (newline already removed; a trailing CR is allowed).
    Raises :class:`ProtocolError`."""
    if line.endswith(b"\r"):
        line = line[:-1]
    if not line:
        raise ProtocolError("empty")
    if len(line) > MAX_LINE:
        raise ProtocolError("too-long", f"{len(line)} bytes")
    body, star, check = line.rpartition(b"*")
    if not star or len(check) != 4 or not re.fullmatch(rb"[0-9A-F]{4}", check):
        raise ProtocolError("no-checksum")
    if not _BODY.fullmatch(body):
        raise ProtocolError("bad-syntax")
    if int(check, 16) != crc16(body):
        raise ProtocolError("bad-checksum")
    return body.decode("ascii").split(" ")


# -- hub -> host ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    version: int
    boot_id: str
    latest_seq: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Press:
    """``button`` is ``"READY"`` for a seat's Ready (``seat`` >= 1, ``gear`` 0 = between
    positions) or a :class:`TableButton` (``seat`` and ``gear`` 0)."""

    seq: int
    button: TableButton | str
    seat: int
    gear: int


@dataclass(frozen=True, slots=True)
class Dial:
    seat: int
    gear: int


@dataclass(frozen=True, slots=True)
class Gap:
    first: int
    last: int


@dataclass(frozen=True, slots=True)
class Synced:
    latest_seq: int


@dataclass(frozen=True, slots=True)
class Pong:
    """``latest_seq``: the hub's last press number (version 2); None from a version-1 hub."""

    latest_seq: int | None = None


@dataclass(frozen=True, slots=True)
class HubError:
    reason: str


HubMessage = Hello | Press | Dial | Gap | Synced | Pong | HubError


def _int(token: str, lo: int = 0, hi: int = MAX_SEQ) -> int:
    if not _NUMBER.fullmatch(token):
        raise ProtocolError("bad-number", token)
    value = int(token)
    if not lo <= value <= hi:
        raise ProtocolError("out-of-range", token)
    return value


def _arity(tokens: list[str], n: int) -> None:
    if len(tokens) != n + 1:
        raise ProtocolError("bad-arity", f"{tokens[0]} takes {n} arguments")


def parse_hub_message(tokens: list[str]) -> HubMessage:
    """Interpret the tokens of a line sent by the hub. Raises :class:`ProtocolError`."""
    kind = tokens[0]
    if kind == "HELLO":
        if (len(tokens) >= 2 and _NUMBER.fullmatch(tokens[1])
                and not OLDEST_PROTOCOL_VERSION <= int(tokens[1]) <= PROTOCOL_VERSION):
            return Hello(int(tokens[1]), "", 0, ())  # other version: caller refuses it
        _arity(tokens, 4)
        if not _BOOT_ID.fullmatch(tokens[2]):
            raise ProtocolError("bad-boot-id", tokens[2])
        seats = () if tokens[4] == "-" else tuple(
            _int(s, 1, MAX_SEATS) for s in tokens[4].split(",")
        )
        return Hello(_int(tokens[1]), tokens[2], _int(tokens[3]), seats)
    if kind == "PRESS":
        _arity(tokens, 4)
        seq, seat, gear = _int(tokens[1], 1), _int(tokens[3], 0, MAX_SEATS), _int(tokens[4], 0, 4)
        if tokens[2] == READY:
            if seat == 0:
                raise ProtocolError("bad-seat", "READY needs a seat")
            return Press(seq, READY, seat, gear)
        button = _BUTTON_BY_TOKEN.get(tokens[2])
        if button is None:
            raise ProtocolError("unknown-button", tokens[2])
        if seat or gear:
            raise ProtocolError("bad-seat", f"{tokens[2]} is a shared button")
        return Press(seq, button, 0, 0)
    if kind == "DIAL":
        _arity(tokens, 2)
        return Dial(_int(tokens[1], 1, MAX_SEATS), _int(tokens[2], GEARS[0], GEARS[-1]))
    if kind == "GAP":
        _arity(tokens, 2)
        first, last = _int(tokens[1], 1), _int(tokens[2], 1)
        if last < first:
            raise ProtocolError("out-of-range", "GAP last < first")
        return Gap(first, last)
    if kind == "SYNCED":
        _arity(tokens, 1)
        return Synced(_int(tokens[1]))
    if kind == "PONG":
        if len(tokens) == 1:
            return Pong()
        _arity(tokens, 1)
        return Pong(_int(tokens[1]))
    if kind == "ERR":
        _arity(tokens, 1)
        return HubError(tokens[1])
    raise ProtocolError("unknown-message", kind)


# -- host -> hub ------------------------------------------------------------------------------


def hello(version: int = PROTOCOL_VERSION) -> bytes:
    return frame("HELLO", version)


def sync(last_seq: int) -> bytes:
    return frame("SYNC", last_seq)


def led(seat: int, pattern: LedPattern) -> bytes:
    return frame("LED", seat, LED_TOKENS[pattern])


def beep(count: int, on_ms: int, off_ms: int) -> bytes:
    return frame("BEEP", count, on_ms, off_ms)


def ping() -> bytes:
    return frame("PING")


@dataclass(frozen=True, slots=True)
class HostCommand:
    """A parsed host -> hub line (used by the fake hub peer)."""

    kind: str
    args: tuple[int, ...] = ()
    pattern: LedPattern | None = None


def parse_host_message(tokens: list[str]) -> HostCommand:
    kind = tokens[0]
    if kind == "HELLO":
        _arity(tokens, 1)
        return HostCommand(kind, (_int(tokens[1]),))
    if kind == "SYNC":
        _arity(tokens, 1)
        return HostCommand(kind, (_int(tokens[1]),))
    if kind == "LED":
        _arity(tokens, 2)
        pattern = _LED_BY_TOKEN.get(tokens[2])
        if pattern is None:
            raise ProtocolError("bad-pattern", tokens[2])
        return HostCommand(kind, (_int(tokens[1], 1, MAX_SEATS),), pattern)
    if kind == "BEEP":
        _arity(tokens, 3)
        return HostCommand(kind, (_int(tokens[1], 1, 10), _int(tokens[2], 1, 2000),
                                  _int(tokens[3], 0, 2000)))
    if kind == "PING":
        _arity(tokens, 0)
        return HostCommand(kind)
    raise ProtocolError("unknown-message", kind)


class LineBuffer:
    """Collects bytes into complete lines; keeps partial lines across reads.

    A run of more than :data:`MAX_LINE` bytes without a newline is cut: its first
    ``MAX_LINE + 1`` bytes come out as one (over-long, hence rejected) line, the rest up to the
    next newline is discarded, so garbage can never grow the buffer without bound.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._discarding = False

    def feed(self, data: bytes) -> list[bytes]:
        lines: list[bytes] = []
        start = 0
        while True:
            nl = data.find(b"\n", start)
            chunk = data[start:] if nl < 0 else data[start:nl]
            if not self._discarding:
                self._buf += chunk
                if len(self._buf) > MAX_LINE:
                    lines.append(bytes(self._buf[: MAX_LINE + 1]))
                    self._buf.clear()
                    self._discarding = True
            if nl < 0:
                return lines
            if self._discarding:
                self._discarding = False
            else:
                lines.append(bytes(self._buf))
                self._buf.clear()
            start = nl + 1

    def clear(self) -> None:
        self._buf.clear()
        self._discarding = False

    @property
    def pending(self) -> int:
        """Bytes of an unfinished line held."""
        return len(self._buf)
