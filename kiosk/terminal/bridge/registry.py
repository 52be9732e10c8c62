"""The native protocols a bridge speaks, by the name ``--protocol`` takes.

Each entry makes a fresh sans-IO host side with the defaults a bridge needs (eSSP: encrypted,
the ITL default fixed key; EBDS: the US dollar denomination table); nothing else in the bridge
names a protocol.
"""

from __future__ import annotations

from collections.abc import Callable

from kiosk.terminal.bridge.ebds.host import EbdsValidator
from kiosk.terminal.bridge.essp.host import EsspValidator
from kiosk.terminal.bridge.id003.host import Id003Validator
from kiosk.terminal.bridge.native import NativeValidator
from kiosk.terminal.bridge.tcl.host import TclPrinter

VALIDATOR_PROTOCOLS: dict[str, Callable[[], NativeValidator]] = {
    "id003": Id003Validator,
    "essp": EsspValidator,
    "ebds": EbdsValidator,
}

PRINTER_PROTOCOLS: dict[str, Callable[[], TclPrinter]] = {
    "tcl": TclPrinter,
}
