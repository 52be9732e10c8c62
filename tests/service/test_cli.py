"""``turbokiosk service`` as a technician over SSH would run it: a separate process."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.terminal.service import audit_log
from kiosk.terminal.store.reader import current_state, open_readonly
from tests.helpers.cli_process import REPO, turbokiosk

HOLD_TERMINAL = """
import sys
from kiosk.terminal.app.wiring import build_terminal
terminal = build_terminal(sys.argv[1])
terminal.runtime.power_up()
print("ready", flush=True)
sys.stdin.read()
"""


class Service:
    """``turbokiosk service`` run in this process, standard input given as text."""

    def __init__(self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
        self.capsys, self.monkeypatch = capsys, monkeypatch

    def __call__(self, data_dir: Path, *args: str, stdin: str) -> tuple[int, str, str]:
        self.monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        code = main(["service", "--data-dir", str(data_dir), *args])
        out = self.capsys.readouterr()
        return code, out.out, out.err


@pytest.fixture
def service(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Service:
    return Service(capsys, monkeypatch)


@pytest.fixture
def data_dir(tmp_path: Path, service: Service) -> Path:
    """A stopped terminal whose technician and operator PINs were changed from the factory's."""
    path = tmp_path / "terminal"
    code, out, err = service(path, "--role", "technician", stdin="2222\n2468\n2468\nstatus\nexit\n")
    assert code == 0, err
    assert "factory PIN: choose a new one" in err
    assert "Stopped by: service" in out
    code, out, err = service(path, "--role", "operator", "status", stdin="3333\n1357\n1357\n")
    assert code == 0, err
    return path


