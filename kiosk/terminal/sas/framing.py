"""Where a poll begins and ends on the line (sans-IO): the wakeup bit, or its pty fallback.

SAS marks the first byte of every host message (the address, or ``0x80 | address`` for a
general poll) with the **wakeup bit**, a 9th data bit.  :class:`Receiver` takes bytes one at a
time with that bit and the time they arrived, and gives back what this machine must act on:
a :class:`GeneralPoll`, a whole :class:`~kiosk.terminal.sas.wire.LongPollFrame` (CRC checked), or a
:class:`Dropped` with its :class:`DropReason` — never an exception, whatever it is fed.

Two ways to know the wakeup bit (decision 0026):

- :attr:`WakeupMode.PARITY`, a real UART: the transport reads the 9th bit as a parity error
  under space parity (:class:`ParmrkDecoder` undoes the kernel's ``PARMRK`` marking) and passes
  it in.  A byte with the bit starts a message; a byte without it while idle is noise.
- :attr:`WakeupMode.GAP`, a pseudo-terminal (no 9th bit exists): the **address-byte framing
  rule** — while no message is being received, the next byte is an address byte; a message
  ends when its length (known from its command, :func:`~kiosk.terminal.sas.wire.request_length`) is
  complete, or is abandoned when the line is quiet longer than the inter-byte limit, after which
  the next byte is again an address byte.  A message for another address, or a command whose
  length nobody knows, is skipped to its end by the same rules.

Both modes drop a message whose bytes stop for longer than ``inter_byte_limit`` (truncated).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

from kiosk.terminal.sas import wire


class WakeupMode(Enum):
    """How the start of a host message is recognised."""

    PARITY = "parity"  # the 9th bit, read through mark/space parity
    GAP = "gap"  # no 9th bit (a pty): the address-byte framing rule


class DropReason(StrEnum):
    """Why bytes from the line were not acted on (each counted)."""

    CRC = "crc"
    TRUNCATED = "truncated"
    OVERLONG = "overlong"
    UNKNOWN_COMMAND = "unknown_command"
    OTHER_ADDRESS = "other_address"
    BROADCAST = "broadcast"
    NOISE = "noise"  # a byte outside any message


@dataclass(frozen=True)
class GeneralPoll:
    """A general poll to this machine."""

    address: int


@dataclass(frozen=True)
class Broadcast:
    """A long poll to address 0 (acted on where the protocol says so; never answered)."""

    frame: wire.LongPollFrame


@dataclass(frozen=True)
class Dropped:
    """Bytes not acted on, and why."""

    reason: DropReason
    detail: str = ""


Received = GeneralPoll | wire.LongPollFrame | Broadcast | Dropped


class _State(Enum):
    IDLE = "idle"
    COLLECTING = "collecting"  # a long poll for this machine (or the broadcast address)
    SKIPPING = "skipping"  # someone else's message, or one that cannot be understood


class Receiver:
    """Bytes in, polls for ``address`` out (see the module's docstring)."""

    def __init__(
        self,
        address: int,
        mode: WakeupMode = WakeupMode.PARITY,
        *,
        inter_byte_limit: float = wire.INTER_BYTE_LIMIT_S,
    ) -> None:
        self.address = wire.check_address(address)
        self.mode = mode
        self.inter_byte_limit = inter_byte_limit
        self._state = _State.IDLE
        self._buffer = bytearray()
        self._expected: int | None = None  # length of the message being skipped or collected
        self._last_at: float | None = None

    def set_address(self, address: int) -> None:
        """Answer to ``address`` from the next message on."""
        self.address = wire.check_address(address)
        self._reset()

    def _reset(self) -> None:
        self._state = _State.IDLE
        self._buffer.clear()
        self._expected = None

    def expire(self, now: float) -> list[Received]:
        """The line has been quiet until ``now``: drop a message left incomplete."""
        if self._last_at is None or now - self._last_at <= self.inter_byte_limit:
            return []
        out: list[Received] = []
        if self._state is _State.COLLECTING:
            out.append(Dropped(DropReason.TRUNCATED, bytes(self._buffer).hex()))
        self._reset()
        return out

    def feed(self, byte: int, wakeup: bool, now: float) -> list[Received]:
        """One byte from the line (``wakeup``: its 9th bit, PARITY mode only)."""
        out = self.expire(now)
        self._last_at = now
        if self.mode is WakeupMode.GAP:
            wakeup = self._state is _State.IDLE
        if wakeup:
            if self._state is _State.COLLECTING:
                out.append(Dropped(DropReason.TRUNCATED, bytes(self._buffer).hex()))
            self._reset()
            out += self._start(byte)
            return out
        if self._state is _State.IDLE:
            out.append(Dropped(DropReason.NOISE, f"{byte:02x}"))
            return out
        self._buffer.append(byte)
        out += self._advance()
        return out

    def _start(self, byte: int) -> list[Received]:
        if byte == wire.GENERAL_POLL_BIT | self.address:
            return [GeneralPoll(self.address)]
        if byte & wire.GENERAL_POLL_BIT:  # another machine's general poll: one byte, done
            return [Dropped(DropReason.OTHER_ADDRESS, f"{byte:02x}")]
        self._buffer.append(byte)
        self._state = (
            _State.COLLECTING if byte in (self.address, wire.BROADCAST_ADDRESS) else _State.SKIPPING
        )
        return []

    def _advance(self) -> list[Received]:
        if len(self._buffer) < 2:
            return []
        if self._expected is None:
            try:
                self._expected = wire.request_length(self._buffer[1], bytes(self._buffer))
            except wire.OverlongError as exc:
                return self._give_up(DropReason.OVERLONG, str(exc))
            except wire.WireError as exc:
                return self._give_up(DropReason.UNKNOWN_COMMAND, str(exc))
            if self._expected is None:
                return []
        if len(self._buffer) < self._expected:
            return []
        frame = bytes(self._buffer)
        collecting = self._state is _State.COLLECTING
        self._reset()
        if not collecting:
            return [Dropped(DropReason.OTHER_ADDRESS, frame.hex())]
        try:
            parsed = wire.parse_long_poll(frame)
        except wire.CrcError as exc:
            return [Dropped(DropReason.CRC, str(exc))]
        except wire.WireError as exc:  # cannot happen once the length is right; counted
            return [Dropped(DropReason.TRUNCATED, str(exc))]
        if parsed.address == wire.BROADCAST_ADDRESS:
            return [Broadcast(parsed)]
        return [parsed]

    def _give_up(self, reason: DropReason, detail: str) -> list[Received]:
        """A message that cannot be understood: skip the rest of it."""
        collecting = self._state is _State.COLLECTING
        # skip the rest until the next wakeup byte (PARITY) or the line goes quiet (GAP)
        self._buffer[:] = b"\x00\x00"
        self._expected = 1 << 30
        self._state = _State.SKIPPING
        return [Dropped(reason if collecting else DropReason.OTHER_ADDRESS, detail)]


class ParmrkDecoder:
    """Undo the kernel's parity-error marking (termios ``PARMRK``) under space parity.

    With ``INPCK | PARMRK`` and space parity, a byte that arrived with its 9th bit set (the
    wakeup bit) is a parity error and reaches us as ``FF 00 byte``; a real ``FF`` byte is
    doubled (``FF FF``).  :meth:`feed` turns that stream back into (byte, wakeup) pairs, keeping
    an incomplete escape for the next call.
    """

    def __init__(self) -> None:
        self._pending = bytearray()

    def feed(self, data: bytes) -> list[tuple[int, bool]]:
        """Bytes as read from the port -> (byte, wakeup bit)."""
        stream = self._pending + data
        self._pending = bytearray()
        out: list[tuple[int, bool]] = []
        i = 0
        while i < len(stream):
            byte = stream[i]
            if byte != 0xFF:
                out.append((byte, False))
                i += 1
                continue
            if i + 1 >= len(stream):
                self._pending = bytearray(stream[i:])
                break
            if stream[i + 1] == 0xFF:
                out.append((0xFF, False))
                i += 2
                continue
            if stream[i + 1] == 0x00:
                if i + 2 >= len(stream):
                    self._pending = bytearray(stream[i:])
                    break
                out.append((stream[i + 2], True))
                i += 3
                continue
            out.append((0xFF, False))  # not an escape the kernel makes: take it as data
            i += 1
        return out
