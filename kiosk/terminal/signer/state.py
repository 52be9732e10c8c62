"""The signer's state directory: the Ed25519 key (0600) and the anchor (fsync'd, renamed).

``DIR/signer.key``   the private key, PKCS#8 PEM, mode 0600, created once and never replaced;
``DIR/anchor.slots`` the anchor, ``{"epoch", "seq", "chain_hash", "previous"}`` (hashes in hex) and,
                     once a round is drawn, ``"round"``: the newest round's seal (its cards in
                     hex, how many were dealt, its decisions; kiosk/terminal/signer/records.py), in
                     two checksummed slots written in turn, each write fdatasync'd: after a power
                     cut the newest slot that passes its checksum is the old anchor or the new
                     one (one fdatasync per signature instead of file, rename and directory).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

import orjson
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_pem_private_key,
)

from kiosk.kernel.bounded_read import InputFileError, read_bounded
from kiosk.kernel.durable import fsync_directory
from kiosk.terminal.signer.background_sync import PendingSync, start_fdatasync
from kiosk.terminal.signer.records import GENESIS_HASH, Anchor, Head, RoundSeal

KEY_NAME = "signer.key"
ANCHOR_NAME = "anchor.slots"


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
    fsync_directory(state_dir)
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
    return AnchorFile(state_dir).load()


def save_anchor(state_dir: Path, anchor: Anchor) -> None:
    """Make the anchor durable (:meth:`AnchorFile.save`)."""
    AnchorFile(state_dir).save(anchor)


class AnchorFile:
    """A state directory's ``anchor.slots``, read and written by path at every call (another
    process of the directory may write it, delete it or put another file in its place).

    The slots are parsed from the file's bytes alone, so the bytes last read or written are
    remembered with what they hold: reading them again unchanged (the development signer reads
    the anchor before every request, and a write reads the slots first) costs a read and a
    comparison, not two checksums and two JSON parses.
    """

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = Path(state_dir)
        self.path = os.fspath(self.state_dir / ANCHOR_NAME)
        #: the file's bytes last read or written, and what :func:`_read_slots` makes of them
        self._seen: tuple[bytes, list[tuple[int, Anchor] | None]] | None = None

    def load(self) -> Anchor:
        """The anchor (no file yet: no epoch started); SignerStateError when it is damaged."""
        if not os.path.exists(self.path):
            return Anchor()
        try:
            slots = read_bounded(self.path, 2 * SLOT_SIZE, what="signer anchor")
        except InputFileError as exc:
            raise SignerStateError(f"signer anchor {self.path}: {exc}") from None
        best = max(filter(None, self._read(slots)), default=None, key=lambda found: found[0])
        if best is None:
            raise SignerStateError(
                f"signer anchor {self.path} is damaged: no slot passes its checksum"
            )
        return best[1]

    def save(self, anchor: Anchor) -> None:
        """Make the anchor durable: the slot not holding the newest anchor is overwritten and
        fdatasync'd (after a power cut mid-write that slot fails its checksum and the other one,
        the anchor before, is read)."""
        opened = self.open(create=True)
        assert opened is not None
        try:
            opened.write(anchor)
            opened.sync()
        finally:
            opened.close()

    def open(self, *, create: bool = False) -> OpenAnchor | None:
        """The file opened by path for one request and its slots read (None: no file, unless
        ``create``): the anchor it holds now, and the write of the next one.  OSError when it
        cannot be opened for writing."""
        created = False
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CLOEXEC)
        except FileNotFoundError:
            if not create:
                return None
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            created = True
        try:
            return OpenAnchor(self, fd, created)
        except BaseException:
            os.close(fd)
            raise

    def _read(self, data: bytes) -> list[tuple[int, Anchor] | None]:
        """:func:`_read_slots`, parsed again only when the file's bytes changed."""
        seen = self._seen
        if seen is not None and seen[0] == data:
            return seen[1]
        found = _read_slots(data)
        self._seen = (data, found)
        return found


