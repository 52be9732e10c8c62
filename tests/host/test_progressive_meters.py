"""The progressives' meters at the host (decision 0067): the records keep each terminal's newest
reading with its time, a late older one changes nothing, a hit's time is when the count grew,
and a terminal's link sends its controller's meter over mutual TLS with its snapshots."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kiosk.host.accounting import bounds
from kiosk.host.accounting.db import HostDb, Message
from kiosk.host.accounting.progressives import ProgressiveReading
from kiosk.kernel.games import progressive
from kiosk.terminal.hostlink.progressive_report import (
    ProgressiveReading as Reading,
)
from kiosk.terminal.hostlink.progressive_report import seat_readings, standalone_readings
from kiosk.terminal.progressive.controller import ProgressiveController, WagerIn
from kiosk.terminal.seat.status import SeatStatus
from tests.helpers.host_rig import HostRig, TerminalRig

NAME = "stadium-6cb-royal"


def reading(
    terminal: str, n: int, at: int, cents: int, *, hits: int = 0, source: str = "", **more: Any
) -> Message:
    body = {
        "name": NAME,
        "mode": "standalone",
        "source": source or terminal,
        "meter_cents": cents,
        "reset_cents": 500_000,
        "hits": hits,
        "last_hit_cents": more.pop("last", 0),
        "hits_known": True,
        **more,
    }
    return Message(f"{terminal}:1:{n}:p{n}-{at}-p0", n, at, "progressive", body)


def only(db: HostDb) -> ProgressiveReading:
    (one,) = db.progressives()
    return one


def test_the_newest_reading_is_kept_with_both_times(host_db: HostDb) -> None:
    assert host_db.record("TK-A", [reading("TK-A", 1, 1_000, 500_010)], 1_500) == (1, 0)
    assert host_db.record("TK-A", [reading("TK-A", 2, 2_000, 500_250)], 2_600) == (1, 0)
    kept = only(host_db)
    assert (kept.meter_cents, kept.reset_cents, kept.reported_ms, kept.received_ms) == (
        500_250,
        500_000,
        2_000,
        2_600,
    )
    assert (kept.terminal_id, kept.source, kept.mode, kept.reporters) == (
        "TK-A",
        "TK-A",
        "standalone",
        1,
    )


def test_a_late_older_reading_or_a_resend_changes_nothing(host_db: HostDb) -> None:
    host_db.record("TK-A", [reading("TK-A", 2, 2_000, 500_250)], 2_100)
    # a resend of the same message, and an older reading delivered after a reconnection
    assert host_db.record("TK-A", [reading("TK-A", 2, 2_000, 500_250)], 3_000) == (0, 1)
    assert host_db.record("TK-A", [reading("TK-A", 1, 1_000, 500_010)], 3_100) == (0, 1)
    kept = only(host_db)
    assert (kept.meter_cents, kept.received_ms) == (500_250, 2_100)


def test_a_hit_is_dated_by_the_reading_that_first_counts_it(host_db: HostDb) -> None:
    host_db.record("TK-A", [reading("TK-A", 1, 1_000, 900_000)], 1_000)
    assert only(host_db).last_hit_ms == 0
    host_db.record("TK-A", [reading("TK-A", 2, 5_000, 500_020, hits=1, last=900_010)], 5_100)
    kept = only(host_db)
    assert (kept.hits, kept.last_hit_cents, kept.last_hit_ms) == (1, 900_010, 5_000)
    host_db.record("TK-A", [reading("TK-A", 3, 9_000, 500_400, hits=1, last=900_010)], 9_100)
    assert only(host_db).last_hit_ms == 5_000  # no new hit: the time stays


def test_one_line_per_meter_from_its_newest_reporter(host_db: HostDb) -> None:
    """Seats of one table report one meter (the newest shown, with how many report it); the
    same progressive kept by another table is another meter."""

    def seat(terminal: str, n: int, at: int, cents: int, table: str) -> Message:
        return reading(terminal, n, at, cents, source=table, mode="table", hits_known=False)

    host_db.record("TK-A", [seat("TK-A", 1, 1_000, 510_000, "T1")], 1_000)
    host_db.record("TK-B", [seat("TK-B", 1, 1_500, 510_300, "T1")], 1_600)
    host_db.record("TK-C", [seat("TK-C", 1, 1_200, 777_000, "T2")], 1_200)
    lines = {(p.source, p.meter_cents, p.terminal_id, p.reporters) for p in host_db.progressives()}
    assert lines == {("T1", 510_300, "TK-B", 2), ("T2", 777_000, "TK-C", 1)}


def test_staleness_is_the_hosts_time_since_it_heard_of_the_meter(host_db: HostDb) -> None:
    host_db.record("TK-A", [reading("TK-A", 1, 1_000, 500_000)], 10_000)
    kept = only(host_db)
    assert not kept.stale(10_000 + 180_000, 180_000)
    assert kept.stale(10_000 + 180_001, 180_000)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 65}, "name"),
        ({"mode": "linked-ish"}, "mode"),
        ({"source": ""}, "source"),
        ({"meter_cents": bounds.Limits().largest_amount + 1}, "meter_cents"),
    ],
)
def test_the_host_refuses_a_malformed_reading(change: dict[str, Any], words: str) -> None:
    fields = {"name": NAME, "mode": "standalone", "source": "TK-A", "meter_cents": 1, **change}
    msg = Reading(**fields).message("TK-A:1:1:p", 1, 1)
    with pytest.raises(bounds.BoundsError, match=words):
        bounds.check_message(msg, bounds.Limits())


def booked_controller(tmp_path: Path) -> ProgressiveController:
    """A standalone meter with rounds booked on its journal, one of them a hit."""
    settings = progressive.load(NAME)
    controller = ProgressiveController(settings, tmp_path / "progressive.sqlite3")
    spot, stake = settings.wager, max(settings.qualify_cents, 500)
    for game in range(1, 6):
        controller.book_round("TK-A", game, [WagerIn(1, spot, stake, game == 3)], None)
    return controller


def test_a_standalone_reading_is_its_controllers_meter(tmp_path: Path) -> None:
    controller = booked_controller(tmp_path)
    try:
        (one,) = standalone_readings(controller, "TK-A")()
        meters = controller.meters()
        hit = [h for r in controller.rounds() for h in r.hits][-1]
        assert (one.meter_cents, one.hits, one.last_hit_cents) == (
            meters.meter_cents,
            1,
            hit.award_cents,
        )
        assert one.reset_cents == controller.settings.meter.reset_cents and one.hits_known
    finally:
        controller.close()


def test_a_seat_reports_its_tables_meter_once_a_round_opened() -> None:
    status = SeatStatus("T1", 2)
    read = seat_readings(lambda: status)
    assert read() == []
    status = SeatStatus("T1", 2, progressive=("Royal flush", 512_345), progressive_name=NAME)
    (one,) = read()
    assert (one.name, one.mode, one.source, one.meter_cents, one.hits_known) == (
        NAME,
        "table",
        "T1",
        512_345,
        False,
    )


def test_the_link_sends_the_meter_over_mutual_tls(
    host_on: HostRig, make_terminal: Callable[..., TerminalRig], tmp_path: Path
) -> None:
    """A terminal's link sends its controller's meter with the snapshot the host asks for; the
    host's records then equal the controller's meters."""
    controller = booked_controller(tmp_path)
    try:
        rig = make_terminal(host_on.endpoint("TK-A")).start()
        rig.link.progressive_readings = standalone_readings(controller, "TK-A")
        assert host_on.server is not None and host_on.db is not None
        host_on.server.send("TK-A", "request_meters")
        db = host_on.db
        rig.pump_until(lambda: bool(db.progressives()))
        kept = only(db)
        meters = controller.meters()
        assert (kept.name, kept.meter_cents, kept.hits, kept.terminal_id) == (
            NAME,
            meters.meter_cents,
            meters.hits,
            "TK-A",
        )
        assert kept.reset_cents == controller.settings.meter.reset_cents
    finally:
        controller.close()


def test_a_reader_that_fails_never_stops_the_snapshot(
    host: HostRig, make_terminal: Callable[..., TerminalRig]
) -> None:
    """The readings are display data: a reader that raises costs its readings, not the
    terminal's thread or the meter snapshot beside them."""
    rig = make_terminal(host.endpoint("TK-A")).start()

    def broken() -> list[Reading]:
        raise RuntimeError("controller closed")

    rig.link.progressive_readings = broken
    rig.link._snapshot("requested")  # on the terminal's thread, as a posted job runs
    queued = [m.WhichOneof("body") for m in rig.link._snapshots]
    assert queued[-1] == "meters" and "progressive" not in queued
