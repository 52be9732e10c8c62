"""End-to-end plumbing: the host tool and a terminal as real processes on a pty.

:class:`HostTool` runs ``turbokiosk sas host --create-pty --follow`` (the host keeps the pty's
master, the terminal opens its link; it waits up to a second for an answer, so a machine slowed
by a loaded test machine is not taken for a silent one: the 20 ms limit is the benchmark's);
:class:`TerminalProcess` runs :mod:`tests.sas.host.sas_terminal`.  :func:`expected_sas_meters`
is the meter mapping of docs/sas.md computed from ``turbokiosk meters --json``: what every SAS
meter must read, to the cent.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kiosk.host.sas import polls as host_polls
from kiosk.kernel.games.registry import edition_ids
from kiosk.terminal.sas.wire import MeterCode as M

ROOT = Path(__file__).resolve().parents[3]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"}


def _wait_for(what: str, check: Any, timeout: float, proc: subprocess.Popen[Any]) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if proc.poll() is not None:
            raise AssertionError(f"{what}: the process ended ({proc.returncode})")
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(0.02)


class HostTool:
    """``turbokiosk sas host`` following one machine, its records in a CSV file."""

    def __init__(
        self, work: Path, address: int, tickets: Path | None, *extra: str, console: bool = False
    ) -> None:
        self.link = work / f"sas-{address}.tty"
        self.out = work / f"host-{address}.csv"
        argv = [
            sys.executable, "-m", "kiosk", "sas", "host", "--create-pty",
            "--port", str(self.link), "--address", str(address), "--follow",
            "--format", "csv", "--out", str(self.out), "--response-timeout-ms", "1000", *extra,
        ]  # fmt: skip
        if tickets is not None:
            argv += ["--tickets", str(tickets), "--machine", f"machine-{address}"]
        if console:
            argv.append("--commands")
        self.proc = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=ENV,
            stdin=subprocess.PIPE if console else subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        _wait_for("sas host pty", self.link.exists, 20, self.proc)

    def records(self) -> list[dict[str, str]]:
        """Every row written so far."""
        if not self.out.exists():
            return []
        with self.out.open(newline="") as stream:
            return list(csv.DictReader(stream))

    def last_values(self) -> dict[tuple[str, str], str]:
        """The newest value of each (poll, field) read."""
        return {
            (r["source"], r["name"]): r["value"] for r in self.records() if r["kind"] == "meter"
        }

    def sweeps_done(self) -> int:
        """How many sweeps were read to their end."""
        return sum(1 for r in self.records() if r["kind"] == "sweep")

    def command(self, line: str) -> None:
        """One console line (the tool runs with ``--commands``)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, kind: str, name: str, timeout: float = 20.0) -> dict[str, str]:
        """The first record of ``kind`` and ``name`` (waiting for it)."""
        deadline = time.monotonic() + timeout
        while True:
            for record in self.records():
                if record["kind"] == kind and record["name"] == name:
                    return record
            assert time.monotonic() < deadline, f"no {kind} {name} within {timeout} s"
            time.sleep(0.05)

    def sweep(self, settle: object = None, timeout: float = 20.0) -> None:
        """Ask for a sweep now (SIGUSR1) and wait until it was read to its end; ``settle`` is
        called while waiting (an in-process terminal pumps its runtime there)."""
        done = self.sweeps_done()
        self.proc.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + timeout
        while self.sweeps_done() <= done:
            assert time.monotonic() < deadline, "the sweep did not finish"
            if callable(settle):
                settle()
            else:
                time.sleep(0.05)

    def stop(self) -> tuple[int, str]:
        """SIGTERM; (exit status, standard error)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            _, err = self.proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        return self.proc.returncode, err


class TerminalProcess:
    """A terminal with its SAS link (tests/sas/host/sas_terminal.py), driven line by line."""

    def __init__(self, data_dir: Path, port: Path, address: int, *, serial: bool = False) -> None:
        argv = [
            sys.executable, "-m", "tests.sas.host.sas_terminal", "--data-dir", str(data_dir),
            "--sas-port", str(port), "--address", str(address),
        ]  # fmt: skip
        if serial:
            argv.append("--serial")
        self.data_dir = data_dir
        self.proc = subprocess.Popen(
            argv, cwd=ROOT, env=ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        line = self._line(120)
        assert line.startswith("ready "), line
        self.ready: dict[str, Any] = json.loads(line[6:])

    def _line(self, timeout: float) -> str:
        assert self.proc.stdout is not None
        import select

        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            raise AssertionError(f"terminal: no answer within {timeout} s")
        line = self.proc.stdout.readline()
        if not line:
            raise AssertionError(f"terminal ended ({self.proc.wait(5)})")
        return line.strip()

    def do(self, command: str, timeout: float = 300) -> dict[str, Any]:
        """Send one command; its result (AssertionError on ``error``)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        line = self._line(timeout)
        word, _, payload = line.partition(" ")
        assert word == "ok", f"{command}: {line}"
        result: dict[str, Any] = json.loads(payload)
        return result

    def kill(self) -> None:
        """SIGKILL, as a power cut."""
        self.proc.kill()
        self.proc.wait(10)

    def quit(self) -> None:
        """Stop in order."""
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(30)


