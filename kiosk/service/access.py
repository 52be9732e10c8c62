"""Who may open the service menu: roles, PINs stored as salted scrypt hashes, lock-out.

- **Roles** are ordered: operator > technician > attendant; a function open to a role is open to
  every higher role (:mod:`kiosk.service.functions` names the least role of each).
- **PINs** are 4 to 8 digits, one per role.  Only a salted hash is kept: scrypt (RFC 7914, a
  memory-hard KDF) with N = 2**14, r = 8, p = 1 (16 MiB of memory per check) over a 16-byte random
  salt, 32-byte output; the parameters are stored with each hash, and a hash made with weaker
  ones is renewed at the next good check.  Hashes are compared in constant time.
- **Factory PINs** (:data:`FACTORY_PINS`) are installed with a *must change* flag: until the
  role's PIN is changed, the gate allows that role nothing but the change.
- **Lock-out**: the first :attr:`LockoutPolicy.free_attempts` wrong PINs of a role in a row
  cost nothing; every later one locks the role for a delay that doubles each time (30 s, 60 s,
  120 s, ... at most one hour).  While locked the role's PIN is not even checked.  A good PIN
  clears the count.  The count and the lock-out survive a restart.

The records live in ``<data_dir>/service/pins.json`` (written atomically with fsync, under an
advisory lock so the touchscreen and an SSH session never lose each other's updates).  The
clock is injected (epoch milliseconds), so lock-out timing is tested exactly.
"""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import Any

from kiosk.runtime.terminal import wall_clock_ms

PIN_MIN_DIGITS = 4
PIN_MAX_DIGITS = 8


class Role(IntEnum):
    """Service roles, least first; a higher role may do everything a lower one may."""

    ATTENDANT = 1
    TECHNICIAN = 2
    OPERATOR = 3

    @property
    def label(self) -> str:
        """``"technician"``: the role's name as stored and shown."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Role:
        """The role named ``text`` (ValueError naming the roles otherwise)."""
        for role in cls:
            if role.label == text.strip().lower():
                return role
        raise ValueError(f"no role {text!r}; roles: {', '.join(r.label for r in cls)}")


#: PINs set at installation; each must be changed the first time it is used.
FACTORY_PINS: dict[Role, str] = {
    Role.ATTENDANT: "1111",
    Role.TECHNICIAN: "2222",
    Role.OPERATOR: "3333",
}


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


PRODUCTION_KDF = KdfParams()


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


class AccessDeniedError(Exception):
    """A PIN was refused (wrong, or the role is locked out); the message says which."""

    def __init__(self, message: str, role: Role, locked_until: int = 0) -> None:
        super().__init__(message)
        self.role = role
        self.locked_until = locked_until


class PinPolicyError(ValueError):
    """A new PIN that is not allowed."""


@dataclass(frozen=True)
class RoleAccess:
    """What a role's record says, without the hash."""

    role: Role
    must_change: bool
    failures: int
    locked_until: int  # epoch ms; 0 when not locked
    changed_at: int


def check_new_pin(pin: str) -> None:
    """Raise PinPolicyError unless ``pin`` is 4 to 8 digits."""
    if not (pin.isascii() and pin.isdigit()):
        raise PinPolicyError("a PIN is digits only")
    if not PIN_MIN_DIGITS <= len(pin) <= PIN_MAX_DIGITS:
        raise PinPolicyError(f"a PIN has {PIN_MIN_DIGITS} to {PIN_MAX_DIGITS} digits")


