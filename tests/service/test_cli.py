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
from kiosk.service import audit_log
from kiosk.store.reader import open_readonly
from tests.cli.conftest import REPO, turbokiosk

HOLD_TERMINAL = """
import sys
from kiosk.app.wiring import build_terminal
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
