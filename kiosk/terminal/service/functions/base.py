"""What a service function is, what it sees, and what it gives back."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.service.access import PinStore, Role
from kiosk.terminal.service.backends import ServiceTerminal


class ServiceError(Exception):
    """A service action refused or failed; the message says why (nothing was changed).

    ``key`` and ``values`` say it again without words, for the pages to put in their language
    (:mod:`kiosk.terminal.presentation.service_refusals`): a catalogue key and its fields as
    codes (a role's label, a function's name, an amount in cents).  Empty: the message only.
    """

    def __init__(self, message: str, key: str = "", **values: object) -> None:
        super().__init__(message)
        self.key = key
        self.values: dict[str, object] = dict(values)


@dataclass(frozen=True)
class Outcome:
    """A function's result: a title, text lines (SSH, fixed-width) and JSON-ready data (UI)."""

    title: str
    lines: tuple[str, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)
    ok: bool = True  # False when a check or test the function ran failed


class Context(Protocol):
    """What a running function may use (given by the gate for one call)."""

    terminal: ServiceTerminal
    role: Role
    pins: PinStore
    service_dir: Path
    key_on: bool
    progress: Callable[[str], None]

    def now(self) -> int:
        """Epoch milliseconds."""
        ...

    def execute(self, command: c.Command) -> list[e.Event]:
        """Send the action's one command, its audit record committed with its events."""
        ...


Runner = Callable[[Context, Mapping[str, Any]], Outcome]
Watcher = Callable[[Context, Mapping[str, Any]], Any]


@dataclass(frozen=True)
class ServiceFunction:
    """One entry of the service menu."""

    name: str
    title: str
    role: Role  # the least role allowed
    run: Runner
    watch: Watcher | None = None  # the values the action changes: recorded before and after
    writes: bool = False  # sends a command to the terminal (not possible read-only)
    devices: bool = False  # needs the terminal's own devices (this process must drive them)
    secret_args: frozenset[str] = frozenset()  # never written to the audit log
    help: str = ""


def arg_int(args: Mapping[str, Any], name: str, default: int, low: int = 1) -> int:
    """An integer argument (ServiceError when it is not one, or below ``low``)."""
    value = args.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ServiceError(
            f"{name}: a whole number of at least {low}, not {value!r}",
            "err_whole_number",
            name=name,
            low=low,
        )
    return value


def arg_text(args: Mapping[str, Any], name: str) -> str:
    """A required non-empty text argument."""
    value = args.get(name)
    if not isinstance(value, str) or not value.strip():
        raise ServiceError(f"{name}: required", "err_required", name=name)
    return value.strip()
