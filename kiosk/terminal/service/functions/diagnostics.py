"""The technician's device diagnostics: bill validator test, test voucher, touchscreen and
display tests, door and key status, device and host link status with their counters."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kiosk.terminal.devices.ports import BillValidatorTestMode, PrinterTestPrint
from kiosk.terminal.presentation.money import dollars
from kiosk.terminal.service.access import Role
from kiosk.terminal.service.backends import ServiceTerminal
from kiosk.terminal.service.functions.base import (
    Context,
    Outcome,
    ServiceError,
    ServiceFunction,
    arg_int,
)

#: meters shown with the device status, as counters
DEVICE_COUNTERS = (
    "bills_in_count",
    "bills_in",
    "tickets_in_count",
    "tickets_out_count",
    "handpay_count",
    "door_opens",
    "power_resets",
    "tilts",
)


# --- bill validator test ------------------------------------------------------------------------


def _test_validator(terminal: ServiceTerminal) -> BillValidatorTestMode:
    validator = terminal.validator
    if not isinstance(validator, BillValidatorTestMode):
        raise ServiceError("this bill validator has no test mode", "err_no_test_mode")
    return validator


def stop_bill_test(terminal: ServiceTerminal) -> bool:
    """Switch a running bill validator test off; True when one was running."""
    validator = terminal.validator
    if isinstance(validator, BillValidatorTestMode) and getattr(validator, "test_mode", False):
        validator.set_test_mode(False)
        return True
    return False


def _bill_watch(ctx: Context, args: Mapping[str, Any]) -> dict[str, Any]:
    validator = ctx.terminal.validator
    if not isinstance(validator, BillValidatorTestMode):
        return {"test_mode": False}
    return {"test_mode": bool(getattr(validator, "test_mode", False))}


def bill_test(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """``start``: notes are read and handed back without credit; ``status``; ``stop``.

    While the test runs the validator takes every note it knows (and tickets, when it reads
    them), service mode or not, and returns each one; stopping it restores the terminal's own
    acceptance.  A validator that reads tickets lists them too (``test_tickets``).
    """
    action = args.get("action", "status")
    validator = _test_validator(ctx.terminal)
    if action == "start":
        validator.set_test_mode(True)
    elif action == "stop":
        validator.set_test_mode(False)
    elif action != "status":
        raise ServiceError(f"action: start, status or stop, not {action!r}")
    notes = validator.test_notes()
    running = bool(getattr(validator, "test_mode", False))
    lines = [
        "Bill validator test "
        + ("running: insert notes, each is read and returned" if running else "stopped"),
        f"Notes read and returned: {len(notes)}"
        + (f" ({', '.join(dollars(v) for v in notes)})" if notes else ""),
    ]
    data: dict[str, Any] = {"running": running, "notes": notes}
    read_tickets = getattr(validator, "test_tickets", None)
    if callable(read_tickets):
        data["tickets"] = tickets = list(read_tickets())
        lines.append(f"Tickets read and returned: {len(tickets)}")
    return Outcome("Bill validator test", tuple(lines), data)


# --- test voucher -----------------------------------------------------------------------------


def voucher_test(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Print a VOID test voucher (no value, no validation number)."""
    printer = ctx.terminal.printer
    if not isinstance(printer, PrinterTestPrint):
        raise ServiceError("this printer cannot print a test voucher", "err_no_test_print")
    config = ctx.terminal.state().config
    problem = printer.print_test_voucher(config.terminal_id, config.venue, ctx.now())
    if problem is not None:
        text = f"Test voucher NOT printed: {problem}"
        return Outcome(text, (text,), {"printed": False, "problem": problem}, ok=False)
    text = "Test voucher printed (VOID, no value)"
    return Outcome(text, (text,), {"printed": True})


# --- touchscreen and display ----------------------------------------------------------------------


@dataclass
class TouchTest:
    """A grid of targets; the test passes when every one was touched."""

    columns: int = 4
    rows: int = 3
    hit: set[tuple[int, int]] = field(default_factory=set)

    def touch(self, x: float, y: float) -> tuple[int, int] | None:
        """Register a touch at ``(x, y)`` in [0, 1) screen fractions; the cell hit, if any."""
        if not (0 <= x < 1 and 0 <= y < 1):
            return None
        cell = (int(x * self.columns), int(y * self.rows))
        self.hit.add(cell)
        return cell

    @property
    def cells(self) -> int:
        """Number of targets."""
        return self.columns * self.rows

    @property
    def passed(self) -> bool:
        """Every target touched."""
        return len(self.hit) == self.cells


@dataclass(frozen=True)
class DisplayPattern:
    """A test pattern: what the screen shows and what the technician looks for."""

    name: str
    title: str
    colors: tuple[tuple[float, float, float], ...]  # RGB 0..1: one = solid, several = bars
    look_for: str


DISPLAY_PATTERNS = (
    DisplayPattern("white", "White", ((1, 1, 1),), "dark pixels, uneven backlight"),
    DisplayPattern("black", "Black", ((0, 0, 0),), "stuck bright pixels, backlight bleed"),
    DisplayPattern("red", "Red", ((1, 0, 0),), "dead red sub-pixels"),
    DisplayPattern("green", "Green", ((0, 1, 0),), "dead green sub-pixels"),
    DisplayPattern("blue", "Blue", ((0, 0, 1),), "dead blue sub-pixels"),
    DisplayPattern(
        "bars",
        "Colour bars",
        ((1, 1, 1), (1, 1, 0), (0, 1, 1), (0, 1, 0), (1, 0, 1), (1, 0, 0), (0, 0, 1), (0, 0, 0)),
        "colour order and saturation",
    ),
    DisplayPattern(
        "greys",
        "Grey steps",
        tuple((v / 7, v / 7, v / 7) for v in range(8)),
        "eight distinct steps, black to white",
    ),
    DisplayPattern("grid", "Grid", ((1, 1, 1), (0, 0, 0)), "straight lines reaching every edge"),
)


