"""What a casino system does with what a machine reports (sans-IO, on top of the poller).

:class:`CasinoHost` reads the poller's events, records every exception and every value read,
and answers the exceptions that need the host:

| exception | the host's polls | ticket database |
| --- | --- | --- |
| 57 system validation request | 57 pending cash-out, 58 a new validation number | ``issue`` |
| 3D cash-out ticket printed | 4D the validation record | ``printed`` |
| 67 ticket inserted | 70 the ticket's data, then 71 with the amount or a refusal | ``reserve`` |
| 68 ticket transfer complete | 71 status query | ``redeemed`` / ``returned`` |
| 51 handpay pending | 1B handpay information | |

Without a ticket database the host refuses every cash-out number (58 with zeros) and every
ticket (71 rejected): it is then a meter reader only.  At start-up the host asks the machine
about any ticket the database still shows pending there (a host restarted in the middle).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kiosk.host.sas import funds, polls
from kiosk.host.sas.poller import (
    Acknowledged,
    BadResponse,
    Busy,
    ExceptionReceived,
    HostEvent,
    HostPoller,
    LineNoise,
    NoResponse,
    Response,
)
from kiosk.host.sas.polls import Field, HostPoll
from kiosk.host.sas.tickets import TicketDb
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.wire import ExceptionCode
from kiosk.terminal.sas.wire import LongPoll as Code

#: 57 cash-out type of a cashable ticket waiting for its number (0x80: nothing waiting)
CASHOUT_PENDING = 0x00
#: 70 ticket status: valid data of a ticket in escrow
TICKET_DATA_VALID = 0x00
#: 71 machine status: the ticket was stacked and credited (cashable, restricted, non-restricted)
REDEEMED_STATUSES = frozenset({0x00, 0x01, 0x02})
#: 71 machine status: redemption still under way (ask again)
REDEMPTION_PENDING = 0x40
#: 71 machine statuses from 0x80 up: the ticket was rejected and given back
REJECTED_FROM = 0x80


@dataclass(frozen=True)
class Record:
    """One line of what the host saw: a value read, an exception, a ticket decision, a fault."""

    at_ms: int
    kind: str  # "meter" (a value read), "exception", "ticket", "ack", "error"
    source: str  # the poll's label, or the exception's name
    name: str
    value: int | str


def exception_name(code: int) -> str:
    """The exception's name in lower case (``slot_door_opened``), or its hex code."""
    try:
        return ExceptionCode(code).name.lower()
    except ValueError:
        return f"exception_{code:02x}"


