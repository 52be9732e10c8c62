"""The signed table record (decision 0036): the table journal's heads signed by the table's own
signer, verified at start-up (``table serve`` refuses a forged, cut or replaced journal with one
line) and by ``table audit``, which also reconciles each seat's journal round by round."""

from __future__ import annotations

import contextlib
import io
import random
import sqlite3
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.table.core import events as te
from kiosk.table.core.controller import TableController
from kiosk.table.core.reconcile import SeatSide, reconcile_seat, table_rounds
from kiosk.table.core.record import TableRecordError, table_signer
from kiosk.terminal.hostlink import pki
from kiosk.terminal.signer.client import LocalSigner, development_dir
from tests.helpers.table import CountingDecks, config, play, stadium_bet
from tests.table.tamper import TAMPERS, backup, restore


def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "table"


def signed_table(tmp_path: Path, games: int = 3) -> Path:
    """A table journal signed by its development signer, ``games`` rounds played."""
    where = data_dir(tmp_path)
    where.mkdir(parents=True, exist_ok=True)
    ctl = TableController(
        config(), where / "table-T1.sqlite3", CountingDecks(), table_signer(where, "T1")
    )
    play(ctl, games)
    ctl.close()
    return where / "table-T1.sqlite3"


def reopen(tmp_path: Path) -> TableController:
    where = data_dir(tmp_path)
    return TableController(
        config(), where / "table-T1.sqlite3", CountingDecks(), table_signer(where, "T1")
    )


def cli(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["table", "--data-dir", str(data_dir(tmp_path)), *args])
    return code, out.getvalue(), err.getvalue()


# -- start-up and audit ------------------------------------------------------------------------


def test_a_signed_journal_audits_clean_and_reopens(tmp_path: Path) -> None:
    path = signed_table(tmp_path)
    code, out, err = cli(tmp_path, "audit")
    assert code == 0, err
    assert "head row" in out and "signed in epoch 1" in out and "audit passed" in out
    assert "3 finished rounds' recall = the replay" in out
    ctl = reopen(tmp_path)
    try:
        assert ctl.recovery.actions == [] and ctl.state.meters.rounds_played == 3
        play(ctl, 1, start=20_000)
    finally:
        ctl.close()
    assert cli(tmp_path, "audit")[0] == 0
    assert cli(tmp_path, "recall", "2")[0] == 0
    heads = sqlite3.connect(path).execute("SELECT COUNT(*) FROM heads").fetchone()[0]
    assert heads > 4  # a head signed per commit


@pytest.mark.parametrize("tamper", TAMPERS, ids=lambda t: t.name)
def test_every_tamper_locks_the_controller_with_one_line(tamper: object, tmp_path: Path) -> None:
    from tests.table.tamper import Tamper

    assert isinstance(tamper, Tamper)
    path = signed_table(tmp_path, games=4)
    backup(path, tmp_path / "honest")
    tamper.apply(path, random.Random(7))
    with pytest.raises(TableRecordError) as refused:
        reopen(tmp_path).close()
    assert any(word in str(refused.value) for word in tamper.expect), str(refused.value)
    assert "\n" not in str(refused.value)
    code, _, err = cli(tmp_path, "audit")
    assert code == 1 and len(err.strip().splitlines()) == 1, err
    restore(path, tmp_path / "honest")
    assert cli(tmp_path, "audit")[0] == 0  # nothing was written while refusing


def test_one_whole_commit_cut_is_taken_for_a_kill_and_withdrawn(tmp_path: Path) -> None:
    """The residual (decision 0036, as 0006): exactly the last signed commit missing is what a
    kill between signing and committing leaves; start-up withdraws it and says so."""
    path = signed_table(tmp_path)
    db = sqlite3.connect(path, isolation_level=None)
    last, previous = (s for (s,) in db.execute("SELECT seq FROM heads ORDER BY seq DESC LIMIT 2"))
    db.execute("DELETE FROM journal WHERE seq > ?", (previous,))
    db.execute("DELETE FROM heads WHERE seq > ?", (previous,))
    db.execute("DELETE FROM recall WHERE game_number = 3")  # the commit closed game 3
    db.close()
    code, out, _ = cli(tmp_path, "audit")
    assert code == 0 and f"the last signed head (row {last}) never reached" in out
    ctl = reopen(tmp_path)
    try:
        assert ctl.recovery.actions and "withdrawn at the signer" in ctl.recovery.actions[0]
    finally:
        ctl.close()
    assert "never reached" not in cli(tmp_path, "audit")[1]


def test_another_tables_signer_is_refused(tmp_path: Path) -> None:
    path = signed_table(tmp_path)
    other = LocalSigner(development_dir(data_dir(tmp_path)) / "table-T2")
    with pytest.raises(TableRecordError, match="signature does not verify"):
        TableController(config(), path, CountingDecks(), other).close()


