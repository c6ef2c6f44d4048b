"""Reading a race file from disk: bytes -> UTF-8 text -> JSON -> :class:`RaceFile`, every step
checked, so that any file at all ends in a :class:`RaceFile` or one :class:`RaceFileError` line.

What a file can be besides a race: unreadable (missing, a folder, no permission), not UTF-8
(a UTF-16 export from another tool, a binary file), not JSON, nested deeper than any race file
is (a hostile file that would exhaust the parser's recursion), or holding a number of thousands
of digits (Python refuses to convert it, ``sys.get_int_max_str_digits``). Each gets one line that
names the file and what is wrong. A UTF-8 byte-order mark is accepted (RFC 8259, section
8.1, lets a reader ignore it; some Windows editors write one).

Standard library only (docs/race-file.md).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from .reading import RaceFile, RaceFileError, parse

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects accepted. A race file nests at most 6 levels
(``rounds[r].car.cards[i].upgrade``); a deeper file is refused before anything walks it."""

MAX_BYTES = 64 * 1024 * 1024
"""The largest file read: a race of 100 rounds and six cars is some 60 kB."""

_BOMS = {b"\xff\xfe": "UTF-16", b"\xfe\xff": "UTF-16"}


def _decode(data: bytes, where: str) -> str:
    for bom, name in _BOMS.items():
        if data.startswith(bom):
            raise RaceFileError(f"{where}: not UTF-8 text (it starts like {name}; save it as "
                                "UTF-8)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RaceFileError(
            f"{where}: not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start})"
        ) from error


def _too_deep(value: Any) -> bool:
    """True if ``value`` nests arrays/objects more than :data:`MAX_DEPTH` deep (no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > MAX_DEPTH:
            return True
        stack.extend((child, depth + 1) for child in children
                     if isinstance(child, dict | list))
    return False


def loads(data: bytes, where: str) -> Any:
    """The JSON value of a file's bytes; :class:`RaceFileError` (``where: problem``) if it has
    none a race file can hold."""
    text = _decode(data, where)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise RaceFileError(f"{where}: not JSON: line {error.lineno} column {error.colno}: "
                            f"{error.msg}") from error
    except RecursionError as error:
        raise RaceFileError(f"{where}: nested more than {MAX_DEPTH} levels deep") from error
    except ValueError as error:  # an integer beyond sys.get_int_max_str_digits()
        raise RaceFileError(f"{where}: a number of more than {sys.get_int_max_str_digits()} "
                            "digits") from error
    if _too_deep(value):
        raise RaceFileError(f"{where}: nested more than {MAX_DEPTH} levels deep")
    return value


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The file's bytes; :class:`RaceFileError` (``path: cannot read: reason``) if unreadable."""
    where = os.fspath(path)
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_BYTES + 1)
    except OSError as error:
        raise RaceFileError(f"{where}: cannot read: {error.strerror or error}") from error
    except ValueError as error:  # a path with a NUL character
        raise RaceFileError(f"{where}: cannot read: {error}") from error
    if len(data) > MAX_BYTES:
        raise RaceFileError(f"{where}: larger than {MAX_BYTES // (1024 * 1024)} MB, not a race "
                            "file")
    return data


def read_json(path: str | os.PathLike[str]) -> Any:
    """The JSON value of a file on disk, checked as :func:`loads` does."""
    return loads(read_bytes(path), os.fspath(path))


def read(path: str | os.PathLike[str]) -> RaceFile:
    """A race file on disk, read and checked (:func:`read_json`, then :func:`parse`)."""
    return parse(read_json(path))
