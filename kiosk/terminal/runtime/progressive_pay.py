"""Paying a terminal's progressive hits from the progressive's journal (decision 0066).

The progressive's journal says who won (a hit, keyed ``source/game/seat/spot``); the terminal's
signed journal says what was paid.  :class:`HitPayer` puts every hit of this terminal that its
journal does not hold yet on the terminal as a ``PayProgressive`` command: the core credits it
(``progressive_won``) or, at or above the handpay limit, locks for the attendant (a handpay of
kind ``progressive``).  The core refuses a key its journal already holds, so a hit is paid
exactly once whatever is retried: after a power cut or SIGKILL between the progressive's commit
and the terminal's, :meth:`HitPayer.pay_due` at the next power-up pays it.  A hit that cannot be
paid now (another handpay waits for the attendant) is paid after a later commit.

:class:`PaidWins` is what the terminal's SAS link reports (84, 85, 87; exceptions 56 and 54):
the hits as the terminal's own journal paid them, read from that journal, never from a copy.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence

from kiosk.kernel.games.progressive import Hit, LevelAmount, ProgressiveSettings, Win
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.commands import CommandError, DuplicateReportError
from kiosk.terminal.progressive.journal import BookedRound
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.store.faults import StoreError


def hit_seat(key: str) -> int:
    """The seat of a hit's key ``source/game/seat/spot``."""
    return int(key.split("/")[2])


class HitPayer:
    """Pays ``source``'s hits of the progressive ``settings`` on ``runtime``, each once.

    ``rounds`` reads every booked round of the progressive (its journal, in order);
    ``seat_of`` maps a hit to the terminal's seat (a standalone terminal: the key's seat)."""

    def __init__(
        self,
        runtime: TerminalRuntime,
        settings: ProgressiveSettings,
        source: str,
        rounds: Callable[[], Sequence[BookedRound]],
        seat_of: Callable[[Hit], int | None] | None = None,
    ) -> None:
        self.runtime, self.settings, self.prefix = runtime, settings, f"{source}/"
        self.rounds = rounds
        self.seat_of = seat_of or (lambda hit: hit_seat(hit.key))
        self._due: dict[str, Hit] = {}

    def mine(self, rows: Iterable[BookedRound]) -> list[Hit]:
        """The hits of this terminal among ``rows``."""
        return [h for row in rows for h in row.hits if h.key.startswith(self.prefix)]

    def scan(self) -> int:
        """Read the whole progressive journal for hits the terminal has not paid; how many."""
        paid = {p.key for p in self.runtime.state.progressive_paid}
        for hit in self.mine(self.rounds()):
            if hit.key not in paid:
                self._due[hit.key] = hit
        return len(self._due)

    def booked(self, rows: Iterable[BookedRound]) -> None:
        """Rounds just booked: their hits of this terminal are due."""
        paid = {p.key for p in self.runtime.state.progressive_paid}
        for hit in self.mine(rows):
            if hit.key not in paid:
                self._due[hit.key] = hit

    def pay_due(self) -> list[e.Event]:
        """Pay what is due, oldest first (on the terminal's thread); the events journaled.
        A hit the core refuses now (a handpay waiting) stays due; a store failure locks the
        terminal up and the hit is paid at the next power-up."""
        out: list[e.Event] = []
        for key, hit in list(self._due.items()):
            seat = self.seat_of(hit)
            if seat is None:
                del self._due[key]  # not a seat of this terminal
                continue
            command = c.PayProgressive(
                seat=seat,
                key=key,
                progressive=self.settings.name,
                outcome=self.settings.outcome,
                award=hit.award_cents,
                handpay=hit.handpay,
            )
            try:
                out += self.runtime.execute(command)
            except DuplicateReportError:
                pass  # paid before (the journal holds the key)
            except (CommandError, StoreError):
                break  # not now: a later commit or the next power-up tries again
            del self._due[key]
        return out

    @property
    def due(self) -> tuple[Hit, ...]:
        """Hits known and not yet paid."""
        return tuple(self._due.values())

    def observe(self, events: list[e.Event]) -> None:
        """A runtime observer: after a commit that may free the way (a handpay reset, a
        round's end), pay what is due on the terminal's thread."""
        if self._due and not any(isinstance(ev, e.ProgressiveAwarded) for ev in events):
            self.runtime.post(self.pay_due)


class PaidWins:
    """The progressive wins the terminal's own journal paid, for its SAS link (thread-safe:
    the SAS thread reads a tuple the terminal's thread replaces).  ``name``: only that
    progressive's (None: every progressive's, as a seat of a table reports its table's)."""

    def __init__(
        self, runtime: TerminalRuntime, name: str | None = None, *, group: int = 1, level: int = 1
    ) -> None:
        self.name, self.group, self.level = name, group, level
        self._lock = threading.Lock()
        self._wins: tuple[Win, ...] = ()
        self.take(row.event for row in runtime.journal.rows())
        runtime.subscribe(self.take)

    def take(self, events: Iterable[e.Event]) -> None:
        """Add the progressive awards among ``events`` (journal order)."""
        new = [ev for ev in events if isinstance(ev, e.ProgressiveAwarded)]
        if not new:
            return
        with self._lock:
            wins = list(self._wins)
            for ev in new:
                if self.name is None or ev.progressive == self.name:
                    amount = LevelAmount(self.group, self.level, ev.award)
                    wins.append(Win(len(wins) + 1, ev.key, amount, ev.handpay))
            self._wins = tuple(wins)

    def wins(self) -> tuple[Win, ...]:
        """Every win paid, oldest first (``seq`` from 1)."""
        return self._wins


def paid_problems(
    hits: Iterable[Hit], awards: Iterable[e.ProgressiveAwarded], prefix: str
) -> list[str]:
    """The progressive's hits of the terminal (keys starting ``prefix``) against the awards its
    journal paid: each hit paid once, at its amount and as its kind (credits or handpay);
    nothing paid that the progressive never booked.  Empty when they agree to the cent."""
    mine = {h.key: h for h in hits if h.key.startswith(prefix)}
    problems, seen = [], set()
    for award in awards:
        hit = mine.get(award.key)
        if award.key in seen:
            problems.append(f"{award.key} paid twice")
        elif hit is None:
            problems.append(f"{award.key} paid, never booked as a hit")
        elif (award.award, award.handpay) != (hit.award_cents, hit.handpay):
            problems.append(
                f"{award.key} paid {award.award} cents (handpay {award.handpay}), the "
                f"progressive booked {hit.award_cents} (handpay {hit.handpay})"
            )
        seen.add(award.key)
    problems += [f"{key} booked as a hit, never paid" for key in sorted(set(mine) - seen)]
    return problems
