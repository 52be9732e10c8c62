"""Tilt codes are one enum of the terminal layer, journaled as the text they always were."""

from __future__ import annotations

from kiosk.terminal.core import events as e
from kiosk.terminal.core.tilts import TiltCode
from kiosk.terminal.devices import printer_driver, validator_driver
from kiosk.terminal.devices.driver import DriverBase


def test_a_tilt_code_is_journaled_as_its_text_and_reads_back_equal() -> None:
    member = e.TiltRaised(at=1, code=TiltCode.PRINTER, reason="paper out", needs_attendant=False)
    text = e.TiltRaised(at=1, code="printer", reason="paper out", needs_attendant=False)
    assert e.encode(member) == e.encode(text)
    decoded = e.decode(e.encode(member))
    assert isinstance(decoded, e.TiltRaised) and decoded.code == TiltCode.PRINTER == "printer"


def test_every_device_driver_tilt_is_a_member() -> None:
    codes = [
        DriverBase.link_tilt,
        DriverBase.tamper_tilt,
        printer_driver.LINK_TILT,
        printer_driver.RECONCILE_TILT,
        printer_driver.PrinterDriver.tamper_tilt,
        validator_driver.LINK_TILT,
        validator_driver.RECONCILE_TILT,
        validator_driver.ValidatorDriver.tamper_tilt,
        *(code for code, _ in printer_driver.FAULTS.values()),
        *(code for code, _ in validator_driver.FAULTS.values()),
    ]
    assert all(isinstance(code, TiltCode) for code in codes)
    assert len(set(TiltCode)) == len({code.value for code in TiltCode})  # no two share a text
