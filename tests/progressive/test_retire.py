"""Retiring a progressive (decision 0066): its liability (meter, hidden, overflow) moves to a
named successor, journaled in both real journals, the balance holding for both with the
transfer counted; exactly once across an interruption between the two commits; the retired
meter books nothing more; ``turbokiosk progressive retire`` with one-line refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.kernel.games import progressive
from kiosk.kernel.games.progressive import MICRO, ProgressiveError
from kiosk.table.cli.progressive import journal_path
from kiosk.terminal.progressive.controller import (
    RETIRE_SOURCE,
    ProgressiveController,
    ProgressiveLockedError,
    WagerIn,
)
from tests.helpers.cli_process import turbokiosk
from tests.helpers.progressive import FREQUENT, frequent, write_frequent

SPOT = "six_card_bonus"
#: the successor: another meter on the same spot, ceiling $30.00 (the transfer passes it)
SUCCESSOR = {
    **FREQUENT,
    "name": "test-6cb-trips-2",
    "meter": {**FREQUENT["meter"], "ceiling_cents": 3_000},  # type: ignore[dict-item]
}


def _successor() -> progressive.ProgressiveSettings:
    return progressive.parse(SUCCESSOR, "test")


def _book(meter: ProgressiveController, games: range, won_every: int = 5) -> None:
    for game in games:
        wagers = [WagerIn(s, SPOT, 100 * (s + 1), s == 1 and game % won_every == 0) for s in (0, 1)]
        meter.book_round("table-T1", game, wagers, 1_000_000)


def test_retiring_moves_the_whole_liability_once(tmp_path: Path) -> None:
    old = ProgressiveController(frequent(), tmp_path / "old.sqlite3")
    new = ProgressiveController(_successor(), tmp_path / "new.sqlite3")
    _book(old, range(1, 400), won_every=350)  # past the ceiling: an overflow is carried
    _book(new, range(1, 30))
    before_old, before_new = old.meters(), new.meters()
    assert before_old.overflow > 0 and before_old.hits > 0
    liability = before_old.meter + before_old.hidden + before_old.overflow
    out, incoming = old.retire_to(new, "Ana (slot manager)", "game removed from the floor")
    assert out.total == incoming.total == liability
    a, b = old.meters(), new.meters()
    assert (a.meter, a.hidden, a.overflow) == (0, 0, 0)
    assert a.transferred_out == liability and a.retired_to == new.settings.name
    assert b.transferred_in == liability
    assert b.meter + b.hidden + b.overflow == (
        before_new.meter + before_new.hidden + before_new.overflow + liability
    )
    assert b.meter <= new.settings.meter.ceiling_cents * MICRO  # the rest is its overflow
    assert a.balanced() and b.balanced()
    assert (a.contributed, a.seeded, a.paid_cents) == (
        before_old.contributed,
        before_old.seeded,
        before_old.paid_cents,
    )
    # again: the same transfer, nothing moves twice
    assert old.retire_to(new, "Ana (slot manager)", "again") == (out, incoming)
    assert (old.meters(), new.meters()) == (a, b)
    # the retired meter books nothing more; the successor goes on
    with pytest.raises(ProgressiveLockedError, match="retired to test-6cb-trips-2"):
        _book(old, range(400, 401))
    _book(new, range(30, 31))
    assert new.meters().balanced()
    b = new.meters()
    old.close()
    new.close()
    # the journals replay to the same meters (the transfer's rows in both chains)
    old = ProgressiveController(frequent(), tmp_path / "old.sqlite3")
    new = ProgressiveController(_successor(), tmp_path / "new.sqlite3")
    assert (old.meters(), new.meters()) == (a, b)
    (row,) = [r for r in old.rounds() if r.transfers]
    assert row.source == RETIRE_SOURCE and row.transfers[0].by == "Ana (slot manager)"
    old.close()
    new.close()


def test_an_interrupted_retirement_is_finished_once(tmp_path: Path) -> None:
    """The retired journal committed its transfer and the successor's did not (a stop
    between the two commits): running it again books the successor once."""
    old = ProgressiveController(frequent(), tmp_path / "old.sqlite3")
    _book(old, range(1, 50))
    out = old.pool.transfer_out("test-6cb-trips-2", "Ana", "moved")
    old._journal_one(RETIRE_SOURCE, out)  # the first commit only
    old.close()
    old = ProgressiveController(frequent(), tmp_path / "old.sqlite3")
    new = ProgressiveController(_successor(), tmp_path / "new.sqlite3")
    assert old.meters().retired_to and new.meters().transferred_in == 0
    again, incoming = old.retire_to(new, "Bea", "finishing")
    assert again == out and incoming.by == "Ana"  # the retired journal's transfer, as made
    assert new.meters().transferred_in == out.total and new.meters().balanced()
    old.retire_to(new, "Bea", "finishing")
    assert new.meters().transferred_in == out.total
    third = ProgressiveController(
        progressive.parse({**FREQUENT, "name": "third"}, "test"), tmp_path / "third.sqlite3"
    )
    with pytest.raises(ProgressiveError, match="retired to test-6cb-trips-2 already"):
        old.retire_to(third, "Bea", "twice")
    assert third.meters().transferred_in == 0
    third.close()
    old.close()
    new.close()


def test_the_command_line_retires_and_refuses_in_one_line(tmp_path: Path) -> None:
    old_file = write_frequent(tmp_path / "test-6cb-trips.toml")
    new_data = {**SUCCESSOR, "meter": dict(SUCCESSOR["meter"])}  # type: ignore[call-overload]
    new_file = tmp_path / "test-6cb-trips-2.toml"
    new_file.write_text(
        old_file.read_text()
        .replace('"test-6cb-trips"', '"test-6cb-trips-2"')
        .replace("ceiling_cents = 2000", f"ceiling_cents = {new_data['meter']['ceiling_cents']}")
    )
    meter = ProgressiveController(frequent(), journal_path(tmp_path, frequent()))
    _book(meter, range(1, 40))
    liability = meter.meters().meter + meter.meters().hidden + meter.meters().overflow
    meter.close()
    common = ("progressive", "--progressive", str(old_file), "--data-dir", str(tmp_path))
    for args, why in (
        (("retire", "--to", "nope", "--by", "Ana"), "--to:"),
        (("retire", "--to", str(old_file), "--by", "Ana"), "not itself"),
        (("retire", "--to", str(new_file), "--by", " "), "--by:"),
    ):
        bad = turbokiosk(*common, *args)
        assert bad.returncode == 2, (args, bad.stdout, bad.stderr)
        assert bad.stderr.count("\n") == 1 and why in bad.stderr and "Traceback" not in bad.stderr
    done = turbokiosk(*common, "retire", "--to", str(new_file), "--by", "Ana", "--reason", "moved")
    assert done.returncode == 0, done.stderr
    moved = f"{liability / MICRO / 100:,.6f} moved"
    assert "retired to test-6cb-trips-2 by Ana" in done.stdout and moved in done.stdout
    shown = turbokiosk(*common, "meters")
    assert "RETIRED to   test-6cb-trips-2" in shown.stdout and "balanced     yes" in shown.stdout
    successor = ("progressive", "--progressive", str(new_file), "--data-dir", str(tmp_path))
    shown = turbokiosk(*successor, "meters")
    assert "transferred in" in shown.stdout and "balanced     yes" in shown.stdout
    third = tmp_path / "third.toml"
    third.write_text(old_file.read_text().replace('"test-6cb-trips"', '"third"'))
    again = turbokiosk(*common, "retire", "--to", str(third), "--by", "Ana")
    assert again.returncode == 2 and again.stderr.count("\n") == 1
    assert "retired to test-6cb-trips-2 already" in again.stderr
