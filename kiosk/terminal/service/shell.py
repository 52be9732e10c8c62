"""The service menu as typed commands (``turbokiosk service``): words in, the gate called.

Each command line names one service function (see ``help``); the shell only turns words into
the function's arguments and prints its outcome.  Every check and every audit record is the
gate's (:class:`kiosk.terminal.service.session.ServiceSession`).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from kiosk.kernel.errors import UsageError
from kiosk.terminal.core.config import ConfigError, to_dict
from kiosk.terminal.service.access import (
    PIN_MAX_DIGITS,
    PIN_MIN_DIGITS,
    PinPolicyError,
    Role,
    check_new_pin,
)
from kiosk.terminal.service.functions.base import Outcome, ServiceError
from kiosk.terminal.service.functions.config import parse_field, with_edition, with_paytable
from kiosk.terminal.service.session import ServiceSession


@dataclass(frozen=True)
class ShellCommand:
    """A typed command: the function it calls and how its words become arguments."""

    usage: str
    function: str
    parse: Callable[[ServiceShell, list[str]], dict[str, Any]]


def _none(shell: ServiceShell, words: list[str]) -> dict[str, Any]:
    if words:
        raise UsageError(f"no arguments expected, got {' '.join(words)!r}")
    return {}


def _number(word: str, what: str) -> int:
    if not word.isdigit() or int(word) < 1:
        raise UsageError(f"{what}: a whole number of at least 1, not {word!r}")
    return int(word)


def _recall(shell: ServiceShell, words: list[str]) -> dict[str, Any]:
    if len(words) > 1:
        raise UsageError("recall [N]")
    return {"last": _number(words[0], "N")} if words else {}


def _one(name: str) -> Callable[[ServiceShell, list[str]], dict[str, Any]]:
    def parse(shell: ServiceShell, words: list[str]) -> dict[str, Any]:
        if len(words) != 1:
            raise UsageError(f"give the {name.upper()}")
        return {name: words[0]}

    return parse


def _options(words: list[str], options: set[str]) -> tuple[list[str], dict[str, str]]:
    """Positional words and ``--option VALUE`` pairs."""
    positional, found = [], {}
    it = iter(words)
    for word in it:
        if word.startswith("--"):
            name = word[2:]
            if name not in options:
                raise UsageError(f"unknown option {word} (options: --{', --'.join(options)})")
            value = next(it, None)
            if value is None:
                raise UsageError(f"{word} needs a value")
            found[name] = value
        else:
            positional.append(word)
    return positional, found


def _events(shell: ServiceShell, words: list[str]) -> dict[str, Any]:
    kinds, options = _options(words, {"last"})
    args: dict[str, Any] = {"kinds": kinds}
    if "last" in options:
        args["last"] = _number(options["last"], "--last")
    return args


def _audit(shell: ServiceShell, words: list[str]) -> dict[str, Any]:
    positional, options = _options(words, {"role", "action"})
    if len(positional) > 1:
        raise UsageError("audit-log [N] [--role ROLE] [--action ACTION]")
    args: dict[str, Any] = dict(options)
    if positional:
        args["last"] = _number(positional[0], "N")
    return args


def _bill(shell: ServiceShell, words: list[str]) -> dict[str, Any]:
    if len(words) != 1 or words[0] not in ("start", "status", "stop"):
        raise UsageError("bill-test start|status|stop")
    return {"action": words[0]}


def _software(shell: ServiceShell, words: list[str]) -> dict[str, Any]:
    if words == ["--full"]:
        return {"full": True}
    if words:
        raise UsageError("software [--full]")
    return {}


def _seed(shell: ServiceShell, words: list[str]) -> dict[str, Any]:
    if not words:
        raise UsageError("software-hmac SEED (hex digits)")
    return {"seed": "".join(words)}


def _paytables(shell: ServiceShell, words: list[str]) -> dict[str, Any]:
    if len(words) > 1:
        raise UsageError("paytables [EDITION]")
    return {"edition": words[0]} if words else {}


def _set(shell: ServiceShell, words: list[str]) -> dict[str, Any]:
    if not words:
        raise UsageError("set FIELD=VALUE [FIELD=VALUE ...] (money in dollars)")
    changes: dict[str, Any] = {}
    for word in words:
        name, sep, value = word.partition("=")
        if not sep:
            raise UsageError(f"{word!r}: FIELD=VALUE")
        try:
            changes[name] = parse_field(name, value)
        except ConfigError as exc:
            raise UsageError(str(exc)) from None
    return {"changes": changes}


def _edition_switch(on: bool) -> Callable[[ServiceShell, list[str]], dict[str, Any]]:
    def parse(shell: ServiceShell, words: list[str]) -> dict[str, Any]:
        if len(words) != 1:
            raise UsageError(f"{'enable' if on else 'disable'} EDITION")
        new = with_edition(shell.config(), words[0], on)
        return {"changes": {"editions": new["editions"]}}

    return parse


def _paytable(shell: ServiceShell, words: list[str]) -> dict[str, Any]:
    if len(words) != 3:
        raise UsageError("paytable EDITION WAGER TABLE")
    try:
        new = with_paytable(shell.config(), *words)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    return {"changes": {"editions": new["editions"]}}


def _path(required: bool) -> Callable[[ServiceShell, list[str]], dict[str, Any]]:
    def parse(shell: ServiceShell, words: list[str]) -> dict[str, Any]:
        if len(words) > 1 or (required and not words):
            raise UsageError("give one FILE" if required else "at most one FILE")
        return {"path": words[0]} if words else {}

    return parse


def _export(shell: ServiceShell, words: list[str]) -> dict[str, Any]:
    positional, options = _options(words, {"version"})
    args = _path(False)(shell, positional)
    if "version" in options:
        args["version"] = _number(options["version"], "--version")
    return args


def _new_pin(shell: ServiceShell, words: list[str]) -> dict[str, Any]:
    if words:
        raise UsageError("pin (the new PIN is asked for, never typed on the command line)")
    return {"new_pin": shell.ask_new_pin()}


def _set_pin(shell: ServiceShell, words: list[str]) -> dict[str, Any]:
    if len(words) != 1:
        raise UsageError("set-pin ROLE")
    try:
        role = Role.parse(words[0])
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return {"role": role.label, "new_pin": shell.ask_new_pin(f"new {role.label} PIN")}


def _ram_clear(shell: ServiceShell, words: list[str]) -> dict[str, Any]:
    if not words or words[0] != "--confirm" or len(words) < 2:
        raise UsageError("ram-clear --confirm REASON ... (the store is moved aside, kept)")
    return {"reason": " ".join(words[1:]), "confirm": True}


COMMANDS: dict[str, ShellCommand] = {
    "status": ShellCommand("status", "status", _none),
    "meters": ShellCommand("meters", "meters", _none),
    "recall": ShellCommand("recall [N]", "recall", _recall),
    "handpay": ShellCommand("handpay", "handpay_reset", _none),
    "clear-tilt": ShellCommand("clear-tilt CODE", "clear_tilt", _one("code")),
    "pin": ShellCommand("pin", "change_pin", _new_pin),
    "events": ShellCommand("events [KIND ...] [--last N]", "events", _events),
    "audit-log": ShellCommand("audit-log [N] [--role R] [--action A]", "audit_log", _audit),
    "bill-test": ShellCommand("bill-test start|status|stop", "bill_test", _bill),
    "voucher-test": ShellCommand("voucher-test", "voucher_test", _none),
    "doors": ShellCommand("doors", "doors", _none),
    "devices": ShellCommand("devices", "devices", _none),
    "rng": ShellCommand("rng", "rng_selftest", _none),
    "software": ShellCommand("software [--full]", "software", _software),
    "software-hmac": ShellCommand("software-hmac SEED", "software_hmac", _seed),
    "store-check": ShellCommand("store-check", "store_check", _none),
    "config": ShellCommand("config", "config", _none),
    "paytables": ShellCommand("paytables [EDITION]", "paytables", _paytables),
    "set": ShellCommand("set FIELD=VALUE ...", "config_change", _set),
    "enable": ShellCommand("enable EDITION", "config_change", _edition_switch(True)),
    "disable": ShellCommand("disable EDITION", "config_change", _edition_switch(False)),
    "paytable": ShellCommand("paytable EDITION WAGER TABLE", "config_change", _paytable),
    "period-reset": ShellCommand("period-reset", "period_reset", _none),
    "export": ShellCommand("export [FILE] [--version N]", "config_export", _export),
    "import": ShellCommand("import FILE", "config_import", _path(True)),
    "set-pin": ShellCommand("set-pin ROLE", "set_pin", _set_pin),
    "ram-clear": ShellCommand("ram-clear --confirm REASON ...", "ram_clear", _ram_clear),
}


def command_of(words: list[str]) -> ShellCommand:
    """The command a line names (UsageError for an unknown one)."""
    if not words or words[0] not in COMMANDS:
        raise UsageError(f"unknown command {' '.join(words[:1])!r}; type 'help'")
    return COMMANDS[words[0]]


class ServiceShell:
    """Typed commands over one service session."""

    def __init__(
        self,
        session: ServiceSession,
        write: Callable[[str], None],
        ask_secret: Callable[[str], str],
        *,
        as_json: bool = False,
    ) -> None:
        self.session = session
        self.write = write
        self.ask_secret = ask_secret
        self.as_json = as_json

    def config(self) -> dict[str, Any]:
        """The terminal's configuration as a dict."""
        return to_dict(self.session.terminal.state().config)

    def ask_new_pin(self, what: str = "new PIN") -> str:
        """A new PIN, asked twice (UsageError when the two differ or it is not allowed)."""
        digits = f"{PIN_MIN_DIGITS} to {PIN_MAX_DIGITS} digits"
        first = self.ask_secret(f"{what.capitalize()} ({digits}): ")
        try:
            check_new_pin(first)
        except PinPolicyError as exc:
            raise UsageError(str(exc)) from None
        if self.ask_secret(f"{what.capitalize()} again: ") != first:
            raise UsageError("the two PINs differ")
        return first

    def run_words(self, words: list[str]) -> int:
        """Run one command: 0 done, 1 refused or a failed check, 2 a malformed command."""
        if words[:1] == ["help"]:
            self.write("\n".join(self.help_lines()))
            return 0
        try:
            command = command_of(words)
            args = command.parse(self, words[1:])
            outcome = self.session.call(command.function, args)
        except UsageError as exc:
            self.write(f"usage: {exc}")
            return 2
        except ServiceError as exc:
            self.write(f"refused: {exc}")
            return 1
        self.show(outcome)
        return 0 if outcome.ok else 1

    def show(self, outcome: Outcome) -> None:
        """Print an outcome (as JSON with ``--json``)."""
        if self.as_json:
            text = {"title": outcome.title, "ok": outcome.ok, "data": outcome.data}
            self.write(json.dumps(text, indent=2, default=str))
        else:
            self.write("\n".join(outcome.lines or (outcome.title,)))

    def loop(self, lines: Iterable[str], prompt: Callable[[], None] = lambda: None) -> None:
        """Commands until ``exit`` or the end of the input."""
        prompt()
        for line in lines:
            words = shlex.split(line.split("#", 1)[0]) if line.strip() else []
            if words and words[0] in ("exit", "quit"):
                return
            if words:
                self.run_words(words)
            prompt()

    def help_lines(self) -> list[str]:
        """The commands the entered role may type now."""
        lines = ["Commands:"]
        for command in COMMANDS.values():
            function = self.session.functions[command.function]
            if self.session.refusal(function) is None:
                lines.append(f"  {command.usage:<40} {function.help}")
        lines.append("  exit")
        lines.append("The touchscreen and display tests run on the terminal's own screen.")
        return lines
