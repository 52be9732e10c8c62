"""Vouchers out and back in, end to end: the embedded accounting host (gRPC, mutual TLS), both
simulators as processes on ptys, and a terminal wired to them.

The printed voucher's barcode, read back from its PNG, is the host's record; inserted at the
validator it is validated by the host, stacked and credited once; inserted again it is refused.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import zxingcpp
from PIL import Image

from kiosk.host.embedded import start_embedded_host
from kiosk.terminal.app.peripherals import start_simulated_peripherals
from kiosk.terminal.app.serial_wiring import SerialSetup
from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.core import events as e
from kiosk.terminal.core.state import Phase


def test_voucher_out_and_back_in_through_the_host(tmp_path: Path) -> None:
    data = tmp_path / "terminal"
    host = start_embedded_host(tmp_path / "hostdata")
    sims = start_simulated_peripherals(tmp_path)
    terminal = build_terminal(data, devices=SerialSetup(sims.ports), host=host.endpoint)
    rt = terminal.runtime
    try:
        rt.power_up()
        assert terminal.host_link is not None
        terminal.host_link.start()

        def until(done: Callable[[], bool], timeout: float = 10.0) -> None:
            deadline = time.monotonic() + timeout
            while not done():
                assert time.monotonic() < deadline, f"timed out; tilts {rt.state.tilts}"
                rt.pump()
                time.sleep(0.01)

        def bv_status() -> dict[str, object]:
            status: dict[str, object] = json.loads(sims.control("bill-validator", "status")[3:])
            return status

        # tickets are taken once the host link is up, which may come a pump after the notes
        until(lambda: bool(bv_status()["enabled"]) and terminal.printer.ready())
        until(lambda: bv_status()["tickets"] is True)
        sims.control("bill-validator", "insert 5000")
        until(lambda: rt.state.credits == [5000])

        (started,) = rt.cash_out()
        assert isinstance(started, e.CashoutStarted)
        until(lambda: rt.state.phase is not Phase.CASHOUT)
        assert rt.state.credits == [0]
        png = sims.vouchers_dir() / f"{started.validation_number}.png"
        (code,) = zxingcpp.read_barcodes(Image.open(png))
        record = host.server.db.voucher(code.text)
        assert record is not None and record.value_cents == 5000
        until(lambda: getattr(host.server.db.voucher(code.text), "state", None) == "issued")

        assert sims.control("bill-validator", f"ticket {code.text}").startswith("ok escrow")
        until(lambda: rt.state.credits == [5000])
        until(lambda: getattr(host.server.db.voucher(code.text), "state", None) == "redeemed")
        assert rt.state.lifetime["tickets_in"] == 5000

        sims.control("bill-validator", f"ticket {code.text}")  # the same voucher again
        until(lambda: len(bv_status()["handed_back"]) == 1)  # type: ignore[arg-type]
        assert rt.state.credits == [5000]
        returned = [ev for ev in (r.event for r in rt.journal.rows(after=0))
                    if isinstance(ev, e.TicketReturned)]  # fmt: skip
        assert [ev.reason for ev in returned] == ["already redeemed at this terminal"]
    finally:
        if terminal.host_link is not None:
            terminal.host_link.stop()
        terminal.close()
        sims.stop()
        host.stop()
