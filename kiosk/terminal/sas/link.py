"""The SAS link of one terminal: its store, its snapshot of the journal, its port thread.

:class:`SasLink` is made before the runtime (the composition root gives the runtime its
:class:`SasBridge` as the ticket and validation host, and its validator behind the
:class:`~kiosk.terminal.sas.bills.GatedValidator`), then :meth:`SasLink.attach`-ed to the runtime
and
:meth:`SasLink.start`-ed on its port.

- **One truth.**  After every commit, on the terminal's thread, the link reads the journal
  rows it has not yet seen and queues their exceptions (:mod:`kiosk.terminal.sas.events`) with the
  cursor, and swaps in a new :class:`~kiosk.terminal.sas.meters.MachineSnapshot` of the state.  The
SAS
  thread only reads snapshots and the queue.
- **Commands** from the host (enable/disable, handpay reset, the bill acceptor) are posted to
  the terminal's thread (``runtime.post``), as the gRPC host link's are.
- **System validation and ticket in** meet in :class:`SasBridge`: the terminal's thread asks
  (a cash-out wants a validation number; a ticket in escrow wants the host's verdict) and waits
  a bounded time while the SAS thread answers the host's 57/58 and 70/71.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from kiosk.kernel.games.registry import edition_ids
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.state import Phase, TerminalState
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.aft import receipt_lines
from kiosk.terminal.sas.bills import GatedValidator, ValidatorLike
from kiosk.terminal.sas.events import effects_of
from kiosk.terminal.sas.framing import WakeupMode
from kiosk.terminal.sas.funds import (
    NOT_A_VALID_FUNCTION,
    REFUSALS,
    UNABLE_NOW,
    FundsDesk,
    TransferIntent,
    find_transfer,
)
from kiosk.terminal.sas.machine import SasMachine, paytable_id
from kiosk.terminal.sas.meters import GameEntry, MachineSnapshot
from kiosk.terminal.sas.queue import ExceptionQueue, NewException, RowEffects
from kiosk.terminal.sas.receipts import (
    RECEIPT_REQUEST,
    RECEIPTS_FILE,
    ReceiptLog,
    ReceiptPrinter,
)
from kiosk.terminal.sas.signature import BackgroundSignatures
from kiosk.terminal.sas.transport import PortError, SasPortLoop, choose_mode, open_port
from kiosk.terminal.sas.validation_status import STORE_KEY as VALIDATION_STATUS_KEY
from kiosk.terminal.sas.validation_status import ValidationStatus
from kiosk.terminal.sas.wire import ExceptionCode as X
from kiosk.terminal.store.journal import Journal

log = logging.getLogger(__name__)

#: how long the terminal waits for the host's validation number or ticket verdict
DEFAULT_HOST_WAIT_S = 5.0
#: the operator's AFT and legacy bonus transfer limit by default (cents: $1,000)
DEFAULT_TRANSFER_LIMIT = 100_000
#: why play stops while the SAS host holds the AFT game lock (74)
AFT_LOCK_REASON = "locked by the SAS host for a transfer"
#: the append-only log of transfers asked for by the host (``sas.intents``, one JSON a line)
INTENTS_FILE = "sas.intents"
#: 71 transfer codes the host rejects a ticket with -> the reason the player is given
REJECTIONS: dict[int, str] = {
    0x80: "refused by the SAS host",
    0x81: "not a valid validation number",
    0x82: "validation number not in the system",
    0x83: "ticket marked pending in the system",
    0x84: "ticket already redeemed",
    0x85: "ticket expired",
    0x86: "validation information not available",
    0x87: "ticket amount does not match the system's",
    0x88: "ticket amount exceeds the redemption limit",
}


class SasUnavailableError(Exception):
    """The SAS host did not answer in time (the terminal falls back: handpay, ticket back)."""


class SasRuntime(Protocol):
    """The runtime as the SAS link sees it (``TerminalRuntime`` satisfies it)."""

    @property
    def state(self) -> TerminalState:
        """The terminal's state (read on the terminal's thread)."""

    @property
    def journal(self) -> Journal:
        """The open journal."""

    @property
    def clock(self) -> Callable[[], int]:
        """The terminal's clock, epoch ms."""

    def subscribe(self, observer: Callable[[list[e.Event]], None]) -> None:
        """Call ``observer`` after every commit."""

    def post(self, job: Callable[[], object]) -> None:
        """Run ``job`` on the terminal's thread."""

    def execute(self, command: c.Command, *, audit: Any = None) -> list[e.Event]:
        """Carry out a command (terminal's thread)."""

    @property
    def printer(self) -> object:
        """The ticket printer (a ``ReceiptPrinter`` prints AFT receipts)."""


