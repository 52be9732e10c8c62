"""A table seat is its own SAS gaming machine: a terminal seated at a real table controller
(real gRPC, mutual TLS) answers SAS polls on its own port and address with the table round's
money, from the same journal as its touchscreen."""

from __future__ import annotations

import os
import tty
from collections.abc import Callable
from pathlib import Path

from kiosk.table.core.server import TableServer
from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.core import commands as c
from kiosk.terminal.core.state import Phase
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.link import SasSettings
from kiosk.terminal.seat.status import Connection
from tests.helpers.sas_pty import read_reply
from tests.helpers.seat_faults import pki_dir, place, seat_on, table, until

__all__ = ["pki_dir", "table"]  # the seat tests' fixtures, used here by name


def _meter(master: int, address: int, command: int) -> int:
    os.write(master, wire.long_poll(address, command))
    return wire.from_bcd(wire.parse_response(read_reply(master, command), command))


def test_a_seated_terminal_reports_its_table_round_over_sas(
    tmp_path: Path, table: Callable[..., TableServer], pki_dir: Path
) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    term = build_terminal(
        tmp_path / "seat" / "data",
        sas=SasSettings(port=os.ttyname(slave), address=7, wakeup="auto"),
    )
    try:
        rt = term.runtime
        rt.power_up()
        rt.execute(c.SelectEdition("stadium-3cp"))
        term.simulated.validator.insert(10_000)
        for _ in range(3):
            rt.pump()
        assert term.sas_link is not None
        term.sas_link.start()
        server = table()
        seat = seat_on(term, server, pki_dir)
        until(seat, lambda: seat.status().connection is Connection.SEATED)
        server.open_round()
        until(seat, lambda: seat.status().bets_open)
        place(term)  # Ante and Pairs Plus, $1 each
        seat.bet()
        until(seat, lambda: rt.state.phase is Phase.RESULT)  # the decision defaults to fold
        seat.close()
        meters = rt.meters.as_dict()
        assert meters["coin_in"] == 200 and meters["games_played"] == 1
        # the SAS host reads the seat's own books, to the cent (accounting denomination 1c)
        assert _meter(master, 7, wire.LongPoll.SEND_CURRENT_CREDITS) == rt.state.credits[0]
        assert _meter(master, 7, wire.LongPoll.SEND_COIN_IN) == meters["coin_in"]
        assert _meter(master, 7, wire.LongPoll.SEND_COIN_OUT) == meters["coin_out"]
        assert _meter(master, 7, wire.LongPoll.SEND_GAMES_PLAYED) == 1
        # another address on the same line is not this seat: no answer
        os.write(master, wire.long_poll(8, wire.LongPoll.SEND_CURRENT_CREDITS))
        try:
            read_reply(master, 0x1A, timeout=0.3)
        except AssertionError:
            pass
        else:
            raise AssertionError("a poll to address 8 was answered by the seat at address 7")
    finally:
        term.close()
        os.close(master)
        os.close(slave)
