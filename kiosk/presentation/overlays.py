"""What covers the table: lockups with their reason, and the cash-out voucher being printed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from kiosk.presentation.i18n import text
from kiosk.presentation.money import dollars
from kiosk.terminal.state import Lockup, TerminalState
from kiosk.terminal.tilts import TiltCode

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

    kind: str  # a Lockup value, or "printer" for the printer tilt
    title: str
    reason: str
    advice: str
    severity: str  # "critical", "attendant" or "wait"


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


def lockup_view(state: TerminalState, language: str) -> LockupView | None:
    """The lockup to show over the table (the most severe), or None."""
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
        reason = text(language, f"handpay_{hp.kind}", amount=dollars(hp.value))
        return LockupView(lockup.value, _title(language, lockup), reason, attendant, "attendant")
    if lockup is Lockup.TILT:
        code, tilt = next(iter(state.tilts.items()))
        title = (
            text(language, "lock_printer") if code == TiltCode.PRINTER else _title(language, lockup)
        )
        advice = attendant if tilt.needs_attendant else wait
        severity = "attendant" if tilt.needs_attendant else "wait"
        return LockupView(code, title, tilt.reason, advice, severity)
    if lockup is Lockup.DOOR:
        reason = text(language, "doors", doors=", ".join(state.doors_open))
        return LockupView(lockup.value, _title(language, lockup), reason, attendant, "attendant")
    if lockup is Lockup.DISABLED:
        reason = state.disabled or ""
        return LockupView(lockup.value, _title(language, lockup), reason, wait, "wait")
    reason = state.service_role or ""
    return LockupView(lockup.value, _title(language, lockup), reason, wait, "wait")


def store_lockup_view(reason: str, language: str, *, storage_full: bool = False) -> LockupView:
    """The critical memory (or storage-full) lockup; needs nothing but its reason, so the
    touchscreen can show it when the store cannot be opened at all."""
    lockup = Lockup.STORAGE_FULL if storage_full else Lockup.CRITICAL
    attendant = text(language, "call_attendant")
    return LockupView(lockup.value, _title(language, lockup), reason, attendant, "critical")


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
    issued = datetime.fromtimestamp(issued_at / 1000).astimezone().strftime("%Y-%m-%d %H:%M:%S")
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
