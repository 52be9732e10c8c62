"""Whether a reported game could have happened: pays within the edition's pay tables.

Sans-IO and in memory (the servicer screens every batch before it is queued for the group
commit).  :func:`game_problem` checks a ``game_played`` body against the edition's
:class:`~kiosk.kernel.games.pay_limits.PayLimits`, computed exactly from the pay-table data the host
has (:func:`kiosk.kernel.games.registry.pay_limits`, cached per edition in :class:`PayBook`):

- the edition is one the host knows;
- a seat that was paid itemises its spots, and its stake and paid are its spots' sums;
- every spot is one of the edition's, and pays at most its stake back plus the best odds any
  of its pay tables offers on its base stake (the spot's own; the ante for Stadium's ante
  bonus).

:func:`screen` turns a game that breaks one into a ``refused`` message (:func:`refused`): the
host records it (so the terminal's outbox moves on) apart from the events any figure counts,
and raises an ``implausible_game`` alarm.

A progressive hit is not a pay-table win: the terminal reports it apart, as
``progressive_awarded`` (decision 0066), and the game's own report stays within its pay tables.
:func:`award_problem` checks it against the progressive's data (:class:`ProgressiveBook`): the
progressive is one the host knows, and the award is at most its ceiling, the most its meter
ever holds (the progressive's journal never pays more; the award itself is the journal's, to
the cent, and reconciled from it).  One that breaks it is refused the same way, with an
``implausible_progressive`` alarm.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from kiosk.kernel.games import progressive, registry
from kiosk.kernel.games.base import RuleError
from kiosk.kernel.games.pay_limits import PayLimits
from kiosk.kernel.games.paytable import PaytableError

if TYPE_CHECKING:
    from kiosk.host.accounting.reports import Message

#: the kind a refused message is recorded under (its own kind and body are kept inside)
REFUSED = "refused"


class PayBook:
    """Each edition's pay limits, computed once per host process (thread-safe)."""

    def __init__(self) -> None:
        self._known: dict[str, PayLimits | str] = {}
        self._lock = threading.Lock()

    def limits(self, edition: str) -> PayLimits | str:
        """The edition's limits, or why the host has none."""
        found = self._known.get(edition)
        if found is None:
            try:
                found = registry.pay_limits(edition)
            except (RuleError, PaytableError) as exc:
                found = f"the host knows no pay tables of edition {edition!r} ({exc})"[:300]
            with self._lock:
                if len(self._known) < 1024:  # editions are few; names from terminals are not
                    self._known[edition] = found
        return found

    def preload(self) -> None:
        """Compute every registered edition's limits now (at start, not on a report)."""
        for edition in registry.edition_ids():
            self.limits(edition)


class ProgressiveBook:
    """Each progressive's settings as the host's pay-table data has them (thread-safe)."""

    def __init__(self) -> None:
        self._known: dict[str, progressive.ProgressiveSettings | str] = {}
        self._lock = threading.Lock()

    def settings(self, name: str) -> progressive.ProgressiveSettings | str:
        """The progressive's settings, or why the host has none."""
        found = self._known.get(name)
        if found is None:
            try:
                found = progressive.load(name) if name in progressive.available() else ""
            except PaytableError as exc:
                found = str(exc)
            if not found:
                found = f"the host knows no progressive {name!r}"[:300]
            with self._lock:
                if len(self._known) < 1024:
                    self._known[name] = found
        return found


def award_problem(body: dict[str, Any], book: ProgressiveBook) -> str | None:
    """Why a ``progressive_awarded`` body is implausible, or None."""
    settings = book.settings(str(body.get("progressive", "")))
    if isinstance(settings, str):
        return settings
    key = str(body.get("key", ""))
    parts = key.split("/")
    if len(parts) != 4 or not parts[1].isdigit() or not parts[2].isdigit():
        return f"the hit's key {key[:80]!r} is not source/game/seat/spot"
    if parts[3] != settings.wager:
        return f"{settings.name} rides on {settings.wager}, not {parts[3]!r}"
    award, ceiling = int(body.get("award_cents", 0)), settings.meter.ceiling_cents
    if not 0 < award <= ceiling:
        return f"an award of {award} cents; {settings.name}'s meter holds at most {ceiling}"
    return None


def game_problem(body: dict[str, Any], book: PayBook) -> str | None:
    """Why a ``game_played`` body is implausible, or None."""
    limits = book.limits(str(body.get("edition", "")))
    if isinstance(limits, str):
        return limits
    for seat in body.get("seats", ()):
        problem = _seat_problem(seat, limits)
        if problem is not None:
            return f"seat {seat.get('seat', 0)}: {problem}"
    return None


def _seat_problem(seat: dict[str, Any], limits: PayLimits) -> str | None:
    spots = seat.get("spots", ())
    stake, paid = int(seat.get("stake_cents", 0)), int(seat.get("paid_cents", 0))
    if not spots:
        return None if paid == 0 else f"paid {paid} cents without naming its wager spots"
    stakes = {str(s.get("spot", "")): int(s.get("stake_cents", 0)) for s in spots}
    if len(stakes) != len(spots):
        return "a wager spot is named twice"
    spot_paid = 0
    for s in spots:
        name = s.get("spot", "")
        limit = limits.spots.get(name)
        if limit is None:
            known = ", ".join(limits.spots)
            return f"edition {limits.edition} has no wager spot {name!r} (known: {known})"
        own = stakes[name]
        base = stakes.get(limit.on, 0) if limit.on else own
        got = int(s.get("paid_cents", 0))
        spot_paid += got
        most = limit.most_paid(own, base)
        if got > most:
            on = f" on the {limit.on} of {base}" if limit.on else ""
            return (
                f"{name} paid {got} cents for a stake of {own}{on}; the pay tables of "
                f"{limits.edition} pay at most {most} (odds {limit.odds})"
            )
    spot_stakes = sum(stakes.values())
    if (stake, paid) != (spot_stakes, spot_paid):
        return (
            f"stake {stake} and paid {paid} cents are not its spots' {spot_stakes} and {spot_paid}"
        )
    return None


def refused(message: Message, alarm: str, why: str) -> Message:
    """``message`` recorded as refused: kind ``refused``, its own kind, body, the alarm and the
    reason inside."""
    body = {"kind": message.kind, "alarm": alarm, "why": why, "body": message.body}
    return replace(message, kind=REFUSED, body=body)


_PROGRESSIVES = ProgressiveBook()


def screen(
    messages: Sequence[Message], book: PayBook, progressives: ProgressiveBook | None = None
) -> list[Message]:
    """The batch with every implausible game or progressive award turned into a refused
    message."""
    out = list(messages)
    for i, m in enumerate(out):
        if m.kind == "game_played":
            problem = game_problem(m.body, book)
            if problem is not None:
                out[i] = refused(m, "implausible_game", problem)
        elif m.kind == "progressive_awarded":
            problem = award_problem(m.body, progressives or _PROGRESSIVES)
            if problem is not None:
                out[i] = refused(m, "implausible_progressive", problem)
    return out
