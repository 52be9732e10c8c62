"""Tilt codes: every condition the terminal raises a tilt for, named once.

A tilt is journaled (``TiltRaised.code``) and reported to the host by its code, so the values
are the journal's and the wire's text and never change.  :class:`TiltCode` is a ``StrEnum``:
a member is its text, and a journal written before the enum existed reads the same.
"""

from __future__ import annotations

from enum import StrEnum

#: tilts only the operator clears (``ClearTilt.by`` names the operator: "operator..."), with
#: the service menu's audit record
OPERATOR_TILTS = frozenset({"head_withdrawn"})


def cleared_by_operator(by: str) -> bool:
    """Whether ``by`` (a ``ClearTilt``'s) names the operator role."""
    return by == "operator" or by.startswith("operator ")


class TiltCode(StrEnum):
    """Why a tilt is raised (see docs/terminal.md, "Tilts")."""

    # the voucher printer
    PRINTER = "printer"  # an in-process printer not ready (paper, fault): cash-out waits
    PAPER_OUT = "paper_out"
    PRINTER_JAM = "printer_jam"
    HEAD_OPEN = "head_open"
    PRINTER_LINK = "printer_link"
    PRINTER_RECONCILE = "printer_reconcile"
    PRINTER_TAMPERED = "printer_tampered"
    # the bill validator
    BILL_JAM = "bill_jam"
    CASHBOX_FULL = "cashbox_full"
    CASHBOX_REMOVED = "cashbox_removed"
    BILL_VALIDATOR_LINK = "bill_validator_link"
    BILL_VALIDATOR_RECONCILE = "bill_validator_reconcile"
    BILL_VALIDATOR_TAMPERED = "bill_validator_tampered"
    BILL_VALIDATOR_CHEATED = "bill_validator_cheated"  # the device saw a cheating attempt
    BILL_VALIDATOR_FAILURE = "bill_validator_failure"  # a failure the device names
    DEVICE_REPORT_MISMATCH = "device_report_mismatch"  # a report that disagrees with the state
    # a device driver's defaults (a driver names its own device's codes above)
    DEVICE_LINK = "device_link"
    DEVICE_TAMPERED = "device_tampered"
    # the terminal itself
    RNG_FAILURE = "rng_failure"
    VOUCHER_UNKNOWN = "voucher_unknown"  # a cash-out's voucher not known printed at power-up
    TERMINAL_ID_MISMATCH = "terminal_id_mismatch"  # configured id is not the host link's
    HEAD_WITHDRAWN = "head_withdrawn"  # a second withdrawn head in the window: the operator's
    # a seat of a table (kiosk/terminal/seat)
    TABLE_RESULT_MISMATCH = "table_result_mismatch"  # the seat's own result is not the table's


#: the tilts of a device's money record that disagrees with the journal (a *device records
#: dispute*, kiosk/terminal/runtime/reconcile.py): they stop play *and* cash-out, and no attendant's
#: ClearTilt ends them: only the host's confirmation (``ConfirmDeviceRecords``, which takes a new
#: baseline) or the operator's audited RAM clear (decision 0038)
DISPUTE_TILTS = frozenset({TiltCode.BILL_VALIDATOR_RECONCILE, TiltCode.PRINTER_RECONCILE})
