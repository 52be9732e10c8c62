"""Each device fault shows its tilt on the player's screen, in the player's language (issue 25):
the real Kivy app, offscreen, its lockup overlay read back for every fault the bridge's
protocols report (the same ``RaiseTilt`` the drivers raise); paper low is a notice, not a
lockup.  The screenshots of the same screens: docs/screenshots/800x480/39-... to 58-..."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk.terminal.app.kiosk import build_app
from kiosk.tools.tour import tour_terminal
from kiosk.tools.tour_faults import DEVICE_FAULTS, clear_fault, show_fault
from ui.terminal.driver import Driver

VALIDATOR = {"en": "BILL VALIDATOR FAULT", "es": "FALLO DEL LECTOR DE BILLETES"}
PRINTER = {"en": "PRINTER FAULT", "es": "FALLO DE IMPRESORA"}
#: fault -> language -> (title, reason) as the player reads them (a notice: title "")
EXPECTED: dict[str, dict[str, tuple[str, str]]] = {
    "bill-jam": {
        "en": (VALIDATOR["en"], "A note is jammed in the bill validator"),
        "es": (VALIDATOR["es"], "Hay un billete atascado en el lector de billetes"),
    },
    "cashbox-full": {
        "en": (VALIDATOR["en"], "The bill validator's cash box is full"),
        "es": (VALIDATOR["es"], "La caja de billetes del lector está llena"),
    },
    "cashbox-removed": {
        "en": (VALIDATOR["en"], "The bill validator's cash box has been removed"),
        "es": (VALIDATOR["es"], "Se ha retirado la caja de billetes del lector"),
    },
    "cheated": {
        "en": (VALIDATOR["en"], "The bill validator detected a cheating attempt"),
        "es": (VALIDATOR["es"], "El lector de billetes detectó un intento de fraude"),
    },
    "validator-link-lost": {
        "en": (VALIDATOR["en"], "The bill validator is not answering"),
        "es": (VALIDATOR["es"], "El lector de billetes no responde"),
    },
    "paper-low": {
        "en": ("", "The voucher printer's paper is running low"),
        "es": ("", "A la impresora de vales le queda poco papel"),
    },
    "paper-out": {
        "en": ("PRINTER OUT OF PAPER", "The voucher printer is out of paper"),
        "es": ("IMPRESORA SIN PAPEL", "La impresora de vales no tiene papel"),
    },
    "head-open": {
        "en": (PRINTER["en"], "The voucher printer's head is open"),
        "es": (PRINTER["es"], "El cabezal de la impresora de vales está abierto"),
    },
    "printer-jam": {
        "en": (PRINTER["en"], "The voucher printer is jammed"),
        "es": (PRINTER["es"], "La impresora de vales está atascada"),
    },
    "printer-link-lost": {
        "en": (PRINTER["en"], "The voucher printer is not answering"),
        "es": (PRINTER["es"], "La impresora de vales no responde"),
    },
}


def shown(app: Any) -> tuple[str, str]:
    """What covers the table: the lockup's title and reason, or ("", the notice)."""
    overlay = app.lockup_overlay
    if overlay.parent is not None:
        return overlay.title, overlay.reason
    return "", app.notice_text


def test_every_device_fault_shows_its_tilt_in_both_languages(tmp_path: Path) -> None:
    assert sorted(f.name for f in DEVICE_FAULTS) == sorted(EXPECTED)
    tour = tour_terminal(tmp_path, fixed=True)
    app: Any = build_app(tour.terminal, show_simulator=False, speed=0.15, clock=tour.player_clock)
    d = Driver(app, (800, 480))
    try:
        d.settle()
        d.tap_at(400, 240)
        app.root.ids.sim.act("note", 2000)
        d.frames(3)
        d.tap("game:turbo-football")
        app.session.dismiss_notice()  # "$20.00 added" (the tour's clock stands still)
        d.frames(3)
        for language in ("en", "es"):
            if app.session.language != language:
                d.tap("language")
            for fault in DEVICE_FAULTS:
                assert shown(app) == ("", ""), f"{fault.name}: the screen was not clear before"
                show_fault(app, fault)
                d.frames(3)
                assert shown(app) == EXPECTED[fault.name][language], (fault.name, language)
                if fault.code and language == "en":  # the attendant reads the driver's words
                    assert fault.reason in app.lockup_overlay.detail
                elif fault.code:  # in Spanish the tilt's code (the driver's words are English)
                    assert str(fault.code) in app.lockup_overlay.detail
                clear_fault(app, fault)
                d.frames(3)
                assert shown(app) == ("", ""), f"{fault.name}: still shown once cleared"
    finally:
        d.close()
        tour.terminal.runtime.close()
