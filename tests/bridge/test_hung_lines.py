"""No bridge loop spins on a line that says nothing or has hung up (issue 25).

Found with EBDS: a bridge restarted while a note was in escrow never brought its device link up
again and used about half a core.  Two faults: a pty refuses parity and 7-bit characters when
reopened (glibc's ``tcsetattr`` sees Linux keep it at 8N and answers EINVAL), so the restarted
bridge never opened its device again; and while the device did not answer, the sealed link's
``next_deadline`` stayed in the past (its peer never heard, the link time-out counted), so the
loop woke at once, forever.

How a spin is told from a loaded machine: a loop that never sleeps is always runnable, so the
time its thread spends on a CPU *or waiting in a run queue* (``/proc/.../schedstat``) is nearly
the whole wall time however busy the machine is, where CPU time alone shrinks with the load (on
the shared 2-core machine four spinning bridges got 8 % of a core each).  A loop that sleeps
between polls is runnable a small part of the time.  The bound (half the wall time) is a check
that nothing spins, not a performance figure."""

from __future__ import annotations

import contextlib
import os
import pty
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.terminal.app.peripherals import SIMULATORS, pair_simulator, spawn_bridge, wait_ready
from kiosk.terminal.bridge.ebds.host import EbdsValidator
from kiosk.terminal.bridge.essp.host import EsspValidator
from kiosk.terminal.bridge.id003.host import SETTINGS as ID003
from kiosk.terminal.bridge.line import DeviceLine
from kiosk.terminal.bridge.native import SerialSettings

PROTOCOLS = ("id003", "essp", "ebds", "tcl")
#: the share of the wall time a loop may be runnable (on a CPU or queued for one): a spinning
#: loop is runnable all the time, an idle bridge (1 % of a core) a few per cent
SPIN_BOUND = 0.5
MEASURE_SECONDS = 3.0


@pytest.mark.parametrize(
    "settings", [EbdsValidator.settings, ID003, EsspValidator.settings], ids=["7E1", "8E1", "8N2"]
)
def test_a_pty_opens_again_and_again_at_a_protocols_settings(settings: SerialSettings) -> None:
    master, slave = pty.openpty()
    try:
        line = DeviceLine(os.ttyname(slave), settings)
        for _ in range(3):  # a bridge restarted on the same simulator
            assert line.fileno() is not None, line.problem
            line.close()
            line._next_open = 0  # no need to wait the reopening delay
    finally:
        os.close(master)
        os.close(slave)


def test_only_a_pty_loses_its_parity() -> None:
    from kiosk.terminal.bridge.line import is_pty, line_settings

    master, slave = pty.openpty()
    try:
        name = os.ttyname(slave)
        assert is_pty(name) and not is_pty("/dev/null") and not is_pty("/nowhere")
        assert line_settings(name, EbdsValidator.settings) == SerialSettings(9600, "N", 1, 8)
        assert line_settings("/dev/null", EbdsValidator.settings) == EbdsValidator.settings
    finally:
        os.close(master)
        os.close(slave)


def runnable_seconds(task: str) -> float:
    """Time the task (``/proc/PID`` or ``/proc/PID/task/TID``) was on a CPU or queued for one."""
    on_cpu, queued, _ = Path(f"{task}/schedstat").read_text().split()
    return (int(on_cpu) + int(queued)) / 1e9


class HungDevice:
    """A bridge whose device line is a pty nobody answers on (its master held here)."""

    def __init__(self, base: Path, protocol: str) -> None:
        self.directory = base / protocol
        self.directory.mkdir()
        device = "printer" if protocol == "tcl" else "bill-validator"
        pair_simulator(self.directory, device)
        self.master, slave = pty.openpty()
        (self.directory / f"{SIMULATORS[protocol]}.tty").symlink_to(os.ttyname(slave))
        os.close(slave)
        os.set_blocking(self.master, False)
        self.proc, self.ready = spawn_bridge(device, protocol, self.directory)

    def drain(self) -> None:
        """What the bridge sent (polls nobody answers), so its writes never block."""
        if self.master >= 0:
            with contextlib.suppress(OSError):
                os.read(self.master, 65536)

    def hang_up(self) -> None:
        os.close(self.master)
        self.master = -1

    def close(self) -> None:
        if self.master >= 0:
            os.close(self.master)
        self.proc.kill()
        self.proc.wait(10)


@pytest.fixture
def hung(tmp_path: Path) -> Iterator[dict[str, HungDevice]]:
    devices: dict[str, HungDevice] = {}
    try:
        for protocol in PROTOCOLS:
            devices[protocol] = HungDevice(tmp_path, protocol)
        for d in devices.values():
            wait_ready(d.proc, d.ready, 60)
        yield devices
    finally:
        for d in devices.values():
            d.close()


def runnable_shares(devices: dict[str, HungDevice], seconds: float) -> dict[str, float]:
    start = {p: runnable_seconds(f"/proc/{d.proc.pid}") for p, d in devices.items()}
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        for d in devices.values():
            d.drain()
        time.sleep(0.05)
    elapsed = time.monotonic() - t0
    return {
        p: (runnable_seconds(f"/proc/{d.proc.pid}") - start[p]) / elapsed
        for p, d in devices.items()
    }


def test_no_bridge_spins_on_a_silent_or_hung_up_device(hung: dict[str, HungDevice]) -> None:
    """Every protocol's bridge, first with a device that never answers (past every link
    time-out: 2 s), then with the device's line hung up (the pty's other end closed)."""
    deadline = time.monotonic() + 2.5
    while time.monotonic() < deadline:
        for d in hung.values():
            d.drain()
        time.sleep(0.05)
    silent = runnable_shares(hung, MEASURE_SECONDS)
    for d in hung.values():
        d.hang_up()
    hung_up = runnable_shares(hung, MEASURE_SECONDS)
    for d in hung.values():
        assert d.proc.poll() is None, "a bridge died"
    assert max(silent.values()) < SPIN_BOUND, f"silent device, runnable share per bridge: {silent}"
    assert max(hung_up.values()) < SPIN_BOUND, f"hung-up line, runnable share per bridge: {hung_up}"


def test_the_terminals_link_thread_does_not_spin_on_a_silent_device(tmp_path: Path) -> None:
    """The terminal's side of the sealed link (the same ``Link``) on a port nobody answers."""
    from kiosk.terminal.devices.serial_port import LinkChannel

    master, slave = pty.openpty()
    os.set_blocking(master, False)
    channel = LinkChannel(os.ttyname(slave), key=bytes(32), name="silent").start()
    try:
        time.sleep(2.5)  # past the link time-out
        task = f"/proc/self/task/{channel._thread.native_id}"
        c0, t0 = runnable_seconds(task), time.monotonic()
        while time.monotonic() - t0 < MEASURE_SECONDS:
            with contextlib.suppress(OSError):
                os.read(master, 65536)
            time.sleep(0.05)
        share = (runnable_seconds(task) - c0) / (time.monotonic() - t0)
        assert share < SPIN_BOUND, f"the link thread was runnable {share:.0%} of the time"
    finally:
        channel.close()
        os.close(master)
        os.close(slave)
