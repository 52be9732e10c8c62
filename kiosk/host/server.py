"""The reference accounting host: the gRPC servicer over :mod:`kiosk.host.db`.

Every call first checks who is calling: the TLS layer has already refused a peer without a
certificate from our CA (or with an expired one); here the certificate's common name must equal
the ``terminal_id`` the request names.  Commands for terminals are queued in the database (by
``turbokiosk host send`` or :meth:`HostServer.send`) and pushed down each terminal's command
stream by one dispatcher thread.  A ticket report that contradicts an operator's release of the
voucher (:meth:`HostServer.release_voucher`) is accepted and audited by the records; one for a
voucher already redeemed elsewhere is audited as a double redemption and refused.

Nothing a terminal says is believed beyond what it owns: every request is checked against the
host's own bounds first (:mod:`kiosk.host.bounds`; refused whole with one line, nothing stored),
voucher reports move only the reporter's vouchers (:mod:`kiosk.host.db`), and each report's
journal head becomes the terminal's acknowledged anchor, returned in every Hello
(:mod:`kiosk.hostlink.anchor`, :mod:`kiosk.host.stores`).
"""

from __future__ import annotations

import json
import queue
import secrets
import threading
from collections.abc import Callable, Iterator
from concurrent import futures
from dataclasses import dataclass, field
from typing import Any, NoReturn

import grpc

from kiosk import integrity
from kiosk.host import bounds
from kiosk.host.bounds import BoundsError, Limits
from kiosk.host.db import HostDb, HostDbError, Message, now_ms
from kiosk.hostlink import messages
from kiosk.hostlink.anchor import JournalHead
from kiosk.hostlink.channel import KEEPALIVE
from kiosk.hostlink.command_kinds import HostCommandKind
from kiosk.hostlink.pki import Credentials, listen_mutual_tls
from proto.turbokiosk.v1 import host_pb2, host_pb2_grpc

#: every kind of host command (the HostCommand.body oneof)
COMMAND_KINDS = tuple(HostCommandKind)


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
    else:
        raise ValueError(f"unknown command kind {kind!r}; one of {', '.join(COMMAND_KINDS)}")
    return cmd


class CommandDispatcher:
    """Moves queued commands from the database to the connected terminals' streams."""

    def __init__(self, db: HostDb, poll_seconds: float = 0.2) -> None:
        self.db = db
        self.poll_seconds = poll_seconds
        self._streams: dict[str, queue.SimpleQueue[host_pb2.HostCommand | None]] = {}
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
            for q in self._streams.values():
                q.put(None)
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def attach(self, terminal_id: str) -> queue.SimpleQueue[host_pb2.HostCommand | None]:
        """A new stream for a terminal (a previous one of the same terminal is ended)."""
        q: queue.SimpleQueue[host_pb2.HostCommand | None] = queue.SimpleQueue()
        with self._lock:
            old = self._streams.get(terminal_id)
            if old is not None:
                old.put(None)
            self._streams[terminal_id] = q
        self._wake.set()
        return q

    def detach(self, terminal_id: str, q: queue.SimpleQueue[host_pb2.HostCommand | None]) -> None:
        """The stream ended."""
        with self._lock:
            if self._streams.get(terminal_id) is q:
                del self._streams[terminal_id]

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
                pending = self.db.pending_commands()
            except Exception:  # the database is briefly unavailable: try again next round
                continue
            for command_id, terminal_id, kind, body in pending:
                with self._lock:
                    q = self._streams.get(terminal_id)
                if q is None:
                    continue
                try:
                    cmd = host_command(command_id, kind, body)
                except (ValueError, KeyError) as exc:
                    self.db.command_state(command_id, "failed", f"bad command: {exc}", now_ms())
                    continue
                self.db.command_state(command_id, "sent", "", now_ms())
                q.put(cmd)


@dataclass
class HostSettings:
    """What the operator sets for the host."""

    meter_period_seconds: int = 60
    voucher_expiry_days: int = 30
    #: ticket-out / ticket-in limits and the largest bill (cents): the host's, not the terminal's
    limits: Limits = field(default_factory=Limits)
    #: HMAC-SHA256(seed, approved software): the host's own installed files by default
    approved_hmac: Callable[[bytes], bytes] = lambda seed: bytes.fromhex(
        integrity.keyed_check(seed)
    )


