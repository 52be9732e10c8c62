"""Ctrl-C (a real SIGINT to a real process) ends ``turbokiosk run`` and ``turbokiosk play`` in
order: one line on standard error, exit status 130, the journal closed, nothing lost."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.helpers.cli_process import turbokiosk
from tests.helpers.process_groups import journal_closed, turbokiosk_in_its_group

INTERRUPTED = 130


def _catches_sigint(pid: int) -> bool:
    """Whether the process has a handler for SIGINT (Linux: ``SigCgt`` in /proc/PID/status)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) >> (signal.SIGINT - 1) & 1)


def _wait_until_python_runs(process: subprocess.Popen[str]) -> None:
    """Wait until the interpreter has installed its SIGINT handler: before that no program can
    answer a Ctrl-C (the kernel ends it silently), and a loaded machine can take longer than
    the test's delay to get there."""
    deadline = time.monotonic() + 60
    while not _catches_sigint(process.pid):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the interpreter did not start in 60 s"
        time.sleep(0.005)


def test_ctrl_c_stops_the_kiosk_in_order(tmp_path: Path) -> None:
    data = tmp_path / "terminal"
    dump = tmp_path / "dump.json"
    kiosk = turbokiosk_in_its_group("run", "--data-dir", str(data), "--dump-screen", str(dump))
    try:
        deadline = time.monotonic() + 120
        while not dump.exists():  # the screen is up: devices linked, host reached
            assert kiosk.poll() is None, kiosk.communicate()
            assert time.monotonic() < deadline, "the kiosk did not come up"
            time.sleep(0.2)
        peripherals = json.loads((data / "peripherals.json").read_text())
        assert peripherals["controls"]
        os.killpg(kiosk.pid, signal.SIGINT)  # as Ctrl-C: to the whole foreground group
        out, err = kiosk.communicate(timeout=60)
    finally:
        if kiosk.poll() is None:
            kiosk.kill()
            kiosk.wait()
    assert "Traceback" not in err + out, err
    assert err.splitlines() == ["turbokiosk: interrupted (Ctrl-C): the kiosk stopped in order"]
    assert kiosk.returncode == INTERRUPTED
    assert not (data / "peripherals.json").exists()  # the simulator programs were stopped,
    for log in (data / "peripherals").glob("*.log"):  # by the kiosk, not by the Ctrl-C
        assert "interrupted" not in log.read_text(), log
    journal_closed(data)


def test_ctrl_c_at_the_prompt_ends_play_with_the_credits_kept(tmp_path: Path) -> None:
    data = tmp_path / "terminal"
    play = turbokiosk_in_its_group("play", "--data-dir", str(data), stdin=subprocess.PIPE)
    assert play.stdin is not None and play.stdout is not None
    try:
        play.stdin.write("bill 20\nstatus\n")
        play.stdin.flush()
        seen = ""
        while "$20.00" not in seen:  # the note is credited; the session waits for a line
            line = play.stdout.readline()
            assert line, "play ended early"
            seen += line
        time.sleep(0.3)
        os.killpg(play.pid, signal.SIGINT)
        out, err = play.communicate(timeout=60)
    finally:
        if play.poll() is None:
            play.kill()
            play.wait()
    assert "Traceback" not in err + out, err
    assert err.splitlines() == [
        "turbokiosk: interrupted (Ctrl-C): the session ended, the journal is closed"
    ]
    assert play.returncode == INTERRUPTED
    journal_closed(data)
    meters = json.loads(turbokiosk("meters", "--data-dir", str(data), "--json").stdout)
    assert sum(meters["credits"]) == 2000, meters


def test_ctrl_c_on_any_other_command_is_one_line_and_130() -> None:
    """The safety net: ``par-sheet`` has no handler of its own (seconds of counting)."""
    sheet = turbokiosk_in_its_group("par-sheet", "stadium-3cp")
    try:
        time.sleep(1.5)  # in the middle of the counting
        os.killpg(sheet.pid, signal.SIGINT)
        out, err = sheet.communicate(timeout=60)
    finally:
        if sheet.poll() is None:
            sheet.kill()
            sheet.wait()
    assert "Traceback" not in err + out, err
    assert err.splitlines() == ["turbokiosk: interrupted (Ctrl-C)"]
    assert sheet.returncode == INTERRUPTED


