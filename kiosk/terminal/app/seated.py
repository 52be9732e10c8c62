"""A kiosk seated at a table (``turbokiosk run --table ADDR --seat N --edition E``): what the
Kivy app adds to the seat runtime (``kiosk.terminal.seat``, which seats the terminal and pumps it).

The table's game is selected on the terminal before the seat joins (``--edition``), and the
app's table bar reads the seat's status every frame (decision 0023).
"""

from __future__ import annotations

from collections.abc import Callable

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.commands import CommandError
from kiosk.terminal.core.config import ConfigError
from kiosk.terminal.presentation.table_status import TableStatus, table_status
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.seat.runtime import SeatRuntime


class SeatingError(Exception):
    """The terminal cannot play the table's game (not enabled here, or not now)."""


def select_table_game(runtime: TerminalRuntime, edition: str) -> None:
    """Select the table's game on the powered-up terminal (the player cannot change it at a
    table: the screen offers no game menu there)."""
    try:
        runtime.state.config.edition(edition)
        if runtime.state.selected_edition != edition:
            runtime.execute(c.SelectEdition(edition))
    except (ConfigError, CommandError) as exc:
        raise SeatingError(f"the table's game {edition}: {exc}") from exc


def status_reader(seat: SeatRuntime) -> Callable[[], TableStatus]:
    """The table bar's source: the seat's status now."""
    return lambda: table_status(seat)
