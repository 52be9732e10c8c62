"""The reference accounting host: the gRPC servicer over :mod:`kiosk.host.accounting.db`.

Every call first checks who is calling: the TLS layer has already refused a peer without a
certificate from our CA (or with an expired one); here the certificate must carry the terminal
role (:mod:`kiosk.terminal.hostlink.identity`), its canonical common name must equal the
``terminal_id`` the request names, and that terminal must be enrolled in the host's registry
(:mod:`kiosk.host.accounting.registry`).  An identity refused for its role, or as unknown or
retired, is an ``identity_refused`` floor alarm (decision 0035).  Commands for terminals are queued
in the database (by ``turbokiosk host send`` or :meth:`HostServer.send`) and pushed down each
terminal's command stream by one dispatcher thread.  The server is ``grpc.aio``: an open
command stream is a coroutine waiting on a queue, not a thread, so thousands of terminals
keep theirs open; reports are recorded by the group committer
(:mod:`kiosk.host.accounting.group_commit`), many terminals' in one transaction.  The standard gRPC
health service (``grpc.health.v1.Health``) answers on the same port.  A ticket report that
contradicts an operator's release of the voucher (:meth:`HostServer.release_voucher`) is accepted
and audited by the records; one for a voucher already redeemed elsewhere is audited as a double
redemption and refused.

Nothing a terminal says is believed beyond what it owns: every request is checked against the
host's own bounds first (:mod:`kiosk.host.accounting.bounds`; refused whole with one line, nothing
stored), reports are throttled past a per-terminal rate (:mod:`kiosk.host.accounting.rate_limit`;
retryable, with gRPC's retry pushback), games paying more than their edition's pay tables allow are
recorded refused with an alarm (:mod:`kiosk.host.accounting.plausibility`, in memory before the
group commit), voucher reports move only the reporter's vouchers (:mod:`kiosk.host.accounting.db`),
and each report's journal head becomes the terminal's acknowledged anchor, returned in every Hello
(:mod:`kiosk.terminal.hostlink.anchor`, :mod:`kiosk.host.accounting.stores`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from concurrent import futures
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from kiosk.host.accounting import bounds, plausibility
from kiosk.host.accounting.bounds import BoundsError, Limits
from kiosk.host.accounting.db import HostDb, HostDbError, Message, Report, now_ms
from kiosk.host.accounting.group_commit import GATHER_MS, GroupCommitter
from kiosk.host.accounting.plausibility import PayBook
from kiosk.host.accounting.rate_limit import PUSHBACK_KEY, RateLimiter, RateLimits
from kiosk.host.accounting.registry import ENROLLED, RETIRED, Registry
from kiosk.kernel import integrity
from kiosk.terminal.hostlink import identity, messages
from kiosk.terminal.hostlink.anchor import JournalHead
from kiosk.terminal.hostlink.channel import HOST_SERVER_KEEPALIVE
from kiosk.terminal.hostlink.command_kinds import HostCommandKind
from kiosk.terminal.hostlink.pki import Credentials, listen_mutual_tls
from proto.turbokiosk.v1 import host_pb2, host_pb2_grpc

#: every kind of host command (the HostCommand.body oneof)
COMMAND_KINDS = tuple(HostCommandKind)
#: the services the standard gRPC health check answers for ("" is the whole server)
HEALTH_SERVICES = ("", "turbokiosk.v1.HostService")

T = TypeVar("T")
if TYPE_CHECKING:
    #: a terminal's stream: commands (Commands) or whatever goes down the link stream (Link)
    CommandQueue = asyncio.Queue[host_pb2.HostCommand | host_pb2.LinkResponse | None]
    Context = grpc.aio.ServicerContext[Any, Any]

log = logging.getLogger(__name__)
#: the progress lines (throughput, queue depth, streams): INFO, shown by ``host serve``
progress = logging.getLogger("kiosk.host.accounting.progress")


def host_command(command_id: int, kind: str, body: dict[str, Any]) -> host_pb2.HostCommand:
    """The wire form of a queued command."""
    cmd = host_pb2.HostCommand(command_id=command_id)
    if kind == HostCommandKind.SET_ENABLED:
        cmd.set_enabled.enabled = bool(body["enabled"])
        cmd.set_enabled.reason = str(body.get("reason", ""))
    elif kind == HostCommandKind.REQUEST_METERS:
        cmd.request_meters.SetInParent()
    elif kind == HostCommandKind.AUTHENTICATE_SOFTWARE:
        cmd.authenticate_software.seed = bytes.fromhex(body["seed"])
    elif kind == HostCommandKind.SET_TIME:
        cmd.set_time.epoch_ms = int(body["epoch_ms"])
    elif kind == HostCommandKind.PLAYER_MESSAGE:
        cmd.player_message.text = str(body["text"])
        cmd.player_message.seconds = int(body.get("seconds", 0))
    elif kind == HostCommandKind.CONFIRM_DEVICE_RECORDS:
        confirm = cmd.confirm_device_records
        confirm.tilt, confirm.operator = str(body["tilt"]), str(body["operator"])
        confirm.reason = str(body.get("reason", ""))
        if not confirm.tilt or not confirm.operator:
            raise ValueError("a confirmation names the dispute's tilt and the operator")
    else:
        raise ValueError(f"unknown command kind {kind!r}; one of {', '.join(COMMAND_KINDS)}")
    return cmd


class CommandDispatcher:
    """Moves queued commands from the database to the connected terminals' streams.

    One thread polls the database; each open stream is an :class:`asyncio.Queue` in the
    server's event loop (no thread per terminal).  A command is sent only after this host
    moved it ``pending`` -> ``sent`` with a conditional update, so two host processes on one
    database never both send it.
    """

    def __init__(self, db: HostDb, poll_seconds: float = 0.2) -> None:
        self.db = db
        self.poll_seconds = poll_seconds
        self._streams: dict[str, tuple[asyncio.AbstractEventLoop, CommandQueue]] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="host-commands", daemon=True)

    def start(self) -> None:
        """Start dispatching."""
        self._thread.start()

    def stop(self) -> None:
        """Stop dispatching and end every open stream."""
        self._stop.set()
        self._wake.set()
        with self._lock:
            for loop, q in self._streams.values():
                _put(loop, q, None)
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def attach(self, terminal_id: str, q: CommandQueue | None = None) -> CommandQueue:
        """A new stream for a terminal (a previous one of the same terminal is ended); call in
        the event loop.  ``q``: the stream's own queue (the link stream's, which also carries
        acknowledgements)."""
        loop = asyncio.get_running_loop()
        if q is None:
            q = asyncio.Queue()
        with self._lock:
            old = self._streams.get(terminal_id)
            if old is not None:
                _put(*old, None)
            self._streams[terminal_id] = (loop, q)
        self._wake.set()
        return q

    def detach(self, terminal_id: str, q: CommandQueue) -> None:
        """The stream ended."""
        with self._lock:
            held = self._streams.get(terminal_id)
            if held is not None and held[1] is q:
                del self._streams[terminal_id]

    def end(self, terminal_id: str) -> None:
        """End a terminal's command stream (it was retired)."""
        with self._lock:
            held = self._streams.pop(terminal_id, None)
        if held is not None:
            _put(*held, None)

    def connected(self) -> list[str]:
        """Terminals with an open command stream."""
        with self._lock:
            return sorted(self._streams)

    def poke(self) -> None:
        """Look for queued commands now."""
        self._wake.set()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self.poll_seconds)
            self._wake.clear()
            try:
                self._dispatch()
            except Exception:  # the database is briefly unavailable: next round
                log.warning("command dispatch failed; trying again", exc_info=True)

    def _dispatch(self) -> None:
        with self._lock:
            if not self._streams:
                return
        for command_id, terminal_id, kind, body in self.db.pending_commands():
            with self._lock:
                held = self._streams.get(terminal_id)
            if held is None:
                continue
            try:
                cmd = host_command(command_id, kind, body)
            except (ValueError, KeyError) as exc:
                self.db.command_state(command_id, "failed", f"bad command: {exc}", now_ms())
                continue
            if self.db.claim_command(command_id, now_ms()):
                _put(*held, cmd)


