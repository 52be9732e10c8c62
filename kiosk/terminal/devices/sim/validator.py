"""The simulated bill validator's firmware: a sans-IO state machine.

Notes and tickets come in through the control channel (a player at the bezel), commands and
acknowledgements through the link (the terminal), time through ``now`` (ms).  Events for the
terminal pile up in :meth:`ValidatorMachine.take_outgoing`.  ``Escrowed`` echoes the
``acceptance_id`` of the acceptance in force, so the terminal knows which of its acceptances
(its own, or the service menu's test) took the item.

What it remembers across its own restarts (memory file): the item in escrow and whether it was
being stacked, the stacked/returned events the terminal has not acknowledged, the faults, the
cash box (emptied when it is removed), lifetime counters of everything stacked, and the
reconciliation baseline the terminal gave it (kept for the pairing key it was given under: a
new pairing drops it).  ``CashboxRecord`` answers a record request with all of that.

At power-up an item half-way to the cash box is stacked, one waiting in escrow is returned;
either way the event waits in memory until the terminal acknowledges it, and no new item is
taken into escrow before that.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kiosk.terminal.core.config import NOTE_VALUES
from kiosk.terminal.devices.sim.memory import DeviceMemory
from proto.turbokiosk.v1.device_pb2 import (
    DeviceIdentity,
    EscrowItem,
    Tally,
    ValidatorBaseline,
    ValidatorCommand,
    ValidatorEvent,
)

FAULTS = {"jam": "jammed", "cashbox-full": "cashbox_full", "cashbox-removed": "cashbox_removed"}
IDENTITY = DeviceIdentity(model="TK-SIM-BV", serial_number="BV000001", firmware="1.0")

Ev = ValidatorEvent


def item_message(item: dict[str, Any]) -> EscrowItem:
    """The EscrowItem of a remembered item (``{"note": cents}`` or ``{"ticket": number}``)."""
    if "ticket" in item:
        return EscrowItem(ticket_number=item["ticket"])
    return EscrowItem(note_value=item["note"])


class ValidatorMachine:
    """A bill and voucher validator with an escrow position and a cash box."""

    def __init__(
        self,
        state_dir: Path,
        now: int,
        *,
        stack_ms: int = 150,
        escrow_timeout_ms: int = 30_000,
        pairing: str = "",
    ) -> None:
        self.pairing = pairing  # the fingerprint of the pairing key (the baseline is its)
        self.stack_ms = stack_ms
        self.escrow_timeout_ms = escrow_timeout_ms
        self.identity = IDENTITY
        self.mem = self._memory(
            state_dir,
            {
                "next_event_id": 1,
                "escrow": None,
                "unacked": [],
                "faults": {"jammed": False, "cashbox_full": False, "cashbox_removed": False},
                "cashbox": {"notes": [], "tickets": []},
                "handed_back": [],
                "removals": 0,
                "removed_at": {"notes": 0, "tickets": 0},  # cash box lengths at the last removal
                "baseline": None,
            },
        )
        if "lifetime" not in self.mem.data:  # memory of an earlier firmware: count the box
            box = self.mem.data["cashbox"]
            self.mem.data["lifetime"] = {
                "notes": [len(box["notes"]), sum(box["notes"])],
                "tickets": len(box["tickets"]),
            }
        self.enabled = False
        self.note_values: frozenset[int] = frozenset()
        self.tickets = False
        self.acceptance_id = 0  # echoed in Escrowed: which acceptance took the item
        self.link_up = False
        self.last_stacked_at = 0  # when the last item reached the cash box (ms, the clock given)
        self._had_session = False
        self._queued: set[int] = set()  # unacked events handed to the current link session
        self._out: list[bytes] = []
        self._escrow_since = now
        self._stack_started = now
        escrow = self.mem.data["escrow"]
        if escrow is not None:  # power came back with an item in escrow
            if escrow["stacking"]:
                self._complete_stack_when_possible(now)
            else:
                self._hand_back(Ev.RETURN_REASON_POWER_UP)

    def _memory(self, state_dir: Path, default: dict[str, Any]) -> DeviceMemory:
        """The non-volatile memory (a bridge keeps its own, kiosk/terminal/bridge/journal.py)."""
        return DeviceMemory(state_dir / "bill_validator.json", default)

    # --- the link's side -------------------------------------------------------------------

    def on_link_up(self, new_peer: bool, now: int) -> None:
        """The link (re)connected; a new peer gets who we are and every unacknowledged event."""
        self.link_up = True
        if new_peer:
            if self._had_session:
                self._queued.clear()  # the link dropped what it had for the old peer
            self._had_session = True
            self._emit(self._event(identity=self.identity))
            for record in self.mem.data["unacked"]:
                if record["id"] not in self._queued:
                    self._queued.add(record["id"])
                    self._out.append(bytes.fromhex(record["event"]))
        self._emit_status()

    def on_link_down(self, now: int) -> None:
        """No terminal: stop accepting (an item in escrow times out and is returned)."""
        self.link_up = False
        self.enabled = False

    def on_command(self, payload: bytes, now: int) -> None:
        """A command from the terminal."""
        cmd = ValidatorCommand()
        cmd.ParseFromString(payload)
        kind = cmd.WhichOneof("command")
        if kind == "set_acceptance":
            acc = cmd.set_acceptance
            self.enabled = acc.enabled
            self.note_values = frozenset(acc.note_values)
            self.tickets = acc.tickets
            self.acceptance_id = acc.acceptance_id
            self._emit_status()
        elif kind == "stack":
            self._stack(cmd.stack.escrow_event_id, now)
        elif kind == "return_escrow":
            self._return(cmd.return_escrow.escrow_event_id)
        elif kind == "acknowledge":
            up_to = cmd.acknowledge.up_to_event_id
            before = len(self.mem.data["unacked"])
            self.mem.data["unacked"] = [r for r in self.mem.data["unacked"] if r["id"] > up_to]
            if len(self.mem.data["unacked"]) != before:
                self.mem.save()
        elif kind == "status_request":
            self._emit_status()
        elif kind == "record_request":
            self._emit(
                self._event(cashbox_record=self.cashbox_record(cmd.record_request.request_id))
            )
        elif kind == "set_baseline":
            self.mem.data["baseline"] = {
                "pairing": self.pairing,
                "message": cmd.set_baseline.SerializeToString().hex(),
            }
            self.mem.save()

    def cashbox_record(self, request_id: int) -> Ev.CashboxRecord:
        """The cash box, the lifetime counters and the baseline (if any, for this pairing)."""
        d = self.mem.data
        by_value: dict[int, int] = {}
        since = d["removed_at"]
        for value in d["cashbox"]["notes"][since["notes"] :]:
            by_value[value] = by_value.get(value, 0) + 1
        count, value = d["lifetime"]["notes"]
        record = Ev.CashboxRecord(
            request_id=request_id,
            notes_by_value=by_value,
            tickets=len(d["cashbox"]["tickets"]) - since["tickets"],
            lifetime_notes=Tally(count=count, value=value),
            lifetime_tickets=Tally(count=d["lifetime"]["tickets"]),
            cashbox_removals=d["removals"],
        )
        kept = d["baseline"]
        if kept is not None and kept["pairing"] == self.pairing:
            record.baseline.CopyFrom(ValidatorBaseline.FromString(bytes.fromhex(kept["message"])))
        return record

    def take_outgoing(self) -> list[bytes]:
        """Serialized events for the terminal, in order."""
        out, self._out = self._out, []
        return out

    # --- time ------------------------------------------------------------------------------

    def tick(self, now: int) -> None:
        """Finish a stack in progress, return an item left in escrow too long."""
        escrow = self.mem.data["escrow"]
        if escrow is None:
            return
        if escrow["stacking"]:
            self._complete_stack_when_possible(now)
        elif now - self._escrow_since >= self.escrow_timeout_ms:
            self._hand_back(Ev.RETURN_REASON_ESCROW_TIMEOUT)

    def next_deadline(self) -> int | None:
        """When :meth:`tick` has something to do."""
        escrow = self.mem.data["escrow"]
        if escrow is None:
            return None
        if escrow["stacking"]:
            return self._stack_started + self.stack_ms
        return self._escrow_since + self.escrow_timeout_ms

    # --- the player's and the technician's side -------------------------------------------

    def control(self, words: list[str], now: int) -> str:
        """A control-channel command; the reply starts with ``ok`` or ``error``."""
        match words:
            case ["insert", value] if value.isdigit():
                return self._insert({"note": int(value)}, now)
            case ["ticket", number]:
                return self._insert({"ticket": number}, now)
            case ["fault", name] if name in FAULTS:
                return self._set_fault(FAULTS[name], True)
            case ["fix", name] if name in FAULTS:
                return self._set_fault(FAULTS[name], False)
            case ["status"]:
                return "ok " + json.dumps(self.snapshot(), sort_keys=True)
            case ["cashbox-add", value] if value.isdigit():
                return self._planted(int(value), now)
            case _:
                return (
                    "error commands: insert CENTS | ticket NUMBER | fault NAME | fix NAME | "
                    f"status | cashbox-add CENTS (NAME: {', '.join(FAULTS)})"
                )

    def snapshot(self) -> dict[str, Any]:
        """Everything a test or a technician may want to see."""
        d = self.mem.data
        return {
            "enabled": self.enabled,
            "note_values": sorted(self.note_values),
            "tickets": self.tickets,
            "acceptance_id": self.acceptance_id,
            "link_up": self.link_up,
            "escrow": d["escrow"],
            "unacked": [r["id"] for r in d["unacked"]],
            "faults": d["faults"],
            "cashbox": d["cashbox"],
            "handed_back": d["handed_back"],
            "lifetime": d["lifetime"],
            "removals": d["removals"],
            "baseline": d["baseline"] is not None and d["baseline"]["pairing"] == self.pairing,
            "last_stacked_at": self.last_stacked_at,
        }

    # --- inside ---------------------------------------------------------------------------------

    def _faulted(self) -> bool:
        return any(self.mem.data["faults"].values())

    def _insert(self, item: dict[str, Any], now: int) -> str:
        reason = self._refusal(item)
        if reason is not None:
            self._emit(self._event(rejected=Ev.Rejected(item=item_message(item), reason=reason)))
            self._remember_handed_back(item, Ev.RejectReason.Name(reason))
            self.mem.save()
            return f"ok rejected {Ev.RejectReason.Name(reason)}"
        event = self._event(
            escrowed=Ev.Escrowed(item=item_message(item), acceptance_id=self.acceptance_id)
        )
        self.mem.data["escrow"] = {"id": event.event_id, "item": item, "stacking": False}
        self.mem.save()
        self._escrow_since = now
        self._emit(event)
        self._emit_status()
        return f"ok escrow {event.event_id}"

    def _refusal(self, item: dict[str, Any]) -> Ev.RejectReason | None:
        if "ticket" in item:
            number = item["ticket"]
            if len(number) != 18 or not number.isdigit():
                return Ev.REJECT_REASON_NOT_RECOGNISED
        elif item["note"] not in NOTE_VALUES:
            return Ev.REJECT_REASON_NOT_RECOGNISED
        if not (self.enabled and self.link_up):
            return Ev.REJECT_REASON_DISABLED
        if self._faulted():
            return Ev.REJECT_REASON_FAULT
        if self.mem.data["escrow"] is not None or self.mem.data["unacked"]:
            return Ev.REJECT_REASON_ESCROW_BUSY
        if ("ticket" in item and not self.tickets) or (
            "note" in item and item["note"] not in self.note_values
        ):
            return Ev.REJECT_REASON_NOT_ACCEPTED
        return None

    def _stack(self, escrow_id: int, now: int) -> None:
        escrow = self.mem.data["escrow"]
        if escrow is None or escrow["id"] != escrow_id:
            self._refuse(f"stack: nothing in escrow as {escrow_id}")
            return
        if escrow["stacking"]:
            return
        if self.mem.data["faults"]["cashbox_full"]:
            self._hand_back(Ev.RETURN_REASON_CASHBOX_FULL)
            return
        escrow["stacking"] = True
        self.mem.save()
        self._stack_started = now
        self._complete_stack_when_possible(now)

    def _complete_stack_when_possible(self, now: int) -> None:
        faults = self.mem.data["faults"]
        if (
            faults["jammed"]
            or faults["cashbox_removed"]
            or now < self._stack_started + self.stack_ms
        ):
            return
        self.last_stacked_at = now  # for the bridge's bench (tests/bridge/bench_bridge.py)
        self._finish_stack()

    def _finish_stack(self) -> None:
        """The item in escrow reached the cash box: count it, report it (kept until acked)."""
        escrow = self.mem.data["escrow"]
        item = escrow["item"]
        self.mem.data["escrow"] = None
        box = self.mem.data["cashbox"]
        box["tickets" if "ticket" in item else "notes"].append(item.get("ticket", item.get("note")))
        lifetime = self.mem.data["lifetime"]
        if "ticket" in item:
            lifetime["tickets"] += 1
        else:
            lifetime["notes"] = [lifetime["notes"][0] + 1, lifetime["notes"][1] + item["note"]]
        event = self._event(
            stacked=Ev.Stacked(escrow_event_id=escrow["id"], item=item_message(item))
        )
        self._remember_unacked(event)
        self.mem.save()
        self._emit(event)
        self._emit_status()

    def _return(self, escrow_id: int) -> None:
        escrow = self.mem.data["escrow"]
        if escrow is None or escrow["id"] != escrow_id:
            self._refuse(f"return: nothing in escrow as {escrow_id}")
        elif escrow["stacking"]:
            self._refuse("return: already on its way to the cash box")
        else:
            self._hand_back(Ev.RETURN_REASON_COMMANDED)

    def _hand_back(self, reason: Ev.ReturnReason) -> None:
        escrow = self.mem.data["escrow"]
        self.mem.data["escrow"] = None
        returned = Ev.Returned(
            escrow_event_id=escrow["id"], item=item_message(escrow["item"]), reason=reason
        )
        event = self._event(returned=returned)
        self._remember_unacked(event)
        self._remember_handed_back(escrow["item"], Ev.ReturnReason.Name(reason))
        self.mem.save()
        self._emit(event)
        self._emit_status()

    def _remember_unacked(self, event: ValidatorEvent) -> None:
        self.mem.data["unacked"].append(
            {"id": event.event_id, "event": event.SerializeToString().hex()}
        )
        self._queued.add(event.event_id)

    def _remember_handed_back(self, item: dict[str, Any], reason: str) -> None:
        self.mem.data["handed_back"] = [
            *self.mem.data["handed_back"][-49:],
            {**item, "why": reason},
        ]

    def _planted(self, value: int, now: int) -> str:
        """A note put in the cash box behind the terminal's back (a fault to show the
        reconciliation): counted as stacked, never reported."""
        if value not in NOTE_VALUES:
            return f"error {value} is not a note value"
        self.mem.data["cashbox"]["notes"].append(value)
        lifetime = self.mem.data["lifetime"]
        lifetime["notes"] = [lifetime["notes"][0] + 1, lifetime["notes"][1] + value]
        self.mem.save()
        return "ok"

    def _set_fault(self, flag: str, on: bool) -> str:
        if flag == "cashbox_removed" and on and not self.mem.data["faults"][flag]:
            box = self.mem.data["cashbox"]  # taken away to be counted: it comes back empty
            self.mem.data["removed_at"] = {k: len(box[k]) for k in ("notes", "tickets")}
            self.mem.data["removals"] += 1
        self.mem.data["faults"][flag] = on
        self.mem.save()
        self._emit_status()
        return "ok"

    def _refuse(self, reason: str) -> None:
        self._emit(self._event(refused=Ev.CommandRefused(reason=reason)))

    def _emit_status(self) -> None:
        d = self.mem.data
        escrow = d["escrow"]
        status = Ev.Status(
            enabled=self.enabled,
            jammed=d["faults"]["jammed"],
            cashbox_full=d["faults"]["cashbox_full"],
            cashbox_removed=d["faults"]["cashbox_removed"],
            escrow_event_id=0 if escrow is None else escrow["id"],
        )
        self._emit(self._event(status=status))

    def _event(self, **kind: Any) -> ValidatorEvent:
        return ValidatorEvent(event_id=self.mem.next_event_id(), **kind)

    def _emit(self, event: ValidatorEvent) -> None:
        self._out.append(event.SerializeToString())
