"""Build the screens' typeface, TurboKiosk Sans (decision 0055): Kivy's Roboto with the symbols it
lacks taken from DejaVu Sans, so every text keeps Roboto's metrics (nothing laid out moves) and
arrows, suits, bullets, check and cross marks draw instead of empty boxes.

Run by a developer when the inputs change (``python -m kiosk.tools.fonts``); the two fonts it
writes are committed in ``ui/terminal/fonts`` with their licences, so nothing is fetched or built
at run or test time.  Inputs: Roboto 2.001101 as Kivy 2.3.1 ships it (Apache 2.0) and DejaVu Sans
2.37 as Debian's fonts-dejavu-core ships it (Bitstream Vera licence: a changed font is renamed,
hence the new name).  Needs fontTools (the ``test`` extra).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

#: the Unicode blocks taken from DejaVu where Roboto has no glyph: general punctuation, arrows,
#: mathematical operators, miscellaneous technical, geometric shapes, miscellaneous symbols
#: (suits), dingbats (check and cross marks)
BLOCKS = (
    (0x2000, 0x206F),
    (0x2190, 0x21FF),
    (0x2200, 0x22FF),
    (0x2300, 0x23FF),
    (0x25A0, 0x25FF),
    (0x2600, 0x26FF),
    (0x2700, 0x27BF),
)
FAMILY = "TurboKiosk Sans"
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
OUT = Path(__file__).resolve().parents[2] / "ui" / "terminal" / "fonts"
#: (style, Roboto file in Kivy's data, DejaVu file, output file)
FACES = (
    ("Regular", "Roboto-Regular.ttf", "DejaVuSans.ttf", "TurboKioskSans-Regular.ttf"),
    ("Bold", "Roboto-Bold.ttf", "DejaVuSans-Bold.ttf", "TurboKioskSans-Bold.ttf"),
)
#: a fixed build date (seconds since 1904, the font clock): the same inputs give the same bytes
BUILT = 3_847_000_000


def _rename(font: Any, style: str) -> None:
    """The merged font's names: no "Roboto" (Google's trademark), no "Vera"/"Bitstream"."""
    names = font["name"]
    full = f"{FAMILY} {style}"
    postscript = f"{FAMILY.replace(' ', '')}-{style}"
    copyright_ = (
        "Copyright 2011 Google Inc. All Rights Reserved. "
        "Copyright (c) 2003 by Bitstream, Inc. All Rights Reserved. DejaVu changes are in "
        "public domain. Merged for TurboKiosk: see LICENSE."
    )
    values = {
        0: copyright_,
        1: FAMILY,
        2: style,
        3: f"{postscript};TurboKiosk",
        4: full,
        6: postscript,
        7: "",
        13: "Apache License 2.0 (Roboto's glyphs) and the Bitstream Vera licence (DejaVu's)",
        16: FAMILY,
        17: style,
    }
    for record in list(names.names):
        if record.nameID in values:
            names.removeNames(nameID=record.nameID)
    for name_id, value in values.items():
        if value:
            names.setName(value, name_id, 3, 1, 0x409)
            names.setName(value, name_id, 1, 0, 0)


def build(out: Path = OUT, dejavu: Path = DEJAVU) -> list[Path]:
    """Write the two faces into ``out``; the files written."""
    import kivy
    from fontTools import subset
    from fontTools.merge import Merger
    from fontTools.ttLib import TTFont

    roboto = Path(kivy.__file__).resolve().parent / "data" / "fonts"
    written = []
    for style, base_name, extra_name, out_name in FACES:
        base = roboto / base_name
        extra = TTFont(dejavu / extra_name)
        have = set(TTFont(base).getBestCmap())
        wanted = [
            c
            for c in extra.getBestCmap()
            if c not in have and any(lo <= c <= hi for lo, hi in BLOCKS)
        ]
        options = subset.Options()
        options.layout_features = []
        options.hinting = False
        options.drop_tables += ["MATH", "GPOS", "GSUB", "GDEF", "kern", "FFTM"]
        cutter = subset.Subsetter(options)
        cutter.populate(unicodes=wanted)
        cutter.subset(extra)
        part = out / f".{out_name}.part"
        extra.save(part)
        try:
            merged = Merger().merge([str(base), str(part)])
        finally:
            part.unlink()
        _rename(merged, style)
        merged.recalcTimestamp = False  # the fixed date below, not the clock
        merged["head"].created = merged["head"].modified = BUILT
        target = out / out_name
        merged.save(target, reorderTables=True)
        written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m kiosk.tools.fonts``: rebuild the fonts in ``ui/terminal/fonts``."""
    _ = sys.argv[1:] if argv is None else argv
    for path in build():
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
