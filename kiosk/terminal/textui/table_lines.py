"""The table's status in one line of text (``turbokiosk play --table``)."""

from __future__ import annotations

from kiosk.kernel.money_text import dollars
from kiosk.terminal.presentation.table_status import TableStatus, phase_word


def table_line(status: TableStatus) -> str:
    """``Table T1 game 7: betting, 12.4 s left; seats in 4; dealer: New Game`` (or the link)."""
    head = f"Table {status.table_id} seat {status.seat}"
    if status.connection != "seated":
        why = f": {status.reason}" if status.reason else ""
        bets = " New bets are disabled." if status.link_lost else ""
        return f"{head}: {status.connection}{why}.{bets}"
    paused = f" (paused: {status.pause_reason or 'by the dealer'})" if status.paused else ""
    parts = [f"{head} game {status.game_number}: {phase_word(status.phase)}{paused}"]
    if status.remaining_ms:
        parts.append(f"{status.remaining_ms / 1000:.1f} s left")
    if status.seats_in:
        parts.append(f"seats in {status.seats_in}")
    if status.dealer_step:
        parts.append(f"dealer: {status.dealer_step}")
    if status.progressive is not None:
        outcome, cents = status.progressive
        parts.append(f"{outcome} progressive {dollars(cents)}")
    return "; ".join(parts)