def _put(
    loop: asyncio.AbstractEventLoop,
    q: CommandQueue,
    item: host_pb2.HostCommand | host_pb2.LinkResponse | None,
) -> None:
    """Put into a stream's queue from any thread."""
    with contextlib.suppress(RuntimeError):  # the loop is closed: the stream is gone
        loop.call_soon_threadsafe(q.put_nowait, item)


class ReportRefusedError(Exception):
    """A report the host refuses (the call's status; ``retry_ms``: send again after it)."""

    def __init__(self, code: grpc.StatusCode, details: str, retry_ms: int = 0) -> None:
        super().__init__(details)
        self.code = code
        self.details = details
        self.retry_ms = retry_ms


@dataclass
class HostSettings:
    """What the operator sets for the host."""

    meter_period_seconds: int = 60
    voucher_expiry_days: int = 30
    #: ticket-out / ticket-in limits and the largest bill (cents): the host's, not the terminal's
    limits: Limits = field(default_factory=Limits)
    #: per-terminal report rate limits (kiosk/host/accounting/rate_limit.py)
    rates: RateLimits = field(default_factory=RateLimits)
    #: refuse a note reported without its device count (kiosk/host/accounting/device_counts.py)
    require_device_counts: bool = False
    #: HMAC-SHA256(seed, approved software): the host's own installed files by default
    approved_hmac: Callable[[bytes], bytes] = lambda seed: bytes.fromhex(
        integrity.keyed_check(seed)
    )


