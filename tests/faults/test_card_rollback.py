"""The whole card rolled back (issue 23, part 4; decision 0038).

Someone with the SD card copies the terminal's data directory *and* the signer's state, plays
(cashes out a voucher), then writes both back: the journal and the signer's anchor agree with
each other, and only the devices, whose money records are not on the card, know that money
moved since.  The printer's record disputes the journal; the dispute stops play and cash-out,
no attendant's key ends it, ``audit`` fails on it, and only the host's confirmation (which
takes a new baseline) or the operator's audited RAM clear ends it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.terminal.app.simulator import DeviceSimulator
from kiosk.terminal.app.wiring import InProcessDeviceSet, Terminal
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.commands import CommandError, TerminalLockedError
from kiosk.terminal.core.tilts import TiltCode
from kiosk.terminal.service.access import PinStore, Role
from kiosk.terminal.service.backends import InProcessTerminal
from kiosk.terminal.service.functions.base import ServiceError
from kiosk.terminal.signer.client import development_dir
from kiosk.terminal.store.audit import audit
from kiosk.terminal.textui.session import PlaySession
from rng import BackgroundCycler
from tests.helpers.service_rig import CHEAP_KDF, ServiceRig, set_up_pins

PRINTER_DISPUTE = (
    "printer counted 1 vouchers ($120.00) since pairing, the journal 0 vouchers ($0.00)"
)


def _card_files(data_dir: Path) -> list[Path]:
    """What an image of the card holds: the store and the signer's state (the devices keep
    their records in themselves, off the card)."""
    names = ("terminal.sqlite3", "terminal.sqlite3-wal", "terminal.sqlite3-shm")
    return [data_dir / name for name in names]


def _image(rig: ServiceRig, to: Path) -> None:
    to.mkdir()
    for path in _card_files(rig.data_dir):
        if path.exists():
            shutil.copy2(path, to / path.name)
    shutil.copytree(development_dir(rig.data_dir), to / "signer")


def _restore(rig: ServiceRig, image: Path) -> None:
    for path in _card_files(rig.data_dir):
        path.unlink(missing_ok=True)
        if (image / path.name).exists():
            shutil.copy2(image / path.name, path)
    shutil.rmtree(development_dir(rig.data_dir))
    shutil.copytree(image / "signer", development_dir(rig.data_dir))


def _boot(rig: ServiceRig, *, power_cut: bool = False) -> None:
    """Power up again, the service session over the new runtime."""
    rig.runtime = rig.power_cut() if power_cut else rig.boot()
    rig.terminal = InProcessTerminal(
        rig.runtime, validator=rig.validator, printer=rig.printer, rng=rig.rng
    )
    rig.pins = PinStore(rig.terminal, clock=rig.clock, kdf=CHEAP_KDF)
    rig.session = rig.new_session()


def rolled_back(tmp_path: Path, *, power_up: bool = True) -> ServiceRig:
    """A terminal whose whole card was rolled back after a $120 voucher was printed; the
    restored journal has the $120 on the meter again (powered up unless ``power_up`` is
    False)."""
    rig = ServiceRig(tmp_path / "t")
    set_up_pins(rig.runtime)
    rig.runtime.pump()  # the devices' baselines
    rig.insert(100)
    rig.insert(20)
    rig.runtime.close()
    _image(rig, tmp_path / "image")
    rig.runtime = rig.boot()
    rig.runtime.pump()
    rig.runtime.cash_out()
    rig.runtime.pump()
    assert len(rig.printer.printed()) == 1 and rig.runtime.state.credits == [0]
    rig.runtime.close()
    _restore(rig, tmp_path / "image")
    if not power_up:
        return rig
    _boot(rig)
    assert rig.runtime.state.critical is None  # the journal passes its own checks
    assert rig.runtime.state.credits == [12_000]  # the spent credits are back
    rig.runtime.pump()  # the devices answer: the printer's record disputes the journal
    return rig


def test_a_whole_card_rollback_is_caught_and_no_attendant_key_clears_it(tmp_path: Path):
    rig = rolled_back(tmp_path)
    rt = rig.runtime
    tilt = rt.state.tilts[TiltCode.PRINTER_RECONCILE]
    assert tilt.reason == PRINTER_DISPUTE
    # the restored credits cannot be cashed out: no second voucher
    with pytest.raises(TerminalLockedError):
        rt.cash_out()
    rt.pump()
    assert len(rig.printer.printed()) == 1
    assert "device_records" in [lockup.value for lockup in rt.state.lockups()]
    assert not rt.accepting_money()
    # the attendant's key (the service menu's clear_tilt) does not end it
    session = rig.enter(Role.ATTENDANT)
    with pytest.raises(ServiceError, match="device records dispute"):
        session.call("clear_tilt", {"code": TiltCode.PRINTER_RECONCILE})
    session.leave()
    # nor the SIMULATOR panel's attendant key, nor the text terminal's
    terminal = Terminal(
        rt, InProcessDeviceSet(rig.validator, rig.printer), rig.rng, BackgroundCycler(rig.rng)
    )
    said = DeviceSimulator(terminal).attendant_key()
    assert "tilt printer_reconcile needs the host's confirmation" in said
    output: list[str] = []
    PlaySession(terminal, output.append).cmd_attendant([])
    assert "Tilt printer_reconcile needs the host's confirmation or a RAM clear." in output
    # nor does a ClearTilt by anyone
    with pytest.raises(CommandError, match="device records dispute"):
        rt.execute(c.ClearTilt(code=TiltCode.PRINTER_RECONCILE, by="attendant"))
    assert TiltCode.PRINTER_RECONCILE in rt.state.tilts
    with pytest.raises(TerminalLockedError):
        rt.cash_out()
    assert len(rig.printer.printed()) == 1
    # the dispute survives a power cycle (the printer's record is asked again)
    _boot(rig, power_cut=True)
    rt = rig.runtime
    rt.pump()
    assert rt.state.tilts[TiltCode.PRINTER_RECONCILE].reason == PRINTER_DISPUTE
    # and the audit fails on it, in one line naming both figures
    report = audit(rig.data_dir)
    assert not report.ok
    assert any(PRINTER_DISPUTE in p for p in report.problems), report.problems
    rt.close()


def test_the_hosts_confirmation_ends_the_dispute_with_a_new_baseline(tmp_path: Path):
    rig = rolled_back(tmp_path)
    rt = rig.runtime
    code = TiltCode.PRINTER_RECONCILE
    with pytest.raises(CommandError, match="no longer the one confirmed"):
        rt.confirm_device_records(code, by="host operator ann", reason="something else")
    events = rt.confirm_device_records(code, by="host operator ann", reason=PRINTER_DISPUTE)
    kinds = [type(x) for x in events]
    assert kinds == [e.DeviceBaselineRecorded, e.TiltCleared]
    assert events[1].by == "host operator ann"  # type: ignore[attr-defined]
    assert rt.state.tilts == {} and rt.state.lockups() == []
    with pytest.raises(CommandError, match="no device records dispute"):
        rt.confirm_device_records(code, by="host operator ann")
    # the printer is judged from the new baseline: money moves without a dispute
    rig.runtime = rt = rig.power_cut()
    rt.pump()
    assert rt.state.tilts == {}
    rt.cash_out()
    rt.pump()
    assert rt.state.tilts == {} and len(rig.printer.printed()) == 2
    rt.close()


def test_the_operators_ram_clear_ends_the_dispute_with_credits_on_the_meter(tmp_path: Path):
    rig = rolled_back(tmp_path)
    session = rig.enter(Role.OPERATOR)
    outcome = session.call("ram_clear", {"reason": "card rolled back", "confirm": True})
    assert outcome.ok
    rt = rig.runtime
    rt.pump()  # the devices take a baseline of the new store
    assert rt.state.tilts == {} and rt.state.credits == [0]
    session.leave()
    rig.insert(20)
    assert rt.state.tilts == {} and rt.state.credits == [2000]
    rt.close()


def test_audit_judges_the_devices_records_against_a_rolled_back_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    rig = rolled_back(tmp_path, power_up=False)  # audited as it lies, before any power-up
    data_dir = str(rig.data_dir)
    assert main(["audit", "--data-dir", data_dir]) == 1
    out = capsys.readouterr().out
    failures = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert failures == [
        f"FAIL devices: {PRINTER_DISPUTE}: the journal disagrees with the device (an older "
        "image of the card written back, or money the journal never saw)"
    ]
    assert "ok   devices: the bill validator's money record agrees with the journal" in out
    # after the host's confirmation the records agree and the audit passes again
    _boot(rig)
    rig.runtime.pump()
    rig.runtime.confirm_device_records(TiltCode.PRINTER_RECONCILE, by="host operator ann")
    rig.runtime.close()
    assert main(["audit", "--data-dir", data_dir]) == 0, capsys.readouterr().out
    assert "ok   devices: the printer's money record agrees with the journal" in (
        capsys.readouterr().out
    )


def test_no_handpay_is_paid_by_hand_during_a_dispute(tmp_path: Path):
    rig = ServiceRig(tmp_path / "t")
    set_up_pins(rig.runtime)
    rt = rig.runtime
    rig.insert(20)
    rig.printer.paper = False
    rt.cash_out()  # the printer cannot print: a handpay
    assert rt.state.handpay is not None
    rt.execute(c.RaiseTilt(TiltCode.BILL_VALIDATOR_RECONCILE, "figures", needs_attendant=True))
    session = rig.enter(Role.ATTENDANT)
    with pytest.raises(ServiceError, match="device_records"):
        session.call("handpay_reset")
    assert rt.state.handpay is not None and rt.state.credits == [2000]
    rt.close()
