"""What the kiosk's event loop does for a wired terminal, many times a second.

* process the devices' reports and the decision timers (:meth:`TerminalRuntime.pump`);
* cycle the RNG at random intervals while no round is in play (:class:`rng.BackgroundCycler`),
  on the same thread that deals, so a deal never races a cycle;
* watch an in-process printer: when it cannot print (paper out, a fault) the terminal tilts
  with the reason, and the tilt clears itself when the printer is ready again.  A printer on a
  serial link raises its own tilts (``paper_out``...) through its driver.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from kiosk.terminal.app.wiring import Terminal
from kiosk.terminal.core import commands as c
from kiosk.terminal.core.commands import CommandError
from kiosk.terminal.core.state import Phase
from kiosk.terminal.core.tilts import TiltCode
from kiosk.terminal.devices.inprocess import InProcessPrinter

BETWEEN_ROUNDS = frozenset({Phase.IDLE, Phase.WAGERING, Phase.RESULT})


class TerminalDuties:
    """Call it every frame; it does what is due."""

    def __init__(self, terminal: Terminal, clock: Callable[[], float] = time.monotonic) -> None:
        self.terminal = terminal
        self.clock = clock
        self._next_cycle = clock()

    def __call__(self) -> None:
        self.watch_printer()
        rt = self.terminal.runtime
        rt.pump()
        if self.terminal.seat is not None:  # seated at a table: the controller's steps
            self.terminal.seat.pump()
        cycler = self.terminal.cycler
        if rt.state.phase in BETWEEN_ROUNDS:
            cycler.resume()
            now = self.clock()
            if now >= self._next_cycle:
                self._next_cycle = now + cycler.step()
        else:
            cycler.pause()

    def watch_printer(self) -> None:
        """Raise or clear the printer tilt to match an in-process printer's readiness."""
        rt = self.terminal.runtime
        printer = self.terminal.printer
        if not isinstance(printer, InProcessPrinter) or rt.state.critical is not None:
            return
        tilted = TiltCode.PRINTER in rt.state.tilts
        try:
            if not printer.ready() and not tilted:
                problem = "paper out" if not printer.paper else str(printer.fault)
                reason = f"voucher printer: {problem}; a cash-out is paid by hand"
                rt.execute(c.RaiseTilt(code=TiltCode.PRINTER, reason=reason))
            elif printer.ready() and tilted:
                rt.execute(c.ClearTilt(code=TiltCode.PRINTER, by="printer"))
        except CommandError:
            return  # the tilt table refused (e.g. a store problem locked the terminal)
