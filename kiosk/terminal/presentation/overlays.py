"""What covers the table: lockups with their reason, and the cash-out voucher being printed."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.kernel.time_text import date_time
from kiosk.terminal.core.state import Lockup, TerminalState
from kiosk.terminal.core.tilts import DISPUTE_TILTS, TiltCode
from kiosk.terminal.presentation.i18n import text
from kiosk.terminal.presentation.money import dollars

#: Interleaved 2 of 5: narrow (0) / wide (1) elements of each digit.
_I2OF5 = (
    "00110",
    "10001",
    "01001",
    "11000",
    "00101",
    "10100",
    "01100",
    "00011",
    "10010",
    "01010",
)
WIDE = 3  # a wide element is three narrow modules


@dataclass(frozen=True)
class LockupView:
    """The most severe lockup: its title, why, and what the player should do."""

    kind: str  # a Lockup value, or the tilt's code
    title: str
    reason: str  # in the player's language
    advice: str
    severity: str  # "critical", "attendant" or "wait"
    detail: str = ""  # the terminal's own record of it (the event log's words), for the attendant
    detail_text: str = ""  # the detail as shown: "For the attendant: ..."


@dataclass(frozen=True)
class VoucherView:
    """A cash-out voucher as printed (TITO): amount, validation number and its barcode."""

    printing: bool
    amount_text: str
    validation_text: str  # "00-1234-5678-9012-3456"
    barcode: tuple[int, ...]  # module widths, bar first, alternating bar and space
    terminal_text: str
    venue: str
    issued_text: str
    expires_text: str
    status_text: str


#: every tilt code -> the catalogue key of the reason a player reads (the terminal's own words
#: stay in the lockup's detail, for the attendant)
TILT_REASONS: dict[str, str] = {
    TiltCode.PRINTER: "tilt_printer",
    TiltCode.PAPER_OUT: "tilt_paper",
    TiltCode.PRINTER_JAM: "tilt_printer_jam",
    TiltCode.HEAD_OPEN: "tilt_head_open",
    TiltCode.PRINTER_LINK: "tilt_printer_link",
    TiltCode.PRINTER_RECONCILE: "tilt_printer",
    TiltCode.PRINTER_TAMPERED: "tilt_printer",
    TiltCode.BILL_JAM: "tilt_bill_jam",
    TiltCode.CASHBOX_FULL: "tilt_cashbox_full",
    TiltCode.BILL_VALIDATOR_CHEATED: "tilt_cheated",
    TiltCode.BILL_VALIDATOR_FAILURE: "tilt_validator",
    TiltCode.CASHBOX_REMOVED: "tilt_cashbox_removed",
    TiltCode.BILL_VALIDATOR_LINK: "tilt_validator_link",
    TiltCode.BILL_VALIDATOR_RECONCILE: "tilt_validator",
    TiltCode.BILL_VALIDATOR_TAMPERED: "tilt_validator",
    TiltCode.DEVICE_REPORT_MISMATCH: "tilt_device",
    TiltCode.DEVICE_LINK: "tilt_device",
    TiltCode.DEVICE_TAMPERED: "tilt_device",
    TiltCode.RNG_FAILURE: "tilt_rng",
    TiltCode.VOUCHER_UNKNOWN: "tilt_voucher",
    TiltCode.TERMINAL_ID_MISMATCH: "tilt_config",
    TiltCode.TABLE_RESULT_MISMATCH: "tilt_table",
    TiltCode.HEAD_WITHDRAWN: "tilt_records",
    "door_sensor": "tilt_door_sensor",  # the service menu's sample tilt
}


#: the device tilts whose lockup is titled by the device (the rest: "OUT OF ORDER")
DEVICE_TITLES: dict[str, str] = {
    **dict.fromkeys(
        (
            TiltCode.BILL_JAM,
            TiltCode.CASHBOX_FULL,
            TiltCode.CASHBOX_REMOVED,
            TiltCode.BILL_VALIDATOR_CHEATED,
            TiltCode.BILL_VALIDATOR_FAILURE,
            TiltCode.BILL_VALIDATOR_LINK,
        ),
        "lock_validator_fault",
    ),
    **dict.fromkeys(
        (TiltCode.PRINTER, TiltCode.PRINTER_JAM, TiltCode.HEAD_OPEN), "lock_printer_fault"
    ),
    TiltCode.PRINTER_LINK: "lock_printer_fault",
}


def printer_paper_out(code: str, reason: str) -> bool:
    """Whether a tilt is the voucher printer out of paper."""
    return code == TiltCode.PAPER_OUT or (code == TiltCode.PRINTER and "paper" in reason)


def tilt_reason(code: str, reason: str, language: str) -> str:
    """A tilt's reason in the player's language (a code the table does not know: a fault)."""
    if printer_paper_out(code, reason):
        return text(language, "tilt_paper")
    return text(language, TILT_REASONS.get(code, "tilt_fault"))


def lockup_view(
    state: TerminalState, language: str, *, cash_out_handpay: bool = False
) -> LockupView | None:
    """The lockup to show over the table (the most severe), or None.  ``cash_out_handpay``:
    CASH OUT would now be paid by hand (the printer cannot print), which the advice says."""
    active = state.lockups()
    if not active:
        return None
    lockup = active[0]
    attendant = text(language, "call_attendant")
    wait = text(language, "wait_service")
    if lockup is Lockup.CRITICAL:
        return store_lockup_view(state.critical or "", language)
    if lockup is Lockup.STORAGE_FULL:
        return store_lockup_view(state.storage_full or "", language, storage_full=True)
    if lockup is Lockup.HANDPAY:
        hp = state.handpay
        assert hp is not None
        reason = text(language, f"handpay_{hp.kind}", amount=dollars(hp.value), name=hp.name)
        return LockupView(lockup.value, _title(language, lockup), reason, attendant, "attendant")
    if lockup is Lockup.DEVICE_RECORDS:
        code, tilt = next((k, t) for k, t in state.tilts.items() if k in DISPUTE_TILTS)
        reason = text(language, "device_records_reason")
        title = _title(language, lockup)
        return _view(language, code, title, reason, attendant, "attendant", tilt.reason)
    if lockup is Lockup.TILT:
        code, tilt = next(iter(state.tilts.items()))
        detail = tilt.reason
        title = _title(language, lockup)
        if printer_paper_out(code, detail):
            title = text(language, "lock_printer")
        elif code in DEVICE_TITLES:
            title = text(language, DEVICE_TITLES[code])
        advice = attendant if tilt.needs_attendant else wait
        severity = "attendant" if tilt.needs_attendant else "wait"
        if cash_out_handpay and state.credits and state.credits[0] > 0:
            advice = text(language, "cash_out_by_hand")
        reason = tilt_reason(code, detail, language)
        return _view(language, code, title, reason, advice, severity, detail)
    if lockup is Lockup.DOOR:
        doors = ", ".join(_door(language, door) for door in state.doors_open)
        reason = text(language, "doors", doors=doors)
        detail = "open: " + ", ".join(state.doors_open)
        return _view(
            language, lockup.value, _title(language, lockup), reason, attendant, "attendant", detail
        )
    if lockup is Lockup.DISABLED:
        detail = state.disabled or ""
        key = "disabled_link" if "link" in detail else "disabled_host"
        key = "disabled_anchor" if "anchor" in detail else key
        reason = text(language, key)
        return _view(language, lockup.value, _title(language, lockup), reason, wait, "wait", detail)
    detail = state.service_role or ""
    reason = text(language, "service_reason")
    return _view(language, lockup.value, _title(language, lockup), reason, wait, "wait", detail)


def _view(
    language: str, kind: str, title: str, reason: str, advice: str, severity: str, detail: str
) -> LockupView:
    """A lockup view whose detail is also shown, labelled for the attendant: the terminal's own
    words in English; in another language the lockup's code (the reason above it is already in
    the player's language), never an English line on a Spanish screen."""
    words = detail if language == "en" else text(language, "attendant_code", code=kind)
    shown = text(language, "attendant_detail", detail=words) if detail else ""
    return LockupView(kind, title, reason, advice, severity, detail, shown)


