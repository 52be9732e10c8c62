"""A terminal's feed of its settled games to its own (standalone) progressive.

The terminal's journal is the truth of each wager: :func:`game_wagers` reads the progressive's
wagers of a terminal ``RoundSettled`` (its seats' results on the progressive's spot).
:class:`TerminalFeed` books each game right after the terminal commits it (an observer of the
runtime) and, at power-up, every settled game of the journal past the meter's cursor, so a power
cut between the two commits books the game at the next power-up, once.  ``on_booked`` is told
each booked round (the terminal pays its hits: :mod:`kiosk.terminal.runtime.progressive_pay`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from kiosk.kernel.games.progressive import ProgressiveSettings
from kiosk.terminal.core import events as ev
from kiosk.terminal.progressive.controller import ProgressiveBook, WagerIn
from kiosk.terminal.progressive.journal import BookedRound


def game_wagers(settings: ProgressiveSettings, event: ev.RoundSettled) -> list[WagerIn]:
    """The progressive's wagers of a settled game, in seat order."""
    return [
        WagerIn(seat.seat, r.spot, r.stake, r.outcome == settings.outcome)
        for seat in sorted(event.seats, key=lambda s: s.seat)
        for r in seat.results
        if r.spot == settings.wager and r.stake > 0
    ]


class TerminalFeed:
    """Books a terminal's settled games on its progressive, in order, exactly once."""

    def __init__(
        self,
        book: ProgressiveBook,
        source: str,
        settings: ProgressiveSettings,
        handpay_limit: int | None,
        on_booked: Callable[[Sequence[BookedRound]], None] | None = None,
    ) -> None:
        self.book, self.source, self.settings = book, source, settings
        self.handpay_limit = handpay_limit
        self.on_booked = on_booked

    def catch_up(self, events: Iterable[ev.Event]) -> int:
        """Book every settled game of the journal past the meter's cursor; how many."""
        cursor = self.book.last_game(self.source)
        settled = [e for e in events if isinstance(e, ev.RoundSettled) and e.game_number > cursor]
        self.after(settled)
        return len(settled)

    def after(self, events: Sequence[ev.Event]) -> None:
        """The terminal committed ``events``: book its settled games."""
        rows = []
        for event in events:
            if isinstance(event, ev.RoundSettled):
                wagers = game_wagers(self.settings, event)
                rows.append(
                    self.book.book_round(self.source, event.game_number, wagers, self.handpay_limit)
                )
        if rows and self.on_booked is not None:
            self.on_booked(rows)
