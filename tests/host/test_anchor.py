"""Acknowledged journal heads: a terminal whose store is behind (or beside) what the host already
acknowledged locks up at connect, over mutual TLS on SQLite and PostgreSQL (issue 11, item 2)."""

from __future__ import annotations

import shutil
from collections.abc import Callable

from kiosk.terminal.hostlink.anchor import JournalHead, anchor_problem
from kiosk.terminal.signer.client import development_dir
from tests.helpers.host_anchor import acknowledged, own, play
from tests.helpers.host_rig import HostRig, TerminalRig

MakeTerminal = Callable[..., TerminalRig]
HASHES = {0: b"\0" * 32, 5: b"5" * 32, 9: b"9" * 32}


def test_anchor_rules() -> None:
    acked = JournalHead(100, 5, HASHES[5])
    assert anchor_problem(100, 9, HASHES.get, acked) is None  # ahead, the anchor in its history
    assert anchor_problem(100, 5, HASHES.get, acked) is None  # at it
    assert anchor_problem(200, 1, HASHES.get, acked) is None  # a newer store (a RAM clear)
    behind = anchor_problem(100, 4, HASHES.get, acked)
    assert behind is not None and "behind" in behind and "seq 4" in behind and "seq 5" in behind
    forged = anchor_problem(100, 9, {5: b"x" * 32}.get, acked)
    assert forged is not None and "forged" in forged
    older = anchor_problem(50, 99, HASHES.get, acked)
    assert older is not None and "older" in older


def test_an_old_copy_of_the_store_is_locked_at_connect(
    host_on: HostRig, make_terminal: MakeTerminal
) -> None:
    rig = make_terminal(host_on.endpoint("TK-A")).start()
    play(rig, 3)
    acknowledged(rig, host_on)
    rig.close()
    # the SD card image taken now: the store and the signer's anchor beside it (a restored
    # card is consistent with itself; only the host remembers what came after)
    old_copy = rig.data_dir.with_name("old-sd-card")
    shutil.copytree(rig.data_dir, old_copy)
    old_signer = rig.data_dir.with_name("old-sd-card-signer")
    shutil.copytree(development_dir(rig.data_dir), old_signer)

    rig.boot()
    rig.start()
    play(rig, 5)
    acknowledged(rig, host_on)
    anchor = own(rig)
    rig.close()
    rig.boot()  # a healthy restart is not locked
    rig.start()
    acknowledged(rig, host_on)
    assert rig.runtime.state.critical is None and rig.link.anchor_problem is None
    anchor = own(rig)
    rig.close()

    shutil.rmtree(rig.data_dir)
    shutil.copytree(old_copy, rig.data_dir)  # the old image written back
    shutil.rmtree(development_dir(rig.data_dir))
    shutil.copytree(old_signer, development_dir(rig.data_dir))
    rig.boot()
    assert rig.runtime.state.critical is None  # its own checks find nothing wrong
    rig.start(wait=False)  # journals the hold of play until the anchor is checked
    restored = own(rig)
    rig.pump_until(lambda: rig.runtime.state.critical is not None)
    reason = rig.runtime.state.critical
    assert reason is not None and "host acknowledged" in reason
    assert str(anchor) in reason and f"seq {restored.seq} hash {restored.hash.hex()[:16]}" in reason
    assert not rig.runtime.accepting_money()
    assert rig.link.anchor_problem is not None
    assert host_on.db is not None
    rig.pump_until(lambda: bool(host_on.db and host_on.db.terminal_alarms("TK-A", "alarm")))
    kinds = {a.kind for a in host_on.db.terminal_alarms("TK-A", "alarm")}
    assert kinds & {"head_behind", "head_forked"}
    assert host_on.db.acknowledged_head("TK-A") == anchor  # the anchor did not move back


def test_a_store_cut_short_and_written_on_is_locked_as_forged(
    host_on: HostRig, make_terminal: MakeTerminal
) -> None:
    rig = make_terminal(host_on.endpoint("TK-A")).start()
    play(rig, 2)
    acknowledged(rig, host_on)
    acked = own(rig)
    rig.close()
    rig.boot()  # power-up journals a row: the store is now ahead of the anchor...
    # ...but its history at the anchor's seq is not the one the host acknowledged
    journal = rig.runtime.journal
    journal.db.execute("UPDATE journal SET hash = ? WHERE seq = ?", (b"\x01" * 32, acked.seq))
    problem = rig.runtime.check_host_anchor(acked.epoch, acked.seq, acked.hash)
    assert problem is not None and "forged" in problem
    assert rig.runtime.state.critical == problem
