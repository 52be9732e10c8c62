"""What the terminal owes the host: journaled events mapped to store-and-forward messages.

:class:`HostMessageMapper` is the runtime's ``host_messages`` hook: it runs inside the
terminal's commit, so the messages land in the outbox in the same SQLite transaction as the
events they report.  Each message is stored as ``(kind, {"index", "back", "at", "body"})``:

- ``kind`` is the name of the ``TerminalMessage.body`` field (``bill_stacked``, ``meters``...);
- ``index`` is the message's position among the commit's messages and ``back`` how many
  journal rows before the commit's last row its event is, so the link can name the message
  ``<terminal>:<journal epoch>:<commit seq>:<index>`` (stable across resends and restarts) and
  give the event's own journal sequence number;
- ``body`` is the field's message in proto3 JSON form with the proto field names.

Every commit whose events move a lifetime meter also carries a meter snapshot, so the host's
newest snapshot is the terminal's meters whenever the outbox is empty.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from google.protobuf.message import Message as ProtoMessage

from kiosk.terminal.core import events as e
from kiosk.terminal.core.event_sets import moves_meters
from kiosk.terminal.core.state import TerminalState
from kiosk.terminal.store.journal import OutboxRow
from proto.turbokiosk.v1 import host_pb2


def _voucher(
    ev: e.CashoutStarted | e.VoucherPrinted | e.VoucherFailed | e.TicketRedeemed,
) -> dict[str, Any]:
    return {"validation_number": ev.validation_number, "value_cents": ev.value, "seat": ev.seat}


def _game(ev: e.RoundSettled, state: TerminalState) -> dict[str, Any]:
    edition = state.round.edition if state.round is not None else ""
    seats = [
        {
            "seat": s.seat,
            "stake_cents": s.stake,
            "paid_cents": s.paid,
            "handpay": s.handpay,
            "spots": [
                {
                    "spot": r.spot,
                    "stake_cents": r.stake,
                    "paid_cents": r.paid,
                    "outcome": r.outcome,
                }
                for r in s.results
            ],
        }
        for s in ev.seats
    ]
    return {"game_number": ev.game_number, "edition": edition, "seats": seats}


def event_body(ev: e.Event, state: TerminalState) -> tuple[str, dict[str, Any]] | None:
    """The message an event is reported as, or None when the host is not told of it."""
    if isinstance(ev, e.RoundSettled):
        return "game_played", _game(ev, state)
    if isinstance(ev, e.BillStacked):
        body: dict[str, Any] = {"seat": ev.seat, "value_cents": ev.value}
        if ev.device_count:  # the validator's count: the host refuses one it has seen
            body |= {"device": ev.device, "device_count": ev.device_count}
        return "bill_stacked", body
    if isinstance(ev, e.CashoutStarted):
        return "cashout_started", _voucher(ev)
    if isinstance(ev, e.VoucherPrinted):
        return "voucher_printed", _voucher(ev)
    if isinstance(ev, e.VoucherFailed):
        return "voucher_voided", _voucher(ev)
    if isinstance(ev, e.TicketRedeemed):
        return "voucher_redeemed", _voucher(ev)
    if isinstance(ev, e.HandpayLocked):
        return "handpay_locked", {"seat": ev.seat, "value_cents": ev.value, "kind": ev.kind}
    if isinstance(ev, e.HandpayReset):
        body = {"seat": ev.seat, "value_cents": ev.value, "kind": ev.kind, "by": ev.by}
        return "handpay_reset", body
    if isinstance(ev, e.ProgressiveAwarded):
        body = {"seat": ev.seat, "key": ev.key, "progressive": ev.progressive}
        body |= {"outcome": ev.outcome, "award_cents": ev.award, "handpay": ev.handpay}
        return "progressive_awarded", body
    if isinstance(ev, e.DoorChanged):
        return "door", {"door": ev.door, "open": ev.open}
    if isinstance(ev, e.TiltRaised):
        body = {"code": ev.code, "raised": True, "reason": ev.reason}
        return "tilt", {**body, "needs_attendant": ev.needs_attendant, "by": ""}
    if isinstance(ev, e.TiltCleared):
        body = {"code": ev.code, "raised": False, "reason": ""}
        return "tilt", {**body, "needs_attendant": False, "by": ev.by}
    if isinstance(ev, e.PoweredUp):
        return "power_up", {"software_version": ev.software_version, "recovered": ev.recovered}
    if isinstance(ev, e.EnableChanged):
        return "enable", {"enabled": ev.enabled, "reason": ev.reason}
    if isinstance(ev, e.ServiceChanged):
        return "service", {"active": ev.active, "role": ev.role}
    if isinstance(ev, e.ConfigChanged):
        config = json.dumps(ev.after, sort_keys=True, separators=(",", ":"))
        return "config", {"by": ev.by, "config_json": config}
    if isinstance(ev, e.PeriodMetersReset):
        return "period_meters_reset", {"by": ev.by}
    if isinstance(ev, e.HeadWithdrawn):
        body = {"signer_epoch": ev.epoch, "seq": ev.seq, "chain_hash": ev.chain_hash}
        return "head_withdrawn", {**body, "store_seq": ev.store_seq, "game_number": ev.game_number}
    if isinstance(ev, e.RamCleared):
        # the host names a store by its creation time (kiosk/terminal/hostlink/anchor.py); the
        # signer's epoch number travels beside it
        body = {"previous_epoch": ev.previous_store, "previous_seq": ev.previous_seq}
        body |= {"previous_hash": ev.previous_hash, "signer_epoch": ev.epoch}
        return "ram_cleared", {**body, "by": ev.by, "cleared_ms": ev.at, "reason": ev.reason}
    return None


def meters_body(state: TerminalState, reason: str) -> dict[str, Any]:
    """A meter snapshot of the lifetime meters."""
    meters = [{"name": k, "value": v} for k, v in state.lifetime.as_dict().items()]
    return {"reason": reason, "meters": meters}


class HostMessageMapper:
    """The runtime's ``host_messages`` hook (see the module docstring)."""

    def __call__(
        self, events: list[e.Event], state: TerminalState
    ) -> list[tuple[str, dict[str, Any]]]:
        out: list[tuple[str, dict[str, Any]]] = []
        last = len(events) - 1
        for position, ev in enumerate(events):
            mapped = event_body(ev, state)
            if mapped is not None:
                kind, body = mapped
                message = {"index": len(out), "back": last - position, "at": ev.at, "body": body}
                out.append((kind, message))
        if any(moves_meters(ev) for ev in events):
            body = meters_body(state, "event")
            out.append(
                ("meters", {"index": len(out), "back": 0, "at": events[-1].at, "body": body})
            )
        return out


