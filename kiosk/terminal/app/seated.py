"""A kiosk seated at a table (``turbokiosk run --table ADDR --seat N --edition E``): what the
Kivy app adds to the seat runtime (``kiosk.terminal.seat``, which seats the terminal and pumps it).

The table's game is selected on the terminal before the seat joins (``--edition``), and the
app's table bar reads the seat's status every frame (decision 0023).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.commands import CommandError
from kiosk.terminal.core.config import ConfigError
from kiosk.terminal.presentation.table_status import TableStatus, table_status
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.seat.runtime import SeatRuntime

#: how long a seated kiosk waits for its host link's first answer before it selects the game
HOST_WAIT_SECONDS = 30.0


class SeatingError(Exception):
    """The terminal cannot play the table's game (not enabled here, or not now)."""


def await_host_check(
    runtime: TerminalRuntime, seconds: float = HOST_WAIT_SECONDS, step: float = 0.02
) -> None:
    """Pump the terminal until its host link's anchor check has lifted the power-up wait
    (decision 0038: no game is selected or played before it), at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while runtime.state.disabled == c.ANCHOR_WAIT:
        if time.monotonic() >= deadline:
            raise SeatingError(
                f"the host link did not answer within {seconds:.0f} s, and play waits for its"
                " check (--host: the casino host's address; --no-host: a terminal without one)"
            )
        runtime.pump()
        time.sleep(step)


def select_table_game(runtime: TerminalRuntime, edition: str) -> None:
    """Select the table's game on the powered-up terminal (the player cannot change it at a
    table: the screen offers no game menu there), once its host link's check allows play."""
    await_host_check(runtime)
    try:
        runtime.state.config.edition(edition)
        if runtime.state.selected_edition != edition:
            runtime.execute(c.SelectEdition(edition))
    except (ConfigError, CommandError) as exc:
        raise SeatingError(f"the table's game {edition}: {exc}") from exc


def status_reader(seat: SeatRuntime) -> Callable[[], TableStatus]:
    """The table bar's source: the seat's status now."""
    return lambda: table_status(seat)
