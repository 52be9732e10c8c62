"""A terminal with service PINs set up cheaply (fixtures: tests/service/conftest.py)."""

from __future__ import annotations

from pathlib import Path

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.pins import hashed
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.service.access import KdfParams, PinStore, Role
from kiosk.terminal.service.backends import InProcessTerminal
from kiosk.terminal.service.session import ServiceSession
from tests.helpers.terminal_rig import Rig

CHEAP_KDF = KdfParams(n=16, r=1, p=1)


#: the PIN each role has after the fixture changed the factory PIN
PINS = {Role.ATTENDANT: "1212", Role.TECHNICIAN: "2323", Role.OPERATOR: "3434"}


class ServiceRig(Rig):
    """A terminal rig with a service session of its own (key off, nobody entered)."""

    def __init__(self, data_dir: Path, config: TerminalConfig | None = None) -> None:
        super().__init__(data_dir, config)
        self.terminal = InProcessTerminal(
            self.runtime, validator=self.validator, printer=self.printer, rng=self.rng
        )
        self.pins = PinStore(self.terminal, clock=self.clock, kdf=CHEAP_KDF)
        self.session = self.new_session()

    def new_session(self) -> ServiceSession:
        return ServiceSession(self.terminal, self.pins, clock=self.clock)

    def set_up_pins(self) -> None:
        """Replace every factory PIN by the role's PIN of :data:`PINS` (as an installer would:
        the factory PINs' production-cost hashes are not checked here)."""
        set_up_pins(self.runtime)

    def enter(self, role: Role) -> ServiceSession:
        self.session.turn_key(True)
        assert self.session.enter(role, PINS[role]) is False
        return self.session

    def audit_count(self) -> int:
        row = self.runtime.journal.db.execute("SELECT COUNT(*) FROM service_audit").fetchone()
        return int(row[0])


def set_up_pins(runtime: TerminalRuntime) -> None:
    """Journal the PINs of :data:`PINS` (cheap hashes) in place of the factory PINs."""
    for role in Role:
        runtime.execute(c.SetPin(role.label, hashed(PINS[role], CHEAP_KDF), False, "test set-up"))