class OpenAnchor:
    """:class:`AnchorFile` opened for one request: its slots as read now (:attr:`anchor`),
    then at most one :meth:`write` of the next anchor, made durable by :meth:`sync` (or on
    the sync thread: :meth:`start_sync`), then :meth:`close`."""

    def __init__(self, owner: AnchorFile, fd: int, created: bool) -> None:
        self.owner, self.fd, self.created = owner, fd, created
        info = os.fstat(fd)
        #: why the file is no anchor to read (what :meth:`AnchorFile.load` refuses), or None
        self.unreadable: str | None = None
        if not stat.S_ISREG(info.st_mode):
            self.unreadable = "not a regular file"
        elif info.st_size > 2 * SLOT_SIZE:
            self.unreadable = f"{info.st_size} bytes, more than {2 * SLOT_SIZE} allowed"
        #: the file's bytes and the slots that pass their checksum (None for the others)
        self.slots = os.pread(fd, 2 * SLOT_SIZE, 0)
        self.found = owner._read(self.slots)
        self._written: tuple[bytes, list[tuple[int, Anchor] | None]] | None = None

    @property
    def anchor(self) -> Anchor:
        """The newest anchor the file holds; SignerStateError when it is not a regular file
        of at most two slots or no slot passes its checksum."""
        if self.unreadable is not None:
            raise SignerStateError(f"signer anchor {self.owner.path}: {self.unreadable}")
        best = max(filter(None, self.found), default=None, key=lambda found: found[0])
        if best is None:
            raise SignerStateError(
                f"signer anchor {self.owner.path} is damaged: no slot passes its checksum"
            )
        return best[1]

    def write(self, anchor: Anchor) -> None:
        """Write ``anchor`` over the slot not holding the newest one (not yet durable)."""
        slots, found = self.slots, self.found
        # the newest generation on disk (another process of the directory may have written)
        generation = 1 + max((g for g, _anchor in filter(None, found)), default=0)
        if generation % 2 == 0 and slots.startswith(OLD_MAGIC) and not any(found[:2]):
            generation += 1  # the previous format's slots stay until a slot of this one is in
        slot = _slot(generation, anchor)
        index = generation % 2
        self.owner._seen = None  # the file is changing
        os.pwrite(self.fd, slot, index * SLOT_SIZE)
        # the file as it will be, and what it holds (unless the slot would not read back so)
        if len(found) == 2 and len(slots) == 2 * SLOT_SIZE and _reads_back(anchor):
            now = slot + slots[SLOT_SIZE:] if index == 0 else slots[:SLOT_SIZE] + slot
            mine = (generation, anchor)
            self._written = (now, [mine, found[1]] if index == 0 else [found[0], mine])

    def sync(self) -> None:
        """Make what :meth:`write` wrote durable (OSError when the disk refuses)."""
        os.fdatasync(self.fd)
        self.synced()

    def start_sync(self) -> PendingSync:
        """:meth:`sync` started on the sync thread: wait for it, then call :meth:`synced`."""
        return start_fdatasync(self.fd)

    def synced(self) -> None:
        """The write is durable: a created file's directory entry too, and the file's bytes
        are remembered as written."""
        if self.created:
            fsync_directory(self.owner.state_dir)
        self.owner._seen = self._written

    def close(self) -> None:
        """Close the file (once the sync returned)."""
        os.close(self.fd)


def _reads_back(anchor: Anchor) -> bool:
    """Whether the slot of ``anchor`` reads back as ``anchor`` itself: a slot keeps one epoch,
    so the previous head and the seal are read back with the anchor's."""
    previous, seal = anchor.previous, anchor.seal
    return (
        len(anchor.chain_hash) == 32
        and (
            previous is None or (previous.epoch == anchor.epoch and len(previous.chain_hash) == 32)
        )
        and (seal is None or seal.epoch == anchor.epoch)
    )


