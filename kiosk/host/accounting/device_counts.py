"""A note seen before, under a new message id: the devices' own counts, kept per terminal.

A bill validator numbers its events (``ValidatorEvent.event_id``, one more per event, kept
through its restarts: device.proto); the terminal reports each stacked note with its
validator's name (model and serial number) and that number (``BillStacked.device`` and
``device_count``, host.proto).  The host keeps the highest count per terminal and device
(``device_counts``) in the report's transaction: a note whose count is not above it was
reported already, whatever its message id, and is recorded refused with a
``device_count_repeat`` alarm (:func:`admit`).  A resend of the same message is a duplicate as
before (its id is known), never a repeat.  A note without a count (a terminal from before
this change) passes unless the host requires counts (``--require-device-counts``): then it is
refused with a ``device_count_missing`` alarm.

Held in the database, not in memory, so that several hosts on one PostgreSQL (a terminal
failing over between them) keep one count; notes are few beside games and meters, so the
two or three statements per note do not weigh on a report's cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kiosk.host.accounting.plausibility import refused

if TYPE_CHECKING:
    from kiosk.host.accounting.reports import Message, Tx

DEVICE_COUNTS_SCHEMA = """
CREATE TABLE IF NOT EXISTS device_counts (
    terminal_id TEXT NOT NULL,
    device TEXT NOT NULL,
    count BIGINT NOT NULL CHECK (count > 0),
    message_id TEXT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (terminal_id, device));
"""
#: message kinds that carry a device count
COUNTED_KINDS = frozenset({"bill_stacked"})


def counted(messages: Sequence[Message], required: bool) -> bool:
    """Whether a batch holds a message :func:`admit` must look at."""
    return any(
        m.kind in COUNTED_KINDS and (required or m.body.get("device_count", 0)) for m in messages
    )


def admit(tx: Tx, terminal_id: str, m: Message, at: int, required: bool) -> Message:
    """``m`` as it is to be recorded: unchanged (and its count kept as the highest), or
    refused as a repeat (or, when ``required``, for want of a count)."""
    known = tx.execute("SELECT 1 FROM events WHERE message_id = ?", (m.message_id,)).fetchone()
    if known is not None:
        return m  # a resend: recorded as a duplicate
    count = int(m.body.get("device_count", 0))
    device = str(m.body.get("device", ""))
    if count <= 0:
        if required:
            why = "the host requires each note's device count; this report has none"
            return refused(m, "device_count_missing", why)
        return m
    won = tx.execute(  # one statement decides, also against another host's transaction
        "INSERT INTO device_counts VALUES (?, ?, ?, ?, ?) ON CONFLICT (terminal_id, device) "
        "DO UPDATE SET count = excluded.count, message_id = excluded.message_id, "
        "updated_ms = excluded.updated_ms WHERE device_counts.count < excluded.count "
        "RETURNING count",
        (terminal_id, device, count, m.message_id, at),
    ).fetchone()
    if won is None:  # the count is not above the highest: seen before
        row = tx.execute(
            "SELECT count, message_id FROM device_counts WHERE terminal_id = ? AND device = ?",
            (terminal_id, device),
        ).fetchone()
        why = (
            f"{device or 'the device'} item {count} was reported already: the highest count "
            f"seen is {int(row[0])} (message {row[1]})"
        )
        return refused(m, "device_count_repeat", why)
    return m
