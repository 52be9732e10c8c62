"""What every long-poll handler shares: its refusal, the machine it answers for, the date.

:class:`PollError` is a poll the machine will not answer (malformed data for its command);
:class:`PollTarget` is the machine as a handler sees it (``SasMachine`` satisfies it), so that
handler tables outside ``machine.py`` (``aft.py``, ``bonus.py``, ``reports.py``) need not
import it.
"""

from __future__ import annotations

import time
from typing import Protocol

from kiosk.terminal.sas import wire
from kiosk.terminal.sas.meters import MachineSnapshot


class PollError(Exception):
    """A long poll this machine will not answer: malformed data for its command."""


class PollTarget(Protocol):
    """The machine as a long-poll handler sees it."""

    @property
    def address(self) -> int:
        """The SAS address answered to."""

    def snapshot(self) -> MachineSnapshot:
        """The terminal's journaled state after its last commit."""

    def respond(self, command: int, data: bytes) -> bytes:
        """``address, command, data, CRC``."""

    def ack(self) -> bytes:
        """The address alone."""

    def queue_exception(self, code: int) -> None:
        """Queue an exception of the link's own."""


def bcd_date_time(epoch_ms: int) -> bytes:
    """MMDDYYYY (4 BCD) and HHMMSS (3 BCD), the terminal's local time."""
    t = time.localtime(epoch_ms / 1000)
    return wire.to_bcd(t.tm_mon * 1_000_000 + t.tm_mday * 10_000 + t.tm_year, 4) + wire.to_bcd(
        t.tm_hour * 10_000 + t.tm_min * 100 + t.tm_sec, 3
    )


def game_number(m: PollTarget, data: bytes) -> int:
    """The 2-BCD game number at the start of ``data``: 0 the machine, or a game it has."""
    try:
        number = wire.from_bcd(data[:2])
    except wire.BcdError as exc:
        raise PollError(str(exc)) from exc
    if number and m.snapshot().game(number) is None:
        raise PollError(f"no game number {number}")
    return number
