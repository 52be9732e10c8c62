"""The host's view of each terminal's store: meter epochs, RAM clears, anchors, terminal alarms.

Run inside :meth:`HostDb.record`'s transaction, so a batch, the epoch it opens, the meter
comparison and the acknowledged head commit together (or not at all):

- **Meter epochs.** A terminal's store is named by its epoch (the store's ``created_at``).
  Lifetime meters are compared within one epoch: a snapshot with any meter lower than the
  newest earlier snapshot of the same epoch (or, arriving late, higher than a newer one) is a
  ``meters_backwards`` alarm.  A new epoch opens a new comparison; it comes with a
  ``ram_cleared`` message (the new store's first event, an operator's audited RAM clear) or it
  is an ``epoch_without_ram_clear`` alarm.  An epoch seen before coming back is an
  ``old_epoch`` alarm (an old copy of the store).
- **Acknowledged heads.** The head a report carries becomes the terminal's anchor when it is
  ahead of the anchor in the same epoch, or opens the terminal's current epoch; a head behind
  the anchor (``head_behind``) or at its sequence number with another hash (``head_forked``)
  is an alarm and leaves the anchor where it is.
- **Withdrawn heads.** A ``head_withdrawn`` message (power-up withdrew the signer's last head:
  a power cut between signing and committing, or a cut of the store's last commit) is a
  ``head_withdrawn`` alarm on the floor (docs/security.md, "Outcomes sealed when drawn").

Alarms are written to ``terminal_alarms`` once per distinct detail and logged after commit.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kiosk.terminal.hostlink.anchor import JournalHead

if TYPE_CHECKING:
    from kiosk.host.accounting.reports import Message, Tx

STORES_SCHEMA = """
CREATE TABLE IF NOT EXISTS journal_anchors (
    terminal_id TEXT PRIMARY KEY,
    epoch BIGINT NOT NULL CHECK (epoch > 0),
    seq BIGINT NOT NULL CHECK (seq >= 0),
    hash TEXT NOT NULL CHECK (length(hash) <= 128),
    acked_ms BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS meter_epochs (
    terminal_id TEXT NOT NULL,
    epoch BIGINT NOT NULL CHECK (epoch >= 0),
    started_ms BIGINT NOT NULL,
    ram_clear TEXT NOT NULL,
    snapshot_seq BIGINT NOT NULL CHECK (snapshot_seq >= 0),
    meters TEXT NOT NULL,
    PRIMARY KEY (terminal_id, epoch));
CREATE TABLE IF NOT EXISTS terminal_alarms (
    entry_id {serial} PRIMARY KEY,
    terminal_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    severity TEXT NOT NULL CHECK (severity IN ('alarm', 'exception', 'operator')),
    at_ms BIGINT NOT NULL,
    detail TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS terminal_alarms_by_terminal ON terminal_alarms (terminal_id, kind);
"""

#: terminal_alarms kinds -> severity
TERMINAL_ALARM_KINDS = {
    "ram_cleared": "operator",
    "meters_backwards": "alarm",
    "epoch_without_ram_clear": "alarm",
    "old_epoch": "alarm",
    "ram_clear_behind_anchor": "alarm",
    "head_behind": "alarm",
    "head_forked": "alarm",
    # plausibility (kiosk/host/accounting/plausibility.py, device_counts.py, rate_limit.py)
    "implausible_game": "alarm",
    "implausible_progressive": "alarm",  # a progressive award its meter could not pay (0066)
    "device_count_repeat": "alarm",
    "device_count_missing": "alarm",
    "report_rate": "alarm",
    "identity_refused": "alarm",  # an unknown, retired or wrong-role identity (registry.py)
    "head_withdrawn": "alarm",  # the terminal's signer held a head its store did not
    # the floor's own (kiosk/host/accounting/floor_alarms.py): what an attendant goes to
    "door_open": "alarm",  # a cabinet door opened while no one was in the service menu
    "tilt": "exception",  # a tilt raised (paper out, a jam, a link...): play stopped
    "handpay": "exception",  # an attendant must pay by hand
}


def terminal_alarm(tx: Tx, terminal_id: str, kind: str, at: int, detail: dict[str, Any]) -> None:
    """Write an entry (once per terminal, kind and detail); alarms are logged after commit."""
    text = json.dumps(detail, sort_keys=True)
    known = tx.execute(
        "SELECT 1 FROM terminal_alarms WHERE terminal_id = ? AND kind = ? AND detail = ?",
        (terminal_id, kind, text),
    ).fetchone()
    if known is not None:
        return
    severity = TERMINAL_ALARM_KINDS[kind]
    tx.execute(
        "INSERT INTO terminal_alarms (terminal_id, kind, severity, at_ms, detail) "
        "VALUES (?, ?, ?, ?, ?)",
        (terminal_id, kind, severity, at, text),
    )
    if severity == "alarm":
        tx.alarms.append(f"ALARM terminal {terminal_id}: {kind}: {text}")


def anchor(tx: Tx, terminal_id: str) -> JournalHead | None:
    """The terminal's acknowledged head."""
    row = tx.execute(
        "SELECT epoch, seq, hash FROM journal_anchors WHERE terminal_id = ?", (terminal_id,)
    ).fetchone()
    return None if row is None else JournalHead(int(row[0]), int(row[1]), bytes.fromhex(row[2]))


def _current_epoch(tx: Tx, terminal_id: str) -> int | None:
    row = tx.execute(
        "SELECT epoch FROM meter_epochs WHERE terminal_id = ? "
        "ORDER BY started_ms DESC, epoch DESC LIMIT 1",
        (terminal_id,),
    ).fetchone()
    return None if row is None else int(row[0])


def enter_epoch(tx: Tx, terminal_id: str, epoch: int, messages: Sequence[Message], at: int) -> bool:
    """Open the batch's epoch when it is new; False when it is an old epoch come back."""
    current = _current_epoch(tx, terminal_id)
    if current == epoch:
        return True
    seen = tx.execute(
        "SELECT 1 FROM meter_epochs WHERE terminal_id = ? AND epoch = ?", (terminal_id, epoch)
    ).fetchone()
    if seen is not None:
        terminal_alarm(tx, terminal_id, "old_epoch", at, {"epoch": epoch, "current": current})
        return False
    clear = next((m.body for m in messages if m.kind == "ram_cleared"), None)
    tx.execute(
        "INSERT INTO meter_epochs VALUES (?, ?, ?, ?, 0, '{}')",
        (terminal_id, epoch, at, json.dumps(clear, sort_keys=True) if clear else ""),
    )
    if clear is not None:
        terminal_alarm(tx, terminal_id, "ram_cleared", at, {"epoch": epoch, **clear})
        _check_clear(tx, terminal_id, epoch, clear, at)
    elif current:  # not the first store seen, nor the first report with a head (an upgrade)
        detail = {"epoch": epoch, "previous_epoch": current}
        terminal_alarm(tx, terminal_id, "epoch_without_ram_clear", at, detail)
    return True


def _check_clear(tx: Tx, terminal_id: str, epoch: int, clear: dict[str, Any], at: int) -> None:
    """A RAM clear's previous head must not be behind what the host acknowledged of that store."""
    known = anchor(tx, terminal_id)
    if known is None:
        return
    previous = JournalHead(
        int(clear["previous_epoch"]),
        int(clear["previous_seq"]),
        bytes.fromhex(str(clear["previous_hash"])),
    )
    if previous.epoch != known.epoch or previous.seq < known.seq:
        detail = {"epoch": epoch, "cleared": str(previous), "acknowledged": str(known)}
        terminal_alarm(tx, terminal_id, "ram_clear_behind_anchor", at, detail)


def compare_meters(tx: Tx, terminal_id: str, epoch: int, m: Message, at: int) -> None:
    """Check a snapshot against the epoch's newest one; keep it when it is the newest."""
    tx.execute(  # a no-op update takes the row lock on PostgreSQL (SQLite locks it all)
        "UPDATE meter_epochs SET meters = meters WHERE terminal_id = ? AND epoch = ?",
        (terminal_id, epoch),
    )
    row = tx.execute(
        "SELECT snapshot_seq, meters FROM meter_epochs WHERE terminal_id = ? AND epoch = ?",
        (terminal_id, epoch),
    ).fetchone()
    new: dict[str, int] = dict(m.body.get("meters", {}))
    detail, newer = meter_change(epoch, int(row[0]), dict(json.loads(row[1])), m, new)
    if detail is not None:
        terminal_alarm(tx, terminal_id, "meters_backwards", at, detail)
    if newer:
        tx.execute(
            "UPDATE meter_epochs SET snapshot_seq = ?, meters = ? "
            "WHERE terminal_id = ? AND epoch = ? AND snapshot_seq <= ?",
            (m.journal_seq, json.dumps(new, sort_keys=True), terminal_id, epoch, m.journal_seq),
        )


def meter_change(
    epoch: int, old_seq: int, old: dict[str, int], m: Message, new: dict[str, int]
) -> tuple[dict[str, Any] | None, bool]:
    """Snapshot ``m`` (its meters ``new``) against the epoch's newest (``old`` at ``old_seq``):
    the ``meters_backwards`` alarm's detail (or None), and whether ``m`` is the newest now."""
    detail = None
    if old:
        later, earlier = (new, old) if m.journal_seq >= old_seq else (old, new)
        lower = {
            name: {"before": value, "after": later.get(name, 0)}
            for name, value in sorted(earlier.items())
            if later.get(name, 0) < value
        }
        if lower:
            detail = {
                "epoch": epoch,
                "seq_before": min(old_seq, m.journal_seq),
                "seq_after": max(old_seq, m.journal_seq),
                "meters": lower,
            }
    return detail, not old or m.journal_seq >= old_seq


def acknowledge(tx: Tx, terminal_id: str, head: JournalHead, current: bool, at: int) -> None:
    """Make ``head`` the anchor when it moves it forward (``current``: the batch's epoch is the
    terminal's current one); otherwise leave it, with an alarm when the head is behind it."""
    known = anchor(tx, terminal_id)
    values = (head.epoch, head.seq, head.hash.hex(), at, terminal_id)
    if known is None:
        tx.execute(
            "INSERT INTO journal_anchors (epoch, seq, hash, acked_ms, terminal_id) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (terminal_id) DO NOTHING",
            values,
        )
        return
    if known.epoch != head.epoch:
        if current:  # a new store (recorded by enter_epoch)
            tx.execute(
                "UPDATE journal_anchors SET epoch = ?, seq = ?, hash = ?, acked_ms = ? "
                "WHERE terminal_id = ? AND epoch <> ?",
                (*values, head.epoch),
            )
        return
    if head.seq > known.seq:
        tx.execute(  # conditional: a concurrent report never moves the anchor back
            "UPDATE journal_anchors SET epoch = ?, seq = ?, hash = ?, acked_ms = ? "
            "WHERE terminal_id = ? AND epoch = ? AND seq < ?",
            (*values, head.epoch, head.seq),
        )
        return
    detail = {"reported": str(head), "acknowledged": str(known)}
    if head.seq < known.seq:
        terminal_alarm(tx, terminal_id, "head_behind", at, detail)
    elif head.hash != known.hash:
        terminal_alarm(tx, terminal_id, "head_forked", at, detail)
