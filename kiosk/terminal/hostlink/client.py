"""The terminal's gRPC client of the accounting host (mutual TLS).

:class:`HostClient` is thread-safe (one channel per host address, shared stubs).  A terminal may
be given several host addresses (``"10.0.0.5:50051,10.0.0.6:50051"``: several ``host serve``
processes on one database); the client talks to one at a time and
:meth:`HostClient.fail_over` moves it to the next (the link does so when a call finds the host
unreachable).  Nothing needs to be handed over: every host process reads and writes the same
records, and a report resent to another host is recorded once (its message ids).  It implements
:class:`~kiosk.terminal.hostlink.ports.HostPort` for the synchronous requests (validation numbers
and ticket-in), turning every failure to reach the host in time into
:class:`~kiosk.terminal.hostlink.ports.HostUnavailableError` so the caller can fall back safely; the
store-and-forward calls are used by :class:`kiosk.terminal.hostlink.link.HostLink`.
"""

from __future__ import annotations

from collections.abc import Iterable

import grpc

from kiosk.terminal.hostlink.channel import HOST_CLIENT_KEEPALIVE
from kiosk.terminal.hostlink.pki import SERVER_NAME, Credentials
from kiosk.terminal.hostlink.ports import HostUnavailableError, TicketValidation
from kiosk.terminal.hostlink.stream import LinkSession
from proto.turbokiosk.v1 import host_pb2, host_pb2_grpc


