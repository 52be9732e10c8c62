"""``turbokiosk sim essp|ebds`` (kiosk.tools.cli.sim_native): bad input, one line; a run serves a
host."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import time
import tty
from pathlib import Path

import pytest

from kiosk.terminal.bridge.cashbox import CashboxRecord
from kiosk.terminal.bridge.ebds.host import EbdsValidator
from kiosk.terminal.bridge.essp.host import EsspValidator
from kiosk.terminal.bridge.native import ItemStacked, NativeValidator, NoteEscrowed
from kiosk.tools.cli.sim_native import main
from tests.bridge.pty_rig import PtyRig


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["essp", "--port", "/dev/null", "--script", "5 bogus"], "unknown action 'bogus'"),
        (["essp", "--port", "/dev/null", "--script", "5 reject zz"], "reject code 'zz'"),
        (["ebds", "--port", "/dev/null", "--script", "x note 5"], "expected 'MS ACTION [ARG]'"),
        (["ebds", "--port", "/dev/null", "--script", "5 note five"], "a value in cents"),
        (["ebds", "--port", "/nonexistent/port"], "no such port"),
        (["essp", "--port", "/nonexistent/dir/p", "--create-pty"], "no directory"),
        (["essp", "--port", "/dev/null", "--record", "/nonexistent/r.json"], "no directory"),
        (["ebds", "--port", "/dev/null", "--create-pty"], "exists and is not a link"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_bad_option_value_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["essp", "--port", "/dev/null", "--duration-ms", "-5"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize(
    ("protocol", "host"),
    [("essp", EsspValidator(poll_interval_ms=50)), ("ebds", EbdsValidator(poll_interval_ms=50))],
)
def test_a_run_serves_a_host_on_its_pty(
    protocol: str, host: NativeValidator, tmp_path: Path
) -> None:
    link, record = tmp_path / "port", tmp_path / "box.json"
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "kiosk.tools.cli.sim_native", protocol, "--port", str(link)),
            *("--create-pty", "--record", str(record), "--script", "1500 note 1000"),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert json.loads(proc.stdout.readline())["protocol"] == protocol
        for _ in range(200):
            if link.exists():
                break
            time.sleep(0.01)
        fd = os.open(link, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(fd)
        rig = PtyRig(host, fd, queue.Queue())
        host.enable((500, 1000), tickets=False)
        assert rig.until(NoteEscrowed, 10) == NoteEscrowed(1000)
        host.stack()
        assert isinstance(rig.until(ItemStacked), ItemStacked)
        os.close(fd)
        proc.terminate()  # SIGTERM: an orderly stop
        out, _ = proc.communicate(timeout=15)
        assert proc.returncode == 0
    finally:
        proc.kill()
        proc.wait()
    assert json.loads(out.splitlines()[-1]) == {"notes": [1000], "tickets": []}
    assert CashboxRecord.from_json(record.read_text()).notes == (1000,)
    assert not link.exists()  # the port went with the simulator