def terminal_meters(data_dir: Path, *, in_process: bool = False) -> dict[str, Any]:
    """``turbokiosk meters --json`` of the terminal (running or stopped); ``in_process`` runs
    the same command's code here instead of in a new process."""
    if in_process:
        from kiosk.cli import main

        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["meters", "--json", "--data-dir", str(data_dir)]) == 0
        parsed: dict[str, Any] = json.loads(out.getvalue())
        return parsed
    done = subprocess.run(
        [sys.executable, "-m", "kiosk", "meters", "--json", "--data-dir", str(data_dir)],
        cwd=ROOT, env=ENV, capture_output=True, text=True, check=True,
    )  # fmt: skip
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def expected_sas_meters(report: Mapping[str, Any]) -> dict[tuple[str, str], int]:
    """(poll, field) -> the value every SAS meter must read, from the terminal's meters."""
    m: dict[str, int] = {k: int(v) for k, v in report["lifetime"].items()}

    def get(name: str) -> int:
        return m.get(name, 0)

    credits = int(report["credits"][0])
    cancelled = get("tickets_out") + get("handpaid_cancelled_credits")
    drop = get("bills_in") + get("tickets_in")
    single = {
        "cancelled_credits": cancelled,
        "coin_in": get("coin_in"),
        "coin_out": get("coin_out"),
        "drop": drop,
        "jackpot": get("handpaid_jackpots"),
        "games_played": get("games_played"),
        "games_won": get("games_won"),
        "games_lost": get("games_lost"),
    }
    polls = {
        "send_cancelled_credits": "cancelled_credits",
        "send_coin_in": "coin_in",
        "send_coin_out": "coin_out",
        "send_drop": "drop",
        "send_jackpot": "jackpot",
        "send_games_played": "games_played",
        "send_games_won": "games_won",
        "send_games_lost": "games_lost",
    }
    out: dict[tuple[str, str], int] = {(poll, f): single[f] for poll, f in polls.items()}
    out[("send_current_credits", "current_credits")] = credits
    out[("send_total_bills", "total_bills_dollars")] = get("bills_in") // 100
    out[("send_credit_amount_of_bills", "credit_amount_of_bills")] = get("bills_in")
    for name in ("cancelled_credits", "coin_in", "coin_out", "drop", "jackpot", "games_played"):
        out[("send_meters_10_to_15", name)] = single[name]
        if name != "cancelled_credits":
            out[("send_meters_11_to_15", name)] = single[name]
    for name in ("coin_in", "coin_out", "drop", "jackpot", "games_played", "games_won"):
        out[("send_meters", name)] = single[name]
    out[("send_meters", "slot_door_opened")] = get("door_opens")
    out[("send_meters", "power_reset")] = get("power_resets")
    bills = {1: 100, 5: 500, 10: 1000, 20: 2000, 50: 5000, 100: 10000}
    for dollars, cents in bills.items():
        out[("send_bill_meters", f"bills_{dollars}")] = get(f"bills_in.{cents}")
        out[(f"send_bill_meter_{dollars}", f"bills_{dollars}")] = get(f"bills_in.{cents}")
    codes: dict[int, int] = {
        M.TOTAL_COIN_IN: get("coin_in"),
        M.TOTAL_COIN_OUT: get("coin_out"),
        M.TOTAL_JACKPOT: get("handpaid_jackpots"),
        M.TOTAL_HANDPAID_CANCELLED_CREDITS: get("handpaid_cancelled_credits"),
        M.TOTAL_CANCELLED_CREDITS: cancelled,
        M.GAMES_PLAYED: get("games_played"),
        M.GAMES_WON: get("games_won"),
        M.GAMES_LOST: get("games_lost"),
        M.TOTAL_CREDITS_FROM_BILLS_ACCEPTED: get("bills_in"),
        M.CURRENT_CREDITS: credits,
        M.TOTAL_CASHABLE_TICKET_IN_CENTS: get("tickets_in"),
        M.TOTAL_CASHABLE_TICKET_OUT_CENTS: get("tickets_out"),
        M.TOTAL_CASHABLE_TICKET_IN_COUNT: get("tickets_in_count"),
        M.TOTAL_CASHABLE_TICKET_OUT_COUNT: get("tickets_out_count"),
        M.TOTAL_TICKET_IN_CREDITS: get("tickets_in"),
        M.TOTAL_TICKET_OUT_CREDITS: get("tickets_out"),
        M.TOTAL_WON_CREDITS: get("coin_out") + get("handpaid_jackpots"),
        M.TOTAL_HANDPAID_CREDITS: get("handpaid_cancelled_credits") + get("handpaid_jackpots"),
        M.TOTAL_DROP: drop,
        M.BILLS_1: get("bills_in.100"),
        M.BILLS_5: get("bills_in.500"),
        M.BILLS_10: get("bills_in.1000"),
        M.BILLS_20: get("bills_in.2000"),
        M.BILLS_50: get("bills_in.5000"),
        M.BILLS_100: get("bills_in.10000"),
    }
    out[("send_handpaid_cancelled_credits", "handpaid_cancelled_credits")] = get(
        "handpaid_cancelled_credits"
    )
    for poll, groups in (
        ("send_selected_meters", host_polls.SWEEP_SELECTED),
        ("send_extended_meters", host_polls.SWEEP_EXTENDED),
        ("send_extended_meters_alt", host_polls.SWEEP_EXTENDED[:1]),
    ):
        for code in {code for group in groups for code in group}:
            if code in codes:
                out[(poll, M(code).name.lower())] = codes[code]
    return out


def game_meters(report: Mapping[str, Any]) -> dict[int, dict[str, int]]:
    """Per SAS game number (the editions in registry order): coin in, coin out, played."""
    m: dict[str, int] = {k: int(v) for k, v in report["lifetime"].items()}
    out: dict[int, dict[str, int]] = {}
    for number, edition in enumerate(edition_ids(), 1):
        prefix = f"game.{edition}."
        out[number] = {
            suffix: sum(
                v for k, v in m.items() if k.startswith(prefix) and k.endswith("." + suffix)
            )
            for suffix in ("in", "out", "played")
        }
    return out
