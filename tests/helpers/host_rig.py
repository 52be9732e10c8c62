"""A PKI, a reference host on loopback and terminals wired to it (fixtures: host/conftest.py)."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from kiosk.host.accounting.db import HostDb, SqliteHostDb, now_ms
from kiosk.host.accounting.server import HostServer, HostSettings
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.devices.inprocess import InProcessBillValidator, InProcessPrinter
from kiosk.terminal.hostlink import pki
from kiosk.terminal.hostlink.anchor import ANCHOR_WAIT_REASON
from kiosk.terminal.hostlink.link import HostLink
from kiosk.terminal.hostlink.wiring import HostEndpoint, HostWiring
from kiosk.terminal.runtime.deck import RngDeckFactory
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.runtime.validation import LocalValidationNumbers
from kiosk.terminal.store.port import sqlite_journal
from rng import Csprng

TERMINALS = ("TK-A", "TK-B")


#: the terminals the test hosts serve (enrolled in their registry; any other is refused)
ENROLLED = (*TERMINALS, "TK-C", "TK-D", "TK-Z", "TK-P", "TK-X", "TK-NEW", "TK-SILENT", "TK-0001")


class Pki:
    """A CA with host and terminal certificates, plus a rogue CA and an expired certificate."""

    def __init__(self, root: Path) -> None:
        self.dir = root / "pki"
        self.ca_dir = pki.ensure_pki(self.dir, TERMINALS)
        self.rogue = root / "rogue"
        pki.init_ca(self.rogue, name="Rogue CA")
        pki.issue_cert(self.rogue, "TK-A", self.rogue)
        self.expired = root / "expired"
        pki.issue_cert(
            self.ca_dir,
            "TK-A",
            self.expired,
            days=1,
            not_before=dt.datetime.now(dt.UTC) - dt.timedelta(days=3),
        )

    def host(self) -> pki.Credentials:
        return pki.credentials(self.dir, "host")

    def terminal(self, name: str) -> pki.Credentials:
        return pki.credentials(self.dir, name)


class HostRig:
    """A host server on 127.0.0.1 that can be stopped and started again on the same port."""

    settings = HostSettings()  # a subclass sets its own (rate limits, bounds)

    def __init__(self, pki_set: Pki, db_factory: Callable[[], HostDb]) -> None:
        self.pki = pki_set
        self.db_factory = db_factory
        self.address = "127.0.0.1:0"
        self.server: HostServer | None = None
        self.db: HostDb | None = None
        self.start()

    def start(self) -> HostServer:
        self.db = self.db_factory()
        for name in ENROLLED:
            self.db.enroll(name, now_ms())
        self.server = HostServer(
            self.db, self.pki.host(), self.address, settings=self.settings, max_workers=64
        ).start()
        self.address = self.server.address
        return self.server

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop(0)
            self.server = None

    def endpoint(self, name: str = "TK-A", creds: pki.Credentials | None = None) -> HostEndpoint:
        return HostEndpoint(self.address, creds or self.pki.terminal(name), name)


class TerminalRig:
    """A terminal runtime wired to a host, its devices and its link."""

    def __init__(
        self, data_dir: Path, endpoint: HostEndpoint, config: TerminalConfig | None = None
    ) -> None:
        self.data_dir = data_dir
        self.endpoint = endpoint
        self.config = config or TerminalConfig(terminal_id=endpoint.terminal_id)
        self.rng = Csprng()
        self.boot()

    def boot(self) -> None:
        self.wiring = HostWiring(self.endpoint, self.data_dir, timeout=2.0)
        self.validator = InProcessBillValidator(self.data_dir / "devices")
        self.printer = InProcessPrinter(self.data_dir / "devices")
        self.runtime = TerminalRuntime(
            self.data_dir,
            journal=sqlite_journal(self.data_dir),
            deck_factory=RngDeckFactory(self.rng),
            validator=self.validator,
            printer=self.printer,
            validation_numbers=LocalValidationNumbers(self.rng.randbelow),
            config=self.config,
            **self.wiring.runtime_options(),
        )
        self.runtime.power_up()
        self.link: HostLink = self.wiring.link(self.runtime, retry_seconds=(0.05, 0.3))

    def start(self, *, wait: bool = True) -> TerminalRig:
        """Start the link; with ``wait``, pump until its first hello checked the host's anchor
        (play is disabled until then) or the check locked the terminal up."""
        self.link.start()
        if wait:
            state = self.runtime.state
            self.pump_until(
                lambda: state.disabled != ANCHOR_WAIT_REASON or state.critical is not None
            )
        return self

    def close(self) -> None:
        self.link.stop()
        self.wiring.client.close()
        self.runtime.close()

    def pump_until(self, condition: Callable[[], bool], timeout: float = 10.0) -> None:
        """Pump the runtime (the terminal's thread) until ``condition`` holds."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError("condition not reached in time")
            self.runtime.pump()
            time.sleep(0.01)

    def outbox_empty(self) -> bool:
        return not self.runtime.journal.outbox(1)


def records_factory(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], HostDb]:
    """Opens the host's records on the back end the fixture is parametrised with
    (``sqlite`` or ``postgresql``: a new database on the test PostgreSQL server)."""
    from kiosk.host.accounting.db import PostgresHostDb

    if request.param == "sqlite":
        return lambda: SqliteHostDb(tmp_path / "host.sqlite3")
    dsn = request.getfixturevalue("postgres_server").new_database()
    return lambda: PostgresHostDb(dsn)
