"""The audit: everything that must reconcile in a terminal's non-volatile memory.

It reads a data directory (of a running or a stopped terminal) read-only and checks:

1. what power-up verifies (:mod:`kiosk.terminal.store.verify`): SQLite's own integrity check, every
   row's checksum, the journal's hash chain, the signer's signatures of the head and of every
   snapshot, and the store's head against the signer's anchor;
2. replaying the whole journal from the genesis snapshot reproduces every stored snapshot and
   the state recovery would load (latest snapshot plus the rows after it);
3. the credit audit: credits equal money in minus money out plus won minus wagered;
4. the meters agree with each other: per-spot and per-edition meters sum to the totals, games
   won + lost + pushed = games played, notes by denomination sum to bills in, period <= lifetime
   (unless reset);
5. recall holds the last games, contiguous, each equal to what the journal says;
6. the event log rows equal their journal rows;
7. no device records dispute stands (a device's money record that disagreed with the journal,
   not yet confirmed by the host nor ended by a RAM clear; decision 0038).  The devices' own
   records are judged against the journal by ``turbokiosk audit``
(kiosk/terminal/runtime/device_audit.py)
   when it can read them.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from kiosk.terminal.core import events as ev
from kiosk.terminal.core.core import TerminalCore
from kiosk.terminal.core.meters import METER_MODULUS, Meters
from kiosk.terminal.core.state import Phase, RoundState, TerminalState
from kiosk.terminal.core.tilts import DISPUTE_TILTS
from kiosk.terminal.signer.client import Signer, SignerStatus, signer_for
from kiosk.terminal.store.faults import describe
from kiosk.terminal.store.journal import IntegrityError, Journal, StoreError, canonical
from kiosk.terminal.store.reader import current_state, read_transaction
from kiosk.terminal.store.verify import UnsignedStoreError, Verified, verify_store


@dataclass
class AuditReport:
    """Findings of an audit; ``ok`` only when there are no problems."""

    checks: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    state: TerminalState | None = None
    epoch: int = 0  # the store's epoch (0: written before the signer)

    @property
    def ok(self) -> bool:
        """True when everything reconciles."""
        return not self.problems

    def passed(self, what: str) -> None:
        """Record a check that held."""
        self.checks.append(what)

    def failed(self, what: str) -> None:
        """Record a problem."""
        self.problems.append(what)

    def to_text(self) -> str:
        """Readable report."""
        lines = [f"ok   {c}" for c in self.checks] + [f"FAIL {p}" for p in self.problems]
        lines.append("AUDIT PASSED" if self.ok else f"AUDIT FAILED ({len(self.problems)})")
        return "\n".join(lines)


def rebuild(journal: Journal) -> tuple[TerminalState, TerminalState]:
    """(state replayed from genesis, state as recovery loads it); checks snapshots on the way."""
    snapshots = dict(journal.db.execute("SELECT seq, body FROM snapshots"))
    core = TerminalCore(TerminalState.from_snapshot(journal.genesis()))
    for row in journal.rows():
        core.apply([row.event])
        stored = snapshots.get(row.seq)
        if stored is not None and stored != canonical(core.state.to_snapshot()):
            raise IntegrityError(f"snapshot after row {row.seq} differs from the replayed state")
    return core.state, current_state(journal).state


def audit(data_dir: Path, signer: Signer | None = None) -> AuditReport:
    """Audit a data directory read-only (its signer: ``--signer``'s, else the development one)."""
    from kiosk.terminal.store.lock import in_use

    report = AuditReport()
    try:
        journal = Journal(data_dir, readonly=True)
    except Exception as exc:
        report.failed(f"cannot open the store: {describe(exc)}")
        return report
    asked = signer if signer is not None else signer_for(data_dir, create=False)
    try:
        with read_transaction(journal):  # one consistent view while the terminal writes on
            journal.head()  # the view is fixed now: the signer's anchor is read after it
            try:
                status: SignerStatus | None = asked.status()
                unavailable = None
            except StoreError as exc:
                status, unavailable = None, str(exc)
            _audit(journal, report, status, unavailable, running=in_use(data_dir))
    except (sqlite3.Error, OSError, StoreError) as exc:  # a corrupt page, a truncated file...
        report.failed(f"integrity: the store is unreadable: {describe(exc)}")
    finally:
        journal.close()
        if signer is None:
            asked.close()
    return report


def _audit(
    journal: Journal,
    report: AuditReport,
    status: SignerStatus | None,
    unavailable: str | None,
    running: bool,
) -> None:
    """``unavailable``: why the signer could not be asked (a fault unless the store is one
    of the previous release, which has nothing to verify against it)."""
    try:
        try:
            verified: Verified | None = verify_store(
                journal,
                None if status is None else status.public_key,
                None if status is None else status.anchor,
                running=running,
            )
        except UnsignedStoreError:
            if status is not None and status.anchor.epoch:
                raise
            verified = None  # what power-up does with it: adopt it once, as it stands
        if verified is None:
            report.passed(
                "integrity: quick_check ok, chain of {journal} journal rows, checksums of "
                "{snapshots} snapshots, {recall} recall records, {event_log} log entries, "
                "{outbox} outbox messages".format(**journal.verify_tables())
            )
            report.passed(
                "signatures: none (a store of the previous release): the next power-up "
                "adopts it, signed as it stands, once this audit's replay holds"
            )
        else:
            if unavailable is not None:
                report.failed(
                    f"signer: {unavailable}: signatures present but not verified, no anchor"
                )
            _signed(report, verified, status)
        replayed, recovered = rebuild(journal)
    except (IntegrityError, ev.EventDecodeError, KeyError, ValueError) as exc:
        report.failed(f"integrity: {exc}")
        return
    if verified is not None and canonical(recovered.to_snapshot()) != canonical(
        verified.state.to_snapshot()
    ):
        report.failed("replay: the newest signed snapshot and its rows differ from recovery's")
        return
    report.state = recovered
    report.epoch = journal.epoch() or 0
    if canonical(replayed.to_snapshot()) == canonical(recovered.to_snapshot()):
        report.passed("replay: full replay from genesis equals the recovered state and snapshots")
    else:
        report.failed("replay: full replay from genesis differs from the recovered state")
    if recovered.critical is not None:
        report.failed(f"terminal is in critical memory error: {recovered.critical}")
    for code, tilt in sorted(recovered.tilts.items()):
        if code in DISPUTE_TILTS:  # a device's money record disputes the journal
            report.failed(f"device records: {code} stands unconfirmed: {tilt.reason}")
    audit = TerminalCore(recovered).audit_credits()
    if audit is None:
        report.passed(f"credits: {sum(recovered.credits)} cents = money in - out + won - bet")
    else:
        report.failed(f"credits: {audit}")
    hp = recovered.handpay
    pending = hp.value if hp is not None and hp.kind == "jackpot" else 0
    problems = meter_problems(recovered.lifetime, "lifetime", pending)
    for problem in problems:
        report.failed(problem)
    if not problems:
        report.passed("meters: per-spot, per-edition, per-note and game counts reconcile")
    _check_recall(journal, recovered, report)
    _check_event_log(journal, report)


def _signed(report: AuditReport, verified: Verified, status: SignerStatus | None) -> None:
    report.passed(
        "integrity: quick_check ok, chain of {journal} journal rows, checksums of "
        "{snapshots} snapshots, {recall} recall records, {event_log} log entries, "
        "{outbox} outbox messages".format(**verified.counts)
    )
    if status is not None:
        report.passed(
            f"signatures: head {verified.head.short()} and {verified.snapshots} snapshots "
            f"signed by the signer's key {status.fingerprint}"
        )
        anchor = status.anchor
        notes = "; ".join(verified.notes)
        report.passed(
            f"anchor: the store's head agrees with the signer's (epoch {anchor.epoch} row "
            f"{anchor.seq})" + (f": {notes}" if notes else "")
        )


def meter_problems(m: Meters, label: str, pending_jackpot: int = 0) -> list[str]:
    """Disagreements among one meter set (``pending_jackpot``: a jackpot handpay not yet paid)."""
    problems = []
    values = m.as_dict()

    def total(prefix: str, suffix: str = "") -> int:
        return (
            sum(v for k, v in values.items() if k.startswith(prefix) and k.endswith(suffix))
            % METER_MODULUS
        )

    def check(name: str, a: int, b: int) -> None:
        if a % METER_MODULUS != b % METER_MODULUS:
            problems.append(f"{label} meters: {name}: {a} != {b}")

    check("coin_in = sum of wager_in.*", m["coin_in"], total("wager_in."))
    check(
        "coin_out + handpaid jackpots = sum of wager_out.*",
        m["coin_out"] + m["handpaid_jackpots"] + pending_jackpot,
        total("wager_out."),
    )
    check("coin_in = sum of game.*.in", m["coin_in"], total("game.", ".in"))
    check(
        "games played = won + lost + pushed",
        m["games_played"],
        m["games_won"] + m["games_lost"] + m["games_pushed"],
    )
    check("games played = sum of game.*.played", m["games_played"], total("game.", ".played"))
    notes = sum(int(k.split(".")[1]) * v for k, v in values.items() if k.startswith("bills_in."))
    check("bills in = sum of notes by denomination", m["bills_in"], notes)
    check("bill count = sum of notes counted", m["bills_in_count"], total("bills_in."))
    return problems


def _check_recall(journal: Journal, state: TerminalState, report: AuditReport) -> None:
    settled: dict[int, ev.RoundSettled] = {}
    for row in journal.rows():
        if isinstance(row.event, ev.RoundSettled):
            settled[row.event.game_number] = row.event
    records = journal.recall(last=journal.recall_limit)
    numbers = [r["game_number"] for r in records]
    last_settled = max(settled) if settled else 0
    expected = list(range(last_settled, max(0, last_settled - journal.recall_limit), -1))
    if numbers != expected:
        report.failed(f"recall: holds games {numbers[:3]}... expected {expected[:3]}...")
        return
    for record in records:
        event = settled[record["game_number"]]
        try:
            settlement = RoundState.from_dict(record).settlement
        except (KeyError, TypeError, ValueError) as exc:
            report.failed(f"recall: game {record['game_number']} is unreadable: {exc}")
            return
        if settlement != event.seats:
            report.failed(f"recall: game {record['game_number']} differs from the journal")
            return
    in_progress = state.phase not in (Phase.IDLE, Phase.RESULT, Phase.WAGERING, Phase.CASHOUT)
    report.passed(
        f"recall: {len(records)} games, contiguous up to game {last_settled}, equal to the "
        f"journal" + (" (a game is in progress)" if in_progress else "")
    )


def _check_event_log(journal: Journal, report: AuditReport) -> None:
    bodies = dict(journal.db.execute("SELECT seq, body FROM journal").fetchall())
    n = 0
    for seq, body in journal.db.execute("SELECT seq, body FROM event_log"):
        if bodies.get(seq) != body:
            report.failed(f"event log: entry {seq} differs from the journal")
            return
        n += 1
    report.passed(f"event log: {n} entries equal their journal rows")
