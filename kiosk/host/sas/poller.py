"""The SAS host's poller for one gaming machine: sans-IO (bytes and time in, bytes out).

Like a casino system, the poller sends a **general poll** every ``general_interval_ms`` (200 ms
by default, the rate the implementation guides describe) and, between them, the **long polls**
its user asked for, one at a time, each answered or timed out before the next goes out.  The
caller owns the clock and the port::

    out = poller.tick(now_ms)        # bytes to send now (the first one carries the wakeup bit)
    events = poller.receive(data, now_ms)   # what arrived, as typed events
    events += poller.expire(now_ms)  # a poll whose answer did not come in time

A response is complete when its shape (:mod:`kiosk.host.sas.polls`) says so: one byte for a
general poll or an ACK/NACK, a fixed length, or the length byte of a variable response; a
long-poll response is believed only with its address, its command and a good CRC.  Anything
else, and bytes that arrive while no poll is waiting, are reported as :class:`LineNoise` and
dropped.

Implied acknowledgement: a machine takes the next poll addressed to it that differs from the
last as the acknowledgement of its answer, and the *same* poll again as a request to repeat
it.  After an exception was received, the poller therefore sends the next general poll only
after another poll (a long poll, or when nothing is queued, the general poll of the broadcast
address :data:`SYNC_ADDRESS`, which no machine answers); after a general poll that went
unanswered it repeats that general poll, so an exception the host missed comes again.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from kiosk.host.sas.polls import (
    GENERAL_POLL_FLAG,
    HostPoll,
    ResponseShape,
    ShapeKind,
)
from kiosk.terminal.sas.crc import crc_ok

#: General-poll interval of a casino system (milliseconds).
DEFAULT_GENERAL_INTERVAL_MS = 200
#: How long the host waits for the first byte and the whole of an answer (milliseconds).
DEFAULT_RESPONSE_TIMEOUT_MS = 100
#: The quiet time the host leaves between the end of one exchange and the next poll (ms).
DEFAULT_GAP_MS = 5
#: The address whose general poll no machine answers: the host's sync poll.
SYNC_ADDRESS = 0
#: The ROM signature poll, which a machine may answer to a later general poll.
ROM_SIGNATURE = 0x21
#: The busy answer a machine may give to a long poll: its address and a zero.
BUSY = 0x00


@dataclass(frozen=True)
class Transmit:
    """Bytes for the line; ``data[0]`` is an address byte sent with the wakeup bit."""

    data: bytes
    poll: HostPoll | None  # None: a general poll
    sent_ms: float


@dataclass(frozen=True)
class ExceptionReceived:
    """A general poll answered with exception ``code`` (0 = nothing to report)."""

    code: int
    latency_ms: float


@dataclass(frozen=True)
class Response:
    """A long poll answered: the whole response frame (address, command, data, CRC)."""

    poll: HostPoll
    frame: bytes
    latency_ms: float

    @property
    def body(self) -> bytes:
        """The data between the command byte and the CRC."""
        return self.frame[2:-2] if self.poll.shape.kind is not ShapeKind.ACK else b""


@dataclass(frozen=True)
class Acknowledged:
    """A long poll answered with ACK (the address) or NACK (address | 0x80)."""

    poll: HostPoll
    ack: bool
    latency_ms: float


@dataclass(frozen=True)
class Busy:
    """The machine answered a long poll with its address and 00: ask again later."""

    poll: HostPoll


@dataclass(frozen=True)
class NoResponse:
    """Nothing (or only part of an answer) came within the response timeout."""

    poll: HostPoll | None
    received: bytes


@dataclass(frozen=True)
class BadResponse:
    """An answer that cannot be believed (wrong address or command, bad CRC)."""

    poll: HostPoll | None
    frame: bytes
    reason: str


@dataclass(frozen=True)
class LineNoise:
    """Bytes that arrived while no poll was waiting for them."""

    data: bytes


HostEvent = (
    ExceptionReceived | Response | Acknowledged | Busy | NoResponse | BadResponse | LineNoise
)


@dataclass
class _Waiting:
    transmit: Transmit
    deadline_ms: float
    buffer: bytearray


class HostPoller:
    """Polls one SAS address: general polls on schedule, queued long polls in between."""

    def __init__(
        self,
        address: int,
        *,
        general_interval_ms: int = DEFAULT_GENERAL_INTERVAL_MS,
        response_timeout_ms: int = DEFAULT_RESPONSE_TIMEOUT_MS,
        gap_ms: int = DEFAULT_GAP_MS,
        start_ms: float = 0,
    ) -> None:
        if not 1 <= address <= 127:
            raise ValueError(f"a SAS address is 1..127, not {address}")
        self.address = address
        self.general_interval_ms = general_interval_ms
        self.response_timeout_ms = response_timeout_ms
        self.gap_ms = gap_ms
        self._queue: deque[HostPoll] = deque()
        self._waiting: _Waiting | None = None
        self._next_general_ms = start_ms
        self._quiet_until_ms = start_ms
        self._last_sent: bytes = b""
        self._need_sync = False
        self._repeat_general = False
        self._signature_poll: HostPoll | None = None  # a 21 the machine answers later

    # -- what the user asks for ----------------------------------------------------------------
    def ask(self, poll: HostPoll, *, first: bool = False) -> None:
        """Queue ``poll`` for this machine (``first``: ahead of the others)."""
        if first:
            self._queue.appendleft(poll)
        else:
            self._queue.append(poll)

    @property
    def queued(self) -> int:
        """Long polls not yet sent."""
        return len(self._queue)

    @property
    def busy(self) -> bool:
        """Whether a poll is waiting for its answer."""
        return self._waiting is not None

    def next_wakeup_ms(self) -> float:
        """When :meth:`tick` or :meth:`expire` next has something to do."""
        if self._waiting is not None:
            return self._waiting.deadline_ms
        if self._queue or self._need_sync:
            return self._quiet_until_ms
        return max(self._quiet_until_ms, self._next_general_ms)

    # -- the clock -------------------------------------------------------------------------------
    def tick(self, now_ms: float) -> Transmit | None:
        """The next poll to send now, if any."""
        if self._waiting is not None or now_ms < self._quiet_until_ms:
            return None
        if self._queue:
            frame = self._queue[0].frame(self.address)
            if frame != self._last_sent:
                poll = self._queue.popleft()
                return self._send(frame, poll, now_ms, self.response_timeout_ms)
            # the same long poll twice in a row asks the machine to repeat its last answer
            # (implied NACK): a general poll between them makes the second a new question
            return self._general(now_ms)
        if self._need_sync:  # acknowledge the last exception before the next general poll
            self._need_sync = False
            sync = bytes([GENERAL_POLL_FLAG | SYNC_ADDRESS])
            self._last_sent = sync
            self._quiet_until_ms = now_ms + self.gap_ms
            return Transmit(sync, None, now_ms)
        if now_ms >= self._next_general_ms or self._repeat_general:
            return self._general(now_ms)
        return None

    def _general(self, now_ms: float) -> Transmit:
        self._repeat_general = False
        self._next_general_ms = now_ms + self.general_interval_ms
        poll_byte = bytes([GENERAL_POLL_FLAG | self.address])
        return self._send(poll_byte, None, now_ms, self.response_timeout_ms)

    def expire(self, now_ms: float) -> list[HostEvent]:
        """A poll whose answer is overdue: :class:`NoResponse` (or a partial answer's end)."""
        waiting = self._waiting
        if waiting is None or now_ms < waiting.deadline_ms:
            return []
        self._finish(now_ms)
        poll = waiting.transmit.poll
        if poll is None:
            self._repeat_general = True  # an unanswered general poll is repeated (implied NACK)
        elif poll.code == ROM_SIGNATURE and not waiting.buffer:
            self._signature_poll = poll  # computed in the background: comes to a general poll
        return [NoResponse(poll, bytes(waiting.buffer))]

    # -- the line --------------------------------------------------------------------------------
    def receive(self, data: bytes, now_ms: float) -> list[HostEvent]:
        """Bytes from the machine: the events they complete."""
        events: list[HostEvent] = []
        for index, byte in enumerate(data):
            waiting = self._waiting
            if waiting is None:
                events.append(LineNoise(data[index:]))
                break
            waiting.buffer.append(byte)
            event = self._complete(waiting, now_ms)
            if event is not None:
                events.append(event)
                self._finish(now_ms)
        return events

    # -- internals ---------------------------------------------------------------------------
    def _send(self, data: bytes, poll: HostPoll | None, now_ms: float, timeout: int) -> Transmit:
        transmit = Transmit(data, poll, now_ms)
        self._waiting = _Waiting(transmit, now_ms + timeout, bytearray())
        self._last_sent = data
        return transmit

    def _finish(self, now_ms: float) -> None:
        self._waiting = None
        self._quiet_until_ms = now_ms + self.gap_ms

    def _complete(self, waiting: _Waiting, now_ms: float) -> HostEvent | None:
        buffer = bytes(waiting.buffer)
        latency = float(now_ms - waiting.transmit.sent_ms)
        poll = waiting.transmit.poll
        if poll is None and self._signature_poll is not None and buffer[0] == self.address:
            return self._late_signature(buffer, latency)
        if poll is None:  # general poll: one byte, the exception code
            code = buffer[0]
            if code != 0:
                self._need_sync = True
            return ExceptionReceived(code, latency)
        address = self.address
        if len(buffer) == 1 and buffer[0] == address | 0x80:
            return Acknowledged(poll, False, latency)
        if buffer[0] != address:
            return BadResponse(poll, buffer, f"answer from address {buffer[0]:#04x}")
        if poll.shape.kind is ShapeKind.ACK:
            return Acknowledged(poll, True, latency)
        if len(buffer) < 2:
            return None
        if buffer[1] == BUSY and poll.code != BUSY:
            return Busy(poll)
        if buffer[1] != poll.code:
            return BadResponse(poll, buffer, f"answer to command {buffer[1]:#04x}")
        total = _expected_length(poll.shape, buffer)
        if total is None or len(buffer) < total:
            return None
        if not crc_ok(buffer):
            return BadResponse(poll, buffer, "bad CRC")
        return Response(poll, buffer, latency)

    def _late_signature(self, buffer: bytes, latency: float) -> HostEvent | None:
        """The answer to an earlier 21, given to a general poll once computed."""
        poll = self._signature_poll
        assert poll is not None
        if len(buffer) < 2:
            return None
        if buffer[1] != ROM_SIGNATURE:
            return BadResponse(None, buffer, f"answer to command {buffer[1]:#04x}")
        if len(buffer) < poll.shape.length:
            return None
        self._signature_poll = None
        if not crc_ok(buffer):
            return BadResponse(poll, buffer, "bad CRC")
        return Response(poll, buffer, latency)


def _expected_length(shape: ResponseShape, buffer: bytes) -> int | None:
    """Total bytes of the response, once enough of it is in to know."""
    if shape.kind is ShapeKind.FIXED:
        return shape.length
    if len(buffer) < 3:
        return None
    return 3 + buffer[2] + 2  # address, command, length byte, data, CRC
