"""AFT transaction receipts: asked by the transfer, printed once per transaction id (decision
0067, docs/sas.md "Transaction receipts").

A transfer whose flags ask for a receipt (bit 7) and that the core made is written here as
``want`` (one appended line, fsync'd) **before** its intent is marked done, so a power cut at
any instant leaves either the intent to replay (the core refuses the repeat, the receipt is
asked again) or the receipt wanted.  The terminal's thread prints each receipt wanted on the
ticket printer, which prints an id once (asked again, it answers "printed" without printing),
then writes ``printed``.  72 reports ``00`` printed, ``40`` pending, ``FF`` none asked.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Protocol, runtime_checkable

#: the file beside the SAS store
RECEIPTS_FILE = "sas.receipts"
#: 72's receipt status (SAS 6.02 table 8.3c, as public descriptions give it)
RECEIPT_PRINTED = 0x00
RECEIPT_PENDING = 0x40
NO_RECEIPT = 0xFF
#: transfer flags bit 7: the host asks for a transaction receipt
RECEIPT_REQUEST = 0x80


@runtime_checkable
class ReceiptPrinter(Protocol):
    """A ticket printer that prints transaction receipts, each id once by the printer itself
    (the device link's and the in-process printers, kiosk/terminal/devices)."""

    def print_receipt(self, receipt_id: str, lines: list[str], at: int) -> str | None:
        """Print a receipt (or find it printed before); None when printed, else why not."""
        ...

    def receipt_printed(self, receipt_id: str) -> bool | None:
        """Whether the printer printed this receipt (None: it cannot say now)."""
        ...


class ReceiptLog:
    """The receipts wanted and printed (an append-only file, read back at start-up)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._guard = threading.Lock()
        self._wanted: dict[str, None] = {}  # in the order asked
        self._printed: set[str] = set()
        try:
            lines = path.read_text().splitlines()
        except FileNotFoundError:
            lines = []
        for line in lines:
            try:
                record = json.loads(line)
            except ValueError:  # a line cut by a kill or a power cut: never acted on
                continue
            if not isinstance(record, dict):
                continue
            if "want" in record:
                self._wanted[str(record["want"])] = None
            elif "printed" in record:
                self._printed.add(str(record["printed"]))

    def _append(self, record: dict[str, str]) -> None:
        line = (json.dumps(record, sort_keys=True) + "\n").encode()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)

    def want(self, transaction_id: str) -> None:
        """A receipt is owed for this transfer (durable before the transfer's intent is done)."""
        with self._guard:
            if transaction_id in self._wanted:
                return
            self._append({"want": transaction_id})
            self._wanted[transaction_id] = None

    def printed(self, transaction_id: str) -> None:
        """The printer printed it."""
        with self._guard:
            if transaction_id in self._printed:
                return
            self._append({"printed": transaction_id})
            self._printed.add(transaction_id)

    def pending(self) -> list[str]:
        """Receipts wanted and not printed, oldest first."""
        with self._guard:
            return [t for t in self._wanted if t not in self._printed]

    def status(self, transaction_id: str) -> int:
        """72's receipt status of this transfer."""
        with self._guard:
            if transaction_id in self._printed:
                return RECEIPT_PRINTED
            return RECEIPT_PENDING if transaction_id in self._wanted else NO_RECEIPT
