"""A terminal's journal played and acknowledged by the host, and the signer's anchor read."""

from __future__ import annotations

import random

from kiosk.terminal.hostlink.anchor import JournalHead
from kiosk.terminal.robot import Robot
from tests.helpers.host_rig import HostRig, TerminalRig


def own(rig: TerminalRig) -> JournalHead:
    journal = rig.runtime.journal
    seq, digest = journal.head()
    return JournalHead(journal.created_at(), seq, digest)


def acknowledged(rig: TerminalRig, host: HostRig) -> None:
    """Pump until the host has committed the terminal's current head."""
    assert host.db is not None
    db = host.db

    def caught_up() -> bool:
        return rig.outbox_empty() and db.acknowledged_head("TK-A") == own(rig)

    rig.pump_until(caught_up)


def play(rig: TerminalRig, games: int) -> None:
    robot = Robot(rig.runtime, rig.validator, rig.printer, random.Random(7), fault_rate=0.0)
    for _ in range(games):
        robot.play_game()
