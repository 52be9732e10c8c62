"""What the host link needs of the terminal runtime: a small protocol, not the runtime class.

:class:`~kiosk.terminal.runtime.terminal.TerminalRuntime` satisfies it; the link (a lower layer than
the runtime, see docs/architecture.md) never imports the runtime.  Everything that changes the
terminal goes through :meth:`LinkedRuntime.post` and runs on the terminal's own thread.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.state import TerminalState
from kiosk.terminal.store.journal import Journal


class LinkedRuntime(Protocol):
    """The runtime as the host link sees it."""

    @property
    def state(self) -> TerminalState:
        """The terminal's current state (read on the terminal's thread)."""

    @property
    def journal(self) -> Journal:
        """The open journal (a new one after a RAM clear)."""

    @property
    def data_dir(self) -> Path:
        """Where the journal lives (the sender opens its own connection there)."""

    @property
    def software_version(self) -> str:
        """The version reported in Hello."""

    @property
    def clock(self) -> Callable[[], int]:
        """The terminal's clock in epoch milliseconds."""

    def subscribe(self, observer: Callable[[list[e.Event]], None]) -> None:
        """Call ``observer`` with the events of every commit."""

    def post(self, job: Callable[[], object]) -> None:
        """Run ``job`` on the terminal's thread at its next pump."""

    def execute(
        self, command: c.Command, *, audit: Callable[[], dict[str, Any]] | None = None
    ) -> list[e.Event]:
        """Carry out one command (on the terminal's thread)."""

    def check_host_anchor(self, epoch: int, seq: int, digest: bytes) -> str | None:
        """Compare the host's acknowledged head with the store's; why they disagree, or None."""

    def confirm_device_records(self, code: str, *, by: str, reason: str = "") -> list[e.Event]:
        """End the device records dispute ``code`` on the host's confirmation (CommandError
        when there is none, or ``reason`` is not its reason now)."""
