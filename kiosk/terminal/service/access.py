"""Who may open the service menu: roles, PINs kept as salted scrypt hashes in the journal, lock-out.

- **Roles** are ordered: operator > technician > attendant; a function open to a role is open to
  every higher role (:mod:`kiosk.terminal.service.functions` names the least role of each).
- **PINs** are 4 to 8 digits, one per role.  Only a salted hash is kept: scrypt (RFC 7914, a
  memory-hard KDF) with N = 2**14, r = 8, p = 1 (16 MiB of memory per check) over a 16-byte random
  salt, 32-byte output; the parameters are kept with each hash, and a hash made with weaker
  ones is renewed at the next good check.  Hashes are compared in constant time.
- **The records live in the terminal state** (:mod:`kiosk.terminal.core.pins`): every change, wrong
  PIN, lock-out and its lifting is an event of the terminal's journal (``PinSet``,
  ``PinRefused``, ``PinLockedOut``, ``PinAccepted``, ``PinLockoutLifted``), so they are as
  protected as the credits, survive restarts, and replay.  No file holds them.
- **Factory PINs** exist only in the genesis state of a new store, each with *must change*:
  until the role's PIN is changed, the gate allows that role nothing but the change.  A missing
  record never brings them back: a role without a record cannot enter.
- **Lock-out**: the first :attr:`LockoutPolicy.free_attempts` wrong PINs of a role in a row
  cost nothing; every later one locks the role for a delay that doubles each time (30 s, 60 s,
  120 s, ... at most one hour).  While locked the role's PIN is not even checked.  A good PIN
  clears the count.
- **Who writes**: the process that is the terminal journals through its runtime; a service
  session on a stopped terminal's store journals under the terminal lock
  (:meth:`~kiosk.terminal.service.backends.ReadOnlyTerminal.execute_pin`).  While another process is
the
  terminal, a session here cannot write the journal: its wrong PINs are recorded in the
  append-only service audit log, marked ``unjournaled_failure``, and counted with the journal's
  own (:func:`kiosk.terminal.service.audit_log.unjournaled_failures`) until the terminal journals
the
  role's next PIN event.

The clock is injected (epoch milliseconds), so lock-out timing is tested exactly.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from kiosk.kernel.clock import wall_clock_ms
from kiosk.terminal.core import commands as c
from kiosk.terminal.core.pins import (
    FACTORY_PIN_TEXT,
    PIN_MAX_DIGITS,
    PIN_MIN_DIGITS,
    PRODUCTION_KDF,
    KdfParams,
    LockoutPolicy,
    PinPolicyError,
    check_new_pin,
    hashed,
    matches,
    params_of,
)
from kiosk.terminal.service import audit_log
from kiosk.terminal.service.backends import ReadOnlyError, ServiceTerminal

__all__ = [
    "PIN_MAX_DIGITS",
    "PIN_MIN_DIGITS",
    "PRODUCTION_KDF",
    "KdfParams",
    "LockoutPolicy",
    "PinPolicyError",
    "check_new_pin",
]


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


#: PINs of a new terminal (its genesis state); each must be changed the first time it is used.
FACTORY_PINS: dict[Role, str] = {role: FACTORY_PIN_TEXT[role.label] for role in Role}


class AccessDeniedError(Exception):
    """A PIN was refused (wrong, the role is locked out, or it has no record); says which.

    ``recorded``: the refusal's audit record was written already (with the journaled count).
    """

    def __init__(
        self,
        message: str,
        role: Role,
        locked_until: int = 0,
        *,
        recorded: bool = False,
        key: str = "",
        **values: object,
    ) -> None:
        super().__init__(message)
        self.role = role
        self.locked_until = locked_until
        self.recorded = recorded
        self.key = key  # the catalogue key of the message, for the service pages
        self.values: dict[str, object] = {"role": role.label, **values}


@dataclass(frozen=True)
class RoleAccess:
    """What a role's record says, without the hash."""

    role: Role
    must_change: bool
    failures: int
    locked_until: int  # epoch ms; 0 when not locked
    changed_at: int


#: makes the audit record of a refused PIN, given the refusal's message
RefusalRecord = Callable[[str], dict[str, Any]]


