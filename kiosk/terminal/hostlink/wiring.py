"""How a terminal is wired to its host: the client, the outbox mapper, the clock and the link."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.terminal.hostlink.client import HostClient
from kiosk.terminal.hostlink.link import AdjustableClock, HostLink
from kiosk.terminal.hostlink.messages import HostMessageMapper
from kiosk.terminal.hostlink.pki import SERVER_NAME, Credentials
from kiosk.terminal.hostlink.runtime_port import LinkedRuntime


@dataclass(frozen=True)
class HostEndpoint:
    """Where the host is and who this terminal is to it."""

    address: str  # "host:port"
    credentials: Credentials  # the CA, this terminal's certificate and key
    terminal_id: str  # the certificate's common name
    server_name: str = SERVER_NAME  # the name the host's certificate is checked against


class HostWiring:
    """The host-side parts of one terminal, made before its runtime."""

    def __init__(self, endpoint: HostEndpoint, data_dir: Path, *, timeout: float = 3.0) -> None:
        self.endpoint = endpoint
        self.client = HostClient(
            endpoint.address,
            endpoint.credentials,
            endpoint.terminal_id,
            timeout=timeout,
            server_name=endpoint.server_name,
        )
        self.clock = AdjustableClock(Path(data_dir) / "host_clock.json")
        self.mapper = HostMessageMapper()

    def runtime_options(self) -> dict[str, Any]:
        """Keyword arguments for the terminal runtime (``TerminalRuntime``)."""
        return {"host": self.client, "host_messages": self.mapper, "clock": self.clock}

    def link(self, runtime: LinkedRuntime, **options: Any) -> HostLink:
        """The runtime's host link (not started)."""
        return HostLink(runtime, self.client, set_time=self.clock.set, **options)
