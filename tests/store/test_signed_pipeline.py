"""The journal writes a commit's rows while the signer program signs and syncs its anchor
(issue 23's cost per commit): the transaction still commits only with the signer's answer, a
refusal leaves the store as it was, and every request's answer is taken."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.terminal.core import events as ev
from kiosk.terminal.signer.client import SignerRefusedError, SocketSigner
from kiosk.terminal.signer.keeper import Keeper
from kiosk.terminal.signer.records import Head
from kiosk.terminal.signer.server import _Server
from kiosk.terminal.signer.state import create_key
from kiosk.terminal.store.critmem import StoreSigner
from kiosk.terminal.store.journal import Journal, Projections, StoreError


@pytest.fixture
def program(tmp_path: Path) -> Iterator[Path]:
    """The signer program's server and rules on a real Unix socket (in a thread)."""
    state, sock = tmp_path / "signer", tmp_path / "signer.sock"
    create_key(state)
    server = _Server(sock, Keeper(state))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    yield sock
    server.shutdown()
    server.server_close()
    thread.join()


def journal_on(tmp_path: Path, sock: Path) -> tuple[Journal, SocketSigner]:
    signer = SocketSigner(sock)
    epoch = signer.start_epoch(0, "test").epoch
    journal = Journal(tmp_path / "data")
    journal.signer = StoreSigner(signer, epoch)
    journal.create({"credits": 0}, 1)
    return journal, signer


def inserted(value: int) -> list[ev.Event]:
    return [ev.DoorChanged(value, door="main", open=value % 200 == 0)]


def rows(journal: Journal) -> int:
    count: int = journal.db.execute("SELECT COUNT(*) FROM journal").fetchone()[0]
    return count


def test_each_commit_is_signed_and_anchored(tmp_path: Path, program: Path) -> None:
    journal, signer = journal_on(tmp_path, program)
    for value in (100, 200, 500):
        seq = journal.commit(inserted(value), Projections(snapshot={"credits": value}))
    head = journal.head()
    assert signer.status().anchor.head == Head(journal.signer.epoch, seq, head.hash)  # type: ignore[union-attr]
    stored = journal.db.execute("SELECT COUNT(*) FROM heads").fetchone()[0]
    assert (rows(journal), stored) == (3, 4)  # the genesis head and one per commit


def test_a_refusal_leaves_the_store_as_it_was(tmp_path: Path, program: Path) -> None:
    journal, signer = journal_on(tmp_path, program)
    journal.commit(inserted(100))
    seq, chain = journal.head()
    # someone else had the signer sign the next two rows: this commit's head is behind them
    signer.sign_commit(Head(journal.signer.epoch, seq + 2, b"\x07" * 32), None)  # type: ignore[union-attr]
    with pytest.raises(SignerRefusedError, match="not after the last signed head"):
        journal.commit(inserted(200))
    assert journal.head() == (seq, chain) and rows(journal) == 1  # rolled back
    assert signer.status().anchor.seq == seq + 2  # the connection is free again


def test_a_store_failure_after_the_request_withdraws_the_signed_head(
    tmp_path: Path, program: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal, signer = journal_on(tmp_path, program)
    journal.commit(inserted(100))
    before = journal.head()

    def failing(self: Journal, record: dict[str, Any]) -> None:
        raise StoreError("disk I/O error")

    monkeypatch.setattr(Journal, "_recall", failing)
    with pytest.raises(StoreError, match="disk I/O error"):
        journal.commit(inserted(200), Projections(recall={"game_number": 1}))
    anchor = signer.status().anchor  # the answer was taken, then the head withdrawn
    assert (anchor.seq, anchor.chain_hash) == before and rows(journal) == 1
    monkeypatch.undo()
    assert journal.commit(inserted(300)) == before[0] + 1


def test_any_failure_after_the_request_takes_its_answer(
    tmp_path: Path, program: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal, signer = journal_on(tmp_path, program)

    def broken(self: Journal, seq: int, record: dict[str, Any]) -> None:
        raise KeyError("at")

    monkeypatch.setattr(Journal, "_audit", broken)
    with pytest.raises(KeyError):
        journal.commit(inserted(100), Projections(audit=({},)))
    assert rows(journal) == 0
    assert signer.status().anchor.seq == 1  # signed, and the connection free again
