"""A kiosk seated at a table (``turbokiosk run --table ADDR``): the Kivy app on the seat
runtime (``kiosk.seat``).

The terminal keeps its money (credits, meters, journal, vouchers, host link); the seat runtime
commits its wagers before it reports them and takes its cards from the controller.  Here the
composition: the table's game selected on the terminal, the seat's client started with the
terminal's ``seat-<n>`` certificate, the seat pumped every frame after the terminal's own
duties, the player's DEAL and decisions sent through the seat (``PlayerSession.table``), and
the table bar fed from the seat's status (decision 0023).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kiosk.presentation.table_status import TableStatus, table_status
from kiosk.seat.runtime import SeatRuntime
from kiosk.terminal import commands as c
from kiosk.terminal.commands import CommandError
from kiosk.terminal.config import ConfigError


class SeatingError(Exception):
    """The terminal cannot sit at the table (its game is not enabled here, no certificate)."""


@dataclass(frozen=True)
class TableSeat:
    """Where and as whom the kiosk sits: the command line's ``--table`` and its companions."""

    address: str  # the controller's HOST:PORT
    table_id: str
    seat: int
    pki_dir: Path  # holds ca.pem and seat-<n>.pem / seat-<n>.key
    edition: str  # the table's game


def sit(terminal_runtime: object, table: TableSeat) -> SeatRuntime:
    """Select the table's game on the powered-up terminal and start its seat's client."""
    from kiosk.hostlink import pki
    from kiosk.runtime.terminal import TerminalRuntime

    assert isinstance(terminal_runtime, TerminalRuntime)
    rt = terminal_runtime
    try:
        rt.state.config.edition(table.edition)
        if rt.state.selected_edition != table.edition:
            rt.execute(c.SelectEdition(table.edition))
    except (ConfigError, CommandError) as exc:
        raise SeatingError(f"the table's game {table.edition}: {exc}") from exc
    try:
        return SeatRuntime.over_tls(
            rt, table.address, table.table_id, table.seat, str(table.pki_dir)
        )
    except pki.PkiError as exc:
        raise SeatingError(f"seat-{table.seat}'s certificate: {exc}") from exc


class SeatDuties:
    """The terminal's duties, then the seat's: the controller's news brought into the
    terminal on the event loop's thread, once a frame."""

    def __init__(self, duties: Callable[[], None], seat: SeatRuntime) -> None:
        self.duties, self.seat = duties, seat

    def __call__(self) -> None:
        self.duties()
        self.seat.pump()


def status_reader(seat: SeatRuntime) -> Callable[[], TableStatus]:
    """The table bar's source: the seat's status now."""
    return lambda: table_status(seat)
