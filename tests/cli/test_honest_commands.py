"""The command line tells the truth about a terminal it cannot trust (issue 23, part 7;
decision 0040).  Every case runs ``turbokiosk`` as its own process.

- ``meters``, ``recall`` and ``events`` on a store the terminal's power-up refuses say so
  first, in one line on stderr, and exit with the lockup status (3);
- ``soak`` and ``play`` on a terminal that will not play say why within seconds and exit;
  ``run`` says it at once on stderr and exits 3 when its window closes;
- ``rng dump --bytes`` and ``rng deal --games`` are bounded: above, one line and nothing
  written.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.terminal.cli.guard import EXIT_LOCKED
from kiosk.terminal.cli.rng import MAX_DEAL_GAMES, MAX_DUMP_BYTES
from kiosk.terminal.store.journal import DB_NAME
from tests.helpers.cli_process import REPO, turbokiosk

READERS = ("meters", "recall", "events")
REFUSED = "the terminal's power-up refuses this store"


def soaked(data_dir: Path, games: int = 4, seed: int = 1) -> None:
    done = turbokiosk(
        "soak", "--data-dir", str(data_dir), "--games", str(games), "--seed", str(seed), "--quiet"
    )
    assert done.returncode == 0, done.stderr


def store_files(data_dir: Path) -> list[Path]:
    return sorted(data_dir.glob(DB_NAME + "*"))


def signer_dir(data_dir: Path) -> Path:
    return data_dir.with_name(data_dir.name + ".signer")


def refusal_line(result: subprocess.CompletedProcess[str], command: str) -> str:
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"turbokiosk {command}: "), lines[0]
    return lines[0]


def test_readers_say_first_that_power_up_refuses_an_old_copy_of_the_store(
    tmp_path: Path,
) -> None:
    """The store put back from an older copy (the SD card of yesterday): power-up locks up on
    it (the signer's anchor is ahead); the readers printed its figures and exited 0."""
    data_dir = tmp_path / "terminal"
    soaked(data_dir)
    sound = turbokiosk("meters", "--data-dir", str(data_dir))
    assert (sound.returncode, sound.stderr) == (0, "")  # a sound store: not a word on stderr
    old = tmp_path / "old"
    old.mkdir()
    for f in store_files(data_dir):
        shutil.copy2(f, old / f.name)
    soaked(data_dir, seed=2)
    for f in store_files(data_dir):
        f.unlink()
    for f in old.iterdir():
        shutil.copy2(f, data_dir / f.name)

    for command in READERS:
        shown = turbokiosk(command, "--data-dir", str(data_dir))
        assert shown.returncode == EXIT_LOCKED, (command, shown.stderr)
        line = refusal_line(shown, command)
        assert REFUSED in line and "behind the signer's anchor" in line, line
        assert "unverified" in line and "turbokiosk audit" in line
        assert shown.stdout.strip(), command  # what it holds follows, said to be unverified
    as_json = turbokiosk("meters", "--data-dir", str(data_dir), "--json")
    assert as_json.returncode == EXIT_LOCKED and REFUSED in as_json.stderr


def test_readers_say_first_that_the_signer_is_gone(tmp_path: Path) -> None:
    data_dir = tmp_path / "terminal"
    soaked(data_dir)
    shutil.rmtree(signer_dir(data_dir))
    shown = turbokiosk("recall", "--data-dir", str(data_dir))
    assert shown.returncode == EXIT_LOCKED
    line = refusal_line(shown, "recall")
    assert REFUSED in line and "signer" in line, line
    assert not signer_dir(data_dir).exists()  # asked, never created


def wipe_store_and_signer(data_dir: Path) -> None:
    """Store and signer state both wiped (the files emptied, the key and anchor deleted);
    the devices still count what went through them."""
    for f in store_files(data_dir):
        f.write_bytes(b"")
    for f in signer_dir(data_dir).iterdir():
        f.unlink()


def test_soak_on_a_terminal_that_will_not_play_says_why_within_seconds(tmp_path: Path) -> None:
    data_dir = tmp_path / "terminal"
    soaked(data_dir)
    wipe_store_and_signer(data_dir)
    # it hung before (killed after 90 s); the time-out only bounds a hang, it times nothing
    done = turbokiosk(
        "soak", "--data-dir", str(data_dir), "--games", "5", "--seed", "3", timeout=180
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("soak:")]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("soak: the terminal will not play (after 0 games): "), lines[0]
    assert "bill_validator_reconcile" in lines[0], lines[0]  # the devices' counts say why
    assert "invariants held" not in done.stdout


def test_play_on_a_locked_terminal_exits_without_waiting_for_input(tmp_path: Path) -> None:
    """Standard input stays open (a technician at the keyboard): the session ends at once."""
    data_dir = tmp_path / "terminal"
    soaked(data_dir)
    shutil.rmtree(signer_dir(data_dir))  # power-up: the head's signature does not verify
    play = subprocess.Popen(
        [sys.executable, "-m", "kiosk", "play", "--data-dir", str(data_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    try:
        code = play.wait(timeout=20)
    finally:
        if play.poll() is None:
            play.kill()
        out, err = play.communicate(timeout=10)
    assert code == EXIT_LOCKED, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("turbokiosk play: terminal locked: "), err
    assert "LOCKED: critical_memory_error" in out


def test_run_on_a_locked_terminal_says_why_at_once_and_exits_3(tmp_path: Path) -> None:
    """The kiosk keeps the lockup on its screen (with the service menu's RAM clear) until
    the window closes; the command line hears of it at once, and from the exit status."""
    data_dir = tmp_path / "terminal"
    soaked(data_dir)
    shutil.rmtree(signer_dir(data_dir))
    dump = tmp_path / "screen.json"
    env = {"SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy", "KIVY_NO_ARGS": "1"}
    run = turbokiosk(
        "run",
        "--data-dir",
        str(data_dir),
        "--devices",
        "inprocess",
        "--no-host",
        "--no-simulator",
        "--dump-screen",
        str(dump),
        "--exit-after-dump",
        env=env,
        timeout=120,
    )
    assert run.returncode == EXIT_LOCKED, run.stderr
    assert "Traceback" not in run.stderr
    said = [line for line in run.stderr.splitlines() if line.startswith("turbokiosk run:")]
    assert len(said) == 1 and said[0].startswith("turbokiosk run: terminal locked: "), said
    assert "signature does not verify" in said[0]


@pytest.mark.parametrize(
    ("argv", "bound"),
    [
        (["dump", "--bytes", "100000000000000000000000"], MAX_DUMP_BYTES),
        (["dump", "--bytes", str(MAX_DUMP_BYTES + 1)], MAX_DUMP_BYTES),
        (["deal", "--games", str(MAX_DEAL_GAMES + 1)], MAX_DEAL_GAMES),
    ],
)
def test_rng_output_past_its_bound_is_refused_and_nothing_written(
    tmp_path: Path, argv: list[str], bound: int
) -> None:
    out = tmp_path / "out.bin"
    done = subprocess.run(
        [sys.executable, "-m", "kiosk", "rng", *argv, "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=dict(os.environ),
        timeout=10,  # on main it wrote on (91 MB in 5 s) until stopped
        check=False,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and f"{bound:,}" in lines[0], done.stderr
    assert not out.exists()
    assert f"at most {bound:,}" in turbokiosk("rng", argv[0], "--help").stdout.replace("\n", " ")
