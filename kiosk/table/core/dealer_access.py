"""Who may work the Dealer Terminal: the dealer and supervisor roles, their PINs, lock-out.

The service menu's rules (docs/service.md), on the table controller's journal:

- **Roles**: dealer < supervisor; a supervisor may do everything a dealer may, and only a
  supervisor voids a round or has a refused pack read again (:data:`LEAST_ROLE`).
- **PINs** are 4 to 8 digits; only a salted scrypt hash is kept (:mod:`kiosk.terminal.core.pins`,
  the same KDF and parameters as the service menu), in the controller's hash-chained journal
  (``DealerPinSet``), never in a file.  The **factory PINs** (dealer 4444, supervisor 5555) hold
  while a role has no journaled record, each *must change*: until the role chose its own PIN it
  may do nothing but change it.
- **Lock-out** as the service menu's: the first two wrong PINs in a row cost nothing, the third
  locks the role for 30 s, every further one for twice as long, at most one hour; while locked
  the PIN is not even checked; a good PIN clears the count.  Every refusal is journaled
  (``DealerPinRefused``), so a restart gives no more guesses.
- **Audit**: every sign-in, refusal, PIN change and dealer command is a ``DealerAudited`` event
  of the controller's journal (who: the Dealer Terminal's certificate name; which role; what;
  how it ended).  No event holds a PIN.

Sans-IO: the clock is an argument, and the events returned are journaled by the caller
(:meth:`kiosk.table.core.controller.TableController.record`) before they count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from kiosk.table.core import commands as c
from kiosk.table.core import events as e
from kiosk.table.core.core import DealerPin, TableState
from kiosk.terminal.core.pins import (
    PRODUCTION_KDF,
    KdfParams,
    LockoutPolicy,
    PinPolicyError,
    check_new_pin,
    hashed,
    matches,
)

__all__ = ["LockoutPolicy", "PinPolicyError", "check_new_pin"]


class DealerRole(IntEnum):
    """The Dealer Terminal's roles, least first."""

    DEALER = 1
    SUPERVISOR = 2

    @property
    def label(self) -> str:
        return self.name.lower()


#: the factory PIN of each role (each must be changed the first time it is used)
FACTORY_PINS = {DealerRole.DEALER: "4444", DealerRole.SUPERVISOR: "5555"}

#: the least role of each dealer command (a command not named here needs a dealer)
LEAST_ROLE: dict[type[object], DealerRole] = {
    c.OpenRound: DealerRole.DEALER,
    c.CloseBets: DealerRole.DEALER,
    c.LayPack: DealerRole.DEALER,
    c.CloseRound: DealerRole.DEALER,
    c.PauseTable: DealerRole.DEALER,
    c.ResumeTable: DealerRole.DEALER,
    c.VoidRound: DealerRole.SUPERVISOR,
    c.ReRead: DealerRole.SUPERVISOR,
}


@dataclass(frozen=True)
class SignInOutcome:
    """How a sign-in ended, and the events to journal for it."""

    ok: bool
    role: DealerRole
    must_change: bool = False
    locked_until: int = 0
    error: str = ""
    reason: str = ""
    events: list[e.Event] = field(default_factory=list)


def _pin_hash(pin: str, kdf: KdfParams) -> e.PinHash:
    h = hashed(pin, kdf)
    return e.PinHash(h["kdf"], h["n"], h["r"], h["p"], h["salt"], h["hash"])


def _matches(pin_hash: e.PinHash, pin: str) -> bool:
    record = {"n": pin_hash.n, "r": pin_hash.r, "p": pin_hash.p}
    return matches({**record, "salt": pin_hash.salt, "hash": pin_hash.hash}, pin)


class DealerAccess:
    """The PIN checks of the Dealer Terminal's roles, on a table's journaled state."""

    def __init__(
        self, kdf: KdfParams = PRODUCTION_KDF, policy: LockoutPolicy | None = None
    ) -> None:
        self.kdf = kdf
        self.policy = policy or LockoutPolicy()
        self._factory: dict[DealerRole, e.PinHash] = {}  # hashed at first need (0.2 s each)

    def record(self, state: TableState, role: DealerRole) -> DealerPin:
        """The role's journaled record, or its factory PIN (must change) when it has none."""
        held = state.pins.get(role.label)
        if held is not None:
            return held
        if role not in self._factory:
            self._factory[role] = _pin_hash(FACTORY_PINS[role], self.kdf)
        return DealerPin(self._factory[role], must_change=True)

    @staticmethod
    def matches(record: DealerPin, pin: str) -> bool:
        """Whether ``pin`` is the record's PIN (the memory-hard check, constant-time compare)."""
        return _matches(record.pin, pin)

    def sign_in(
        self,
        state: TableState,
        role: DealerRole,
        pin: str,
        by: str,
        now: int,
        *,
        matched: bool | None = None,
    ) -> SignInOutcome:
        """Check ``role``'s PIN at ``now`` (ms); the outcome and the events that record it.

        ``matched``: the result of :meth:`matches` computed already (outside a lock)."""
        record = self.record(state, role)
        genesis: list[e.Event] = []
        if role.label not in state.pins:  # the factory record, journaled at its first use
            genesis = [e.DealerPinSet(now, role.label, record.pin, True, "factory")]
        if record.locked_until > now:
            reason = f"{role.label} is locked out for {(record.locked_until - now + 999) // 1000} s"
            audit = e.DealerAudited(now, by, role.label, "sign_in", "refused", reason)
            return SignInOutcome(
                False, role, locked_until=record.locked_until, error="RoleLockedOut",
                reason=reason, events=[*genesis, audit],
            )  # fmt: skip
        if not (_matches(record.pin, pin) if matched is None else matched):
            failures = record.failures + 1
            delay = self.policy.delay_after(failures)
            until = now + delay if delay else 0
            reason = "wrong PIN" + (
                f": {role.label} locked out for {delay // 1000} s" if delay else ""
            )
            events: list[e.Event] = [
                *genesis,
                e.DealerPinRefused(now, role.label, failures, until, by),
                e.DealerAudited(now, by, role.label, "sign_in", "refused", reason),
            ]
            return SignInOutcome(
                False, role, locked_until=until,
                error="RoleLockedOut" if delay else "PinRefused", reason=reason, events=events,
            )  # fmt: skip
        renew: list[e.Event] = []
        if (record.pin.n, record.pin.r, record.pin.p) < (self.kdf.n, self.kdf.r, self.kdf.p):
            renew = [
                e.DealerPinSet(now, role.label, _pin_hash(pin, self.kdf), record.must_change, by)
            ]
        detail = "must change the PIN" if record.must_change else ""
        audit = e.DealerAudited(now, by, role.label, "sign_in", "ok", detail)
        return SignInOutcome(
            True, role, must_change=record.must_change, events=[*genesis, *renew, audit]
        )

    def change_pin(
        self, state: TableState, role: DealerRole, new_pin: str, by: str, now: int
    ) -> list[e.Event]:
        """The events of ``role`` choosing its own PIN (:class:`PinPolicyError` if not allowed)."""
        check_new_pin(new_pin)
        if new_pin == FACTORY_PINS[role]:
            raise PinPolicyError("the factory PIN cannot be kept: choose another")
        if _matches(self.record(state, role).pin, new_pin):
            raise PinPolicyError("the new PIN must differ from the current one")
        return [
            e.DealerPinSet(now, role.label, _pin_hash(new_pin, self.kdf), False, by),
            e.DealerAudited(now, by, role.label, "change_pin", "ok", ""),
        ]
