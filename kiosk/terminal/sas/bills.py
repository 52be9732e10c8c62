"""The host's bill-acceptor switch (long polls 06/07), in front of the validator's port.

The runtime decides when notes may come in (:meth:`set_enabled` on every change); the SAS host
may in addition turn the acceptor off.  :class:`GatedValidator` passes everything through and
enables the validator only when both agree.  The host's setting is kept in the SAS store, so
a disable survives a restart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from kiosk.terminal.core.commands import Command


class ValidatorLike(Protocol):
    """The bill validator's port, as the runtime drives it (kiosk.terminal.devices.ports)."""

    def set_enabled(self, enabled: bool, notes: tuple[int, ...]) -> None: ...
    def stack(self, seat: int) -> None: ...
    def return_note(self, seat: int) -> None: ...
    def poll(self) -> list[Command]: ...
    def acknowledge(self, seat: int) -> None: ...
    def recover(self) -> list[Command]: ...


class GatedValidator:
    """A validator port whose acceptance the SAS host can also switch off."""

    def __init__(self, inner: ValidatorLike, *, host_allows: bool = True) -> None:
        self.inner = inner
        self.host_allows = host_allows
        self._wanted = False
        self._notes: tuple[int, ...] = ()
        self.on_change: Callable[[bool], None] | None = None

    def set_enabled(self, enabled: bool, notes: tuple[int, ...]) -> None:
        """The runtime's wish; the validator is enabled only if the host allows it too."""
        self._wanted, self._notes = enabled, notes
        self.inner.set_enabled(enabled and self.host_allows, notes)

    def set_host_allows(self, allows: bool) -> None:
        """The host's 06/07 (call on the terminal's thread)."""
        self.host_allows = allows
        self.inner.set_enabled(self._wanted and allows, self._notes)

    @property
    def enabled(self) -> bool:
        """Whether the validator is taking notes now."""
        return self._wanted and self.host_allows

    def stack(self, seat: int) -> None:
        """Passed through."""
        self.inner.stack(seat)

    def return_note(self, seat: int) -> None:
        """Passed through."""
        self.inner.return_note(seat)

    def poll(self) -> list[Command]:
        """Passed through."""
        return self.inner.poll()

    def acknowledge(self, seat: int) -> None:
        """Passed through."""
        self.inner.acknowledge(seat)

    def recover(self) -> list[Command]:
        """Passed through."""
        return self.inner.recover()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
