"""A store written by the release before the signer: adopted once, as it stands, or refused."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as ev
from kiosk.terminal.signer.client import development_dir
from kiosk.terminal.store.audit import audit
from kiosk.terminal.store.journal import DB_NAME


def previous_release_store(data_dir: Path) -> int:
    """A terminal with $20 on it, then stripped to what the previous release wrote: no epoch,
    no signatures, and no signer state beside it (the old schema had no such tables either:
    they are created empty when the store is opened)."""
    terminal = build_terminal(data_dir)
    terminal.runtime.power_up()
    assert terminal.simulated.validator.insert(2000)
    terminal.runtime.pump()
    terminal.runtime.execute(c.SetDoor(door="main", open=True))
    terminal.close()
    with sqlite3.connect(data_dir / DB_NAME) as db:
        db.execute("DROP TABLE heads")
        db.execute("DROP TABLE snapshot_signatures")
        db.execute("DELETE FROM meta WHERE key = 'epoch'")
        (seq,) = db.execute("SELECT max(seq) FROM journal").fetchone()
    shutil.rmtree(development_dir(data_dir))
    return int(seq)


def test_an_unsigned_store_is_adopted_once(tmp_path: Path) -> None:
    data = tmp_path / "terminal"
    seq = previous_release_store(data)
    terminal = build_terminal(data)
    try:
        report = terminal.runtime.power_up()
        assert report.critical is None
        assert terminal.runtime.state.credits == [2000]
        (adoption,) = [a for a in report.actions if "adopted" in a]
        assert f"head row {seq} signed in epoch 1" in adoption
        events = [row.event for row in terminal.runtime.journal.rows()]
        powered = [event for event in events if isinstance(event, ev.PoweredUp)]
        assert "unsigned store of a previous release adopted" in powered[-1].recovered
    finally:
        terminal.close()
    assert audit(data).ok
    again = build_terminal(data)
    try:
        assert not [a for a in again.runtime.power_up().actions if "adopted" in a]
    finally:
        again.close()


def test_an_unsigned_store_is_refused_by_a_signer_that_holds_an_epoch(tmp_path: Path) -> None:
    data = tmp_path / "terminal"
    previous_release_store(data)
    other = tmp_path / "other"
    first = build_terminal(other)  # another store started with this signer: epoch 1
    first.runtime.power_up()
    first.close()
    shutil.copytree(development_dir(other), development_dir(data))
    terminal = build_terminal(data)
    try:
        report = terminal.runtime.power_up()
        assert report.critical is not None
        assert "the store is unsigned but the signer holds epoch 1" in report.critical
    finally:
        terminal.close()


def test_audit_of_an_unsigned_store_before_its_first_power_up(tmp_path: Path) -> None:
    """The installer audits the store with the new release before it starts it: an unsigned
    store with no signer yet is what power-up adopts, so audit passes it (and says so)."""
    data = tmp_path / "terminal"
    previous_release_store(data)
    report = audit(data)
    assert report.ok, report.to_text()
    assert any("a store of the previous release" in line for line in report.checks)
    assert not development_dir(data).exists()  # audit creates no signer state
