"""A table's feed of its settled rounds to the progressive (table or linked mode).

The table journal is the truth of every wager: :func:`round_wagers` reads the progressive's
wagers of a ``RoundSettled`` event (its spot, its stake, whether its outcome is the winning
one).  :class:`TableFeed` books each settled round on a :class:`ProgressiveBook` in game order,
right after the table journals it (:meth:`TableFeed.after`, a hook of the table controller).
A round the book cannot take now (the progressive controller unreachable) waits, and every
later round waits behind it, so rounds are booked strictly in order; after a restart
:meth:`TableFeed.catch_up` books every settled round of the table journal past the book's
cursor (``last_game``).  Booking is idempotent by (source, game), so a round booked twice
is booked once: contributions reconcile to the micro-cent (``turbokiosk progressive
reconcile``, :func:`reconcile`).

``on_booked`` is told every booked round (the table server sends each seat its hits, decision
0066).  At :meth:`TableFeed.catch_up` the rounds already booked whose settlement has a winning
wager that qualifies are booked again (an idempotent answer: the journaled hits), so a hit whose
answer a killed table never heard is still told to its seat.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from kiosk.kernel.games.progressive import MICRO, ProgressiveSettings
from kiosk.table.core import events as e
from kiosk.table.progressive.client import ProgressiveUnavailableError
from kiosk.terminal.progressive.controller import ProgressiveBook, WagerIn
from kiosk.terminal.progressive.journal import BookedRound
from kiosk.terminal.store.faults import StoreError


def round_wagers(settings: ProgressiveSettings, ev: e.RoundSettled) -> list[WagerIn]:
    """The progressive's wagers of a settled round, in seat order."""
    return [
        WagerIn(o.seat, w.spot, w.stake, w.outcome == settings.outcome)
        for o in sorted(ev.outcomes, key=lambda o: o.seat)
        for w in o.wagers
        if w.spot == settings.wager and w.stake > 0
    ]


