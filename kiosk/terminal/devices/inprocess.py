"""In-process simulated bill validator and printer, with their own non-volatile memory.

Real devices remember what they did across a power cut (a note on its way to the cash box, the
last voucher printed); these keep that in a small JSON file written with fsync, so a terminal
killed at any instant can ask them on power-up, exactly as it asks real devices.  The protobuf
serial simulators (``turbokiosk sim ...``) replace these behind the same ports.

Both answer the terminal's money-record queries like the real ones (docs/devices.md,
"Reconciliation"): the validator counts the notes it stacked (it takes no tickets), the printer
the vouchers it printed, and each keeps the baseline the terminal gives it.  They need no
pairing key: there is no line between them and the terminal, only the terminal's own process.
"""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path
from typing import Any

from kiosk.kernel.durable import write_json_durably
from kiosk.terminal.core import commands as c
from kiosk.terminal.core.config import NOTE_VALUES
from kiosk.terminal.core.tilts import TiltCode
from kiosk.terminal.devices.money_record import Baseline, Figure, FigureBaseline, MoneyRecord, Tally
from kiosk.terminal.devices.ports import Voucher, VoucherStatus


def _durable_write(path: Path, data: dict[str, Any]) -> None:
    write_json_durably(path, data)


def _baseline_json(baseline: Baseline, epoch: int) -> dict[str, Any]:
    figures = [
        [b.terminal.count, b.terminal.value, b.device.count, b.device.value] for b in baseline
    ]
    return {"epoch": epoch, "figures": figures}


def _baseline_of(kept: dict[str, Any] | None) -> tuple[Baseline | None, int]:
    if kept is None:
        return None, 0
    figures = kept["figures"]
    return tuple(FigureBaseline(Tally(tc, tv), Tally(dc, dv)) for tc, tv, dc, dv in figures), int(
        kept["epoch"]
    )


def _read(path: Path, default: dict[str, Any]) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as fh:
            data: dict[str, Any] = json.load(fh)
            return data
    except FileNotFoundError:
        return default


def _validator_record(mem: dict[str, Any]) -> MoneyRecord:
    box = mem["cashbox"]
    baseline, epoch = _baseline_of(mem.get("baseline"))
    return MoneyRecord(
        source="validator",
        device="bill validator",
        tilt=TiltCode.BILL_VALIDATOR_RECONCILE,
        figures=(Figure("notes", "bills_in", Tally(len(box), sum(box))),),
        baseline=baseline,
        baseline_epoch=epoch,
    )


def _printer_record(mem: dict[str, Any]) -> MoneyRecord:
    printed = mem["printed"].values()
    baseline, epoch = _baseline_of(mem.get("baseline"))
    vouchers = Tally(len(printed), sum(v["value"] for v in printed))
    return MoneyRecord(
        source="printer",
        device="printer",
        tilt=TiltCode.PRINTER_RECONCILE,
        figures=(Figure("vouchers", "tickets_out", vouchers),),
        baseline=baseline,
        baseline_epoch=epoch,
    )


#: the in-process devices' memory files and how each reads as a money record
_MEMORIES = {"bill_validator.json": _validator_record, "printer.json": _printer_record}


def read_money_records(state_dir: Path) -> list[MoneyRecord]:
    """The money records kept in ``state_dir`` by the in-process devices, read without
    changing anything (for ``turbokiosk audit``); none when they were never started there.
    ValueError names a memory file that cannot be read as a record."""
    records = []
    for name, record_of in _MEMORIES.items():
        path = state_dir / name
        try:
            with open(path, encoding="utf-8") as fh:
                mem = json.load(fh)
        except FileNotFoundError:
            continue
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path}: {exc}") from exc
        try:
            records.append(record_of(mem))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"{path}: not a device memory ({exc!r})") from exc
    return records


