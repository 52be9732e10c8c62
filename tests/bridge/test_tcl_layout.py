"""TCL regions and templates defined by the host (``^R``, ``^T``): the codec, the host sending
them before any job (again after the printer's reset), the simulated printer keeping them and
printing a TITO voucher through the template, its barcode decoded."""

from __future__ import annotations

from pathlib import Path

import pytest
import zxingcpp
from PIL import Image

from kiosk.terminal.bridge.tcl.codec import COMMAND, Decoder, Message, encode
from kiosk.terminal.bridge.tcl.device import TclPrinterDevice
from kiosk.terminal.bridge.tcl.host import JobPrinted, JobStarted, TclPrinter
from kiosk.terminal.bridge.tcl.layout import (
    VOUCHER_REGIONS,
    VOUCHER_TEMPLATE,
    Region,
    TclLayoutError,
    Template,
    fill,
    parse_region,
    parse_template,
    voucher_fields,
)
from kiosk.terminal.devices.ports import Voucher
from kiosk.terminal.devices.voucher import printed_text, voucher_lines

NUMBER = "001234567890123456"
VOUCHER = Voucher(
    validation_number=NUMBER,
    value=12_345,
    terminal_id="TK-0001",
    venue="Casino Test",
    issued_at=1_780_315_200_000,
    expires_days=30,
    sequence=7,
)
DEFINITIONS = (*(r.message() for r in VOUCHER_REGIONS), VOUCHER_TEMPLATE.message())


def test_the_messages_on_the_wire() -> None:
    assert encode(VOUCHER_REGIONS[0].message()) == b"^R|A|0|20|640|40|C|T|30|^"
    assert encode(VOUCHER_REGIONS[3].message()) == b"^R|D|0|150|640|130|C|B|0|^"
    assert encode(VOUCHER_TEMPLATE.message()) == b"^T|V|640|562|A|B|C|D|E|F|G|H|I|^"
    (region,) = Decoder(COMMAND).feed(encode(VOUCHER_REGIONS[0].message()))
    assert parse_region(region.fields) == VOUCHER_REGIONS[0]
    regions = {r.id: r for r in VOUCHER_REGIONS}
    assert parse_template(VOUCHER_TEMPLATE.message().fields, regions) == VOUCHER_TEMPLATE


@pytest.mark.parametrize(
    "fields",
    [
        ("A", "0", "0", "10", "10", "C", "T"),  # a field short
        ("AB", "0", "0", "10", "10", "C", "T", "20"),  # id of two characters
        ("A", "0", "0", "0", "10", "C", "T", "20"),  # no width
        ("A", "0", "0", "10", "10", "X", "T", "20"),  # justification
        ("A", "0", "0", "10", "10", "C", "Q", "20"),  # kind
        ("A", "-1", "0", "10", "10", "C", "T", "20"),  # negative
        ("A", "0", "0", "99999", "10", "C", "T", "20"),  # beyond any ticket
    ],
)
def test_a_bad_region_is_refused(fields: tuple[str, ...]) -> None:
    with pytest.raises(TclLayoutError):
        parse_region(fields)


def test_a_bad_template_or_print_is_refused() -> None:
    regions = {"A": Region("A", 0, 0, 100, 20), "B": Region("B", 0, 30, 100, 50, kind="B")}
    with pytest.raises(TclLayoutError, match="no region"):
        parse_template(("T", "100", "100", "A", "Z"), regions)
    with pytest.raises(TclLayoutError, match="outside"):
        parse_template(("T", "50", "100", "A"), regions)
    template = parse_template(("T", "100", "100", "A", "B"), regions)
    with pytest.raises(TclLayoutError, match="2 regions"):
        fill(template, regions, ("only one",))
    with pytest.raises(TclLayoutError, match="even number of digits"):
        fill(template, regions, ("text", "12345"))
    assert fill(template, regions, ("text", "1234")) == [
        (regions["A"], "text"),
        (regions["B"], "1234"),
    ]
    assert Template("T", 100, 100, ("A", "B")) == template


