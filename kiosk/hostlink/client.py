"""The terminal's gRPC client of the accounting host (mutual TLS).

:class:`HostClient` is thread-safe (one channel, shared stubs).  It implements
:class:`~kiosk.hostlink.ports.HostPort` for the synchronous requests (validation numbers and
ticket-in), turning every failure to reach the host in time into
:class:`~kiosk.hostlink.ports.HostUnavailableError` so the caller can fall back safely; the
store-and-forward calls are used by :class:`kiosk.hostlink.link.HostLink`.
"""

from __future__ import annotations

from collections.abc import Iterable

import grpc

from kiosk.hostlink.channel import KEEPALIVE
from kiosk.hostlink.pki import SERVER_NAME, Credentials
from kiosk.hostlink.ports import HostUnavailableError, TicketValidation
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
        self.address = address
        self.terminal_id = terminal_id
        self.timeout = timeout
        channel_credentials = grpc.ssl_channel_credentials(
            root_certificates=credentials.ca,
            private_key=credentials.key,
            certificate_chain=credentials.cert,
        )
        self.channel = grpc.secure_channel(
            address,
            channel_credentials,
            options=[
                ("grpc.ssl_target_name_override", server_name),
                ("grpc.initial_reconnect_backoff_ms", 200),
                ("grpc.max_reconnect_backoff_ms", 2_000),
                *KEEPALIVE,
            ],
        )
        self.stub = host_pb2_grpc.HostServiceStub(self.channel)  # type: ignore[no-untyped-call]

    def close(self) -> None:
        """Close the channel (open calls are cancelled)."""
        self.channel.close()

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

    def report(
        self,
        batch: Iterable[host_pb2.TerminalMessage],
        head: host_pb2.JournalHead | None = None,
    ) -> host_pb2.ReportResponse:
        """Deliver a batch of store-and-forward messages (an empty batch is a heartbeat) with
        the journal head the host is to acknowledge."""
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


def _describe(exc: grpc.RpcError) -> str:
    """``CODE: details`` of a failed call."""
    code = getattr(exc, "code", None)
    details = getattr(exc, "details", None)
    name = code().name if callable(code) else "error"
    return f"{name}: {details() if callable(details) else exc}"
