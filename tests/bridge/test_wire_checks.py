"""The MicroPython known-answer checks of the wire codecs, run here under CPython too."""

from __future__ import annotations

from kiosk.terminal.bridge.ebds import wire as ebds_wire
from kiosk.terminal.bridge.essp import wire as ssp_wire
from tests.micropython.bridge_codec_checks import run_checks


def test_the_wire_checks_pass_on_cpython() -> None:
    assert run_checks(ssp_wire, ebds_wire) == 11
