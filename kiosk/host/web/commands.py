"""Commands from the dashboard reach a terminal through the host's command path.

The dashboard queues a row in the host's ``commands`` table exactly as ``turbokiosk host send``
does (:meth:`kiosk.host.accounting.db.HostDb.queue_command`, the body checked by
:func:`kiosk.host.accounting.server.host_command`); the running host's dispatcher pushes it down the
terminal's command stream, and the terminal's answer moves the row to ``done`` or ``failed``.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass
from typing import Any, Protocol

from kiosk.host.accounting.db import HostDb, open_db
from kiosk.host.accounting.records import CommandRecord
from kiosk.host.accounting.server import host_command
from kiosk.host.web.floor import now_ms
from kiosk.kernel.errors import CommandError
from kiosk.terminal.hostlink.command_kinds import HostCommandKind

#: the dashboard's actions -> the host command kind (authenticate: the software authentication
#: with a fresh seed, compared by the host with the approved software's answer)
ACTIONS = {
    "enable": HostCommandKind.SET_ENABLED,
    "disable": HostCommandKind.SET_ENABLED,
    "message": HostCommandKind.PLAYER_MESSAGE,
    "authenticate": HostCommandKind.AUTHENTICATE_SOFTWARE,
}
MAX_TEXT = 200


@dataclass(frozen=True)
class CommandRequest:
    """What an operator asked for, checked."""

    terminal_id: str
    action: str
    text: str  # the reason (enable, disable) or the message

    @property
    def kind(self) -> str:
        """The host command kind."""
        return str(ACTIONS[self.action])

    def body(self) -> dict[str, Any]:
        """The host command's body."""
        if self.action == "message":
            return {"text": self.text, "seconds": 0}
        if self.action == "authenticate":  # a fresh seed: the answer cannot be replayed
            return {"seed": secrets.token_hex(32)}
        return {"enabled": self.action == "enable", "reason": self.text}

    def describe(self) -> str:
        """``disable TK-0001: count room`` (for the audit and the pages)."""
        return f"{self.action} {self.terminal_id}" + (f": {self.text}" if self.text else "")


def command_title(record: CommandRecord) -> str:
    """What a queued command does, in the operator's words: ``Disable TK-0001: count room``,
    ``Enable TK-0001``, ``Message to TK-0001``, ``Software authentication of TK-0001``."""
    body, terminal = record.body, record.terminal_id
    if record.kind == HostCommandKind.SET_ENABLED:
        verb = "Enable" if body.get("enabled") else "Disable"
        reason = str(body.get("reason", ""))
        return f"{verb} {terminal}" + (f": {reason}" if reason else "")
    if record.kind == HostCommandKind.PLAYER_MESSAGE:
        return f"Message to {terminal}: {body.get('text', '')}"
    if record.kind == HostCommandKind.AUTHENTICATE_SOFTWARE:
        return f"Software authentication of {terminal}"
    return f"{record.kind.replace('_', ' ').capitalize()} for {terminal}"


def checked(terminal_id: str, action: str, text: str, known: list[str]) -> CommandRequest:
    """The request, or :class:`CommandError` with what is wrong."""
    if terminal_id not in known:
        raise CommandError(f"no terminal {terminal_id!r} on this host")
    if action not in ACTIONS:
        raise CommandError(f"action {action!r}: one of {', '.join(ACTIONS)}")
    text = " ".join(text.split())
    if len(text) > MAX_TEXT:
        raise CommandError(f"at most {MAX_TEXT} characters, not {len(text)}")
    if action == "message" and not text:
        raise CommandError("a message needs its text")
    if action == "disable" and not text:
        raise CommandError("a disable needs a reason (the terminal shows it)")
    if action == "authenticate" and text:
        raise CommandError("a software authentication takes no text")
    request = CommandRequest(terminal_id, action, text)
    host_command(0, request.kind, request.body())  # the host's own check of the body
    return request


class CommandQueue(Protocol):
    """Where the dashboard puts a command; its id in the host's ``commands`` table."""

    def queue(self, request: CommandRequest) -> int: ...


class HostRecordsQueue:
    """Queues in the host's records (the running host's dispatcher sends it)."""

    def __init__(self, target: str) -> None:
        self.target = target
        self._db: HostDb | None = None
        self._lock = threading.Lock()

    def queue(self, request: CommandRequest) -> int:
        with self._lock:
            if self._db is None:
                self._db = open_db(self.target)
            db = self._db
        return db.queue_command(request.terminal_id, request.kind, request.body(), now_ms())

    def close(self) -> None:
        """Close the records."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
