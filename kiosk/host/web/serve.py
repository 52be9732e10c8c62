"""Serving the dashboard over TLS with uvicorn, alone or beside the gRPC host."""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass
from pathlib import Path

import uvicorn

from kiosk.host.web.app import DashboardConfig, SecurityHeaders, build_app


@dataclass(frozen=True)
class TlsFiles:
    """The host's certificate and key (PEM files), which the dashboard serves with."""

    cert: Path
    key: Path


def bind(address: str) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: a free one)."""
    host, _, port = address.rpartition(":")
    host = host.strip("[]")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, int(port)))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url(sock: socket.socket) -> str:
    """``https://host:port`` of a bound socket."""
    host, port = sock.getsockname()[:2]
    return f"https://{'[' + host + ']' if ':' in host else host}:{port}"


class WebServer:
    """The dashboard on a socket, in a thread of its own (its own asyncio loop)."""

    def __init__(self, config: DashboardConfig, tls: TlsFiles, sock: socket.socket) -> None:
        self.app: SecurityHeaders = build_app(config)
        self.sock = sock
        self.url = url(sock)
        self.server = uvicorn.Server(
            uvicorn.Config(
                self.app,
                ssl_certfile=str(tls.cert),
                ssl_keyfile=str(tls.key),
                log_level="warning",
                access_log=False,
                timeout_graceful_shutdown=2,
                lifespan="off",
                server_header=False,
            )
        )
        self._thread = threading.Thread(target=self._run, name="web", daemon=True)

    def _run(self) -> None:
        self.server.run(sockets=[self.sock])

    def start(self) -> WebServer:
        """Serve in the background."""
        self._thread.start()
        return self

    def running(self) -> bool:
        """Whether the server thread is still serving."""
        return self._thread.is_alive()

    def stop(self) -> None:
        """Stop serving (open live streams are ended) and close the connections."""
        self.server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(timeout=10)
        self.close()

    def close(self) -> None:
        self.app.dashboard.close()
        self.sock.close()