class Pair:
    """The host and the simulated printer on a perfect line, on a fake clock."""

    def __init__(self, state: Path) -> None:
        self.now = 0
        self.device = TclPrinterDevice(state, 0, print_ms=300, take_ms=500)
        self.host = TclPrinter()
        self.host.define(DEFINITIONS)
        self.wire: list[bytes] = []
        self.events: list[object] = []

    def run(self, ms: int) -> None:
        for _ in range(ms // 5):
            self.now += 5
            self.device.tick(self.now)
            out = self.host.transmit(self.now)
            if out:
                self.wire.append(out)
                self.device.receive(out, self.now)
            back = self.device.take_output()
            if back:
                self.host.receive(back, self.now)
            self.events += [
                ev for ev in self.host.events() if isinstance(ev, JobStarted | JobPrinted)
            ]


def test_the_host_defines_before_the_job_and_again_after_a_reset(tmp_path: Path) -> None:
    pair = Pair(tmp_path)
    pair.host.print_job(NUMBER, VOUCHER_TEMPLATE.id, voucher_fields(voucher_lines(VOUCHER), NUMBER))
    pair.run(1500)
    sent = b"".join(pair.wire)
    definitions = b"".join(encode(m) for m in DEFINITIONS)
    assert sent.index(definitions) < sent.index(b"^P|V|1|")
    assert pair.events == [JobStarted(NUMBER), JobPrinted(NUMBER)]
    assert pair.host.definitions_sent == 1
    assert set(pair.device.templates()) == {"V"} and len(pair.device.regions()) == 9
    # the printer restarts (its reset flag): the host defines again
    pair.device = TclPrinterDevice(tmp_path, pair.now, print_ms=300, take_ms=500)
    pair.run(500)
    assert pair.host.definitions_sent == 2


def test_the_printer_renders_the_voucher_through_the_template(tmp_path: Path) -> None:
    pair = Pair(tmp_path)
    pair.host.print_job(NUMBER, VOUCHER_TEMPLATE.id, voucher_fields(voucher_lines(VOUCHER), NUMBER))
    pair.run(1500)
    png = tmp_path / "vouchers" / f"{NUMBER}.png"
    assert printed_text(png) == voucher_lines(VOUCHER)
    with Image.open(png) as img:
        assert img.size == (VOUCHER_TEMPLATE.width, VOUCHER_TEMPLATE.length)
        (code,) = zxingcpp.read_barcodes(img)
    assert code.text == NUMBER and code.format == zxingcpp.BarcodeFormat.ITF
    assert pair.device.vouchers()["printed"][NUMBER]["lines"] == voucher_lines(VOUCHER)


def test_the_printer_refuses_what_it_cannot_print(tmp_path: Path) -> None:
    device = TclPrinterDevice(tmp_path, 0)

    def sent(*messages: Message) -> bool:
        """Whether the printer raised its command-error flag for them."""
        device.command_error = False
        device.receive(b"".join(encode(m) for m in messages), 0)
        return device.command_error

    assert not sent(Message("R", ("A", "0", "0", "640", "40", "C", "T", "30")))
    assert sent(Message("R", ("A", "0", "0", "640", "40", "X", "T", "30")))  # justification
    assert not sent(Message("R", ("B", "0", "50", "640", "130", "C", "B", "0")))
    assert sent(Message("T", ("V", "640", "100", "A", "B")))  # B ends at 180: outside
    assert sent(Message("T", ("0", "640", "400", "A")))  # a resident template
    assert not sent(Message("T", ("V", "640", "400", "A", "B")))
    assert sent(Message("P", ("W", "1", "x")))  # no such template
    assert sent(Message("P", ("V", "1", "x")))  # one field for two regions
    assert sent(Message("P", ("V", "1", "x", "12345")))  # not a validation number
    assert not sent(Message("P", ("V", "1", "x", NUMBER)))
    assert device.mem.data["job"]["number"] == NUMBER
