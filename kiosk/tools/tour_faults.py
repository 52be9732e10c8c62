"""The device faults in the scripted visit: each one's tilt on the player's screen, in both
languages (``docs/screenshots/800x480/39-...``).

A fault is raised as its driver raises it (``RaiseTilt`` with the driver's own code and words:
``kiosk.terminal.devices.validator_driver.FAULTS``, ``printer_driver.FAULTS``, the link's
"... link lost"), whatever protocol the device speaks behind the bridge (docs/devices.md,
"Faults and tilts"); paper low is a warning, not a tilt: the in-process printer says so and the
screen shows a notice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.tilts import TiltCode
from kiosk.terminal.devices import printer_driver, validator_driver


@dataclass(frozen=True)
class DeviceFault:
    """One fault as the terminal hears it: its tilt code and the driver's words ("" for paper
    low, which raises no tilt)."""

    name: str  # in the screenshot's file name
    code: str
    reason: str


def _driver(faults: dict[str, tuple[TiltCode, str]], key: str, name: str) -> DeviceFault:
    code, reason = faults[key]
    return DeviceFault(name, code, reason)


#: every device fault the bridge's protocols report, in the order of the screenshots
DEVICE_FAULTS: tuple[DeviceFault, ...] = (
    _driver(validator_driver.FAULTS, "jammed", "bill-jam"),
    _driver(validator_driver.FAULTS, "cashbox_full", "cashbox-full"),
    _driver(validator_driver.FAULTS, "cashbox_removed", "cashbox-removed"),
    _driver(validator_driver.FAULTS, "cheated", "cheated"),
    DeviceFault("validator-link-lost", TiltCode.BILL_VALIDATOR_LINK, "bill validator link lost"),
    DeviceFault("paper-low", "", ""),
    _driver(printer_driver.FAULTS, "paper_out", "paper-out"),
    _driver(printer_driver.FAULTS, "head_open", "head-open"),
    _driver(printer_driver.FAULTS, "jammed", "printer-jam"),
    DeviceFault("printer-link-lost", TiltCode.PRINTER_LINK, "printer link lost"),
)
#: the first screenshot number of the faults (after the visit's others)
FIRST_NUMBER = 39


def show_fault(app: Any, fault: DeviceFault) -> None:
    """Raise ``fault`` on the app's terminal (paper low: the printer's warning)."""
    if not fault.code:
        app.session.rt.printer.paper_low = True
        app.session.dismiss_notice()  # the warning comes with the next tick, as it would
        app.session.tick()
        return
    app.session.rt.execute(c.RaiseTilt(code=fault.code, reason=fault.reason))


def clear_fault(app: Any, fault: DeviceFault) -> None:
    """The fault is gone (as the device's next status says)."""
    if not fault.code:
        app.session.rt.printer.paper_low = False
        app.session.dismiss_notice()
        return
    app.session.rt.execute(c.ClearTilt(code=fault.code))


def visit_faults(d: Any, shot: Callable[[str], None]) -> None:
    """Each fault's screen in English, then in Spanish (the player's language button)."""
    number = FIRST_NUMBER
    d.app.session.dismiss_notice()  # a notice left from before (the visit's clock stands still)
    for suffix in ("", "-es"):
        if suffix:
            d.tap("language")
        for fault in DEVICE_FAULTS:
            show_fault(d.app, fault)
            d.frames(3)
            shot(f"{number}-fault-{fault.name}{suffix}")
            clear_fault(d.app, fault)
            d.frames(3)
            number += 1
        if suffix:
            d.tap("language")