def touch_test(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Record a touchscreen test run on the screen: targets touched of the targets shown."""
    cells = arg_int(args, "cells", 12)
    hit = arg_int(args, "hit", 0, low=0)
    if hit > cells:
        raise ServiceError(f"hit: at most {cells} targets, not {hit}")
    passed = hit == cells
    text = f"Touchscreen test {'passed' if passed else 'FAILED'}: {hit} of {cells} targets"
    return Outcome(text, (text,), {"cells": cells, "hit": hit, "passed": passed}, ok=passed)


def display_test(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Record a display test: the patterns shown and the technician's verdict."""
    known = {p.name for p in DISPLAY_PATTERNS}
    shown = list(args.get("patterns") or [])
    unknown = [p for p in shown if p not in known]
    if unknown or not shown:
        raise ServiceError(f"patterns: some of {', '.join(sorted(known))}")
    verdict = args.get("verdict", "pass")
    if verdict not in ("pass", "fail"):
        raise ServiceError(f"verdict: pass or fail, not {verdict!r}")
    text = f"Display test {verdict}: {', '.join(shown)}"
    data = {"patterns": shown, "verdict": verdict}
    return Outcome(text, (text,), data, ok=verdict == "pass")


# --- doors, key, devices and the host link ---------------------------------------------


def doors(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Door switches and the service key."""
    s = ctx.terminal.state()
    lines = [
        f"Service key: {'on' if ctx.key_on else 'off'}",
        f"Doors open: {', '.join(s.doors_open) if s.doors_open else 'none (all closed)'}",
        f"Door openings (lifetime): {s.lifetime['door_opens']:,}",
    ]
    data = {
        "key_on": ctx.key_on,
        "doors_open": list(s.doors_open),
        "door_opens": s.lifetime["door_opens"],
    }
    return Outcome("Door and key status", tuple(lines), data)


def _validator_status(validator: object | None) -> dict[str, Any]:
    if validator is None:
        return {"connected": None}
    status: dict[str, Any] = {
        "kind": type(validator).__name__,
        "enabled": getattr(validator, "enabled", None),
        "notes": list(getattr(validator, "notes", ())),
        "test_mode": getattr(validator, "test_mode", False),
    }
    cashbox = getattr(validator, "cashbox_total", None)
    if callable(cashbox):
        status["cashbox_total"] = cashbox()
    return status


def _printer_status(printer: object | None) -> dict[str, Any]:
    if printer is None:
        return {"connected": None}
    ready = getattr(printer, "ready", None)
    return {
        "kind": type(printer).__name__,
        "ready": ready() if callable(ready) else None,
        "paper": getattr(printer, "paper", None),
        "fault": getattr(printer, "fault", None),
        "test_vouchers": getattr(printer, "test_vouchers", 0),
    }


def devices(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Bill validator, printer and host link: state and counters."""
    s = ctx.terminal.state()
    with ctx.terminal.reading() as journal:
        pending, oldest = journal.db.execute("SELECT COUNT(*), MIN(id) FROM outbox").fetchone()
    validator = _validator_status(ctx.terminal.validator)
    printer = _printer_status(ctx.terminal.printer)
    host = dict(ctx.terminal.host_status() or {})
    host.setdefault("address", s.config.host_address)  # the link's own, when one runs here
    if host["address"] != s.config.host_address:  # the installation's address, not the menu's
        host["configured_address"] = s.config.host_address
    host.update(outbox_pending=pending, outbox_oldest_id=oldest)
    counters = {name: s.lifetime[name] for name in DEVICE_COUNTERS}
    lines = ["Bill validator: " + _fields(validator), "Printer: " + _fields(printer)]
    lines.append("Host link: " + _fields(host))
    lines.append("Counters (lifetime): " + _fields(counters))
    data = {"validator": validator, "printer": printer, "host": host, "counters": counters}
    return Outcome("Device and host link status", tuple(lines), data)


def _fields(values: Mapping[str, Any]) -> str:
    shown = [
        f"{k}={'not driven by this process' if v is None and k == 'connected' else v}"
        for k, v in values.items()
    ]
    return ", ".join(shown)


FUNCTIONS = (
    ServiceFunction(
        "bill_test",
        "Bill validator test",
        Role.TECHNICIAN,
        bill_test,
        watch=_bill_watch,
        devices=True,
        help="notes accepted and returned without credit",
    ),
    ServiceFunction(
        "voucher_test",
        "Test voucher",
        Role.TECHNICIAN,
        voucher_test,
        devices=True,
        help="print a VOID test voucher",
    ),
    ServiceFunction(
        "touch_test",
        "Touchscreen test",
        Role.TECHNICIAN,
        touch_test,
        help="record a touchscreen test",
    ),
    ServiceFunction(
        "display_test",
        "Display test patterns",
        Role.TECHNICIAN,
        display_test,
        help="record a display test",
    ),
    ServiceFunction(
        "doors", "Door and key status", Role.TECHNICIAN, doors, help="door switches, service key"
    ),
    ServiceFunction(
        "devices",
        "Device and host link status",
        Role.TECHNICIAN,
        devices,
        help="validator, printer, host link and their counters",
    ),
)
