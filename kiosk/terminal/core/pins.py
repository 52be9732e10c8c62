"""Service PIN records as the terminal state holds them (sans-IO: hashing, no storage).

A role's record is a JSON-ready dict::

    {"kdf": "scrypt", "n": ..., "r": ..., "p": ..., "salt": <hex>, "hash": <hex>,
     "must_change": bool, "failures": int, "locked_until": <epoch ms, 0 when not locked>,
     "changed_at": <epoch ms>, "updated_at": <epoch ms of the role's last PIN event>}

Only the salted scrypt hash of a PIN is ever held (RFC 7914, N = 2**14, r = 8, p = 1, 16-byte
salt, 32-byte output); the records live in the terminal state, so in the journal's events and
snapshots, and nowhere else.  The factory PINs exist only in the genesis state of a new store
(:func:`factory_records`): their hashes are constants (a public PIN has nothing to hide, and a
new store costs no scrypt), each with *must change* set.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

#: the role names, least first (the service layer's :class:`Role` uses the same)
ROLE_NAMES = ("attendant", "technician", "operator")

#: the factory PIN of each role (each must be changed the first time it is used)
FACTORY_PIN_TEXT = {"attendant": "1111", "technician": "2222", "operator": "3333"}

#: (salt, scrypt hash) of each factory PIN with the production parameters;
#: tests/service/test_pin_journal.py checks each against :data:`FACTORY_PIN_TEXT`
_FACTORY_HASHES = {
    "attendant": (
        "521acdb2f65a69687ef3c302770d4020",
        "640320d364f82dac6388ffb51a544daefbc9c0d4177dd2e8cac1a63658991708",
    ),
    "technician": (
        "d8cf9dbd9f233d49b76ea2ee396a68d4",
        "cbfd7c0d9fbc19e1ef43b843786631a33a1a002e6ecda6c03dd7647d90ffc017",
    ),
    "operator": (
        "49565ecd011463b057ecdc2a85cba985",
        "e9e06142894cdf9fbd0cc3f5d4d9723b4ee70a826a71c16c0f02399af34f656a",
    ),
}

_HASH_FIELDS = ("kdf", "n", "r", "p", "salt", "hash")


class PinRecordError(ValueError):
    """A PIN record that is not one (migration of an old file, a malformed event)."""


@dataclass(frozen=True)
class KdfParams:
    """scrypt cost parameters (RFC 7914): memory is 128 * r * n bytes."""

    n: int = 2**14
    r: int = 8
    p: int = 1
    dklen: int = 32
    salt_bytes: int = 16

    def derive(self, pin: str, salt: bytes) -> bytes:
        """The hash of ``pin`` with ``salt``."""
        return hashlib.scrypt(
            pin.encode(),
            salt=salt,
            n=self.n,
            r=self.r,
            p=self.p,
            dklen=self.dklen,
            maxmem=256 * self.r * self.n + (1 << 20),
        )

    def weaker_than(self, other: KdfParams) -> bool:
        """Whether a hash made with these parameters should be renewed with ``other``'s."""
        return (self.n, self.r, self.p) < (other.n, other.r, other.p)


PRODUCTION_KDF = KdfParams()

#: a PIN's length in digits, at least and at most (the service menu's and the Dealer Terminal's)
PIN_MIN_DIGITS = 4
PIN_MAX_DIGITS = 8


class PinPolicyError(ValueError):
    """A new PIN that is not allowed; ``key`` names the rule for the service pages."""

    def __init__(self, message: str, key: str = "", **values: object) -> None:
        super().__init__(message)
        self.key = key
        self.values: dict[str, object] = dict(values)


def check_new_pin(pin: str) -> None:
    """Raise :class:`PinPolicyError` unless ``pin`` is 4 to 8 digits."""
    if not (pin.isascii() and pin.isdigit()):
        raise PinPolicyError("a PIN is digits only", "pin_digits_only")
    if not PIN_MIN_DIGITS <= len(pin) <= PIN_MAX_DIGITS:
        raise PinPolicyError(
            f"a PIN has {PIN_MIN_DIGITS} to {PIN_MAX_DIGITS} digits",
            "pin_length",
            low=PIN_MIN_DIGITS,
            high=PIN_MAX_DIGITS,
        )


