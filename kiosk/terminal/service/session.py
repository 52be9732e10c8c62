"""A service session and the one gate every service function goes through.

The service key is turned (:meth:`ServiceSession.turn_key`), a role is entered with its PIN
(:meth:`ServiceSession.enter`), which puts the terminal in service mode (``SetService``: no play,
no money in; the round in progress waits, its timer held).  Then every function is called
through :meth:`ServiceSession.call`, which

1. refuses (with the reason) unless the key is on, a role is entered, its PIN needs no change
   (only ``change_pin`` is open until it is changed), the role is at least the function's
   (:data:`kiosk.terminal.service.functions.FUNCTIONS`), and the terminal can do it from here;
2. records the values the function changes before it runs, and after;
3. writes exactly one audit record: with the events of the function's one terminal command, in
   the same transaction, or on its own when the function sends no command or is refused.

Leaving (:meth:`ServiceSession.leave`, or the key turned off) takes the terminal out of service
mode; the game resumes where it was.  Entries, refused PINs and exits are audited too.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from kiosk.kernel.clock import wall_clock_ms
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.commands import CommandError
from kiosk.terminal.service import audit_log
from kiosk.terminal.service.access import AccessDeniedError, PinStore, Role
from kiosk.terminal.service.backends import ReadOnlyError, ServiceTerminal
from kiosk.terminal.service.functions import FUNCTIONS
from kiosk.terminal.service.functions.base import Outcome, ServiceError, ServiceFunction
from kiosk.terminal.service.functions.diagnostics import stop_bill_test
from kiosk.terminal.store.journal import StoreError

#: errors a function raises for a refusal with a clear message (ConfigError and PinPolicyError
#: are ValueErrors; OSError covers a file that cannot be read or written)
REFUSALS = (ServiceError, CommandError, ReadOnlyError, ValueError, OSError)


#: the audit detail of an entry as root at the console (see ServiceSession.console_entry_allowed)
CONSOLE_ENTRY = (
    "root at the console: the store's PIN records cannot be read (critical memory); "
    "only a RAM clear is open"
)


class ServiceSession:
    """One person's visit to the service menu (see the module docstring)."""

    def __init__(
        self,
        terminal: ServiceTerminal,
        pins: PinStore,
        *,
        via: str = "touchscreen",
        clock: Callable[[], int] = wall_clock_ms,
        service_dir: Path | None = None,
        progress: Callable[[str], None] = lambda text: None,
        functions: Mapping[str, ServiceFunction] = FUNCTIONS,
    ) -> None:
        self.terminal = terminal
        self.pins = pins
        self.via = via
        self.clock = clock
        self.service_dir = service_dir or terminal.data_dir / "service"
        self.progress = progress
        self.functions = functions
        self.id = secrets.token_hex(6)
        self.key_on = False
        self.role: Role | None = None
        #: entered as root at the console because the store's PIN records cannot be read
        self.console_entry = False
        self._n = 0

    # --- key, entry and exit ---------------------------------------------------------------

    def turn_key(self, on: bool) -> None:
        """The service key switch; turning it off leaves the menu."""
        self.key_on = on
        if not on and self.role is not None:
            self.leave("key off")

    def enter(self, role: Role, pin: str) -> bool:
        """Enter (or switch to) ``role``; True when its PIN must be changed before anything else.

        Raises :class:`ServiceError` without the key and
        :class:`~kiosk.terminal.service.access.AccessDeniedError` for a wrong PIN or a locked-out
        role; each attempt leaves one audit record.
        """
        record = self._record("enter", role, {})
        if not self.key_on:
            self._append(record, "refused", "turn the service key first")
            raise ServiceError("turn the service key first", "gate_key")

        def refusal(detail: str) -> dict[str, Any]:
            record["outcome"], record["detail"] = "refused", detail
            return record

        if self.console_entry_allowed(role):
            record["detail"] = CONSOLE_ENTRY
            record["before"] = {"service_role": None}
            record["after"] = {"service_role": role.label}
            self._service_command(record, c.SetService(active=True, role=role.label))
            self.role, self.console_entry = role, True
            return False
        try:
            must_change = self.pins.check(role, pin, refusal=refusal)
        except AccessDeniedError as exc:
            if not exc.recorded:
                self._append(record, "refused", str(exc))
            raise
        record["before"] = {"service_role": self.role.label if self.role else None}
        record["after"] = {"service_role": role.label}
        self._service_command(record, c.SetService(active=True, role=role.label))
        self.role = role
        return must_change

    def console_entry_allowed(self, role: Role) -> bool:
        """The one entry without a PIN: the operator, as root at the terminal's console, when
        the store is in the critical memory lockup and its PIN records cannot be read (a wiped
        or unreadable store).  Only the RAM clear is then open (see :meth:`refusal`): root holds
        the machine anyway, and a missing record never brings the factory PINs back."""
        if role != Role.OPERATOR or os.geteuid() != 0:
            return False
        try:
            state = self.terminal.state()
        except (StoreError, ValueError, KeyError):  # not even readable: no records to check
            return True
        return state.critical is not None and state.pins is None

    def leave(self, reason: str = "exit") -> None:
        """Leave the menu: the terminal leaves service mode and play resumes."""
        role = self.role
        if role is None:
            return
        self.role, self.console_entry = None, False
        record = self._record("exit", role, {"reason": reason})
        if stop_bill_test(self.terminal):
            record["detail"] = "bill validator test stopped"
        record["before"] = {"service_role": role.label}
        record["after"] = {"service_role": None}
        self._service_command(record, c.SetService(active=False))

    def _service_command(self, record: dict[str, Any], command: c.SetService) -> None:
        if self.terminal.read_only is not None:
            record["detail"] = f"read-only: {self.terminal.read_only}"
            self._append(record, "ok", record["detail"])
        else:
            self.terminal.execute(command, lambda: record)

    # --- the gate ---------------------------------------------------------------------------

    def must_change_pin(self) -> bool:
        """Whether the entered role must change its PIN before anything else."""
        if self.role is None or (self.console_entry and self.terminal.state().pins is None):
            return False
        return self.pins.access(self.role).must_change

    def refusal(self, function: ServiceFunction) -> str | None:
        """Why ``function`` cannot be called now, or None."""
        problem = self.refusal_error(function)
        return None if problem is None else str(problem)

    def refusal_error(self, function: ServiceFunction) -> ServiceError | None:
        """Why ``function`` cannot be called now, with its catalogue key, or None."""
        if not self.key_on:
            return ServiceError("turn the service key first", "gate_key")
        if self.role is None:
            return ServiceError("enter a role and its PIN first", "gate_no_role")
        if self.console_entry and function.name != "ram_clear":
            return ServiceError(
                "entered at the console without PIN records: only a RAM clear (ram_clear)",
                "gate_console",
            )
        if function.name != "change_pin" and self.must_change_pin():
            return ServiceError(
                f"the {self.role.label} PIN must be changed first (change_pin)",
                "gate_change_pin",
                role=self.role.label,
            )
        if self.role < function.role:
            return ServiceError(
                f"{function.title} needs the {function.role.label} role "
                f"(entered as {self.role.label})",
                "gate_role",
                function=function.name,
                needed_role=function.role.label,
                role=self.role.label,
            )
        if function.writes and self.terminal.read_only is not None:
            return ServiceError(
                f"{function.title} changes the terminal: {self.terminal.read_only}",
                "gate_read_only",
                function=function.name,
            )
        if function.devices and self.terminal.validator is None:
            return ServiceError(
                f"{function.title} needs the terminal's devices, which another process drives: "
                "use the touchscreen service menu",
                "gate_devices",
                function=function.name,
            )
        return None

    def allowed(self) -> list[ServiceFunction]:
        """The functions the entered role may call now."""
        return [f for f in self.functions.values() if self.refusal(f) is None]

    def call(self, name: str, args: Mapping[str, Any] | None = None) -> Outcome:
        """Run one function through the gate; ServiceError (audited) when it is refused."""
        function = self.functions.get(name)
        if function is None:
            raise ServiceError(f"no service function {name!r}", "gate_no_function", name=name)
        given = dict(args or {})
        logged = {k: v for k, v in given.items() if k not in function.secret_args}
        record = self._record(name, self.role, logged)
        problem = self.refusal_error(function)
        if problem is not None:
            self._append(record, "refused", str(problem))
            raise problem
        assert self.role is not None
        call = _Call(self, function, self.role, record, given)
        try:
            record["before"] = call.watched()
            outcome = function.run(call, given)
        except REFUSALS as exc:
            call.record_failure(str(exc))
            if isinstance(exc, ServiceError):
                raise
            key = getattr(exc, "key", "")
            values = getattr(exc, "values", {})
            raise ServiceError(str(exc), key if isinstance(key, str) else "", **values) from exc
        except BaseException as exc:
            call.record_failure(f"error: {exc!r}", outcome="error")
            raise
        call.record_success(outcome)
        return outcome

    # --- records ----------------------------------------------------------------------------

    def _record(self, action: str, role: Role | None, args: dict[str, Any]) -> dict[str, Any]:
        self._n += 1
        return {
            "at": self.clock(),
            "session": self.id,
            "n": self._n,
            "via": self.via,
            "role": role.label if role is not None else "",
            "action": action,
            "args": args,
            "before": None,
            "after": None,
            "outcome": "ok",
            "detail": "",
        }

    def _append(self, record: dict[str, Any], outcome: str, detail: str) -> None:
        record["outcome"], record["detail"] = outcome, detail
        self.terminal.append_audit(record)