class InProcessBillValidator:
    """A bill validator: notes go to escrow, then to the cash box or back to the player."""

    def __init__(self, state_dir: Path) -> None:
        state_dir.mkdir(parents=True, exist_ok=True)
        self._path = state_dir / "bill_validator.json"
        self._mem = _read(self._path, {"escrow": {}, "cashbox": []})
        self.enabled = False
        self.notes: tuple[int, ...] = ()
        self.returned: list[int] = []  # notes handed back, for tests and the demo
        self.test_mode = False
        self._test_notes: list[int] = []
        self._reports: deque[c.Command] = deque()
        self._reconciling = False
        self._record_due = False  # the record follows the reports of the next poll

    def request_money_record(self) -> None:
        """Report the cash-box record at the next poll, and after every note stacked from now
        on (always last in its poll: it counts every note reported before it)."""
        self._reconciling = self._record_due = True

    def set_money_baseline(self, baseline: Baseline, epoch: int) -> None:
        """Keep this baseline (figures: notes)."""
        self._mem["baseline"] = _baseline_json(baseline, epoch)
        _durable_write(self._path, self._mem)

    def money_record(self) -> MoneyRecord:
        """The notes in the cash box (never emptied here) and the baseline."""
        return _validator_record(self._mem)

    def insert(self, value: int, seat: int = 0) -> bool:
        """A player inserts a note; False when the validator rejects it outright.

        In test mode a note of a known value is read and handed straight back, unreported.
        """
        if self.test_mode:
            if value in NOTE_VALUES:
                self._test_notes.append(value)
            self.returned.append(value)
            return False
        if not self.enabled or value not in self.notes or str(seat) in self._mem["escrow"]:
            self.returned.append(value)
            return False
        self._mem["escrow"][str(seat)] = {"value": value, "stacking": False}
        _durable_write(self._path, self._mem)
        self._reports.append(c.InsertBill(value=value, seat=seat))
        return True

    def set_enabled(self, enabled: bool, notes: tuple[int, ...]) -> None:
        """Accept notes of these values, or nothing."""
        self.enabled, self.notes = enabled, notes

    def set_test_mode(self, on: bool) -> None:
        """Start (clearing the list of notes read) or stop the service menu's test."""
        if on and not self.test_mode:
            self._test_notes = []
        self.test_mode = on

    def test_notes(self) -> list[int]:
        """Notes read and returned since the test started."""
        return list(self._test_notes)

    def stack(self, seat: int) -> None:
        """Move the note in escrow to the cash box."""
        note = self._mem["escrow"].get(str(seat))
        if note is None:
            return
        note["stacking"] = True
        _durable_write(self._path, self._mem)
        self._finish_stack(seat)

    def _finish_stack(self, seat: int) -> None:
        note = self._mem["escrow"].pop(str(seat))
        self._mem["cashbox"].append(note["value"])
        # remembered until the terminal acknowledges it: a power cut before the terminal has
        # journaled the credit must not lose the note
        self._mem.setdefault("unacknowledged", {})[str(seat)] = note["value"]
        count = self._mem["stacked"] = self._mem.get("stacked", 0) + 1  # numbers each note
        self._mem.setdefault("unacknowledged_counts", {})[str(seat)] = count
        _durable_write(self._path, self._mem)
        self._reports.append(self._stacked_report(note["value"], seat, count))
        self._record_due = self._reconciling  # a money event: its record comes after it

    @staticmethod
    def _stacked_report(value: int, seat: int, count: int) -> c.BillStackedReport:
        """A stacked note with this validator's own number for it (0: from before it had)."""
        device = "in-process validator" if count else ""
        return c.BillStackedReport(value=value, seat=seat, device=device, device_count=count)

    def return_note(self, seat: int) -> None:
        """Hand the note in escrow back."""
        note = self._mem["escrow"].pop(str(seat), None)
        if note is not None:
            _durable_write(self._path, self._mem)
            self.returned.append(note["value"])

    def poll(self) -> list[c.Command]:
        """Reports since the last poll (the money record last, when due)."""
        out = list(self._reports)
        self._reports.clear()
        if self._record_due:
            self._record_due = False
            out.append(self.money_record())
        return out

    def recover(self) -> list[c.Command]:
        """At power-up: stacked notes not yet acknowledged are reported again, a note mid-stack
        is stacked and reported, one still in escrow is returned."""
        self._reconciling = self._record_due = False  # a new terminal: records once it asks
        counts = self._mem.get("unacknowledged_counts", {})
        out: list[c.Command] = [
            self._stacked_report(value, int(seat), int(counts.get(seat, 0)))
            for seat, value in self._mem.get("unacknowledged", {}).items()
        ]
        for seat_text, note in list(self._mem["escrow"].items()):
            seat = int(seat_text)
            if note["stacking"]:
                self._finish_stack(seat)
                out.extend(self.poll())
            else:
                del self._mem["escrow"][seat_text]
                self.returned.append(note["value"])
                out.append(
                    c.BillReturnedReport(
                        value=note["value"], reason="returned at power-up", seat=seat
                    )
                )
        _durable_write(self._path, self._mem)
        return out

    def acknowledge(self, seat: int) -> None:
        """The terminal journaled the seat's stacked note: stop reporting it."""
        self._mem.get("unacknowledged_counts", {}).pop(str(seat), None)
        if self._mem.get("unacknowledged", {}).pop(str(seat), None) is not None:
            _durable_write(self._path, self._mem)

    def cashbox_total(self) -> int:
        """Cents in the cash box."""
        return sum(self._mem["cashbox"])


