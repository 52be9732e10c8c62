"""Pairing keys: the 256-bit secret a terminal shares with each of its serial devices.

A pairing key file holds 64 hexadecimal digits (and an optional newline).  The terminal's copy
lives outside the data directory (``/etc/turbokiosk/devices/<device>.key``, root:turbokiosk
0640); the simulators keep theirs in their state directory.  A key file is read with
:func:`kiosk.kernel.bounded_read.read_bounded` and refused, with one line, when it is readable or
writable by others, or does not hold exactly one key.  :func:`new_pairing` makes a fresh key
from the operating system's CSPRNG and writes both copies.
"""

from __future__ import annotations

import contextlib
import grp
import hashlib
import os
import secrets
import stat
from pathlib import Path

from kiosk.kernel.bounded_read import InputFileError, read_bounded
from kiosk.kernel.durable import fsync_directory
from kiosk.terminal.devices.seal import KEY_BYTES

#: the devices a terminal pairs with, by the name their key files carry
DEVICES = ("bill-validator", "printer", "shuffler")
#: where ``turbokiosk run`` looks for the terminal's copies by default
DEFAULT_KEY_DIR = Path("/etc/turbokiosk/devices")
#: the group that may read the terminal's copies (the kiosk's user is in it)
KEY_GROUP = "turbokiosk"
#: the simulator's copy, in its state directory
SIM_KEY_NAME = "pairing.key"
_TEXT_BYTES = 2 * KEY_BYTES


class PairingKeyError(ValueError):
    """A pairing key file that cannot be used: one line naming the file and the fault."""


def key_path(key_dir: Path, device: str) -> Path:
    """The terminal's copy of ``device``'s key in ``key_dir``."""
    return Path(key_dir) / f"{device}.key"


def fingerprint(key: bytes) -> str:
    """A short public name of a key (to compare both ends' copies; reveals nothing of it)."""
    return hashlib.sha256(b"turbokiosk pairing fingerprint|" + key).hexdigest()[:16]


def load_pairing_key(path: Path | str) -> bytes:
    """The key in ``path``; :class:`PairingKeyError` when missing, exposed or malformed."""
    name = os.fspath(path)
    try:
        data = read_bounded(path, _TEXT_BYTES + 2, what="pairing key")
        mode = os.stat(name).st_mode
    except InputFileError as exc:
        raise PairingKeyError(str(exc)) from None
    except OSError as exc:
        raise PairingKeyError(f"pairing key {name}: {exc.strerror}") from None
    if mode & (stat.S_IROTH | stat.S_IWOTH):
        raise PairingKeyError(
            f"pairing key {name}: readable or writable by others "
            f"(mode {stat.S_IMODE(mode):04o}): chmod 0640 and pair again"
        )
    text = data.rstrip(b"\n")
    if len(text) != _TEXT_BYTES:
        raise PairingKeyError(f"pairing key {name}: expected {_TEXT_BYTES} hexadecimal digits")
    try:
        key = bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise PairingKeyError(f"pairing key {name}: not hexadecimal") from None
    return key


def write_pairing_key(
    path: Path, key: bytes, *, mode: int = 0o640, group: str | None = KEY_GROUP
) -> None:
    """Write ``key`` to ``path`` durably with ``mode`` (group ``group`` when it exists and we
    may give it); an existing file is replaced atomically."""
    if len(key) != KEY_BYTES:
        raise ValueError(f"a pairing key is {KEY_BYTES} bytes")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        os.fchmod(fd, mode)
        if group is not None:
            with contextlib.suppress(KeyError, PermissionError):
                os.fchown(fd, -1, grp.getgrnam(group).gr_gid)
        os.write(fd, key.hex().encode("ascii") + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    fsync_directory(path.parent)


def new_pairing(
    terminal_copy: Path, device_copy: Path | None = None, *, replace: bool = False
) -> bytes:
    """A fresh key written to the terminal's copy (0640, group turbokiosk) and, if given, to the
    device's copy (0600); refuses to replace an existing terminal copy unless ``replace``."""
    if terminal_copy.exists() and not replace:
        raise PairingKeyError(
            f"pairing key {terminal_copy}: already exists (the device is paired); "
            "--replace pairs it anew (a replaced device)"
        )
    key = secrets.token_bytes(KEY_BYTES)
    if device_copy is not None:
        write_pairing_key(device_copy, key, mode=0o600, group=None)
    write_pairing_key(terminal_copy, key)
    return key
