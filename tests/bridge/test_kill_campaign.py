"""The bridge kill campaign: the ID-003 acceptor and the TCL printer simulators, their two
bridges and a terminal, all real processes on ptys, SIGKILLed at random instants and started
again while notes go in and vouchers come out, the terminal reporting to the accounting host
(``turbokiosk host serve``, a process of its own, over gRPC with mutual TLS).  At the end the
acceptor's cash box, both bridges' journals, the printer's record, the terminal's journal and
the host agree to the cent: every note in the cash box credited once and reported once, every
voucher presented paid out once and known to the host as printed, and the credits left are the
difference.

``BRIDGE_CAMPAIGN_KILLS`` kills in all (default 200) under ``-m bridge_campaign``
(``tox -e bridge-campaign``); the default run keeps a small one."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from kiosk.host.accounting.db import SqliteHostDb
from kiosk.terminal.app.peripherals import (
    SimulatedPeripherals,
    spawn_bridge,
    spawn_native_simulator,
    start_simulated_peripherals,
    wait_ready,
)
from kiosk.terminal.core import events as e
from kiosk.terminal.devices.sim.program import control
from kiosk.terminal.hostlink import pki
from kiosk.terminal.store.journal import Journal
from kiosk.terminal.store.reader import current_state, read_transaction
from tests.helpers.campaign_progress import campaign_progress
from tests.helpers.host_checks import disagreements, enroll

READY_SECONDS = 60.0
NOTES = (100, 500, 1000, 2000, 5000)
TERMINAL = "TK-B"


class Campaign:
    def __init__(self, base: Path, seed: int) -> None:
        self.base = base
        self.rng = random.Random(seed)
        self.sims: SimulatedPeripherals = start_simulated_peripherals(
            base, timeout=READY_SECONDS, validator="id003", printer="tcl"
        )
        self.directory = self.sims.directory
        self.terminal: subprocess.Popen[bytes] | None = None
        self.host: subprocess.Popen[bytes] | None = None
        self.kills: Counter[str] = Counter()
        self.host_events = 0
        self.host_dir = base / "host"
        pki.ensure_pki(self.host_dir / "pki", (TERMINAL,))
        enroll(self.host_dir / "host.sqlite3", (TERMINAL,))
        self.address = self.start_host()
        self.start_terminal()

    def start_host(self) -> str:
        """``turbokiosk host serve`` on a free loopback port; the address it serves on."""
        log = open(self.base / "host.log", "ab")  # noqa: SIM115 - handed to the child
        self.host = subprocess.Popen(
            [
                *(sys.executable, "-m", "kiosk", "host", "serve"),
                *("--host-dir", str(self.host_dir), "--listen", "127.0.0.1:0"),
                *("--meter-period", "2"),
            ],
            stdout=subprocess.PIPE,
            stderr=log,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        log.close()
        assert self.host.stdout is not None
        line = self.host.stdout.readline().decode()  # printed once the port is open
        assert line.startswith("host: serving on "), line
        return line.split()[3]

    def terminal_command(self, *extra: str) -> list[str]:
        return [
            *(sys.executable, "-m", "tests.bridge.campaign_terminal"),
            *(str(self.base / "terminal"), str(self.directory), str(self.rng.randrange(2**32))),
            *("--host", self.address, "--pki", str(self.host_dir / "pki")),
            *("--terminal", TERMINAL, *extra),
        ]

    def start_terminal(self) -> None:
        log = open(self.base / "terminal.log", "ab")  # noqa: SIM115 - handed to the child
        self.terminal = subprocess.Popen(
            self.terminal_command(), stdout=log, stderr=log, cwd=Path(__file__).parents[2]
        )
        log.close()

    def insert(self) -> None:
        note = self.rng.choice(NOTES)
        with contextlib.suppress(OSError):  # the acceptor is being restarted
            control(self.sims.controls["bill-validator"], f"insert {note}", 2.0)

    def kill(self, what: str) -> None:
        self.kills[what] += 1
        if what == "terminal":
            assert self.terminal is not None
            self.terminal.send_signal(signal.SIGKILL)
            self.terminal.wait()
            self.start_terminal()
            return
        process = self.sims.processes[what]
        process.send_signal(signal.SIGKILL)
        process.wait()
        if what in ("bill-validator", "printer"):  # the native simulators
            protocol = "id003" if what == "bill-validator" else "tcl"
            proc, ready = spawn_native_simulator(protocol, self.directory)
        else:
            device = what.removesuffix("-bridge")
            protocol = "id003" if device == "bill-validator" else "tcl"
            proc, ready = spawn_bridge(device, protocol, self.directory)
        self.sims.processes[what] = proc
        self.sims.controls[what] = wait_ready(proc, ready, READY_SECONDS)["control"]

    def run(self, kills: int) -> None:
        """Between two kills, 1.5 to 5 s of notes (one every 0.2 to 0.6 s) while the terminal
        cashes out now and then; then one process killed at that instant."""
        victims = [
            "bill-validator",
            "bill-validator-bridge",
            "printer",
            "printer-bridge",
            "terminal",
        ]
        progress = campaign_progress("bridge kill campaign", kills, "kills")
        for done in range(kills):
            until = time.monotonic() + self.rng.uniform(1.5, 5.0)
            while time.monotonic() < until:
                self.insert()
                time.sleep(self.rng.uniform(0.2, 0.6))
            self.kill(self.rng.choice(victims))
            progress.update(done + 1)
        progress.close()
        for _ in range(3):
            self.insert()
            time.sleep(0.5)

    def settle(self) -> None:
        """Let everything finish (no kills), then stop the terminal in order."""
        deadline = time.monotonic() + 90
        while not self.quiet():
            assert time.monotonic() < deadline, "nothing settles"
            assert self.terminal is not None
            if self.terminal.poll() is not None:  # it was not killed: it died
                log = (self.base / "terminal.log").read_text(errors="replace")[-3000:]
                raise AssertionError(f"the terminal exited by itself: {log}")
            time.sleep(1.0)
        time.sleep(2.0)
        assert self.terminal is not None
        self.terminal.send_signal(signal.SIGTERM)
        self.terminal.wait(30)
        drained = subprocess.run(
            self.terminal_command("--drain"),
            capture_output=True,
            cwd=Path(__file__).parents[2],
            timeout=180,
        )
        assert drained.returncode == 0 and b"drained" in drained.stdout, (
            drained.stdout[-2000:],
            drained.stderr[-3000:],
        )

    def status(self, what: str) -> dict[str, Any]:
        process = self.sims.processes[what]
        if process.poll() is not None:
            log = self.directory / f"{'id003' if what == 'bill-validator' else what}.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise AssertionError(f"{what} exited with {process.returncode}: {tail}")
        reply = control(self.sims.controls[what], "status", 5.0)
        data: dict[str, Any] = json.loads(reply[3:])
        return data

    def quiet(self) -> bool:
        acceptor = self.status("bill-validator")
        bridge = self.status("bill-validator-bridge")
        printer = self.status("printer-bridge")
        return (
            acceptor["path"] is None
            and bridge["escrow"] is None
            and not bridge["unacked"]
            and printer["printing"] is None
        )

    def check(self) -> None:
        acceptor = _json(
            self.directory / "id003" / "id003.json", {"lifetime": {"notes": [0, 0]}, "path": None}
        )
        tcl = _json(self.directory / "tcl-printer" / "tcl-printer.json", {"printed": {}})
        bridge_bv = _memory(self.directory / "bill-validator" / "bridge-validator.sqlite")
        bridge_pr = _memory(self.directory / "printer" / "bridge-printer.sqlite")
        journal = Journal(self.base / "terminal", readonly=True)
        try:
            with read_transaction(journal):
                rows = [row.event for row in journal.rows(after=0)]
        finally:
            journal.close()
        stacked = [ev.value for ev in rows if isinstance(ev, e.BillStacked)]
        paid = [ev for ev in rows if isinstance(ev, e.VoucherPrinted)]
        numbers = [ev.validation_number for ev in paid]
        assert len(numbers) == len(set(numbers)), "a voucher paid out twice"
        count, value = acceptor["lifetime"]["notes"]
        assert (len(stacked), sum(stacked)) == (count, value), "journal != cash box"
        assert bridge_bv["lifetime"]["notes"] == [count, value], "bridge != cash box"
        assert sorted(numbers) == sorted(tcl["printed"]), "journal != vouchers presented"
        assert sorted(numbers) == sorted(bridge_pr["printed"]), "journal != the bridge's record"
        presented = sorted(
            p.name[:18] for p in (self.directory / "tcl-printer" / "vouchers").glob("*[0-9].png")
        )
        assert presented == sorted(numbers)
        assert acceptor["path"] is None and bridge_bv["escrow"] is None
        self.check_host(count, value, {ev.validation_number: ev.value for ev in paid})
        self.figures = {
            "kills": dict(self.kills),
            "notes": count,
            "cents_in": value,
            "vouchers": len(numbers),
            "cents_out": sum(ev.value for ev in paid),
            "host_events": self.host_events,
        }

    def check_host(self, notes: int, cents: int, vouchers: dict[str, int]) -> None:
        """The host's records: every journaled report once, its newest meters the journal's,
        the notes it was told of the cash box's, the vouchers it knows printed the printer's."""
        journal = Journal(self.base / "terminal", readonly=True)
        try:
            meters = current_state(journal).state.lifetime.as_dict()
        finally:
            journal.close()
        db = SqliteHostDb(self.host_dir / "host.sqlite3")
        try:
            problems = disagreements(self.base / "terminal", db, TERMINAL, meters)
            assert not problems, problems
            told = [r.body["value_cents"] for r in db.events(TERMINAL, "bill_stacked", 10**9)]
            assert (len(told), sum(told)) == (notes, cents), "host != cash box"
            assert meters["bills_in"] == cents, "journal's meter != cash box"
            printed = {
                v.validation_number: v.value_cents
                for v in db.vouchers(terminal_id=TERMINAL, last=10**9)
                if v.state not in ("pending", "voided")
            }
            assert printed == vouchers, "host != vouchers printed"
            assert meters["tickets_out"] == sum(vouchers.values()), "journal's meter != vouchers"
            self.host_events = len(db.events(TERMINAL, last=10**9))
        finally:
            db.close()

    def close(self) -> None:
        for process in (self.terminal, self.host):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
        self.sims.stop()


def _json(path: Path, default: dict[str, Any]) -> dict[str, Any]:
    """A simulator's memory (none yet: nothing happened to it)."""
    if not path.exists():
        return default
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _memory(path: Path) -> dict[str, Any]:
    db = sqlite3.connect(path)
    try:
        (body,) = db.execute("SELECT body FROM memory WHERE id = 1").fetchone()
    finally:
        db.close()
    data: dict[str, Any] = json.loads(body)
    return data


def run_campaign(base: Path, kills: int, seed: int) -> dict[str, Any]:
    campaign = Campaign(base, seed)
    try:
        campaign.run(kills)
        campaign.settle()
        campaign.check()
    finally:
        campaign.close()
    return campaign.figures


def test_a_small_kill_campaign(tmp_path: Path) -> None:
    figures = run_campaign(tmp_path, kills=3, seed=2025)
    assert sum(figures["kills"].values()) == 3
    assert figures["notes"] > 0 and figures["host_events"] > 0


@pytest.mark.bridge_campaign
@pytest.mark.timeout(4 * 3600)
def test_the_kill_campaign(tmp_path: Path) -> None:
    kills = int(os.environ.get("BRIDGE_CAMPAIGN_KILLS", "200"))
    figures = run_campaign(tmp_path, kills=kills, seed=int(time.time()))
    print(json.dumps(figures))
    assert sum(figures["kills"].values()) == kills
