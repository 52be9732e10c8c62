"""Colours and type of the kiosk (RGBA 0..1), in one place."""

from __future__ import annotations

RGBA = tuple[float, float, float, float]


def hex_rgba(code: str, alpha: float = 1.0) -> RGBA:
    """``"#0b5d3b"`` -> RGBA floats."""
    code = code.lstrip("#")
    r, g, b = (int(code[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return (r, g, b, alpha)


FELT = hex_rgba("#0b5636")  # gold text on it reads at 5:1
FELT_DARK = hex_rgba("#073d26")
FELT_LINE = hex_rgba("#e9d9a6", 0.55)
PANEL = hex_rgba("#0a2418", 0.92)
BAR = hex_rgba("#05140d")
GOLD = hex_rgba("#e6c052")
GOLD_DARK = hex_rgba("#9a7420")
CREAM = hex_rgba("#f6f0dc")
MUTED = hex_rgba("#a9c2b4")
WIN = hex_rgba("#4ee08c")
LOSE = hex_rgba("#7d8b84")
RED = hex_rgba("#d8333a")
RED_TEXT = hex_rgba("#ff6b6b")  # red words on the bar and panels: 4.5:1 and more
CARD = hex_rgba("#fbfaf6")
CARD_EDGE = hex_rgba("#b9b4a6")
INK_BLACK = hex_rgba("#15171a")
INK_RED = hex_rgba("#c8102e")
BACK = hex_rgba("#8e1b2c")
BACK_LIGHT = hex_rgba("#c0394e")
SHADOW = (0.0, 0.0, 0.0, 0.35)
SLOT = hex_rgba("#0a5235")
SLOT_EDGE = hex_rgba("#5f9378")
SLOT_CHOSEN = hex_rgba("#3c5a2a")
SELECT = hex_rgba("#ffd54a")
SIM = hex_rgba("#ff8f00")
#: the table bar when the link to the table is lost (cream on it reads at 8:1)
TABLE_LOST = hex_rgba("#8b1a1a")
#: the win banner's panel, and the felt's printed lines and glow of a winning spot
WIN_PANEL = hex_rgba("#06281a")
PRINT = hex_rgba("#e9d9a6", 0.8)
PRINT_FAINT = hex_rgba("#e9d9a6", 0.22)
SPOT = hex_rgba("#07452a")
SPOT_WIN = hex_rgba("#0e5530")
WIN_GLOW = hex_rgba("#7dffb0")

#: lockup panel colour by severity
SEVERITY = {
    "critical": hex_rgba("#8b0000"),
    "attendant": hex_rgba("#9a5b00"),
    "wait": hex_rgba("#23415a"),
}
#: notice colour by kind
NOTICE = {
    "credit": hex_rgba("#136b3d"),
    "error": hex_rgba("#a3262b"),
    "info": hex_rgba("#24404f"),
}
#: chip body colours by the presentation's colour names
CHIP = {
    "grey": hex_rgba("#8d9399"),
    "white": hex_rgba("#eceff1"),
    "red": hex_rgba("#c62828"),
    "green": hex_rgba("#27702b"),  # cream on it 5.4:1 (#2e7d32 was 4.497:1)
    "black": hex_rgba("#212121"),
    "purple": hex_rgba("#6a1b9a"),
    "orange": hex_rgba("#ef6c00"),
    "blue": hex_rgba("#1565c0"),
}
#: chip inlay colour (edge stripes and ring) by body colour
#: the inserts' and the value's colour where it is not cream: each chip's value reads at 4.5:1 or
#: more on its body (cream on the grey 25c chip was 2.7:1, on the orange 2.7:1)
CHIP_INK = hex_rgba("#1f1f1f")
CHIP_INLAY = {"white": hex_rgba("#1e5aa8"), "grey": CHIP_INK, "orange": CHIP_INK}

#: button body colour by style
BUTTON_BODY = {
    "gold": GOLD,
    "green": hex_rgba("#17693a"),
    "red": hex_rgba("#a8262b"),
    "dark": BAR,
    "felt": FELT_DARK,
    "card": CARD,  # card-white keys (the Dealer Terminal's suits, in their inks)
}

FONT = "Roboto"
FONT_BOLD = "Roboto"  # used with bold: True

#: the least font size of anything a player reads, in 800x480 pixels (``app.u`` scales it):
#: Roboto's capitals are 0.71 of it, so 16.3 px (3 mm on a 7-inch 133 ppi panel); see
#: docs/decisions/0018-legibility-rules.md
TEXT = 23
#: values that matter most (meters, amounts, the result)
TEXT_BIG = 26
#: a disabled button: grey on grey, still readable (4.5:1)
DISABLED_TEXT = hex_rgba("#b4bcb8")
DISABLED_BODY = hex_rgba("#2c3430")
