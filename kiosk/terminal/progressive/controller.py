"""The progressive controller: the meter on its journal (one authority of a progressive).

:meth:`ProgressiveController.book_round` books a settled round's wagers on the progressive's
spot: each contributes (:meth:`~kiosk.kernel.games.progressive.ProgressivePool.contribute`), then
each winning wager that qualifies hits, in seat order (a second hit in the same round wins the
meter as the first left it).  The round is journaled in one transaction before anyone is
told; a round already booked (the same source and game) is answered from the journal and
changes nothing, so a table that did not hear the answer sends it again safely.  Opening
replays the journal (chain checked) into the meter.  A round that cannot be journaled locks
the controller (:class:`ProgressiveLockedError`): nothing more is booked.

The same controller serves the three modes: a terminal's own meter (standalone), a table
controller's (the seats of one table) and the progressive controller process's (linked
across tables, :mod:`kiosk.table.progressive.server`).

:meth:`ProgressiveController.retire_to` retires the meter to a successor (decision 0066): the
retired journal books the outgoing transfer (a row of source :data:`RETIRE_SOURCE`), then the
successor's journal the incoming one (source ``transfer-from:<retired>``); a retired meter
books nothing more.  A stop between the two commits is finished by running it again: the
retired journal's transfer is the truth, and the successor takes it once.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from kiosk.kernel.games.progressive import (
    Event,
    LevelAmount,
    MeterState,
    ProgressiveError,
    ProgressivePool,
    ProgressiveSettings,
    Transferred,
    Win,
    wager_key,
)
from kiosk.terminal.progressive.journal import BookedRound, ProgressiveJournal
from kiosk.terminal.store.faults import StoreError

#: the source of a retirement's row in the retired meter's journal (game 1: once)
RETIRE_SOURCE = "retired"


class ProgressiveLockedError(StoreError):
    """A round could not be journaled: the controller books nothing more."""


@dataclass(frozen=True)
class WagerIn:
    """One settled wager of a round, as a table reports it."""

    seat: int
    spot: str
    cents: int
    won: bool  # its outcome is the progressive's winning outcome


class ProgressiveBook(Protocol):
    """What a table or terminal books its rounds on (local or over gRPC)."""

    def book_round(
        self, source: str, game: int, wagers: Sequence[WagerIn], handpay_limit: int | None
    ) -> BookedRound:
        """Book a settled round (idempotent by source and game)."""
        ...

    def meters(self) -> MeterState:
        """The meters now."""
        ...

    def last_game(self, source: str) -> int:
        """The highest game booked from ``source`` (0: none)."""
        ...


class ProgressiveController:
    """One progressive's meter on its journal; thread-safe (one lock)."""

    def __init__(self, settings: ProgressiveSettings, path: Path) -> None:
        self.settings = settings
        self.journal = ProgressiveJournal(path, settings)
        self.pool = ProgressivePool(settings)
        self._booked: dict[tuple[str, int], BookedRound] = {}
        self._last: dict[str, int] = {}
        self._lock = threading.Lock()
        self.fault: str | None = None
        try:
            for row in self.journal.rows():
                self._fold(row)
        except BaseException:
            self.journal.close()
            raise

    def _fold(self, row: BookedRound) -> None:
        for event in row.events:
            self.pool.apply(event)
        self._booked[(row.source, row.game)] = row
        self._last[row.source] = max(self._last.get(row.source, 0), row.game)

    def book_round(
        self, source: str, game: int, wagers: Sequence[WagerIn], handpay_limit: int | None
    ) -> BookedRound:
        """Book the round ``game`` of ``source``; the booked round (the journaled one if it was
        booked before).  :class:`ProgressiveError` for a malformed round (nothing changes)."""
        with self._lock:
            done = self._booked.get((source, game))
            if done is not None:
                return done
            if self.fault is not None:
                raise ProgressiveLockedError(f"the progressive is locked: {self.fault}")
            if self.pool.state.retired_to:
                raise ProgressiveLockedError(
                    f"progressive {self.settings.name} was retired to "
                    f"{self.pool.state.retired_to}: it books nothing more"
                )
            if game <= 0:
                raise ProgressiveError(f"game numbers start at 1, not {game}")
            mine = sorted(
                (w for w in wagers if w.spot == self.settings.wager and w.cents > 0),
                key=lambda w: w.seat,
            )
            if len({w.seat for w in mine}) != len(mine):
                raise ProgressiveError(f"{source} game {game} names a seat twice")
            scratch = ProgressivePool(self.settings)
            scratch.state = self.pool.state
            events: list[Event] = []
            for w in mine:
                ev = scratch.contribute(wager_key(source, game, w.seat, w.spot), w.cents)
                scratch.apply(ev)
                events.append(ev)
            for w in mine:
                if w.won and w.cents >= self.settings.qualify_cents:
                    hit = scratch.hit(
                        wager_key(source, game, w.seat, w.spot), w.cents, handpay_limit
                    )
                    scratch.apply(hit)
                    events.append(hit)
            row = BookedRound(source, game, tuple(events))
            try:
                self.journal.append(source, game, events)
            except StoreError as exc:
                self.fault = str(exc)
                raise ProgressiveLockedError(f"the progressive is locked: {exc}") from exc
            self._fold(row)
            return row

    def meters(self) -> MeterState:
        """The meters now."""
        with self._lock:
            return self.pool.state

    def retire_to(
        self, successor: ProgressiveController, by: str, reason: str
    ) -> tuple[Transferred, Transferred]:
        """Move this meter's whole liability to ``successor`` and retire it; the two journaled
        transfers (outgoing, incoming).  Idempotent: run again after a stop between the two
        commits, it books on the successor what the retired journal holds, once.
        :class:`ProgressiveError` for a retirement the meters refuse (nothing changes)."""
        if successor is self:
            raise ProgressiveError("a meter is retired to another progressive, not itself")
        with self._lock, successor._lock:
            out = self.pool.transfer_out(successor.settings.name, by, reason)
            incoming = successor.pool.transfer_in(out)  # the successor refuses before any row
            if successor.fault is not None:
                raise ProgressiveLockedError(f"the successor is locked: {successor.fault}")
            if not self.pool.state.retired_to:
                self._journal_one(RETIRE_SOURCE, out)
            if successor.pool.recorded(Transferred, out.key) is None:
                successor._journal_one(f"transfer-from:{self.settings.name}", incoming)
        return out, incoming

    def _journal_one(self, source: str, event: Transferred) -> None:
        """Journal one transfer as a row of its own (the lock held)."""
        if self.fault is not None:
            raise ProgressiveLockedError(f"the progressive is locked: {self.fault}")
        try:
            self.journal.append(source, 1, [event])
        except StoreError as exc:
            self.fault = str(exc)
            raise ProgressiveLockedError(f"the progressive is locked: {exc}") from exc
        self._fold(BookedRound(source, 1, (event,)))

    def last_game(self, source: str) -> int:
        """The highest game booked from ``source``."""
        with self._lock:
            return self._last.get(source, 0)

    def rounds(self) -> list[BookedRound]:
        """Every booked round, in booking order."""
        with self._lock:
            return list(self._booked.values())

    def close(self) -> None:
        """Close the journal."""
        self.journal.close()


class JournalWins:
    """The progressive wins of one machine, read from the controller's journal (SAS reports
    them: :mod:`kiosk.terminal.sas.progressive`).  ``prefix``: the keys that are this machine's
    (``TK-0001/`` standalone; ``table-T1/`` and a seat's ``/<seat>/`` part at a table)."""

    def __init__(
        self,
        controller: ProgressiveController,
        prefix: str,
        *,
        seat: int | None = None,
        group: int = 1,
        level: int = 1,
    ) -> None:
        self.controller, self.prefix, self.seat = controller, prefix, seat
        self.group, self.level = group, level

    def _mine(self, key: str) -> bool:
        if not key.startswith(self.prefix):
            return False
        return self.seat is None or key.split("/")[2] == str(self.seat)

    def wins(self) -> tuple[Win, ...]:
        """Every win of this machine, oldest first."""
        hits = [h for row in self.controller.rounds() for h in row.hits if self._mine(h.key)]
        return tuple(
            Win(n, h.key, LevelAmount(self.group, self.level, h.award_cents), h.handpay)
            for n, h in enumerate(hits, start=1)
        )
