"""PIN changes: every role its own; the operator may set another role's (to be changed at its
next entry), which also lifts that role's lock-out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.terminal.service.access import Role
from kiosk.terminal.service.functions.base import Context, Outcome, ServiceError, ServiceFunction


def _own_watch(ctx: Context, args: Mapping[str, Any]) -> dict[str, Any]:
    access = ctx.pins.access(ctx.role)
    return {"role": ctx.role.label, "must_change": access.must_change}


def change_pin(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Change the entered role's own PIN (args: new_pin)."""
    ctx.execute(ctx.pins.set_pin_command(ctx.role, str(args.get("new_pin", ""))))
    return Outcome(f"{ctx.role.label} PIN changed", (f"The {ctx.role.label} PIN was changed.",))


def _target(args: Mapping[str, Any]) -> Role:
    return Role.parse(str(args.get("role", "")))


def _other_watch(ctx: Context, args: Mapping[str, Any]) -> dict[str, Any] | None:
    try:
        role = _target(args)
    except ValueError:
        return None
    access = ctx.pins.access(role)
    return {
        "role": role.label,
        "must_change": access.must_change,
        "locked_until": access.locked_until,
    }


def set_pin(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Set another role's PIN (args: role, new_pin); it must be changed at the next entry."""
    role = _target(args)
    if role == ctx.role:
        raise ServiceError("change your own PIN with change_pin", "err_set_own_pin")
    command = ctx.pins.set_pin_command(
        role, str(args.get("new_pin", "")), must_change=True, by=ctx.role.label
    )
    ctx.execute(command)
    text = f"The {role.label} PIN was set; it must be changed at the next entry"
    return Outcome(text, (text,), {"role": role.label})


FUNCTIONS = (
    ServiceFunction(
        "change_pin",
        "Change PIN",
        Role.ATTENDANT,
        change_pin,
        watch=_own_watch,
        secret_args=frozenset({"new_pin"}),
        help="change the entered role's PIN",
    ),
    ServiceFunction(
        "set_pin",
        "Set another role's PIN",
        Role.OPERATOR,
        set_pin,
        watch=_other_watch,
        secret_args=frozenset({"new_pin"}),
        help="set another role's PIN, lifting its lock-out",
    ),
)
