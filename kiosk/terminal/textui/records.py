"""The terminal's records for technicians: meters, recall and the event log, as text or JSON.

Every function here is pure (records in, text or JSON-ready dicts out); the ``cli_*`` modules
open the store read-only and print.
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

from kiosk.kernel.cards import names
from kiosk.kernel.time_text import local_time
from kiosk.terminal.core.state import RoundState, TerminalState
from kiosk.terminal.presentation.money import dollars
from kiosk.terminal.store.journal import Journal, JournalRow, StoreError
from kiosk.terminal.store.reader import open_readonly
from kiosk.terminal.textui.show import round_lines

#: meters counted in cents; every other meter is a count
MONEY_METERS = frozenset(
    {
        "coin_in",
        "coin_out",
        "bills_in",
        "tickets_in",
        "tickets_out",
        "handpaid_cancelled_credits",
        "handpaid_jackpots",
    }
)
#: event fields holding cents
MONEY_FIELDS = frozenset({"value", "extra_wager"})


def is_money(meter: str) -> bool:
    """Whether a meter counts cents (money meters) rather than events (counts)."""
    if meter in MONEY_METERS or meter.startswith(("wager_in.", "wager_out.")):
        return True
    return meter.startswith("game.") and meter.endswith((".in", ".out"))


def meter_value(meter: str, value: int) -> str:
    """``$1,234.56`` for money, ``1,234`` for counts."""
    return dollars(value) if is_money(meter) else f"{value:,}"


def _group(meter: str) -> str:
    return meter.split(".", 1)[0] if "." in meter else ""


def _order(core_first: list[str]) -> Callable[[str], tuple[int, str, int, str]]:
    """Core meters in their own order, then by group, notes by value, the rest by name."""
    rank = {m: i for i, m in enumerate(core_first) if "." not in m}

    def key(meter: str) -> tuple[int, str, int, str]:
        if meter in rank:
            return (rank[meter], "", 0, "")
        rest = meter.split(".", 1)[1] if "." in meter else meter
        number = int(rest) if rest.isdigit() else -1
        return (len(rank), _group(meter), number, rest)

    return key


def meters_text(
    state: TerminalState, seq: int, period_since: int, data_dir: Path | None = None
) -> list[str]:
    """The meter report: a header, the credits, then name / lifetime / period per meter."""
    cfg = state.config
    where = f", data {data_dir}" if data_dir is not None else ""
    lines = [
        f"Meters of terminal {cfg.terminal_id} ({cfg.venue}){where}",
        f"As of journal row {seq}"
        + (f", {local_time(state.last_event_at)}" if state.last_event_at else ""),
        f"Period since {local_time(period_since)}" if period_since else "Period: since set-up",
        f"Credits on the terminal: {dollars(sum(state.credits))}",
        "",
    ]
    lifetime, period = state.lifetime.as_dict(), state.period.as_dict()
    meters = sorted({*lifetime, *period}, key=_order(list(lifetime)))
    rows = [
        (m, meter_value(m, lifetime.get(m, 0)), meter_value(m, period.get(m, 0))) for m in meters
    ]
    name_w = max(len("Meter"), *(len(r[0]) for r in rows))
    life_w = max(len("Lifetime"), *(len(r[1]) for r in rows))
    per_w = max(len("Period"), *(len(r[2]) for r in rows))
    lines.append(f"{'Meter':<{name_w}}  {'Lifetime':>{life_w}}  {'Period':>{per_w}}")
    previous = ""
    for meter, life, per in rows:
        if _group(meter) != previous:
            lines.append("")
            previous = _group(meter)
        lines.append(f"{meter:<{name_w}}  {life:>{life_w}}  {per:>{per_w}}")
    return lines


def meters_json(state: TerminalState, seq: int, period_since: int) -> dict[str, Any]:
    """Machine-readable meters: money in integer cents, ``units`` naming which is which."""
    lifetime, period = state.lifetime.as_dict(), state.period.as_dict()
    every = sorted({*lifetime, *period})
    return {
        "terminal_id": state.config.terminal_id,
        "venue": state.config.venue,
        "journal_seq": seq,
        "as_of": state.last_event_at,
        "period_since": period_since,
        "credits": list(state.credits),
        "lifetime": lifetime,
        "period": period,
        "units": {m: "cents" if is_money(m) else "count" for m in every},
    }


def period_meters_since(journal: Journal, created: int) -> int:
    """When the period meters were last reset (or the store was created)."""
    resets = journal.event_log(kinds=["PeriodMetersReset"], last=1)
    return resets[0].event.at if resets else created


def recall_text(
    records: Iterable[Mapping[str, Any]], in_progress: Mapping[str, Any] | None
) -> list[str]:
    """Recalled games (recall records), newest first, card by card; the game in progress on
    top."""
    lines: list[str] = []
    if in_progress is not None:
        lines += ["IN PROGRESS", *round_lines(RoundState.from_dict(in_progress)), ""]
    for record in records:
        lines += [*round_lines(RoundState.from_dict(record), record.get("credits_after")), ""]
    if not lines:
        lines.append("No game has been played on this terminal yet.")
    return lines


def named(record: Mapping[str, Any]) -> dict[str, Any]:
    """A recall record with its cards also by name (``card_names``)."""
    return {
        **record,
        "card_names": {
            "first": names(record["first"]).split(),
            "seat_cards": [names(cards).split() for cards in record["seat_cards"]],
            "second_shared": names(record["second_shared"]).split(),
        },
    }


def in_progress_record(state: TerminalState) -> dict[str, Any] | None:
    """The round being played (cards dealt so far), or None between rounds."""
    if state.round is None or state.round.settled_at:
        return None
    return state.round.to_dict()


def _field_text(name: str, value: Any) -> str:
    if name in MONEY_FIELDS and isinstance(value, int):
        return f"{name}={dollars(value)}"
    if isinstance(value, bool):
        return f"{name}={'yes' if value else 'no'}"
    return f"{name}={value}"


def event_details(kind: str, data: Mapping[str, Any]) -> str:
    """The fields of a logged event, money in dollars; a configuration change as its diff."""
    if kind == "ConfigChanged":
        before, after = data["before"], data["after"]
        changes = [
            f"{k}: {before.get(k)!r} -> {after.get(k)!r}"
            for k in sorted(after)
            if before.get(k) != after.get(k)
        ]
        return f"by={data['by']} " + ("; ".join(changes) or "no change")
    return " ".join(_field_text(k, v) for k, v in data.items() if k != "at" and v != "")


def events_text(rows: Iterable[JournalRow]) -> list[str]:
    """One line per event, newest first: journal row, local time, kind, details."""
    lines = [
        f"{row.seq:>7}  {local_time(row.event.at)}  {row.event.type_name:<18} "
        f"{event_details(row.event.type_name, asdict(row.event))}".rstrip()
        for row in rows
    ]
    return lines or ["No events logged."]


def events_json(rows: Iterable[JournalRow]) -> list[dict[str, Any]]:
    """Logged events, newest first: journal row, kind, epoch ms and the event's fields."""
    out = []
    for row in rows:
        data = asdict(row.event)
        at = data.pop("at")
        out.append({"seq": row.seq, "kind": row.event.type_name, "at": at, "data": data})
    return out


