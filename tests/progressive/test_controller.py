"""The progressive controller: a round booked once whatever the retries, its journal replayed
after a restart, other settings or a broken chain refused, a store fault locks it; over gRPC
only table controllers may book, each under its own certificate name, and the seats of a table
share one meter (table mode)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import grpc
import pytest

from kiosk.kernel.games.progressive import ProgressiveError
from kiosk.table.core.controller import TableController
from kiosk.table.progressive import server
from kiosk.table.progressive.client import ProgressiveUnavailableError, RemoteProgressive
from kiosk.table.progressive.feed import TableFeed, reconcile
from kiosk.terminal.hostlink import pki
from kiosk.terminal.progressive.controller import (
    ProgressiveController,
    ProgressiveLockedError,
    WagerIn,
)
from kiosk.terminal.progressive.journal import JournalChainError, SettingsMismatchError
from tests.helpers.progressive import frequent, pki_dir, play_rounds, table_config
from tests.helpers.table import SeededDecks

SPOT = "six_card_bonus"


def _wagers(won_seat: int | None = None) -> list[WagerIn]:
    return [WagerIn(seat, SPOT, 100 + 25 * seat, seat == won_seat) for seat in range(4)]


def test_a_round_is_booked_once_and_replayed_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    ctl = ProgressiveController(frequent(), path)
    first = ctl.book_round("table-T1", 1, _wagers(), None)
    assert ctl.book_round("table-T1", 1, _wagers(), None) == first  # a retry
    hit = ctl.book_round("table-T1", 2, [*_wagers(2), WagerIn(9, "ante", 100, True)], 700)
    assert [h.key for h in hit.hits] == ["table-T1/2/2/six_card_bonus"]
    assert len(hit.contributions) == 4  # the ante is not the progressive's spot
    state = ctl.meters()
    ctl.close()
    again = ProgressiveController(frequent(), path)
    assert again.meters() == state and state.balanced()
    assert again.last_game("table-T1") == 2 and again.last_game("table-T2") == 0
    assert again.book_round("table-T1", 2, [], None) == hit  # answered from the journal
    again.close()


def test_a_malformed_round_changes_nothing(tmp_path: Path) -> None:
    ctl = ProgressiveController(frequent(), tmp_path / "p.sqlite3")
    with pytest.raises(ProgressiveError):
        ctl.book_round("table-T1", 1, [WagerIn(1, SPOT, 100, False)] * 2, None)
    with pytest.raises(ProgressiveError):
        ctl.book_round("table-T1", 0, _wagers(), None)
    assert ctl.rounds() == [] and ctl.meters().wagers == 0
    ctl.close()


def test_other_settings_or_a_broken_chain_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    ctl = ProgressiveController(frequent(), path)
    ctl.book_round("table-T1", 1, _wagers(), None)
    ctl.book_round("table-T1", 2, _wagers(), None)
    ctl.close()
    with pytest.raises(SettingsMismatchError):
        ProgressiveController(frequent(rate_ppm=40_000), path)
    db = sqlite3.connect(path)
    db.execute("UPDATE rounds SET body = replace(body, '3000000', '3000001') WHERE seq = 1")
    db.commit()
    db.close()
    with pytest.raises(JournalChainError):
        ProgressiveController(frequent(), path)


def test_a_store_fault_locks_the_controller(tmp_path: Path) -> None:
    ctl = ProgressiveController(frequent(), tmp_path / "p.sqlite3")
    ctl.journal.db.close()  # the store gone
    with pytest.raises(ProgressiveLockedError):
        ctl.book_round("table-T1", 1, _wagers(), None)
    with pytest.raises(ProgressiveLockedError):
        ctl.book_round("table-T1", 2, _wagers(), None)
    assert ctl.meters().wagers == 0


def test_only_table_controllers_book_and_each_as_itself(tmp_path: Path) -> None:
    root = pki_dir(tmp_path / "pki", ("T1",))
    ctl = ProgressiveController(frequent(), tmp_path / "p.sqlite3")
    running, address = server.serve(ctl, "127.0.0.1:0", pki.credentials(root, "table-progressive"))
    try:
        t1 = RemoteProgressive(address, pki.credentials(root, "table-T1"), "table-T1")
        assert t1.book_round("table-T1", 1, _wagers(), None).contributions
        assert t1.last_game("table-T1") == 1
        with pytest.raises(ValueError, match="books as 'table-T1'"):
            t1.book_round("table-T2", 1, _wagers(), None)  # never another table's rounds
        seat = RemoteProgressive(address, pki.credentials(root, "seat-1"), "seat-1")
        with pytest.raises(ProgressiveUnavailableError) as info:
            seat.book_round("seat-1", 1, _wagers(), None)
        cause = info.value.__cause__
        assert isinstance(cause, grpc.RpcError)
        assert cause.code() is grpc.StatusCode.PERMISSION_DENIED
        assert [row.source for row in ctl.rounds()] == ["table-T1"]
        t1.close()
        seat.close()
    finally:
        running.stop(None)
        ctl.close()


def test_the_seats_of_a_table_share_one_meter(tmp_path: Path) -> None:
    """Table mode: the table controller's own meter, fed by its journal as rounds settle."""
    settings = frequent()
    meter = ProgressiveController(settings, tmp_path / "p.sqlite3")
    table = TableController(table_config("T1"), tmp_path / "T1.sqlite3", SeededDecks(3))
    feed = TableFeed(meter, "T1", settings, handpay_limit=700)
    table.hooks.append(feed.after)
    play_rounds(table, "T1", 80)
    books = reconcile(settings, {"T1": list(table.journal.events())}, meter.rounds())
    assert books[0].balanced and books[0].rounds == 80, books[0].line()
    seats = {h.key.split("/")[2] for row in meter.rounds() for h in row.hits}
    assert len(seats) >= 2 and "0" not in seats  # seat 0 bets below the qualifying wager
    assert meter.meters().balanced()
    table.close()
    meter.close()


