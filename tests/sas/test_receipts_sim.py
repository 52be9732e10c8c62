"""An AFT receipt on the printer simulator: the real ``turbokiosk sim printer`` program on a pty,
the terminal's printer driver over the device link, the SAS link polled in-process (decision
0067).  The receipt's PNG says the host's lines and the transfer's amount; a repeat of the
transfer prints nothing more."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from kiosk.host.sas import funds as host
from kiosk.terminal.app.peripherals import start_simulated_peripherals
from kiosk.terminal.app.serial_wiring import SerialSetup
from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.devices.voucher import printed_text
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.link import SasSettings
from kiosk.terminal.textui.session import PlaySession
from tests.helpers.sas_rig import ADDRESS, SasRig


def test_a_receipt_is_printed_once_by_the_printer_simulator(tmp_path: Path) -> None:
    sims = start_simulated_peripherals(tmp_path)
    sas = SasSettings(port="/dev/null", address=ADDRESS, wakeup="gap")
    terminal = build_terminal(tmp_path / "terminal", devices=SerialSetup(sims.ports), sas=sas)
    rt = terminal.runtime
    receipts = sims.vouchers_dir().parent / "receipts"
    try:
        rt.power_up()
        assert terminal.sas_link is not None
        out: list[str] = []
        rig = SasRig(terminal, PlaySession(terminal, out.append), terminal.sas_link, lines=out)

        def until(done: Callable[[], bool], timeout: float = 15.0) -> None:
            deadline = time.monotonic() + timeout
            while not done():
                assert time.monotonic() < deadline, f"timed out; tilts {rt.state.tilts}"
                rt.pump()
                time.sleep(0.01)

        def ask(poll: host.HostPoll) -> host.TransferReply:
            reply = rig.poll(poll.frame(ADDRESS))
            assert reply is not None and len(reply) > 1
            return host.transfer_reply(wire.parse_response(reply, poll.code))

        until(terminal.printer.ready)
        fields = {0x00: "RIVERSIDE CASINO", 0x01: "12 RIVER ROAD", 0x10: "GOOD LUCK"}
        assert rig.poll(host.receipt_data(fields).frame(ADDRESS)) == bytes([ADDRESS])
        request = host.transfer("in", 12_345, "SIM-0001", asset=ADDRESS, receipt=True)
        assert ask(request).receipt_status == 0x40
        until(lambda: ask(host.interrogate()).receipt_status == 0x00)
        assert ask(request).status == 0x00  # the host repeats: its record
        rt.pump()
        (png,) = receipts.glob("*.png")
        lines = printed_text(png)
        assert lines[:7] == [
            "RIVERSIDE CASINO",
            "12 RIVER ROAD",
            "TRANSFER TO MACHINE",
            f"ASSET {ADDRESS}",
            "ID SIM-0001",
            "AMOUNT $123.45",
            "GOOD LUCK",
        ]
        assert rt.state.credits == [12_345]
        shots = os.environ.get("TURBOKIOSK_RECEIPT_PNG")
        if shots:  # to look at it
            shutil.copy(png, shots)
    finally:
        terminal.close()
        sims.stop()
    assert [p.name for p in receipts.iterdir()] == ["SIM-0001.png"]
