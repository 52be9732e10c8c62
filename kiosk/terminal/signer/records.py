"""Journal heads, the signer's anchor, and the exact bytes an Ed25519 signature covers."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from kiosk.kernel.chain import GENESIS

#: the chain hash "before row 1" (the journal's genesis hash, :data:`kiosk.kernel.chain.GENESIS`)
GENESIS_HASH = GENESIS
_HEAD_DOMAIN = b"turbokiosk/v1 journal head\x00"
_SNAPSHOT_DOMAIN = b"turbokiosk/v1 snapshot\x00"


@dataclass(frozen=True)
class Head:
    """The chain hash of journal row ``seq`` of the store of ``epoch``."""

    epoch: int
    seq: int
    chain_hash: bytes

    def short(self) -> str:
        """``epoch 2 row 41 (3fa9c0...)``."""
        return f"epoch {self.epoch} row {self.seq} ({self.chain_hash.hex()[:12]})"


#: how many withdrawal times the anchor keeps
WITHDRAWALS_KEPT = 4


@dataclass(frozen=True)
class RoundSeal:
    """A round's cards, fixed when drawn: held by the signer, outside the store.

    ``cards`` are every card the round deals, in dealing order; ``dealt`` how many of them the
    commits the signer signed have dealt; ``decisions`` the ``"<seat>:<choice>"`` those commits
    made; ``opening`` the round's edition and wagers (JSON, the kiosk's to read).  A seal only
    grows: the same cards and opening, more dealt, more decisions.
    """

    epoch: int
    game_number: int
    cards: tuple[int, ...]
    dealt: int = 0
    decisions: tuple[str, ...] = ()
    opening: str = ""

    def grows_into(self, later: RoundSeal) -> str | None:
        """Why ``later`` (of the same round) may not replace this seal, or None."""
        if later.cards != self.cards:
            return f"game {self.game_number}: its cards were sealed when drawn; others are refused"
        if later.opening != self.opening:
            return f"game {self.game_number}: its wagers were sealed with its cards"
        if later.dealt < self.dealt:
            return f"game {self.game_number}: {self.dealt} cards were dealt, not {later.dealt}"
        if not set(self.decisions) <= set(later.decisions):
            return f"game {self.game_number}: a sealed decision cannot be dropped"
        return None


@dataclass(frozen=True)
class Anchor:
    """What the signer holds: the last head it signed, and the one signed before it (and the
    newest round's seal)."""

    epoch: int = 0  # 0: no store started yet
    seq: int = 0
    chain_hash: bytes = GENESIS_HASH
    previous: Head | None = None
    seal: RoundSeal | None = None
    #: when power-ups withdrew the last head (epoch ms, the newest :data:`WITHDRAWALS_KEPT`)
    withdrawn_at: tuple[int, ...] = ()

    @property
    def head(self) -> Head:
        """The last signed head."""
        return Head(self.epoch, self.seq, self.chain_hash)


def head_message(head: Head) -> bytes:
    """The bytes a head signature covers."""
    return (
        _HEAD_DOMAIN
        + head.epoch.to_bytes(8, "big")
        + head.seq.to_bytes(8, "big")
        + _hash32(head.chain_hash)
    )


def snapshot_message(head: Head, snapshot_hash: bytes) -> bytes:
    """The bytes a snapshot signature covers: its head and its body checksum."""
    return (
        _SNAPSHOT_DOMAIN
        + head.epoch.to_bytes(8, "big")
        + head.seq.to_bytes(8, "big")
        + _hash32(head.chain_hash)
        + _hash32(snapshot_hash)
    )


def _hash32(value: bytes) -> bytes:
    if len(value) != 32:
        raise ValueError(f"a 32-byte hash was expected, not {len(value)} bytes")
    return value


def fingerprint(public_key: bytes) -> str:
    """The first 16 hex digits of SHA-256 of the raw public key, in groups of four."""
    text = hashlib.sha256(public_key).hexdigest()[:16]
    return ":".join(text[i : i + 4] for i in range(0, 16, 4))


def verifies(public_key: bytes, signature: bytes, message: bytes) -> bool:
    """Whether ``signature`` is the key's Ed25519 signature of ``message``."""
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True
