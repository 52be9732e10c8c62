"""The reliable device link: sessions, sequence numbers, acks, retransmission (sans-IO).

Both ends of a serial link run one :class:`Link`.  It takes bytes from the line and the time,
and gives back bytes for the line and events (:class:`Delivered`, :class:`LinkUp`,
:class:`LinkDown`).  It never reads a clock, sleeps or touches a port: the transport calls
:meth:`Link.receive` with what it read, :meth:`Link.tick` now and then, and writes
:meth:`Link.data_to_send`.

Protocol (docs/devices.md has the full description):

- every packet is a ``LinkPacket`` (proto/turbokiosk/v1/device.proto), sealed with
  ChaCha20-Poly1305 under keys derived from the device's pairing key
(:mod:`kiosk.terminal.devices.seal`),
  in one frame (:mod:`kiosk.terminal.devices.framing`).  A frame with a good CRC that does not open
  (rewritten, forged, reflected), or that is not newer than the last one heard from its sender
  (replayed, reordered), is refused and reported as :class:`Tampered`; a bad CRC, or a good
  one around something too short to be sealed, is line noise (counted);
- each end draws a random *session* id when it starts.  A packet names the sender's session and
  the receiver's session as the sender knows it; one that names an earlier session of the
  receiver is stale and dropped (a hello is still heard).  A ``hello`` from a new session
  means the peer restarted: the receiver adopts it and numbers afresh (what it had not yet got
  acknowledged was meant for the old peer and is set aside: the application resynchronises on
  :class:`LinkUp`).  Each end remembers the numbering of the last peer sessions it knew: a
  session it returns to (a late or replayed frame made it switch) resumes where it was, so
  replayed frames of any earlier session are duplicates, never delivered twice.  While its peer
  is alive an end ignores hellos that do not know it; once the peer falls silent it listens;
- data packets are numbered 1, 2, 3 ... and delivered exactly once and in order (go-back-N):
  a duplicate or replay is dropped and re-acknowledged, a packet out of order is dropped and
  comes again with the retransmission;
- acknowledgements are cumulative and ride on every packet; an idle end sends a heartbeat, and
  an end that hears nothing for ``link_timeout_ms`` reports :class:`LinkDown` and probes with
  hellos until the peer answers.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass, field

from google.protobuf.message import DecodeError

from kiosk.terminal.devices.framing import MAX_PAYLOAD, FrameDecoder, encode_frame
from kiosk.terminal.devices.seal import OVERHEAD, LinkSeal, Refusal, Role
from proto.turbokiosk.v1.device_pb2 import LinkPacket

MASK = 0xFFFFFFFF
HALF = 1 << 31


def seq_after(a: int, b: int) -> bool:
    """Serial-number arithmetic (RFC 1982) on 32 bits: ``a`` comes after ``b``."""
    return a != b and ((a - b) & MASK) < HALF


def seq_add(a: int, n: int) -> int:
    """``a + n`` modulo 2^32, skipping 0 (which means "no data")."""
    value = (a + n) & MASK
    return value if value else 1


@dataclass(frozen=True)
class LinkConfig:
    """Timings (milliseconds) and sizes of a link."""

    retransmit_ms: int = 250
    heartbeat_ms: int = 400
    link_timeout_ms: int = 2000
    window: int = 4
    max_payload: int = MAX_PAYLOAD
    remembered_sessions: int = 32


@dataclass(frozen=True)
class Delivered:
    """A payload from the peer (exactly once, in order)."""

    payload: bytes


@dataclass(frozen=True)
class LinkUp:
    """Both ends know each other's session; ``new_peer`` when the peer's session is new."""

    new_peer: bool


@dataclass(frozen=True)
class LinkDown:
    """Nothing heard from the peer for too long."""

    reason: str


@dataclass(frozen=True)
class Tampered:
    """A frame with a good CRC was refused as tampering (``count``: all such so far)."""

    count: int
    reason: str


LinkEvent = Delivered | LinkUp | LinkDown | Tampered


@dataclass
class LinkStats:
    """Counters of everything the link dropped or repeated (the decoder's are separate)."""

    packets_in: int = 0
    packets_out: int = 0
    malformed: int = 0  # authentic but not a LinkPacket, or inconsistent fields
    tampered: int = 0  # good CRC, refused by the seal: forged, rewritten, replayed, reordered
    forged: int = 0  # ... of which failed authentication
    unsealed: int = 0  # good CRC but not shaped like a sealed packet (noise, not tampering)
    replayed: int = 0  # ... of which authentic but not newer than what was heard
    stale: int = 0  # addressed to an earlier session of ours, or a hello while connected
    duplicates: int = 0  # data already delivered (replay or retransmission)
    out_of_order: int = 0  # data ahead of the next expected packet
    bogus_acks: int = 0  # acknowledging data never sent
    retransmissions: int = 0
    peer_restarts: int = 0  # switches to another peer session
    dropped_on_restart: int = 0  # payloads set aside with a peer session that was left
    delivered: int = 0


@dataclass
class _PeerState:
    """Numbering and pending data towards one peer session."""

    expected: int = 1  # next data seq from the peer
    last_delivered: int = 0  # what we acknowledge
    next_seq: int = 1  # our next data seq
    unacked: deque[tuple[int, bytes]] = field(default_factory=deque)
    queue: deque[bytes] = field(default_factory=deque)
    confirmed: bool = False  # we were connected with it


class Link:
    """One end of a device link."""

    def __init__(
        self,
        session: int,
        now: int,
        config: LinkConfig | None = None,
        *,
        key: bytes,
        role: Role,
        counter_start: int | None = None,
    ) -> None:
        if not 0 < session <= MASK:
            raise ValueError("a session id is a non-zero 32-bit number")
        self.config = config or LinkConfig()
        self.session = session
        self.seal = LinkSeal(key, role, session, counter_start=counter_start)
        self.peer = 0  # the peer's session, 0 while unknown
        self.connected = False  # the peer knows our session and we know its
        self.stats = LinkStats()
        self.decoder = FrameDecoder(self.frame_limit)
        self._known: OrderedDict[int, _PeerState] = OrderedDict()  # earlier peer sessions
        self._confirmed = False
        self._out = bytearray()
        self._events: list[LinkEvent] = []
        self._expected = 1  # next data seq from the peer
        self._last_delivered = 0  # what we acknowledge
        self._next_seq = 1  # our next data seq
        self._unacked: deque[tuple[int, bytes]] = deque()
        self._queue: deque[bytes] = deque()
        self._timer: int | None = None  # when the oldest unacked packet was (re)sent
        self._last_rx = now
        self._last_tx = now - self.config.heartbeat_ms
        self._last_hello: int | None = None
        self._last_up_peer = 0
        self.tick(now)

    # --- the application's side ----------------------------------------------------------

    def send(self, payload: bytes, now: int) -> None:
        """Queue a payload for reliable, in-order delivery."""
        if len(payload) > self.config.max_payload:
            raise ValueError(f"payload of {len(payload)} bytes exceeds {self.config.max_payload}")
        self._queue.append(payload)
        self._pump(now)

    def events(self) -> list[LinkEvent]:
        """Events since the last call."""
        out, self._events = self._events, []
        return out

    def data_to_send(self) -> bytes:
        """Bytes for the line since the last call."""
        out = bytes(self._out)
        self._out.clear()
        return out

    @property
    def frame_limit(self) -> int:
        """The largest frame payload this link sends or takes (a sealed packet)."""
        return self.config.max_payload + 64 + OVERHEAD

    @property
    def pending(self) -> int:
        """Payloads not yet acknowledged by the peer."""
        return len(self._unacked) + len(self._queue)

    def next_deadline(self) -> int:
        """The latest time :meth:`tick` should next be called."""
        cfg = self.config
        if not self.connected:
            # only the next hello is due: the link time-out, the heartbeat and the
            # retransmission wait for a peer (counting them made a loop that never heard its
            # peer wake at once, forever: a busy spin)
            return 0 if self._last_hello is None else self._last_hello + cfg.retransmit_ms
        times = [self._last_tx + cfg.heartbeat_ms, self._last_rx + cfg.link_timeout_ms]
        if self._timer is not None:
            times.append(self._timer + cfg.retransmit_ms)
        return min(times)

    # --- the line's side -----------------------------------------------------------------

    def receive(self, data: bytes, now: int) -> None:
        """Bytes read from the line."""
        for frame in self.decoder.feed(data):
            self._packet(frame, now)
        self._pump(now)

    def tick(self, now: int) -> None:
        """Timers: hellos, retransmission, heartbeat, link loss."""
        cfg = self.config
        if self.connected and now - self._last_rx >= cfg.link_timeout_ms:
            self.connected = False
            self._events.append(LinkDown(f"nothing heard for {now - self._last_rx} ms"))
        if not self.connected:
            if self._last_hello is None or now - self._last_hello >= cfg.retransmit_ms:
                self._emit(now, hello=True)
                self._last_hello = now
            return
        if self._timer is not None and now - self._timer >= cfg.retransmit_ms:
            self._retransmit(now)
        self._pump(now)
        if now - self._last_tx >= cfg.heartbeat_ms:
            self._emit(now)

    # --- inside ------------------------------------------------------------------------------

    def _packet(self, frame: bytes, now: int) -> None:
        opened = self.seal.open(frame)
        if isinstance(opened, Refusal):
            self._refused(opened)
            return
        pkt = LinkPacket()
        try:
            pkt.ParseFromString(opened.packet)
        except DecodeError:
            self.stats.malformed += 1
            return
        if (
            pkt.session == 0
            or (pkt.seq == 0) != (not pkt.payload)
            or (pkt.session, pkt.peer_session) != (opened.sender, opened.receiver)
        ):
            self.stats.malformed += 1
            return
        self.stats.packets_in += 1
        if pkt.peer_session not in (0, self.session) and not pkt.hello:
            self.stats.stale += 1  # meant for an earlier session of ours
            return
        reply = pkt.hello  # a hello is answered at once: the peer learns our session
        if pkt.session != self.peer:
            knows_us = pkt.peer_session == self.session
            if not (pkt.hello or knows_us):
                self.stats.stale += 1
                return
            if not knows_us and self.connected:
                # a hello that does not know us, while our peer is alive: a replayed old
                # frame, or the peer restarted (then ours falls silent and we adopt it soon)
                self.stats.stale += 1
                return
            self._adopt(pkt.session)
            reply = True
        elif pkt.peer_session == 0 and not pkt.hello:
            self.stats.stale += 1
            return
        self._last_rx = now
        if reply:
            self._emit(now)
        if pkt.peer_session != self.session:
            return  # the peer does not know us yet: its ack and data mean nothing to us
        if not self.connected:
            self.connected = True
            self._events.append(LinkUp(new_peer=self.peer != self._last_up_peer))
            self._last_up_peer = self.peer
            self._confirmed = True
            if self._unacked:
                self._retransmit(now)
        self._ack(pkt.ack, now)
        if pkt.seq:
            self._data(pkt.seq, pkt.payload, now)

    def _refused(self, refusal: Refusal) -> None:
        if refusal is Refusal.MALFORMED:  # nothing sealed: noise that passed the CRC
            self.stats.unsealed += 1
            return
        self.stats.tampered += 1
        if refusal is Refusal.REPLAYED:
            self.stats.replayed += 1
        else:
            self.stats.forged += 1
        self._events.append(Tampered(self.stats.tampered, refusal.value))

    def _adopt(self, session: int) -> None:
        carry: deque[bytes] = deque()
        if not self._confirmed:  # nothing was sent to it: its queue is for whoever answers
            carry, self._queue = self._queue, deque()
        if self.peer:
            self.stats.peer_restarts += 1
            if self._confirmed:
                self.stats.dropped_on_restart += len(self._unacked) + len(self._queue)
            self._known[self.peer] = _PeerState(
                self._expected,
                self._last_delivered,
                self._next_seq,
                self._unacked,
                self._queue,
                self._confirmed,
            )
            while len(self._known) > self.config.remembered_sessions:
                self._known.popitem(last=False)
        state = self._known.pop(session, None) or _PeerState()
        self.peer = session
        self.connected = False
        self._expected = state.expected
        self._last_delivered = state.last_delivered
        self._next_seq = state.next_seq
        self._unacked = state.unacked
        self._queue = state.queue
        self._queue.extend(carry)
        self._confirmed = state.confirmed
        self._timer = None

    def _ack(self, ack: int, now: int) -> None:
        if not self._unacked:
            return
        first = self._unacked[0][0]
        last = self._unacked[-1][0]
        if seq_after(ack, last) or seq_after(first, seq_add(ack, 1)):
            if ack != 0 and seq_after(ack, last):
                self.stats.bogus_acks += 1
            return
        progress = False
        while self._unacked and not seq_after(self._unacked[0][0], ack):
            self._unacked.popleft()
            progress = True
        if progress:
            self._timer = now if self._unacked else None

    def _data(self, seq: int, payload: bytes, now: int) -> None:
        if seq == self._expected:
            self._expected = seq_add(seq, 1)
            self._last_delivered = seq
            self.stats.delivered += 1
            self._events.append(Delivered(payload))
        elif seq_after(seq, self._expected):
            self.stats.out_of_order += 1
        else:
            self.stats.duplicates += 1
        self._emit(now)  # acknowledge (again)

    def _pump(self, now: int) -> None:
        if not self.connected:
            return
        while self._queue and len(self._unacked) < self.config.window:
            payload = self._queue.popleft()
            seq = self._next_seq
            self._next_seq = seq_add(seq, 1)
            self._unacked.append((seq, payload))
            self._emit(now, seq=seq, payload=payload)
            if self._timer is None:
                self._timer = now

    def _retransmit(self, now: int) -> None:
        for seq, payload in self._unacked:
            self.stats.retransmissions += 1
            self._emit(now, seq=seq, payload=payload)
        self._timer = now

    def _emit(self, now: int, *, hello: bool = False, seq: int = 0, payload: bytes = b"") -> None:
        pkt = LinkPacket(
            session=self.session,
            peer_session=self.peer,
            seq=seq,
            ack=self._last_delivered,
            hello=hello,
            payload=payload,
        )
        sealed = self.seal.seal(self.peer, pkt.SerializeToString())
        self._out += encode_frame(sealed, self.frame_limit)
        self.stats.packets_out += 1
        self._last_tx = now