@dataclass(frozen=True)
class SasSettings:
    """Where the link is and who it is."""

    port: str
    address: int
    wakeup: str = "auto"  # parity | gap | auto
    asset: int = 0  # the AFT asset number (0: the terminal's SAS address)
    transfer_limit: int = DEFAULT_TRANSFER_LIMIT  # cents, per AFT or legacy bonus transfer

    def __post_init__(self) -> None:
        wire.check_address(self.address)
        if not 0 <= self.asset <= 0xFFFFFFFF:
            raise ValueError(f"AFT asset number {self.asset}: 0 to 4294967295")
        if not 0 < self.transfer_limit < 10**10:
            raise ValueError(f"transfer limit {self.transfer_limit}: 1 to 9999999999 cents")
        if self.wakeup not in ("parity", "gap", "auto"):
            raise ValueError(f"SAS wakeup {self.wakeup!r}: parity, gap or auto")


@dataclass(frozen=True)
class SasStatus:
    """The link as the service menu shows it."""

    port: str
    mode: str
    address: int
    running: bool
    polls_per_second: float
    last_poll_age: float | None  # seconds since the last poll to this address
    general_polls: int
    long_polls: int
    errors: int
    queue_depth: int
    real_time: bool
    bills_enabled: bool
    latency_p50_ms: float | None
    latency_p99_ms: float | None
    over_limit: int
    port_error: str | None