#: the exit status of a store power-up refuses (the lockup status, decision 0011)
EXIT_LOCKED = 3


def run_on_store(command: str, data_dir: Path, read: Callable[[Journal], int]) -> int:
    """Run ``read`` on the data directory's store, read-only in one read transaction.

    A missing or unreadable store is reported on stderr with exit status 1.  A store the
    terminal's power-up would refuse (:func:`kiosk.terminal.store.verdict.refusal`) is said to be so
    first, in one line on stderr; what it holds follows, unverified, and the exit status is
    :data:`EXIT_LOCKED` (decision 0040).
    """
    from kiosk.terminal.store.verdict import refusal

    try:
        with open_readonly(data_dir) as journal:
            refused = refusal(journal, data_dir)
            if refused is None:
                return read(journal)
            print(
                f"turbokiosk {command}: the terminal's power-up refuses this store"
                f" (critical memory lockup): {' '.join(refused.split())}; what it holds follows,"
                " unverified (see 'turbokiosk audit')",
                file=sys.stderr,
                flush=True,
            )
            with contextlib.suppress(StoreError, ValueError, KeyError, sqlite3.Error):
                read(journal)  # as far as it can be read: the line above has said why not
            return EXIT_LOCKED
    except (StoreError, ValueError, KeyError, sqlite3.Error) as exc:
        print(f"turbokiosk {command}: {exc} (see 'turbokiosk audit')", file=sys.stderr)
        return 1