#: ``anchor.slots`` holds two slots of this size; each is ``MAGIC``, the generation (8 bytes,
#: big-endian), the payload's length (2 bytes), the payload (JSON), zero padding and the
#: SHA-256 of everything before the padding.  The valid slot of the higher generation wins.
#: A page each: a round's seal (its cards, opening and decisions) fits with the anchor.
SLOT_SIZE = 4096
MAGIC = b"TKANCHR2"
#: the previous release's slots (512 bytes, no seal): still read; the first write after it goes
#: to the second slot (past them), so a power cut in that write leaves them to be read
OLD_SLOT_SIZE = 512
OLD_MAGIC = b"TKANCHR1"


def _read_slots(data: bytes) -> list[tuple[int, Anchor] | None]:
    """Every slot of a file that passes its checksum (either format), else None for it."""
    found = [_read_slot(data[i * SLOT_SIZE : (i + 1) * SLOT_SIZE]) for i in range(2)]
    if data.startswith(OLD_MAGIC) or data[OLD_SLOT_SIZE:].startswith(OLD_MAGIC):
        size, magic = OLD_SLOT_SIZE, OLD_MAGIC
        found += [_read_slot(data[i * size : (i + 1) * size], size, magic) for i in range(2)]
    return found


def _slot(generation: int, anchor: Anchor) -> bytes:
    previous = anchor.previous
    data = {
        "epoch": anchor.epoch,
        "seq": anchor.seq,
        "chain_hash": anchor.chain_hash.hex(),
        "previous": None
        if previous is None
        else {"seq": previous.seq, "chain_hash": previous.chain_hash.hex()},
    }
    if anchor.withdrawn_at:
        data["withdrawn"] = list(anchor.withdrawn_at)
    if anchor.seal is not None:
        seal = anchor.seal
        data["round"] = {
            "game": seal.game_number,
            "cards": bytes(seal.cards).hex(),
            "dealt": seal.dealt,
            "decisions": list(seal.decisions),
            "opening": seal.opening,
        }
    payload = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    body = MAGIC + generation.to_bytes(8, "big") + len(payload).to_bytes(2, "big") + payload
    checksum = hashlib.sha256(body).digest()
    padding = SLOT_SIZE - len(body) - len(checksum)
    if padding < 0:
        raise ValueError("an anchor does not fit its slot")
    return body + b"\x00" * padding + checksum


def _read_slot(
    slot: bytes, size: int = SLOT_SIZE, magic: bytes = MAGIC
) -> tuple[int, Anchor] | None:
    """(generation, anchor) of a slot that passes its checksum, else None."""
    if len(slot) != size or not slot.startswith(magic):
        return None
    generation = int.from_bytes(slot[8:16], "big")
    length = int.from_bytes(slot[16:18], "big")
    body = slot[: 18 + length]
    if 18 + length > size - 32 or hashlib.sha256(body).digest() != slot[-32:]:
        return None
    try:
        data = json.loads(body[18:])
        previous = data["previous"]
        sealed = data.get("round")
        anchor = Anchor(
            int(data["epoch"]),
            int(data["seq"]),
            _hash(data["chain_hash"]),
            None
            if previous is None
            else Head(int(data["epoch"]), int(previous["seq"]), _hash(previous["chain_hash"])),
            None
            if sealed is None
            else RoundSeal(
                int(data["epoch"]),
                int(sealed["game"]),
                tuple(bytes.fromhex(str(sealed["cards"]))),
                int(sealed["dealt"]),
                tuple(str(d) for d in sealed["decisions"]),
                str(sealed.get("opening", "")),
            ),
            tuple(int(t) for t in data.get("withdrawn", [])),
        )
    except (ValueError, KeyError, TypeError):
        return None
    return generation, anchor


def _hash(text: object) -> bytes:
    value = bytes.fromhex(str(text))
    if len(value) != 32:
        raise ValueError("a chain hash has 32 bytes")
    return value


__all__ = [
    "GENESIS_HASH",
    "AnchorFile",
    "OpenAnchor",
    "SignerStateError",
    "create_key",
    "load_anchor",
    "load_key",
    "save_anchor",
]
