"""Build ``HeatSans.ttf``: Noto Sans (Latin) merged with Droid Sans Fallback (Chinese, Korean).

Kivy draws a label in one font with no fallback, and neither source font covers all three of
our languages: Debian's ``DroidSansFallback.ttf`` has Han and Hangul but no Latin (and its
``Full`` variant lacks Hangul), Noto Sans has Latin only. This developer tool (not used at run
time) needs ``fonttools`` and the Debian packages ``fonts-droid-fallback`` and
``fonts-noto-core``::

    python -m venv /tmp/fontvenv && /tmp/fontvenv/bin/pip install fonttools
    /tmp/fontvenv/bin/python companion/i18n/fonts/build_font.py

Licences: Droid Sans Fallback is Apache-2.0 (``LICENSE-Apache-2.0.txt``), Noto Sans is under the
SIL Open Font License 1.1 (``LICENSE-OFL-1.1.txt``); see ``README.md`` beside this file.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset  # type: ignore[import-not-found]
from fontTools.merge import Merger  # type: ignore[import-not-found]
from fontTools.ttLib import TTFont  # type: ignore[import-not-found]
from fontTools.ttLib.scaleUpem import scale_upem  # type: ignore[import-not-found]

NOTO = "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"
DROID = "/usr/share/fonts-droid-fallback/truetype/DroidSansFallback.ttf"
OUT = Path(__file__).with_name("HeatSans.ttf")

LATIN = [(0x20, 0x24F), (0x2000, 0x206F), (0x20A0, 0x20CF), (0x2100, 0x21FF),
         (0x2212, 0x2212), (0x2460, 0x24FF), (0x25A0, 0x25FF), (0x2600, 0x26FF)]
CJK = [(0x1100, 0x11FF), (0x2E80, 0x2FDF), (0x3000, 0x30FF), (0x3100, 0x318F),
       (0x3200, 0x33FF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF),
       (0xFF00, 0xFFEF)]


def _subset(path: str, ranges: list[tuple[int, int]], out: Path) -> None:
    font = TTFont(path)
    options = subset.Options()
    options.layout_features = []
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[c for lo, hi in ranges for c in range(lo, hi + 1)])
    subsetter.subset(font)
    for table in ("GSUB", "GPOS", "GDEF", "kern", "hdmx", "LTSH", "VDMX", "DSIG", "vhea",
                  "vmtx", "cvt ", "fpgm", "prep", "gasp"):
        if table in font:
            del font[table]
    font["OS/2"].version = 4
    font["post"].formatType = 2.0
    font["post"].extraNames = []
    font["post"].mapping = {}
    if font["head"].unitsPerEm != 1000:
        scale_upem(font, 1000)
    font.save(out)


def main() -> int:
    tmp = OUT.parent / "_build"
    tmp.mkdir(exist_ok=True)
    latin, cjk = tmp / "latin.ttf", tmp / "cjk.ttf"
    _subset(NOTO, LATIN, latin)
    _subset(DROID, CJK, cjk)
    merged = Merger().merge([str(latin), str(cjk)])
    names = merged["name"]
    for record in list(names.names):
        if record.nameID in (1, 4, 16):
            names.setName("Heat Sans", record.nameID, record.platformID, record.platEncID,
                          record.langID)
        elif record.nameID == 6:
            names.setName("HeatSans-Regular", record.nameID, record.platformID,
                          record.platEncID, record.langID)
    merged.save(OUT)
    for path in (latin, cjk):
        path.unlink()
    tmp.rmdir()
    print(f"{OUT} {OUT.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
