"""Just enough of the PO and MO formats for our catalogs (no gettext tools needed).

:func:`read_po` / :func:`write_po` handle single-line-or-wrapped ``msgid``/``msgstr`` pairs
with ``#:`` references (no plurals, no contexts: the app uses neither). :func:`compile_mo`
writes the GNU ``.mo`` format that :mod:`gettext` reads (like ``msgfmt``).
"""

from __future__ import annotations

import ast
import struct
from dataclasses import dataclass, field


@dataclass
class Catalog:
    messages: dict[str, str]
    """msgid -> msgstr ("" = untranslated), in order."""
    refs: dict[str, list[str]] = field(default_factory=dict)


def _quote(text: str) -> str:
    escaped = (text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
               .replace("\t", "\\t"))
    return f'"{escaped}"'


def _field(keyword: str, text: str) -> str:
    if "\n" not in text.rstrip("\n") and len(text) < 70:
        return f"{keyword} {_quote(text)}\n"
    parts = text.splitlines(keepends=True)
    lines = [f'{keyword} ""'] + [_quote(part) for part in parts]
    return "\n".join(lines) + "\n"


def write_po(catalog: Catalog, *, language: str) -> str:
    header = (
        "Project-Id-Version: heat-companion\\n"
        f"Language: {language}\\n"
        "MIME-Version: 1.0\\n"
        "Content-Type: text/plain; charset=UTF-8\\n"
        "Content-Transfer-Encoding: 8bit\\n"
    )
    out = ["# heat-companion messages. Built by companion/i18n/extract.py; translate msgstr.\n",
           'msgid ""\n', f'msgstr "{header}"\n']
    for msgid, msgstr in catalog.messages.items():
        out.append("\n")
        for ref in catalog.refs.get(msgid, [])[:3]:
            out.append(f"#: {ref}\n")
        if "{" in msgid:
            out.append("#, python-brace-format\n")
        out.append(_field("msgid", msgid))
        out.append(_field("msgstr", msgstr))
    return "".join(out)


def read_po(text: str) -> Catalog:
    messages: dict[str, str] = {}
    current: dict[str, str] = {}
    key = ""

    def flush() -> None:
        if "msgid" in current and current["msgid"]:
            messages[current["msgid"]] = current.get("msgstr", "")
        current.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line and "msgstr" in current:
                flush()
            continue
        if line.startswith("msgid "):
            flush()
            key = "msgid"
            current[key] = ast.literal_eval(line[6:])
        elif line.startswith("msgstr "):
            key = "msgstr"
            current[key] = ast.literal_eval(line[7:])
        elif line.startswith('"'):
            current[key] = current.get(key, "") + ast.literal_eval(line)
    flush()
    return Catalog(messages)


def compile_mo(catalog: Catalog, *, language: str) -> bytes:
    """The ``.mo`` bytes of the translated messages plus the header entry."""
    header = ("Project-Id-Version: heat-companion\n"
              f"Language: {language}\n"
              "MIME-Version: 1.0\n"
              "Content-Type: text/plain; charset=UTF-8\n"
              "Content-Transfer-Encoding: 8bit\n")
    entries = {"": header}
    entries.update({k: v for k, v in catalog.messages.items() if v})
    keys = sorted(entries)
    ids = b""
    strs = b""
    offsets = []
    for key in keys:
        kb, vb = key.encode("utf-8"), entries[key].encode("utf-8")
        offsets.append((len(ids), len(kb), len(strs), len(vb)))
        ids += kb + b"\0"
        strs += vb + b"\0"
    count = len(keys)
    keystart = 7 * 4 + 16 * count
    valuestart = keystart + len(ids)
    koffsets: list[int] = []
    voffsets: list[int] = []
    for o1, l1, o2, l2 in offsets:
        koffsets += [l1, o1 + keystart]
        voffsets += [l2, o2 + valuestart]
    output = struct.pack("Iiiiiii", 0x950412DE, 0, count, 7 * 4, 7 * 4 + count * 8, 0, 0)
    output += struct.pack(f"{len(koffsets)}i", *koffsets)
    output += struct.pack(f"{len(voffsets)}i", *voffsets)
    return output + ids + strs
