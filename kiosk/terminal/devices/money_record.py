"""What a device counts of the money it moved, as the terminal compares it with its journal.

The bill validator keeps a cash-box record (notes by value and tickets since the cash box was
last emptied, and lifetime counters of everything stacked); the printer keeps a list of the
vouchers it printed and a lifetime counter.  Each keeps, besides, the *baseline* taken when it
was paired: the terminal's journal meters and its own lifetime counters at one instant.  A
driver hands the device's answer to the runtime as a :class:`MoneyRecord`, in order with its
other reports (so every money report the device sent before the record has been journaled when
the record is judged); :mod:`kiosk.terminal.runtime.reconcile` judges it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from kiosk.terminal.core.commands import Command

#: which of the runtime's device ports sent a record
Source = Literal["validator", "printer"]


@dataclass(frozen=True)
class Tally:
    """How many, and what they are worth (cents)."""

    count: int
    value: int


@dataclass(frozen=True)
class Figure:
    """One figure both a device and the journal keep: the device's lifetime counter now, and
    the journal's lifetime meter it matches (value under ``meter``, count under
    ``meter + "_count"``).  ``values`` is False where the device cannot know what the items are
    worth (a voucher ticket: only the host knows): then only counts are compared."""

    what: str  # "notes", "tickets", "vouchers"
    meter: str  # "bills_in", "tickets_in", "tickets_out"
    device: Tally
    values: bool = True


@dataclass(frozen=True)
class FigureBaseline:
    """A figure at the baseline: the journal's meter and the device's counter."""

    terminal: Tally
    device: Tally


#: one per figure of the record, in the same order
Baseline = tuple[FigureBaseline, ...]


@dataclass(frozen=True)
class MoneyRecord(Command):
    """A device report, not a core command: the device's money record."""

    source: Source
    device: str  # "bill validator", "printer"
    tilt: str  # the tilt a disagreement raises
    figures: tuple[Figure, ...]
    baseline: Baseline | None  # None: the device has none (it was just paired)
    detail: str = ""  # what the device holds, for people (the cash box by value...)
    baseline_epoch: int = 0  # the store epoch the baseline was taken in


@runtime_checkable
class MoneyRecordPort(Protocol):
    """A device that keeps a money record (both drivers, both in-process devices)."""

    def request_money_record(self) -> None:
        """Ask for the record now, and after every money event from now on (the answer comes
        as a :class:`MoneyRecord` report)."""
        ...

    def set_money_baseline(self, baseline: Baseline, epoch: int) -> None:
        """Have the device keep this baseline, taken in the store of ``epoch`` (it had none,
        or one of another store epoch)."""
        ...
