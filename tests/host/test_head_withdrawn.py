"""A withdrawn head reaches the host as an event and raises a floor alarm (issue 23, part 3):
the terminal's store lost its last signed commit (cut, or a power cut between signing and
committing), power-up withdrew the head at the signer and journaled ``HeadWithdrawn``; the host
link carries it; the host records it and raises a ``head_withdrawn`` alarm."""

from __future__ import annotations

from collections.abc import Callable

from kiosk.host.accounting.db import HostDb
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from tests.helpers.host_rig import HostRig, TerminalRig
from tests.helpers.outcome_cut import cut_last_commit


def test_a_withdrawn_head_is_an_alarm_on_the_floor(
    host_on: HostRig, make_terminal: Callable[..., TerminalRig]
) -> None:
    endpoint = host_on.endpoint("TK-A")
    terminal = make_terminal(endpoint).start()
    terminal.pump_until(terminal.outbox_empty)
    terminal.link.stop()  # offline: the next commit is not acknowledged by the host
    terminal.runtime.execute(c.SetDoor(door="main", open=True))
    data_dir = terminal.data_dir
    terminal.close()
    back = cut_last_commit(data_dir)  # the store loses its last signed commit

    terminal = TerminalRig(data_dir, endpoint)  # power-up on the cut store
    try:
        actions = terminal.runtime.last_recovery.actions
        assert any(f"withdrawn (the store ends at row {back})" in a for a in actions), actions
        terminal.start()
        terminal.pump_until(terminal.outbox_empty)
        assert host_on.db is not None
        db: HostDb = host_on.db
        (alarm,) = db.terminal_alarms("TK-A", "alarm")
        assert alarm.kind == "head_withdrawn"
        assert alarm.detail["store_seq"] == back
        assert alarm.detail["seq"] > back
        kinds = [
            r.event for r in terminal.runtime.journal.rows() if isinstance(r.event, e.HeadWithdrawn)
        ]
        assert len(kinds) == 1
    finally:
        terminal.close()
