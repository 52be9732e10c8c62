"""The host side of a CPI (MEI) acceptor over EBDS: a
:class:`~kiosk.terminal.bridge.native.NativeValidator`.

The host sends an omnibus command every ``poll_interval_ms`` (at once when the bridge asks for
something), toggling the ACK bit for each new message; a reply counts only with the same ACK
bit.  Without one within ``reply_timeout_ms`` the same message goes again, up to ``retries``
times; then the link is down and the host keeps trying.  Escrow mode is always on: an escrowed
note or ticket stays until the bridge stacks or returns it (EBDS has no hold time-out to feed,
so :meth:`hold` does nothing).  Standard omnibus replies and extended barcode replies are read.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.terminal.bridge.ebds import escrow
from kiosk.terminal.bridge.ebds.codes import (
    BARCODE_FILL,
    BARCODE_LEN,
    EXT_BARCODE_REPLY,
    NOTE_MASK,
    NOTE_SHIFT,
    S1,
    S2,
    Config,
    MsgType,
    Ops,
)
from kiosk.terminal.bridge.ebds.frame import Decoder, Message, encode
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
    RejectCause,
    SerialSettings,
    TicketEscrowed,
)

#: The usual US dollar table: denomination index 1-7 in cents.
USD_DENOMINATIONS = (100, 200, 500, 1000, 2000, 5000, 10000)


@dataclass(frozen=True)
class Status:
    """The six status bytes of a reply, and the barcode of an extended barcode reply."""

    s0: int
    s1: int
    s2: int
    s3: int
    model: int
    revision: int
    barcode: str = ""


def parse_reply(message: Message) -> Status | None:
    """The status in a device reply (standard or extended barcode), else None."""
    data = message.data
    if message.msg_type == MsgType.DEVICE_REPLY and len(data) == 6:
        return Status(data[0], data[1], data[2], data[3], data[4], data[5])
    extended = message.msg_type == MsgType.EXTENDED and len(data) == 7 + BARCODE_LEN
    if extended and data[0] == EXT_BARCODE_REPLY:
        code = data[7:].rstrip(bytes([BARCODE_FILL])).decode("ascii", "replace")
        return Status(data[1], data[2], data[3], data[4], data[5], data[6], code)
    return None


class EbdsValidator:
    """A CPI/MEI bill acceptor (SC Advance, SCN, Cashflow family) over EBDS."""

    settings = SerialSettings(baudrate=9600, parity="E", stopbits=1, bytesize=7)

    def __init__(
        self,
        *,
        denominations: tuple[int, ...] = USD_DENOMINATIONS,
        poll_interval_ms: int = 200,
        reply_timeout_ms: int = 500,
        retries: int = 3,
    ) -> None:
        if len(denominations) > 7:
            raise ValueError("EBDS has seven denomination indices")
        self.denominations = denominations
        self._poll_ms = poll_interval_ms
        self._timeout_ms = reply_timeout_ms
        self._retries = retries
        self._decoder = Decoder()
        self._events: list[NativeEvent] = []
        self._ack = 0
        self._awaiting = False
        self._sent = b""
        self._sent_at = 0
        self._tries = 0
        self._next_at = 0
        self._link_up = False
        self._enables = 0
        self._tickets = False
        self._decision = 0  # Ops.STACK, Ops.RETURN or 0
        self.state = escrow.State.IDLE
        self._condition: Condition | None = None
        self._identified: tuple[int, int] | None = None
        self._path_clear = False  # PathClear reported since the link came up and the path idled
        self._path_unknown = True  # since the link came up, no item followed and no PathClear
        self.dropped_replies = 0

    # NativeValidator
    def enable(self, note_values: tuple[int, ...], tickets: bool) -> None:
        self._enables = sum(1 << i for i, v in enumerate(self.denominations) if v in note_values)
        self._tickets = tickets
        self._next_at = 0

    def disable(self) -> None:
        self._enables = 0
        self._tickets = False
        self._next_at = 0

    def stack(self) -> None:
        """Stack the item in escrow; nothing once it is being returned."""
        if self.state is escrow.State.ESCROW and not self._decision:
            self._decision = Ops.STACK
            self._next_at = 0

    def return_item(self) -> None:
        """Return the item in escrow; nothing once it is being stacked."""
        if self.state is escrow.State.ESCROW and not self._decision:
            self._decision = Ops.RETURN
            self._next_at = 0

    def hold(self) -> None:
        """EBDS keeps an escrowed item until the host decides: nothing to send."""

    def events(self) -> list[NativeEvent]:
        out, self._events = self._events, []
        return out

    def transmit(self, now_ms: int) -> bytes:
        if self._awaiting:
            if now_ms - self._sent_at < self._timeout_ms:
                return b""
            self._tries += 1
            if self._tries <= self._retries:
                self._sent_at = now_ms
                return self._sent
            self._awaiting = False
            if self._link_up:
                self._link_up = False
                self._condition = None
                self._events.append(LinkChanged(up=False))
        if now_ms < self._next_at:
            return b""
        self._next_at = now_ms + self._poll_ms
        ops = Ops.ESCROW | Ops.ORIENTATION_ANY | self._decision
        config = Config.BARCODE if self._tickets else 0
        data = bytes([self._enables & 0x7F, int(ops), int(config)])
        self._sent = encode(Message(MsgType.HOST_OMNIBUS, self._ack, data))
        self._awaiting = True
        self._tries = 0
        self._sent_at = now_ms
        return self._sent

    def receive(self, data: bytes, now_ms: int) -> None:
        for message in self._decoder.feed(data, now_ms):
            status = parse_reply(message)
            if not self._awaiting or status is None or message.ack != self._ack:
                self.dropped_replies += 1
                continue
            self._awaiting = False
            self._ack ^= 1
            self._on_status(status)

    # internals
    def _on_status(self, st: Status) -> None:
        if not self._link_up:
            self._link_up = True
            self._path_clear = False  # the first idle reply reports PathClear
            self._path_unknown = self.state is escrow.State.IDLE
            self._events.append(LinkChanged(up=True))
        if self._identified != (st.model, st.revision) or st.s2 & S2.POWER_UP:
            self._identified = (st.model, st.revision)
            model = chr(st.model) if 0x20 < st.model < 0x7F else f"{st.model:#04x}"
            self._events.append(Identified(f"EBDS model {model}", "", f"{st.revision}"))
        if st.s2 & S2.POWER_UP and self.state is not escrow.State.IDLE:
            # a power cycle mid-item: no stacked report, so no credit (the cash-box
            # reconciliation shows a note that did reach the box)
            if self.state in (escrow.State.ESCROW, escrow.State.STACKING, escrow.State.RETURNING):
                self._events.append(ItemReturned())
            self.state = escrow.State.IDLE
            self._decision = 0
        toks = escrow.tokens(st.s0, st.s1)
        for tok in toks:
            self._advance(tok, st)
        if self.state is not escrow.State.ESCROW:
            self._decision = 0
        self._report_path(toks)
        self._update_condition(st)

    def _report_path(self, toks: list[escrow.Token]) -> None:
        """PathClear at the first reply that says the acceptor idles (and nothing else of an
        item) while the host follows none: after the link came up, and again after each item."""
        idle = toks == [escrow.Token.IDLING] and self.state is escrow.State.IDLE
        if not idle:
            self._path_clear = False
        elif not self._path_clear:
            self._path_clear, self._path_unknown = True, False
            self._events.append(PathClear())

    def _advance(self, tok: escrow.Token, st: Status) -> None:
        was = self.state
        self.state, action = escrow.step(self.state, tok)
        if self.state is not escrow.State.IDLE:
            self._path_unknown = False
        elif self._path_unknown and was is escrow.State.IDLE and action is escrow.Action.NONE:
            # an item this host never saw (it started while one was in the path): where it
            # went is still news to a bridge that journaled it
            action = escrow.UNSEEN_ITEM.get(tok, action)
        if action is escrow.Action.ESCROWED:
            if st.barcode:
                self._events.append(TicketEscrowed(st.barcode))
            else:
                index = (st.s2 & NOTE_MASK) >> NOTE_SHIFT
                known = 0 < index <= len(self.denominations)
                self._events.append(NoteEscrowed(self.denominations[index - 1] if known else 0))
        elif action is escrow.Action.STACKED:
            self._events.append(ItemStacked())
        elif action is escrow.Action.RETURNED:
            self._events.append(ItemReturned())
        elif action is escrow.Action.REJECTED:
            self._events.append(ItemRejected(RejectCause.NOT_RECOGNISED))

    def _update_condition(self, st: Status) -> None:
        condition = Condition(
            enabled=bool(self._enables or self._tickets),
            jammed=bool(st.s1 & S1.JAMMED),
            cashbox_full=bool(st.s1 & S1.STACKER_FULL),
            cashbox_removed=not st.s1 & S1.CASSETTE_ATTACHED,
            cheated=bool(st.s1 & S1.CHEATED),
            failure="device failure" if st.s2 & S2.FAILURE else "",
        )
        if condition != self._condition:
            self._condition = condition
            self._events.append(condition)
