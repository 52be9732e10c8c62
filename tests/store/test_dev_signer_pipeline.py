"""The development signer's anchor is synced on a helper thread while the journal writes its
rows (issue 23's cost per commit, decision 0062): the COMMIT still comes only after the
anchor is durable (decision 0006), a sync that fails refuses the commit and leaves the store
as it was, and what another process wrote to the anchor file is still read first."""

from __future__ import annotations

import errno
import os
import signal
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from kiosk.terminal.core import events as ev
from kiosk.terminal.signer import background_sync
from kiosk.terminal.signer.client import LocalSigner, SignerRefusedError
from kiosk.terminal.signer.records import Head
from kiosk.terminal.signer.state import load_anchor, save_anchor
from kiosk.terminal.store.critmem import StoreSigner
from kiosk.terminal.store.journal import Journal, Projections


def journal_on(tmp_path: Path) -> tuple[Journal, LocalSigner]:
    signer = LocalSigner(tmp_path / "signer")
    epoch = signer.start_epoch(0, "test").epoch
    journal = Journal(tmp_path / "data")
    journal.signer = StoreSigner(signer, epoch)
    journal.create({"credits": 0}, 1)
    return journal, signer


def door(at: int) -> list[ev.Event]:
    return [ev.DoorChanged(at, door="main", open=at % 200 == 0)]


def rows(journal: Journal) -> int:
    count: int = journal.db.execute("SELECT COUNT(*) FROM journal").fetchone()[0]
    return count


class SlowSync:
    """``os.fdatasync`` as the sync thread calls it, taking ``seconds``, with what happened
    around it (the journal's statements are traced into the same list)."""

    def __init__(self, seconds: float, error: OSError | None = None) -> None:
        self.seconds, self.error = seconds, error
        self.log: list[tuple[str, int]] = []
        self.real = os.fdatasync

    def __call__(self, fd: int) -> None:
        self.log.append(("sync starts", threading.get_ident()))
        time.sleep(self.seconds)
        if self.error is not None:
            self.log.append(("sync fails", threading.get_ident()))
            raise self.error
        self.real(fd)
        self.log.append(("anchor durable", threading.get_ident()))

    def statement(self, sql: str) -> None:
        self.log.append((" ".join(sql.split()[:3]), 0))


def test_the_rows_are_written_while_the_anchor_syncs_and_committed_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal, _signer = journal_on(tmp_path)
    slow = SlowSync(0.3)  # longer than the rows take, even on a busy machine
    monkeypatch.setattr(os, "fdatasync", slow)
    journal.db.set_trace_callback(slow.statement)
    seq = journal.commit(door(100), Projections(snapshot={"credits": 1}))
    journal.db.set_trace_callback(None)
    said = [what for what, _thread in slow.log]
    assert (
        said.index("sync starts") < said.index("INSERT INTO journal") < said.index("anchor durable")
    )
    assert said.index("anchor durable") < said.index("COMMIT")  # decision 0006
    (synced_on,) = {thread for what, thread in slow.log if what == "anchor durable"}
    assert synced_on != threading.get_ident()  # on the sync thread: the rows went meanwhile
    monkeypatch.undo()
    anchor = load_anchor(tmp_path / "signer")
    assert anchor.head == Head(anchor.epoch, seq, journal.head().hash) and rows(journal) == 1


def test_a_failed_anchor_sync_refuses_the_commit_and_the_store_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal, signer = journal_on(tmp_path)
    journal.commit(door(100))
    before = journal.head()
    failing = SlowSync(0.0, OSError(errno.EIO, os.strerror(errno.EIO)))
    monkeypatch.setattr(os, "fdatasync", failing)
    with pytest.raises(SignerRefusedError, match="cannot keep the anchor: Input/output error"):
        journal.commit(door(200))
    assert journal.head() == before and rows(journal) == 1  # rolled back
    monkeypatch.undo()
    assert signer.status().anchor.epoch == journal.signer.epoch  # type: ignore[union-attr]


def test_another_writer_of_the_anchor_is_read_before_signing(tmp_path: Path) -> None:
    """The anchor file is opened by path at every request: a head another process of the
    directory had signed meanwhile refuses this commit, and the store stays as it was."""
    journal, _signer = journal_on(tmp_path)
    journal.commit(door(100))
    seq, chain = journal.head()
    ahead = load_anchor(tmp_path / "signer")
    epoch = ahead.epoch
    save_anchor(tmp_path / "signer", replace(ahead, seq=seq + 5, chain_hash=b"\x09" * 32))
    with pytest.raises(SignerRefusedError, match="not after the last signed head row"):
        journal.commit(door(200))
    assert journal.head() == (seq, chain) and rows(journal) == 1
    assert load_anchor(tmp_path / "signer").head == Head(epoch, seq + 5, b"\x09" * 32)


def test_each_answer_frees_the_signer_for_the_next_request(tmp_path: Path) -> None:
    """Commit after commit (and a status between them) on one signer: every answer was taken
    and the keeper's lock given back."""
    journal, signer = journal_on(tmp_path)
    for at in range(100, 1100, 100):
        journal.commit(door(at))
        assert signer.status().anchor.seq == journal.head().seq
    assert rows(journal) == 10


def test_the_sync_thread_serves_a_forked_child(tmp_path: Path) -> None:
    fd = os.open(tmp_path / "f", os.O_RDWR | os.O_CREAT, 0o600)
    background_sync.start_fdatasync(fd).wait()  # the parent's thread is running
    pid = os.fork()
    if pid == 0:  # the child: a fork keeps no thread, a new one serves it
        signal.alarm(20)  # a sync that never returns fails the test, never hangs it
        try:
            os.pwrite(fd, b"child", 0)
            background_sync.start_fdatasync(fd).wait()
        finally:
            os._exit(0 if os.pread(fd, 5, 0) == b"child" else 1)
    _pid, status = os.waitpid(pid, 0)
    os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0