class HostServicer(host_pb2_grpc.HostServiceServicer):
    """The HostService implementation."""

    def __init__(self, db: HostDb, dispatcher: CommandDispatcher, settings: HostSettings) -> None:
        self.db = db
        self.dispatcher = dispatcher
        self.settings = settings

    @staticmethod
    def _abort(context: grpc.ServicerContext, code: grpc.StatusCode, text: str) -> NoReturn:
        context.abort(code, text)
        raise AssertionError("abort returned")  # pragma: no cover

    def _number(self, context: grpc.ServicerContext, number: str) -> None:
        try:
            bounds.check_validation_number(number)
        except BoundsError as exc:
            self._abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(exc))

    def _caller(self, context: grpc.ServicerContext, claimed: str) -> str:
        names: Any = context.auth_context().get("x509_common_name")  # a list of bytes
        if not names:
            self._abort(context, grpc.StatusCode.UNAUTHENTICATED, "no client certificate")
        name = bytes(names[0]).decode()
        if claimed != name:
            self._abort(
                context,
                grpc.StatusCode.PERMISSION_DENIED,
                f"certificate is for {name!r}, request names {claimed!r}",
            )
        return name

    def Hello(  # noqa: N802 (gRPC method names)
        self, request: host_pb2.HelloRequest, context: grpc.ServicerContext
    ) -> host_pb2.HelloResponse:
        terminal = self._caller(context, request.terminal_id)
        try:
            bounds.check_text("software_version", request.software_version)
            bounds.check_text("software_signature", request.software_signature)
        except BoundsError as exc:
            self._abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        at = now_ms()
        self.db.hello(terminal, request.software_version, request.software_signature, at)
        self.dispatcher.poke()
        answer = host_pb2.HelloResponse(
            host_time_ms=at, meter_period_seconds=self.settings.meter_period_seconds
        )
        acknowledged = self.db.acknowledged_head(terminal)
        if acknowledged is not None:
            answer.acknowledged_head.CopyFrom(acknowledged.to_proto())
        return answer

    def Report(  # noqa: N802
        self, request: host_pb2.ReportRequest, context: grpc.ServicerContext
    ) -> host_pb2.ReportResponse:
        terminal = self._caller(context, request.terminal_id)
        try:
            bounds.check_report(request, self.settings.limits)
        except BoundsError as exc:
            self._abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        batch = []
        for msg in request.messages:
            try:
                kind, body = messages.received(msg)
            except ValueError as exc:
                self._abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(exc))
            if not msg.message_id.startswith(f"{terminal}:"):
                self._abort(
                    context,
                    grpc.StatusCode.INVALID_ARGUMENT,
                    f"message id {msg.message_id!r} is not {terminal}'s",
                )
            batch.append(Message(msg.message_id, msg.journal_seq, msg.at_ms, kind, body))
        head = JournalHead.from_proto(request.head)
        accepted, duplicates, acknowledged = self.db.record_report(terminal, batch, now_ms(), head)
        answer = host_pb2.ReportResponse(accepted=accepted, duplicates=duplicates)
        if acknowledged is not None:  # committed: only now is it the terminal's anchor
            answer.acknowledged_head.CopyFrom(acknowledged.to_proto())
        return answer

    def Commands(  # noqa: N802
        self, request: host_pb2.CommandsRequest, context: grpc.ServicerContext
    ) -> Iterator[host_pb2.CommandsResponse]:
        terminal = self._caller(context, request.terminal_id)
        q = self.dispatcher.attach(terminal)
        try:
            while context.is_active():
                try:
                    cmd = q.get(timeout=0.5)
                except queue.Empty:
                    continue
                if cmd is None:
                    return
                yield host_pb2.CommandsResponse(command=cmd)
        finally:
            self.dispatcher.detach(terminal, q)

    def CompleteCommand(  # noqa: N802
        self, request: host_pb2.CompleteCommandRequest, context: grpc.ServicerContext
    ) -> host_pb2.CompleteCommandResponse:
        terminal = self._caller(context, request.terminal_id)
        if len(request.error) > bounds.MAX_TEXT or len(request.software_hmac) > 64:
            self._abort(context, grpc.StatusCode.INVALID_ARGUMENT, "error or hmac too long")
        record = self.db.command(request.command_id)
        if record is None or record["terminal_id"] != terminal:
            self._abort(context, grpc.StatusCode.NOT_FOUND, f"no command {request.command_id}")
        at = now_ms()
        if request.error:
            self.db.command_state(request.command_id, "failed", request.error, at)
            return host_pb2.CompleteCommandResponse()
        match = False
        result = "ok"
        if record["kind"] == "authenticate_software":
            seed = bytes.fromhex(json.loads(record["body"])["seed"])
            expected = self.settings.approved_hmac(seed)
            match = secrets.compare_digest(expected, request.software_hmac)
            result = "match" if match else f"MISMATCH (terminal {request.software_hmac.hex()})"
            self.db.set_auth_result(terminal, "match" if match else "mismatch", at)
        self.db.command_state(request.command_id, "done", result, at)
        return host_pb2.CompleteCommandResponse(software_match=match)

    def IssueValidationNumber(  # noqa: N802
        self, request: host_pb2.IssueValidationNumberRequest, context: grpc.ServicerContext
    ) -> host_pb2.IssueValidationNumberResponse:
        terminal = self._caller(context, request.terminal_id)
        try:
            number = self.db.issue_validation_number(terminal, request.value_cents, now_ms())
        except HostDbError as exc:
            self._abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        return host_pb2.IssueValidationNumberResponse(validation_number=number)

    def ValidateTicket(  # noqa: N802
        self, request: host_pb2.ValidateTicketRequest, context: grpc.ServicerContext
    ) -> host_pb2.ValidateTicketResponse:
        terminal = self._caller(context, request.terminal_id)
        self._number(context, request.validation_number)
        answer = self.db.validate_ticket(terminal, request.validation_number, now_ms())
        return host_pb2.ValidateTicketResponse(
            accepted=answer.accepted, value_cents=answer.value, reason=answer.reason
        )

    def FinishTicket(  # noqa: N802
        self, request: host_pb2.FinishTicketRequest, context: grpc.ServicerContext
    ) -> host_pb2.FinishTicketResponse:
        terminal = self._caller(context, request.terminal_id)
        self._number(context, request.validation_number)
        try:
            self.db.finish_ticket(terminal, request.validation_number, request.stacked, now_ms())
        except HostDbError as exc:
            self._abort(context, grpc.StatusCode.FAILED_PRECONDITION, str(exc))
        return host_pb2.FinishTicketResponse()


