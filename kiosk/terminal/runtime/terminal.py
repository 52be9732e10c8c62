"""TerminalRuntime: journal before effect, power-fail recovery, timers and device effects.

One call of :meth:`TerminalRuntime.execute` is one atomic step:

1. the core turns the command into events (an illegal command raises, nothing changes);
2. the events are applied to a scratch copy of the state, and the cards the round needs are
   dealt and passed back in (still nothing shown): every card of a round is drawn from the RNG
   at its first deal and sealed at the signer with that commit's head, so that the round, cut
   or resumed after a power cut, deals the same cards (:mod:`kiosk.terminal.runtime.deck`);
3. the events are committed to the journal with their projections (snapshot, recall, host
   outbox) in one SQLite transaction with fsync;
4. only then does the scratch copy become the state, and the effects are performed: stack or
   return a note, print a voucher, enable or disable the bill validator, notify observers.

If the commit fails the state stays exactly as the journal has it and the terminal locks up:
*storage full* when the disk is full, *critical memory error* for any other store failure
(decision 0007).  The lockup shows; :class:`StoreError` is raised to the caller.
"""

from __future__ import annotations

import contextlib
import os
import queue
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk import __version__
from kiosk.kernel.clock import wall_clock_ms
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.commands import (
    CommandError,
    DuplicateReportError,
    IllegalCommandError,
    ReportMismatchError,
)
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.core import TerminalCore
from kiosk.terminal.core.event_sets import ESCROW_ENDINGS, kind_names
from kiosk.terminal.core.meters import Meters
from kiosk.terminal.core.state import Phase, TerminalState
from kiosk.terminal.core.tilts import TiltCode
from kiosk.terminal.devices.money_record import MoneyRecord
from kiosk.terminal.devices.ports import BillValidatorPort, PrinterPort, TicketInserted, Voucher
from kiosk.terminal.hostlink.anchor import JournalHead, anchor_problem, hash_at
from kiosk.terminal.hostlink.ports import HostPort, HostUnavailableError
from kiosk.terminal.runtime import reconcile, ticket_in
from kiosk.terminal.runtime.deck import DeckFactory as DeckFactory
from kiosk.terminal.runtime.deck import DeckLike as DeckLike
from kiosk.terminal.runtime.deck import SealBrokenError
from kiosk.terminal.runtime.pin_migration import take_in_old_pins
from kiosk.terminal.runtime.ram_clear import ram_clear
from kiosk.terminal.runtime.scratch import clone
from kiosk.terminal.runtime.sealed import BETWEEN_ROUNDS, RoundSealing
from kiosk.terminal.signer.client import Signer, signer_for
from kiosk.terminal.signer.records import RoundSeal
from kiosk.terminal.store.critmem import StoreCheck
from kiosk.terminal.store.faults import describe, is_storage_full, store_fault
from kiosk.terminal.store.journal import Journal, Projections, StoreError
from kiosk.terminal.store.port import JournalOpener, RuntimeJournal
from kiosk.terminal.store.port import power_up as store_power_up
from rng import RngFailure

#: events after which a snapshot is written at once (they change the state's whole basis)
_SNAPSHOT_NOW = frozenset({e.ConfigChanged, e.PeriodMetersReset})
#: the tilt of a configured terminal id that is not the host link's (see _check_identity)
IDENTITY_TILT = TiltCode.TERMINAL_ID_MISMATCH
#: marker left in the data directory while a storage-full fault waits to be journaled (an
#: empty file needs no data block); the next power-up journals the fault and removes it
STORAGE_FULL_MARK = "storage-full.pending"
#: how often a running terminal retries journaling a storage-full fault (milliseconds)
STORAGE_RETRY_MS = 2000
#: the tilt of a device report that disagrees with the state (an attendant checks the cash box)
REPORT_MISMATCH_TILT = TiltCode.DEVICE_REPORT_MISMATCH
#: journaled kinds that end an escrow (the core's memory of them is seeded at power-up)
_RESOLVING_KINDS = kind_names(ESCROW_ENDINGS)

#: the round's events that :meth:`TerminalRuntime._effects` passes over (none of its branches
#: is about them: the display redraws from the state); most of a game's events are these
_NO_EFFECT = frozenset({e.RoundStarted, e.CardsDealt, e.RoundSettled, e.TableRoundJoined})


