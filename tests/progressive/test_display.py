"""The meter on the Dealer Terminal: the table's feed keeps the last meter it read, the
controller's view carries it, and the dealer's screen shows it in dollars, equal to the
progressive's journal."""

from __future__ import annotations

import time
from pathlib import Path

from kiosk.kernel.money_text import dollars
from kiosk.table.core.controller import TableController
from kiosk.table.core.dealer_link import snapshot_of
from kiosk.table.core.dealer_records import Role
from kiosk.table.core.dealer_view import table_view
from kiosk.table.presentation.dealer import dealer_view
from kiosk.table.progressive.feed import TableFeed
from kiosk.terminal.progressive.controller import ProgressiveController
from kiosk.terminal.seat.machine import SeatMachine
from kiosk.terminal.seat.status import SeatStatus
from proto.turbokiosk.v1 import dealer_pb2 as pb
from tests.helpers.progressive import frequent, play_rounds, table_config
from tests.helpers.table import SeededDecks


def test_the_dealer_terminal_shows_the_meter_of_the_journal(tmp_path: Path) -> None:
    settings = frequent()
    meter = ProgressiveController(settings, tmp_path / "p.sqlite3")
    table = TableController(table_config("T1"), tmp_path / "T1.sqlite3", SeededDecks(8))
    feed = TableFeed(meter, "T1", settings, 700)
    table.hooks.append(feed.after)
    assert feed.shown() is None  # nothing read yet: no line rather than a wrong one
    play_rounds(table, "T1", 5)
    shown = feed.shown()
    assert shown is not None
    name, outcome, cents = shown
    assert cents == meter.meters().meter_cents and outcome == "Three of a kind"
    progressive = pb.ProgressiveDisplay(name=name, outcome=outcome, meter_cents=cents)
    view = table_view(table.core, 0, set(), progressive=progressive)
    screen = dealer_view(snapshot_of(view, {}), Role.DEALER)
    assert screen.progressive_text == f"Three of a kind progressive {dollars(cents)}"
    plain = dealer_view(snapshot_of(table_view(table.core, 0, set()), {}), Role.DEALER)
    assert plain.progressive_text == ""  # a table without a progressive shows no line
    table.close()
    meter.close()


class _Seat:
    """A seat machine as the status source a seated terminal is."""

    def __init__(self, machine: SeatMachine) -> None:
        self.machine = machine

    def status(self) -> SeatStatus:
        return self.machine.status


def test_every_seat_is_told_the_meter_when_a_round_opens(tmp_path: Path) -> None:
    """Over mutual TLS: the round's opening step carries the meter; the seat's status and its
    text line show it."""
    from kiosk.table.core.server import TableServer
    from kiosk.terminal.hostlink import pki
    from kiosk.terminal.presentation.table_bar import table_bar
    from kiosk.terminal.presentation.table_status import table_status
    from kiosk.terminal.textui.table_lines import table_line
    from proto.turbokiosk.v1 import table_pb2 as tpb
    from tests.helpers.progressive import pki_dir
    from tests.helpers.table import SeatClient

    root = pki_dir(tmp_path / "pki", ("T1",))
    controller = TableController(table_config("T1"), tmp_path / "T1.sqlite3", SeededDecks(9))
    server = TableServer(controller, pki.credentials(root, "table-T1"))
    server.progressive = lambda: ("test-6cb-trips", "Three of a kind", 123_456)
    server.start()
    seat = SeatClient(server.address, pki.credentials(root, "seat-1"))
    try:
        seat.send(join=tpb.JoinTable(table_id="T1", seat=1))
        end = time.monotonic() + 10
        while controller.state.seats != {1}:
            assert time.monotonic() < end, "the seat never joined"
            time.sleep(0.01)
        server.open_round()
        step = seat.next("round_opened")
        shown = step.round_opened.progressive
        assert (shown.outcome, shown.meter_cents) == ("Three of a kind", 123_456)
        machine = SeatMachine("T1", 1)
        machine.receive(step, 0)
        status = table_status(_Seat(machine), 0)
        assert status.progressive == ("Three of a kind", 123_456)
        assert table_line(status).endswith("; Three of a kind progressive $1,234.56")
        bar = table_bar(status, "en", dealer_hand=True)
        assert "Three of a kind progressive $1,234.56" in bar.detail  # the touchscreen's bar
        assert (
            "Progresivo Three of a kind $1,234.56"
            in table_bar(status, "es", dealer_hand=True).detail
        )
    finally:
        seat.close()
        server.stop(0)
        controller.close()
