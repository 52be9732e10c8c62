"""The signer's state directory: the Ed25519 key (0600) and the anchor (fsync'd, renamed).

``DIR/signer.key``   the private key, PKCS#8 PEM, mode 0600, created once and never replaced;
``DIR/anchor.json``  the anchor: ``{"epoch", "seq", "chain_hash", "previous"}`` (hashes in hex),
                     written to a temporary file, fsync'd, renamed over the old one, and the
                     directory fsync'd: after a power cut it is the old anchor or the new one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_pem_private_key,
)

from kiosk.bounded_read import InputFileError, read_bounded
from kiosk.signer.records import GENESIS_HASH, Anchor, Head

KEY_NAME = "signer.key"
ANCHOR_NAME = "anchor.json"


class SignerStateError(Exception):
    """The signer's state directory cannot be used (one line saying why)."""


def create_key(state_dir: Path) -> bool:
    """Create the key if there is none (mode 0600); True when it was created now."""
    state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = state_dir / KEY_NAME
    if path.exists():
        load_key(state_dir)  # an unusable key is reported, never replaced
        return False
    pem = Ed25519PrivateKey.generate().private_bytes(
        Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()
    )
    tmp = state_dir / f".{KEY_NAME}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, pem)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.link(tmp, path)  # never over an existing key
    os.unlink(tmp)
    _fsync_dir(state_dir)
    return True


def load_key(state_dir: Path) -> Ed25519PrivateKey:
    """The key (SignerStateError when missing or not an Ed25519 key)."""
    try:
        pem = read_bounded(state_dir / KEY_NAME, 16 * 1024, what="signer key")
    except InputFileError as exc:
        raise SignerStateError(f"{exc} (run 'turbokiosk signer init')") from None
    try:
        key = load_pem_private_key(pem, password=None)
    except ValueError as exc:
        raise SignerStateError(f"signer key {state_dir / KEY_NAME}: unreadable ({exc})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SignerStateError(f"signer key {state_dir / KEY_NAME}: not an Ed25519 key")
    return key


def load_anchor(state_dir: Path) -> Anchor:
    """The anchor (no file yet: no epoch started); SignerStateError when it is damaged."""
    path = state_dir / ANCHOR_NAME
    if not path.exists():
        return Anchor()
    try:
        data = json.loads(read_bounded(path, 4096, what="signer anchor"))
        previous = data["previous"]
        return Anchor(
            int(data["epoch"]),
            int(data["seq"]),
            _hash(data["chain_hash"]),
            None
            if previous is None
            else Head(int(data["epoch"]), int(previous["seq"]), _hash(previous["chain_hash"])),
        )
    except (InputFileError, ValueError, KeyError, TypeError) as exc:
        raise SignerStateError(f"signer anchor {path} is damaged: {exc}") from None


def _hash(text: object) -> bytes:
    value = bytes.fromhex(str(text))
    if len(value) != 32:
        raise ValueError("a chain hash has 32 bytes")
    return value


def save_anchor(state_dir: Path, anchor: Anchor) -> None:
    """Make the anchor durable: temporary file, fsync, rename, fsync of the directory."""
    previous = anchor.previous
    data = {
        "epoch": anchor.epoch,
        "seq": anchor.seq,
        "chain_hash": anchor.chain_hash.hex(),
        "previous": None
        if previous is None
        else {"seq": previous.seq, "chain_hash": previous.chain_hash.hex()},
    }
    tmp = state_dir / f".{ANCHOR_NAME}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, json.dumps(data, sort_keys=True).encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, state_dir / ANCHOR_NAME)
    _fsync_dir(state_dir)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


__all__ = [
    "GENESIS_HASH",
    "SignerStateError",
    "create_key",
    "load_anchor",
    "load_key",
    "save_anchor",
]