class _Call:
    """The context of one function call (see
    :class:`kiosk.terminal.service.functions.base.Context`)."""

    def __init__(
        self,
        session: ServiceSession,
        function: ServiceFunction,
        role: Role,
        record: dict[str, Any],
        args: Mapping[str, Any],
    ) -> None:
        self.session = session
        self.args = args
        self.function = function
        self.terminal = session.terminal
        self.role = role
        self.pins = session.pins
        self.service_dir = session.service_dir
        self.key_on = session.key_on
        self.progress = session.progress
        self.record = record
        self._sent = False
        self._made = False
        self._committed = False

    def now(self) -> int:
        """Epoch milliseconds."""
        return self.session.clock()

    def watched(self) -> Any:
        """The values the function changes, as they are now (None when it changes none)."""
        watch = self.function.watch
        return watch(self, self.args) if watch is not None else None

    def execute(self, command: c.Command) -> list[e.Event]:
        """The action's one command; its audit record is committed with its events."""
        if self._sent:
            raise RuntimeError(f"{self.function.name}: one command per service action")
        self._sent = True

        def make() -> dict[str, Any]:
            self._made = True
            self._set_after(self.watched())
            return self.record

        if isinstance(command, c.SetPin):  # a PIN may be set where nothing else may be
            events = self.terminal.execute_pin(command, make)
        else:
            events = self.terminal.execute(command, make)
        self._committed = True
        kinds = ", ".join(ev.type_name for ev in events) or "no change"
        self.record["detail"] = f"{type(command).__name__}: {kinds}"
        return events

    def record_success(self, outcome: Outcome) -> None:
        """Write the record of a function that sent no command."""
        if self._committed:
            return
        self._set_after(self.watched())
        self.session._append(self.record, "ok", outcome.title)

    def record_failure(self, detail: str, outcome: str = "refused") -> None:
        """Write the record of a refused or failed call, unless its command already did."""
        if self._committed or (self._made and self._already_recorded()):
            return
        try:
            self._set_after(self.watched())
        except Exception:  # the state cannot be read (a broken store): record without it
            self.record["after"] = None
        with contextlib.suppress(StoreError):  # a broken store: the terminal locks anyway
            self.session._append(self.record, outcome, detail)

    def _set_after(self, after: Any) -> None:
        """Record the values after; of two mappings, only the entries that differ are kept."""
        before = self.record["before"]
        if isinstance(before, dict) and isinstance(after, dict):
            keys = sorted(k for k in {*before, *after} if before.get(k) != after.get(k))
            self.record["before"] = {k: before.get(k) for k in keys}
            after = {k: after.get(k) for k in keys}
        self.record["after"] = after

    def _already_recorded(self) -> bool:
        try:
            with self.terminal.reading() as journal:
                return audit_log.contains(journal, self.session.id, self.record["n"])
        except StoreError:
            return False