class HostServer:
    """A running host: gRPC server, servicer and command dispatcher."""

    def __init__(
        self,
        db: HostDb,
        credentials: Credentials,
        address: str = "127.0.0.1:50051",
        *,
        settings: HostSettings | None = None,
        max_workers: int = 512,
    ) -> None:
        self.db = db
        self.settings = settings or HostSettings()
        db.voucher_expiry_ms = self.settings.voucher_expiry_days * 86_400_000
        db.limits = self.settings.limits
        self.dispatcher = CommandDispatcher(db)
        self.servicer = HostServicer(db, self.dispatcher, self.settings)
        self.server = grpc.server(
            futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="host-rpc"),
            options=[
                *KEEPALIVE,
                ("grpc.max_receive_message_length", bounds.MAX_REQUEST_BYTES),
            ],
        )
        host_pb2_grpc.add_HostServiceServicer_to_server(  # type: ignore[no-untyped-call]
            self.servicer, self.server
        )
        self.port, self.address = listen_mutual_tls(self.server, address, credentials)

    def start(self) -> HostServer:
        """Start serving."""
        self.server.start()
        self.dispatcher.start()
        return self

    def stop(self, grace: float = 1.0) -> None:
        """Stop serving (open streams end) and close the database."""
        self.dispatcher.stop()
        self.server.stop(grace).wait()
        self.db.close()

    def wait(self) -> None:
        """Block until the server stops."""
        self.server.wait_for_termination()

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