@dataclass(frozen=True)
class LockoutPolicy:
    """Wrong PINs allowed before a lock-out, and the doubling delay after each further one."""

    free_attempts: int = 3
    first_delay_ms: int = 30_000
    max_delay_ms: int = 3_600_000

    def delay_after(self, failures: int) -> int:
        """Milliseconds the role stays locked after its ``failures``-th wrong PIN in a row."""
        if failures < self.free_attempts:
            return 0
        return min(self.first_delay_ms << (failures - self.free_attempts), self.max_delay_ms)


def hashed(pin: str, kdf: KdfParams = PRODUCTION_KDF) -> dict[str, Any]:
    """The hash part of a record for ``pin``, with a new random salt."""
    salt = secrets.token_bytes(kdf.salt_bytes)
    return {
        "kdf": "scrypt",
        "n": kdf.n,
        "r": kdf.r,
        "p": kdf.p,
        "salt": salt.hex(),
        "hash": kdf.derive(pin, salt).hex(),
    }


def params_of(record: dict[str, Any]) -> KdfParams:
    """The scrypt parameters a record's hash was made with."""
    return KdfParams(record["n"], record["r"], record["p"], len(bytes.fromhex(record["hash"])))


def matches(record: dict[str, Any], pin: str) -> bool:
    """Whether ``pin`` is the record's PIN (constant-time comparison)."""
    digest = bytes.fromhex(record["hash"])
    return hmac.compare_digest(params_of(record).derive(pin, bytes.fromhex(record["salt"])), digest)


def hash_part(record: dict[str, Any]) -> dict[str, Any]:
    """Only the hash fields of a record (what a PinSet event carries)."""
    return {name: record[name] for name in _HASH_FIELDS}


def factory_records() -> dict[str, dict[str, Any]]:
    """The genesis PIN records of a new store: the factory PINs, each to be changed."""
    return {
        role: {
            "kdf": "scrypt",
            "n": PRODUCTION_KDF.n,
            "r": PRODUCTION_KDF.r,
            "p": PRODUCTION_KDF.p,
            "salt": salt,
            "hash": digest,
            "must_change": True,
            "failures": 0,
            "locked_until": 0,
            "changed_at": 0,
            "updated_at": 0,
        }
        for role, (salt, digest) in _FACTORY_HASHES.items()
    }


def checked_hash(data: object) -> dict[str, Any]:
    """The hash fields of ``data`` after checking their types and sizes (PinRecordError)."""
    if not isinstance(data, dict):
        raise PinRecordError("a PIN record is an object")
    if data.get("kdf") != "scrypt":
        raise PinRecordError(f"unknown KDF {data.get('kdf')!r}")
    for name in ("n", "r", "p"):
        value = data.get(name)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1 << 20:
            raise PinRecordError(f"{name}: not a scrypt parameter ({value!r})")
    for name, low, high in (("salt", 8, 64), ("hash", 16, 64)):
        value = data.get(name)
        try:
            size = len(bytes.fromhex(value)) if isinstance(value, str) else -1
        except ValueError:
            size = -1
        if not low <= size <= high:
            raise PinRecordError(f"{name}: not {low} to {high} bytes of hex")
    return hash_part(data)


def migrated_record(data: object, at: int) -> dict[str, Any]:
    """A role's record of the previous release's ``pins.json``, checked (PinRecordError)."""
    part = checked_hash(data)
    assert isinstance(data, dict)
    counts = {}
    for name in ("failures", "locked_until", "changed_at"):
        value = data.get(name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise PinRecordError(f"{name}: not a whole number ({value!r})")
        counts[name] = value
    if not isinstance(data.get("must_change"), bool):
        raise PinRecordError("must_change: not true or false")
    return {**part, "must_change": data["must_change"], **counts, "updated_at": at}
