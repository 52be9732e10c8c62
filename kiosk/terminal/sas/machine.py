"""The SAS gaming machine, sans-IO: bytes and time in, the bytes to answer out.

:class:`SasMachine` owns no port, thread or clock.  The transport feeds it what the line
carried (:meth:`SasMachine.feed`, with the wakeup bits when the port gives them) and writes
each :class:`Reply` at once.  An exception is marked sent in the queue when the reply that
carries it is made (``Reply.exceptions`` names it), just before the transport writes it, and
kept in memory until the host acknowledges it (below).
Everything it reads comes from the current :class:`~kiosk.terminal.sas.meters.MachineSnapshot` (the
terminal's journaled state) and the :class:`~kiosk.terminal.sas.queue.ExceptionQueue`; everything it
changes on the terminal goes through :class:`Controls` (which post commands to the terminal's
own thread).

The long polls are one table, :data:`LONG_POLLS` (command -> handler).  A handler returns the
reply, or None for *no answer* — which is also the answer to a long poll that is not in the
table, to a poll with a bad CRC, a wrong length, another address or malformed data
(:class:`PollError`, counted by kind in :class:`LinkStats`).

**Implied acknowledgement** (SAS has no ACK from the host): an exception reported to a general
poll is said again while the host keeps sending this machine's general poll (it did not hear
the answer); any other message on the line — a poll to another address, the broadcast general
poll ``80`` a single-machine host sends between its polls, a long poll — acknowledges it.  A
long poll repeated at once is answered again from memory for the polls that change something
(:data:`REPLAYED`), so a retried redemption or validation number is never applied twice.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from kiosk.terminal.sas import progressive as sas_progressive
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.aft import AFT_POLLS
from kiosk.terminal.sas.bonus import BONUS_POLLS
from kiosk.terminal.sas.crc import with_crc
from kiosk.terminal.sas.framing import (
    Broadcast,
    Dropped,
    DropReason,
    GeneralPoll,
    Receiver,
    WakeupMode,
)
from kiosk.terminal.sas.funds import FundsDesk
from kiosk.terminal.sas.meters import MachineSnapshot, bill_count, meter_value
from kiosk.terminal.sas.polling import PollError, bcd_date_time
from kiosk.terminal.sas.queue import ExceptionQueue, NewException, PrintedTicket
from kiosk.terminal.sas.reports import REPORT_POLLS
from kiosk.terminal.sas.wire import FIVE_BYTE_SELECTED_METERS, LongPollFrame
from kiosk.terminal.sas.wire import LongPoll as P

#: the machine announces itself ("chirps") when no poll has come for this long (SAS 6.02)
CHIRP_SILENCE_S = 5.0
#: and then every this often, until a poll comes
CHIRP_EVERY_S = 0.2


@dataclass(frozen=True)
class Reply:
    """Bytes to write, and the queued exceptions they carry (already marked sent)."""

    data: bytes
    exceptions: tuple[int, ...] = ()


class Controls(Protocol):
    """What the host may change on the terminal (each posted to the terminal's thread)."""

    def enable_play(self, enabled: bool) -> None:
        """Long polls 01/02: stop play (a game in progress finishes) or allow it."""

    def enable_bills(self, enabled: bool) -> None:
        """Long polls 06/07: the bill acceptor on or off."""

    def reset_handpay(self) -> int:
        """Long poll 94: 0 reset, 1 unable to reset now, 2 no handpay pending."""

    def set_time(self, epoch_ms: int) -> bool:
        """Long poll 7F: set the terminal's clock; False when it cannot."""

    def now_ms(self) -> int:
        """The terminal's clock (epoch ms)."""


class Validation(Protocol):
    """System validation and ticket redemption, between the host and the terminal's thread."""

    def pending_cashout(self) -> int | None:
        """Cents of a cash-out waiting for the host's validation number, or None."""

    def give_validation_number(self, system_id: int, number: int) -> int:
        """Long poll 58: the host's number for the waiting cash-out; the status byte."""

    def ticket_in_escrow(self) -> str | None:
        """The 18-digit number of a ticket waiting for the host's redemption, or None."""

    def redeem(self, transfer_code: int, amount: int, number: str) -> int:
        """Long poll 71: the host's verdict on the ticket waiting; the machine status byte."""

    def ticket_status(self) -> tuple[int, int, str]:
        """(machine status, cents, 18-digit number) of the last ticket (71 status request)."""


class Signatures(Protocol):
    """ROM signatures (long poll 21), computed away from the SAS thread."""

    def request(self, seed: int) -> int | None:
        """The signature for ``seed`` if done; otherwise start it and return None."""


@dataclass
class LinkStats:
    """What the service menu shows of the link."""

    address: int
    general_polls: int = 0
    long_polls: int = 0
    answered: int = 0
    repeated: int = 0  # exceptions said again on an implied NACK
    unanswered: Counter[str] = field(default_factory=Counter)
    last_poll_at: float | None = None  # monotonic seconds
    started_at: float = 0.0
    recent: list[float] = field(default_factory=list)  # poll times in the last few seconds

    @property
    def errors(self) -> int:
        """Polls and bytes not acted on (other addresses' traffic not counted)."""
        return sum(n for reason, n in self.unanswered.items() if reason != "other_address")

    def polls_per_second(self, now: float, window: float = 5.0) -> float:
        """Polls to this machine per second over the last ``window`` seconds."""
        recent = [t for t in self.recent if now - t <= window]
        return len(recent) / window


def parse_date_time(data: bytes) -> int:
    """Epoch ms of a 7F's MMDDYYYY HHMMSS (local time); PollError when not a real moment."""
    try:
        date, clock = wire.from_bcd(data[:4]), wire.from_bcd(data[4:7])
    except wire.BcdError as exc:
        raise PollError(str(exc)) from exc
    month, day, year = date // 1_000_000, date // 10_000 % 100, date % 10_000
    hour, minute, second = clock // 10_000, clock // 100 % 100, clock % 100
    if not (1 <= month <= 12 and 1 <= day <= 31 and 2000 <= year <= 2099):
        raise PollError(f"no such date {data[:4].hex()}")
    if not (hour < 24 and minute < 60 and second < 60):
        raise PollError(f"no such time {data[4:7].hex()}")
    moment = time.mktime((year, month, day, hour, minute, second, 0, 0, -1))
    if time.localtime(moment).tm_mday != day:
        raise PollError(f"no such date {data[:4].hex()}")
    return int(moment * 1000)


def paytable_id(edition: str) -> bytes:
    """Six ASCII characters naming an edition's pay tables (first hex digits of a digest)."""
    return hashlib.sha256(edition.encode()).hexdigest()[:6].upper().encode()


Handler = Callable[["SasMachine", LongPollFrame], bytes | None]

_BILL_CODES = frozenset(wire.BILL_ACCEPTED_EXCEPTIONS.values()) | {wire.ExceptionCode.BILL_ACCEPTED}

#: polls answered again from memory when repeated at once (they change something)
REPLAYED = (
    frozenset(
        {
            P.SHUTDOWN,
            P.STARTUP,
            P.ENABLE_BILL_ACCEPTOR,
            P.DISABLE_BILL_ACCEPTOR,
            P.ENABLE_REAL_TIME_EVENTS,
            P.SET_SECURE_ENHANCED_VALIDATION_ID,
            P.SEND_ENHANCED_VALIDATION_INFORMATION,
            P.RECEIVE_VALIDATION_NUMBER,
            P.REDEEM_TICKET,
            P.RECEIVE_DATE_TIME,
            P.REMOTE_HANDPAY_RESET,
            P.LEGACY_BONUS_PAY,  # 8A carries no id: a repeat at once is not a second bonus
        }
    )
    | sas_progressive.REPLAYED
)

#: bill meter polls 31..45 -> the note's value in cents
BILL_METER_POLLS: dict[int, int] = {
    0x31: 100,
    0x32: 200,
    0x33: 500,
    0x34: 1000,
    0x35: 2000,
    0x36: 5000,
    0x37: 10000,
    0x38: 50000,
    0x39: 100000,
    0x3A: 20000,
    0x3B: 2500,
    0x3C: 200000,
    0x3E: 250000,
    0x3F: 500000,
    0x40: 1000000,
    0x41: 2000000,
    0x42: 2500000,
    0x43: 5000000,
    0x44: 10000000,
    0x45: 25000,
}


class SasMachine:
    """One SAS gaming machine at one address (see the module's docstring)."""

    def __init__(
        self,
        address: int,
        *,
        snapshot: Callable[[], MachineSnapshot],
        queue: ExceptionQueue,
        controls: Controls,
        validation: Validation,
        signatures: Signatures,
        serial_number: str,
        mode: WakeupMode = WakeupMode.PARITY,
        inter_byte_limit: float = wire.INTER_BYTE_LIMIT_S,
        progressives: sas_progressive.ProgressiveLink | None = None,
        funds: FundsDesk | None = None,
    ) -> None:
        self.receiver = Receiver(address, mode, inter_byte_limit=inter_byte_limit)
        self.snapshot = snapshot
        self.queue = queue
        self.controls = controls
        self.validation = validation
        self.signatures = signatures
        self.serial_number = serial_number
        #: this machine's progressive wins and the host's level broadcasts (None: none)
        self.progressives = progressives
        self.real_time = False
        self.stats = LinkStats(address)
        self._last_request: bytes | None = None
        self._last_reply: bytes | None = None
        self._signature_seed: int | None = None
        #: the last exception reported, until the host's next poll acknowledges it
        self._unacked: bytes | None = None
        #: AFT and legacy bonusing (kiosk/terminal/sas/funds.py); None: not on this link
        self.funds = funds
        self._last_polled: float | None = None  # monotonic: the last poll to this address
        self._last_chirp = 0.0
        self.chirps = 0

    @property
    def address(self) -> int:
        """The SAS address answered to."""
        return self.receiver.address

    def set_address(self, address: int) -> None:
        """Answer to ``address`` from the next poll on."""
        self.receiver.set_address(address)
        self.stats.address = address

    # --- the line ---------------------------------------------------------------------------

    def feed(self, data: bytes, now: float, wakeups: Sequence[bool] | None = None) -> list[Reply]:
        """Bytes from the line (with their wakeup bits in PARITY mode) -> replies to write."""
        replies: list[Reply] = []
        for i, byte in enumerate(data):
            wakeup = bool(wakeups[i]) if wakeups is not None else False
            for item in self.receiver.feed(byte, wakeup, now):
                reply = self._act(item, now)
                if reply is not None:
                    replies.append(reply)
        return replies

    def expire(self, now: float) -> None:
        """The line has been quiet until ``now`` (drops a poll left incomplete)."""
        for item in self.receiver.expire(now):
            self._act(item, now)

    def chirp(self, now: float) -> bytes | None:
        """The address byte to send when nobody has polled this machine for
        :data:`CHIRP_SILENCE_S` (then every :data:`CHIRP_EVERY_S`), so that a host waiting for
        an announcement finds it; None otherwise."""
        if self._last_polled is None:
            self._last_polled = now  # the silence is counted from start-up
        if now - self._last_polled < CHIRP_SILENCE_S or now - self._last_chirp < CHIRP_EVERY_S:
            return None
        self._last_chirp = now
        self.chirps += 1
        return bytes([self.address])

    def queue_exception(self, code: int) -> None:
        """Queue an exception of the link's own (not from the journal; gone after a restart)."""
        self.queue.push([NewException(code, volatile=True)])

    def _count(self, now: float) -> None:
        self._last_polled = now
        self.stats.last_poll_at = now
        self.stats.recent.append(now)
        if len(self.stats.recent) > 4096:
            del self.stats.recent[:2048]

    def _act(self, item: object, now: float) -> Reply | None:
        if isinstance(item, Dropped):
            self.stats.unanswered[item.reason.value] += 1
            if item.reason is DropReason.OTHER_ADDRESS:
                self._unacked = None  # the host moved on: the last exception was heard
            return None
        if isinstance(item, GeneralPoll):
            self.stats.general_polls += 1
            self._count(now)
            self._last_request = None
            if self._unacked is not None:  # the same poll again: it was not heard, say it again
                self.stats.answered += 1
                self.stats.repeated += 1
                return Reply(self._unacked)
            return self._general_poll()
        self._unacked = None  # any other poll acknowledges the last exception
        if isinstance(item, Broadcast):
            self.stats.unanswered[DropReason.BROADCAST.value] += 1
            if item.frame.command == P.RECEIVE_DATE_TIME:
                with contextlib.suppress(PollError):
                    self.controls.set_time(parse_date_time(item.frame.data))
            if item.frame.command in sas_progressive.BROADCASTS:
                with contextlib.suppress(sas_progressive.MalformedProgressiveError):
                    sas_progressive.LONG_POLLS[item.frame.command](self, item.frame)
            return None
        if isinstance(item, LongPollFrame):
            self.stats.long_polls += 1
            self._count(now)
            return self._long_poll(item)
        return None

    def _general_poll(self) -> Reply:
        if self._signature_seed is not None:  # a ROM signature computed since it was asked
            value = self.signatures.request(self._signature_seed)
            if value is not None:
                self._signature_seed = None
                self.stats.answered += 1
                return Reply(
                    wire.response(self.address, P.ROM_SIGNATURE, value.to_bytes(2, "little"))
                )
        if self.progressives is not None:
            self.progressives.announce(self)
        pending = self.queue.next(self.real_time)
        self.stats.answered += 1
        if pending is None:
            return Reply(bytes([wire.NO_ACTIVITY]))
        # marked sent now, before the reply is written, so a kill never repeats it; a host
        # that did not hear it repeats its general poll and gets it again from memory
        self.queue.mark_sent([pending.id])
        reply = self._exception_reply(pending.code, pending.data)
        self._unacked = reply
        return Reply(reply, (pending.id,))

    def _exception_reply(self, code: int, data: bytes) -> bytes:
        if self.real_time:
            if code in _BILL_CODES and data:  # with its data, a note is 4F
                code = wire.ExceptionCode.BILL_ACCEPTED
            return with_crc(bytes([self.address, 0xFF, code]) + data)
        return bytes([code])

    def _long_poll(self, frame: LongPollFrame) -> Reply | None:
        raw = bytes([frame.address, frame.command]) + frame.data
        if frame.command in REPLAYED and raw == self._last_request and self._last_reply:
            self.stats.answered += 1
            return Reply(self._last_reply)
        handler = LONG_POLLS.get(frame.command)
        if handler is None:
            self.stats.unanswered["unsupported"] += 1
            self._last_request = None
            return None
        try:
            data = handler(self, frame)
        except (PollError, wire.BcdError, sas_progressive.MalformedProgressiveError) as exc:
            self.stats.unanswered["malformed:" + type(exc).__name__] += 1
            self._last_request = None
            return None
        self._last_request, self._last_reply = raw, data
        if data is None:
            return None
        self.stats.answered += 1
        return Reply(data)

    # --- helpers for handlers -----------------------------------------------------------------

    def respond(self, command: int, data: bytes) -> bytes:
        """``address, command, data, CRC``."""
        return wire.response(self.address, command, data)

    def ack(self) -> bytes:
        """The address alone."""
        return wire.ack(self.address)

    def meter(self, code: int, game: int = 0) -> int:
        """A meter for a fixed-layout poll (0 when not kept)."""
        return meter_value(self.snapshot(), code, game) or 0


# --- the handlers ------------------------------------------------------------------------------

M = wire.MeterCode


def _meters_poll(*codes: int) -> Handler:
    def handler(m: SasMachine, frame: LongPollFrame) -> bytes:
        return m.respond(frame.command, b"".join(wire.meter_bcd(m.meter(c)) for c in codes))

    return handler


def _single(code: int) -> Handler:
    return _meters_poll(code)


def _shutdown(m: SasMachine, frame: LongPollFrame) -> bytes:
    m.controls.enable_play(frame.command == P.STARTUP)
    return m.ack()


def _bills_enable(m: SasMachine, frame: LongPollFrame) -> bytes:
    m.controls.enable_bills(frame.command == P.ENABLE_BILL_ACCEPTOR)
    return m.ack()


def _real_time(m: SasMachine, frame: LongPollFrame) -> bytes:
    if frame.data[0] not in (0, 1):
        raise PollError(f"real-time reporting {frame.data[0]:02X} is neither 00 nor 01")
    m.real_time = frame.data[0] == 1
    if not m.real_time:
        m.queue.discard_rte_only()
    return m.ack()


def _games_since(m: SasMachine, frame: LongPollFrame) -> bytes:
    s = m.snapshot()
    return m.respond(
        frame.command,
        wire.to_bcd(s.games_since_power_up % 10000, 2)
        + wire.to_bcd(s.games_since_door_closed % 10000, 2),
    )


def _current_credits(m: SasMachine, frame: LongPollFrame) -> bytes:
    return m.respond(frame.command, wire.meter_bcd(m.snapshot().credits))


def _handpay_info(m: SasMachine, frame: LongPollFrame) -> bytes:
    s = m.snapshot()
    # progressive group and level: cancelled credits 80; a progressive hit group 1 level 1
    group, level = {"cancelled_credits": (0, 0x80), "progressive": (1, 0x01)}.get(
        s.handpay_kind, (0, 0x00)
    )
    return m.respond(
        frame.command,
        bytes([group if s.handpay_value else 0, level if s.handpay_value else 0])
        + wire.meter_bcd(s.handpay_value, 5)
        + wire.to_bcd(0, 2)
        + b"\x00"
        + bytes(10),
    )


def _meters_1c(m: SasMachine, frame: LongPollFrame) -> bytes:
    s = m.snapshot()
    values = [
        m.meter(M.TOTAL_COIN_IN),
        m.meter(M.TOTAL_COIN_OUT),
        m.meter(M.TOTAL_DROP),
        m.meter(M.TOTAL_JACKPOT),
        m.meter(M.GAMES_PLAYED),
        m.meter(M.GAMES_WON),
        s.meter("door_opens"),
        s.meter("power_resets"),
    ]
    return m.respond(frame.command, b"".join(wire.meter_bcd(v) for v in values))


def _bill_meters_1e(m: SasMachine, frame: LongPollFrame) -> bytes:
    s = m.snapshot()
    notes = (100, 500, 1000, 2000, 5000, 10000)
    return m.respond(frame.command, b"".join(wire.meter_bcd(bill_count(s, n)) for n in notes))


def _game_info(m: SasMachine, entry_number: int) -> bytes:
    s = m.snapshot()
    entry = s.game(entry_number) if entry_number else None
    game_id = b"TK" if entry is None else f"{entry.number:02d}".encode()
    table = paytable_id("machine" if entry is None else entry.edition)
    max_bet = min(s.max_bet, 255)
    return (
        game_id
        + b"000"
        + bytes([wire.DENOMINATION_CODE_1_CENT, max_bet, 0])
        + b"\x00\x00"
        + table
        + b"0000"
    )


def _machine_info(m: SasMachine, frame: LongPollFrame) -> bytes:
    return m.respond(frame.command, _game_info(m, 0))


def _total_bills(m: SasMachine, frame: LongPollFrame) -> bytes:
    return m.respond(frame.command, wire.meter_bcd(m.snapshot().meter("bills_in") // 100))


def _rom_signature(m: SasMachine, frame: LongPollFrame) -> bytes | None:
    seed = int.from_bytes(frame.data[:2], "little")
    value = m.signatures.request(seed)
    if value is None:  # answered to a later general poll once computed
        m._signature_seed = seed
        return None
    m._signature_seed = None
    return m.respond(frame.command, value.to_bytes(2, "little"))


def _zero_meter(m: SasMachine, frame: LongPollFrame) -> bytes:
    return m.respond(frame.command, wire.meter_bcd(0))


def _game_number(data: bytes) -> int:
    try:
        return wire.from_bcd(data[:2])
    except wire.BcdError as exc:
        raise PollError(str(exc)) from exc


def _checked_game(m: SasMachine, number: int) -> int:
    if number != 0 and m.snapshot().game(number) is None:
        raise PollError(f"no game number {number}")
    return number


def _handpaid_cancelled(m: SasMachine, frame: LongPollFrame) -> bytes:
    game = _checked_game(m, _game_number(frame.data))
    value = meter_value(m.snapshot(), M.TOTAL_HANDPAID_CANCELLED_CREDITS, game) or 0
    return m.respond(frame.command, frame.data[:2] + wire.meter_bcd(value))


def _m_body(frame: LongPollFrame, min_length: int) -> bytes:
    length = frame.data[0]
    body = frame.data[1:]
    if len(body) != length or length < min_length:
        raise PollError(f"long poll {frame.command:02X}: length {length} for {len(body)} bytes")
    return body


def _selected_meters(m: SasMachine, frame: LongPollFrame) -> bytes:
    body = _m_body(frame, 3)
    game = _checked_game(m, _game_number(body))
    s = m.snapshot()
    out = bytearray(body[:2])
    for code in body[2:]:
        value = meter_value(s, code, game)
        if value is None:
            continue  # a meter not kept is left out of the answer
        out += bytes([code]) + wire.meter_bcd(value, 5 if code in FIVE_BYTE_SELECTED_METERS else 4)
    return m.respond(frame.command, bytes([len(out)]) + bytes(out))


def _extended_meters(m: SasMachine, frame: LongPollFrame) -> bytes:
    body = _m_body(frame, 2)
    if (len(body) - 2) % 2:
        raise PollError("extended meter codes come two bytes each")
    game = _checked_game(m, _game_number(body))
    s = m.snapshot()
    out = bytearray(body[:2])
    for i in range(2, len(body), 2):
        code = int.from_bytes(body[i : i + 2], "little")
        value = meter_value(s, code, game) if code < 0x100 else None
        if value is None:
            out += body[i : i + 2] + b"\x00"  # size 0: not kept
            continue
        if frame.command == P.SEND_EXTENDED_METERS_ALT:
            size = 6  # AF: every meter at its full 12 digits
        else:
            size = 5 if code in FIVE_BYTE_SELECTED_METERS else 4
        out += body[i : i + 2] + bytes([size]) + wire.meter_bcd(value, size)
    return m.respond(frame.command, bytes([len(out)]) + bytes(out))


def _bill_meter(m: SasMachine, frame: LongPollFrame) -> bytes:
    cents = BILL_METER_POLLS[frame.command]
    return m.respond(frame.command, wire.meter_bcd(bill_count(m.snapshot(), cents)))


def _bills_credits(m: SasMachine, frame: LongPollFrame) -> bytes:
    return m.respond(frame.command, wire.meter_bcd(m.snapshot().meter("bills_in")))


def _last_bill(m: SasMachine, frame: LongPollFrame) -> bytes:
    s = m.snapshot()
    code = wire.BILL_DENOMINATION_CODES.get(s.last_bill)
    if code is None:
        return m.respond(frame.command, bytes([0, 0]) + wire.meter_bcd(0))
    return m.respond(
        frame.command,
        bytes([wire.COUNTRY_CODE_USD, code]) + wire.meter_bcd(bill_count(s, s.last_bill)),
    )


def _validation_id(m: SasMachine, frame: LongPollFrame) -> bytes:
    machine_id = int.from_bytes(frame.data[:3], "little")
    sequence = int.from_bytes(frame.data[3:6], "little")
    if machine_id:
        m.queue.set_json("validation_id", {"machine_id": machine_id, "sequence": sequence})
    kept = m.queue.get_json("validation_id")
    mid, seq = int(str(kept.get("machine_id", 0))), int(str(kept.get("sequence", 0)))
    return m.respond(frame.command, mid.to_bytes(3, "little") + seq.to_bytes(3, "little"))


def _ticket_record(m: SasMachine, ticket: PrintedTicket | None, index: int) -> bytes:
    if ticket is None:
        return m.respond(P.SEND_ENHANCED_VALIDATION_INFORMATION, bytes(31))  # as long as a record
    number = ticket.validation_number.rjust(18, "0")[-18:]
    return m.respond(
        P.SEND_ENHANCED_VALIDATION_INFORMATION,
        bytes([0x00, index])
        + bcd_date_time(ticket.at)
        + wire.to_bcd(int(number[2:]), 8)
        + wire.meter_bcd(ticket.value, 5)
        + wire.to_bcd(ticket.id % 10000, 2)
        + wire.to_bcd(int(number[:2]), 1)
        + wire.to_bcd(30, 4)
        + b"\x00\x00",
    )


def _enhanced_validation(m: SasMachine, frame: LongPollFrame) -> bytes:
    function = frame.data[0]
    if function == 0x00:  # the oldest record the host has not read
        unread = m.queue.printed(unread_only=True)
        if not unread:
            return _ticket_record(m, None, 0)
        m.queue.mark_read(unread[0].id)
        return _ticket_record(m, unread[0], 0)
    if 0x01 <= function <= 0x1F:  # look back: 1 is the newest
        kept = m.queue.printed(unread_only=False)
        if function > len(kept):
            return _ticket_record(m, None, function)
        return _ticket_record(m, kept[-function], function)
    raise PollError(f"enhanced validation function {function:02X}")


def _pending_cashout(m: SasMachine, frame: LongPollFrame) -> bytes:
    value = m.validation.pending_cashout()
    if value is None:
        return m.respond(frame.command, b"\x80" + wire.meter_bcd(0, 5))
    return m.respond(frame.command, b"\x00" + wire.meter_bcd(value, 5))


def _validation_number(m: SasMachine, frame: LongPollFrame) -> bytes:
    try:
        system_id = wire.from_bcd(frame.data[:1])
        number = wire.from_bcd(frame.data[1:9])
    except wire.BcdError:
        return m.respond(frame.command, b"\x81")
    return m.respond(frame.command, bytes([m.validation.give_validation_number(system_id, number)]))


def _number_of_games(m: SasMachine, frame: LongPollFrame) -> bytes:
    return m.respond(frame.command, wire.to_bcd(len(m.snapshot().games), 2))


def _game_configuration(m: SasMachine, frame: LongPollFrame) -> bytes:
    number = _checked_game(m, _game_number(frame.data))
    return m.respond(frame.command, frame.data[:2] + _game_info(m, number))


def _version_and_serial(m: SasMachine, frame: LongPollFrame) -> bytes:
    serial = (m.snapshot().serial or m.serial_number).encode("ascii", "replace")[:40]
    body = wire.SAS_VERSION + serial
    return m.respond(frame.command, bytes([len(body)]) + body)


def _selected_game(m: SasMachine, frame: LongPollFrame) -> bytes:
    return m.respond(frame.command, wire.to_bcd(m.snapshot().selected_game, 2))


def _enabled_games(m: SasMachine, frame: LongPollFrame) -> bytes:
    numbers = [g.number for g in m.snapshot().games if g.enabled]
    body = bytes([len(numbers)]) + b"".join(wire.to_bcd(n, 2) for n in numbers)
    return m.respond(frame.command, bytes([len(body)]) + body)


def _ticket_data(m: SasMachine, frame: LongPollFrame) -> bytes:
    number = m.validation.ticket_in_escrow()
    if number is None:
        body = b"\xff" + wire.meter_bcd(0, 5) + b"\x00"
    else:
        body = b"\x00" + wire.meter_bcd(0, 5) + b"\x00" + wire.to_bcd(int(number), 9)
    return m.respond(frame.command, bytes([len(body)]) + body)


def _ticket_answer(m: SasMachine, command: int) -> bytes:
    status, value, number = m.validation.ticket_status()
    data = bytes([status]) + wire.meter_bcd(value, 5) + b"\x00"
    if number:
        data += wire.to_bcd(int(number), 9)
    return m.respond(command, bytes([len(data)]) + data)


def _redeem(m: SasMachine, frame: LongPollFrame) -> bytes:
    body = _m_body(frame, 1)
    code = body[0]
    if code == 0xFF:  # the host asks how the last redemption ended
        return _ticket_answer(m, frame.command)
    if len(body) < 1 + 5 + 1 + 9:
        raise PollError("a ticket redemption needs amount, parsing code and validation data")
    try:
        amount = wire.from_bcd(body[1:6])
        number = f"{wire.from_bcd(body[7:16]):018d}"
    except wire.BcdError:
        status, value, number = 0x83, 0, ""
        data = bytes([status]) + wire.meter_bcd(value, 5) + b"\x00"
        return m.respond(frame.command, bytes([len(data)]) + data)
    status = m.validation.redeem(code, amount, number)
    data = bytes([status]) + wire.meter_bcd(amount if status == 0x40 else 0, 5) + b"\x00"
    data += wire.to_bcd(int(number), 9)
    return m.respond(frame.command, bytes([len(data)]) + data)


def _date_time(m: SasMachine, frame: LongPollFrame) -> bytes:
    return m.respond(frame.command, bcd_date_time(m.controls.now_ms()))


def _set_date_time(m: SasMachine, frame: LongPollFrame) -> bytes:
    try:
        moment = parse_date_time(frame.data)
    except PollError:
        return wire.nack(m.address)
    return m.ack() if m.controls.set_time(moment) else wire.nack(m.address)


def _remote_handpay_reset(m: SasMachine, frame: LongPollFrame) -> bytes:
    return m.respond(frame.command, bytes([m.controls.reset_handpay()]))


LONG_POLLS: dict[int, Handler] = {
    P.SHUTDOWN: _shutdown,
    P.STARTUP: _shutdown,
    P.ENABLE_BILL_ACCEPTOR: _bills_enable,
    P.DISABLE_BILL_ACCEPTOR: _bills_enable,
    P.ENABLE_REAL_TIME_EVENTS: _real_time,
    P.SEND_METERS_10_TO_15: _meters_poll(
        M.TOTAL_CANCELLED_CREDITS,
        M.TOTAL_COIN_IN,
        M.TOTAL_COIN_OUT,
        M.TOTAL_DROP,
        M.TOTAL_JACKPOT,
        M.GAMES_PLAYED,
    ),
    P.SEND_CANCELLED_CREDITS: _single(M.TOTAL_CANCELLED_CREDITS),
    P.SEND_COIN_IN: _single(M.TOTAL_COIN_IN),
    P.SEND_COIN_OUT: _single(M.TOTAL_COIN_OUT),
    P.SEND_DROP: _single(M.TOTAL_DROP),
    P.SEND_JACKPOT: _single(M.TOTAL_JACKPOT),
    P.SEND_GAMES_PLAYED: _single(M.GAMES_PLAYED),
    P.SEND_GAMES_WON: _single(M.GAMES_WON),
    P.SEND_GAMES_LOST: _single(M.GAMES_LOST),
    P.SEND_GAMES_SINCE_POWER_UP: _games_since,
    P.SEND_METERS_11_TO_15: _meters_poll(
        M.TOTAL_COIN_IN, M.TOTAL_COIN_OUT, M.TOTAL_DROP, M.TOTAL_JACKPOT, M.GAMES_PLAYED
    ),
    P.SEND_CURRENT_CREDITS: _current_credits,
    P.SEND_HANDPAY_INFORMATION: _handpay_info,
    P.SEND_METERS: _meters_1c,
    P.SEND_BILL_METERS: _bill_meters_1e,
    P.SEND_MACHINE_INFORMATION: _machine_info,
    P.SEND_TOTAL_BILLS: _total_bills,
    P.ROM_SIGNATURE: _rom_signature,
    P.SEND_TRUE_COIN_IN: _zero_meter,
    P.SEND_TRUE_COIN_OUT: _zero_meter,
    P.SEND_HANDPAID_CANCELLED_CREDITS: _handpaid_cancelled,
    P.SEND_SELECTED_METERS: _selected_meters,
    **dict.fromkeys(BILL_METER_POLLS, _bill_meter),
    P.SEND_CREDIT_AMOUNT_OF_BILLS: _bills_credits,
    P.SEND_COIN_AMOUNT_TO_DROP: _zero_meter,
    P.SEND_LAST_ACCEPTED_BILL: _last_bill,
    P.SET_SECURE_ENHANCED_VALIDATION_ID: _validation_id,
    P.SEND_ENHANCED_VALIDATION_INFORMATION: _enhanced_validation,
    P.SEND_NUMBER_OF_GAMES: _number_of_games,
    P.SEND_GAME_N_CONFIGURATION: _game_configuration,
    P.SEND_SAS_VERSION_AND_SERIAL: _version_and_serial,
    P.SEND_SELECTED_GAME_NUMBER: _selected_game,
    P.SEND_ENABLED_GAME_NUMBERS: _enabled_games,
    P.SEND_PENDING_CASHOUT_INFORMATION: _pending_cashout,
    P.RECEIVE_VALIDATION_NUMBER: _validation_number,
    P.SEND_EXTENDED_METERS: _extended_meters,
    P.SEND_EXTENDED_METERS_ALT: _extended_meters,
    P.SEND_TICKET_VALIDATION_DATA: _ticket_data,
    P.REDEEM_TICKET: _redeem,
    P.SEND_CURRENT_DATE_TIME: _date_time,
    P.RECEIVE_DATE_TIME: _set_date_time,
    P.REMOTE_HANDPAY_RESET: _remote_handpay_reset,
    **sas_progressive.LONG_POLLS,
}

# issue 28, kept apart as entries of their own: AFT (aft.py), legacy bonusing (bonus.py),
# validation meters and status, game N meters, enabled features (reports.py)
LONG_POLLS.update(AFT_POLLS)
LONG_POLLS.update(BONUS_POLLS)
LONG_POLLS.update(REPORT_POLLS)