@pytest.fixture
def running(data_dir: Path) -> Iterator[subprocess.Popen[str]]:
    """The terminal running in another process, holding its data directory."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD_TERMINAL, str(data_dir)],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    yield proc
    assert proc.stdin is not None
    proc.stdin.close()
    proc.wait(timeout=30)


def test_scripted_commands_on_a_stopped_terminal(data_dir: Path, service: Service) -> None:
    code, out, err = service(data_dir, "--role", "technician", "--json", "meters", stdin="2468\n")
    assert code == 0, err
    assert json.loads(out)["data"]["lifetime"]["power_resets"] == 1  # reading powers nothing up
    code, out, err = service(data_dir, "--role", "operator", "set", "max_wager=25", stdin="1357\n")
    assert code == 0, err
    assert out.strip() == "max_wager: $100.00 -> $25.00"
    code, out, _ = service(data_dir, "--role", "operator", "set", "max_wager=600", stdin="1357\n")
    assert code == 1
    assert out.strip() == "refused: max_wager: must not exceed table_max"
    code, out, _ = service(data_dir, "--role", "operator", "set", "wager=1", stdin="1357\n")
    assert code == 2 and "not a field the operator sets" in out
    code, _, err = service(data_dir, "--role", "operator", "status", stdin="0000\n")
    assert code == 3 and "wrong PIN (2 more before a lock-out)" in err
    code, out, _ = service(data_dir, "--role", "technician", "period-reset", stdin="2468\n")
    assert code == 1 and "needs the operator role" in out
    with open_readonly(data_dir) as journal:
        actions = [(e.record["action"], e.record["outcome"]) for e in audit_log.entries(journal)]
        assert audit_log.verify(journal) == len(actions)
    assert actions[:6] == [
        ("exit", "ok"),
        ("period_reset", "refused"),
        ("enter", "ok"),
        ("enter", "refused"),
        ("exit", "ok"),
        ("enter", "ok"),
    ]


def test_a_running_terminal_is_never_written(
    data_dir: Path, running: subprocess.Popen[str], service: Service
) -> None:
    code, _, err = service(data_dir, "--role", "operator", "set", "venue=X", stdin="1357\n")
    assert code == 4
    assert f"is running (process {running.pid} holds" in err
    assert "touchscreen service menu" in err
    code, out, _ = service(data_dir, "--role", "technician", "meters", stdin="2468\n")
    assert code == 0 and "Meters of terminal TK-0001" in out
    code, out, err = service(
        data_dir, "--role", "operator", stdin="1357\nstatus\nset venue=X\nexit\n"
    )
    assert code == 0
    assert "Read-only: the terminal of" in err
    assert "refused: Change configuration changes the terminal" in out
    assert "Stopped by: nothing (play allowed)" in out  # it plays on
    # and from a separate process, as over SSH
    args = ("service", "--data-dir", str(data_dir), "--role", "operator", "period-reset")
    refused = turbokiosk(*args, stdin="1357\n")
    assert refused.returncode == 4 and "is running" in refused.stderr


def test_locked_out_role(data_dir: Path, service: Service) -> None:
    for _ in range(3):
        service(data_dir, "--role", "technician", "status", stdin="1111\n")
    code, _, err = service(data_dir, "--role", "technician", "status", stdin="2468\n")
    assert code == 3 and "technician is locked out for" in err


def test_wrong_pins_on_a_stopped_terminal_are_journaled(data_dir: Path, service: Service) -> None:
    """A read-only command on a stopped terminal journals its PIN outcome under the lock."""
    for _ in range(3):
        code, _, _ = service(data_dir, "--role", "operator", "status", stdin="0000\n")
        assert code == 3
    with open_readonly(data_dir) as journal:
        kinds = [row.event.type_name for row in journal.rows()]
        state = current_state(journal).state
    assert kinds.count("PinRefused") == 3 and kinds.count("PinLockedOut") == 1
    assert state.pins is not None and state.pins["operator"]["failures"] == 3
    assert state.lifetime["power_resets"] == 1  # nothing was powered up for it


def test_wrong_pins_count_while_another_process_is_the_terminal(
    data_dir: Path, running: subprocess.Popen[str], service: Service
) -> None:
    """The running terminal owns the journal: wrong PINs typed here are counted from the
    append-only audit log, so SSH gives no more guesses than the touchscreen."""
    for left in (2, 1):
        code, _, err = service(data_dir, "--role", "operator", "status", stdin="0000\n")
        assert code == 3 and f"wrong PIN ({left} more before a lock-out)" in err
    code, _, err = service(data_dir, "--role", "operator", "status", stdin="0000\n")
    assert code == 3 and "wrong PIN: operator is locked out for 30 s" in err
    code, _, err = service(data_dir, "--role", "operator", "status", stdin="1357\n")
    assert code == 3 and "operator is locked out for" in err and "after 3 wrong PINs" in err
    with open_readonly(data_dir) as journal:
        assert "PinRefused" not in [row.event.type_name for row in journal.rows()]
        marked = [
            entry
            for entry in audit_log.entries(journal, action="enter", role="operator")
            if entry.record["args"].get("unjournaled_failure")
        ]
    assert len(marked) == 3
    # the other roles are not affected
    code, out, _ = service(data_dir, "--role", "technician", "meters", stdin="2468\n")
    assert code == 0 and "Meters of terminal TK-0001" in out
    assert running.poll() is None


def test_factory_pins_through_a_real_process_on_a_new_terminal(tmp_path: Path) -> None:
    data_dir = str(tmp_path / "new")
    args = ("service", "--data-dir", data_dir, "--role", "attendant")
    first = turbokiosk(*args, stdin="1111\n4680\n4680\nstatus\nexit\n")
    assert first.returncode == 0, first.stderr
    assert "factory PIN: choose a new one" in first.stderr
    assert "Stopped by: service" in first.stdout
    again = turbokiosk(*args, "status", stdin="4680\n")
    assert again.returncode == 0, again.stderr
    factory = turbokiosk(*args, "status", stdin="1111\n")
    assert factory.returncode == 3 and "wrong PIN" in factory.stderr
    assert "Traceback" not in first.stderr + again.stderr + factory.stderr
