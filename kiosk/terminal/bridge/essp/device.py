"""A simulated ITL validator: the device side of SSP/eSSP, wire-exact (sans-IO).

The mechanism moves one step at each POLL: an inserted note is read (``READ 0``), then held
in escrow (``READ n``) until the host POLLs (accept: stacking, credit, stacked) or sends REJECT
(rejecting, rejected); HOLD keeps it.  Faults are scripted through the methods under
"scripted faults"; conditions (jam, stacker full, cash box removed, disabled) are reported at
every poll while they last.  What reaches the box is in :attr:`cashbox`.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from kiosk.terminal.bridge.cashbox import CashboxRecord
from kiosk.terminal.bridge.essp.codes import (
    BARCODE_NOTES_OFF,
    BARCODE_TICKETS_OFF,
    REJECT_BY_HOST,
    REJECT_CHANNEL_INHIBITED,
    Command,
    Event,
    Reply,
)
from kiosk.terminal.bridge.essp.crypto import (
    DEFAULT_FIXED_KEY,
    CryptoError,
    PacketCipher,
    aes_key,
    is_prime,
    random_secret,
    u64,
)
from kiosk.terminal.bridge.essp.frame import Decoder, Packet, encode

_ALWAYS_PLAIN = frozenset(
    {Command.SYNC, Command.SET_GENERATOR, Command.SET_MODULUS, Command.REQUEST_KEY_EXCHANGE}
)
REJECT_NOT_RECOGNISED = 0x02


@dataclass(frozen=True)
class _Step:
    """Events reported at one poll, and what reaches the box then."""

    events: bytes
    boxed_note: int = 0
    boxed_ticket: str = ""


@dataclass
class _Item:
    cents: int = 0
    channel: int = 0
    barcode: str = ""


class EsspDevice:
    """The validator's firmware as the simulator runs it."""

    def __init__(
        self,
        *,
        address: int = 0,
        channel_values: tuple[int, ...] = (5, 10, 20, 50, 100),
        real_multiplier: int = 100,
        country: str = "EUR",
        firmware: str = "0420",
        serial_number: int = 1_234_567,
        fixed_key: int = DEFAULT_FIXED_KEY,
        random_bytes: Callable[[int], bytes] = os.urandom,
    ) -> None:
        self.address = address
        self.channel_values = channel_values
        self.real_multiplier = real_multiplier
        self.country = country
        self.firmware = firmware
        self.serial_number = serial_number
        self._fixed_key = fixed_key
        self._random = random_bytes
        self._decoder = Decoder()
        self._out = bytearray()
        self._last_seq: bool | None = None
        self._last_reply = b""
        self._generator = 0
        self._modulus = 0
        self._cipher: PacketCipher | None = None
        self._count = 0
        self.enabled = False
        self.inhibits = 0
        self.barcode_inhibit = 0xFF
        self.cashbox = CashboxRecord()
        self.jammed = False
        self.stacker_full = False
        self.cashbox_removed = False
        self._path: deque[_Step] = deque()
        self._item: _Item | None = None
        self._escrow = False
        self._stuck: _Item | None = None
        self._oneshot = bytearray(bytes([Event.SLAVE_RESET]))
        self._last_reject = 0
        self._garble_next = False
        self._queued: deque[Callable[[], None]] = deque()
        self.log: list[str] = []

    @property
    def channel_cents(self) -> tuple[int, ...]:
        return tuple(v * self.real_multiplier for v in self.channel_values)

    @property
    def encrypted(self) -> bool:
        """A key has been negotiated: commands other than the key exchange must be sealed."""
        return self._cipher is not None

    # the line
    def receive(self, data: bytes, now_ms: int) -> None:
        for packet in self._decoder.feed(data):
            self._on_packet(packet)

    def transmit(self, now_ms: int) -> bytes:
        out, self._out = bytes(self._out), bytearray()
        return out

    # scripted events and faults
    def insert_note(self, cents: int) -> None:
        """A player inserts a note worth ``cents`` (a value no channel has is not recognised)."""
        if self._busy():
            self._queued.append(lambda: self.insert_note(cents))
            return
        if not self._can_take():
            self.log.append(f"note {cents} refused at the bezel")
            return
        channels = self.channel_cents
        if cents not in channels:
            self.insert_rejected(REJECT_NOT_RECOGNISED)
            return
        channel = channels.index(cents) + 1
        if not self.inhibits & (1 << (channel - 1)) or self.barcode_inhibit & BARCODE_NOTES_OFF:
            self.insert_rejected(REJECT_CHANNEL_INHIBITED)
            return
        self._item = _Item(cents=cents, channel=channel)
        self._path.extend([_Step(bytes([Event.READ, 0])), _Step(bytes([Event.READ, channel]))])

    def insert_ticket(self, barcode: str) -> None:
        """A player inserts a barcoded voucher."""
        if self._busy():
            self._queued.append(lambda: self.insert_ticket(barcode))
            return
        if not self._can_take():
            return
        if self.barcode_inhibit & BARCODE_TICKETS_OFF:
            self.insert_rejected(REJECT_CHANNEL_INHIBITED)
            return
        self._item = _Item(barcode=barcode)
        self._path.extend([_Step(bytes([Event.READ, 0])), _Step(bytes([Event.TICKET_ESCROW]))])

    def insert_rejected(self, reason: int) -> None:
        """An item the validator refuses, with last-reject code ``reason``."""
        if self._busy():
            self._queued.append(lambda: self.insert_rejected(reason))
            return
        self._last_reject = reason
        self._path.extend(
            [
                _Step(bytes([Event.READ, 0])),
                _Step(bytes([Event.REJECTING])),
                _Step(bytes([Event.REJECTED])),
            ]
        )

    def jam(self) -> None:
        """The item in the path sticks (a safe jam: not in the box)."""
        self.jammed = True
        if self._item is not None:
            self._stuck, self._item = self._item, None
            self._path.clear()
            self._escrow = False

    def clear_jam(self, *, into_cashbox: bool = False) -> None:
        """A technician clears the jam; the stuck item goes back out, or into the box."""
        self.jammed = False
        stuck, self._stuck = self._stuck, None
        if stuck is None:
            return
        if into_cashbox:
            self._box(stuck)
            self._oneshot += bytes([Event.CLEARED_INTO_CASHBOX, stuck.channel])
        else:
            self._oneshot += bytes([Event.CLEARED_FROM_FRONT, stuck.channel])

    def set_stacker_full(self, full: bool) -> None:
        self.stacker_full = full

    def remove_cashbox(self) -> None:
        self.cashbox_removed = True

    def replace_cashbox(self, *, emptied: bool = True) -> None:
        self.cashbox_removed = False
        if emptied:
            self.cashbox = CashboxRecord()
            self.stacker_full = False
        self._oneshot += bytes([Event.CASHBOX_REPLACED])

    def power_cycle(self) -> None:
        """Power lost and back: the key, the settings and the sequence are gone; an item in the
        path is cleared out of the front (the box keeps what it has)."""
        item = self._item or self._stuck
        self._cipher = None
        self._generator = self._modulus = 0
        self._last_seq, self._last_reply = None, b""
        self.enabled, self.inhibits, self.barcode_inhibit = False, 0, 0xFF
        self._path.clear()
        self._item = self._stuck = None
        self._escrow = self.jammed = False
        self._oneshot = bytearray([Event.SLAVE_RESET])
        if item is not None:
            self._oneshot += bytes([Event.CLEARED_FROM_FRONT, item.channel])

    def cheat(self) -> None:
        """A fraud attempt (e.g. a note on a string); the item, if any, is lost to the player."""
        channel = self._item.channel if self._item else 0
        self._oneshot += bytes([Event.FRAUD_ATTEMPT, channel])

    def garble_next_reply(self) -> None:
        """Line noise: the next reply goes out with a bad CRC (the host must resend)."""
        self._garble_next = True

    # internals
    def _busy(self) -> bool:
        """An item is in the path: the next player waits for the bezel."""
        return bool(self._item is not None or self._path or self._stuck is not None)

    def _can_take(self) -> bool:
        faulty = self.jammed or self.stacker_full or self.cashbox_removed
        return self.enabled and not self._busy() and not faulty

    def _box(self, item: _Item) -> None:
        if item.barcode:
            self.cashbox = self.cashbox.with_ticket(item.barcode)
        else:
            self.cashbox = self.cashbox.with_note(item.cents)

    def _on_packet(self, packet: Packet) -> None:
        if packet.address != self.address:
            return
        data = packet.data
        if not data:
            return
        if data[0] == Command.SYNC:
            self._last_seq = None
        elif packet.seq == self._last_seq and self._last_reply:
            self._send(self._last_reply)  # the host did not hear us: say it again
            return
        sealed = data[0] == 0x7E
        if sealed:
            if self._cipher is None:
                self._reply(packet.seq, bytes([Reply.KEY_NOT_SET]))
                return
            try:
                opened = self._cipher.open(data)
            except CryptoError:
                return
            if opened.count != self._count:
                self.log.append("encrypted packet with a stale counter dropped")
                return
            self._count = (self._count + 1) & 0xFFFFFFFF
            data = opened.data
        elif self._cipher is not None and data[0] not in _ALWAYS_PLAIN:
            self._reply(packet.seq, bytes([Reply.KEY_NOT_SET]))
            return
        body = self._command(data) if data else bytes([Reply.WRONG_PARAMETERS])
        if sealed and self._cipher is not None:
            body = self._cipher.seal(self._count, body)
            self._count = (self._count + 1) & 0xFFFFFFFF
        self._reply(packet.seq, body)

    def _reply(self, seq: bool, body: bytes) -> None:
        self._last_seq = seq
        self._last_reply = encode(Packet(seq, self.address, body))
        self._send(self._last_reply)

    def _send(self, wire: bytes) -> None:
        if self._garble_next:
            self._garble_next = False
            wire = wire[:-1] + bytes([wire[-1] ^ 0x01])
        self._out += wire

    def _command(self, data: bytes) -> bytes:
        ok = bytes([Reply.OK])
        command, args = data[0], data[1:]
        if command == Command.SYNC:
            return ok
        if command == Command.POLL:
            return ok + self._poll()
        if command == Command.HOLD:
            return ok if self._escrow else bytes([Reply.CANNOT_PROCESS])
        if command == Command.REJECT:
            if self._escrow and self._item is not None:
                self._escrow = False
                self._item = None
                self._last_reject = REJECT_BY_HOST
                self._path.extend([_Step(bytes([Event.REJECTING])), _Step(bytes([Event.REJECTED]))])
            return ok
        if command == Command.ENABLE:
            self.enabled = True
            return ok
        if command == Command.DISABLE:
            self.enabled = False
            return ok
        if command == Command.SET_INHIBITS:
            if len(args) < 1:
                return bytes([Reply.WRONG_PARAMETERS])
            self.inhibits = int.from_bytes(args[:2], "little")
            return ok
        if command == Command.SET_BARCODE_INHIBIT:
            if len(args) != 1:
                return bytes([Reply.WRONG_PARAMETERS])
            self.barcode_inhibit = args[0]
            return ok
        if command == Command.HOST_PROTOCOL_VERSION:
            return ok if args and 4 <= args[0] <= 8 else bytes([Reply.FAIL])
        if command == Command.SETUP_REQUEST:
            return ok + self._setup()
        if command == Command.GET_SERIAL_NUMBER:
            return ok + self.serial_number.to_bytes(4, "big")
        if command == Command.LAST_REJECT_CODE:
            return ok + bytes([self._last_reject])
        if command == Command.GET_BARCODE_DATA:
            item = self._item
            if item is None or not item.barcode or not self._escrow:
                return ok + b"\x00\x00"
            code = item.barcode.encode("ascii")
            return ok + bytes([1, len(code)]) + code
        if command in (Command.SET_GENERATOR, Command.SET_MODULUS):
            return self._set_prime(command, args)
        if command == Command.REQUEST_KEY_EXCHANGE:
            return self._key_exchange(args)
        return bytes([Reply.UNKNOWN_COMMAND])

    def _set_prime(self, command: int, args: bytes) -> bytes:
        if len(args) != 8:
            return bytes([Reply.WRONG_PARAMETERS])
        value = int.from_bytes(args, "little")
        if not is_prime(value):
            return bytes([Reply.PARAMETER_OUT_OF_RANGE])
        if command == Command.SET_GENERATOR:
            self._generator = value
        else:
            self._modulus = value
        self._cipher = None
        return bytes([Reply.OK])

    def _key_exchange(self, args: bytes) -> bytes:
        if len(args) != 8 or not self._generator or not self._modulus:
            return bytes([Reply.PARAMETER_OUT_OF_RANGE])
        secret = random_secret(self._random)
        host = int.from_bytes(args, "little")
        mine = pow(self._generator, secret, self._modulus)
        key = pow(host, secret, self._modulus)
        self._cipher = PacketCipher(aes_key(self._fixed_key, key), self._random)
        self._count = 0
        self.log.append("key exchanged")
        return bytes([Reply.OK]) + u64(mine)

    def _setup(self) -> bytes:
        n = len(self.channel_values)
        body = bytes([0x00]) + self.firmware.encode("ascii")[:4].ljust(4, b"0")
        body += self.country.encode("ascii")[:3] + (1).to_bytes(3, "big") + bytes([n])
        body += bytes(min(v, 255) for v in self.channel_values) + bytes([2] * n)
        body += self.real_multiplier.to_bytes(3, "big") + bytes([6])
        body += self.country.encode("ascii")[:3] * n
        body += b"".join(v.to_bytes(4, "little") for v in self.channel_values)
        return body

    def _poll(self) -> bytes:
        out = bytearray(self._oneshot)
        self._oneshot.clear()
        if self._escrow and self._item is not None and not self.jammed:
            self._escrow = False
            item = self._item
            if item.barcode:
                done = _Step(bytes([Event.TICKET_STACKED]), boxed_ticket=item.barcode)
                self._path.extend([_Step(bytes([Event.STACKING])), done])
            else:
                credit = _Step(bytes([Event.CREDIT, item.channel]), boxed_note=item.cents)
                self._path.extend(
                    [_Step(bytes([Event.STACKING])), credit, _Step(bytes([Event.STACKED]))]
                )
        if self._path and not self.jammed:
            step = self._path.popleft()
            out += step.events
            if step.boxed_note:
                self.cashbox = self.cashbox.with_note(step.boxed_note)
            if step.boxed_ticket:
                self.cashbox = self.cashbox.with_ticket(step.boxed_ticket)
            if step.boxed_note or step.boxed_ticket:
                self._item = None
            if step.events[:1] in (bytes([Event.TICKET_ESCROW]),) or (
                step.events[:1] == bytes([Event.READ]) and step.events[1]
            ):
                self._escrow = True
            if step.events[:1] == bytes([Event.REJECTED]):
                self._item = None
        if self._queued and not self._busy():
            self._queued.popleft()()
        if self.jammed:
            out.append(Event.SAFE_JAM)
        if self.stacker_full:
            out.append(Event.STACKER_FULL)
        if self.cashbox_removed:
            out.append(Event.CASHBOX_REMOVED)
        if not self.enabled:
            out.append(Event.DISABLED)
        return bytes(out)
