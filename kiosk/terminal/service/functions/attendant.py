"""The attendant's functions: the terminal's status, handpay and jackpot reset, clearing tilts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.records import Handpay, Tilt
from kiosk.terminal.core.tilts import DISPUTE_TILTS
from kiosk.terminal.presentation.money import dollars
from kiosk.terminal.service.access import Role
from kiosk.terminal.service.functions.base import (
    Context,
    Outcome,
    ServiceError,
    ServiceFunction,
    arg_text,
)


def status(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """What stops play, the credits, the handpay and tilts waiting, the game in progress."""
    s = ctx.terminal.state()
    lockups = [lockup.value for lockup in s.lockups()]
    lines = [
        f"Terminal {s.config.terminal_id} ({s.config.venue})",
        f"Phase: {s.phase.value}" + (f", game {s.round.game_number}" if s.round else ""),
        f"Stopped by: {', '.join(lockups) if lockups else 'nothing (play allowed)'}",
        f"Credits: {dollars(sum(s.credits))}",
    ]
    if s.handpay is not None:
        lines.append(f"Handpay waiting: {handpay_text(s.handpay)}")
    lines += [f"Tilt {code}: {t.reason}" for code, t in sorted(s.tilts.items())]
    if s.doors_open:
        lines.append(f"Doors open: {', '.join(s.doors_open)}")
    if s.critical is not None:
        lines.append(f"CRITICAL MEMORY ERROR: {s.critical}")
    if ctx.terminal.read_only is not None:
        lines.append(f"Read-only: {ctx.terminal.read_only}")
    data = {
        "terminal_id": s.config.terminal_id,
        "phase": s.phase.value,
        "game_number": s.round.game_number if s.round else None,
        "lockups": lockups,
        "credits": list(s.credits),
        "handpay": _handpay_data(s.handpay),
        "tilts": _tilts_data(s.tilts),
        "doors_open": list(s.doors_open),
        "critical": s.critical,
        "service_role": s.service_role,
        "read_only": ctx.terminal.read_only,
    }
    return Outcome("Status", tuple(lines), data)


def handpay_text(handpay: Handpay) -> str:
    """``"$1,500.00 jackpot (game 12), seat 0"``."""
    kinds = {"jackpot": "jackpot", "progressive": f"{handpay.name} progressive jackpot"}
    kind = kinds.get(handpay.kind, "cancelled credits")
    game = f" (game {handpay.game_number})" if handpay.game_number else ""
    return f"{dollars(handpay.value)} {kind}{game}, seat {handpay.seat}"


def _handpay_data(handpay: Handpay | None) -> dict[str, Any] | None:
    """The handpay in the outcome's data (the service's ``--json``)."""
    return None if handpay is None else asdict(handpay)


def _tilts_data(tilts: Mapping[str, Tilt]) -> dict[str, dict[str, Any]]:
    """The tilts in the outcome's data, by code."""
    return {code: asdict(tilt) for code, tilt in tilts.items()}


def _handpay_watch(ctx: Context, args: Mapping[str, Any]) -> dict[str, Any]:
    s = ctx.terminal.state()
    return {"handpay": _handpay_data(s.handpay), "credits": list(s.credits)}


def handpay_reset(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """The attendant paid the handpay (jackpot or cancelled credits) by hand."""
    handpay = ctx.terminal.state().handpay
    if handpay is None:
        raise ServiceError("no handpay is waiting", "err_no_handpay")
    ctx.execute(c.AttendantReset(by=ctx.role.label))
    text = f"Handpay of {handpay_text(handpay)} reset"
    return Outcome(text, (text,), {"handpay": _handpay_data(handpay)})


def _tilts_watch(ctx: Context, args: Mapping[str, Any]) -> dict[str, Any]:
    return {"tilts": _tilts_data(ctx.terminal.state().tilts)}


def clear_tilt(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Clear a tilt whose cause was resolved (it comes back if it was not)."""
    code = arg_text(args, "code")
    tilts = ctx.terminal.state().tilts
    if code not in tilts:
        known = ", ".join(sorted(tilts)) or "none"
        raise ServiceError(f"no tilt {code!r} (tilts now: {known})", "err_no_tilt", code=code)
    reason = tilts[code].reason
    if code in DISPUTE_TILTS:
        raise ServiceError(
            f"tilt {code} is a device records dispute ({reason}): no key clears it; the host "
            "confirms it (turbokiosk host send TERMINAL confirm-records) or the operator "
            "clears the RAM",
            "err_dispute_tilt",
            code=code,
        )
    ctx.execute(c.ClearTilt(code=code, by=ctx.role.label))
    text = f"Tilt {code} cleared ({reason})"
    return Outcome(text, (text,), {"code": code})


FUNCTIONS = (
    ServiceFunction(
        "status", "Status", Role.ATTENDANT, status, help="what stops play, credits, handpay, tilts"
    ),
    ServiceFunction(
        "handpay_reset",
        "Handpay reset",
        Role.ATTENDANT,
        handpay_reset,
        watch=_handpay_watch,
        writes=True,
        help="the handpay or jackpot was paid by hand",
    ),
    ServiceFunction(
        "clear_tilt",
        "Clear tilt",
        Role.ATTENDANT,
        clear_tilt,
        watch=_tilts_watch,
        writes=True,
        help="clear a resolved tilt",
    ),
)
