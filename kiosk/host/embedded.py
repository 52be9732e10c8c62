"""The embedded reference accounting host of a demo or developer kiosk.

``turbokiosk run`` starts it by default: a SQLite-backed host on 127.0.0.1 (a free port), with a
CA, the host's certificate and this terminal's certificate created on first use in
``<data dir>/host/pki``; its records are ``<data dir>/host/host.sqlite3``, readable with
``turbokiosk host events --host-dir <data dir>/host``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kiosk.host.accounting.db import SqliteHostDb, now_ms
from kiosk.host.accounting.server import HostServer, HostSettings
from kiosk.terminal.hostlink import pki
from kiosk.terminal.hostlink.wiring import HostEndpoint


@dataclass
class EmbeddedHost:
    """A running embedded host and what the terminal needs to reach it."""

    server: HostServer
    endpoint: HostEndpoint
    host_dir: Path

    def stop(self) -> None:
        """Stop serving and close the records."""
        self.server.stop(0.5)


def start_embedded_host(
    data_dir: Path,
    terminal_id: str = "TK-0001",
    *,
    address: str = "127.0.0.1:0",
    settings: HostSettings | None = None,
) -> EmbeddedHost:
    """Start the host for the terminal of ``data_dir``; its address and the terminal's credentials.

    ``address`` port 0 takes a free port (the endpoint says which).
    """
    host_dir = Path(data_dir) / "host"
    pki_dir = host_dir / "pki"
    pki.ensure_pki(pki_dir, (terminal_id,))
    db = SqliteHostDb(host_dir / "host.sqlite3")
    if terminal_id not in db.registry_states():  # its own terminal (a retirement stands)
        db.enroll(terminal_id, now_ms(), "the embedded host's own terminal")
    server = HostServer(db, pki.credentials(pki_dir, "host"), address, settings=settings).start()
    endpoint = HostEndpoint(server.address, pki.credentials(pki_dir, terminal_id), terminal_id)
    return EmbeddedHost(server, endpoint, host_dir)