class SasBridge:
    """System validation and ticket redemption between the terminal's and the SAS thread."""

    def __init__(self, queue: ExceptionQueue, *, wait: float = DEFAULT_HOST_WAIT_S) -> None:
        self.queue = queue
        self.wait = wait
        self._cond = threading.Condition()
        self._cashout: int | None = None
        self._number: str | None = None
        self._ticket: str | None = None  # waiting for the host's verdict
        self._verdict: tuple[bool, int, str] | None = None

    # --- the terminal's side (HostPort through kiosk.terminal.app.sas_wiring)
    # -------------------------

    def validation_status(self) -> ValidationStatus:
        """What the validation host last set with 7B (kept in the SAS store)."""
        return ValidationStatus.from_json(self.queue.get_json(VALIDATION_STATUS_KEY))

    def expiry_days(self, operator_days: int) -> int:
        """The expiry to print on a cash-out ticket: the host's (7B), else the operator's."""
        return self.validation_status().expiry_days(operator_days)

    def request_validation_number(self, value: int) -> str:
        """The host's 18-digit number for a cash-out of ``value`` cents (57/58)."""
        if not self.validation_status().cashout_tickets:
            raise SasUnavailableError("the SAS host turned cash-out tickets off")
        with self._cond:
            self.queue.push([NewException(X.SYSTEM_VALIDATION_REQUEST, volatile=True)])
            self._cashout, self._number = value, None
            self._cond.wait_for(lambda: self._number is not None, self.wait)
            number: str | None = self._taken_number()
            self._cashout = None
        if number is None:
            raise SasUnavailableError("the SAS host gave no validation number in time")
        if number == "0" * 18:
            raise SasUnavailableError("the SAS host refused the cash-out to a ticket")
        return number

    def request_ticket(self, number: str) -> tuple[bool, int, str]:
        """The host's verdict on a ticket in escrow: (accepted, cents, reason) (67/70/71)."""
        if not self.validation_status().ticket_redemption:
            self._set_status(0x80, 0, number)  # rejected here: not asked of the host
            return False, 0, "the SAS host turned ticket redemption off"
        with self._cond:
            self._set_status(0x20, 0, number)  # waiting for long poll 71
            self.queue.push([NewException(X.TICKET_INSERTED, volatile=True)])
            self._ticket, self._verdict = number, None
            self._cond.wait_for(lambda: self._verdict is not None, self.wait)
            verdict = self._taken_verdict()
            self._ticket = None
        if verdict is None:
            self._set_status(0x88, 0, number)  # rejected: timed out
            raise SasUnavailableError("the SAS host gave no verdict on the ticket in time")
        return verdict

    def _taken_number(self) -> str | None:
        number, self._number = self._number, None
        return number

    def _taken_verdict(self) -> tuple[bool, int, str] | None:
        verdict, self._verdict = self._verdict, None
        return verdict

    def ticket_done(self, number: str, value: int, redeemed: bool) -> None:
        """The journal says the ticket was stacked (credited) or returned."""
        self._set_status(0x00 if redeemed else 0x80, value if redeemed else 0, number)

    def _set_status(self, status: int, value: int, number: str) -> None:
        self.queue.set_json("ticket", {"status": status, "value": value, "number": number})

    # --- the SAS thread's side (kiosk.terminal.sas.machine.Validation)
    # ---------------------------------

    def pending_cashout(self) -> int | None:
        """Cents of the cash-out waiting for a validation number."""
        with self._cond:
            return self._cashout if self._number is None else None

    def give_validation_number(self, system_id: int, number: int) -> int:
        """58: 00 taken, 80 no cash-out waiting."""
        with self._cond:
            if self._cashout is None or self._number is not None:
                return 0x80
            self._number = f"{system_id:02d}{number:016d}"
            self._cond.notify_all()
        return 0x00

    def ticket_in_escrow(self) -> str | None:
        """The ticket waiting for the host's verdict."""
        with self._cond:
            return self._ticket if self._verdict is None else None

    def redeem(self, transfer_code: int, amount: int, number: str) -> int:
        """71: the host's verdict; the machine status now (40 pending, 8x rejected)."""
        with self._cond:
            if self._ticket is None or self._verdict is not None:
                return 0xFF
            if number != self._ticket:
                return 0x81
            if transfer_code == 0x00 and amount > 0:
                self._verdict = (True, amount, "")
                status = 0x40
            elif transfer_code in (0x01, 0x02):
                self._verdict = (False, 0, "restricted tickets are not accepted here")
                status = 0x80
            else:
                self._verdict = (False, 0, REJECTIONS.get(transfer_code, "refused by the SAS host"))
                status = 0x80
            self._cond.notify_all()
            ticket = self._ticket
        self._set_status(status, amount if status == 0x40 else 0, ticket)
        return status

    def ticket_status(self) -> tuple[int, int, str]:
        """(status, cents, number) of the last ticket (FF: none)."""
        kept = self.queue.get_json("ticket")
        if not kept:
            return 0xFF, 0, ""
        return int(str(kept["status"])), int(str(kept["value"])), str(kept["number"])


class _Controls:
    """The host's commands, posted to the terminal's thread."""

    def __init__(self, link: SasLink) -> None:
        self.link = link

    def enable_play(self, enabled: bool) -> None:
        runtime = self.link.runtime
        if runtime is not None:
            reason = "" if enabled else "disabled by the SAS host"
            runtime.post(lambda: runtime.execute(c.SetEnabled(enabled=enabled, reason=reason)))

    def enable_bills(self, enabled: bool) -> None:
        self.link.queue.set_meta("bills_enabled", "1" if enabled else "0")
        gate, runtime = self.link.gate, self.link.runtime
        if gate is not None and runtime is not None:
            runtime.post(lambda: gate.set_host_allows(enabled))

    def reset_handpay(self) -> int:
        snapshot, runtime = self.link.snapshot(), self.link.runtime
        if snapshot.handpay_value == 0:
            return 2
        if snapshot.critical or runtime is None:
            return 1
        runtime.post(lambda: runtime.execute(c.AttendantReset(by="SAS host")))
        return 0

    def set_time(self, epoch_ms: int) -> bool:
        if self.link.set_time is None:
            return False
        self.link.set_time(epoch_ms)
        return True

    def now_ms(self) -> int:
        runtime = self.link.runtime
        return runtime.clock() if runtime is not None else time.time_ns() // 1_000_000


