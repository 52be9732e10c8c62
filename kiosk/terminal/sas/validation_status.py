"""SAS 7B extended validation status: the functions the validation host turns on and off, and
the cashable ticket expiration it sets (decision 0067, docs/sas.md "Extended validation
status").

The host sends a control mask, the states of the bits it masks, and two expirations (4 BCD
digits: days, ``0000`` keep the one in force, ``9999`` never expires).  Status bits (table 15.2c
as public descriptions give it): 0 the printer is the cash-out device, 1 the printer prints
handpay receipts, 2 handpays are validated, 3 restricted tickets are printed, 4 tickets for
foreign restricted amounts, 5 ticket redemption, 15 secure enhanced configuration.

This terminal makes two of them: **cash-out tickets** (bit 0: off, a cash-out becomes a handpay
of cancelled credits without asking the host for a number) and **ticket redemption** (bit 5:
off, a ticket inserted is returned without asking the host).  The others stay 0 whatever the
host asks (it prints no handpay receipt, validates no handpay and keeps no restricted credits),
and the answer says so.  The status is kept in the SAS store (durable, one fsync'd write) before
the answer, so it survives a power cut; the cashable expiration, once set, is the expiry printed
on every cash-out ticket (:meth:`ValidationStatus.expiry_days`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

CASHOUT_TICKETS = 0x0001
HANDPAY_RECEIPTS = 0x0002
VALIDATE_HANDPAYS = 0x0004
RESTRICTED_TICKETS = 0x0008
FOREIGN_RESTRICTED = 0x0010
TICKET_REDEMPTION = 0x0020
#: the bits this terminal lets the host change (the others are 0 here)
SETTABLE = CASHOUT_TICKETS | TICKET_REDEMPTION
#: days meaning "keep the expiration in force" and "never expires"
KEEP_DAYS = 0
NEVER_DAYS = 9999
#: the SAS store's key
STORE_KEY = "validation_status"


@dataclass(frozen=True)
class ValidationStatus:
    """What the validation host set (the defaults until it sets something)."""

    bits: int = SETTABLE
    #: the host's cashable ticket expiration in days (0: the operator's ``voucher_expiry_days``)
    cashable_days: int = 0
    #: the host's default restricted expiration (kept and reported; no restricted tickets here)
    restricted_days: int = 0

    @property
    def cashout_tickets(self) -> bool:
        """A cash-out prints a ticket (else it is a handpay)."""
        return bool(self.bits & CASHOUT_TICKETS)

    @property
    def ticket_redemption(self) -> bool:
        """A ticket inserted goes to the host to be redeemed (else it is returned)."""
        return bool(self.bits & TICKET_REDEMPTION)

    def expiry_days(self, operator_days: int) -> int:
        """The expiry printed on a cash-out ticket: the host's, else the operator's."""
        return self.cashable_days or operator_days

    def changed(
        self, mask: int, states: int, cashable_days: int, restricted_days: int
    ) -> ValidationStatus:
        """After a 7B: each masked bit this terminal makes takes its state; an expiration of
        ``0000`` keeps the one in force."""
        settable = mask & SETTABLE
        bits = (self.bits & ~settable) | (states & settable)
        return replace(
            self,
            bits=bits & SETTABLE,
            cashable_days=cashable_days or self.cashable_days,
            restricted_days=restricted_days or self.restricted_days,
        )

    def to_json(self) -> dict[str, object]:
        """For the SAS store."""
        return {
            "bits": self.bits,
            "cashable_days": self.cashable_days,
            "restricted_days": self.restricted_days,
        }

    @classmethod
    def from_json(cls, d: dict[str, object]) -> ValidationStatus:
        """Inverse of :meth:`to_json` (the defaults for an empty or unreadable record)."""
        try:
            status = cls(
                bits=int(str(d["bits"])) & SETTABLE,
                cashable_days=int(str(d["cashable_days"])),
                restricted_days=int(str(d["restricted_days"])),
            )
        except (KeyError, ValueError):
            return cls()
        if not (
            0 <= status.cashable_days <= NEVER_DAYS and 0 <= status.restricted_days <= NEVER_DAYS
        ):
            return cls()
        return status
