"""The devices' own money records in ``turbokiosk audit``, judged against the journal.

The store's audit (:mod:`kiosk.terminal.store.audit`) proves the journal consistent with itself and
with the signer's anchor; a whole card written back (the store *and* the signer's state) passes
that. The devices keep their money records off the card, so :func:`audit_devices` judges each record
it can read against the audited journal's lifetime meters, as power-up does
(:func:`kiosk.terminal.runtime.reconcile.judge`): a device ahead of the journal fails the audit in
one line naming both figures.  It reads the in-process devices' memories (``DATA_DIR/devices``)
without changing them; devices on serial links are not opened here (the running terminal holds
their ports): the terminal judges their records at every power-up and money event, and a
disagreement it journaled fails the store's audit (decision 0038).
"""

from __future__ import annotations

from pathlib import Path

from kiosk.terminal.devices.inprocess import read_money_records
from kiosk.terminal.runtime import reconcile
from kiosk.terminal.store.audit import AuditReport

#: where the in-process devices keep their memories, inside the data directory
DEVICES_DIR = "devices"


def audit_devices(data_dir: Path, report: AuditReport) -> None:
    """Add the devices' records to ``report`` (of ``data_dir``'s store; nothing when the store
    could not be audited)."""
    state = report.state
    if state is None:
        return
    try:
        records = read_money_records(Path(data_dir) / DEVICES_DIR)
    except ValueError as exc:
        report.failed(f"devices: a money record cannot be read: {exc}")
        return
    if not records:
        report.passed(
            "devices: no device record to read here (devices on serial links are judged by "
            "the terminal at every power-up and money event)"
        )
        return
    for record in records:
        verdict = reconcile.judge(state.lifetime, record, report.epoch)
        if isinstance(verdict, reconcile.Agrees):
            report.passed(f"devices: the {record.device}'s money record agrees with the journal")
        elif isinstance(verdict, reconcile.NeedsBaseline):
            report.passed(
                f"devices: the {record.device} has no baseline of this store yet (it takes one "
                "at the next power-up)"
            )
        elif not any(verdict.reason in problem for problem in report.problems):
            report.failed(
                f"devices: {verdict.reason}: the journal disagrees with the device (an older "
                "image of the card written back, or money the journal never saw)"
            )
