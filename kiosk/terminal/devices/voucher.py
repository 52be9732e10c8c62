"""The cash-out voucher as printed: its text lines, its ITF barcode and a PNG rendering.

The layout follows the usual TITO voucher: venue, title, the validation number in figures
(grouped 2-4-4-4-4) and as an Interleaved 2 of 5 barcode, date and time, voucher number, the
amount in figures and in words, the terminal id and the expiry.  python-barcode encodes the ITF
module pattern; Pillow draws it at a whole number of pixels per module so that every bar is
exactly as wide as the symbology says.

The service menu's test voucher (:class:`TestVoucher`) has the same header and footer but no
value, no validation number and no barcode, and is marked VOID and TEST all over.  Every PNG
carries its printed text in a ``voucher`` text chunk, so tools and tests can read what it says.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from barcode.itf import ITF
from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

from kiosk.terminal.devices.ports import Voucher

_ONES = [
    "ZERO",
    "ONE",
    "TWO",
    "THREE",
    "FOUR",
    "FIVE",
    "SIX",
    "SEVEN",
    "EIGHT",
    "NINE",
    "TEN",
    "ELEVEN",
    "TWELVE",
    "THIRTEEN",
    "FOURTEEN",
    "FIFTEEN",
    "SIXTEEN",
    "SEVENTEEN",
    "EIGHTEEN",
    "NINETEEN",
]
_TENS = ["_", "_", "TWENTY", "THIRTY", "FORTY", "FIFTY", "SIXTY", "SEVENTY", "EIGHTY", "NINETY"]
_SCALES = ((10**9, "BILLION"), (10**6, "MILLION"), (1000, "THOUSAND"))

#: pixels per narrow bar; wide bars are three times as wide
MODULE_PX = 3
BAR_HEIGHT_PX = 110
QUIET_ZONE_MODULES = 12
WIDTH_PX = 640
#: the PNG text chunk holding the voucher's printed lines
TEXT_KEY = "voucher"


@dataclass(frozen=True)
class TestVoucher:
    """A service-menu test voucher: who and when, nothing of value."""

    __test__ = False  # not a pytest test class
    terminal_id: str
    venue: str
    printed_at: int  # epoch ms
    number: int  # the printer's test voucher counter


def _below_thousand(n: int) -> str:
    words = []
    if n >= 100:
        words.append(f"{_ONES[n // 100]} HUNDRED")
        n %= 100
    if n >= 20:
        words.append(_TENS[n // 10] + (f"-{_ONES[n % 10]}" if n % 10 else ""))
    elif n or not words:
        words.append(_ONES[n])
    return " ".join(words)


def number_in_words(n: int) -> str:
    """A non-negative whole number in English words (upper case), e.g. ``ONE HUNDRED FIVE``."""
    if n < 0:
        raise ValueError("only non-negative numbers")
    if n < 1000:
        return _below_thousand(n)
    parts = []
    for scale, name in _SCALES:
        if n >= scale:
            parts.append(f"{number_in_words(n // scale)} {name}")
            n %= scale
    if n:
        parts.append(_below_thousand(n))
    return " ".join(parts)


def amount_in_words(cents: int) -> str:
    """``1234`` -> ``TWELVE DOLLARS AND THIRTY-FOUR CENTS``."""
    if cents < 0:
        raise ValueError("an amount is not negative")
    dollars, rest = divmod(cents, 100)
    d = f"{number_in_words(dollars)} DOLLAR{'' if dollars == 1 else 'S'}"
    c = f"{number_in_words(rest)} CENT{'' if rest == 1 else 'S'}"
    return f"{d} AND {c}"


def amount_in_figures(cents: int) -> str:
    """``123456`` -> ``$1,234.56``."""
    dollars, rest = divmod(cents, 100)
    return f"${dollars:,}.{rest:02d}"


def grouped_number(validation_number: str) -> str:
    """``123456789012345678`` -> ``12-3456-7890-1234-5678``."""
    v = validation_number
    return "-".join([v[:2], v[2:6], v[6:10], v[10:14], v[14:18]])


def check_validation_number(validation_number: str) -> None:
    """ValueError unless it is exactly 18 decimal digits."""
    if len(validation_number) != 18 or not validation_number.isdigit():
        raise ValueError(f"a validation number has 18 digits, not {validation_number!r}")


def expiry_date(voucher: Voucher) -> dt.date:
    """The last day the voucher is valid (local date of issue plus the expiry days)."""
    issued = dt.datetime.fromtimestamp(voucher.issued_at / 1000, tz=dt.UTC)
    return issued.date() + dt.timedelta(days=voucher.expires_days)


def voucher_lines(voucher: Voucher) -> list[str]:
    """The text of the voucher, top to bottom (the barcode goes after the first three)."""
    check_validation_number(voucher.validation_number)
    issued = dt.datetime.fromtimestamp(voucher.issued_at / 1000, tz=dt.UTC)
    return [
        voucher.venue.upper(),
        "CASHOUT TICKET",
        f"VALIDATION {grouped_number(voucher.validation_number)}",
        f"{issued:%Y-%m-%d}   {issued:%H:%M:%S} UTC   TICKET # {voucher.sequence:04d}",
        amount_in_figures(voucher.value),
        amount_in_words(voucher.value),
        f"TERMINAL {voucher.terminal_id}",
        f"VOID AFTER {expiry_date(voucher):%Y-%m-%d} ({voucher.expires_days} DAYS)",
    ]


def test_voucher_lines(voucher: TestVoucher) -> list[str]:
    """The text of a test voucher, top to bottom."""
    printed = dt.datetime.fromtimestamp(voucher.printed_at / 1000, tz=dt.UTC)
    return [
        voucher.venue.upper(),
        "TEST VOUCHER",
        "*** VOID ***",
        "NO VALUE - NOT NEGOTIABLE",
        "NO VALIDATION NUMBER",
        f"{printed:%Y-%m-%d}   {printed:%H:%M:%S} UTC   TEST # {voucher.number:04d}",
        f"TERMINAL {voucher.terminal_id}",
        "*** VOID *** TEST *** VOID ***",
    ]


def itf_modules(validation_number: str) -> str:
    """The ITF bar/space pattern as ``1``/``0`` narrow modules (wide = 3 narrow)."""
    check_validation_number(validation_number)
    (pattern,) = ITF(validation_number, narrow=1, wide=3).build()
    return str(pattern)


def barcode_image(validation_number: str) -> Image.Image:
    """The ITF barcode alone, black on white, with quiet zones."""
    modules = itf_modules(validation_number)
    quiet = QUIET_ZONE_MODULES * MODULE_PX
    img = Image.new("L", (len(modules) * MODULE_PX + 2 * quiet, BAR_HEIGHT_PX), 255)
    draw = ImageDraw.Draw(img)
    for i, m in enumerate(modules):
        if m == "1":
            x = quiet + i * MODULE_PX
            draw.rectangle((x, 0, x + MODULE_PX - 1, BAR_HEIGHT_PX - 1), fill=0)
    return img


def _wrap(
    draw: ImageDraw.ImageDraw,
    text: str,
    font: ImageFont.ImageFont | ImageFont.FreeTypeFont,
    width: float,
) -> list[str]:
    rows: list[str] = []
    for word in text.split():
        if rows and draw.textlength(f"{rows[-1]} {word}", font=font) <= width:
            rows[-1] = f"{rows[-1]} {word}"
        else:
            rows.append(word)
    return rows or [""]


def render_png(voucher: Voucher, path: Path, *, void: bool = False) -> Path:
    """Draw the voucher as the printer prints it (``void``: a partly printed, voided one)."""
    return render_voucher_lines(voucher_lines(voucher), voucher.validation_number, path, void=void)


def render_voucher_lines(
    lines: list[str], validation_number: str, path: Path, *, void: bool = False
) -> Path:
    """Draw a voucher from its lines (:func:`voucher_lines`) and the number its ITF barcode
    carries, after the third line (what a printer with a voucher template draws)."""
    big = ImageFont.load_default(size=30)
    small = ImageFont.load_default(size=20)
    bars = barcode_image(validation_number)
    width = max(WIDTH_PX, bars.width + 40)
    measure = ImageDraw.Draw(Image.new("L", (1, 1)))
    rows: list[tuple[str, ImageFont.ImageFont | ImageFont.FreeTypeFont, bool]] = []
    for n, text in enumerate(lines):
        font = big if n in (0, 1, 4) else small
        wrapped = _wrap(measure, text, font, width - 40)
        rows += [(row, font, False) for row in wrapped]
        if n == 2:
            rows.append(("", font, True))
    height = 40 + sum(bars.height + 40 if is_bars else 42 for _, _, is_bars in rows)
    img = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(img)
    y = 20
    for text, font, is_bars in rows:
        if is_bars:
            img.paste(bars, ((width - bars.width) // 2, y + 10))
            y += bars.height + 40
            continue
        draw.text(((width - draw.textlength(text, font=font)) / 2, y), text, fill=0, font=font)
        y += 42
    lines = list(lines)
    if void:
        draw.line((0, 0, width, height), fill=0, width=9)
        draw.line((0, height, width, 0), fill=0, width=9)
        draw.text((20, height // 2), "VOID - NOT PRINTED COMPLETELY", fill=0, font=big)
        lines.append("VOID - NOT PRINTED COMPLETELY")
    return _save(img, path, lines)


def render_test_png(voucher: TestVoucher, path: Path, *, void: bool = False) -> Path:
    """Draw a test voucher: its lines framed, VOID across it (``void``: cut short too)."""
    return render_test_lines(test_voucher_lines(voucher), path, void=void)


def render_test_lines(lines: list[str], path: Path, *, void: bool = False) -> Path:
    """Draw a test voucher from its lines (:func:`test_voucher_lines`)."""
    big = ImageFont.load_default(size=30)
    small = ImageFont.load_default(size=20)
    lines = list(lines)
    height = 40 + 42 * len(lines)
    img = Image.new("L", (WIDTH_PX, height), 255)
    draw = ImageDraw.Draw(img)
    draw.rectangle((4, 4, WIDTH_PX - 5, height - 5), outline=0, width=5)
    for n, text in enumerate(lines):
        font = big if n in (1, 2) else small
        x = (WIDTH_PX - draw.textlength(text, font=font)) / 2
        draw.text((x, 20 + 42 * n), text, fill=0, font=font)
    draw.line((0, 0, WIDTH_PX, height), fill=0, width=3)
    draw.line((0, height, WIDTH_PX, 0), fill=0, width=3)
    if void:
        draw.text((20, height // 2), "NOT PRINTED COMPLETELY", fill=0, font=big)
        lines.append("NOT PRINTED COMPLETELY")
    return _save(img, path, lines)


def render_receipt_lines(lines: list[str], path: Path) -> Path:
    """Draw a transaction receipt (SAS AFT): its lines framed, left-aligned, no barcode."""
    font = ImageFont.load_default(size=20)
    height = 40 + 30 * len(lines)
    img = Image.new("L", (WIDTH_PX, height), 255)
    draw = ImageDraw.Draw(img)
    draw.rectangle((4, 4, WIDTH_PX - 5, height - 5), outline=0, width=2)
    for n, text in enumerate(lines):
        draw.text((20, 20 + 30 * n), text, fill=0, font=font)
    return _save(img, path, list(lines))


def printed_text(path: Path) -> list[str]:
    """The lines a voucher PNG says it shows (its ``voucher`` text chunk)."""
    with Image.open(path) as img:
        img.load()
        text = getattr(img, "text", {}).get(TEXT_KEY, "")
    return str(text).splitlines()


def _save(img: Image.Image, path: Path, lines: list[str]) -> Path:
    info = PngInfo()
    info.add_text(TEXT_KEY, "\n".join(lines))
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path, format="PNG", pnginfo=info)
    return path