class PinStore:
    """The PIN records of one terminal (see the module docstring)."""

    def __init__(
        self,
        service_dir: Path,
        *,
        clock: Callable[[], int] = wall_clock_ms,
        kdf: KdfParams = PRODUCTION_KDF,
        policy: LockoutPolicy = LockoutPolicy(),
    ) -> None:
        self.path = Path(service_dir) / "pins.json"
        self.clock = clock
        self.kdf = kdf
        self.policy = policy

    # --- queries -----------------------------------------------------------------------------

    def access(self, role: Role) -> RoleAccess:
        """The role's record (factory PINs are installed on first use)."""
        with self._records() as records:
            rec = records[role.label]
        return RoleAccess(
            role, rec["must_change"], rec["failures"], rec["locked_until"], rec["changed_at"]
        )

    # --- checks and changes --------------------------------------------------------------------

    def check(self, role: Role, pin: str) -> bool:
        """Accept ``pin`` for ``role`` and say whether it must be changed now.

        Raises :class:`AccessDeniedError` for a wrong PIN or a role still locked out.
        """
        with self._records(write=True) as records:
            rec = records[role.label]
            now = self.clock()
            if rec["locked_until"] > now:
                wait = -(-(rec["locked_until"] - now) // 1000)
                raise AccessDeniedError(
                    f"{role.label} is locked out for {wait} s more after "
                    f"{rec['failures']} wrong PINs",
                    role,
                    rec["locked_until"],
                )
            params = KdfParams(rec["n"], rec["r"], rec["p"], len(bytes.fromhex(rec["hash"])))
            good = hmac.compare_digest(
                params.derive(pin, bytes.fromhex(rec["salt"])), bytes.fromhex(rec["hash"])
            )
            if not good:
                rec["failures"] += 1
                delay = self.policy.delay_after(rec["failures"])
                rec["locked_until"] = now + delay if delay else 0
                left = self.policy.free_attempts - rec["failures"]
                if delay:
                    message = f"wrong PIN: {role.label} is locked out for {delay // 1000} s"
                else:
                    message = f"wrong PIN ({left} more before a lock-out)"
                raise AccessDeniedError(message, role, rec["locked_until"])
            rec["failures"], rec["locked_until"] = 0, 0
            if (params.n, params.r, params.p) < (self.kdf.n, self.kdf.r, self.kdf.p):
                rec.update(self._hashed(pin))
            return bool(rec["must_change"])

    def change(self, role: Role, new_pin: str, *, must_change: bool = False) -> None:
        """Set the role's PIN (after the caller checked who may); clears any lock-out.

        The role's own change must not keep the current PIN (PinPolicyError); an operator
        setting another role's PIN passes ``must_change=True``.
        """
        check_new_pin(new_pin)
        with self._records(write=True) as records:
            rec = records[role.label]
            salt, digest = bytes.fromhex(rec["salt"]), bytes.fromhex(rec["hash"])
            params = KdfParams(rec["n"], rec["r"], rec["p"], len(digest))
            if not must_change and hmac.compare_digest(params.derive(new_pin, salt), digest):
                raise PinPolicyError("the new PIN must differ from the current one")
            rec.update(self._hashed(new_pin))
            rec.update(must_change=must_change, failures=0, locked_until=0)
            rec["changed_at"] = self.clock()

    # --- storage --------------------------------------------------------------------------------

    def _hashed(self, pin: str) -> dict[str, Any]:
        salt = secrets.token_bytes(self.kdf.salt_bytes)
        return {
            "kdf": "scrypt",
            "n": self.kdf.n,
            "r": self.kdf.r,
            "p": self.kdf.p,
            "salt": salt.hex(),
            "hash": self.kdf.derive(pin, salt).hex(),
        }

    def _factory(self) -> dict[str, dict[str, Any]]:
        now = self.clock()
        return {
            role.label: {
                **self._hashed(FACTORY_PINS[role]),
                "must_change": True,
                "failures": 0,
                "locked_until": 0,
                "changed_at": now,
            }
            for role in Role
        }

    @contextmanager
    def _records(self, write: bool = False) -> Iterator[dict[str, dict[str, Any]]]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_suffix(".lock"), "a+b") as guard:
            fcntl.flock(guard, fcntl.LOCK_EX)
            try:
                try:
                    records: dict[str, dict[str, Any]] = json.loads(self.path.read_text())
                    fresh = False
                except FileNotFoundError:
                    records, fresh = self._factory(), True
                try:
                    yield records
                finally:  # a wrong PIN raises, and its count must be kept all the same
                    if write or fresh:
                        _durable_write(self.path, records)
            finally:
                fcntl.flock(guard, fcntl.LOCK_UN)


def _durable_write(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, sort_keys=True, indent=1)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