class InProcessPrinter:
    """A voucher printer that remembers every voucher it printed."""

    def __init__(self, state_dir: Path) -> None:
        state_dir.mkdir(parents=True, exist_ok=True)
        self._path = state_dir / "printer.json"
        self._mem = _read(self._path, {"printed": {}})
        self.paper = True
        self.paper_low = False  # the roll nearly used up: a warning (PrinterPaperLow)
        self.fault: str | None = None  # e.g. "jam", "head open"
        self.test_vouchers = 0  # test vouchers printed by this process
        self._reports: deque[c.Command] = deque()
        self._reconciling = False
        self._record_due = False  # the record follows the reports of the next poll

    def request_money_record(self) -> None:
        """Report the printed record at the next poll, and after every voucher printed from
        now on (always last in its poll)."""
        self._reconciling = self._record_due = True

    def set_money_baseline(self, baseline: Baseline, epoch: int) -> None:
        """Keep this baseline (figure: vouchers)."""
        self._mem["baseline"] = _baseline_json(baseline, epoch)
        _durable_write(self._path, self._mem)

    def money_record(self) -> MoneyRecord:
        """Every voucher printed, and the baseline."""
        return _printer_record(self._mem)

    def ready(self) -> bool:
        """Paper in and no fault."""
        return self.paper and self.fault is None

    def print_voucher(self, voucher: Voucher) -> None:
        """Print (remembering it) or report why not."""
        if not self.ready():
            reason = "paper out" if not self.paper else str(self.fault)
            self._reports.append(c.PrinterReport(printed=False, reason=reason))
            return
        self._mem["printed"][voucher.validation_number] = {
            "value": voucher.value,
            "terminal_id": voucher.terminal_id,
            "issued_at": voucher.issued_at,
        }
        _durable_write(self._path, self._mem)
        self._reports.append(c.PrinterReport(printed=True))
        self._record_due = self._reconciling  # a money event: its record comes after it

    def print_test_voucher(self, terminal_id: str, venue: str, at: int) -> str | None:
        """A VOID test voucher: no value, no validation number, nothing reported."""
        if not self.ready():
            return "paper out" if not self.paper else str(self.fault)
        self.test_vouchers += 1
        return None

    def print_receipt(self, receipt_id: str, lines: list[str], at: int) -> str | None:
        """Print a transaction receipt once per id (remembered); None, or why not."""
        receipts = self._mem.setdefault("receipts", {})
        if receipt_id in receipts:
            return None
        if not self.ready():
            return "paper out" if not self.paper else str(self.fault)
        receipts[receipt_id] = {"lines": list(lines), "at": at}
        _durable_write(self._path, self._mem)
        return None

    def receipt_printed(self, receipt_id: str) -> bool | None:
        """Whether this receipt was printed."""
        return receipt_id in self._mem.get("receipts", {})

    def receipts(self) -> dict[str, dict[str, Any]]:
        """Every receipt printed, by id."""
        return dict(self._mem.get("receipts", {}))

    def voucher_status(self, validation_number: str) -> VoucherStatus:
        """Whether this voucher was printed."""
        return "printed" if validation_number in self._mem["printed"] else "not_printed"

    def poll(self) -> list[c.Command]:
        """Reports since the last poll (the money record last, when due)."""
        out = list(self._reports)
        self._reports.clear()
        if self._record_due:
            self._record_due = False
            out.append(self.money_record())
        return out

    def printed(self) -> dict[str, dict[str, Any]]:
        """Every voucher printed, by validation number."""
        return dict(self._mem["printed"])
