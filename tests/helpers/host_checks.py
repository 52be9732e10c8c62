"""Checks shared by the link tests and the kill campaign: does the host agree with the terminal?"""

from __future__ import annotations

from pathlib import Path

from kiosk.host.accounting.db import HostDb, now_ms, open_db
from kiosk.terminal.core import events as e
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.state import TerminalState
from kiosk.terminal.hostlink.messages import event_body
from kiosk.terminal.store.journal import Journal

_STATE = TerminalState(TerminalConfig())


def journal_reports(journal: Journal) -> list[tuple[int, str]]:
    """(journal seq, message kind) of every journaled event the host is told of."""
    out = []
    for row in journal.rows():
        mapped = event_body(row.event, _STATE)
        if mapped is not None:
            out.append((row.seq, mapped[0]))
    return out


def disagreements(
    data_dir: Path, db: HostDb, terminal_id: str, meters: dict[str, int]
) -> list[str]:
    """Every way the host's records differ from the terminal's journal (empty: they agree)."""
    journal = Journal(data_dir, readonly=True)
    problems: list[str] = []
    try:
        expected = journal_reports(journal)
        rows = db.events(terminal_id, last=10**9)
        got = sorted((r.journal_seq, r.kind) for r in rows)
        if len(set(got)) != len(got):
            problems.append("the host recorded an event twice")
        if got != sorted(expected):
            missing = sorted(set(expected) - set(got))[:5]
            extra = sorted(set(got) - set(expected))[:5]
            problems.append(f"events differ: missing {missing}, extra {extra}")
        if db.latest_meters(terminal_id) != meters:
            problems.append("the host's newest meter snapshot is not the terminal's meters")
        problems += _voucher_disagreements(journal, db, terminal_id)
    finally:
        journal.close()
    return problems


def _voucher_disagreements(journal: Journal, db: HostDb, terminal_id: str) -> list[str]:
    problems = []
    redeemed: dict[str, int] = {}
    for row in journal.rows():
        ev = row.event
        if isinstance(ev, e.VoucherPrinted | e.VoucherFailed):
            record = db.voucher(ev.validation_number)
            if record is None or record.value_cents != ev.value:
                problems.append(f"voucher {ev.validation_number}: host has {record}")
            elif isinstance(ev, e.VoucherFailed) and record.state != "voided":
                problems.append(f"voucher {ev.validation_number} failed but is {record.state}")
            elif isinstance(ev, e.VoucherPrinted) and record.state in ("pending", "voided"):
                problems.append(f"voucher {ev.validation_number} printed but {record.state}")
        elif isinstance(ev, e.TicketRedeemed):
            redeemed[ev.validation_number] = redeemed.get(ev.validation_number, 0) + 1
            record = db.voucher(ev.validation_number)
            if record is None or (record.state, record.holder) != ("redeemed", terminal_id):
                problems.append(f"ticket {ev.validation_number} credited but host has {record}")
    problems += [f"ticket {n} credited {k} times" for n, k in redeemed.items() if k > 1]
    for record in db.vouchers(state="redeemed", last=10**9):
        if record.holder == terminal_id and record.validation_number not in redeemed:
            problems.append(f"host says {record.validation_number} redeemed, never credited")
    return problems


def enroll(records: HostDb | str | Path, names: tuple[str, ...]) -> None:
    """Enrol ``names`` in a host's registry (its records, or where they are: created there when
    missing), as ``turbokiosk host terminals enroll`` does."""
    from kiosk.host.accounting import registry

    db = open_db(records) if isinstance(records, str | Path) else records
    try:
        with db.transaction() as tx:  # one transaction however many (a floor's thousands)
            for name in names:
                registry.set_state(tx, name, registry.ENROLLED, now_ms(), "test")
    finally:
        if db is not records:
            db.close()


def enroll_pki(records: HostDb | str | Path, pki_dir: Path) -> None:
    """Enrol every terminal whose certificate ``pki_dir`` holds (a floor's terminals)."""
    enroll(records, tuple(sorted(p.stem for p in pki_dir.glob("TK-*.crt"))))