class TableFeed:
    """Books a table's settled rounds on the progressive, in order, exactly once."""

    def __init__(
        self,
        book: ProgressiveBook,
        source: str,
        settings: ProgressiveSettings,
        handpay_limit: int | None = None,
        on_booked: Callable[[Sequence[BookedRound]], None] | None = None,
    ) -> None:
        self.book, self.source, self.settings = book, source, settings
        self.handpay_limit = handpay_limit
        self.on_booked = on_booked
        self.pending: list[e.RoundSettled] = []
        self.booked: list[BookedRound] = []  # what this feed booked since it started
        self._lock = threading.RLock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        #: the meter (cents) as last read after booking, for the Dealer Terminal (None: unknown)
        self.meter_cents: int | None = None
        #: why the last booking failed (rounds wait), or None
        self.fault: str | None = None

    def shown(self) -> tuple[str, str, int] | None:
        """(name, winning outcome, meter cents) as last known, or None before the first read."""
        if self.meter_cents is None:
            return None
        return self.settings.name, self.settings.outcome, self.meter_cents

    def refresh(self) -> None:
        """Read the meter again (an unreachable controller leaves the last figure)."""
        with contextlib.suppress(ProgressiveUnavailableError):
            self.meter_cents = self.book.meters().meter_cents

    def start(self, retry_s: float = 1.0) -> None:
        """Book from a thread of its own from now on: :meth:`after` only queues (the table's
        lock never waits on the progressive controller); a round the controller could not take
        is tried again every ``retry_s`` seconds."""

        def loop() -> None:
            while not self._stop.is_set():
                self._wake.wait(retry_s)
                self._wake.clear()
                self.flush()

        self._thread = threading.Thread(target=loop, name="progressive-feed", daemon=True)
        self._thread.start()

    def stop(self) -> bool:
        """Stop the thread after one last try; whether nothing waits."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
        return self.flush()

    def catch_up(self, events: Iterable[e.Event]) -> None:
        """Queue every settled round of the table journal past the book's cursor, then book
        (the cursor unreachable: :class:`ProgressiveUnavailableError`, nothing queued)."""
        cursor = self.book.last_game(self.source)
        settled = [ev for ev in events if isinstance(ev, e.RoundSettled)]
        q = self.settings.qualify_cents
        hit = [
            ev
            for ev in settled
            if ev.game_number <= cursor
            and any(w.won and w.cents >= q for w in round_wagers(self.settings, ev))
        ]
        with self._lock:
            self.pending = hit + [ev for ev in settled if ev.game_number > cursor]
        self.flush()

    def after(self, events: Sequence[e.Event]) -> None:
        """The table journaled ``events``: book the settled rounds among them (in order)."""
        settled = [ev for ev in events if isinstance(ev, e.RoundSettled)]
        if not settled:
            return
        with self._lock:
            self.pending += settled
        if self._thread is not None:
            self._wake.set()
        else:
            self.flush()

    def flush(self) -> bool:
        """Book what waits, in order; False when the book is unreachable (they keep waiting)."""
        with self._lock:
            booked = False
            while self.pending:
                booked = True
                ev = self.pending[0]
                wagers = round_wagers(self.settings, ev)
                try:
                    row = self.book.book_round(
                        self.source, ev.game_number, wagers, self.handpay_limit
                    )
                except (ProgressiveUnavailableError, StoreError) as exc:
                    self.fault = str(exc)  # a locked meter or an unreachable controller
                    return False
                self.fault = None
                self.booked.append(row)
                del self.pending[0]
                if self.on_booked is not None and row.hits:
                    self.on_booked([row])
            if booked or self.meter_cents is None:
                self.refresh()
            return True


@dataclass(frozen=True)
class SourceBooks:
    """One source's side of the reconciliation (micro-cents)."""

    source: str
    rounds: int
    wagered_cents: int  # on the progressive's spot, per its journal
    expected: int  # what those wagers contribute at the progressive's rates
    booked: int  # what the progressive's journal holds for it
    missing_games: tuple[int, ...]  # settled on the table, not booked
    extra_games: tuple[int, ...]  # booked, never settled on the table

    @property
    def balanced(self) -> bool:
        """Every settled round booked, nothing else, to the micro-cent."""
        return self.expected == self.booked and not self.missing_games and not self.extra_games

    def line(self) -> str:
        """One line for a report."""
        verdict = "reconciled" if self.balanced else "DIFFERS"
        return (
            f"{self.source}: {self.rounds} rounds, {self.wagered_cents / 100:,.2f} wagered, "
            f"contributions {self.booked / MICRO / 100:,.6f} booked, "
            f"{self.expected / MICRO / 100:,.6f} expected: {verdict}"
            + (f"; missing games {list(self.missing_games)}" if self.missing_games else "")
            + (f"; games never settled {list(self.extra_games)}" if self.extra_games else "")
        )


def reconcile(
    settings: ProgressiveSettings,
    tables: Mapping[str, Iterable[e.Event]],
    booked: Iterable[BookedRound],
) -> list[SourceBooks]:
    """Each table's settled rounds (source -> its journal's events) against the progressive's
    journal: every settled round booked once, its contributions equal to its wagers times the
    rates.  (The split between meter, hidden and overflow depends on the order rounds reached
    the meter; the total of each wager does not.)"""
    by_source: dict[str, dict[int, BookedRound]] = {}
    for row in booked:
        by_source.setdefault(row.source, {})[row.game] = row
    rate = settings.meter.rate_ppm + settings.meter.hidden_ppm
    out = []
    for source, events in tables.items():
        settled = {
            ev.game_number: round_wagers(settings, ev)
            for ev in events
            if isinstance(ev, e.RoundSettled)
        }
        mine = by_source.get(source, {})
        wagered = sum(w.cents for ws in settled.values() for w in ws)
        out.append(
            SourceBooks(
                source,
                len(settled),
                wagered,
                wagered * rate,
                sum(c.total for row in mine.values() for c in row.contributions),
                tuple(sorted(set(settled) - set(mine))),
                tuple(sorted(set(mine) - set(settled))),
            )
        )
    return out