def message_id(terminal_id: str, epoch: int, seq: int, index: int) -> str:
    """The stable id of an outbox message."""
    return f"{terminal_id}:{epoch}:{seq}:{index}"


def outbox_message(terminal_id: str, epoch: int, row: OutboxRow) -> host_pb2.TerminalMessage:
    """The wire form of an outbox row."""
    m = row.message
    msg = host_pb2.TerminalMessage(
        message_id=message_id(terminal_id, epoch, row.seq, m["index"]),
        journal_seq=row.seq - m["back"],
        at_ms=m["at"],
    )
    _fill(getattr(msg, row.kind), m["body"])
    return msg


def snapshot_message(
    terminal_id: str, epoch: int, seq: int, at: int, body: dict[str, Any], tag: str
) -> host_pb2.TerminalMessage:
    """A meter snapshot sent outside the outbox (periodic or requested)."""
    msg = host_pb2.TerminalMessage(
        message_id=f"{terminal_id}:{epoch}:{seq}:{tag}", journal_seq=seq, at_ms=at
    )
    _fill(msg.meters, body)
    return msg


def _fill(target: ProtoMessage, data: dict[str, Any]) -> None:
    """Copy a proto-JSON-shaped dict into a message (unknown keys are an error)."""
    fields = target.DESCRIPTOR.fields_by_name
    for key, value in data.items():
        field = fields[key]
        if field.message_type is not None:
            container = getattr(target, key)
            if isinstance(value, list):
                for item in value:
                    _fill(container.add(), item)
            else:
                _fill(container, value)
        elif isinstance(value, list):
            getattr(target, key).extend(value)
        elif field.type == field.TYPE_BYTES and isinstance(value, str):
            setattr(target, key, bytes.fromhex(value))  # JSON carries bytes as hex
        else:
            setattr(target, key, value)
    target.SetInParent()


def to_plain(message: ProtoMessage) -> dict[str, Any]:
    """Every field of a message as plain Python values (ints stay ints; defaults included)."""
    out: dict[str, Any] = {}
    for name, shape in _shapes(message.DESCRIPTOR):
        value = getattr(message, name)
        if shape == _MESSAGES:
            out[name] = [to_plain(v) for v in value]
        elif shape == _MESSAGE:
            out[name] = to_plain(value)
        elif shape == _VALUES:
            out[name] = list(value)
        elif isinstance(value, bytes):
            out[name] = value.hex()
        else:
            out[name] = value
    return out


_MESSAGES, _MESSAGE, _VALUES, _VALUE = range(4)


@functools.cache
def _shapes(descriptor: Any) -> tuple[tuple[str, int], ...]:
    """Each field's name and shape, worked out once per message type (the host converts
    every message it receives)."""
    shapes = []
    for field in descriptor.fields:
        repeated = bool(field.is_repeated)
        if field.message_type is not None:
            shapes.append((field.name, _MESSAGES if repeated else _MESSAGE))
        else:
            shapes.append((field.name, _VALUES if repeated else _VALUE))
    return tuple(shapes)


def received(msg: host_pb2.TerminalMessage) -> tuple[str, dict[str, Any]]:
    """The kind and plain body of a received message (meters as a name -> value dict)."""
    kind = msg.WhichOneof("body")
    if kind is None:
        raise ValueError(f"message {msg.message_id} has no body")
    body = to_plain(getattr(msg, kind))
    if kind == "meters":
        body["meters"] = {m["name"]: m["value"] for m in body["meters"]}
    return kind, body
