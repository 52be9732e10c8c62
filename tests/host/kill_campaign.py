"""Kill the host and the terminal at random instants during robot play; then compare records.

The host is ``turbokiosk host serve`` (SQLite) and the terminal is
:mod:`tests.helpers.robot_terminal`, both real processes on loopback, each SIGKILLed at random
and started again.  At the end the terminal drains its outbox and the host's records are
compared with the terminal's journal: every event once, the newest meters, every voucher.
"""

from __future__ import annotations

import os
import random
import select
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from kiosk.host.accounting.db import SqliteHostDb
from kiosk.host.accounting.records import TerminalAlarm, VoucherAuditEntry
from kiosk.terminal.core import events as e
from kiosk.terminal.hostlink import pki
from kiosk.terminal.store.journal import Journal
from kiosk.terminal.store.reader import current_state
from tests.helpers.campaign_progress import campaign_progress
from tests.helpers.host_checks import disagreements, enroll

TERMINAL = "TK-A"


@dataclass
class CampaignResult:
    """What a campaign did and found."""

    host_kills: int = 0
    terminal_kills: int = 0
    games: int = 0
    notes: int = 0
    vouchers_printed: int = 0
    tickets_redeemed: int = 0
    host_events: int = 0
    withdrawn_heads: int = 0  # kills between signing and committing (decision 0037)
    doors_opened: set[int] = field(default_factory=set)  # journal seqs of doors opened
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Campaign:
    """The two processes and the kill loop."""

    def __init__(self, root: Path, seed: int) -> None:
        self.root = root
        self.rand = random.Random(seed)
        self.host_dir = root / "host"
        self.data_dir = root / "terminal"
        pki.ensure_pki(self.host_dir / "pki", (TERMINAL,))
        enroll(self.host_dir / "host.sqlite3", (TERMINAL,))
        self.address = f"127.0.0.1:{_free_port()}"
        self.env = {**os.environ, "PYTHONHASHSEED": "0"}
        self.host: subprocess.Popen[bytes] | None = None
        self.terminal: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start_host(self) -> None:
        self.host = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kiosk",
                "host",
                "serve",
                "--host-dir",
                str(self.host_dir),
                "--listen",
                self.address,
                "--meter-period",
                "2",
                # the robot plays flat out, far faster than a person: no throttle here
                "--report-rate",
                "100000",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=self.env,
        )

    def _terminal_command(self, *extra: str) -> list[str]:
        self.starts += 1
        return [
            sys.executable,
            "-m",
            "tests.helpers.robot_terminal",
            "--data-dir",
            str(self.data_dir),
            "--host",
            self.address,
            "--pki",
            str(self.host_dir / "pki"),
            "--terminal",
            TERMINAL,
            "--seed",
            str(self.rand.randrange(2**32)),
            *extra,
        ]

    def start_terminal(self) -> None:
        """Start the robot terminal; mostly wait until it plays, so that a loaded machine (a
        slow start-up) still gets rounds played between kills; sometimes not, so that kills
        land in the power-up and its recovery too."""
        self.terminal = subprocess.Popen(
            self._terminal_command(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=self.env,
        )
        if self.rand.random() < 0.75:
            self._wait_ready(self.terminal)

    def _wait_ready(self, process: subprocess.Popen[bytes], seconds: float = 120.0) -> None:
        """Wait for the terminal's ``ready`` line (after its power-up and recovery)."""
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], seconds)
        line = process.stdout.readline() if ready else b""
        if line.strip() != b"ready":
            self._kill(process)
            err = process.stderr.read().decode() if process.stderr else ""
            raise AssertionError(f"the terminal did not come up ({line!r}):\n{err[-3000:]}")

    @staticmethod
    def _kill(process: subprocess.Popen[bytes] | None) -> None:
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)
        if process is not None:
            process.wait()

    def _check_alive(self) -> None:
        if self.terminal is not None and self.terminal.poll() is not None:
            err = self.terminal.stderr.read().decode() if self.terminal.stderr else ""
            raise AssertionError(f"the terminal process died by itself:\n{err[-3000:]}")

    def run(self, kills_each: int, pause: tuple[float, float] = (0.3, 2.0)) -> CampaignResult:
        result = CampaignResult()
        start = time.monotonic()
        self.start_host()
        self.start_terminal()
        progress = campaign_progress("host kill campaign", 2 * kills_each, "kills")
        try:
            while result.host_kills < kills_each or result.terminal_kills < kills_each:
                progress.update(result.host_kills + result.terminal_kills)
                time.sleep(self.rand.uniform(*pause))
                self._check_alive()
                kill_host = result.terminal_kills >= kills_each or (
                    result.host_kills < kills_each and self.rand.random() < 0.5
                )
                if kill_host:
                    self._kill(self.host)
                    result.host_kills += 1
                    if self.rand.random() < 0.3:
                        time.sleep(self.rand.uniform(0, 1.0))  # the host stays down a while
                    self.start_host()
                else:
                    self._kill(self.terminal)
                    result.terminal_kills += 1
                    self.start_terminal()
            self._kill(self.terminal)
            drain = subprocess.run(
                self._terminal_command("--drain"), capture_output=True, env=self.env, timeout=120
            )
            if drain.returncode != 0 or b"drained" not in drain.stdout.splitlines()[-1:]:
                result.problems.append(f"drain failed: {drain.stdout!r} {drain.stderr[-2000:]!r}")
        finally:
            progress.close()
            self._kill(self.terminal)
            self._kill(self.host)
        result.seconds = time.monotonic() - start
        self._compare(result)
        return result

    def _compare(self, result: CampaignResult) -> None:
        journal = Journal(self.data_dir, readonly=True)
        try:
            state = current_state(journal).state
            meters = state.lifetime.as_dict()
            if state.critical is not None:  # e.g. a false "behind the host's anchor"
                result.problems.append(f"terminal locked up: {state.critical}")
            for row in journal.rows():
                ev = row.event
                result.games += isinstance(ev, e.RoundSettled)
                result.notes += isinstance(ev, e.BillStacked)
                result.vouchers_printed += isinstance(ev, e.VoucherPrinted)
                result.tickets_redeemed += isinstance(ev, e.TicketRedeemed)
                result.withdrawn_heads += isinstance(ev, e.HeadWithdrawn)
                if isinstance(ev, e.DoorChanged) and ev.open:
                    result.doors_opened.add(row.seq)
        finally:
            journal.close()
        db = SqliteHostDb(self.host_dir / "host.sqlite3")
        try:
            result.host_events = len(db.events(TERMINAL, last=10**9))
            result.problems += disagreements(self.data_dir, db, TERMINAL, meters)
            reserved = db.vouchers(state="reserved", last=10**9)
            result.problems += [f"voucher left reserved: {v}" for v in reserved]
            # a kill between signing and committing is a power cut the signer saw: each
            # withdrawn head is one floor alarm, as it must be; any other alarm is a problem
            withdrawn = db.terminal_alarms(TERMINAL, "alarm", "head_withdrawn", last=10**6)
            if len(withdrawn) != result.withdrawn_heads:
                result.problems.append(
                    f"{len(withdrawn)} head_withdrawn alarms at the host for "
                    f"{result.withdrawn_heads} withdrawn heads in the journal"
                )
            # a door the robot opened outside service is a floor alarm too (issue 26), one per
            # door opened in the journal: an alarm for a door the journal never opened is not
            doors = db.terminal_alarms(TERMINAL, "alarm", "door_open", last=10**6)
            result.problems += [
                f"door alarm for no door opened: {a.detail}"
                for a in doors
                if a.detail.get("journal_seq") not in result.doors_opened
            ]
            alarms: list[TerminalAlarm | VoucherAuditEntry] = [
                *(
                    a
                    for a in db.terminal_alarms(TERMINAL, "alarm")
                    if a.kind not in ("head_withdrawn", "door_open")
                ),
                *db.voucher_audit(severity="alarm"),
            ]
            result.problems += [f"host alarm: {a.kind} {a.detail}" for a in alarms]
            if db.acknowledged_head(TERMINAL) is None:
                result.problems.append("the host acknowledged no journal head")
        finally:
            db.close()
