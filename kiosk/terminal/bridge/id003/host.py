"""The host side of ID-003, sans-IO: a :class:`~kiosk.terminal.bridge.native.NativeValidator`.

One request at a time: the host polls with ``STATUS REQUEST`` (fast while an item is in the
acceptor's path, slowly when idle), sends settings and operations in between, and answers
``VEND VALID`` with ``ACK``.  A request unanswered within ``reply_timeout_ms`` is sent again; no
answer for ``link_timeout_ms`` is a lost link.  After a power-up status the host resets the
acceptor and sends its settings again (denominations, barcode tickets, inhibit).

Each status the acceptor answers goes through :data:`STATUS_HANDLERS` (status byte -> what it
means for the item in the path), so the protocol's states are one table.  ``ItemStacked`` is
reported at ``VEND VALID``, before the ``ACK`` goes out: the bridge journals it in between, so
the acceptor never forgets a note the bridge has not recorded.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from kiosk.terminal.bridge.id003 import codes as k
from kiosk.terminal.bridge.id003.codec import Decoder, Frame, encode
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

SETTINGS = SerialSettings(baudrate=9600, parity="E")


class Id003Validator:
    """A JCM ID-003 acceptor seen from the host."""

    settings = SETTINGS

    def __init__(
        self,
        *,
        idle_poll_ms: int = 100,
        busy_poll_ms: int = 20,
        reply_timeout_ms: int = 200,
        link_timeout_ms: int = 2000,
    ) -> None:
        self.idle_poll_ms = idle_poll_ms
        self.busy_poll_ms = busy_poll_ms
        self.reply_timeout_ms = reply_timeout_ms
        self.link_timeout_ms = link_timeout_ms
        self.decoder = Decoder()
        self.denominations: dict[int, int] = dict(k.DEFAULT_DENOMINATIONS)
        self.status: int | None = None  # the last status byte answered
        self.last_reject = ""  # the device's words for the last item it rejected
        self.unanswered = 0  # requests sent again for want of an answer
        self._events: list[NativeEvent] = []
        self._queue: deque[Frame] = deque()
        self._pending: Frame | None = None
        self._sent_at = 0
        self._ack_due = False
        self._next_poll = 0
        self._last_heard: int | None = None
        self._up = False
        self._want: tuple[bool, frozenset[int], bool] = (False, frozenset(), False)
        self._escrow: NoteEscrowed | TicketEscrowed | None = None
        self._stacked = False  # the item in the path reached VEND VALID
        self._rejecting = False
        self._reset_sent = False
        self._condition: Condition | None = None

    # --- NativeValidator ---------------------------------------------------------------------

    def receive(self, data: bytes, now_ms: int) -> None:
        """Bytes from the acceptor."""
        for frame in self.decoder.feed(data):
            self._last_heard = now_ms
            if not self._up:
                self._up = True
                self._events.append(LinkChanged(up=True))
                self._configure(first=True)
            request, self._pending = self._pending, None
            if request is None:
                continue  # nothing asked: a late or unsolicited answer
            self._answer(request, frame)

    def transmit(self, now_ms: int) -> bytes:
        """The next request, a retry, the ACK of VEND VALID, or b""."""
        if self._pending is not None:
            if now_ms - self._sent_at < self.reply_timeout_ms:
                return b""
            self.unanswered += 1
            self.decoder.reset()
            heard = self._last_heard
            if self._up and (heard is None or now_ms - heard >= self.link_timeout_ms):
                self._lost()
            return self._send(self._pending, now_ms)
        if self._ack_due:
            self._ack_due = False
            return encode(Frame(k.ACK))
        if self._queue:
            return self._send(self._queue.popleft(), now_ms)
        if now_ms >= self._next_poll:
            busy = self.status not in k.IDLE
            self._next_poll = now_ms + (self.busy_poll_ms if busy else self.idle_poll_ms)
            return self._send(Frame(k.STATUS_REQUEST), now_ms)
        return b""

    def next_deadline(self) -> int:
        """When :meth:`transmit` has something to send (optional to the contract)."""
        if self._pending is not None:
            return self._sent_at + self.reply_timeout_ms
        if self._ack_due or self._queue:
            return 0
        return self._next_poll

    def events(self) -> list[NativeEvent]:
        """Events since the last call."""
        out, self._events = self._events, []
        return out

    def enable(self, note_values: tuple[int, ...], tickets: bool) -> None:
        """Accept these notes and, if ``tickets``, barcoded vouchers."""
        want = (True, frozenset(note_values), tickets)
        if want != self._want:
            self._want = want
            self._configure()

    def disable(self) -> None:
        """Inhibit acceptance."""
        if self._want[0]:
            self._want = (False, self._want[1], self._want[2])
            self._configure()

    def stack(self) -> None:
        """Stack the item in escrow."""
        self._queue.append(Frame(k.STACK_1))

    def return_item(self) -> None:
        """Return the item in escrow."""
        self._queue.append(Frame(k.RETURN))

    def hold(self) -> None:
        """Keep the item in escrow (the acceptor's escrow timer starts again)."""
        self._queue.append(Frame(k.HOLD))

    # --- inside -----------------------------------------------------------------------------

    def _send(self, frame: Frame, now_ms: int) -> bytes:
        self._pending = frame
        self._sent_at = now_ms
        return encode(frame)

    def _lost(self) -> None:
        self._up = False
        self._events.append(LinkChanged(up=False))
        self._queue.clear()
        self._ack_due = False
        self.status = None
        self._reset_sent = False

    def _configure(self, *, first: bool = False) -> None:
        """Queue the settings that make the acceptor do what is wanted (replacing any queued)."""
        kept = [f for f in self._queue if f.cmd not in k.SETTINGS]
        self._queue = deque(kept)
        if first:
            self._queue.append(Frame(k.VERSION_REQUEST))
            self._queue.append(Frame(k.CURRENCY_ASSIGN_REQUEST))
        enabled, notes, tickets = self._want
        mask = 0
        for code, value in self.denominations.items():
            if value not in notes and 0x61 <= code <= 0x70:
                mask |= 1 << (code - 0x61)
        self._queue.append(Frame(k.SET_DENOMINATIONS, bytes([mask & 0xFF, mask >> 8])))
        self._queue.append(Frame(k.SET_BARCODE_FUNCTION, bytes([k.BARCODE_ITF, k.TICKET_DIGITS])))
        bar = 0xFC | (0 if notes else 0x01) | (0 if tickets else 0x02)
        self._queue.append(Frame(k.SET_BAR_INHIBIT, bytes([bar])))
        self._queue.append(Frame(k.SET_INHIBIT, bytes([0 if enabled else 1])))

    def _answer(self, request: Frame, frame: Frame) -> None:
        if request.cmd == k.STATUS_REQUEST:
            self.on_status(frame)
        elif request.cmd == k.VERSION_REQUEST and frame.cmd == k.VERSION_REQUEST:
            text = frame.data.decode("ascii", "replace").strip()
            model, _, firmware = text.partition(" ")
            self._events.append(Identified(model=model, serial_number="", firmware=firmware))
        elif request.cmd == k.CURRENCY_ASSIGN_REQUEST and frame.cmd == k.CURRENCY_ASSIGN_REQUEST:
            self._on_currency(frame.data)
        elif request.cmd == k.RESET and frame.cmd == k.ACK:
            self._configure()

    def _on_currency(self, data: bytes) -> None:
        table: dict[int, int] = {}
        for i in range(0, len(data) - 3, 4):
            code, _country, base, exponent = data[i : i + 4]
            if base and exponent < 10:
                table[code] = base * 10**exponent * 100
        if table:
            self.denominations = table
            self._configure()

    def on_status(self, frame: Frame) -> None:
        """The acceptor's answer to a status request, through :data:`STATUS_HANDLERS`."""
        handler = STATUS_HANDLERS.get(frame.cmd)
        if handler is None:
            return  # INVALID COMMAND, COMMUNICATION ERROR, a status we do not know
        was = self.status
        self.status = frame.cmd
        if frame.cmd != k.REJECTING:
            self._rejecting = False
        handler(self, frame, was)
        self._report_condition(frame)

    # one method per status family (see STATUS_HANDLERS)

    def _idle(self, frame: Frame, was: int | None) -> None:
        if self._escrow is not None and not self._stacked:
            self._events.append(ItemReturned())
        self._escrow, self._stacked, self._rejecting = None, False, False
        if was not in k.IDLE:
            self._events.append(PathClear())
        enabled = self._want[0]
        if (frame.cmd == k.ENABLE) != enabled and not any(
            f.cmd == k.SET_INHIBIT for f in self._queue
        ):
            self._configure()  # the acceptor forgot (reset by its own hand): say it again

    def _escrowed(self, frame: Frame, was: int | None) -> None:
        if self._escrow is not None:
            return  # polled again while it waits
        item: NoteEscrowed | TicketEscrowed
        if frame.data[:1] == bytes([k.BARCODE_TICKET]):
            item = TicketEscrowed(barcode=frame.data[1:].decode("ascii", "replace"))
        else:
            value = self.denominations.get(frame.data[0]) if frame.data else None
            if value is None:
                self.return_item()  # a denomination we cannot value: never in escrow for us
                return
            item = NoteEscrowed(value=value)
        self._escrow, self._stacked = item, False
        self._events.append(item)

    def _vend_valid(self, frame: Frame, was: int | None) -> None:
        if not self._stacked:
            self._stacked = True
            self._events.append(ItemStacked())
        self._ack_due = True  # after the bridge journaled the stack (events come first)

    def _rejected(self, frame: Frame, was: int | None) -> None:
        if self._escrow is not None and not self._stacked:
            self._escrow = None
            self._events.append(ItemReturned())  # refused on its way to the cash box
            return
        if not self._rejecting:
            self._rejecting = True
            words, cause = k.reject_reason(frame.data[0] if frame.data else 0)
            self.last_reject = words
            self._events.append(ItemRejected(cause=cause, detail=words))

    def _returning(self, frame: Frame, was: int | None) -> None:
        if self._escrow is not None and not self._stacked:
            self._escrow = None
            self._events.append(ItemReturned())

    def _power_up(self, frame: Frame, was: int | None) -> None:
        if not self._reset_sent or was not in k.POWER_UPS:
            self._reset_sent = True
            self._queue.appendleft(Frame(k.RESET))

    def _busy(self, frame: Frame, was: int | None) -> None:
        """Accepting, stacking, stacked, holding, initialising, or a fault: the item (if
        any) stays where it is."""
        if frame.cmd == k.INITIALIZE:
            self._reset_sent = False

    def _report_condition(self, frame: Frame) -> None:
        s = frame.cmd
        if s not in k.IDLE and s not in k.ERRORS:
            return  # an item on its way, a power-up: the condition stands as last reported
        condition = Condition(
            enabled=s == k.ENABLE,
            jammed=s in (k.JAM_IN_ACCEPTOR, k.JAM_IN_STACKER),
            cashbox_full=s == k.STACKER_FULL,
            cashbox_removed=s == k.STACKER_OPEN,
            cheated=s == k.CHEATED,
            failure=k.failure_name(frame.data[0] if frame.data else 0) if s == k.FAILURE else "",
        )
        if condition != self._condition:
            self._condition = condition
            self._events.append(condition)


Handler = Callable[[Id003Validator, Frame, "int | None"], None]

#: status byte -> what it means for the item in the acceptor's path
STATUS_HANDLERS: dict[int, Handler] = {
    k.ENABLE: Id003Validator._idle,
    k.DISABLE: Id003Validator._idle,
    k.ACCEPTING: Id003Validator._busy,
    k.ESCROW: Id003Validator._escrowed,
    k.STACKING: Id003Validator._busy,
    k.VEND_VALID: Id003Validator._vend_valid,
    k.STACKED: Id003Validator._busy,
    k.REJECTING: Id003Validator._rejected,
    k.RETURNING: Id003Validator._returning,
    k.HOLDING: Id003Validator._busy,
    k.INITIALIZE: Id003Validator._busy,
    k.PAUSE: Id003Validator._busy,
    k.POWER_UP: Id003Validator._power_up,
    k.POWER_UP_BILL_IN_ACCEPTOR: Id003Validator._power_up,
    k.POWER_UP_BILL_IN_STACKER: Id003Validator._power_up,
    k.STACKER_FULL: Id003Validator._busy,
    k.STACKER_OPEN: Id003Validator._busy,
    k.JAM_IN_ACCEPTOR: Id003Validator._busy,
    k.JAM_IN_STACKER: Id003Validator._busy,
    k.CHEATED: Id003Validator._busy,
    k.FAILURE: Id003Validator._busy,
}
