"""The simulated ticket printer's firmware: a sans-IO state machine that renders PNG vouchers.

A print job takes ``print_ms``; the voucher is "printed" by rendering it as a PNG in
``<state dir>/vouchers/<validation number>.png``.  A fault during the job (injected with
``fault NAME`` while printing, or armed with ``fail-next-print NAME``) cuts it short: the
partial voucher is voided (rendered crossed out as ``<number>-void.png``) and reported failed.

A test voucher (the service menu's) is a job like any other, rendered as
``<state dir>/test-vouchers/<n>.png`` (``<n>-void.png`` when cut short); it has no validation
number, so it never enters the printed or voided vouchers the terminal asks about.

Memory (across its own restarts): the vouchers printed and voided, the job in progress (voided
at power-up: a half-printed voucher never leaves the printer as valid), the faults, a lifetime
counter of the vouchers printed and the reconciliation baseline the terminal gave it (kept for
the pairing key it was given under).  ``PrintedRecord`` answers a record request.  The
terminal asks it after a restart or a lost link whether a voucher was printed.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from kiosk.terminal.devices.ports import Voucher
from kiosk.terminal.devices.printer_driver import voucher_of
from kiosk.terminal.devices.sim.memory import DeviceMemory
from kiosk.terminal.devices.voucher import (
    TestVoucher,
    render_png,
    render_receipt_lines,
    render_test_png,
)
from proto.turbokiosk.v1.device_pb2 import (
    DeviceIdentity,
    PrintedVoucher,
    PrinterBaseline,
    PrinterCommand,
    PrinterEvent,
    Tally,
)

FAULTS = {
    "paper-low": "paper_low",
    "paper-out": "paper_out",
    "jam": "jammed",
    "head-open": "head_open",
}
#: faults that stop printing, and how a cut-short job is reported
STOPPERS = {
    "paper_out": PrinterEvent.FAILURE_PAPER_OUT,
    "jammed": PrinterEvent.FAILURE_JAM,
    "head_open": PrinterEvent.FAILURE_HEAD_OPEN,
}
IDENTITY = DeviceIdentity(model="TK-SIM-PR", serial_number="PR000001", firmware="1.0")

Ev = PrinterEvent


class PrinterMachine:
    """A thermal voucher printer."""

    def __init__(
        self, state_dir: Path, now: int, *, print_ms: int = 200, pairing: str = ""
    ) -> None:
        self.pairing = pairing  # the fingerprint of the pairing key (the baseline is its)
        self.identity = IDENTITY
        self.print_ms = print_ms
        self.vouchers_dir = state_dir / "vouchers"
        self.test_vouchers_dir = state_dir / "test-vouchers"
        self.receipts_dir = state_dir / "receipts"
        self.mem = self._memory(
            state_dir,
            {
                "next_event_id": 1,
                "printed": {},
                "voided": [],
                "printing": None,
                "faults": {
                    "paper_low": False,
                    "paper_out": False,
                    "jammed": False,
                    "head_open": False,
                },
                "fail_next": None,
                "test_vouchers": 0,  # test vouchers started (their counter)
                "tests": [],  # the last test vouchers printed or voided
                "baseline": None,
            },
        )
        if "lifetime" not in self.mem.data:  # memory of an earlier firmware: count the list
            printed = self.mem.data["printed"].values()
            self.mem.data["lifetime"] = [len(printed), sum(v["value"] for v in printed)]
        self.link_up = False
        self._out: list[bytes] = []
        self._started = now
        self._deferred: list[str] = []  # status requests about the job in progress
        for number in self.mem.data["printed"]:  # printed, but power went before the cut
            part = self._part(number)
            if part.exists():
                part.replace(self._png(number))
        for kept in self.mem.data.get("receipts", {}).values():  # remembered, not yet cut
            part = Path(kept["png"]).with_suffix(".png.part")
            if part.exists():
                part.replace(kept["png"])
        job = self.mem.data["printing"]
        if job is not None:  # power came back in the middle of a voucher
            self._power_up_job(job)

    def _memory(self, state_dir: Path, default: dict[str, Any]) -> DeviceMemory:
        """The non-volatile memory (a bridge keeps its own, kiosk/terminal/bridge/journal.py)."""
        return DeviceMemory(state_dir / "printer.json", default)

    def _power_up_job(self, job: dict[str, Any]) -> None:
        """A job in progress at power-up: voided (never presented as valid)."""
        self._void(job, Ev.FAILURE_POWER_LOST)

    # --- the link's side ----------------------------------------------------------------------

    def on_link_up(self, new_peer: bool, now: int) -> None:
        """The link (re)connected."""
        self.link_up = True
        if new_peer:
            self._emit(self._event(identity=self.identity))
        self._emit_status()

    def on_link_down(self, now: int) -> None:
        """Nothing to do: a job in progress finishes (the terminal asks about it later)."""
        self.link_up = False

    def on_command(self, payload: bytes, now: int) -> None:
        """A command from the terminal."""
        cmd = PrinterCommand()
        cmd.ParseFromString(payload)
        kind = cmd.WhichOneof("command")
        if kind == "print_voucher":
            self._print(cmd.print_voucher, now)
        elif kind == "print_test_voucher":
            self._print_test(cmd.print_test_voucher, now)
        elif kind == "print_receipt":
            self._print_receipt(cmd.print_receipt)
        elif kind == "receipt_status_request":
            wanted = cmd.receipt_status_request.receipt_id
            printed = wanted in self.mem.data.setdefault("receipts", {})
            reply = Ev.ReceiptStatusReply(receipt_id=wanted, printed=printed)
            self._emit(self._event(receipt_status=reply))
        elif kind == "voucher_status_request":
            number = cmd.voucher_status_request.validation_number
            job = self.mem.data["printing"]
            if job is not None and job.get("validation_number") == number:
                self._deferred.append(number)
            else:
                self._answer(number)
        elif kind == "status_request":
            self._emit_status()
        elif kind == "record_request":
            record = self.printed_record(cmd.record_request.request_id)
            self._emit(self._event(printed_record=record))
        elif kind == "set_baseline":
            self.mem.data["baseline"] = {
                "pairing": self.pairing,
                "message": cmd.set_baseline.SerializeToString().hex(),
            }
            self.mem.save()

    def printed_record(self, request_id: int) -> Ev.PrintedRecord:
        """The lifetime counter, the last vouchers printed, the baseline (for this pairing)."""
        d = self.mem.data
        count, value = d["lifetime"]
        last = list(d["printed"].items())[-16:]
        record = Ev.PrintedRecord(
            request_id=request_id,
            lifetime_vouchers=Tally(count=count, value=value),
            last_printed=[PrintedVoucher(validation_number=n, value=v["value"]) for n, v in last],
        )
        kept = d["baseline"]
        if kept is not None and kept["pairing"] == self.pairing:
            record.baseline.CopyFrom(PrinterBaseline.FromString(bytes.fromhex(kept["message"])))
        return record

    def take_outgoing(self) -> list[bytes]:
        """Serialized events for the terminal, in order."""
        out, self._out = self._out, []
        return out

    # --- time ---------------------------------------------------------------------------------

    def tick(self, now: int) -> None:
        """Finish (or cut short) the job in progress."""
        job = self.mem.data["printing"]
        if job is None:
            return
        faults = self.mem.data["faults"]
        stopped = next((flag for flag in STOPPERS if faults[flag]), None)
        if stopped is not None:
            self._void(job, STOPPERS[stopped])
        elif now >= self._started + self.print_ms:
            armed = self.mem.data["fail_next"]
            if armed is not None:
                self.mem.data["fail_next"] = None
                faults[armed] = True
                self._void(job, STOPPERS[armed])
            else:
                self._complete(job)
        else:
            return
        for number in self._deferred:
            self._answer(number)
        self._deferred.clear()

    def next_deadline(self) -> int | None:
        """When :meth:`tick` has something to do."""
        return None if self.mem.data["printing"] is None else self._started + self.print_ms

    # --- the technician's side ----------------------------------------------------------------

    def control(self, words: list[str], now: int) -> str:
        """A control-channel command; the reply starts with ``ok`` or ``error``."""
        match words:
            case ["fault", name] if name in FAULTS:
                return self._set_fault(FAULTS[name], True)
            case ["fix", name] if name in FAULTS:
                return self._set_fault(FAULTS[name], False)
            case ["fail-next-print", name] if FAULTS.get(name) in STOPPERS:
                self.mem.data["fail_next"] = FAULTS[name]
                self.mem.save()
                return "ok"
            case ["vouchers"]:
                return "ok " + json.dumps(self.vouchers(), sort_keys=True)
            case ["status"]:
                return "ok " + json.dumps(self.snapshot(), sort_keys=True)
            case _:
                names = ", ".join(FAULTS)
                return (
                    "error commands: fault NAME | fix NAME | fail-next-print NAME | vouchers | "
                    f"status (NAME: {names})"
                )

    def vouchers(self) -> dict[str, Any]:
        """Every voucher printed (with its PNG), every number voided, the last test vouchers."""
        printed = {
            number: {**fields, "png": str(self._png(number))}
            for number, fields in self.mem.data["printed"].items()
        }
        return {
            "printed": printed,
            "voided": list(self.mem.data["voided"]),
            "tests": list(self.mem.data["tests"]),
        }

    def snapshot(self) -> dict[str, Any]:
        """The printer's condition."""
        d = self.mem.data
        return {
            "link_up": self.link_up,
            "faults": d["faults"],
            "printing": d["printing"],
            "fail_next": d["fail_next"],
            "printed": len(d["printed"]),
            "voided": len(d["voided"]),
            "test_vouchers": d["test_vouchers"],
        }

    # --- inside -------------------------------------------------------------------------------

    def _print(self, msg: PrinterCommand.PrintVoucher, now: int) -> None:
        number = msg.validation_number
        d = self.mem.data
        if d["printing"] is not None:
            return self._failed(number, Ev.FAILURE_BUSY, partial=False)
        if len(number) != 18 or not number.isdigit() or number in d["voided"]:
            return self._failed(number, Ev.FAILURE_BAD_REQUEST, partial=False)
        if number in d["printed"]:  # asked again: it was printed, never print it twice
            return self._emit(
                self._event(voucher_printed=Ev.VoucherPrinted(validation_number=number))
            )
        stopped = next((flag for flag in STOPPERS if d["faults"][flag]), None)
        if stopped is not None:
            return self._failed(number, STOPPERS[stopped], partial=False)
        d["printing"] = asdict(voucher_of(msg))
        self.mem.save()
        self._started = now
        self._emit_status()
        return None

    def _print_test(self, msg: PrinterCommand.PrintTestVoucher, now: int) -> None:
        d = self.mem.data
        if d["printing"] is not None:
            return self._test_done(msg.test_id, Ev.FAILURE_BUSY)
        if msg.test_id == 0:
            return self._test_done(msg.test_id, Ev.FAILURE_BAD_REQUEST)
        stopped = next((flag for flag in STOPPERS if d["faults"][flag]), None)
        if stopped is not None:
            return self._test_done(msg.test_id, STOPPERS[stopped])
        d["test_vouchers"] += 1
        d["printing"] = {
            "test_id": msg.test_id,
            "voucher": asdict(
                TestVoucher(
                    terminal_id=msg.terminal_id,
                    venue=msg.venue,
                    printed_at=msg.printed_at.ToMilliseconds(),
                    number=d["test_vouchers"],
                )
            ),
        }
        self.mem.save()
        self._started = now
        self._emit_status()
        return None

    def _print_receipt(self, msg: PrinterCommand.PrintReceipt) -> None:
        """A transaction receipt, printed at once and once per id: the same id again is
        answered printed without printing (a terminal that lost the answer asks again)."""
        d = self.mem.data
        receipts: dict[str, Any] = d.setdefault("receipts", {})
        rid, lines = msg.receipt_id, list(msg.lines)
        failure: Ev.Failure | None = None
        bad = not 1 <= len(rid) <= 20 or not rid.isprintable() or "/" in rid
        if rid in receipts:
            pass
        elif bad or not 1 <= len(lines) <= 24 or any(len(line) > 40 for line in lines):
            failure = Ev.FAILURE_BAD_REQUEST
        elif d["printing"] is not None:
            failure = Ev.FAILURE_BUSY
        elif (stopped := next((f for f in STOPPERS if d["faults"][f]), None)) is not None:
            failure = STOPPERS[stopped]
        else:  # print, remember, then cut and present (as a voucher): a restart at any
            # point leaves a presented receipt remembered, or none and none remembered
            png = self.receipts_dir / f"{rid}.png"
            render_receipt_lines(lines, png.with_suffix(".png.part"))
            receipts[rid] = {"lines": lines, "png": str(png)}
            self.mem.save()
            png.with_suffix(".png.part").replace(png)
        done = Ev.ReceiptDone(
            receipt_id=rid,
            printed=failure is None,
            failure=Ev.FAILURE_UNSPECIFIED if failure is None else failure,
        )
        self._emit(self._event(receipt_done=done))

    def receipts(self) -> dict[str, Any]:
        """Every receipt printed, by id (lines and PNG)."""
        return dict(self.mem.data.get("receipts", {}))

    def _finish_test(self, job: dict[str, Any], failure: Ev.Failure | None) -> None:
        voucher = TestVoucher(**job["voucher"])
        name = f"{voucher.number}{'' if failure is None else '-void'}.png"
        png = render_test_png(voucher, self.test_vouchers_dir / name, void=failure is not None)
        d = self.mem.data
        record = {**job["voucher"], "test_id": job["test_id"], "png": str(png)}
        d["tests"] = [*d["tests"][-19:], {**record, "printed": failure is None}]
        d["printing"] = None
        self.mem.save()
        self._test_done(job["test_id"], failure)
        self._emit_status()

    def _test_done(self, test_id: int, failure: Ev.Failure | None) -> None:
        done = Ev.TestVoucherDone(
            test_id=test_id,
            printed=failure is None,
            failure=Ev.FAILURE_UNSPECIFIED if failure is None else failure,
        )
        self._emit(self._event(test_voucher_done=done))

    def _complete(self, job: dict[str, Any]) -> None:
        if "test_id" in job:
            return self._finish_test(job, None)
        # print, remember, then cut and present: a restart at any point leaves either a
        # presented voucher remembered as printed, or no voucher and a voided number
        voucher = Voucher(**job)
        number = voucher.validation_number
        render_png(voucher, self._part(number))
        d = self.mem.data
        d["printed"][number] = job
        d["printing"] = None
        d["lifetime"] = [d["lifetime"][0] + 1, d["lifetime"][1] + voucher.value]
        self.mem.save()
        self._part(number).replace(self._png(number))
        self._emit(self._event(voucher_printed=Ev.VoucherPrinted(validation_number=number)))
        self._emit_status()

    def _void(self, job: dict[str, Any], failure: Ev.Failure) -> None:
        if "test_id" in job:
            return self._finish_test(job, failure)
        voucher = Voucher(**job)
        number = voucher.validation_number
        self._part(number).unlink(missing_ok=True)
        render_png(voucher, self.vouchers_dir / f"{number}-void.png", void=True)
        d = self.mem.data
        d["voided"].append(number)
        d["printing"] = None
        self.mem.save()
        self._failed(number, failure, partial=True)
        self._emit_status()

    def _failed(self, number: str, failure: Ev.Failure, *, partial: bool) -> None:
        failed = Ev.VoucherFailed(validation_number=number, failure=failure, partial=partial)
        self._emit(self._event(voucher_failed=failed))

    def _answer(self, number: str) -> None:
        printed = number in self.mem.data["printed"]
        state = Ev.VOUCHER_STATE_PRINTED if printed else Ev.VOUCHER_STATE_NOT_PRINTED
        reply = Ev.VoucherStatusReply(validation_number=number, state=state)
        self._emit(self._event(voucher_status=reply))

    def _png(self, number: str) -> Path:
        return self.vouchers_dir / f"{number}.png"

    def _part(self, number: str) -> Path:
        return self.vouchers_dir / f"{number}.png.part"

    def _set_fault(self, flag: str, on: bool) -> str:
        self.mem.data["faults"][flag] = on
        self.mem.save()
        self._emit_status()
        return "ok"

    def _emit_status(self) -> None:
        f = self.mem.data["faults"]
        status = Ev.Status(
            paper_low=f["paper_low"],
            paper_out=f["paper_out"],
            jammed=f["jammed"],
            head_open=f["head_open"],
            busy=self.mem.data["printing"] is not None,
        )
        self._emit(self._event(status=status))

    def _event(self, **kind: Any) -> PrinterEvent:
        return PrinterEvent(event_id=self.mem.next_event_id(), **kind)

    def _emit(self, event: PrinterEvent) -> None:
        self._out.append(event.SerializeToString())