class SasLink:
    """A terminal's SAS gaming-machine link (see the module's docstring)."""

    def __init__(
        self,
        data_dir: Path,
        settings: SasSettings,
        *,
        serial_number: str = "",
        set_time: Callable[[int], None] | None = None,
        host_wait: float = DEFAULT_HOST_WAIT_S,
        signatures: BackgroundSignatures | None = None,
    ) -> None:
        self.settings = settings
        self.queue = ExceptionQueue(data_dir)
        self.bridge = SasBridge(self.queue, wait=host_wait)
        self.set_time = set_time
        self.mode = choose_mode(settings.port, settings.wakeup)
        self.runtime: SasRuntime | None = None
        self.gate: GatedValidator | None = None
        self._snapshot = MachineSnapshot()
        self._serial = serial_number
        address = int(self.queue.get_meta("address", "0")) or settings.address
        self.intents_path = data_dir / INTENTS_FILE
        self._deferred: list[TransferIntent] = []  # legacy bonuses waiting for a round's end
        self.receipts = ReceiptLog(data_dir / RECEIPTS_FILE)
        self._receipts_posted = threading.Event()  # a print of the receipts owed is posted
        self.funds = FundsDesk(
            store=self.queue,
            post=self._post_transfer,
            asset=settings.asset or settings.address,
            limit=settings.transfer_limit,
            clock=time.time,
            on_lock=self._game_lock,
            receipt_status=self.receipts.status,
        )
        self.machine = SasMachine(
            address,
            snapshot=self.snapshot,
            queue=self.queue,
            controls=_Controls(self),
            validation=self.bridge,
            signatures=signatures or BackgroundSignatures(),
            serial_number=serial_number,
            mode=self.mode,
            funds=self.funds,
        )
        self._loop: SasPortLoop | None = None
        self._ack_seen = self.queue.stored_value("aft_ack")  # the operator's last, taken
        self.start_error: str | None = None
        self._thread: threading.Thread | None = None
        self._games_since_power_up = 0
        self._games_since_door = 0

    # --- wiring -----------------------------------------------------------------------------

    def gate_validator(self, validator: ValidatorLike) -> GatedValidator:
        """The validator behind the host's bill-acceptor switch (give this to the runtime)."""
        allows = self.queue.get_meta("bills_enabled", "1") == "1"
        self.gate = GatedValidator(validator, host_allows=allows)
        return self.gate

    def snapshot(self) -> MachineSnapshot:
        """The newest snapshot of the terminal's state."""
        return self._snapshot

    def attach(self, runtime: SasRuntime) -> None:
        """Follow ``runtime``'s journal from now on (call on the terminal's thread, before its
        power-up).  A new SAS store starts at the journal's head: history is not reported."""
        self.runtime = runtime
        try:
            self.queue.start_cursor(runtime.journal.head()[0], self._epoch(runtime))
        except Exception as exc:  # a store that cannot be read: the terminal locks up and
            log.warning("SAS link: journal not readable: %s", exc)  # says why; nothing to follow
        runtime.subscribe(self._on_commit)
        self.funds.receipt_printer = isinstance(getattr(runtime, "printer", None), ReceiptPrinter)
        for intent in self._unfinished_intents():  # asked for before a power cut or a kill
            self.funds.submit(intent)
        self._post_receipts()  # owed before a power cut: printed once the terminal runs
        self._game_lock(False)  # a game lock does not outlive the process that granted it

    # --- funds transfers (kiosk/terminal/sas/funds.py) ------------------------------------------

    def _log_intent(self, record: dict[str, object]) -> None:
        """One line appended in one write (handed to the kernel before the host is answered)."""
        line = (json.dumps(record, sort_keys=True) + "\n").encode()
        fd = os.open(self.intents_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)

    def _unfinished_intents(self) -> list[TransferIntent]:
        """Intents logged and not done; the log is rewritten with them alone."""
        try:
            lines = self.intents_path.read_text().splitlines()
        except FileNotFoundError:
            return []
        intents: dict[str, TransferIntent] = {}
        for line in lines:
            try:
                record = json.loads(line)
                if "done" in record:
                    intents.pop(str(record["done"]), None)
                else:
                    intent = TransferIntent(**record)
                    intents[f"{intent.kind == 'legacy_bonus'}:{intent.transaction_id}"] = intent
            except (ValueError, TypeError):  # a line cut by the kill: never answered
                continue
        keep = list(intents.values())
        tmp = self.intents_path.with_suffix(".tmp")
        tmp.write_text("".join(json.dumps(vars(i), sort_keys=True) + "\n" for i in keep))
        os.replace(tmp, self.intents_path)
        return keep

    def _game_lock(self, locked: bool) -> None:
        """The host's AFT lock: play stops (as a host disable does) until it ends; a disable
        of the host's own (01) is left as it is."""
        runtime = self.runtime
        if runtime is None:
            return

        def apply() -> None:
            held = runtime.state.disabled
            if locked and held is None:
                runtime.execute(c.SetEnabled(enabled=False, reason=AFT_LOCK_REASON))
            elif not locked and held == AFT_LOCK_REASON:
                runtime.execute(c.SetEnabled(enabled=True))

        runtime.post(apply)

    def _intent_key(self, intent: TransferIntent) -> str:
        return f"{intent.kind == 'legacy_bonus'}:{intent.transaction_id}"

    def _post_transfer(self, intent: TransferIntent) -> None:
        """The SAS thread's transfer: logged, then posted to the terminal's thread."""
        self._log_intent(vars(intent))
        runtime = self.runtime
        if runtime is not None:
            runtime.post(lambda: self._make_transfer(intent))

    def _make_transfer(self, intent: TransferIntent) -> None:
        """On the terminal's thread: the core makes the transfer once, or refuses it."""
        runtime = self.runtime
        assert runtime is not None
        command = c.TransferFunds(
            kind=intent.kind,
            transaction_id=intent.transaction_id,
            cashable=intent.cashable,
            limit=intent.limit,
            partial=intent.partial,
            tax_status=intent.tax_status,
            pos_id=intent.pos_id,
        )
        refusal: int | None = None
        try:
            runtime.execute(command)
        except c.DuplicateReportError:
            refusal = None  # journaled already (asked again after a kill): its record stands
        except c.TransferRefusedError as exc:
            refusal = REFUSALS.get(exc.reason, NOT_A_VALID_FUNCTION)
        except (c.IllegalCommandError, c.TerminalLockedError):
            if intent.kind == "legacy_bonus":  # paid when the round ends or the lock is gone
                self._deferred.append(intent)
                return
            refusal = UNABLE_NOW
        except c.CommandError:
            refusal = NOT_A_VALID_FUNCTION
        wants_receipt = intent.flags & RECEIPT_REQUEST and intent.kind != "legacy_bonus"
        if refusal is None and wants_receipt and self.funds.receipt_printer:
            self.receipts.want(intent.transaction_id)  # durable before the intent is done
        self._log_intent({"done": self._intent_key(intent)})
        self.funds.settle(intent, refusal)
        if self.receipts.pending():
            self._print_receipts()

    def _post_receipts(self) -> None:
        """Have the terminal's thread print the receipts owed (once posted at a time)."""
        runtime = self.runtime
        if runtime is None or self._receipts_posted.is_set() or not self.receipts.pending():
            return
        self._receipts_posted.set()
        runtime.post(self._print_receipts)

    def _print_receipts(self) -> None:
        """On the terminal's thread: print each receipt owed (the printer prints an id once);
        one the printer cannot print now stays owed and is tried again within a second."""
        self._receipts_posted.clear()
        runtime = self.runtime
        printer = getattr(runtime, "printer", None)
        if runtime is None or not isinstance(printer, ReceiptPrinter):
            return
        fields = self.funds.receipt_data()
        for transaction_id in self.receipts.pending():
            record = find_transfer(tuple(runtime.state.transfers), transaction_id)
            if record is None:  # no longer in the journal's history: nothing to print from
                log.warning("SAS link: no transfer %s for its receipt", transaction_id)
                self.receipts.printed(transaction_id)
                continue
            lines = receipt_lines(record, fields, self.funds.asset)
            lines.append(time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(record.at / 1000)))
            try:
                problem = printer.print_receipt(transaction_id, lines, runtime.clock())
            except Exception as exc:  # a printer's fault never stops the terminal: still owed
                problem = f"{type(exc).__name__}: {exc}"
            if problem is not None:
                log.info("SAS link: receipt %s not printed: %s", transaction_id, problem)
                return  # in order: the next ones wait for this one
            self.receipts.printed(transaction_id)

    # --- the terminal's thread ------------------------------------------------------------------

    def _on_commit(self, events: list[e.Event]) -> None:
        runtime = self.runtime
        if runtime is None:
            return
        state = runtime.state
        try:
            epoch = self._epoch(runtime)
            if epoch != self.queue.get_meta("journal_epoch"):  # a RAM clear: a new journal
                self.queue.follow_new_journal(epoch)
            rows = list(runtime.journal.rows(after=self.queue.cursor))
        except Exception as exc:  # the store locked the terminal up; it says why
            log.warning("SAS link: journal not readable: %s", exc)
            return
        meters = state.lifetime.as_dict()
        effects: list[tuple[int, RowEffects]] = []
        for row in rows:
            effects.append((row.seq, effects_of(row.event, meters)))
            self._follow(row.event)
        if rows:
            self.queue.take_events(effects)
        self._snapshot = self.build_snapshot(state)
        if self._deferred and self._snapshot.can_transfer:
            waiting, self._deferred = self._deferred, []
            for intent in waiting:
                runtime.post(functools.partial(self._make_transfer, intent))

    @staticmethod
    def _epoch(runtime: SasRuntime) -> str:
        """The epoch of the terminal's store (a RAM clear starts a new one)."""
        return str(runtime.journal.epoch())

    def _follow(self, event: e.Event) -> None:
        if isinstance(event, e.RoundStarted):
            self._games_since_power_up += 1
            self._games_since_door += 1
        elif isinstance(event, e.PoweredUp):
            self._games_since_power_up = 0
        elif isinstance(event, e.DoorChanged) and not event.open:
            self._games_since_door = 0
        elif isinstance(event, e.BillStacked):
            self.queue.set_meta("last_bill", str(event.value))
        elif isinstance(event, e.TicketRedeemed):
            self.bridge.ticket_done(event.validation_number, event.value, True)
        elif isinstance(event, e.TicketReturned):
            self.bridge.ticket_done(event.validation_number, event.value, False)

    def build_snapshot(self, state: TerminalState) -> MachineSnapshot:
        """What the SAS polls read, from ``state``."""
        enabled = {cfg.edition for cfg in state.config.editions}
        games = tuple(
            GameEntry(i, edition, edition, paytable_id(edition).decode(), edition in enabled)
            for i, edition in enumerate(edition_ids(), 1)
        )
        selected = next((g.number for g in games if g.edition == state.selected_edition), 0)
        handpay = state.handpay
        return MachineSnapshot(
            meters=state.lifetime.as_dict(),
            credits=state.credits[0] if state.credits else 0,
            games=games,
            handpay_value=handpay.value if handpay else 0,
            handpay_kind=handpay.kind if handpay else "",
            enabled=state.disabled is None,
            critical=state.critical is not None or state.storage_full is not None,
            games_since_power_up=self._games_since_power_up,
            games_since_door_closed=self._games_since_door,
            last_bill=int(self.queue.get_meta("last_bill", "0")),
            max_bet=state.config.table_max,
            selected_game=selected,
            serial=state.config.terminal_id,
            transfers=tuple(state.transfers),
            can_transfer=state.phase in (Phase.IDLE, Phase.WAGERING, Phase.RESULT)
            and all(lockup.value == "disabled" for lockup in state.lockups()),
            credit_limit=state.config.credit_limit,
            voucher_expiry_days=state.config.voucher_expiry_days,
        )

    # --- the port ---------------------------------------------------------------------------

    def start(self) -> None:
        """Open the port and answer polls on a thread of its own (PortError if it cannot)."""
        try:
            port = open_port(self.settings.port, self.mode)
        except PortError as exc:
            self.start_error = str(exc)
            raise
        self.start_error = None
        self._loop = SasPortLoop(port, self.machine, self.mode)
        self._loop.on_second = self._housekeeping
        self.machine.stats.started_at = time.monotonic()
        self._thread = threading.Thread(target=self._loop.run, name="sas-link", daemon=True)
        self._thread.start()

    def _housekeeping(self) -> None:
        """Once a second on the port's thread: publish the figures, take a new address."""
        self.funds.locked()  # a lock past its timeout ends (play allowed again)
        self._post_receipts()  # a receipt the printer could not print: tried again
        token = self.queue.stored_value("aft_ack")
        if token != self._ack_seen:  # the operator acknowledged the AFT registration
            self._ack_seen = token
            if self.funds.acknowledge():
                self.machine.queue_exception(X.AFT_REGISTRATION_ACKNOWLEDGED)
        kept = self.queue.stored_address()
        if kept and kept != self.machine.address:
            with contextlib.suppress(ValueError):
                self.machine.set_address(kept)
        status = self.status()
        figures = {
            "address": status.address,
            "mode": status.mode,
            "port": status.port,
            "polls_per_second": round(status.polls_per_second, 1),
            "last_poll_at": None
            if status.last_poll_age is None
            else int(time.time() * 1000 - status.last_poll_age * 1000),
            "general_polls": status.general_polls,
            "long_polls": status.long_polls,
            "errors": status.errors,
            "real_time": status.real_time,
            "latency_p50_ms": status.latency_p50_ms,
            "latency_p99_ms": status.latency_p99_ms,
            "over_limit": status.over_limit,
            "port_error": status.port_error,
            "updated_at": int(time.time() * 1000),
        }
        self.queue.set_json("stats", figures, durable=False)

    def stop(self) -> None:
        """Stop answering and close the port and the store (idempotent)."""
        if self._loop is not None:
            self._loop.stop()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        if self._loop is not None:
            with contextlib.suppress(Exception):
                self._loop.port.close()
            self._loop = None

    def close(self) -> None:
        """Stop, then close the store."""
        self.stop()
        self.queue.close()

    # --- the service menu -----------------------------------------------------------------------

    def set_address(self, address: int) -> None:
        """Answer to ``address`` (1..127) from now on, and after a restart."""
        wire.check_address(address)
        self.queue.set_meta("address", str(address))
        self.machine.set_address(address)

    def status(self) -> SasStatus:
        """Address, polls per second, last poll, errors, queue depth, timing."""
        now = time.monotonic()
        stats = self.machine.stats
        loop = self._loop
        p50 = loop.latency.percentile(0.5) if loop else None
        p99 = loop.latency.percentile(0.99) if loop else None
        return SasStatus(
            port=self.settings.port,
            mode=self.mode.value,
            address=self.machine.address,
            running=self._thread is not None,
            polls_per_second=stats.polls_per_second(now),
            last_poll_age=None if stats.last_poll_at is None else now - stats.last_poll_at,
            general_polls=stats.general_polls,
            long_polls=stats.long_polls,
            errors=stats.errors,
            queue_depth=self.queue.depth(),
            real_time=self.machine.real_time,
            bills_enabled=self.queue.get_meta("bills_enabled", "1") == "1",
            latency_p50_ms=None if p50 is None else p50 * 1000,
            latency_p99_ms=None if p99 is None else p99 * 1000,
            over_limit=loop.latency.over_limit if loop else 0,
            port_error=loop.error if loop else self.start_error,
        )


__all__ = [
    "SasBridge",
    "SasLink",
    "SasSettings",
    "SasStatus",
    "SasUnavailableError",
    "WakeupMode",
]
