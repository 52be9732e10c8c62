"""Sealed link packets: ChaCha20-Poly1305 under keys derived from the device's pairing key.

Every packet of a device link (:mod:`kiosk.terminal.devices.link`) travels sealed inside its frame::

    header  = version (1) || sender session (4) || receiver session (4) || counter (8)
    payload = header || ChaCha20-Poly1305(key, nonce = sender session || counter,
                                          plaintext = LinkPacket, associated data = header)

The header is sent in the clear (the receiver needs it to find the key) and authenticated as
associated data.  Keys come from the 256-bit pairing key with HKDF-SHA-256:

- a packet whose receiver session is 0 (a hello to a peer not yet known) is sealed under the
  sender role's *hello key*;
- every other packet under the *session key* of (sender role, sender session, receiver session).

The sender role (terminal or device) is part of every key, so a frame reflected back to its
sender never opens.  Each end numbers everything it sends from a random 62-bit start (the
counter), so a nonce is never used twice under one key; the receiver remembers the highest
counter of every peer session it heard and refuses any frame that does not go beyond it: a
replayed, reordered or duplicated frame is refused.  An honest line never carries a frame that
fails authentication or replays, so those refusals are tampering; a frame that is not even
shaped like a sealed packet (too short, another version) is refused as malformed: a line glitch
can make one (the empty payload's frame is five 0x01 bytes), and it can carry nothing.  A frame
that opens but is addressed to an earlier session of ours (a late frame, or a replay from
before our restart) is the link's to judge (it is stale there, and is never delivered).  No
refusal raises: :meth:`LinkSeal.open` says why.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass
from enum import Enum

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

VERSION = 1
HEADER_BYTES = 17
TAG_BYTES = 16
#: bytes sealing adds to a packet
OVERHEAD = HEADER_BYTES + TAG_BYTES
KEY_BYTES = 32
_SALT = b"turbokiosk device link v1"
_COUNTER_LIMIT = (1 << 64) - 1


class Role(Enum):
    """Which end of a device link: the terminal, or the peripheral."""

    TERMINAL = b"T"
    DEVICE = b"D"

    @property
    def peer(self) -> Role:
        """The other end's role."""
        return Role.DEVICE if self is Role.TERMINAL else Role.TERMINAL


class Refusal(Enum):
    """Why a frame with a good CRC was not opened."""

    MALFORMED = "not a sealed packet"  # too short, or an unknown version: not tampering
    FORGED = "failed authentication"  # rewritten, forged, reflected or under another key
    REPLAYED = "replayed or reordered"  # authentic, but not newer than what was heard


@dataclass(frozen=True)
class Opened:
    """An authentic packet: who sent it to whom, and the plaintext."""

    sender: int
    receiver: int
    packet: bytes


def _derive(key: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=KEY_BYTES, salt=_SALT, info=info).derive(key)


class LinkSeal:
    """One end's sealing and opening (sans-IO: bytes in, bytes out)."""

    def __init__(
        self,
        pairing_key: bytes,
        role: Role,
        session: int,
        *,
        counter_start: int | None = None,
        remembered_peers: int = 64,
    ) -> None:
        if len(pairing_key) != KEY_BYTES:
            raise ValueError(f"a pairing key is {KEY_BYTES} bytes, not {len(pairing_key)}")
        self._key = pairing_key
        self.role = role
        self.session = session
        self.counter = secrets.randbits(62) if counter_start is None else counter_start
        self._remembered = remembered_peers
        self._hello_out = ChaCha20Poly1305(_derive(pairing_key, b"hello|" + role.value))
        self._hello_in = ChaCha20Poly1305(_derive(pairing_key, b"hello|" + role.peer.value))
        self._session_keys: OrderedDict[tuple[bytes, int, int], ChaCha20Poly1305] = OrderedDict()
        self._highest: OrderedDict[int, int] = OrderedDict()  # peer session -> highest counter

    def seal(self, receiver: int, packet: bytes) -> bytes:
        """The sealed form of ``packet`` for the peer session ``receiver`` (0: unknown)."""
        self.counter += 1
        if self.counter > _COUNTER_LIMIT:  # 2^62 frames: never on a serial line
            raise OverflowError("link counter exhausted: restart the link")
        header = (
            bytes([VERSION])
            + self.session.to_bytes(4, "big")
            + receiver.to_bytes(4, "big")
            + self.counter.to_bytes(8, "big")
        )
        aead = (
            self._hello_out if receiver == 0 else self._key_for(self.role, self.session, receiver)
        )
        return header + aead.encrypt(header[1:5] + header[9:17], packet, header)

    def open(self, frame: bytes) -> Opened | Refusal:
        """The packet inside ``frame``, or why it is refused (never raises)."""
        if len(frame) < OVERHEAD or frame[0] != VERSION:
            return Refusal.MALFORMED
        header = frame[:HEADER_BYTES]
        sender = int.from_bytes(header[1:5], "big")
        receiver = int.from_bytes(header[5:9], "big")
        counter = int.from_bytes(header[9:17], "big")
        aead = self._hello_in if receiver == 0 else self._key_for(self.role.peer, sender, receiver)
        try:
            packet = aead.decrypt(header[1:5] + header[9:17], frame[HEADER_BYTES:], header)
        except InvalidTag:
            return Refusal.FORGED
        highest = self._highest.get(sender)
        if highest is not None and counter <= highest:
            return Refusal.REPLAYED
        self._highest[sender] = counter
        self._highest.move_to_end(sender)
        while len(self._highest) > self._remembered:
            self._highest.popitem(last=False)
        return Opened(sender, receiver, packet)

    def _key_for(self, role: Role, sender: int, receiver: int) -> ChaCha20Poly1305:
        ident = (role.value, sender, receiver)
        aead = self._session_keys.get(ident)
        if aead is None:
            info = (
                b"session|" + role.value + sender.to_bytes(4, "big") + receiver.to_bytes(4, "big")
            )
            aead = ChaCha20Poly1305(_derive(self._key, info))
            self._session_keys[ident] = aead
            while len(self._session_keys) > 2 * self._remembered:
                self._session_keys.popitem(last=False)
        return aead
