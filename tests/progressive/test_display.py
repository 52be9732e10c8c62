"""The meter on the Dealer Terminal: the table's feed keeps the last meter it read, the
controller's view carries it, and the dealer's screen shows it in dollars, equal to the
progressive's journal."""

from __future__ import annotations

from pathlib import Path

from kiosk.kernel.money_text import dollars
from kiosk.table.core.controller import TableController
from kiosk.table.core.dealer_link import snapshot_of
from kiosk.table.core.dealer_records import Role
from kiosk.table.core.dealer_view import table_view
from kiosk.table.presentation.dealer import dealer_view
from kiosk.table.progressive.feed import TableFeed
from kiosk.terminal.progressive.controller import ProgressiveController
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
