"""The bridge's bill validator: the terminal's sealed-link device on one side, any
:class:`~kiosk.terminal.bridge.native.NativeValidator` on the other.

Towards the terminal it is the simulated validator's firmware (:class:`~kiosk.terminal.devices.sim.
validator.ValidatorMachine`: event ids that survive restarts, events kept until acknowledged,
the cash-box record and the baseline), with its memory in the bridge's SQLite journal.  What
the firmware simulates, the real device does here:

- an item the device puts in escrow becomes ``Escrowed`` (or is refused, and the device told to
  return it);
- the terminal's ``Stack`` is journaled (``stacking``) before the device is told; only the
  device's report that the item reached the cash box (``ItemStacked``) counts it and sends
  ``Stacked``, journaled before the device's report is acknowledged;
- a return (commanded, escrow time-out, cash box full, the bridge restarted with an item in
  escrow) is journaled as asked (``returning``), and ``Returned`` is sent when the device says
  the item went back, or is idle with nothing in its path.

After a restart of the bridge the device's first statuses settle what the journal left open: an
item still in escrow is stacked (if the terminal had said so) or returned; a repeated
"stacked" report of the item already journaled (the acknowledgement was lost) is not counted
twice.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from kiosk.terminal.bridge.journal import BridgeJournal
from kiosk.terminal.bridge.native import (
    Condition,
    Identified,
    ItemRejected,
    ItemReturned,
    ItemStacked,
    LinkChanged,
    NativeValidator,
    NoteEscrowed,
    PathClear,
    RejectCause,
    TicketEscrowed,
)
from kiosk.terminal.devices.sim.memory import DeviceMemory
from kiosk.terminal.devices.sim.validator import ValidatorMachine
from proto.turbokiosk.v1.device_pb2 import DeviceIdentity, EscrowItem, ValidatorEvent

log = logging.getLogger(__name__)
Ev = ValidatorEvent

REJECT_REASONS = {
    RejectCause.NOT_RECOGNISED: Ev.REJECT_REASON_NOT_RECOGNISED,
    RejectCause.NOT_ACCEPTED: Ev.REJECT_REASON_NOT_ACCEPTED,
    RejectCause.DISABLED: Ev.REJECT_REASON_DISABLED,
    RejectCause.FAULT: Ev.REJECT_REASON_FAULT,
}
#: how often an item waiting for the terminal is held again at the device
HOLD_MS = 5_000


class BridgeValidator(ValidatorMachine):
    """A real validator behind the sealed link (see the module's docstring)."""

    def __init__(
        self,
        native: NativeValidator,
        state_dir: Path,
        now: int,
        *,
        escrow_timeout_ms: int = 30_000,
        pairing: str = "",
    ) -> None:
        self.native = native
        self.device_up = False
        self._stack_asked = 0  # the escrow id the device was told to stack (this process)
        self._return_asked = 0
        self._held_at = now
        super().__init__(state_dir, now, escrow_timeout_ms=escrow_timeout_ms, pairing=pairing)
        self.mem.data.setdefault("pending_return", False)  # refused: the device still holds it
        self.mem.data.setdefault("vend_unconfirmed", False)  # last stack maybe reported again
        self.mem.data.setdefault("condition", {"cheated": False, "failure": ""})
        self.mem.data.setdefault("unexpected_stacks", 0)
        if self.mem.data["pending_return"]:
            self.native.return_item()

    def _memory(self, state_dir: Path, default: dict[str, Any]) -> DeviceMemory:
        return BridgeJournal(state_dir / "bridge-validator.sqlite", default)

    # --- the device's side ------------------------------------------------------------------

    def device_receive(self, data: bytes, now: int) -> None:
        """Bytes from the device; its events are journaled before anything is answered."""
        self.native.receive(data, now)
        self._handle_native(now)

    def device_transmit(self, now: int) -> bytes:
        """Bytes for the device."""
        self._handle_native(now)
        return self.native.transmit(now)

    def _handle_native(self, now: int) -> None:
        for event in self.native.events():
            match event:
                case LinkChanged(up=up):
                    self.device_up = up
                    if up:
                        self._sync_acceptance()
                case Identified():
                    self.identity = DeviceIdentity(
                        model=event.model,
                        serial_number=event.serial_number,
                        firmware=event.firmware,
                    )
                case NoteEscrowed(value=value):
                    self._device_escrow({"note": value}, now)
                case TicketEscrowed(barcode=barcode):
                    self._device_escrow({"ticket": barcode}, now)
                case ItemStacked():
                    self._device_stacked(now)
                case ItemReturned():
                    self._device_returned()
                case PathClear():
                    self._device_idle()
                case ItemRejected(cause=cause, detail=detail):
                    rejected = Ev.Rejected(
                        item=EscrowItem(), reason=REJECT_REASONS[cause], detail=detail
                    )
                    self._emit(self._event(rejected=rejected))
                case Condition():
                    self._device_condition(event)

    def _device_escrow(self, item: dict[str, Any], now: int) -> None:
        d = self.mem.data
        if d["vend_unconfirmed"]:
            d["vend_unconfirmed"] = False
            self.mem.save()
        escrow = d["escrow"]
        if d["pending_return"]:
            self.native.return_item()
        elif escrow is not None:  # the journal's item, seen again after a restart
            if escrow.get("returning"):
                self.native.return_item()
            elif escrow["stacking"]:
                self.native.stack()
        else:
            reply = self._insert(item, now)
            if not reply.startswith("ok escrow"):  # refused: give it back
                d["pending_return"] = True
                self.mem.save()
                self.native.return_item()
            else:
                self._held_at = now

    def _device_stacked(self, now: int) -> None:
        d = self.mem.data
        escrow = d["escrow"]
        if escrow is None:
            if d["vend_unconfirmed"]:
                return  # the same stack reported again: its acknowledgement was lost
            d["unexpected_stacks"] += 1  # never commanded: counted, so the record disagrees
            life = d["lifetime"]
            life["notes"] = [life["notes"][0] + 1, life["notes"][1]]
            d["vend_unconfirmed"] = True
            self.mem.save()
            log.warning("the device stacked an item the bridge never put in escrow")
            return
        escrow["stacking"] = True
        d["vend_unconfirmed"] = True
        self._stacked_now()

    def _device_returned(self) -> None:
        d = self.mem.data
        if d["pending_return"]:
            d["pending_return"] = False
            self.mem.save()
        elif d["escrow"] is not None:
            self._returned_now()

    def _device_idle(self) -> None:
        d = self.mem.data
        if d["pending_return"] or d["vend_unconfirmed"]:
            d["pending_return"] = d["vend_unconfirmed"] = False
            self.mem.save()
        if d["escrow"] is not None:
            self._returned_now()  # nothing in the device's path: it went back

    def _device_condition(self, condition: Condition) -> None:
        d = self.mem.data
        faults = d["faults"]
        if condition.cashbox_removed and not faults["cashbox_removed"]:
            box = d["cashbox"]
            d["removed_at"] = {key: len(box[key]) for key in ("notes", "tickets")}
            d["removals"] += 1
        faults.update(
            jammed=condition.jammed,
            cashbox_full=condition.cashbox_full,
            cashbox_removed=condition.cashbox_removed,
        )
        d["condition"] = {"cheated": condition.cheated, "failure": condition.failure}
        self.mem.save()
        self._emit_status()

    # --- the firmware's steps, done by the device ---------------------------------------------

    def _complete_stack_when_possible(self, now: int) -> None:
        escrow = self.mem.data["escrow"]
        if escrow is not None and self._stack_asked != escrow["id"]:
            self._stack_asked = escrow["id"]
            self.native.stack()

    def _hand_back(self, reason: Ev.ReturnReason) -> None:
        escrow = self.mem.data["escrow"]
        if escrow.get("returning"):
            return
        escrow["returning"] = Ev.ReturnReason.Name(reason)
        self.mem.save()
        self.native.return_item()

    def _stacked_now(self) -> None:
        self.mem.data["escrow"].pop("returning", None)
        self._finish_stack()

    def _stack(self, escrow_id: int, now: int) -> None:
        escrow = self.mem.data["escrow"]
        if escrow is not None and escrow["id"] == escrow_id and escrow.get("returning"):
            self._refuse("stack: already on its way back")
            return
        super()._stack(escrow_id, now)

    def _returned_now(self) -> None:
        escrow = self.mem.data["escrow"]
        reason = escrow.pop("returning", None) or "RETURN_REASON_COMMANDED"
        super()._hand_back(Ev.ReturnReason.Value(reason))  # type: ignore[arg-type]

    # --- the terminal's side ------------------------------------------------------------------

    def on_command(self, payload: bytes, now: int) -> None:
        super().on_command(payload, now)
        self._sync_acceptance()

    def on_link_down(self, now: int) -> None:
        super().on_link_down(now)
        self._sync_acceptance()

    def _sync_acceptance(self) -> None:
        if self.enabled and self.link_up:
            self.native.enable(tuple(sorted(self.note_values)), self.tickets)
        else:
            self.native.disable()

    def tick(self, now: int) -> None:
        escrow = self.mem.data["escrow"]
        if escrow is None or escrow["stacking"] or escrow.get("returning"):
            return
        if now - self._escrow_since >= self.escrow_timeout_ms:
            self._hand_back(Ev.RETURN_REASON_ESCROW_TIMEOUT)
        elif now - self._held_at >= HOLD_MS:
            self._held_at = now
            self.native.hold()

    def next_deadline(self) -> int | None:
        deadline = getattr(self.native, "next_deadline", None)
        native = int(deadline()) if deadline is not None else None
        escrow = self.mem.data["escrow"]
        own = None
        if escrow is not None and not escrow["stacking"] and not escrow.get("returning"):
            own = min(self._escrow_since + self.escrow_timeout_ms, self._held_at + HOLD_MS)
        candidates = [t for t in (native, own) if t is not None]
        return min(candidates) if candidates else None

    def _emit_status(self) -> None:
        d = self.mem.data
        escrow = d["escrow"]
        condition = d.get("condition", {"cheated": False, "failure": ""})
        status = Ev.Status(
            enabled=self.enabled,
            jammed=d["faults"]["jammed"],
            cashbox_full=d["faults"]["cashbox_full"],
            cashbox_removed=d["faults"]["cashbox_removed"],
            escrow_event_id=0 if escrow is None else escrow["id"],
            cheated=condition["cheated"],
            failure=condition["failure"],
        )
        self._emit(self._event(status=status))

    def control(self, words: list[str], now: int) -> str:
        """``status``: the bridge's record and the device's state."""
        if words == ["status"]:
            snapshot = {
                **self.snapshot(),
                "device_up": self.device_up,
                "device_status": _plain(getattr(self.native, "status", None)),  # last polled
            }
            for key in ("pending_return", "vend_unconfirmed", "condition", "unexpected_stacks"):
                snapshot[key] = self.mem.data.get(key)
            return "ok " + json.dumps(snapshot, sort_keys=True)
        return "error commands: status"


def _plain(value: object) -> int | str | None:
    """A protocol's status as JSON can carry it (a number, or its repr)."""
    return value if value is None or isinstance(value, int | str) else repr(value)