def test_an_unreachable_signer_locks_the_controller(tmp_path: Path) -> None:
    path = signed_table(tmp_path)
    gone = table_signer(data_dir(tmp_path), "T1", tmp_path / "no-such.sock")
    with pytest.raises(TableRecordError, match="cannot be reached"):
        TableController(config(), path, CountingDecks(), gone).close()


def test_a_deleted_signer_state_does_not_adopt_the_journal_silently(tmp_path: Path) -> None:
    path = signed_table(tmp_path)
    import shutil

    shutil.rmtree(development_dir(data_dir(tmp_path)))
    with pytest.raises(TableRecordError, match="signature does not verify"):
        reopen(tmp_path).close()
    assert path.exists()


# -- reconciliation ----------------------------------------------------------------------------


def test_reconciliation_reports_each_round_that_differs() -> None:
    ante = stadium_bet(ante=100)
    outcome = te.SeatOutcome(0, "play", (1, 2, 3), (te.WagerOutcome("ante", 100, 0, "lose"),))
    won = te.SeatOutcome(0, "play", (1, 2, 3), (te.WagerOutcome("ante", 100, 200, "win"),))
    events: list[te.Event] = []
    for game in (1, 2, 3, 4, 5):
        events.append(te.RoundOpened(0, game, 0))
    for game in (1, 2, 3, 5):
        events.append(te.WagerAccepted(0, game, 0, ante))
    events += [
        te.RoundSettled(0, 1, (outcome,)),
        te.RoundSettled(0, 2, (won,)),
        te.RoundVoided(0, 3, "misdeal", ((0, 100),)),
        te.RoundSettled(0, 5, (won,)),
    ]
    table = table_rounds(events)
    seat = {
        1: SeatSide(1, (100, 0)),  # reconciles
        2: SeatSide(1, (100, 500)),  # paid more on the seat
        3: SeatSide(1, None, 100),  # the void's return
        4: SeatSide(1, None, 100),  # a wager never taken, returned on the seat
        6: SeatSide(1, (100, 0)),  # a round the table never opened
    }  # game 5: at the table only
    books = reconcile_seat(table, 0, seat)
    assert [m.game for m in books.mismatches] == [2, 5, 6]
    assert (
        "the seat has stake 100 paid 500, the table stake 100 paid 200"
        in books.mismatches[0].line()
    )
    assert "at the table only" in books.mismatches[1].reason
    assert "never opened" in books.mismatches[2].reason
    assert (books.settled, books.voided, books.not_taken) == (1, 1, 1)
    assert (books.wagered, books.paid, books.returned) == (100, 0, 100)


def test_a_previous_release_journal_is_shown_but_does_not_pass_the_audit(tmp_path: Path) -> None:
    where = data_dir(tmp_path)
    where.mkdir()
    ctl = TableController(config(), where / "table-T1.sqlite3", CountingDecks())  # unsigned
    play(ctl, 1)
    ctl.close()
    assert cli(tmp_path, "meters")[0] == 0  # no signer state yet: shown as it is
    code, _, err = cli(tmp_path, "audit")
    assert code == 1 and "unsigned" in err and "adopts it" in err
    assert not development_dir(where).exists()  # nothing created by reading


def test_a_signer_lost_while_serving_locks_the_table_with_its_reason(tmp_path: Path) -> None:
    """Faults lock up, never crash: a step that cannot be signed is refused, the server stops
    with the reason, and nothing was written (the journal still audits clean)."""
    import time

    from kiosk.table.core.controller import TableLockedError
    from kiosk.table.core.server import TableServer
    from kiosk.terminal.signer.client import SocketSigner
    from kiosk.terminal.store.critmem import StoreSigner

    signed_table(tmp_path, games=1)
    ctl = reopen(tmp_path)
    pki_dir = tmp_path / "pki"
    pki.ensure_pki(pki_dir, ("table-T1",))
    server = TableServer(ctl, pki.credentials(pki_dir, "table-T1")).start()
    try:
        head = ctl.journal.head
        assert ctl.journal.signer is not None
        gone = SocketSigner(tmp_path / "gone.sock", timeout=1)
        ctl.journal.signer = StoreSigner(gone, ctl.journal.signer.epoch)
        with pytest.raises(TableLockedError, match="cannot be reached"):
            server.open_round()
        assert ctl.journal.head == head
        deadline = time.monotonic() + 10
        while server.locked is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert server.locked is not None and "cannot be reached" in server.locked
        with pytest.raises(TableLockedError, match="the table is locked"):
            server.open_round()
    finally:
        server.stop(0)
        ctl.close()
    assert cli(tmp_path, "audit")[0] == 0
