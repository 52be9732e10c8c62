"""A simulated CPI (MEI) acceptor: the device side of EBDS, wire-exact (sans-IO).

The mechanism moves one step for every new host message (a message with the ACK bit toggled;
a repeated one gets the last reply again, unprocessed).  An inserted note is accepted for one
reply, then escrowed (its denomination index in the reply) until the host's omnibus carries
stack or return; stacking and returning take one reply each, then ``stacked`` / ``returned``
is reported once with ``idling``.  A barcoded ticket in escrow is reported in the extended
barcode reply.  Faults are scripted through the methods under "scripted faults".
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from kiosk.terminal.bridge.cashbox import CashboxRecord
from kiosk.terminal.bridge.ebds.codes import (
    BARCODE_FILL,
    BARCODE_LEN,
    EXT_BARCODE_REPLY,
    NOTE_SHIFT,
    S0,
    S1,
    S2,
    Config,
    MsgType,
    Ops,
)
from kiosk.terminal.bridge.ebds.frame import Decoder, Message, encode


class Mech(enum.Enum):
    IDLE = "idle"
    ACCEPTING = "accepting"
    ESCROW = "escrow"
    STACKING = "stacking"
    RETURNING = "returning"
    REJECTING = "rejecting"


@dataclass
class _Item:
    index: int = 0  # denomination index 1-7; 0 for a ticket or an unknown note
    cents: int = 0
    barcode: str = ""
    reject_reason: str = ""


class EbdsDevice:
    """The acceptor's firmware as the simulator runs it."""

    def __init__(
        self,
        *,
        denominations: tuple[int, ...] = (100, 200, 500, 1000, 2000, 5000, 10000),
        model: int = ord("T"),
        revision: int = 42,
    ) -> None:
        self.denominations = denominations
        self.model = model
        self.revision = revision
        self._decoder = Decoder()
        self._out = bytearray()
        self._last_ack: int | None = None
        self._last_reply = b""
        self.enables = 0
        self.ops = 0
        self.config = 0
        self.mech = Mech.IDLE
        self._item: _Item | None = None
        self._stuck: _Item | None = None
        self._once_s0 = 0
        self._once_s1 = 0
        self._once_s2 = int(S2.POWER_UP)
        self._last_index = 0
        self._reported = (0, 0, 0)  # the one-shot bits in the last reply
        self.jammed = False
        self.stacker_full = False
        self.cassette_attached = True
        self.failure = False
        self.cashbox = CashboxRecord()
        self.log: list[str] = []
        self._garble_next = False
        self._queued: deque[Callable[[], None]] = deque()

    # the line
    def receive(self, data: bytes, now_ms: int) -> None:
        for message in self._decoder.feed(data, now_ms):
            self._on_message(message)

    def transmit(self, now_ms: int) -> bytes:
        out, self._out = bytes(self._out), bytearray()
        return out

    # scripted events and faults
    def insert_note(self, cents: int) -> None:
        """A player inserts a note (enabled denomination: escrowed; other: rejected)."""
        if self._busy():
            self._queued.append(lambda: self.insert_note(cents))
            return
        if not self._can_take():
            self.log.append(f"note {cents} refused at the bezel")
            return
        if cents in self.denominations and self.enables & (1 << self.denominations.index(cents)):
            index = self.denominations.index(cents) + 1
            self._item = _Item(index=index, cents=cents)
        else:
            self._item = _Item(cents=cents, reject_reason="denomination not enabled")
        self.mech = Mech.ACCEPTING

    def insert_ticket(self, barcode: str) -> None:
        """A player inserts a barcoded voucher (rejected unless the host enabled barcodes)."""
        if self._busy():
            self._queued.append(lambda: self.insert_ticket(barcode))
            return
        if not self._can_take():
            return
        reason = "" if self.config & Config.BARCODE else "barcodes not enabled"
        self._item = _Item(barcode=barcode[:BARCODE_LEN], reject_reason=reason)
        self.mech = Mech.ACCEPTING

    def insert_rejected(self, reason: str) -> None:
        """An item the acceptor refuses; EBDS carries no reason, the device's log keeps it."""
        if self._busy():
            self._queued.append(lambda: self.insert_rejected(reason))
        elif self._can_take():
            self._item = _Item(reject_reason=reason)
            self.mech = Mech.ACCEPTING

    def jam(self) -> None:
        self.jammed = True
        if self._item is not None:
            self._stuck, self._item = self._item, None
            self.mech = Mech.IDLE

    def clear_jam(self, *, into_cashbox: bool = False) -> None:
        self.jammed = False
        stuck, self._stuck = self._stuck, None
        if stuck is None:
            return
        if into_cashbox:
            self._box(stuck)
            self._once_s0 |= S0.STACKED
        else:
            self._once_s0 |= S0.RETURNED

    def set_stacker_full(self, full: bool) -> None:
        self.stacker_full = full

    def remove_cashbox(self) -> None:
        self.cassette_attached = False

    def replace_cashbox(self, *, emptied: bool = True) -> None:
        self.cassette_attached = True
        if emptied:
            self.cashbox = CashboxRecord()
            self.stacker_full = False

    def power_cycle(self) -> None:
        """Power lost and back: the settings and the ACK are gone; an item in the path goes back
        out of the front (reported only as power up: its fate is unknown to the host)."""
        self._last_ack, self._last_reply = None, b""
        self.enables = self.ops = self.config = 0
        self._item = self._stuck = None
        self.mech = Mech.IDLE
        self.jammed = False
        self._once_s0 = self._once_s1 = 0
        self._once_s2 = int(S2.POWER_UP)
        self._reported = (0, 0, 0)

    def cheat(self) -> None:
        """A cheat attempt: reported once; the item in the path is lost to the player."""
        self._once_s1 |= S1.CHEATED
        if self._item is not None and self.mech in (Mech.ACCEPTING, Mech.ESCROW):
            self._item = None
            self.mech = Mech.IDLE

    def set_failure(self, failed: bool) -> None:
        self.failure = failed

    def garble_next_reply(self) -> None:
        """Line noise: the next reply goes out with a bad checksum (the host must resend)."""
        self._garble_next = True

    # internals
    def _busy(self) -> bool:
        """An item is in the path, or its outcome not yet heard: the next player waits."""
        told = self._once_s0 & (S0.STACKED | S0.RETURNED) or self._once_s1 & S1.REJECTED
        return self.mech is not Mech.IDLE or self._stuck is not None or bool(told)

    def _can_take(self) -> bool:
        faulty = self.jammed or self.stacker_full or not self.cassette_attached or self.failure
        on = bool(self.enables or self.config & Config.BARCODE)
        return on and not self._busy() and not faulty

    def _box(self, item: _Item) -> None:
        if item.barcode:
            self.cashbox = self.cashbox.with_ticket(item.barcode)
        else:
            self.cashbox = self.cashbox.with_note(item.cents)

    def _on_message(self, message: Message) -> None:
        if message.msg_type != MsgType.HOST_OMNIBUS or len(message.data) < 3:
            return
        if message.ack == self._last_ack and self._last_reply:
            self._send(self._last_reply)
            return
        # the host heard the last reply: the events it carried are done
        self._once_s0 &= ~self._reported[0]
        self._once_s1 &= ~self._reported[1]
        self._once_s2 &= ~self._reported[2]
        self.enables, self.ops, self.config = message.data[0], message.data[1], message.data[2]
        self._advance()
        if self._queued and not self._busy():
            self._queued.popleft()()
        self._last_ack = message.ack
        self._last_reply = self._reply(message.ack)
        self._send(self._last_reply)

    def _advance(self) -> None:
        item = self._item
        if self.jammed or item is None:
            return
        if self.mech is Mech.ACCEPTING:
            if item.reject_reason:
                self.log.append(f"rejected: {item.reject_reason}")
                self._once_s1 |= S1.REJECTED
                self._item, self.mech = None, Mech.IDLE
            elif self.ops & Ops.ESCROW:
                self.mech = Mech.ESCROW
            else:
                self.mech = Mech.STACKING
        elif self.mech is Mech.ESCROW:
            if self.ops & Ops.RETURN:
                self.mech = Mech.RETURNING
            elif self.ops & Ops.STACK:
                self.mech = Mech.STACKING
        elif self.mech is Mech.STACKING:
            self._box(item)
            self._last_index = item.index
            self._once_s0 |= S0.STACKED
            self._item, self.mech = None, Mech.IDLE
        elif self.mech is Mech.RETURNING:
            self._last_index = item.index
            self._once_s0 |= S0.RETURNED
            self._item, self.mech = None, Mech.IDLE

    def _reply(self, ack: int) -> bytes:
        s0 = {
            Mech.IDLE: S0.IDLING,
            Mech.ACCEPTING: S0.ACCEPTING,
            Mech.REJECTING: S0.ACCEPTING,
            Mech.ESCROW: S0.ESCROWED,
            Mech.STACKING: S0.STACKING,
            Mech.RETURNING: S0.RETURNING,
        }[self.mech] | self._once_s0
        s1 = self._once_s1
        s1 |= S1.JAMMED if self.jammed else 0
        s1 |= S1.STACKER_FULL if self.stacker_full else 0
        s1 |= S1.CASSETTE_ATTACHED if self.cassette_attached else 0
        s2 = self._once_s2 | (S2.FAILURE if self.failure else 0)
        self._reported = (int(self._once_s0), int(self._once_s1), int(self._once_s2))
        item = self._item
        index = item.index if item is not None else self._last_index
        if self.mech in (Mech.ESCROW, Mech.STACKING, Mech.RETURNING) or s0 & (
            S0.STACKED | S0.RETURNED
        ):
            s2 |= index << NOTE_SHIFT
        status = bytes([int(s0), int(s1), int(s2), 0, self.model, self.revision])
        if self.mech is Mech.ESCROW and item is not None and item.barcode:
            code = item.barcode.encode("ascii").ljust(BARCODE_LEN, bytes([BARCODE_FILL]))
            data = bytes([EXT_BARCODE_REPLY]) + status + code
            return encode(Message(MsgType.EXTENDED, ack, data))
        return encode(Message(MsgType.DEVICE_REPLY, ack, status))

    def _send(self, wire: bytes) -> None:
        if self._garble_next:
            self._garble_next = False
            wire = wire[:-1] + bytes([wire[-1] ^ 0x01])
        self._out += wire
