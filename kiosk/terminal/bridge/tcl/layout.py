"""TCL print regions and templates defined by the host, sans-IO.

A *region* is a box on the ticket (in dots from the top left corner) that one field of a print
command fills: text in a font size, justified, or an Interleaved 2 of 5 barcode.  A *template*
is a ticket size and an ordered list of regions; ``^P|template|copies|f1|f2|...|^`` then fills
the template's regions in order.  The host defines them once the printer answers (and again
after the printer reports a reset), so what a voucher looks like lives in the bridge, not in
the printer's resident templates.

Our messages (docs/devices.md, "TCL regions and templates", for what is read from the public
descriptions and what is our choice)::

    ^R|id|x|y|width|height|justify|kind|size|^      justify L, C or R; kind T (text) or B (ITF)
    ^T|id|width|length|region id|region id|...|^

:data:`VOUCHER_REGIONS` and :data:`VOUCHER_TEMPLATE` are the TITO voucher the bridge prints.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.terminal.bridge.tcl.codec import Message

JUSTIFY = ("L", "C", "R")
KINDS = ("T", "B")  # text, Interleaved 2 of 5 barcode
MAX_DOTS = 4096
MAX_REGIONS = 32


class TclLayoutError(ValueError):
    """A region or template definition (or a print command against one) that is not valid."""


@dataclass(frozen=True)
class Region:
    """A box on the ticket one field fills."""

    id: str
    x: int
    y: int
    width: int
    height: int
    justify: str = "C"
    kind: str = "T"
    size: int = 20  # the text's height in dots (a barcode region: 0)

    def message(self) -> Message:
        """``^R|...|^``."""
        numbers = (self.x, self.y, self.width, self.height)
        return Message("R", (self.id, *map(str, numbers), self.justify, self.kind, str(self.size)))


@dataclass(frozen=True)
class Template:
    """A ticket ``width`` x ``length`` dots whose fields fill ``regions`` in order."""

    id: str
    width: int
    length: int
    regions: tuple[str, ...]

    def message(self) -> Message:
        """``^T|...|^``."""
        return Message("T", (self.id, str(self.width), str(self.length), *self.regions))


def _ident(text: str, what: str) -> str:
    if len(text) != 1 or not text.isalnum():
        raise TclLayoutError(f"{what} id {text!r}: one letter or digit")
    return text


def _dots(text: str, what: str, low: int = 0) -> int:
    if not text.isdigit() or not low <= int(text) <= MAX_DOTS:
        raise TclLayoutError(f"{what} {text!r}: {low} to {MAX_DOTS} dots")
    return int(text)


def parse_region(fields: tuple[str, ...]) -> Region:
    """The region of an ``^R`` command's fields (TclLayoutError when they are not one)."""
    if len(fields) != 8:
        raise TclLayoutError(f"a region has 8 fields, not {len(fields)}")
    ident, x, y, width, height, justify, kind, size = fields
    if justify not in JUSTIFY or kind not in KINDS:
        raise TclLayoutError(f"justify {justify!r} / kind {kind!r}: {JUSTIFY} / {KINDS}")
    return Region(
        _ident(ident, "region"),
        _dots(x, "x"),
        _dots(y, "y"),
        _dots(width, "width", 1),
        _dots(height, "height", 1),
        justify,
        kind,
        _dots(size, "size"),
    )


def parse_template(fields: tuple[str, ...], regions: dict[str, Region]) -> Template:
    """The template of a ``^T`` command's fields, every region of it among ``regions`` (the
    printer's, defined before) and inside the ticket (TclLayoutError otherwise)."""
    if len(fields) < 4 or len(fields) > 3 + MAX_REGIONS:
        raise TclLayoutError(f"a template has 4 to {3 + MAX_REGIONS} fields, not {len(fields)}")
    ident, width, length, *names = fields
    template = Template(
        _ident(ident, "template"), _dots(width, "width", 1), _dots(length, "length", 1), ()
    )
    for name in names:
        region = regions.get(name)
        if region is None:
            raise TclLayoutError(f"template {ident}: no region {name!r} defined")
        if region.x + region.width > template.width or region.y + region.height > template.length:
            raise TclLayoutError(f"template {ident}: region {name} outside the ticket")
    return Template(template.id, template.width, template.length, tuple(names))


def fill(
    template: Template, regions: dict[str, Region], fields: tuple[str, ...]
) -> list[tuple[Region, str]]:
    """Each region of ``template`` with the field of a print command that fills it."""
    if len(fields) != len(template.regions):
        raise TclLayoutError(
            f"template {template.id} has {len(template.regions)} regions, "
            f"the print command {len(fields)} fields"
        )
    placed = [(regions[name], text) for name, text in zip(template.regions, fields, strict=True)]
    for region, text in placed:
        if region.kind == "B" and (not text.isdigit() or len(text) % 2):
            raise TclLayoutError(f"region {region.id}: a barcode takes an even number of digits")
    return placed


#: the TITO voucher: the eight lines of ``kiosk.terminal.devices.voucher.voucher_lines`` with
#: the barcode after the third (the same order as the protobuf simulator's drawing)
VOUCHER_REGIONS: tuple[Region, ...] = (
    Region("A", 0, 20, 640, 40, "C", "T", 30),  # venue
    Region("B", 0, 66, 640, 40, "C", "T", 30),  # CASHOUT TICKET
    Region("C", 0, 112, 640, 30, "C", "T", 20),  # VALIDATION 00-1234-...
    Region("D", 0, 150, 640, 130, "C", "B", 0),  # the ITF barcode of the validation number
    Region("E", 0, 288, 640, 30, "C", "T", 20),  # date, time, ticket number
    Region("F", 0, 326, 640, 40, "C", "T", 30),  # the amount in figures
    Region("G", 0, 372, 640, 96, "C", "T", 20),  # the amount in words (up to four rows)
    Region("H", 0, 474, 640, 30, "C", "T", 20),  # terminal
    Region("I", 0, 512, 640, 30, "C", "T", 20),  # void after
)
VOUCHER_TEMPLATE = Template("V", 640, 562, tuple(r.id for r in VOUCHER_REGIONS))


def voucher_fields(lines: list[str], validation_number: str) -> tuple[str, ...]:
    """The print command's fields for :data:`VOUCHER_TEMPLATE`: the voucher's eight lines with
    the barcode's digits after the third."""
    if len(lines) != 8:
        raise TclLayoutError(f"a voucher has 8 lines, not {len(lines)}")
    return (*lines[:3], validation_number, *lines[3:])


def voucher_text(placed: list[tuple[Region, str]]) -> tuple[list[str], str]:
    """A filled template's text fields in order, and its barcode's digits ("" when none)."""
    lines = [text for region, text in placed if region.kind == "T"]
    bars = [text for region, text in placed if region.kind == "B"]
    return lines, (bars[0] if bars else "")