class CasinoHost:
    """The host's side of one machine: the poller's events in, records and follow-up polls out."""

    def __init__(
        self,
        poller: HostPoller,
        machine: str,
        clock_ms: Callable[[], int],
        tickets: TicketDb | None = None,
        system_id: int = 10,
    ) -> None:
        self.poller = poller
        self.machine = machine
        self.tickets = tickets
        self.system_id = system_id
        self.records: list[Record] = []
        self.exceptions: list[int] = []
        self.answered: dict[int, list[Field]] = {}  # last fields read, by poll code
        self.stats = {"polls": 0, "answers": 0, "timeouts": 0, "bad": 0, "noise": 0, "busy": 0}
        self._clock_ms = clock_ms
        self._ticket_in_play: tuple[str, int] | None = None  # (number, cents) sent in 71
        self.outstanding = 0  # long polls asked and not yet answered or given up
        self._sweep_games = False
        self._sweeping = False
        self._sweeps = 0
        self.aft_made: set[str] = set()  # the AFT transaction ids recorded made
        self.asset = 0  # the machine's AFT asset number (console transfers)
        if tickets is not None and tickets.pending_at(machine):
            self.ask(polls.ticket_status_query())

    # -- asking ------------------------------------------------------------------------------
    def ask(self, poll: HostPoll, *, first: bool = False) -> None:
        """Queue ``poll``; its answer becomes records."""
        self.outstanding += 1
        self.poller.ask(poll, first=first)

    def ask_all(self, poll_list: Sequence[HostPoll]) -> None:
        """Queue several polls."""
        for poll in poll_list:
            self.ask(poll)

    def sweep(self, rom_seed: int | None = None) -> None:
        """Read every meter: the machine's, then each enabled game's (after 56 answers); a
        ``sweep``/``done`` record follows once every poll asked is answered or given up."""
        self._sweep_games = True
        self._sweeping = True
        self.ask_all(polls.sweep(rom_seed))

    @property
    def idle(self) -> bool:
        """No long poll asked and unanswered."""
        return self.outstanding == 0

    # -- events --------------------------------------------------------------------------------
    def handle(self, events: Sequence[HostEvent]) -> None:
        """Fold the poller's events into records and follow-up polls."""
        for event in events:
            self._handle(event)
        if self._sweeping and self.outstanding == 0:
            self._sweeping = False
            self._sweeps += 1
            self._record("sweep", "sweep", "done", self._sweeps)

    def note(self, kind: str, source: str, name: str, value: int | str) -> None:
        """Add a record of the host's own (a console line refused, for instance)."""
        self._record(kind, source, name, value)

    def _record(self, kind: str, source: str, name: str, value: int | str) -> None:
        self.records.append(Record(self._clock_ms(), kind, source, name, value))

    def _handle(self, event: HostEvent) -> None:
        if isinstance(event, ExceptionReceived):
            self.stats["answers"] += 1
            if event.code != wire.NO_ACTIVITY:
                self._on_exception(event.code)
            return
        if isinstance(event, LineNoise):
            self.stats["noise"] += 1
            self._record("error", "line", "noise", event.data.hex())
            return
        poll = event.poll
        if isinstance(event, NoResponse):
            if poll is not None and poll.code == Code.ROM_SIGNATURE and not event.received:
                return  # computed in the background: the answer comes to a general poll
            self.stats["timeouts"] += 1
            if poll is not None:
                self.outstanding -= 1
                self._record("error", poll.label, "no_response", event.received.hex())
            return
        if isinstance(event, BadResponse):
            self.stats["bad"] += 1
            if poll is not None:
                self.outstanding -= 1
                self._record("error", poll.label, "bad_response", event.reason)
            return
        assert poll is not None
        if isinstance(event, Busy):
            self.stats["busy"] += 1
            self.poller.ask(poll)  # the same poll again, later; still outstanding
            return
        self.outstanding -= 1
        self.stats["answers"] += 1
        if isinstance(event, Acknowledged):
            self._record("ack", poll.label, "ack" if event.ack else "nack", int(event.ack))
            return
        assert isinstance(event, Response)
        fields = polls.decode(poll.code, event.body)
        self.answered[poll.code] = fields
        for field in fields:
            self._record("meter", poll.label, field.name, field.value)
        self._follow_up(poll, fields)

    def _on_exception(self, code: int) -> None:
        self.exceptions.append(code)
        self._record("exception", exception_name(code), "code", code)
        if code == ExceptionCode.SYSTEM_VALIDATION_REQUEST:
            self.ask(polls.poll(Code.SEND_PENDING_CASHOUT_INFORMATION), first=True)
        elif code == ExceptionCode.CASHOUT_TICKET_PRINTED:
            self.ask(polls.enhanced_validation(0x00), first=True)
        elif code == ExceptionCode.TICKET_INSERTED:
            self.ask(polls.poll(Code.SEND_TICKET_VALIDATION_DATA), first=True)
        elif code == ExceptionCode.TICKET_TRANSFER_COMPLETE:
            self.ask(polls.ticket_status_query(), first=True)
        elif code == ExceptionCode.HANDPAY_PENDING:
            self.ask(polls.poll(Code.SEND_HANDPAY_INFORMATION), first=True)
        elif code == ExceptionCode.AFT_TRANSFER_COMPLETE:
            self.ask(funds.interrogate(), first=True)
        elif code == ExceptionCode.LEGACY_BONUS_AWARDED:
            self.ask(polls.poll(Code.SEND_LEGACY_BONUS_WIN), first=True)

    def _follow_up(self, poll: HostPoll, fields: list[Field]) -> None:
        values = {f.name: f.value for f in fields}
        if poll.code == Code.SEND_PENDING_CASHOUT_INFORMATION:
            if values.get("cashout_type") == CASHOUT_PENDING:
                self._validate_cashout(int(values.get("cashout_amount", 0)))
        elif poll.code == Code.SEND_ENHANCED_VALIDATION_INFORMATION:
            self._ticket_printed(values)
        elif poll.code == Code.SEND_TICKET_VALIDATION_DATA:
            self._ticket_inserted(values)
        elif poll.code == Code.REDEEM_TICKET and poll.label == "ticket_status":
            self._ticket_status(values)
        elif poll.code == Code.AFT_TRANSFER_FUNDS:
            self._aft_answer(values)
        elif poll.code == Code.SEND_ENABLED_GAME_NUMBERS and self._sweep_games:
            self._sweep_games = False
            for field in fields:
                if field.name == "game" and isinstance(field.value, int):
                    self.ask_all(polls.game_sweep(field.value))

    # -- AFT ------------------------------------------------------------------------------------
    def _aft_answer(self, values: dict[str, int | str]) -> None:
        """A 72 answer: a transfer made or refused is a record; a pending one is asked again."""
        status = int(str(values.get("status", "ff")), 16)
        txid = str(values.get("transaction_id", ""))
        if status == 0x40:
            self.ask(funds.interrogate(), first=True)  # the answer to a later 72 FF
        elif status in (0x00, 0x01):
            if txid not in self.aft_made:  # a 69's interrogation says it again
                self.aft_made.add(txid)
                self._record("aft", str(values.get("transfer", "")), txid, int(values["cashable"]))
        elif status != 0xFF:
            self._record("aft", "refused", txid, f"{status:02x}")

    # -- tickets -------------------------------------------------------------------------------
    def _validate_cashout(self, cents: int) -> None:
        if self.tickets is None or cents <= 0:
            self._record("ticket", "system_validation", "refused", cents)
            self.ask(polls.receive_validation_number(0, 0), first=True)
            return
        number = self.tickets.issue(self.machine, cents, self.system_id)
        self._record("ticket", "system_validation", "issued", number)
        self.ask(polls.receive_validation_number(int(number[:2]), int(number[2:])), first=True)

    def _ticket_printed(self, values: dict[str, int | str]) -> None:
        digits = str(values.get("validation_number", ""))
        system = int(values.get("validation_system_id", 0))
        cents = int(values.get("amount", 0))
        if not digits.strip("0") or cents <= 0:
            return  # no unread record left
        self.ask(polls.enhanced_validation(0x00), first=True)  # the next unread one, if any
        number = f"{system:02d}{digits}"
        self._record("ticket", "printed", number, cents)
        if self.tickets is not None:
            self.tickets.printed(number, self.machine, cents)

    def _ticket_inserted(self, values: dict[str, int | str]) -> None:
        number = str(values.get("validation_number", ""))
        if int(values.get("status", 0xFF)) != TICKET_DATA_VALID or not number:
            return
        if self.tickets is None:
            self._record("ticket", "ticket_in", "refused", number)
            self.ask(polls.redeem_ticket(polls.TRANSFER_REJECTED, 0, number), first=True)
            return
        verdict = self.tickets.reserve(number[-18:], self.machine)
        if not verdict.accepted:
            self._record("ticket", "ticket_in", "refused", f"{number} {verdict.reason}")
            self.ask(polls.redeem_ticket(polls.TRANSFER_REJECTED, 0, number), first=True)
            return
        self._ticket_in_play = (number[-18:], verdict.amount_cents)
        self._record("ticket", "ticket_in", "accepted", f"{number} {verdict.amount_cents}")
        code = polls.TRANSFER_VALID_CASHABLE
        self.ask(polls.redeem_ticket(code, verdict.amount_cents, number), first=True)

    def _ticket_status(self, values: dict[str, int | str]) -> None:
        status = int(values.get("status", 0xFF))
        number = str(values.get("validation_number", ""))[-18:]
        cents = int(values.get("amount", 0))
        if self.tickets is None or not number.strip("0"):
            return
        if status in REDEEMED_STATUSES:
            if self.tickets.redeemed(number, self.machine, cents):
                self._record("ticket", "ticket_in", "redeemed", f"{number} {cents}")
        elif status == REDEMPTION_PENDING:
            return  # the machine will report 68 when it is done
        elif status >= REJECTED_FROM and self.tickets.returned(number, self.machine):
            self._record("ticket", "ticket_in", "returned", number)
