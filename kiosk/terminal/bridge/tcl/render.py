"""A filled TCL template drawn as the simulated printer prints it: each region's field in its
box (text in its size, justified, wrapped to the box; an ITF barcode centred in it), the text
fields also in the PNG's ``voucher`` chunk (:func:`kiosk.terminal.devices.voucher.printed_text`).
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

from kiosk.terminal.bridge.tcl.layout import Region, Template
from kiosk.terminal.devices.voucher import TEXT_KEY, barcode_image

VOID_TEXT = "VOID - NOT PRINTED COMPLETELY"


def _rows(
    draw: ImageDraw.ImageDraw,
    text: str,
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    width: int,
) -> list[str]:
    rows: list[str] = []
    for word in text.split():
        if rows and draw.textlength(f"{rows[-1]} {word}", font=font) <= width:
            rows[-1] = f"{rows[-1]} {word}"
        else:
            rows.append(word)
    return rows or [""]


def _text(draw: ImageDraw.ImageDraw, region: Region, text: str) -> None:
    font = ImageFont.load_default(size=max(region.size, 8))
    step = int(region.size * 1.3) or 1
    for n, row in enumerate(_rows(draw, text, font, region.width - 8)):
        y = region.y + n * step
        if y + region.size > region.y + region.height:
            break  # what does not fit in the box is not printed, as on the printer
        length = draw.textlength(row, font=font)
        spare = region.width - length
        x = region.x + {"L": 4, "C": spare / 2, "R": spare - 4}[region.justify]
        draw.text((x, y), row, fill=0, font=font)


def render_template(
    template: Template, placed: list[tuple[Region, str]], path: Path, *, void: bool = False
) -> Path:
    """Draw ``placed`` (:func:`~kiosk.terminal.bridge.tcl.layout.fill`) on a ticket of the
    template's size; ``void``: a job cut short, crossed out."""
    img = Image.new("L", (template.width, template.length), 255)
    draw = ImageDraw.Draw(img)
    lines = []
    for region, text in placed:
        if region.kind == "B":
            bars = barcode_image(text)
            x = region.x + max(0, (region.width - bars.width) // 2)
            img.paste(bars, (x, region.y + max(0, (region.height - bars.height) // 2)))
        else:
            _text(draw, region, text)
            lines.append(text)
    if void:
        w, h = template.width, template.length
        draw.line((0, 0, w, h), fill=0, width=9)
        draw.line((0, h, w, 0), fill=0, width=9)
        draw.text((20, h // 2), VOID_TEXT, fill=0, font=ImageFont.load_default(size=30))
        lines.append(VOID_TEXT)
    info = PngInfo()
    info.add_text(TEXT_KEY, "\n".join(lines))
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path, format="PNG", pnginfo=info)
    return path
