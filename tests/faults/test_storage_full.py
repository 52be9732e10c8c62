"""Disk full, for real: the store on a small tmpfs filled up while the terminal plays.

The commit that finds no space fails whole; the terminal locks up in *storage full* (not the
critical memory error), refuses play and money in, and loses or doubles nothing.  The fault is
journaled at the next write that succeeds: while the terminal runs, once space is back (a retry
every few seconds), or at the next power-up.  Then the audit passes and the event log shows it.

The bill validator and the printer keep their memory on their own storage (as real devices
do): the data directory's ``devices`` folder is a link out of the small file system.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.commands import CommandError
from kiosk.terminal.core.state import Phase
from kiosk.terminal.presentation.overlays import lockup_view
from kiosk.terminal.runtime.terminal import STORAGE_FULL_MARK, STORAGE_RETRY_MS
from kiosk.terminal.store.audit import audit
from kiosk.terminal.store.journal import Journal, StoreError, canonical
from kiosk.terminal.store.reader import current_state
from tests.helpers.store_faults import fill, logged, mounted
from tests.helpers.terminal_rig import Rig

SMALL = "size=1m"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """(data directory on a 1 MiB tmpfs, the tmpfs)"""
    with mounted(tmp_path / "small", "-t", "tmpfs", "-o", SMALL, "tmpfs") as disk:
        data_dir = disk / "terminal"
        data_dir.mkdir()
        devices = tmp_path / "devices"  # the devices' own memory, not on the small disk
        devices.mkdir()
        (data_dir / "devices").symlink_to(devices)
        yield data_dir, disk


def durable_journal_state(data_dir: Path) -> str:
    journal = Journal(data_dir, readonly=True)
    try:
        return canonical(current_state(journal).state.to_snapshot())
    finally:
        journal.close()


def durable(rig: Rig) -> str:
    snapshot = rig.runtime.state.to_snapshot()
    if snapshot["phase"] == Phase.WAGERING.value:
        snapshot["phase"] = (
            Phase.RESULT if rig.runtime.state.round is not None else Phase.IDLE
        ).value
    return canonical(snapshot)


def play_until_full(rig: Rig, first: str = "deal", steps: int = 20_000) -> str:
    """Play (notes, games, cash-outs; ``first`` first) until a commit fails for want of
    space; the step that failed."""
    rt = rig.runtime
    step = first
    for i in range(steps):
        s = rt.state
        if s.storage_full is not None:
            return "note" if step == "note" else f"{step} (a device report)"
        try:
            if s.phase is Phase.DECISION:
                step = "decision"
                rt.execute(c.Decide("no_raise"))
            elif s.credits[0] < 500 or (i == 0 and first == "note"):
                step = "note"
                assert rig.validator.insert(2000)
                rt.pump()
            elif i % 23 == 22 or (i == 0 and first == "cash-out"):
                step = "cash-out"
                rt.cash_out()
                rt.pump()
            else:
                step = "deal"
                rt.execute(c.PlaceWager("first_down", 100))
                rt.execute(c.Deal())
        except StoreError:
            return step
    raise AssertionError(f"the disk never filled in {steps} steps")


@pytest.mark.parametrize(
    ("first", "slack_kib"),
    [("deal", 0), ("note", 0), ("cash-out", 0), ("deal", 8), ("deal", 64)],
    ids=["at-a-deal", "at-a-note", "at-a-cash-out", "soon-after", "games-later"],
)
def test_disk_full_mid_play_locks_up_and_loses_nothing(
    small_disk: tuple[Path, Path], first: str, slack_kib: int
) -> None:
    data_dir, disk = small_disk
    rig = Rig(data_dir)
    rt = rig.runtime
    rig.insert(100)
    for _ in range(5):  # some history first
        rt.execute(c.PlaceWager("first_down", 100))
        rt.execute(c.Deal())
        if rt.state.phase is Phase.DECISION:
            rt.execute(c.Decide("raise"))
    slack = disk / "slack"  # room for a few more commits, given back once the disk is full
    slack.write_bytes(b"\0" * slack_kib * 1024)
    filler = disk / "filler"
    assert fill(filler) > 0
    slack.unlink()

    step = play_until_full(rig, first)
    if slack_kib == 0:
        assert step.split()[0] == first, step

    s = rt.state
    assert s.storage_full is not None and s.storage_full.startswith("storage full"), step
    assert s.critical is None  # its own lockup, not the critical memory error
    view = lockup_view(s, "en")
    assert view is not None and view.title == "STORAGE FULL"
    # nothing of the failed step is in memory: the state is the journal's
    assert durable(rig) == durable_journal_state(data_dir)
    # play and money in are refused, nothing crashes
    with pytest.raises(CommandError):
        rt.execute(c.PlaceWager("first_down", 100))
    assert rig.validator.enabled is False
    assert not rig.validator.insert(2000)
    rt.pump()
    rig.clock.advance(10)
    rt.pump()  # the retry finds the disk still full: still locked, nothing raised
    assert rt.state.storage_full is not None
    assert (data_dir / STORAGE_FULL_MARK).exists()
    rt.close()  # a power cut would do the same: the fault waits in its marker

    filler.unlink()  # the technician frees space and restarts the terminal
    rt = rig.boot()
    assert rt.last_recovery.critical is None, rt.last_recovery
    assert rt.state.storage_full is None
    assert not (data_dir / STORAGE_FULL_MARK).exists()
    faults = logged(data_dir, "StorageFull")
    assert len(faults) == 1 and "storage full" in faults[0].reason  # type: ignore[attr-defined]
    report = audit(data_dir)
    assert report.ok, report.to_text()
    # no money lost or doubled: the cash box is the notes credited, the vouchers printed are
    # the vouchers paid out (a note or voucher whose report could not be journaled was
    # recovered from the devices at power-up)
    state = rt.state
    assert rig.validator.cashbox_total() == state.lifetime["bills_in"]
    printed = rig.printer.printed()
    assert sum(v["value"] for v in printed.values()) == state.lifetime["tickets_out"]
    assert rt.core.audit_credits() is None
    assert state.cashout is None and not state.escrow
    if state.phase is Phase.DECISION:  # the round the full disk froze resumes
        rt.execute(c.Decide("no_raise"))
    rt.execute(c.PlaceWager("first_down", 100))  # and it plays again
    rt.close()


def test_space_back_while_running_journals_the_fault(small_disk: tuple[Path, Path]) -> None:
    data_dir, disk = small_disk
    rig = Rig(data_dir)
    rt = rig.runtime
    filler = disk / "filler"
    fill(filler)
    play_until_full(rig)
    assert rt.state.storage_full is not None
    filler.unlink()
    rig.clock.advance(STORAGE_RETRY_MS / 1000 + 1)
    rt.pump()  # the retry succeeds: the fault is in the log at once
    faults = logged(data_dir, "StorageFull")
    assert len(faults) == 1
    assert not (data_dir / STORAGE_FULL_MARK).exists()
    # the lockup stays until a power-up (which asks the devices what the full disk missed)
    assert rt.state.storage_full is not None
    with pytest.raises(CommandError):
        rt.execute(c.PlaceWager("first_down", 100))
    rt.close()
    rt = rig.boot()
    assert rt.state.storage_full is None and rt.last_recovery.critical is None
    assert len(logged(data_dir, "StorageFull")) == 1  # journaled once
    assert audit(data_dir).ok
    rt.close()
