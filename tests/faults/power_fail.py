"""Power-fail fault injection: SIGKILL a real terminal process at random instants, recover it,
and check that nothing was lost or paid twice.

Used by the fast test in the default run and the 1,000-kill run under ``tox -e slow``.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.core import events as ev
from kiosk.terminal.store.audit import audit
from kiosk.terminal.store.journal import DB_NAME, Journal
from tests.helpers.campaign_progress import campaign_progress


@dataclass
class KillCampaign:
    """Counters of a campaign."""

    kills: int = 0
    restarts: int = 0
    killed_before_ready: int = 0
    games: int = 0
    notes_cents: int = 0
    vouchers: int = 0
    recovery_actions: dict[str, int] = field(default_factory=dict)


def _soak(data_dir: Path, seed: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kiosk",
            "soak",
            "--data-dir",
            str(data_dir),
            "--games",
            "1000000",
            "--seed",
            str(seed),
            "--fault-rate",
            "0.05",
            "--snapshot-every",
            "7",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _classify(action: str) -> str:
    for words, key in (
        ("bill validator", "note in escrow resolved"),
        ("was printed", "voucher printed: credits paid out"),
        ("not printed", "voucher not printed: credits kept"),
        ("decision offered again", "decision offered again"),
        ("dealing completed", "deal completed from the journal"),
        ("never reached the store", "signed head withdrawn (cut between signing and commit)"),
    ):
        if words in action:
            return key
    return action


def check_after_recovery(data_dir: Path, campaign: KillCampaign, last_games: int) -> int:
    """Audit the store as the kill left it, recover in-process, reconcile with the devices."""
    if (data_dir / DB_NAME).exists():  # a kill during the very first start-up leaves none
        before = audit(data_dir)
        assert before.ok, before.to_text()
    terminal = build_terminal(data_dir)
    report = terminal.runtime.power_up()
    assert report.critical is None, report.critical
    for action in report.actions:
        key = _classify(action)
        campaign.recovery_actions[key] = campaign.recovery_actions.get(key, 0) + 1
    campaign.restarts += 1
    state = terminal.runtime.state
    assert terminal.runtime.core.audit_credits() is None
    assert state.cashout is None, "a cash-out was left unresolved"
    assert not state.escrow, "a note was left in escrow"
    # every note in the cash box is credited, every voucher printed has left the credit meter
    assert terminal.simulated.validator.cashbox_total() == state.lifetime["bills_in"]
    printed = terminal.simulated.printer.printed()
    journal_vouchers = {
        row.event.validation_number: row.event.value
        for row in terminal.runtime.journal.rows()
        if isinstance(row.event, ev.VoucherPrinted)
    }
    assert {k: v["value"] for k, v in printed.items()} == journal_vouchers
    assert sum(journal_vouchers.values()) == state.lifetime["tickets_out"]
    games = state.lifetime["games_played"]
    assert games >= last_games, "games played went backwards"
    campaign.games = games
    campaign.notes_cents = state.lifetime["bills_in"]
    campaign.vouchers = len(printed)
    terminal.close()
    after = audit(data_dir)
    assert after.ok, after.to_text()
    return games


def _wait_for_ready(proc: subprocess.Popen[bytes], timeout: float) -> None:
    """Wait for the soak's "ready:" line (recovery done, play about to start).

    A thread reads the output (and keeps draining it, so the soak never blocks on a full pipe).
    """
    ready = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith(b"ready:"):
                ready.set()

    threading.Thread(target=read, daemon=True).start()
    proc.ready_seen = ready  # type: ignore[attr-defined]
    if not ready.wait(timeout):
        raise AssertionError("soak never became ready")


def run_campaign(root: Path, kills: int, seed: int, kills_per_dir: int = 100) -> KillCampaign:
    """Kill the soak robot ``kills`` times at random instants; check after every restart."""
    rand = random.Random(seed)
    campaign = KillCampaign()
    data_dir = root / "t0"
    last_games = 0
    progress = campaign_progress("power-fail kill campaign", kills, "kills")
    for n in range(kills):
        if n and n % kills_per_dir == 0:
            data_dir = root / f"t{n // kills_per_dir}"
            last_games = 0
        proc = _soak(data_dir, rand.randrange(2**31))
        if rand.random() < 0.2:
            # a random instant from the spawn: start-up, recovery or the first games
            time.sleep(rand.uniform(0.0, 1.5))
        else:
            # a random instant of play, however long start-up takes on a loaded machine
            _wait_for_ready(proc, timeout=60.0)
            time.sleep(rand.uniform(0.0, 0.6))
        if proc.poll() is not None:
            out, err = proc.communicate()
            raise AssertionError(f"soak exited early ({proc.returncode}): {err.decode()}")
        os.kill(proc.pid, signal.SIGKILL)
        ready = getattr(proc, "ready_seen", None)
        out = b"" if ready is not None else proc.communicate()[0]
        proc.wait()
        campaign.kills += 1
        if not (ready is not None and ready.is_set()) and b"ready:" not in out:
            campaign.killed_before_ready += 1
        last_games = check_after_recovery(data_dir, campaign, last_games)
        progress.update(campaign.kills)
    progress.close()
    return campaign


def summary(campaign: KillCampaign) -> str:
    """One paragraph for logs and notes."""
    return (
        f"{campaign.kills} SIGKILLs, {campaign.restarts} recoveries checked "
        f"({campaign.killed_before_ready} during start-up or recovery); last directory: "
        f"{campaign.games} games, ${campaign.notes_cents / 100:,.2f} in notes, "
        f"{campaign.vouchers} vouchers; recovery actions: {campaign.recovery_actions}"
    )


def journal_rows(data_dir: Path) -> int:
    """Rows in a data directory's journal."""
    j = Journal(data_dir, readonly=True)
    try:
        return j.head()[0]
    finally:
        j.close()
