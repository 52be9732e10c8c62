"""Reconciliation: a device's money record against the journal's meters.

For every figure (notes and tickets stacked, vouchers printed) the device and the journal must
have moved by the same amount since the baseline::

    journal meter now - journal meter at baseline == device counter now - device at baseline

(modulo the meters' roll-over).  The runtime asks at power-up and after every money event
(:func:`request_records`); each answer arrives in order with the device's reports, so the money
reports the device sent before it are journaled when it is judged (:func:`settle`).  A device
without a baseline (just paired or replaced) gets one, and the journal records it
(``DeviceBaselineRecorded``); so does a device whose baseline was taken in another store epoch
(the store was started anew by the operator's audited RAM clear: only the signer moves epochs).
A disagreement raises the device's reconcile tilt naming both figures, a *device records
dispute*: the journal lost money it had (a cut tail, a replaced or wiped store, an older image
of the whole card), or the device moved money the journal never saw.  It stops play and
cash-out, and no attendant's key ends it: only the host's confirmation (:func:`confirm`, a host
command audited on the host, which takes a new baseline) or the operator's audited RAM clear
(decision 0038).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

from kiosk.kernel.money_text import dollars
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.commands import CommandError
from kiosk.terminal.core.meters import METER_MODULUS, Meters
from kiosk.terminal.devices.money_record import (
    Baseline,
    Figure,
    FigureBaseline,
    MoneyRecord,
    MoneyRecordPort,
    Tally,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Agrees:
    """The device and the journal moved by the same amounts."""


@dataclass(frozen=True)
class NeedsBaseline:
    """The device has no baseline: this one (the journal's meters and the device's counters
    now) is to be journaled and kept by the device."""

    baseline: Baseline


@dataclass(frozen=True)
class Disagrees:
    """At least one figure differs; ``reason`` names both sides of each."""

    reason: str


Verdict = Agrees | NeedsBaseline | Disagrees


def journal_tally(meters: Meters, figure: Figure) -> Tally:
    """The journal's lifetime meter for ``figure``."""
    return Tally(meters[f"{figure.meter}_count"], meters[figure.meter])


def _describe(tally: Tally, figure: Figure) -> str:
    text = f"{tally.count} {figure.what}"
    return f"{text} ({dollars(tally.value)})" if figure.values else text


def judge(meters: Meters, record: MoneyRecord, epoch: int = 0) -> Verdict:
    """The verdict on ``record`` against the journal's lifetime ``meters`` (of the store
    ``epoch``: a baseline of another epoch, from before an audited RAM clear, is replaced)."""
    if (
        record.baseline is None
        or len(record.baseline) != len(record.figures)
        or record.baseline_epoch != epoch
    ):
        return NeedsBaseline(
            tuple(FigureBaseline(journal_tally(meters, f), f.device) for f in record.figures)
        )
    faults = []
    for figure, base in zip(record.figures, record.baseline, strict=True):
        journal = journal_tally(meters, figure)
        device_moved = Tally(
            figure.device.count - base.device.count, figure.device.value - base.device.value
        )
        journal_moved = Tally(
            (journal.count - base.terminal.count) % METER_MODULUS,
            (journal.value - base.terminal.value) % METER_MODULUS,
        )
        same_count = (device_moved.count - journal_moved.count) % METER_MODULUS == 0
        same_value = (device_moved.value - journal_moved.value) % METER_MODULUS == 0
        if device_moved.count < 0 or not same_count or (figure.values and not same_value):
            faults.append(
                f"{record.device} counted {_describe(device_moved, figure)} since pairing, "
                f"the journal {_describe(journal_moved, figure)}"
            )
    if faults:
        return Disagrees("; ".join(faults))
    return Agrees()


class Runtime(Protocol):
    """What :func:`settle` needs of :class:`~kiosk.terminal.runtime.terminal.TerminalRuntime`."""

    @property
    def meters(self) -> Meters: ...

    @property
    def store_epoch(self) -> int: ...

    def execute(self, command: c.Command) -> list[e.Event]: ...

    def device_port(self, record: MoneyRecord) -> object: ...


def settle(runtime: Runtime, record: MoneyRecord) -> list[e.Event]:
    """Judge ``record``: journal a new baseline (and hand it to the device), or raise the
    device's tilt on a disagreement (a *device records dispute*: it stops play and cash-out
    until the host confirms it or the operator clears the RAM, see :func:`confirm`); the
    events this caused."""
    epoch = runtime.store_epoch
    verdict = judge(runtime.meters, record, epoch)
    try:
        if isinstance(verdict, NeedsBaseline):
            journal, counters = baseline_figures(record, verdict.baseline, epoch)
            events = runtime.execute(
                c.RecordDeviceBaseline(device=record.device, journal=journal, counters=counters)
            )
            _hand_over(runtime, record, verdict.baseline, epoch)
            return events
        if isinstance(verdict, Disagrees):
            log.error("reconciliation: %s", verdict.reason)
            return runtime.execute(
                c.RaiseTilt(code=record.tilt, reason=verdict.reason, needs_attendant=True)
            )
    except CommandError as exc:  # a critical memory lockup: nothing more is journaled
        log.warning("reconciliation of the %s not recorded: %s", record.device, exc)
    return []


def confirm(runtime: Runtime, record: MoneyRecord, *, by: str, reason: str = "") -> list[e.Event]:
    """The host's confirmation of the dispute ``record`` raised: its tilt ends and the device
    is reconciled from a new baseline (the journal's meters and the device's counters of
    ``record``, the device's last answer), journaled together; raises CommandError when there
    is no such dispute or ``reason`` is not its reason now."""
    epoch = runtime.store_epoch
    baseline = tuple(
        FigureBaseline(journal_tally(runtime.meters, f), f.device) for f in record.figures
    )
    journal, counters = baseline_figures(record, baseline, epoch)
    events = runtime.execute(
        c.ConfirmDeviceRecords(
            code=record.tilt,
            by=by,
            device=record.device,
            journal=journal,
            counters=counters,
            reason=reason,
        )
    )
    _hand_over(runtime, record, baseline, epoch)
    return events


def baseline_figures(
    record: MoneyRecord, baseline: Baseline, epoch: int
) -> tuple[dict[str, int], dict[str, int]]:
    """A baseline as journaled (``DeviceBaselineRecorded``): the journal's meters with the store
    ``epoch``, and the device's counters."""
    pairs = list(zip(record.figures, baseline, strict=True))
    journal = {f.meter: b.terminal.value for f, b in pairs}
    journal |= {f"{f.meter}_count": b.terminal.count for f, b in pairs}
    journal["epoch"] = epoch
    counters = {f.what: b.device.count for f, b in pairs}
    counters |= {f"{f.what}_value": b.device.value for f, b in pairs}
    return journal, counters


def _hand_over(runtime: Runtime, record: MoneyRecord, baseline: Baseline, epoch: int) -> None:
    """Give the journaled baseline to the device (a power cut before it: the device still
    holds the old one and the dispute is raised again at power-up)."""
    port = runtime.device_port(record)
    if isinstance(port, MoneyRecordPort):
        port.set_money_baseline(baseline, epoch)


def request_records(*ports: object) -> None:
    """Ask every device that keeps a money record for it (and, from now on, after every money
    event)."""
    for port in ports:
        if isinstance(port, MoneyRecordPort):
            port.request_money_record()
