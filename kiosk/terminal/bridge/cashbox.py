"""A simulated validator's cash-box record: what reached its box, in order."""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class CashboxRecord:
    """Notes (cents each) and tickets (barcodes) stacked since the box was last emptied."""

    notes: tuple[int, ...] = ()
    tickets: tuple[str, ...] = ()

    @property
    def note_total(self) -> int:
        """The notes' value in cents."""
        return sum(self.notes)

    def with_note(self, cents: int) -> CashboxRecord:
        return CashboxRecord((*self.notes, cents), self.tickets)

    def with_ticket(self, barcode: str) -> CashboxRecord:
        return CashboxRecord(self.notes, (*self.tickets, barcode))

    def to_json(self) -> str:
        """The record as the simulator writes it to its record file."""
        body = {"notes": list(self.notes), "tickets": list(self.tickets)}
        return json.dumps(body, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str) -> CashboxRecord:
        body = json.loads(text)
        return cls(tuple(int(n) for n in body["notes"]), tuple(str(t) for t in body["tickets"]))
