"""Compile every ``.po`` catalog into the ``.mo`` kept beside it (``msgfmt`` without gettext).

    python -m companion.i18n.msgfmt
"""

from __future__ import annotations

import sys

from . import LANGUAGES
from .extract import po_path
from .pofile import compile_mo, read_po


def main() -> int:
    for language in LANGUAGES:
        if language == "en":
            continue
        path = po_path(language)
        catalog = read_po(path.read_text(encoding="utf-8"))
        path.with_suffix(".mo").write_bytes(compile_mo(catalog, language=language))
    return 0


if __name__ == "__main__":
    sys.exit(main())
