"""The host side of an ITL validator over SSP/eSSP: a
:class:`~kiosk.terminal.bridge.native.NativeValidator`.

One command at a time: the host sends, waits for the reply with the same sequence flag (up to
``reply_timeout_ms``, resending the same bytes up to ``retries`` times), then flips the flag.
A link that stops answering is down; the host then starts over with SYNC, (eSSP) a fresh key
exchange, the protocol version, the setup request and the serial number; with a key, every
command but SYNC and the exchange itself travels encrypted.  While a note or ticket is in
escrow and the bridge has not decided, the host sends HOLD instead of POLL (a POLL accepts it);
``return_item`` sends REJECT.
"""

from __future__ import annotations

import enum
import os
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from kiosk.terminal.bridge.essp import escrow
from kiosk.terminal.bridge.essp.codes import (
    BARCODE_NOTES_OFF,
    BARCODE_TICKETS_OFF,
    WITH_CHANNEL,
    Command,
    Event,
    Reply,
    reject_cause,
)
from kiosk.terminal.bridge.essp.crypto import (
    DEFAULT_FIXED_KEY,
    CryptoError,
    PacketCipher,
    aes_key,
    random_prime,
    random_secret,
    u64,
)
from kiosk.terminal.bridge.essp.frame import Decoder, Packet, encode
from kiosk.terminal.bridge.native import (
    Condition,
    Identified,
    ItemRejected,
    ItemReturned,
    ItemStacked,
    LinkChanged,
    NativeEvent,
    NoteEscrowed,
    PathClear,
    SerialSettings,
    TicketEscrowed,
)

PROTOCOL_VERSION = 6
_PLAIN = frozenset({Command.SYNC, Command.SET_GENERATOR, Command.SET_MODULUS})
_PLAIN |= {Command.REQUEST_KEY_EXCHANGE}
_HANDSHAKE = _PLAIN | {Command.HOST_PROTOCOL_VERSION, Command.SETUP_REQUEST}
_HANDSHAKE |= {Command.GET_SERIAL_NUMBER}
_KNOWN_EVENTS = frozenset(int(e) for e in Event)


class Phase(enum.Enum):
    """Where the link is."""

    START = "start"  # next: SYNC and the handshake
    HANDSHAKE = "handshake"
    READY = "ready"


@dataclass(frozen=True)
class Request:
    """A command to send (plaintext)."""

    command: Command
    data: bytes

    @classmethod
    def of(cls, command: Command, args: bytes = b"") -> Request:
        return cls(command, bytes([command]) + args)


@dataclass(frozen=True)
class Setup:
    """The setup request's reply, as far as the host needs it."""

    unit_type: int
    firmware: str
    country: str
    channel_cents: tuple[int, ...]
    protocol: int


def parse_setup(body: bytes) -> Setup:
    """A setup-request reply (after OK); ValueError if too short."""
    n = body[11] if len(body) > 11 else 0
    need = 16 + 2 * n
    if len(body) < need:
        raise ValueError("setup reply too short")
    real = int.from_bytes(body[12 + 2 * n : 15 + 2 * n], "big")
    protocol = body[15 + 2 * n]
    values = list(body[12 : 12 + n])
    expanded = 16 + 5 * n
    if protocol >= 6 and len(body) >= expanded + 4 * n:
        values = [
            int.from_bytes(body[expanded + 4 * i : expanded + 4 * i + 4], "little")
            for i in range(n)
        ]
    return Setup(
        unit_type=body[0],
        firmware=body[1:5].decode("ascii", "replace"),
        country=body[5:8].decode("ascii", "replace"),
        channel_cents=tuple(v * real for v in values),
        protocol=protocol,
    )


@dataclass(frozen=True)
class _Wanted:
    enabled: bool
    values: tuple[int, ...]
    tickets: bool