def _door(language: str, door: str) -> str:
    """A door's name in the player's language (a door the catalogue does not know: its id)."""
    try:
        return text(language, f"door_{door}")
    except KeyError:
        return door


def store_lockup_view(reason: str, language: str, *, storage_full: bool = False) -> LockupView:
    """The critical memory (or storage-full) lockup; needs nothing but its reason, so the
    touchscreen can show it when the store cannot be opened at all."""
    lockup = Lockup.STORAGE_FULL if storage_full else Lockup.CRITICAL
    attendant = text(language, "call_attendant")
    shown = text(language, "storage_full_reason" if storage_full else "critical_reason")
    return _view(
        language, lockup.value, _title(language, lockup), shown, attendant, "critical", reason
    )


def _title(language: str, lockup: Lockup) -> str:
    return text(language, f"lock_{lockup.value}")


def validation_text(number: str) -> str:
    """An 18-digit validation number grouped as printed: ``00-1234-5678-9012-3456``."""
    groups = [number[:2], *(number[i : i + 4] for i in range(2, len(number), 4))]
    return "-".join(groups)


def interleaved_2_of_5(digits: str) -> tuple[int, ...]:
    """Module widths of an Interleaved 2 of 5 barcode (the TITO voucher symbology).

    Starts with a bar; bars and spaces alternate; a wide element is :data:`WIDE` modules.
    Raises ValueError unless ``digits`` is an even number of decimal digits.
    """
    if not digits.isdigit() or len(digits) % 2:
        raise ValueError(f"Interleaved 2 of 5 needs an even number of digits, got {digits!r}")
    widths = [1, 1, 1, 1]  # start: narrow bar, space, bar, space
    for i in range(0, len(digits), 2):
        bars, spaces = _I2OF5[int(digits[i])], _I2OF5[int(digits[i + 1])]
        for bar, space in zip(bars, spaces, strict=True):
            widths += [WIDE if bar == "1" else 1, WIDE if space == "1" else 1]
    widths += [WIDE, 1, 1]  # stop: wide bar, narrow space, narrow bar
    return tuple(widths)


def voucher_view(
    *,
    value: int,
    validation_number: str,
    issued_at: int,
    sequence: int,
    state: TerminalState,
    printing: bool,
    language: str,
) -> VoucherView:
    """The voucher of a cash-out (``printing`` while the printer has not yet reported)."""
    cfg = state.config
    issued = date_time(issued_at)
    return VoucherView(
        printing=printing,
        amount_text=dollars(value),
        validation_text=validation_text(validation_number),
        barcode=interleaved_2_of_5(validation_number),
        terminal_text=text(
            language, "voucher_terminal", terminal=cfg.terminal_id, sequence=sequence
        ),
        venue=cfg.venue,
        issued_text=issued,
        expires_text=text(language, "voucher_expires", days=cfg.voucher_expiry_days),
        status_text=text(language, "voucher_printing" if printing else "voucher_take"),
    )