class HostClient:
    """One terminal's connection to the host."""

    def __init__(
        self,
        address: str,
        credentials: Credentials,
        terminal_id: str,
        *,
        timeout: float = 3.0,
        server_name: str = SERVER_NAME,
    ) -> None:
        self.addresses = parse_addresses(address)
        self.terminal_id = terminal_id
        self.timeout = timeout
        channel_credentials = grpc.ssl_channel_credentials(
            root_certificates=credentials.ca,
            private_key=credentials.key,
            certificate_chain=credentials.cert,
        )
        options = [
            ("grpc.ssl_target_name_override", server_name),
            ("grpc.initial_reconnect_backoff_ms", 200),
            ("grpc.max_reconnect_backoff_ms", 2_000),
            *HOST_CLIENT_KEEPALIVE,
        ]
        self._channels = [
            grpc.secure_channel(target, channel_credentials, options=options)
            for target in self.addresses
        ]
        self._stubs = [
            host_pb2_grpc.HostServiceStub(channel)  # type: ignore[no-untyped-call]
            for channel in self._channels
        ]
        self._current = 0
        self.failovers = 0

    @property
    def address(self) -> str:
        """The host address in use now."""
        return self.addresses[self._current]

    @property
    def channel(self) -> grpc.Channel:
        """The channel to the host in use now."""
        return self._channels[self._current]

    @property
    def stub(self) -> host_pb2_grpc.HostServiceStub:
        """The stub of the host in use now."""
        return self._stubs[self._current]

    def fail_over(self) -> str:
        """Use the next host address from now on (with one address: the same); the new one."""
        if len(self.addresses) > 1:
            self._current = (self._current + 1) % len(self.addresses)
            self.failovers += 1
        return self.address

    def close(self) -> None:
        """Close the channels (open calls are cancelled)."""
        for channel in self._channels:
            channel.close()

    # --- HostPort -------------------------------------------------------------------------------

    def validation_number(self, value: int) -> str:
        """An 18-digit validation number for a voucher of ``value`` cents about to print."""
        request = host_pb2.IssueValidationNumberRequest(
            terminal_id=self.terminal_id, value_cents=value
        )
        try:
            answer = self.stub.IssueValidationNumber(request, timeout=self.timeout)
        except grpc.RpcError as exc:
            raise HostUnavailableError(f"no validation number: {_describe(exc)}") from exc
        number: str = answer.validation_number
        return number

    def validate_ticket(self, validation_number: str) -> TicketValidation:
        """Reserve an inserted voucher for redemption at this terminal (or refuse it)."""
        request = host_pb2.ValidateTicketRequest(
            terminal_id=self.terminal_id, validation_number=validation_number
        )
        try:
            answer = self.stub.ValidateTicket(request, timeout=self.timeout)
        except grpc.RpcError as exc:
            raise HostUnavailableError(f"ticket not validated: {_describe(exc)}") from exc
        return TicketValidation(answer.accepted, answer.value_cents, answer.reason)

    def ticket_stacked(self, validation_number: str) -> None:
        """The reserved voucher reached the cash box: redeemed (exactly once)."""
        self._finish(validation_number, stacked=True)

    def ticket_returned(self, validation_number: str) -> None:
        """The reserved voucher went back to the player: release the reservation."""
        self._finish(validation_number, stacked=False)

    def _finish(self, validation_number: str, *, stacked: bool) -> None:
        request = host_pb2.FinishTicketRequest(
            terminal_id=self.terminal_id, validation_number=validation_number, stacked=stacked
        )
        try:
            self.stub.FinishTicket(request, timeout=self.timeout)
        except grpc.RpcError as exc:
            raise HostUnavailableError(f"ticket not finished: {_describe(exc)}") from exc

    # --- the link's calls (grpc.RpcError propagates) ---------------------------------------------

    def hello(self, version: str, signature: str, now_ms: int) -> host_pb2.HelloResponse:
        """Introduce the terminal."""
        request = host_pb2.HelloRequest(
            terminal_id=self.terminal_id,
            software_version=version,
            software_signature=signature,
            terminal_time_ms=now_ms,
        )
        response: host_pb2.HelloResponse = self.stub.Hello(request, timeout=self.timeout)
        return response

    def open_link(
        self, version: str, signature: str, now_ms: int
    ) -> tuple[LinkSession, host_pb2.HelloResponse]:
        """Open the link stream (``HostService.Link``) with the hello: the session and the
        host's answer.  ``grpc.RpcError`` when the host refuses or cannot be reached."""
        session = LinkSession(self.stub, self.timeout)
        request = host_pb2.HelloRequest(
            terminal_id=self.terminal_id,
            software_version=version,
            software_signature=signature,
            terminal_time_ms=now_ms,
        )
        try:
            return session, session.hello(request)
        except grpc.RpcError:
            session.close()
            raise

    def report(
        self,
        batch: Iterable[host_pb2.TerminalMessage],
        head: host_pb2.JournalHead | None = None,
    ) -> host_pb2.ReportResponse:
        """Deliver a batch of store-and-forward messages (an empty batch is a heartbeat) with
        the journal head the host is to acknowledge: the unary call, as terminals that do not
        stream (the link uses :meth:`open_link`)."""
        request = host_pb2.ReportRequest(
            terminal_id=self.terminal_id, messages=list(batch), head=head
        )
        response: host_pb2.ReportResponse = self.stub.Report(request, timeout=self.timeout)
        return response

    def commands(self) -> grpc.Future:  # type: ignore[type-arg]
        """Open the command stream: an iterator of CommandsResponse that can be cancelled."""
        call: grpc.Future = self.stub.Commands(  # type: ignore[type-arg]
            host_pb2.CommandsRequest(terminal_id=self.terminal_id)
        )
        return call

    def complete(
        self, command_id: int, *, error: str = "", software_hmac: bytes = b""
    ) -> host_pb2.CompleteCommandResponse:
        """Answer a command."""
        request = host_pb2.CompleteCommandRequest(
            terminal_id=self.terminal_id,
            command_id=command_id,
            error=error,
            software_hmac=software_hmac,
        )
        response: host_pb2.CompleteCommandResponse = self.stub.CompleteCommand(
            request, timeout=self.timeout
        )
        return response


def parse_addresses(text: str) -> list[str]:
    """``"a:1,b:2"`` -> ``["a:1", "b:2"]`` (one address or several, comma-separated)."""
    addresses = [part.strip() for part in text.split(",") if part.strip()]
    if not addresses:
        raise ValueError(f"no host address in {text!r}")
    return addresses


def _describe(exc: grpc.RpcError) -> str:
    """``CODE: details`` of a failed call."""
    code = getattr(exc, "code", None)
    details = getattr(exc, "details", None)
    name = code().name if callable(code) else "error"
    return f"{name}: {details() if callable(details) else exc}"
