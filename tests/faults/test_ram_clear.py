"""The operator's RAM clear, end to end: the only way out of a store that failed verification."""

from __future__ import annotations

import io
import json
import sqlite3
import sys
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.core import events as ev
from kiosk.terminal.hostlink.messages import HostMessageMapper, outbox_message
from kiosk.terminal.signer.client import LocalSigner, development_dir
from kiosk.terminal.store.audit import audit
from kiosk.terminal.store.journal import DB_NAME, OutboxRow
from kiosk.terminal.store.reader import current_state, open_readonly
from tests.helpers.store_faults import play


def service(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    data_dir: Path,
    *args: str,
    stdin: str,
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["service", "--data-dir", str(data_dir), "--role", "operator", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_ram_clear_after_a_wiped_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "terminal"
    played = play(data, "bill 100", "bill 20")
    assert "credits $120.00" in played.stdout
    signer = LocalSigner(development_dir(data))
    old = signer.status().anchor
    (data / DB_NAME).unlink()
    (data / f"{DB_NAME}-wal").unlink(missing_ok=True)
    (data / f"{DB_NAME}-shm").unlink(missing_ok=True)
    assert "missing or empty" in play(data, "status").stdout  # locked

    # the store's PIN records are gone with it: no PIN opens the menu (never the factory PINs)
    monkeypatch.setattr("os.geteuid", lambda: 1000)
    code, out, err = service(capsys, monkeypatch, data, "ram-clear", "x", stdin="3333\n")
    assert code == 3 and "no operator PIN record" in err, (out, err)
    # root at the console enters as the operator without one, for the RAM clear only
    monkeypatch.setattr("os.geteuid", lambda: 0)
    code, out, err = service(capsys, monkeypatch, data, "meters", stdin="")
    assert code != 0 and "only a RAM clear" in err + out, (out, err)
    # a RAM clear needs its confirmation
    code, out, err = service(capsys, monkeypatch, data, "ram-clear", "wiped", stdin="")
    assert code == 2 and "--confirm" in err + out, (out, err)
    code, out, err = service(
        capsys,
        monkeypatch,
        data,
        "ram-clear",
        "--confirm",
        "store",
        "lost",
        "in",
        "test",
        stdin="",
    )
    assert code == 0, err
    assert "RAM cleared: the store of epoch 1" in out

    new = signer.status().anchor
    assert new.epoch == old.epoch + 1
    kept = list((data / "cleared").iterdir())
    assert len(kept) == 1 and (kept[0] / DB_NAME).exists()  # the old store, kept
    with open_readonly(data) as journal:
        first = next(journal.rows())
        assert isinstance(first.event, ev.RamCleared)
        assert (first.event.previous_epoch, first.event.previous_seq) == (old.epoch, old.seq)
        assert first.event.previous_hash == old.chain_hash.hex()
        assert first.event.reason == "store lost in test"
        assert first.event.by.startswith("operator via ssh")
        assert first.event.previous_store == 0  # wiped: the host cannot match it (an alarm)
        # with a host link the event goes to the outbox in the same commit, as this message
        mapped = HostMessageMapper()([first.event], current_state(journal).state)
        assert mapped[0][0] == "ram_cleared"
        row = OutboxRow(1, first.seq, *mapped[0])
        wire = outbox_message("TK-0001", 1, row).ram_cleared
        assert (wire.previous_seq, wire.signer_epoch) == (old.seq, new.epoch)
        assert wire.previous_epoch == first.event.previous_store
        assert wire.reason == "store lost in test" and wire.previous_hash == old.chain_hash
        actions = [
            json.loads(body)["action"]
            for (body,) in journal.db.execute("SELECT body FROM service_audit ORDER BY id")
        ]
    assert "enter" in actions and "ram_clear" in actions  # the RAM clear's record survived
    # the new store starts with the factory PINs, each to be changed at its first entry
    code, out, err = service(capsys, monkeypatch, data, "meters", stdin="3333\n1357\n1357\n")
    assert code == 0 and "factory PIN" in err, (out, err)
    report = audit(data)
    assert report.ok, report.to_text()
    # the terminal plays again, from zero
    shown = play(data, "bill 20", "status")
    assert "credits $20.00" in shown.stdout and "Critical" not in shown.stdout


def test_ram_clear_is_refused_with_credits_on_a_healthy_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "terminal"
    play(data, "bill 20")
    code, out, err = service(
        capsys, monkeypatch, data, "ram-clear", "--confirm", "x", stdin="3333\n1357\n1357\n"
    )
    assert code == 1 and "credits on the meter" in err + out, (out, err)
    assert not (data / "cleared").exists()
    terminal = build_terminal(data)
    try:
        terminal.runtime.power_up()
        assert terminal.runtime.state.credits == [2000]
    finally:
        terminal.close()
    with sqlite3.connect(data / DB_NAME) as conn:
        (body,) = conn.execute(
            "SELECT body FROM service_audit WHERE body LIKE '%ram_clear%'"
        ).fetchone()
    assert json.loads(body)["outcome"] == "refused"