def test_two_hits_in_one_round_are_paid_in_seat_order(tmp_path: Path) -> None:
    ctl = ProgressiveController(frequent(), tmp_path / "p.sqlite3")
    for game in range(1, 11):
        ctl.book_round("table-T1", game, _wagers(), None)
    wagers = [WagerIn(seat, SPOT, 200, seat in (1, 3)) for seat in range(4)]
    row = ctl.book_round("table-T1", 11, wagers, None)
    first, second = row.hits
    assert first.key.endswith("/1/six_card_bonus") and second.key.endswith("/3/six_card_bonus")
    assert first.award_cents > second.award_cents == 500  # the second wins the reset meter
    assert ctl.meters().balanced()
    ctl.close()


def test_a_locked_meter_never_stops_the_table(tmp_path: Path) -> None:
    """The meter's store fails: the table plays on, its rounds wait, none is lost."""
    settings = frequent()
    meter = ProgressiveController(settings, tmp_path / "p.sqlite3")
    table = TableController(table_config("T1"), tmp_path / "T1.sqlite3", SeededDecks(4))
    feed = TableFeed(meter, "T1", settings, 700)
    table.hooks.append(feed.after)
    play_rounds(table, "T1", 3)
    meter.journal.db.close()  # the meter's store gone
    play_rounds(table, "T1", 3)
    assert feed.fault is not None and len(feed.pending) == 3
    assert table.state.last_game == 6
    again = ProgressiveController(settings, tmp_path / "p.sqlite3")  # a restart of the meter
    feed = TableFeed(again, "T1", settings, 700)
    feed.catch_up(table.journal.events())
    books = reconcile(settings, {"T1": list(table.journal.events())}, again.rounds())
    assert books[0].balanced and books[0].rounds == 6
    table.close()
    again.close()
