"""The table controller: the core on its journal and its deck (the one authority of a table).

Every step is journaled before it takes effect: :meth:`TableController.execute` asks the core
for a command's events, appends them to the journal in one transaction, and only then folds
them into the state (and a server would only then tell the seats).  Cards are drawn when the
core asks for them (:meth:`~kiosk.table.core.core.TableCore.draws_needed`) and journaled before
anyone sees them; after a kill, replaying the journal gives back the cards already drawn, so
they are never drawn again.  A round whose cards cannot be drawn (the RNG failed) is voided and
every seat's wagers returned, journaled like any step.

With a ``signer`` (the table's own, :mod:`kiosk.table.core.record`), opening verifies the journal
against it (chain, signed head, recall, anchor) and every later commit's head is signed: a
journal that fails raises :class:`~kiosk.table.core.record.TableRecordError` and is not served.
A step that cannot be journaled or signed while serving (a store fault, the signer gone) locks
the controller: :attr:`TableController.fault` says why and every later step is refused with
:class:`TableLockedError` (nothing more is written or signed; a server stops on it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from kiosk.table.core import commands as c
from kiosk.table.core import events as e
from kiosk.table.core.core import (
    DEALER_EVENTS,
    DrawPart,
    RoundRecord,
    TableConfig,
    TableCore,
    TableState,
)
from kiosk.table.core.journal import TableJournal
from kiosk.table.core.record import power_up_table, verify_table
from kiosk.terminal.store.faults import StoreError
from rng import DeckError, DrbgError, RngFailure

if TYPE_CHECKING:
    from kiosk.terminal.signer.client import Signer


class DeckLike(Protocol):
    """A shuffled deck that deals card codes on demand."""

    def deal(self, n: int) -> tuple[int, ...]: ...


#: a fresh shuffle of the full deck without the given cards
# (kiosk.terminal.runtime.deck.RngDeckFactory)
DeckFactory = Callable[[frozenset[int]], DeckLike]


class TableLockedError(c.TableCommandError):
    """A step could not be journaled or signed: the controller takes no more (its reason)."""


#: why drawing stops a round for good
_DRAW_FAULTS = (RngFailure, DeckError, DrbgError)


@dataclass
class Recovery:
    """What opening the journal found."""

    replayed: int = 0
    resumed_game: int | None = None
    actions: list[str] = field(default_factory=list)


class TableController:
    """One table: commands in, journaled events out."""

    def __init__(
        self,
        config: TableConfig,
        path: Path,
        deck_factory: DeckFactory,
        signer: Signer | None = None,
    ) -> None:
        """``signer`` None: an unsigned journal (the core's tests; ``table serve`` always
        signs)."""
        self.core = TableCore(config)
        self.journal = TableJournal(path, config.table_id)
        self.deck_factory = deck_factory
        self._deck: DeckLike | None = None
        self._deck_game = 0
        self.recovery = Recovery()
        #: why the controller is locked (a step that could not be journaled), or None
        self.fault: str | None = None
        #: told every commit's events once they are journaled and applied (a progressive's
        # feed, kiosk.table.progressive.feed); a hook never raises into the table
        self.hooks: list[Callable[[list[e.Event]], None]] = []
        try:
            if signer is None:
                verified = verify_table(self.journal, None, None, core=self.core, signed=False)
            else:
                check = power_up_table(self.journal, signer, self.core)
                assert check.verified is not None
                verified = check.verified
                self.recovery.actions += check.actions
            self.journal.remember(
                edition=config.edition,
                mode=config.mode.value,
                card_source=config.card_source.value,
            )
        except BaseException:
            self.journal.close()
            raise
        self.recovery.replayed = verified.rows
        if self.state.round is not None:
            self.recovery.resumed_game = self.state.round.game_number

    @property
    def state(self) -> TableState:
        return self.core.state

    def resume(self, now: int) -> list[e.Event]:
        """After opening: draw what an interrupted round still waits for, then run its timers."""
        events = self._draw_pending(now)
        return events + self.execute(c.Tick(), now)

    def execute(
        self,
        cmd: c.Command,
        now: int,
        audit: e.DealerAudited | None = None,
        *,
        journaled: Callable[[list[e.Event]], None] | None = None,
    ) -> list[e.Event]:
        """Carry out ``cmd`` at ``now`` (ms): the events, journaled and applied.

        A refusal raises the core's typed error and changes nothing; a duplicate report raises
        :class:`~kiosk.table.core.commands.DuplicateReportError` (already journaled: acknowledge
        it). ``audit``: the Dealer Terminal's record of the command, journaled in the same
        transaction as its events.  ``journaled``: told each commit's events as soon as that
        commit is journaled (the command's, then each draw's), so that a server tells the seats
        that the bets closed while the cards are still being drawn and journaled.
        """
        events = self.core.handle(cmd, now)
        if audit is not None:
            events = [*events, audit]
        self._commit(events)
        if journaled is not None and events:
            journaled(events)
        return events + self._draw_pending(now, journaled)

    def execute_reports(
        self, cmds: Sequence[c.Command], now: int
    ) -> list[list[e.Event] | c.TableCommandError]:
        """Carry out seats' reports that arrived together, in order: for each, its events (as
        :meth:`execute` gives them) or the typed error that refused it.

        The journal holds the same rows, in the same order, as :meth:`execute` one report after
        another would write, but a run of reports is one transaction with one signed head
        (decision 0070): each report is checked against the state with the reports before it
        folded in, and none is answered before the run is journaled (a run ends where a report
        makes the table draw cards).  A run that cannot be journaled locks the controller: its
        reports, and every one after, get :class:`TableLockedError`."""
        results: list[list[e.Event] | c.TableCommandError] = []
        run: list[int] = []  # the results' indexes of the run not yet journaled

        def journal_run() -> None:
            groups = [done for i in run if isinstance(done := results[i], list)]
            try:
                self._commit_applied(groups)
            except TableLockedError as exc:
                for i in run:
                    results[i] = exc
            run.clear()

        for cmd in cmds:
            if self.fault is not None:
                results.append(TableLockedError(f"the table is locked: {self.fault}"))
                continue
            try:
                events = self.core.handle(cmd, now)
            except c.TableCommandError as exc:
                results.append(exc)
                continue
            self.core.apply(events)
            run.append(len(results))
            results.append(events)
            if self.core.draws_needed():
                journal_run()
                done = results[-1]
                if isinstance(done, list):
                    try:
                        results[-1] = done + self._draw_pending(now)
                    except TableLockedError as exc:
                        results[-1] = exc
        journal_run()
        return results

    def _commit_applied(self, groups: list[list[e.Event]]) -> None:
        """Journal events already folded into the state, in one transaction (then the hooks,
        a group each); on a store fault the controller is locked (nothing is answered, and a
        restart replays the journal, not this state)."""
        events = [event for group in groups for event in group]
        if not events:
            return
        games = _finished_games(events)
        self._append(events, [r for r in self.state.recall if r.game_number in games])
        for group in groups:
            for hook in self.hooks:
                hook(group)

    def record(self, events: list[e.Event]) -> list[e.Event]:
        """Journal the Dealer Terminal's own events (PIN outcomes, audit records), then apply."""
        if not all(type(ev) in DEALER_EVENTS for ev in events):
            raise ValueError("only the dealer's PIN and audit events are recorded directly")
        self._commit(events)
        return events

    def _draw_pending(
        self, now: int, journaled: Callable[[list[e.Event]], None] | None = None
    ) -> list[e.Event]:
        out: list[e.Event] = []
        while parts := self.core.draws_needed():
            try:
                cards = tuple(self._draw(part) for part in parts)
            except _DRAW_FAULTS as exc:
                events = self._void(f"cards cannot be drawn: {exc}", now)
                out += events
                if journaled is not None and events:
                    journaled(events)
                break
            events = self.core.handle(c.CardsDrawn(cards), now)
            self._commit(events)
            if journaled is not None and events:
                journaled(events)
            out += events
        return out

    def _void(self, reason: str, now: int) -> list[e.Event]:
        events = self.core.handle(c.VoidRound(reason), now)
        self._commit(events)
        return events

    def _draw(self, part: DrawPart) -> tuple[int, ...]:
        if part.own_shuffle:
            return self.deck_factory(part.excluded).deal(part.count)
        rnd = self.state.round
        assert rnd is not None
        if self._deck is None or self._deck_game != rnd.game_number:
            self._deck = self.deck_factory(rnd.dealt())
            self._deck_game = rnd.game_number
        return self._deck.deal(part.count)

    def _commit(self, events: list[e.Event]) -> None:
        if not events:
            return
        if self.fault is not None:
            raise TableLockedError(f"the table is locked: {self.fault}")
        self._append(events, self._finished(events))
        self.core.apply(events)
        for hook in self.hooks:
            hook(events)

    def _append(self, events: list[e.Event], finished: list[RoundRecord]) -> None:
        """Journal ``events`` (with the recall of the rounds they finish); a store fault locks
        the controller."""
        try:
            self.journal.append(events, finished)
        except StoreError as exc:
            self.fault = str(exc)
            raise TableLockedError(f"the table is locked: {exc}") from exc

    def _finished(self, events: list[e.Event]) -> list[RoundRecord]:
        """The recall records of the rounds these events finish (from a scratch fold)."""
        games = _finished_games(events)
        if not games:
            return []
        scratch = self.core.copy()
        scratch.apply(events)
        return [r for r in scratch.state.recall if r.game_number in games]

    def recall(self, game_number: int) -> RoundRecord | None:
        """The table's recall of a finished round."""
        return self.journal.recall(game_number)

    def close(self) -> None:
        self.journal.close()


def _finished_games(events: list[e.Event]) -> set[int]:
    """The game numbers of the rounds these events finish."""
    return {ev.game_number for ev in events if isinstance(ev, e.RoundClosed | e.RoundVoided)}