class HostServicer(host_pb2_grpc.HostServiceServicer):
    """The HostService implementation on ``grpc.aio``.

    Handlers run in the server's event loop; database work runs in a small thread pool
    (``db_pool``), and reports go through the group committer, so an open command stream or a
    report waiting for its commit holds no thread.
    """

    def __init__(
        self,
        db: HostDb,
        dispatcher: CommandDispatcher,
        settings: HostSettings,
        committer: GroupCommitter,
        db_pool: futures.ThreadPoolExecutor,
        registry: Registry | None = None,
    ) -> None:
        self.db = db
        self.dispatcher = dispatcher
        self.settings = settings
        self.committer = committer
        self.db_pool = db_pool
        self.limiter = RateLimiter(settings.rates)
        self.pay_book = PayBook()
        self.registry = registry or Registry(db.registry_states)
        self._refreshing: asyncio.Lock | None = None
        self._alarmed: set[tuple[str, str]] = set()  # refusals already written by this process

    async def _db(self, function: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.db_pool, function, *args)

    @staticmethod
    async def _abort(context: Context, code: grpc.StatusCode, text: str) -> NoReturn:
        await context.abort(code, text)
        raise AssertionError("abort returned")  # pragma: no cover

    async def _number(self, context: Context, number: str) -> None:
        try:
            bounds.check_validation_number(number)
        except BoundsError as exc:
            await self._abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(exc))

    async def _caller(self, context: Context, claimed: str) -> str:
        auth: Any = context.auth_context()
        try:
            who = identity.require(auth, identity.Role.TERMINAL)
        except identity.IdentityError as exc:
            names = auth.get("x509_common_name") or [b"?"]
            await self._refuse(context, bytes(names[0]).decode(errors="replace"), str(exc))
        if claimed != who.name:
            await self._abort(
                context,
                grpc.StatusCode.PERMISSION_DENIED,
                f"certificate is for {who.name!r}, request names {claimed!r}",
            )
        if self.registry.stale():  # at most once a second: no query per call
            await self.refresh_registry(stale_only=True)
        state = self.registry.state(who.name)
        if state != ENROLLED:
            what = "retired" if state == RETIRED else "not enrolled"
            await self._refuse(context, who.name, f"terminal {who.name} is {what} at this host")
        return who.name

    async def refresh_registry(self, *, stale_only: bool = False) -> None:
        """Read the registry again (one reader at a time); end the command streams of
        terminals no longer enrolled."""
        if self._refreshing is None:
            self._refreshing = asyncio.Lock()
        async with self._refreshing:
            if stale_only and not self.registry.stale():
                return
            states = await self._db(self.registry.refresh)
        for terminal in self.dispatcher.connected():
            if states.get(terminal) != ENROLLED:
                self.dispatcher.end(terminal)

    async def _refuse(self, context: Context, name: str, reason: str) -> NoReturn:
        """Refuse the call; the floor alarm is written once per name and reason."""
        if (name, reason) not in self._alarmed:
            if len(self._alarmed) > 100_000:  # a flood of names: forget, the table dedups
                self._alarmed.clear()
            self._alarmed.add((name, reason))
            with contextlib.suppress(Exception):  # the refusal stands even if the records fail
                await self._db(self.db.refuse_identity, name[:64], reason, now_ms())
        await self._abort(context, grpc.StatusCode.PERMISSION_DENIED, reason)

    async def Hello(  # noqa: N802 (gRPC method names)
        self, request: host_pb2.HelloRequest, context: Context
    ) -> host_pb2.HelloResponse:
        terminal = await self._caller(context, request.terminal_id)
        return await self._hello(context, terminal, request)

    async def _hello(
        self, context: Context, terminal: str, request: host_pb2.HelloRequest
    ) -> host_pb2.HelloResponse:
        try:
            bounds.check_text("software_version", request.software_version)
            bounds.check_text("software_signature", request.software_signature)
        except BoundsError as exc:
            await self._abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        at = now_ms()

        def hello() -> JournalHead | None:
            self.db.hello(terminal, request.software_version, request.software_signature, at)
            return self.db.acknowledged_head(terminal)

        acknowledged = await self._db(hello)
        self.dispatcher.poke()
        answer = host_pb2.HelloResponse(
            host_time_ms=at, meter_period_seconds=self.settings.meter_period_seconds
        )
        if acknowledged is not None:
            answer.acknowledged_head.CopyFrom(acknowledged.to_proto())
        return answer

    async def Report(  # noqa: N802
        self, request: host_pb2.ReportRequest, context: Context
    ) -> host_pb2.ReportResponse:
        terminal = await self._caller(context, request.terminal_id)
        try:
            return await self._report(terminal, request)
        except ReportRefusedError as refusal:
            if refusal.retry_ms:
                context.set_trailing_metadata(((PUSHBACK_KEY, str(refusal.retry_ms)),))
            await self._abort(context, refusal.code, refusal.details)

    async def _report(
        self, terminal: str, request: host_pb2.ReportRequest
    ) -> host_pb2.ReportResponse:
        """What the host must do with one report of ``terminal`` (its identity checked): the rate
        limit, the bounds, each message's form and owner, plausibility, the group commit; the
        answer once committed, or :class:`ReportRefusedError`."""
        verdict = self.limiter.admit(terminal, len(request.messages))
        if not verdict.admitted:
            await self._throttle(terminal, verdict.retry_ms, verdict.alarm)
        try:
            bounds.check_report(request, self.settings.limits)
        except BoundsError as exc:
            raise ReportRefusedError(grpc.StatusCode.INVALID_ARGUMENT, str(exc)) from None
        batch = []
        owned = f"{terminal}:"
        for msg in request.messages:
            try:
                kind, body = messages.received(msg)
            except ValueError as exc:
                raise ReportRefusedError(grpc.StatusCode.INVALID_ARGUMENT, str(exc)) from None
            if not msg.message_id.startswith(owned):
                raise ReportRefusedError(
                    grpc.StatusCode.INVALID_ARGUMENT,
                    f"message id {msg.message_id!r} is not {terminal}'s",
                )
            batch.append(Message(msg.message_id, msg.journal_seq, msg.at_ms, kind, body))
        batch = plausibility.screen(batch, self.pay_book)  # implausible games: refused
        head = JournalHead.from_proto(request.head)
        report = Report(terminal, batch, now_ms(), head)
        try:  # answered only once the group holding this report has committed
            result = await self.committer.submit_async(report)
        except Exception as exc:  # the records are away: the terminal resends
            raise ReportRefusedError(
                grpc.StatusCode.UNAVAILABLE, f"records unavailable: {exc}"
            ) from None
        answer = host_pb2.ReportResponse(accepted=result.accepted, duplicates=result.duplicates)
        if result.acknowledged is not None:  # committed: only now is it the terminal's anchor
            answer.acknowledged_head.CopyFrom(result.acknowledged.to_proto())
        return answer

    async def _throttle(self, terminal: str, retry_ms: int, alarm: bool) -> NoReturn:
        """Refuse a report over the rate limit, retryable: the terminal sends it again later."""
        rates = self.settings.rates
        limit = f"{rates.messages_per_second:g} messages a second, bursts of {rates.burst}"
        if alarm:
            at = now_ms()
            detail = {"limit": limit, "at_ms": at, "retry_ms": retry_ms}
            try:
                await self._db(self.db.raise_alarm, terminal, "report_rate", at, detail)
            except Exception:  # the records are away: the refusal stands, logged
                log.exception("host: the report_rate alarm of %s was not recorded", terminal)
        raise ReportRefusedError(
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            f"reports from {terminal} over the host's rate limit ({limit}): send again in "
            f"{retry_ms} ms",
            retry_ms,
        )

    async def Link(  # noqa: N802
        self, requests: AsyncIterator[host_pb2.LinkRequest], context: Context
    ) -> None:
        """The link stream: the hello (identity checked once, here), then reports answered in
        order as their commits end, and the terminal's commands, on one stream.

        The reports are read and answered by this call itself (``context.read`` and
        ``context.write``: no reader task and no queue between a report and its
        acknowledgement, a wake-up less per report); commands go down from a second task, the
        writes taking turns.  The stream ends when the terminal closes its side, or when the
        host ends it (a newer stream of the same terminal, its retirement, the host stopping):
        the command queue's ``None``."""
        del requests  # read with context.read (the two cannot be mixed)
        opening = await context.read()
        if opening is grpc.aio.EOF:
            return
        if opening.WhichOneof("body") != "hello":
            await self._abort(
                context, grpc.StatusCode.INVALID_ARGUMENT, "the link stream opens with a hello"
            )
        terminal = await self._caller(context, opening.hello.terminal_id)
        answer = await self._hello(context, terminal, opening.hello)
        down: CommandQueue = asyncio.Queue()
        self.dispatcher.attach(terminal, down)
        writing = asyncio.Lock()
        ended = asyncio.Event()  # the host ended the stream
        reading = asyncio.current_task()
        assert reading is not None
        commands: asyncio.Task[None] | None = None
        try:
            await context.write(host_pb2.LinkResponse(hello=answer))
            commands = asyncio.create_task(
                self._link_commands(context, down, writing, ended, reading)
            )
            while (request := await context.read()) is not grpc.aio.EOF:
                response = host_pb2.LinkResponse(ack=await self._link_ack(terminal, request))
                async with writing:
                    await context.write(response)
        except asyncio.CancelledError:
            if not ended.is_set():  # the terminal went away, or the call was cancelled
                raise
            reading.uncancel()  # the host ended it: the stream ends with OK, as it always did
        except grpc.RpcError:  # the terminal went away mid-read
            pass
        finally:
            if commands is not None:
                commands.cancel()
            self.dispatcher.detach(terminal, down)

    @staticmethod
    async def _link_commands(
        context: Context,
        down: CommandQueue,
        writing: asyncio.Lock,
        ended: asyncio.Event,
        reading: asyncio.Task[Any],
    ) -> None:
        """Send the terminal's commands down its link stream; on ``None`` end the stream."""
        while (item := await down.get()) is not None:
            if isinstance(item, host_pb2.HostCommand):
                async with writing:
                    await context.write(host_pb2.LinkResponse(command=item))
        ended.set()
        async with writing:  # not in the middle of an acknowledgement's write
            reading.cancel()

    async def _link_ack(self, terminal: str, request: host_pb2.LinkRequest) -> host_pb2.LinkAck:
        ack = host_pb2.LinkAck(number=request.number)
        try:
            if request.WhichOneof("body") != "report":
                raise ReportRefusedError(
                    grpc.StatusCode.INVALID_ARGUMENT, "only reports after the hello"
                )
            report = request.report
            if report.terminal_id not in ("", terminal):
                raise ReportRefusedError(
                    grpc.StatusCode.PERMISSION_DENIED,
                    f"the stream is {terminal}'s, the report names {report.terminal_id!r}",
                )
            ack.response.CopyFrom(await self._report(terminal, report))
        except ReportRefusedError as refusal:
            ack.status = refusal.code.value[0]
            ack.details = refusal.details
            ack.retry_ms = refusal.retry_ms
        return ack

    async def Commands(  # noqa: N802
        self, request: host_pb2.CommandsRequest, context: Context
    ) -> AsyncIterator[host_pb2.CommandsResponse]:
        terminal = await self._caller(context, request.terminal_id)
        q = self.dispatcher.attach(terminal)
        await context.send_initial_metadata(())  # the terminal sees the stream is open
        try:
            while (cmd := await q.get()) is not None:
                if isinstance(cmd, host_pb2.HostCommand):
                    yield host_pb2.CommandsResponse(command=cmd)
        finally:
            self.dispatcher.detach(terminal, q)

    async def CompleteCommand(  # noqa: N802
        self, request: host_pb2.CompleteCommandRequest, context: Context
    ) -> host_pb2.CompleteCommandResponse:
        terminal = await self._caller(context, request.terminal_id)
        if len(request.error) > bounds.MAX_TEXT or len(request.software_hmac) > 64:
            await self._abort(context, grpc.StatusCode.INVALID_ARGUMENT, "error or hmac too long")
        record = await self._db(self.db.command, request.command_id)
        if record is None or record.terminal_id != terminal:
            await self._abort(
                context, grpc.StatusCode.NOT_FOUND, f"no command {request.command_id}"
            )
        at = now_ms()
        if request.error:
            await self._db(self.db.command_state, request.command_id, "failed", request.error, at)
            return host_pb2.CompleteCommandResponse()
        match = False
        result = "ok"
        if record.kind == "authenticate_software":
            seed = bytes.fromhex(record.body["seed"])
            expected = self.settings.approved_hmac(seed)
            match = secrets.compare_digest(expected, request.software_hmac)
            result = "match" if match else f"MISMATCH (terminal {request.software_hmac.hex()})"
            await self._db(self.db.set_auth_result, terminal, "match" if match else "mismatch", at)
        await self._db(self.db.command_state, request.command_id, "done", result, at)
        return host_pb2.CompleteCommandResponse(software_match=match)

    async def IssueValidationNumber(  # noqa: N802
        self, request: host_pb2.IssueValidationNumberRequest, context: Context
    ) -> host_pb2.IssueValidationNumberResponse:
        terminal = await self._caller(context, request.terminal_id)
        try:
            number = await self._db(
                self.db.issue_validation_number, terminal, request.value_cents, now_ms()
            )
        except HostDbError as exc:
            await self._abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        return host_pb2.IssueValidationNumberResponse(validation_number=number)

    async def ValidateTicket(  # noqa: N802
        self, request: host_pb2.ValidateTicketRequest, context: Context
    ) -> host_pb2.ValidateTicketResponse:
        terminal = await self._caller(context, request.terminal_id)
        await self._number(context, request.validation_number)
        answer = await self._db(
            self.db.validate_ticket, terminal, request.validation_number, now_ms()
        )
        return host_pb2.ValidateTicketResponse(
            accepted=answer.accepted, value_cents=answer.value, reason=answer.reason
        )

    async def FinishTicket(  # noqa: N802
        self, request: host_pb2.FinishTicketRequest, context: Context
    ) -> host_pb2.FinishTicketResponse:
        terminal = await self._caller(context, request.terminal_id)
        await self._number(context, request.validation_number)
        try:
            await self._db(
                self.db.finish_ticket,
                terminal,
                request.validation_number,
                request.stacked,
                now_ms(),
            )
        except HostDbError as exc:
            await self._abort(context, grpc.StatusCode.FAILED_PRECONDITION, str(exc))
        return host_pb2.FinishTicketResponse()