#: maps a step's events (and the state after them) to messages owed to the accounting host,
#: which are committed in the same transaction (store-and-forward outbox)
HostMessages = Callable[[list[e.Event], TerminalState], list[tuple[str, dict[str, Any]]]]


@dataclass
class RecoveryReport:
    """What power-up found and resolved."""

    replayed: int = 0
    checked_rows: int = 0
    actions: list[str] = field(default_factory=list)
    critical: str | None = None
    #: why the store could not be opened, read or written at power-up (None when it could)
    store_failed: str | None = None


class TerminalRuntime:
    """A terminal: the core, its journal, its RNG deck and its devices."""

    def __init__(
        self,
        data_dir: Path,
        *,
        journal: JournalOpener,
        deck_factory: DeckFactory,
        validator: BillValidatorPort,
        printer: PrinterPort,
        validation_numbers: Callable[[], str],
        config: TerminalConfig | None = None,
        clock: Callable[[], int] = wall_clock_ms,
        snapshot_every: int = 25,
        software_version: str = __version__,
        rng_health: Callable[[], str | None] = lambda: None,
        host_messages: HostMessages | None = None,
        host: HostPort | None = None,
        signer: Signer | None = None,
    ) -> None:
        self.data_dir = Path(data_dir)
        #: the signer of every commit's head (default: --signer's socket, else the development
        #: signer beside the data directory; see kiosk.terminal.signer.client)
        self.signer = signer if signer is not None else signer_for(self.data_dir)
        self.deck_factory = deck_factory
        self.validator = validator
        self.printer = printer
        self.validation_numbers = validation_numbers
        self.clock = clock
        self.snapshot_every = snapshot_every
        self.software_version = software_version
        self.rng_health = rng_health
        self.host_messages = host_messages
        self.host = host
        #: the expiry printed on a cash-out ticket, from the operator's days (a SAS validation
        #: host may set its own: kiosk.terminal.sas.validation_status)
        self.voucher_expiry: Callable[[int], int] = lambda operator_days: operator_days
        self._posted: queue.SimpleQueue[Callable[[], object]] = queue.SimpleQueue()
        #: the terminal id the host link speaks as (its certificate's name), None without one
        self._link_id: str | None = getattr(host, "terminal_id", None)
        if config is None:
            # A new terminal with a host link is born with the link's id; see _check_identity
            # for one configured otherwise later.
            config = (
                TerminalConfig(terminal_id=self._link_id) if self._link_id else TerminalConfig()
            )
        self._initial_config = config
        #: the store the builder gave (kiosk.terminal.store.port); None when it could not be opened
        #: (power-up then locks up and says why)
        self._journal: RuntimeJournal | None = None
        self._open_error: StoreError | None = None
        try:
            self._journal = journal()
        except StoreError as exc:
            self._open_error = exc
        self.core: TerminalCore = TerminalCore(TerminalState(self._initial_config))
        #: the round in play's cards and the seal the signer holds
        # (kiosk/terminal/runtime/sealed.py)
        self.sealing = RoundSealing()
        self._deadlines: dict[int, int] = {}
        self._held_at: int | None = None  # when a lockup stopped the decision timers
        self._observers: list[Callable[[list[e.Event]], None]] = []
        self._validator_enabled: bool | None = None
        self._commits_since_snapshot = 0
        self.voucher_sequence = 0
        self.last_recovery = RecoveryReport()
        #: a storage-full fault not yet journaled (the disk was full), and the next retry
        self._unjournaled_full: e.StorageFull | None = None
        self._full_retry_at = 0
        #: each device's last money record, by the tilt a dispute of it raises (the host's
        #: confirmation of a dispute takes its new baseline from it)
        self._last_records: dict[str, MoneyRecord] = {}

    # --- observing -----------------------------------------------------------------------------

    @property
    def state(self) -> TerminalState:
        """The current state (read-only by convention)."""
        return self.core.state

    @property
    def store(self) -> RuntimeJournal:
        """The store (StoreError when it could not be opened: the terminal is locked up)."""
        if self._journal is None:
            raise self._open_error or StoreError("the store is not open")
        return self._journal

    @property
    def journal(self) -> Journal:
        """The store as the SQLite journal, for what works on the file itself (the RAM clear,
        the service audit log, the host's anchor); StoreError on another store."""
        store = self.store
        if not isinstance(store, Journal):
            raise StoreError(
                f"the terminal's store is not a SQLite journal: {type(store).__name__}"
            )
        return store

    def subscribe(self, observer: Callable[[list[e.Event]], None]) -> None:
        """Call ``observer(events)`` after every committed step (the UI redraws from state)."""
        self._observers.append(observer)

    # --- power-up and recovery --------------------------------------------------------------------

    def power_up(self) -> RecoveryReport:
        """Open or create the journal, rebuild the state, finish what a power cut interrupted."""
        report = RecoveryReport()
        now = self.clock()
        check: StoreCheck | None = None
        try:
            check = store_power_up(
                self.store,
                self.signer,
                lambda: TerminalState.genesis(self._initial_config).to_snapshot(),
                now,
            )
        except (StoreError, sqlite3.Error, OSError) as exc:  # unreadable, unopenable, full
            fault = store_fault("power-up", exc)
            report.store_failed = str(fault)
            if is_storage_full(fault):
                return self._power_up_full(report, fault)
            report.critical = f"non-volatile memory unreadable: {fault}"
            if self._journal is not None:
                self._journal.seal(report.critical)
        if check is not None and (check.critical is not None or check.state is None):
            report.critical = f"non-volatile memory check failed: {check.critical}"
            self.store.seal(report.critical)  # nothing is written to (or signed for) it
        elif check is not None and check.state is not None:
            self.core = TerminalCore(check.state)
            self.sealing.reset(self.store.epoch() or 0, check.seal)
            self._seed_resolutions()
            report.checked_rows, report.replayed = check.checked_rows, check.replayed
            report.actions.extend(check.actions)
        self.voucher_sequence = self.core.state.lifetime["tickets_out_count"]
        if report.critical is None:
            audit = self.core.audit_credits()
            if audit is not None:
                report.critical = f"credit audit failed at power-up: {audit}"
        if report.critical is not None:
            self._enter_critical(report.critical)
            self.last_recovery = report
            return report
        try:
            self._journal_storage_full_mark()
            if check is not None and check.withdrawn is not None:
                report.actions.append(self._record_withdrawal(check.withdrawn.seq, check))
            report.actions.extend(self._recover_devices())
            self._check_rng()
            self._check_identity()
            report.actions.extend(take_in_old_pins(self.data_dir, self.state, self.execute, now))
            report.actions.extend(self._recover_round())
            self.execute(
                c.PowerUp(
                    software_version=self.software_version, recovered="; ".join(report.actions)
                )
            )
        except StoreError as exc:  # the step's commit failed: already locked up, with why
            report.critical = self.state.critical or self.state.storage_full or str(exc)
            report.store_failed = report.critical
        self._sync_validator()
        reconcile.request_records(self.validator, self.printer)  # judged as they come (pump)
        self.last_recovery = report
        return report

    def _record_withdrawal(self, withdrawn_seq: int, check: StoreCheck) -> str:
        """Journal the head power-up withdrew (the host hears of it); a second one within the
        window locks the terminal for the operator.  The recovery action's text."""
        assert check.withdrawn is not None
        game = self.sealing.withdrawn_game(self.state.round)
        seq = self.store.head()[0]
        events = self.execute(
            c.RecordWithdrawal(
                epoch=check.withdrawn.epoch,
                seq=withdrawn_seq,
                chain_hash=check.withdrawn.chain_hash.hex(),
                store_seq=seq,
                game_number=game,
                window_ms=self.state.config.withdrawal_lock_hours * 3_600_000,
                earlier=check.earlier_withdrawals,
            )
        )
        locked = any(isinstance(x, e.TiltRaised) for x in events)
        text = f"signed head row {withdrawn_seq} withdrawn (the store ends at row {seq})"
        if game:
            text += f"; game {game} resumes with the cards sealed when drawn"
        return text + ("; a second withdrawal: locked for the operator" if locked else "")

    def _power_up_full(self, report: RecoveryReport, fault: StoreError) -> RecoveryReport:
        """The store could not even be created or checked for want of space."""
        report.critical = str(fault)
        self._enter_storage_full(fault)
        self.last_recovery = report
        return report

    def check_host_anchor(self, epoch: int, seq: int, digest: bytes) -> str | None:
        """Lock up when this store is not in line with the host's acknowledged journal head
        (kiosk/terminal/hostlink/anchor.py); the reason, or None.  Run on the terminal's thread: the
        host link posts it at connect."""
        acknowledged = JournalHead(epoch, seq, digest)
        own_seq = self.journal.head()[0]
        problem = anchor_problem(
            self.journal.created_at(), own_seq, lambda n: hash_at(self.journal, n), acknowledged
        )
        if problem is not None and self.state.critical is None:
            self._enter_critical(problem)
        return problem

    def _enter_critical(self, reason: str) -> None:
        """The critical memory lockup: shown at once, journaled when the store still can."""
        event = e.CriticalMemoryError(at=self.clock(), reason=reason)
        journaled = False
        if self._journal is not None:
            with contextlib.suppress(StoreError, sqlite3.Error, OSError):  # the lockup shows
                self._journal.commit([event])
                journaled = True
        if journaled:
            self.core.apply([event])
        else:  # the lockup holds in memory; the journal has the state as it was
            self.core.state.critical = reason
        self._sync_validator()
        self._notify([])

    def _enter_storage_full(self, fault: StoreError) -> None:
        """The storage-full lockup: nothing of the step was applied; the fault is journaled at
        the next write that succeeds (a retry while running, or the next power-up)."""
        reason = f"{fault}" if str(fault).startswith("storage full") else f"storage full: {fault}"
        self.core.state.storage_full = reason
        if self._unjournaled_full is None:
            now = self.clock()
            self._unjournaled_full = e.StorageFull(at=now, reason=reason, since=now)
            self._full_retry_at = now + STORAGE_RETRY_MS
            with contextlib.suppress(OSError):  # an empty file: needs no data block
                (self.data_dir / STORAGE_FULL_MARK).touch()
        self._sync_validator()
        self._notify([])

    def _journal_storage_full(self) -> None:
        """Commit the pending storage-full fault (StoreError while the disk is still full)."""
        pending = self._unjournaled_full
        if pending is None:
            return
        self._full_retry_at = self.clock() + STORAGE_RETRY_MS
        self.store.commit([pending])
        self._unjournaled_full = None
        with contextlib.suppress(OSError):
            (self.data_dir / STORAGE_FULL_MARK).unlink(missing_ok=True)

    def _journal_storage_full_mark(self) -> None:
        """At power-up: a fault the last run could not journal (its marker file) is journaled
        now, so the event log shows it."""
        mark = self.data_dir / STORAGE_FULL_MARK
        try:
            since = os.stat(mark).st_mtime_ns // 1_000_000
        except OSError:
            return
        reason = "storage full: a write failed for want of space (journaled at power-up)"
        self._unjournaled_full = e.StorageFull(at=self.clock(), reason=reason, since=since)
        try:
            self._journal_storage_full()
        except StoreError as exc:
            self._store_failed(exc)
            raise

    def _seed_resolutions(self) -> None:
        """Give the core the last escrow resolution of each seat from the event log, so that a
        device's report of it again is known as a duplicate (not in the snapshot)."""
        rows = self.store.event_log(kinds=_RESOLVING_KINDS, last=4 * len(self.state.credits))
        self.core.remember(row.event for row in reversed(rows))

    def _device_report(self, report: c.Command) -> list[e.Event]:
        """Execute a device's report: a duplicate is ignored (nothing to credit twice); one that
        disagrees with the state tilts for an attendant (journaled, so in the event log)."""
        try:
            return self.execute(report)
        except DuplicateReportError:
            return []
        except ReportMismatchError as exc:
            if isinstance(report, c.BillStackedReport | c.TicketStackedReport):
                # the tilt's journaled reason is the record: the device stops re-reporting it
                self.validator.acknowledge(report.seat)
            return self.execute(
                c.RaiseTilt(
                    code=REPORT_MISMATCH_TILT,
                    reason=f"{exc.device} reported {exc.reported}; "
                    f"the terminal expected {exc.expected}",
                    needs_attendant=True,
                )
            )

    def _recover_devices(self) -> list[str]:
        actions = []
        for report in self.validator.recover():
            try:
                events = self._device_report(report)
                if any(isinstance(x, e.TiltRaised) for x in events):
                    actions.append(f"bill validator: {report} disagrees with the journal: tilt")
                elif events:
                    actions.append(f"bill validator: {type(report).__name__} {report}")
                elif isinstance(report, c.BillStackedReport | c.TicketStackedReport):
                    self.validator.acknowledge(report.seat)  # journaled before the power cut
            except CommandError:
                if isinstance(report, c.BillStackedReport | c.TicketStackedReport):
                    self.validator.acknowledge(report.seat)
        co = self.state.cashout
        if co is not None:
            status = self.printer.voucher_status(co.validation_number)
            if status == "printed":
                self.execute(c.PrinterReport(printed=True))
                actions.append(f"voucher {co.validation_number} was printed: credits paid out")
            elif status == "not_printed":
                self.execute(c.PrinterReport(printed=False, reason="power lost before printing"))
                actions.append(f"voucher {co.validation_number} was not printed: credits kept")
            else:
                # the cash-out stays open: the printer's answer, when it comes, settles it
                # (its driver asks again); an attendant verifies with the host meanwhile
                self.execute(
                    c.RaiseTilt(
                        code=TiltCode.VOUCHER_UNKNOWN,
                        reason=f"verify voucher {co.validation_number} with the host",
                        needs_attendant=True,
                    )
                )
                actions.append("voucher status unknown: locked for an attendant")
        return actions

    def _check_rng(self) -> bool:
        """Tilt (for an attendant) when the RNG is in its error state; True when healthy."""
        failure = self.rng_health()
        if failure is None:
            return True
        if TiltCode.RNG_FAILURE not in self.state.tilts:
            self.execute(
                c.RaiseTilt(
                    code=TiltCode.RNG_FAILURE, reason=f"RNG: {failure}", needs_attendant=True
                )
            )
        return False

    def _check_identity(self) -> None:
        """With a host link, the configured terminal id (printed on every voucher) must be
        the one the link speaks as (its certificate's name): a tilt names the two while they
        differ, and clears itself once the configuration is put right."""
        link_id = self._link_id
        if link_id is None:
            return
        configured = self.state.config.terminal_id
        raised = IDENTITY_TILT in self.state.tilts
        if configured != link_id and not raised:
            self.execute(
                c.RaiseTilt(
                    code=IDENTITY_TILT,
                    reason=f"terminal id {configured} is not the host link's {link_id} "
                    "(its certificate): set the terminal id in the configuration",
                )
            )
        elif configured == link_id and raised:
            self.execute(c.ClearTilt(code=IDENTITY_TILT, by="configuration"))

    def _recover_round(self) -> list[str]:
        s = self.state
        reopened = self.sealing.reopen(self)
        if reopened is not None:
            return [reopened, *self._recover_round()]
        if s.round is None or s.phase in (Phase.RESULT, Phase.IDLE, Phase.WAGERING):
            return []
        if s.tilts.get(TiltCode.RNG_FAILURE):
            return [f"game {s.round.game_number}: waits for the RNG"]
        number = s.round.game_number
        if s.round.table_game:
            return [f"game {number}: settles from table {s.round.table_id} when seated"]
        if s.phase is Phase.DECISION:
            restored = self.sealing.redecide(self)
            if restored and self.state.phase is not Phase.DECISION:
                return [f"game {number}: sealed decisions {', '.join(restored)} made again"]
            return [f"game {number}: decision offered again"]
        self._draw_pending()
        return [f"game {number}: dealing completed"]

    # --- the step --------------------------------------------------------------------------------

    def execute(
        self, command: c.Command, *, audit: Callable[[], dict[str, Any]] | None = None
    ) -> list[e.Event]:
        """Carry out one command atomically (journal, then effects); the events it caused.

        ``audit`` (the service menu's gate) makes the audit record of the action from the state
        after the events; the record is committed in the same transaction, even with no events.
        A store failure raises :class:`StoreError` after locking the terminal up, with the
        state exactly as the journal has it.
        """
        now = self.clock()
        events = self.core.handle(command, now)
        if events or audit is not None:
            events = self._step(events, now, audit)
        if events:
            self._effects(command, events)
        self._hold_timers(now)
        self._sync_validator()
        self._notify(events)
        return events

    def _step(
        self, events: list[e.Event], now: int, audit: Callable[[], dict[str, Any]] | None
    ) -> list[e.Event]:
        """Apply ``events`` to a scratch copy of the state, draw the cards they call for,
        journal it all, and only then make the copy the state; the step's events.

        Anything failing on the way (the RNG, the audit record, the commit) leaves the state
        as it was: nothing of the step happened.
        """
        live = self.core
        scratch = TerminalCore(clone(live.state))
        scratch.share_rules(live)
        self.core = scratch  # what the projections and the audit record read
        seal = None
        try:
            scratch.apply(events)
            events = events + self._draw_into(scratch, now)
            record = audit() if audit is not None else None
            seal = self.sealing.seal_for(self.state.round)
            if events or record is not None:
                self._commit(events, record, seal)
        except BaseException as exc:
            self.core = live  # nothing of this step was journaled: it never happened
            if isinstance(exc, RngFailure):
                self._check_rng()
                raise CommandError(f"the RNG failed: {exc}") from exc
            if isinstance(exc, SealBrokenError):
                self._enter_critical(str(exc))
            elif isinstance(exc, StoreError):
                self._store_failed(exc)
            raise
        self.sealing.committed(seal)
        # journaled: the copy becomes the state (in the same object, which callers may hold)
        vars(live.state).update(vars(scratch.state))
        live.remember(events)
        self.core = live
        if {type(x) for x in events} & {e.RoundSettled, e.RoundVoided}:
            failed = self.core.audit_credits()
            if failed is not None:
                self.execute(c.ReportCritical(reason=f"credit self-audit failed: {failed}"))
        return events

    def _store_failed(self, exc: StoreError) -> None:
        """The lockup a store failure calls for: storage full, or critical memory error."""
        if is_storage_full(exc):
            self._enter_storage_full(exc)
        else:
            self._enter_critical(f"non-volatile memory write failed: {describe(exc)}")

    def _draw_into(self, core: TerminalCore, now: int) -> list[e.Event]:
        """Draw every card the (scratch) state calls for, applying the events to it."""
        more: list[e.Event] = []
        need = core.cards_needed()
        while need:
            new = core.handle(c.CardsDrawn(self._draw(need)), now)
            core.apply(new)
            more += new
            need = core.cards_needed()
        return more

    def _draw_pending(self) -> None:
        if not self._check_rng():
            return
        events = self._step([], self.clock(), None)
        if events:
            self._notify(events)

    def _draw(self, n: int) -> tuple[int, ...]:
        """The round's next ``n`` cards, from those drawn at its first deal (or its seal)."""
        return self.sealing.draw(self.core, n, self.deck_factory)

    def _hold_timers(self, now: int) -> None:
        """Decision timers stand still while anything locks the table (the service menu, a
        door, a tilt, a handpay, the host's disable): the player cannot act then, so the
        round resumes with the time it had left when the lockup began."""
        locked = bool(self.state.lockups())
        if locked and self._held_at is None:
            self._held_at = now
        elif not locked and self._held_at is not None:
            held = now - self._held_at
            self._deadlines = {seat: at + held for seat, at in self._deadlines.items()}
            self._held_at = None

    def _commit(
        self,
        events: list[e.Event],
        audit_record: dict[str, Any] | None = None,
        seal: RoundSeal | None = None,
    ) -> None:
        """Journal a step's events (applied to the scratch state) with their projections."""
        kinds = {type(x) for x in events}
        settled = e.RoundSettled in kinds or e.RoundVoided in kinds
        snapshot = None
        due = settled and self._commits_since_snapshot + 1 >= self.snapshot_every
        if due or not kinds.isdisjoint(_SNAPSHOT_NOW):
            snapshot = self.state.to_snapshot()
        recall = self.recall_record() if settled else None
        outbox = tuple(self.host_messages(events, self.state)) if self.host_messages else ()
        if self._unjournaled_full is not None:
            self._journal_storage_full()  # the fault first, in the order it happened
        self.store.commit(
            events,
            Projections(
                snapshot=snapshot,
                recall=recall,
                outbox=outbox,
                audit=() if audit_record is None else (audit_record,),
                seal=seal,
            ),
        )
        self._commits_since_snapshot = (
            0 if snapshot is not None else self._commits_since_snapshot + 1
        )

    def recall_record(self) -> dict[str, Any]:
        """The finished round as a recall record (every card, wager, decision and result)."""
        rnd = self.state.round
        assert rnd is not None
        record = rnd.to_dict()
        record["credits_after"] = list(self.state.credits)
        return record

    # --- effects ------------------------------------------------------------------------------

    def _effects(self, command: c.Command, events: Iterable[e.Event]) -> None:
        for event in events:
            if type(event) in _NO_EFFECT:
                continue
            # the game's own events first: they are the common case (kinds are disjoint)
            if isinstance(event, e.DecisionOffered):
                self._deadlines[event.seat] = event.deadline
            elif isinstance(event, e.DecisionMade):
                self._deadlines.pop(event.seat, None)
            elif isinstance(event, e.BillEscrowAccepted):
                self.validator.stack(event.seat)
            elif isinstance(event, e.BillStacked):
                self.validator.acknowledge(event.seat)
            elif isinstance(event, e.BillReturned) and isinstance(command, c.InsertBill):
                self.validator.return_note(event.seat)
            elif isinstance(event, e.TicketEscrowAccepted):
                self.validator.stack(event.seat)
            elif isinstance(event, e.TicketReturned | e.TicketRedeemed):
                if isinstance(event, e.TicketReturned) and isinstance(command, c.InsertTicket):
                    self.validator.return_note(event.seat)
                if isinstance(command, c.TicketStackedReport):
                    self.validator.acknowledge(event.seat)
                ticket_in.tell_host(self.host, command, event)
            elif isinstance(event, e.CashoutStarted):
                self.voucher_sequence += 1
                cfg = self.state.config
                self.printer.print_voucher(
                    Voucher(
                        validation_number=event.validation_number,
                        value=event.value,
                        terminal_id=cfg.terminal_id,
                        venue=cfg.venue,
                        issued_at=event.at,
                        expires_days=self.voucher_expiry(cfg.voucher_expiry_days),
                        sequence=self.voucher_sequence,
                    )
                )

    def accepting_money(self) -> bool:
        """Whether the bill validator should take notes now."""
        return self.core.money_refusal(0, 0) is None

    def _sync_validator(self) -> None:
        enabled = self.accepting_money()
        if enabled != self._validator_enabled:
            self.validator.set_enabled(enabled, self.state.config.accepted_notes)
            self._validator_enabled = enabled

    def _notify(self, events: list[e.Event]) -> None:
        for observer in self._observers:
            observer(events)

    # --- the event loop's duties ------------------------------------------------------------------

    def post(self, job: Callable[[], object]) -> None:
        """Run ``job`` on the terminal's thread at the next :meth:`pump` (callable from any thread).

        The host link uses it: the core is single-threaded, so a host command becomes a job that
        calls :meth:`execute` here.  A job's CommandError is ignored like a late device report.
        """
        self._posted.put(job)

    def pump(self) -> list[e.Event]:
        """Process posted jobs, device reports and timers; call it often (every frame is fine)."""
        try:
            return self._pump()
        except StoreError:
            return []  # the terminal locked itself up; the lockup shows why

    def _pump(self) -> list[e.Event]:
        out: list[e.Event] = []
        while True:
            try:
                job = self._posted.get_nowait()
            except queue.Empty:
                break
            with contextlib.suppress(CommandError, StoreError):  # a store error: locked up
                job()
        if self._unjournaled_full is not None and self.clock() >= self._full_retry_at:
            with contextlib.suppress(StoreError):  # still full: retried later
                self._journal_storage_full()
        if self.state.storage_full is not None:
            return out  # until a power-up with space free: no report, no timer
        if self.state.critical is None:
            self._check_rng()
            self._check_identity()
        for _ in range(8):  # a report's effect may draw a further report (escrow -> stacked)
            reports = [*self.validator.poll(), *self.printer.poll()]
            if not reports:
                break
            for report in reports:
                if isinstance(report, MoneyRecord):  # the device's count against the journal
                    self._last_records[report.tilt] = report
                    out += reconcile.settle(self, report)
                    continue
                if isinstance(report, TicketInserted):  # ask the host before the core decides
                    report = ticket_in.host_answer(self.core, self.host, report)
                try:
                    out += self._device_report(report)
                except CommandError:
                    continue  # a late report (a printer answer after the cash-out ended...)
                except StoreError:
                    return out  # locked up; an unjournaled report comes back at power-up
        out += self.tick()
        return out

    def tick(self) -> list[e.Event]:
        """Take the default choice for every decision whose timer ran out (first, what the
        round's seal holds that the store lost: its opening, its decisions)."""
        s = self.state
        if self.sealing.seal is not None and s.phase in BETWEEN_ROUNDS and not s.lockups():
            self.sealing.reopen(self)
        if s.phase is not Phase.DECISION or s.round is None or s.lockups():
            return []
        if s.round.table_game:
            return []  # a table's decision window is its controller's (kiosk/terminal/seat)
        if self.sealing.redecide(self):
            return []
        now = self.clock()
        out: list[e.Event] = []
        for seat, offer in s.round.offers.items():
            if seat in s.round.choices or not offer.deadline or not s.config.decision_seconds:
                continue  # no timer: the round waits for the player (decision 0054)
            deadline = self._deadlines.setdefault(seat, now + s.config.decision_seconds * 1000)
            if now >= deadline:
                out += self.execute(
                    c.Decide(choice=offer.decision.default, seat=seat, automatic=True)
                )
        return out

    @property
    def meters(self) -> Meters:
        """The journal's lifetime meters."""
        return self.state.lifetime

    @property
    def store_epoch(self) -> int:
        """The epoch of the store (0 for one written before the signer)."""
        return self.store.epoch() or 0

    def confirm_device_records(self, code: str, *, by: str, reason: str = "") -> list[e.Event]:
        """The host's confirmation of the device records dispute ``code`` (a tilt of
        :data:`~kiosk.terminal.core.tilts.DISPUTE_TILTS`): it ends, and the device is reconciled
        from a new baseline taken from its last record (kiosk/terminal/runtime/reconcile.py); raises
        CommandError when there is no such dispute, no record of the device yet, or ``reason``
        is not the dispute's reason now."""
        record = self._last_records.get(code)
        if record is None:
            raise IllegalCommandError(f"no money record of the device of {code!r} yet")
        events = reconcile.confirm(self, record, by=by, reason=reason)
        reconcile.request_records(self.device_port(record))  # judged from the new baseline
        return events

    def device_port(self, record: MoneyRecord) -> object:
        """The device port that sent ``record``."""
        return self.validator if record.source == "validator" else self.printer

    def decision_deadline(self, seat: int = 0) -> int | None:
        """Epoch ms when the seat's pending decision defaults, or None."""
        return self._deadlines.get(seat) or None  # 0: no timer (decision 0054)

    def cash_out(self, seat: int = 0) -> list[e.Event]:
        """Cash out to a voucher (or a handpay when no voucher can be printed).

        With a host, the host gives the validation number (system validation); when it does not
        answer in time no voucher is printed and the cash-out becomes a handpay.
        """
        ready = self.printer.ready()
        number = ""
        if ready:
            value = self.state.credits[seat] if 0 <= seat < len(self.state.credits) else 0
            if self.host is None:
                number = self.validation_numbers()
            elif 0 < value <= self.state.config.ticket_out_limit:
                try:
                    number = self.host.validation_number(value)
                except HostUnavailableError:
                    ready = False
        return self.execute(c.CashOut(validation_number=number, seat=seat, printer_ready=ready))

    def ram_clear(
        self, *, by: str, reason: str, audit: tuple[dict[str, Any], ...] = ()
    ) -> e.RamCleared:
        """The operator's RAM clear: a new store (see :mod:`kiosk.terminal.runtime.ram_clear`)."""
        event = ram_clear(self, by=by, reason=reason, audit=audit)
        self._sync_validator()
        reconcile.request_records(self.validator, self.printer)  # a new store: new baselines
        self._notify([event])
        return event

    def adopt_store(self, journal: RuntimeJournal, core: TerminalCore) -> None:
        """Run on a new store from now on (after a RAM clear): its journal and state."""
        self._journal = journal
        self.core = core
        self.sealing.reset(journal.epoch() or 0, None)
        self._deadlines.clear()
        self._commits_since_snapshot = 0
        self.voucher_sequence = 0

    def close(self) -> None:
        """Close the journal (a storage-full fault still pending gets a last try) and the
        signer connection."""
        if self._journal is not None:
            with contextlib.suppress(StoreError):
                self._journal_storage_full()
            self._journal.close()
        self.signer.close()
