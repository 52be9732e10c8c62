"""The operator's RAM clear: the only way to start a new store (see
kiosk.terminal.runtime.ram_clear)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.terminal.service.access import Role
from kiosk.terminal.service.functions.base import (
    Context,
    Outcome,
    ServiceError,
    ServiceFunction,
    arg_text,
)


def _watch(ctx: Context, args: Mapping[str, Any]) -> dict[str, Any]:
    state = ctx.terminal.state()
    return {"critical": state.critical, "credits": sum(state.credits)}


def ram_clear(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Move the store aside (kept), start a new signer epoch, journal ``RamCleared`` first."""
    reason = arg_text(args, "reason")
    if args.get("confirm") is not True:
        raise ServiceError("a RAM clear must be confirmed (confirm: true)", "err_confirm")
    session = getattr(ctx, "session", None)
    via = f" via {session.via}, session {session.id}" if session is not None else ""
    event = ctx.terminal.ram_clear(f"{ctx.role.label}{via}", reason)
    lines = (
        f"RAM cleared: the store of epoch {event.previous_epoch} (last signed row "
        f"{event.previous_seq}) is kept in {event.kept_as}.",
        f"New store: epoch {event.epoch}; meters and credits at zero; configuration kept.",
        "The host is told (ram_cleared in the outbox).",
    )
    data = {
        "previous_epoch": event.previous_epoch,
        "previous_seq": event.previous_seq,
        "previous_hash": event.previous_hash,
        "epoch": event.epoch,
        "kept_as": event.kept_as,
    }
    return Outcome("RAM clear", lines, data)


FUNCTIONS = (
    ServiceFunction(
        "ram_clear",
        "RAM clear",
        Role.OPERATOR,
        ram_clear,
        watch=_watch,
        writes=True,
        help="move the store aside (kept) and start a new one: meters and credits at zero",
    ),
)