class PinStore:
    """The PIN records of one terminal, read from and written to its journal."""

    def __init__(
        self,
        terminal: ServiceTerminal,
        *,
        clock: Callable[[], int] = wall_clock_ms,
        kdf: KdfParams = PRODUCTION_KDF,
        policy: LockoutPolicy | None = None,
    ) -> None:
        self.terminal = terminal
        self.clock = clock
        self.kdf = kdf
        self.policy = policy or LockoutPolicy()

    # --- queries -----------------------------------------------------------------------------

    def record(self, role: Role) -> dict[str, Any]:
        """The role's journaled record (AccessDeniedError when the journal holds none)."""
        pins = self.terminal.state().pins
        if pins is None:
            raise AccessDeniedError(
                f"no {role.label} PIN record: this store predates PINs in the journal and no "
                "service/pins.json was taken in at power-up (see its PoweredUp event); put the "
                "previous release's pins.json back and restart, or clear the RAM",
                role,
                key="pin_no_records",
            )
        if role.label not in pins:
            raise AccessDeniedError(
                f"no {role.label} PIN record in the journal", role, key="pin_no_record"
            )
        return pins[role.label]

    def access(self, role: Role) -> RoleAccess:
        """The role's record (wrong PINs not yet journaled counted in)."""
        rec = self.record(role)
        failures, locked_until = self._count(role, rec)
        return RoleAccess(role, rec["must_change"], failures, locked_until, rec["changed_at"])

    def _count(self, role: Role, rec: dict[str, Any]) -> tuple[int, int]:
        """(wrong PINs in a row, locked until) from the journal and the audit log."""
        with self.terminal.reading() as journal:
            extra, last_at = audit_log.unjournaled_failures(journal, role.label, rec["updated_at"])
        failures = rec["failures"] + extra
        locked_until = rec["locked_until"]
        if extra:
            delay = self.policy.delay_after(failures)
            locked_until = max(locked_until, last_at + delay if delay else 0)
        return failures, locked_until

    # --- checks and changes --------------------------------------------------------------------

    def check(self, role: Role, pin: str, *, refusal: RefusalRecord | None = None) -> bool:
        """Accept ``pin`` for ``role`` and say whether it must be changed now.

        Raises :class:`AccessDeniedError` for a wrong PIN or a role still locked out.  A wrong
        PIN is journaled (``PinRefused``, with ``PinLockedOut`` when it locks the role) together
        with the audit record ``refusal`` makes; where the journal cannot be written (another
        process is the terminal) the record alone is written, marked to be counted.
        """
        rec = self.record(role)
        failures, locked_until = self._count(role, rec)
        now = self.clock()
        if locked_until > now:
            wait = -(-(locked_until - now) // 1000)
            raise AccessDeniedError(
                f"{role.label} is locked out for {wait} s more after {failures} wrong PINs",
                role,
                locked_until,
                key="pin_locked_out",
                seconds=wait,
                failures=failures,
            )
        if not matches(rec, pin):
            failures += 1
            delay = self.policy.delay_after(failures)
            until = now + delay if delay else 0
            left = self.policy.free_attempts - failures
            if delay:
                message = f"wrong PIN: {role.label} is locked out for {delay // 1000} s"
                key, values = "pin_wrong_locked", {"seconds": delay // 1000}
            else:
                message = f"wrong PIN ({left} more before a lock-out)"
                key, values = "pin_wrong", {"left": left}
            command = c.RecordPinEntry(role.label, False, failures, until)
            recorded = self._record_refusal(command, None if refusal is None else refusal(message))
            raise AccessDeniedError(message, role, until, recorded=recorded, key=key, **values)
        with contextlib.suppress(ReadOnlyError):  # tidying up only
            self.terminal.execute_pin(c.RecordPinEntry(role.label, True, failures), None)
        if params_of(rec).weaker_than(self.kdf):
            renewed = c.SetPin(
                role.label,
                hashed(pin, self.kdf),
                rec["must_change"],
                "renewed with stronger KDF parameters",
            )
            with contextlib.suppress(ReadOnlyError):  # tidying up only
                self.terminal.execute_pin(renewed, None)
        return bool(rec["must_change"])

    def _record_refusal(self, command: c.RecordPinEntry, record: dict[str, Any] | None) -> bool:
        """Journal a wrong PIN with its audit record; True when the record was written."""
        try:
            self.terminal.execute_pin(command, None if record is None else lambda: record)
        except ReadOnlyError:
            if record is None:
                return False
            record["args"] = {**record.get("args", {}), "unjournaled_failure": True}
            self.terminal.append_audit(record)
        return record is not None

    def set_pin_command(
        self, role: Role, new_pin: str, *, must_change: bool = False, by: str = ""
    ) -> c.SetPin:
        """The command that sets the role's PIN (after the caller checked who may).

        The role's own change must not keep the current PIN (PinPolicyError); an operator
        setting another role's PIN passes ``must_change=True``.
        """
        check_new_pin(new_pin)
        rec = self.record(role)
        if not must_change and matches(rec, new_pin):
            raise PinPolicyError("the new PIN must differ from the current one", "pin_same")
        reason = "set by the operator" if must_change else "changed"
        return c.SetPin(role.label, hashed(new_pin, self.kdf), must_change, reason, by)

    def change(self, role: Role, new_pin: str, *, must_change: bool = False, by: str = "") -> None:
        """Set the role's PIN now (journaled); clears any lock-out."""
        command = self.set_pin_command(role, new_pin, must_change=must_change, by=by)
        self.terminal.execute_pin(command, None)
