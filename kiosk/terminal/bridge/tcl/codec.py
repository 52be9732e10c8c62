"""TCL framing, sans-IO.

The host sends ``^`` command ``|`` field ``|`` ... ``|^`` (e.g. ``^S|^``, a status request);
the printer answers ``*`` response ``|`` field ``|`` ... ``|*`` (e.g. ``*S|0|...|*``).  Fields are
printable ASCII without ``|``, ``^`` or ``*`` (:func:`clean` makes text so).  The decoder takes
bytes in any split, skips noise up to the next start character and drops a message longer than
:data:`MAX_MESSAGE`; it never raises.
"""

from __future__ import annotations

from dataclasses import dataclass, field

COMMAND, RESPONSE, SEPARATOR = ord("^"), ord("*"), ord("|")
MAX_MESSAGE = 1024


@dataclass(frozen=True)
class Message:
    """One TCL message: its letter (``S``, ``P``...) and its fields."""

    code: str
    fields: tuple[str, ...] = ()
    raw: bytes = field(default=b"", compare=False, repr=False)  # the body as it came


def clean(text: str) -> str:
    """``text`` as a TCL field: printable ASCII, the delimiters replaced by spaces."""
    out = "".join(c if 32 <= ord(c) < 127 else "?" for c in text)
    return out.replace("|", " ").replace("^", " ").replace("*", " ")


def encode(message: Message, *, response: bool = False) -> bytes:
    """``^CODE|f1|...|^`` (a command) or ``*CODE|f1|...|*`` (a response)."""
    mark = "*" if response else "^"
    body = "|".join((message.code, *(clean(f) for f in message.fields)))
    return f"{mark}{body}|{mark}".encode("ascii")


@dataclass
class DecoderStats:
    """What the decoder threw away."""

    noise: int = 0  # bytes outside any message
    oversize: int = 0
    malformed: int = 0


@dataclass
class Decoder:
    """Messages out of a byte stream: ``start`` is ``^`` (the printer's side) or ``*`` (the
    host's side)."""

    start: int
    stats: DecoderStats = field(default_factory=DecoderStats)
    _buf: bytearray = field(default_factory=bytearray)

    def feed(self, data: bytes) -> list[Message]:
        """Every message ``data`` completes, in order."""
        self._buf += data
        buf, out = self._buf, []
        while buf:
            if buf[0] != self.start:
                at = buf.find(self.start)
                skipped = len(buf) if at < 0 else at
                self.stats.noise += skipped
                del buf[:skipped]
                continue
            end = buf.find(bytes([SEPARATOR, self.start]), 1)
            if end < 0:
                if len(buf) > MAX_MESSAGE:
                    self.stats.oversize += 1
                    del buf[:1]
                    continue
                break
            body = bytes(buf[1:end])
            del buf[: end + 2]
            message = _parse(body)
            if message is None:
                self.stats.malformed += 1
            else:
                out.append(message)
        return out

    def reset(self) -> None:
        """Forget a partial message."""
        self._buf.clear()


def _parse(body: bytes) -> Message | None:
    if not body or any(b < 32 or b > 127 for b in body) or len(body) > MAX_MESSAGE:
        return None
    code, *fields = body.decode("ascii").split("|")
    if len(code) != 1 or not code.isalpha():
        return None
    return Message(code, tuple(fields), body)