class EsspValidator:
    """An ITL note validator (NV9/NV10/NV200 family) over SSP, encrypted (eSSP) by default."""

    settings = SerialSettings(baudrate=9600, parity="N", stopbits=2)

    def __init__(
        self,
        *,
        address: int = 0,
        encrypted: bool = True,
        fixed_key: int = DEFAULT_FIXED_KEY,
        poll_interval_ms: int = 200,
        reply_timeout_ms: int = 500,
        retries: int = 3,
        random_bytes: Callable[[int], bytes] = os.urandom,
    ) -> None:
        self.address = address
        self.encrypted = encrypted
        self._fixed_key = fixed_key
        self._poll_ms = poll_interval_ms
        self._timeout_ms = reply_timeout_ms
        self._retries = retries
        self._random = random_bytes
        self._decoder = Decoder()
        self._events: list[NativeEvent] = []
        self.phase = Phase.START
        self._queue: deque[Request] = deque()
        self._seq = True
        self._awaiting: Request | None = None
        self._sent = b""
        self._sent_at = 0
        self._sent_sealed = False
        self._tries = 0
        self._cipher: PacketCipher | None = None
        self._count = 0
        self._dh = (0, 0, 0)  # generator, modulus, secret
        self._setup: Setup | None = None
        self._link_up = False
        self._next_poll = 0
        self._wanted = _Wanted(False, (), False)
        self._applied: _Wanted | None = None
        self.state = escrow.State.IDLE
        self._decision: str | None = None  # None (hold), "stack" or "return"
        self._condition: Condition | None = None
        self._restart_at = 0
        self._hold_refused = False  # the device holds nothing (e.g. a jam took the item): poll
        self._path_clear = False  # PathClear reported since the link came up and the path idled
        self._path_unknown = True  # since the link came up, no item followed and no PathClear
        self.dropped_replies = 0

    # NativeValidator
    def enable(self, note_values: tuple[int, ...], tickets: bool) -> None:
        self._wanted = _Wanted(True, tuple(note_values), tickets)

    def disable(self) -> None:
        self._wanted = _Wanted(False, (), False)

    def stack(self) -> None:
        """Accept the item in escrow (the next POLL); nothing once it is being returned."""
        held = self.state in (escrow.State.NOTE_ESCROW, escrow.State.TICKET_ESCROW)
        if held and self._decision is None:
            self._decision = "stack"
            self._next_poll = 0

    def return_item(self) -> None:
        """REJECT the item in escrow; nothing once it is being stacked or returned."""
        held = self.state in (escrow.State.NOTE_ESCROW, escrow.State.TICKET_ESCROW)
        if held and self._decision is None:
            self._decision = "return"
            self._queue.append(Request.of(Command.REJECT))

    def hold(self) -> None:
        """SSP holds by itself until the bridge decides: HOLD goes in place of each POLL."""

    def events(self) -> list[NativeEvent]:
        out, self._events = self._events, []
        return out

    def transmit(self, now_ms: int) -> bytes:
        if self._awaiting is not None:
            if now_ms - self._sent_at < self._timeout_ms:
                return b""
            self._tries += 1
            if self._tries <= self._retries:
                self._sent_at = now_ms
                return self._sent
            self._lose_link()
        request = self._next_request(now_ms)
        if request is None:
            return b""
        data = request.data
        self._sent_sealed = self._cipher is not None and request.command not in _PLAIN
        if self._sent_sealed:
            assert self._cipher is not None
            data = self._cipher.seal(self._count, data)
        self._awaiting = request
        self._tries = 0
        self._sent_at = now_ms
        self._sent = encode(Packet(self._seq, self.address, data))
        return self._sent

    def receive(self, data: bytes, now_ms: int) -> None:
        for packet in self._decoder.feed(data):
            self._on_packet(packet)

    # internals
    def _next_request(self, now_ms: int) -> Request | None:
        if self.phase is Phase.START:
            if now_ms < self._restart_at:
                return None
            self._restart_at = now_ms + self._timeout_ms  # a failed handshake waits this long
            self._start_handshake()
        if self._queue:
            return self._queue.popleft()
        if self.phase is not Phase.READY:
            return None
        if self._applied != self._wanted:
            self._apply_wanted()
            return self._queue.popleft()
        if now_ms < self._next_poll:
            return None
        self._next_poll = now_ms + self._poll_ms
        held = self.state in (escrow.State.NOTE_ESCROW, escrow.State.TICKET_ESCROW)
        if held and self._decision != "stack" and not self._hold_refused:
            return Request.of(Command.HOLD)
        self._hold_refused = False
        return Request.of(Command.POLL)

    def _start_handshake(self) -> None:
        self.phase = Phase.HANDSHAKE
        self._queue.clear()
        self._seq = True
        self._cipher = None
        self._queue.append(Request.of(Command.SYNC))
        if self.encrypted:  # the key first: the rest of the handshake travels sealed
            generator = random_prime(self._random)
            modulus = random_prime(self._random)
            secret = random_secret(self._random)
            self._dh = (generator, modulus, secret)
            self._queue.append(Request.of(Command.SET_GENERATOR, u64(generator)))
            self._queue.append(Request.of(Command.SET_MODULUS, u64(modulus)))
            inter = pow(generator, secret, modulus)
            self._queue.append(Request.of(Command.REQUEST_KEY_EXCHANGE, u64(inter)))
        self._queue.append(Request.of(Command.HOST_PROTOCOL_VERSION, bytes([PROTOCOL_VERSION])))
        self._queue.append(Request.of(Command.SETUP_REQUEST))
        self._queue.append(Request.of(Command.GET_SERIAL_NUMBER))

    def _apply_wanted(self) -> None:
        wanted = self._wanted
        self._applied = wanted
        cents = self._setup.channel_cents if self._setup else ()
        mask = sum(
            1 << i for i, v in enumerate(cents[:16]) if wanted.enabled and v in wanted.values
        )
        self._queue.append(Request.of(Command.SET_INHIBITS, mask.to_bytes(2, "little")))
        barcode = 0xFC | (0 if mask else BARCODE_NOTES_OFF)
        barcode |= 0 if wanted.enabled and wanted.tickets else BARCODE_TICKETS_OFF
        self._queue.append(Request.of(Command.SET_BARCODE_INHIBIT, bytes([barcode])))
        self._queue.append(Request.of(Command.ENABLE if wanted.enabled else Command.DISABLE))

    def _lose_link(self) -> None:
        if self._link_up:
            self._link_up = False
            self._events.append(LinkChanged(up=False))
        self.phase = Phase.START
        self._awaiting = None
        self._queue.clear()
        self._cipher = None
        self._applied = None
        self._condition = None  # the bridge's decision on an item in escrow stands

    def _on_packet(self, packet: Packet) -> None:
        request = self._awaiting
        if request is None or packet.seq != self._seq or packet.address != self.address:
            self.dropped_replies += 1
            return
        body = packet.data
        if self._sent_sealed:
            if body == bytes([Reply.KEY_NOT_SET]):  # the device lost its key: start over
                self._lose_link()
                return
            try:
                assert self._cipher is not None
                opened = self._cipher.open(body)
            except CryptoError:
                self.dropped_replies += 1
                return
            if opened.count != (self._count + 1) & 0xFFFFFFFF:
                self.dropped_replies += 1
                return
            self._count = (self._count + 2) & 0xFFFFFFFF
            body = opened.data
        self._awaiting = None
        self._tries = 0
        self._seq = not self._seq
        if not body:
            self.dropped_replies += 1
            return
        if body[0] != Reply.OK:
            if request.command is Command.HOLD:
                self._hold_refused = True
            if request.command in _HANDSHAKE:
                self._lose_link()  # e.g. a generator the device refused: start over
            return
        handler = self._HANDLERS.get(request.command)
        if handler is not None:
            handler(self, body[1:])

    def _on_setup(self, body: bytes) -> None:
        try:
            self._setup = parse_setup(body)
        except ValueError:
            self._lose_link()

    def _on_serial(self, body: bytes) -> None:
        serial = str(int.from_bytes(body[:4], "big"))
        setup = self._setup
        if setup is not None:
            model = f"ITL unit type {setup.unit_type:#04x} ({setup.country})"
            self._events.append(Identified(model, serial, setup.firmware))
        self._ready()

    def _on_key_exchange(self, body: bytes) -> None:
        if len(body) < 8:
            self._lose_link()
            return
        _generator, modulus, secret = self._dh
        device = int.from_bytes(body[:8], "little")
        key = pow(device, secret, modulus)
        self._cipher = PacketCipher(aes_key(self._fixed_key, key), self._random)
        self._count = 0

    def _ready(self) -> None:
        self.phase = Phase.READY
        self._applied = None
        self._path_clear = False  # the first poll with nothing in the path reports PathClear
        self._path_unknown = self.state is escrow.State.IDLE
        self._next_poll = 0
        held = self.state in (escrow.State.NOTE_ESCROW, escrow.State.TICKET_ESCROW)
        if held and self._decision == "return":  # its REJECT was lost with the link
            self._queue.append(Request.of(Command.REJECT))
        if not self._link_up:
            self._link_up = True
            self._events.append(LinkChanged(up=True))

    def _on_poll(self, body: bytes) -> None:
        seen: set[int] = set()
        moved = False  # an event about an item in the path
        i = 0
        while i < len(body):
            code = body[i]
            channel = body[i + 1] if code in WITH_CHANNEL and i + 1 < len(body) else 0
            i += 2 if code in WITH_CHANNEL else 1
            seen.add(code)
            if code == Event.SLAVE_RESET:
                self._applied = None  # the device forgot its settings: send them again
            tok = escrow.token(code, channel)
            if tok is not None:
                moved = True
                self._advance(tok, channel)
            if code not in _KNOWN_EVENTS:
                moved = True  # unreadable: not a proof that the path is clear
                break  # an event we cannot size: the rest of the reply is unreadable
        self._report_path(moved)
        self._update_condition(seen)

    def _report_path(self, moved: bool) -> None:
        """PathClear at the first poll that says nothing of an item while the host follows
        none (after the link came up, and again after each item)."""
        if moved or self.state is not escrow.State.IDLE:
            self._path_clear = False
        elif not self._path_clear:
            self._path_clear, self._path_unknown = True, False
            self._events.append(PathClear())

    def _advance(self, tok: escrow.Token, channel: int) -> None:
        was = self.state
        self.state, action = escrow.step(self.state, tok)
        if self.state is not escrow.State.IDLE:
            self._path_unknown = False
        elif self._path_unknown and was is escrow.State.IDLE and action is escrow.Action.NONE:
            # an item this host never saw (it started while one was in the path): where it
            # went is still news to a bridge that journaled it
            action = escrow.UNSEEN_ITEM.get(tok, action)
        if action is escrow.Action.NOTE_ESCROWED:
            cents = self._setup.channel_cents if self._setup else ()
            value = cents[channel - 1] if 0 < channel <= len(cents) else 0
            self._decision = None
            self._events.append(NoteEscrowed(value))
        elif action is escrow.Action.ASK_BARCODE:
            self._decision = None
            self._queue.append(Request.of(Command.GET_BARCODE_DATA))
        elif action is escrow.Action.STACKED:
            self._decision = None
            self._events.append(ItemStacked())
        elif action is escrow.Action.RETURNED:
            self._decision = None
            self._events.append(ItemReturned())
        elif action is escrow.Action.ASK_REJECT_REASON:
            self._queue.append(Request.of(Command.LAST_REJECT_CODE))

    def _update_condition(self, seen: set[int]) -> None:
        condition = Condition(
            enabled=Event.DISABLED not in seen,
            jammed=bool(seen & {Event.SAFE_JAM, Event.UNSAFE_JAM}),
            cashbox_full=Event.STACKER_FULL in seen,
            cashbox_removed=Event.CASHBOX_REMOVED in seen,
            cheated=Event.FRAUD_ATTEMPT in seen,
            failure="unsafe jam" if Event.UNSAFE_JAM in seen else "",
        )
        if condition != self._condition:
            self._condition = condition
            self._events.append(condition)

    def _on_reject_code(self, body: bytes) -> None:
        self._events.append(ItemRejected(reject_cause(body[0] if body else 0)))

    def _on_barcode(self, body: bytes) -> None:
        if len(body) >= 2 and body[0] == 1:
            barcode = body[2 : 2 + body[1]].decode("ascii", "replace")
            self._events.append(TicketEscrowed(barcode))

    _HANDLERS: ClassVar[dict[Command, Callable[[EsspValidator, bytes], None]]] = {
        Command.SETUP_REQUEST: _on_setup,
        Command.GET_SERIAL_NUMBER: _on_serial,
        Command.REQUEST_KEY_EXCHANGE: _on_key_exchange,
        Command.POLL: _on_poll,
        Command.LAST_REJECT_CODE: _on_reject_code,
        Command.GET_BARCODE_DATA: _on_barcode,
    }