class HostServer:
    """A running host: the ``grpc.aio`` server in its own event-loop thread, the servicer, the
    group committer, the command dispatcher, the health service and the progress log.

    The interface is synchronous (``start``, ``stop``, ``wait``, ``send``) so that the CLI,
    the embedded host and the tests drive it like any object.
    """

    def __init__(
        self,
        db: HostDb,
        credentials: Credentials,
        address: str = "127.0.0.1:50051",
        *,
        settings: HostSettings | None = None,
        max_workers: int = 16,
        writers: int | None = None,
        gather_ms: float = GATHER_MS,
        progress_seconds: float = 0.0,
    ) -> None:
        self.db = db
        self.settings = settings or HostSettings()
        db.voucher_expiry_ms = self.settings.voucher_expiry_days * 86_400_000
        db.limits = self.settings.limits
        db.require_device_counts = self.settings.require_device_counts
        self.progress_seconds = progress_seconds
        self.dispatcher = CommandDispatcher(db)
        if writers is None:  # one writer: the largest groups, no GIL contention between writers
            writers = 1
        self.committer = GroupCommitter(db, writers=writers, gather_ms=gather_ms)
        self.db_pool = futures.ThreadPoolExecutor(max_workers, thread_name_prefix="host-db")
        self.servicer = HostServicer(
            db, self.dispatcher, self.settings, self.committer, self.db_pool
        )
        self.servicer.pay_book.preload()  # each edition's pay limits, before any report
        self.health = health.aio.HealthServicer()
        self.healthy = True
        self._loop = asyncio.new_event_loop()
        self._loop_thread = threading.Thread(
            target=self._loop.run_forever, name="host-aio", daemon=True
        )
        self._loop_thread.start()
        self._stopped = threading.Event()
        self._progress: asyncio.Task[None] | None = None
        self._registry_task: asyncio.Task[None] | None = None
        try:
            self.server, self.port, self.address = self._call(self._bind(address, credentials))
        except BaseException:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._loop_thread.join(timeout=5)
            raise

    def _call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    async def _bind(
        self, address: str, credentials: Credentials
    ) -> tuple[grpc.aio.Server, int, str]:
        server = grpc.aio.server(
            options=[
                *HOST_SERVER_KEEPALIVE,
                ("grpc.max_receive_message_length", bounds.MAX_REQUEST_BYTES),
                # several host processes on one port (host serve --processes N)
                ("grpc.so_reuseport", 1),
            ],
        )
        host_pb2_grpc.add_HostServiceServicer_to_server(  # type: ignore[no-untyped-call]
            self.servicer, server
        )
        health_pb2_grpc.add_HealthServicer_to_server(self.health, server)
        port, bound = listen_mutual_tls(server, address, credentials)
        return server, port, bound

    def start(self) -> HostServer:
        """Start serving."""
        self.committer.start()
        self.dispatcher.start()
        self._call(self._start())
        return self

    async def _start(self) -> None:
        await self.server.start()
        for service in HEALTH_SERVICES:
            await self.health.set(service, health_pb2.HealthCheckResponse.SERVING)
        self._progress = asyncio.create_task(self._watch())
        self._registry_task = asyncio.create_task(self._watch_registry())

    async def _watch_registry(self) -> None:
        """Read the registry every ``refresh_seconds``: a retirement ends the stream."""
        while True:
            await asyncio.sleep(self.servicer.registry.refresh_seconds)
            with contextlib.suppress(Exception):  # records away: the health watch says so
                await self.servicer.refresh_registry()

    async def _watch(self) -> None:
        """Every few seconds: check the records (the health status) and log the progress."""
        period = self.progress_seconds or 5.0
        last = self.committer.stats()
        last_at = time.monotonic()
        while True:
            await asyncio.sleep(period)
            try:
                await asyncio.get_running_loop().run_in_executor(self.db_pool, self.db.ping)
                healthy = True
            except Exception as exc:  # reported, not raised
                healthy = False
                log.error("host: records unavailable: %s", exc)
            if healthy != self.healthy:
                self.healthy = healthy
                status = (
                    health_pb2.HealthCheckResponse.SERVING
                    if healthy
                    else (health_pb2.HealthCheckResponse.NOT_SERVING)
                )
                for service in HEALTH_SERVICES:
                    await self.health.set(service, status)
            now = self.committer.stats()
            at = time.monotonic()
            if self.progress_seconds:
                seconds = max(at - last_at, 1e-9)
                progress.info(
                    "host: %.0f reports/s, %.0f messages/s, %d groups (largest %d), "
                    "queue depth %d, %d command streams, records %s",
                    (now.reports - last.reports) / seconds,
                    (now.messages - last.messages) / seconds,
                    now.groups - last.groups,
                    now.largest_group,
                    now.queued,
                    len(self.dispatcher.connected()),
                    "ok" if healthy else "UNAVAILABLE",
                )
            last, last_at = now, at

    def stop(self, grace: float = 1.0) -> None:
        """Stop serving (open streams end), record what is queued and close the database."""
        if self._stopped.is_set():
            return
        self.dispatcher.stop()
        try:
            self._call(self._stop(grace))
        finally:
            self._stopped.set()
            self.committer.stop()
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._loop_thread.join(timeout=10)
            self.db_pool.shutdown(wait=True)
            self.db.close()

    async def _stop(self, grace: float) -> None:
        for task in (self._progress, self._registry_task):
            if task is not None:
                task.cancel()
        await self.health.enter_graceful_shutdown()
        await self.server.stop(grace)

    def shutdown_soon(self, grace: float = 1.0) -> None:
        """Begin stopping from any thread (a signal handler); :meth:`wait` then returns."""
        threading.Thread(target=self.stop, args=(grace,), daemon=True).start()

    def wait(self) -> None:
        """Block until the server stops."""
        self._stopped.wait()

    def send(self, terminal_id: str, kind: str, body: dict[str, Any] | None = None) -> int:
        """Queue a command for a terminal; its id."""
        body = dict(body or {})
        if kind == "authenticate_software" and "seed" not in body:
            body["seed"] = secrets.token_hex(32)
        host_command(0, kind, body)  # validates kind and body before queueing
        command_id = self.db.queue_command(terminal_id, kind, body, now_ms())
        self.dispatcher.poke()
        return command_id

    def release_voucher(self, number: str, operator: str, reason: str) -> str:
        """An operator releases a stuck reservation (see :meth:`HostDb.release_voucher`)."""
        return self.db.release_voucher(number, operator, reason, now_ms())
