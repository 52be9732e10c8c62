"""Every lockup a player can meet reads in the player's language; the terminal's own words stay
for the attendant."""

from __future__ import annotations

import pytest

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.tilts import TiltCode
from kiosk.terminal.devices.inprocess import InProcessPrinter
from kiosk.terminal.hostlink.anchor import ANCHOR_WAIT_REASON
from kiosk.terminal.presentation.overlays import TILT_REASONS, lockup_view
from tests.helpers.presentation_table import Table

#: every tilt code the terminal, its devices and its watchers raise; and one it does not know
TILT_CODES = (*(code.value for code in TiltCode), "door_sensor", "something_new")


def test_every_tilt_code_has_a_reason_a_player_reads() -> None:
    assert set(TiltCode) <= set(TILT_REASONS)


@pytest.mark.parametrize("code", TILT_CODES)
def test_a_tilt_reads_in_spanish(table: Table, code: str) -> None:
    table.rt.execute(
        c.RaiseTilt(code=code, reason=f"{code}: technical words", needs_attendant=True)
    )
    english = lockup_view(table.rt.state, "en")
    spanish = lockup_view(table.rt.state, "es")
    assert english is not None and spanish is not None
    assert spanish.reason != english.reason and spanish.title != english.title
    assert spanish.advice == "Por favor, llame a un asistente"
    assert spanish.detail == english.detail == f"{code}: technical words"
    assert "technical" not in spanish.reason


def test_door_disabled_service_and_critical_read_in_spanish(table: Table) -> None:
    rt = table.rt
    rt.execute(c.SetDoor(door="main", open=True))
    door = lockup_view(rt.state, "es")
    assert door is not None and (door.title, door.reason) == (
        "PUERTA ABIERTA",
        "Abierta: puerta principal",
    )
    rt.execute(c.SetDoor(door="main", open=False))
    rt.execute(c.SetEnabled(enabled=False, reason="host link lost"))
    disabled = lockup_view(rt.state, "es")
    assert disabled is not None
    assert disabled.reason == "El terminal perdió la conexión con el sistema del casino"
    rt.execute(c.SetEnabled(enabled=True, reason="host link back"))
    rt.execute(c.ReportCritical(reason="journal hash chain broken"))
    critical = lockup_view(rt.state, "es")
    assert critical is not None and critical.title == "ERROR CRÍTICO DE MEMORIA"
    assert critical.reason == "El terminal encontró un error en su memoria y se detuvo"
    assert critical.detail == "journal hash chain broken"


def test_printer_out_of_paper_makes_cash_out_a_handpay_and_says_so(table: Table) -> None:
    s, rt = table.session, table.rt
    assert not s.cash_out_by_hand()  # no credits: nothing to pay
    table.note(2000)
    assert not s.cash_out_by_hand()  # the printer prints
    printer = table.terminal.printer
    assert isinstance(printer, InProcessPrinter)
    printer.paper = False
    rt.execute(c.RaiseTilt(code=TiltCode.PRINTER, reason="voucher printer: paper out"))
    assert s.cash_out_by_hand()
    s.set_language("es")
    lockup = s.lockup()
    assert lockup is not None and lockup.title == "IMPRESORA SIN PAPEL"
    assert lockup.advice.startswith("Toque COBRAR para que un asistente le pague")
    assert s.cash_out()
    assert rt.state.handpay is not None and rt.state.handpay.kind == "cancelled_credits"


def test_a_device_records_dispute_and_the_anchor_wait_read_in_both_languages(table: Table) -> None:
    rt = table.rt
    figures = "printer counted 1 vouchers ($120.00) since pairing, the journal 0 vouchers ($0.00)"
    rt.execute(c.RaiseTilt(TiltCode.PRINTER_RECONCILE, figures, needs_attendant=True))
    english, spanish = lockup_view(rt.state, "en"), lockup_view(rt.state, "es")
    assert english is not None and spanish is not None
    assert (english.kind, english.title) == (TiltCode.PRINTER_RECONCILE, "RECORDS DISAGREE")
    assert spanish.title == "REGISTROS DISTINTOS" and spanish.detail == english.detail == figures
    assert "casino" in english.reason and "casino" in spanish.reason
    rt.execute(c.SetEnabled(enabled=False, reason=ANCHOR_WAIT_REASON))
    rt.execute(c.ConfirmDeviceRecords(TiltCode.PRINTER_RECONCILE, "host", "printer", {}, {}))
    waiting = lockup_view(rt.state, "es")
    assert waiting is not None
    assert waiting.reason == "El sistema del casino está verificando los registros del terminal"
