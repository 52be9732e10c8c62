"""Every character the screens can show has a glyph in the shipped typeface (issue 26, item 5:
the history's arrow, the PIN masks of the service menu and the Dealer Terminal, the touchscreen
test's cross drew as empty boxes in Kivy's Roboto).  Decision 0055."""

from __future__ import annotations

import numpy as np
import pytest
from fontTools.ttLib import TTFont
from kivy.core.text import DEFAULT_FONT, LabelBase
from kivy.core.text import Label as CoreLabel

from kiosk.table.presentation.i18n_dealer import DEALER_TEXTS
from kiosk.terminal.presentation.i18n import CATALOGUES
from kiosk.terminal.presentation.service_words import SERVICE_TEXTS
from tests.helpers import glyphs


@pytest.mark.parametrize("bold", [False, True], ids=["regular", "bold"])
def test_every_text_of_both_languages_has_its_glyphs(bold: bool) -> None:
    """Against the font every label uses: the one Kivy resolves for its default name."""
    face = LabelBase._fonts[DEFAULT_FONT][2 if bold else 0]
    cmap = set(TTFont(face).getBestCmap())
    texts = list(glyphs.every_text())
    assert len(texts) > 3000  # the gathering found the screens' texts
    shown = {text for _, text in texts}
    for language, table in CATALOGUES.items():  # the language tables are among them
        assert set(table.values()) <= shown, language
    for language, table in DEALER_TEXTS.items():  # and the Dealer Terminal's
        assert set(table.values()) <= shown, f"dealer {language}"
    for language, table in SERVICE_TEXTS.items():  # and the service menu's
        assert set(table.values()) <= shown, f"service {language}"
    lacking = glyphs.missing(cmap)
    assert not lacking, {char: (f"U+{ord(char):04X}", where[:3]) for char, where in lacking.items()}


def test_the_gathering_finds_what_roboto_lacks() -> None:
    """The check can fail: against Kivy's Roboto it finds the issue's empty boxes."""
    import kivy

    roboto = TTFont(f"{kivy.__path__[0]}/data/fonts/Roboto-Regular.ttf")
    lacking = glyphs.missing(set(roboto.getBestCmap()))
    assert {"→", "●", "✗", "♠", "♥"} <= set(lacking)


def test_the_screens_use_the_shipped_typeface() -> None:
    """Kivy's default font (every label, every text drawn in a picture) is the shipped one."""
    from ui.terminal import fonts

    assert DEFAULT_FONT == fonts.NAME
    assert LabelBase._fonts[DEFAULT_FONT][0] == str(fonts.REGULAR)
    assert LabelBase._fonts[DEFAULT_FONT][2] == str(fonts.BOLD)
    assert CoreLabel(text="x").options["font_name"] == fonts.NAME


def _ink(text: str, bold: bool) -> np.ndarray:
    label = CoreLabel(text=text, font_size=40, bold=bold)
    label.refresh()
    tex = label.texture
    pixels = np.frombuffer(tex.pixels, dtype=np.uint8).reshape(tex.height, tex.width, 4)
    return pixels[:, :, 3] > 127


@pytest.mark.parametrize("bold", [False, True])
def test_the_symbols_render_as_drawn_not_as_the_empty_box(bold: bool) -> None:
    """Rendered: each symbol differs from the empty box a missing glyph draws (U+E000, private
    use, is in no font) and from the others."""
    box = _ink("\ue000", bold)
    drawn = {}
    for char in "→●✗✕♠♥♦♣":
        ink = _ink(char, bold)
        assert ink.any(), char
        assert ink.shape != box.shape or (ink != box).any(), char
        drawn[char] = ink
    assert len({a.tobytes() for a in drawn.values()}) == len(drawn)


def test_the_typeface_keeps_robotos_metrics() -> None:
    """Every glyph Roboto has is Roboto's, at its width: nothing laid out moved."""
    import kivy

    from ui.terminal import fonts

    for face, name in zip(
        (fonts.REGULAR, fonts.BOLD), ("Roboto-Regular.ttf", "Roboto-Bold.ttf"), strict=True
    ):
        ours, roboto = TTFont(face), TTFont(f"{kivy.__path__[0]}/data/fonts/{name}")
        ours_cmap, roboto_cmap = ours.getBestCmap(), roboto.getBestCmap()
        for code, glyph in roboto_cmap.items():
            assert ours["hmtx"][ours_cmap[code]][0] == roboto["hmtx"][glyph][0], hex(code)


def test_the_licences_and_sources_ship_with_it() -> None:
    from ui.terminal import fonts

    text = (fonts.HERE / "LICENSE").read_text(encoding="utf-8")
    for needed in ("Apache License", "Version 2.0", "Bitstream", "DejaVu Sans 2.37", "Roboto"):
        assert needed in text
    name = TTFont(fonts.REGULAR)["name"]
    assert name.getDebugName(1) == "TurboKiosk Sans"
    assert "Vera" not in name.getDebugName(4) and "Roboto" not in name.getDebugName(4)
