"""Simulators started by the kiosk end when the kiosk ends, even by SIGKILL (no orphans)."""

import json
import os
import signal
import subprocess
import sys
import time

PARENT = """
import json, sys, time
from pathlib import Path
from kiosk.terminal.app.peripherals import start_simulated_peripherals
sims = start_simulated_peripherals(Path(sys.argv[1]))
print(json.dumps([p.pid for p in sims.processes.values()]), flush=True)
time.sleep(600)
"""


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as fh:  # a zombie is as good as gone
        return fh.read().split()[2] != "Z"


def test_simulators_stop_when_their_parent_is_killed(tmp_path):
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    assert parent.stdout is not None
    pids = json.loads(parent.stdout.readline())
    assert len(pids) == 2
    assert all(_alive(pid) for pid in pids)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(pid) for pid in pids):
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in pids)