def test_ctrl_c_ends_a_soak_between_games_with_its_report(tmp_path: Path) -> None:
    """``soak``: the game under way ends, the report of the games played is printed, 130;
    its journal is closed on the way out and audits clean."""
    data = tmp_path / "terminal"
    soak = turbokiosk_in_its_group("soak", "--data-dir", str(data), "--games", "1000000")
    assert soak.stdout is not None
    try:
        assert soak.stdout.readline().startswith("ready: seed")
        time.sleep(0.5)  # in the middle of the games
        os.killpg(soak.pid, signal.SIGINT)
        out, err = soak.communicate(timeout=60)
    finally:
        if soak.poll() is None:
            soak.kill()
            soak.wait()
    assert "Traceback" not in err + out, err
    last = out.splitlines()[-1]
    assert "invariants held; INTERRUPTED after" in last and "of 1000000 games" in last
    assert soak.returncode == INTERRUPTED
    journal_closed(data)


@pytest.mark.parametrize("delay", [0.8, 2.0])
def test_ctrl_c_while_the_kiosk_starts(delay: float, tmp_path: Path) -> None:
    """Whenever it comes (importing Kivy, powering up, starting the simulators and the host,
    building the window): one line, 130, nothing left running, the store (if made) closed."""
    data = tmp_path / "terminal"
    kiosk = turbokiosk_in_its_group("run", "--data-dir", str(data))
    try:
        _wait_until_python_runs(kiosk)  # the delay counts from there
        time.sleep(delay)
        os.killpg(kiosk.pid, signal.SIGINT)
        out, err = kiosk.communicate(timeout=60)
    finally:
        if kiosk.poll() is None:
            kiosk.kill()
            kiosk.wait()
    assert "Traceback" not in err + out, err
    (line,) = err.splitlines()
    assert line.startswith("turbokiosk: interrupted (Ctrl-C)"), line
    assert kiosk.returncode == INTERRUPTED
    assert not (data / "peripherals.json").exists()
    if (data / "terminal.sqlite3").exists():
        journal_closed(data)


@pytest.mark.parametrize(
    ("args", "unit"),
    [(["rng", "dump", "--stream"], "bytes"), (["rng", "deal", "--games", "100000000"], "decks")],
)
def test_ctrl_c_ends_rng_output_after_a_whole_chunk(
    tmp_path: Path, args: list[str], unit: str
) -> None:
    """``rng dump`` / ``rng deal``: Ctrl-C stops after the chunk under way is written; the
    count on standard error is what the file holds, exit 130."""
    out_file = tmp_path / "out.bin"
    rng = turbokiosk_in_its_group(*args, "--out", str(out_file))
    try:
        deadline = time.monotonic() + 30
        while (not out_file.exists() or out_file.stat().st_size == 0) and (
            time.monotonic() < deadline
        ):
            time.sleep(0.05)
        os.killpg(rng.pid, signal.SIGINT)
        out, err = rng.communicate(timeout=60)
    finally:
        if rng.poll() is None:
            rng.kill()
            rng.wait()
    assert "Traceback" not in err + out, err
    assert rng.returncode == INTERRUPTED
    last = err.splitlines()[-1]
    assert last.startswith("turbokiosk rng: interrupted after ") and unit in last
    count = int(last.split("after ")[1].split(" ")[0].replace(",", ""))
    data = out_file.read_bytes()
    assert (len(data) if unit == "bytes" else data.count(b"\n")) == count


@pytest.mark.slow
def test_ctrl_c_at_the_terminal_stops_a_simulation_on_every_core() -> None:
    """Ctrl-C reaches the whole group (parent and workers): the workers ignore it, the parent
    keeps the chunks done, prints their report and exits 130."""
    sim = turbokiosk_in_its_group(
        "simulate", "turbo-football", "--games", "1000000000", "--seed", "1", "--jobs", "2",
        "--format", "json",
    )  # fmt: skip
    assert sim.stderr is not None
    try:
        assert sim.stderr.readline().startswith("simulate: ")  # a progress line: chunks done
        os.killpg(sim.pid, signal.SIGINT)
        out, err = sim.communicate(timeout=60)
    finally:
        if sim.poll() is None:
            sim.kill()
            sim.wait()
    assert "Traceback" not in err + out, err
    assert sim.returncode == INTERRUPTED
    report = json.loads(out)
    assert report["interrupted"] is True
    assert 0 < report["games"] < 1_000_000_000
    assert err.splitlines()[-1].startswith("turbokiosk simulate: interrupted after ")
