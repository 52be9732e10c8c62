"""The installed terminal booted with systemd as PID 1 (``systemd-nspawn --boot`` of the installed
chroot, in its own network namespace): the hardened kiosk unit, started by systemd with its whole
sandbox, after the signer its unit starts, reaches attract mode with its devices (the simulator
programs on pseudo-terminals at the udev names), its host (``turbokiosk host serve`` inside the
container, on its loopback) and its signer; the running kiosk has no capabilities, no new
privileges, a system call filter, a read-only OS and no view of the signer's key; the signer's
socket is the kiosk's group's only.  A kiosk that keeps failing stops after its start limit and
the out-of-service handler logs one line and puts the reason on the console.

Shares the chroot of test_install_chroot.py (conftest.py); what it changes for the boot (the
host's address, test drop-ins) it puts back.  Needs root and systemd-nspawn (systemd-container).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from kiosk.cli import COMMANDS
from tests.deploy.chroot import TERMINAL, Chroot
from tests.deploy.kit import need_root, need_tool, settings

pytestmark = [pytest.mark.deploy, pytest.mark.slow]

#: The casino's host inside the container (its own network namespace: any port is free).
HOST_PORT = "50051"
UNITS = "etc/systemd/system"
DUMP = "/var/lib/turbokiosk/boot-test/dump.json"
SCREEN = "/run/tk-screen/tty1"
SIGNER_SOCKET = "/run/turbokiosk-signer/signer.sock"
#: The out-of-service handler's instance for the kiosk (OnFailure=...@%n.service).
HANDLER = "turbokiosk-out-of-service@turbokiosk.service.service"


@dataclass
class Booted:
    """A running container: its systemd's PID here, and a way to run commands inside."""

    root: Path
    leader: int
    #: The installed kiosk unit's ExecStart, before the test's drop-ins.
    kiosk: str

    def run(self, command: str, *, timeout: int = 180) -> subprocess.CompletedProcess[str]:
        """``bash -c command`` as root inside the container (all its namespaces)."""
        return subprocess.run(
            [
                "nsenter",
                f"--target={self.leader}",
                "--mount",
                "--uts",
                "--ipc",
                "--net",
                "--pid",
                "--cgroup",
                "--root",
                "--wd",
                "/usr/bin/env",
                "-i",
                "PATH=/usr/sbin:/usr/bin:/sbin:/bin",
                "LANG=C.UTF-8",
                "/bin/bash",
                "-ec",
                command,
            ],
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def ok(self, command: str, *, timeout: int = 180) -> str:
        """Run ``command``; it must succeed; its standard output."""
        result = self.run(command, timeout=timeout)
        assert result.returncode == 0, f"{command}: {result.stdout}{result.stderr}"
        return result.stdout

    def show(self, unit: str, *properties: str) -> dict[str, str]:
        """``systemctl show`` properties of ``unit``."""
        text = self.ok(f"systemctl show {unit} --property={','.join(properties)}")
        return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)

    def wait_for(self, what: str, check: str, *, timeout: float = 120) -> None:
        """Until ``check`` (a shell condition inside) holds."""
        deadline = time.monotonic() + timeout
        while self.run(check, timeout=60).returncode != 0:
            assert time.monotonic() < deadline, f"{what}: not within {timeout} s\n" + self.ok(
                "journalctl -b --no-pager -n 60 -o short-monotonic || true"
            )
            time.sleep(0.5)


def container_leader(nspawn: int) -> int | None:
    """The PID, seen from here, of the container's PID 1 (its systemd): the descendant of the
    ``systemd-nspawn`` process ``nspawn`` that is PID 1 in its own PID namespace."""
    parents: dict[int, int] = {}
    inner: list[int] = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(
                line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line
            )
        except OSError:
            continue
        pid = int(status.parent.name)
        parents[pid] = int(fields.get("PPid", "0"))
        nspids = fields.get("NSpid", "").split()
        if len(nspids) > 1 and nspids[-1] == "1":
            inner.append(pid)
    for pid in inner:
        ancestor = parents.get(pid, 0)
        while ancestor > 1:
            if ancestor == nspawn:
                return pid
            ancestor = parents.get(ancestor, 0)
    return None


def kiosk_command(chroot: Chroot) -> str:
    """The installed kiosk unit's ExecStart, as written (systemd expands its variables)."""
    service = settings(chroot.root / UNITS / "turbokiosk.service")
    (command,) = (v for s, k, v in service if (s, k) == ("Service", "ExecStart"))
    return command


def drop_in(root: Path, unit: str, text: str) -> None:
    """A test drop-in for ``unit`` (removed when the boot fixture ends)."""
    path = root / UNITS / f"{unit}.d/zz-boot-test.conf"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture(scope="module")
def booted(chroot: Chroot, first_install: subprocess.CompletedProcess[str]) -> Iterator[Booted]:
    """The installed chroot booted, the host's address set to the container's loopback (the
    installer run again to render it), the kiosk offscreen and dumping its screen, the out of
    service console a file; the casino's host and the two device simulators running inside."""
    need_root()
    assert first_install.returncode == 0, first_install.stderr
    nspawn = need_tool("systemd-nspawn")
    conf = chroot.root / "etc/turbokiosk/turbokiosk.conf"
    original = conf.read_text()
    conf.write_text(
        re.sub(
            r"(?m)^HOST_PORT=.*$",
            f"HOST_PORT={HOST_PORT}",
            re.sub(r"(?m)^HOST_ADDRESS=.*$", "HOST_ADDRESS=127.0.0.1", original),
        )
    )
    shutil.copytree(chroot.work / "pki", chroot.root / "srv/casino/pki", dirs_exist_ok=True)
    log = chroot.work / "boot.log"
    kiosk = kiosk_command(chroot)
    process: subprocess.Popen[bytes] | None = None
    try:
        rendered = chroot.install()
        assert rendered.returncode == 0, rendered.stderr
        drop_in(
            chroot.root,
            "turbokiosk.service",
            "[Service]\nEnvironment=SDL_VIDEODRIVER=offscreen\n"
            f"ExecStart=\nExecStart={kiosk} --dump-screen {DUMP}\n",
        )
        drop_in(
            chroot.root,
            "turbokiosk-out-of-service@.service",
            f"[Service]\nEnvironment=TURBOKIOSK_OOS_TTY={SCREEN}\n"
            f"ReadWritePaths={Path(SCREEN).parent}\n",
        )
        with log.open("wb") as output:
            process = subprocess.Popen(
                [
                    nspawn,
                    "--quiet",
                    f"--directory={chroot.root}",
                    "--register=no",
                    "--keep-unit",
                    "--private-network",
                    "--boot",
                ],
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 60
        leader = None
        while leader is None:
            assert process.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, "no container systemd: " + log.read_text()
            time.sleep(0.2)
            leader = container_leader(process.pid)
        box = Booted(chroot.root, leader, kiosk)
        box.wait_for(
            "boot",
            "state=$(systemctl is-system-running || true); "
            '[ "$state" = running ] || [ "$state" = degraded ]',
        )
        start_casino_and_devices(box)
        yield box
    finally:
        if process is not None:
            process.terminate()  # nspawn powers the container off
            try:
                process.wait(timeout=90)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for unit in ("turbokiosk.service", "turbokiosk-out-of-service@.service"):
            (chroot.root / UNITS / f"{unit}.d/zz-boot-test.conf").unlink(missing_ok=True)
        conf.write_text(original)
        chroot.install()


def start_casino_and_devices(box: Booted) -> None:
    """``turbokiosk host serve`` and the two simulators as transient units inside; the
    simulators' ptys linked at the udev names, owned by the kiosk's user (as udev gives the
    adapters to its group)."""
    tk = "/opt/turbokiosk/current/bin/turbokiosk"
    box.ok(
        "install -d -o turbokiosk -g turbokiosk /dev/turbokiosk /run/tk-sim "
        f"{Path(DUMP).parent}; "
        f"install -d -m 0755 {Path(SCREEN).parent}; "
        f"{tk} host terminals enroll {TERMINAL} --host-dir /srv/casino/host; "  # the casino's
        f"systemd-run --unit=tk-casino --collect {tk} host serve --host-dir /srv/casino/host "
        f"--pki /srv/casino/pki --listen 127.0.0.1:{HOST_PORT}"
    )
    for device in ("bill-validator", "printer"):
        pairing = ""
        if "devices" in COMMANDS:  # paired devices: the simulator gets the installer's pairing
            copy = f"/run/tk-sim/{device}.pairing.key"
            box.ok(f"install -o turbokiosk -m 0600 /srv/kit/device-copies/{device}.key {copy}")
            pairing = f" --pairing-key {copy}"
        box.ok(
            f"systemd-run --unit=tk-sim-{device} --collect --property=User=turbokiosk "
            f"{tk} sim {device} --port /dev/turbokiosk/{device} --create-pty "
            f"--state-dir /run/tk-sim/{device} --ready-file /run/tk-sim/{device}.ready" + pairing
        )
    box.wait_for("the host", "journalctl -u tk-casino -o cat | grep -q 'host: serving on'")
    for device in ("bill-validator", "printer"):
        box.wait_for(device, f"[ -s /run/tk-sim/{device}.ready ]")


def exposure(box: Booted, unit: str) -> float:
    """``systemd-analyze security`` of the loaded unit (drop-ins included)."""
    text = box.ok(f"systemd-analyze security --no-pager {unit}")
    found = re.search(rf"Overall exposure level for {re.escape(unit)}: (\d+\.\d)", text)
    assert found, text
    return float(found.group(1))


def status_of(box: Booted, pid: str) -> dict[str, str]:
    """/proc/PID/status of a process inside the container."""
    text = box.ok(f"cat /proc/{pid}/status")
    return dict(line.split(":\t", 1) for line in text.splitlines() if ":\t" in line)


def test_the_hardened_kiosk_reaches_attract_mode_under_systemd(booted: Booted) -> None:
    box = booted
    box.ok("systemctl start turbokiosk.service")  # Type=notify: returns once READY=1 came
    assert box.show("turbokiosk-signer.service", "ActiveState")["ActiveState"] == "active"
    box.wait_for("the screen dump", f"[ -s {DUMP} ]", timeout=90)
    dump = json.loads(box.ok(f"cat {DUMP}"))
    assert dump["screen"] == "attract", dump
    assert dump["links"] == {"bill_validator": True, "printer": True, "host": True}, dump
    assert dump["lockup"] is None, dump
    # The running kiosk: its user, no capabilities at all, no new privileges, seccomp filter.
    pid = box.show("turbokiosk.service", "MainPID")["MainPID"]
    status = status_of(box, pid)
    uid = box.ok("id -u turbokiosk").strip()
    assert status["Uid"].split()[0] == uid
    assert status["CapBnd"].strip() == status["CapEff"].strip() == "0000000000000000"
    assert status["NoNewPrivs"].strip() == "1"
    assert status["Seccomp"].strip() == "2"
    # Its view of the files: the OS read-only, the signer's key directory an empty, mode-0
    # stand-in (even for root entering its mount namespace).
    in_kiosk = f"nsenter --target={pid} --mount"
    readonly = box.run(f"{in_kiosk} touch /etc/turbokiosk/x")
    assert "Read-only file system" in readonly.stderr, readonly
    assert box.ok(f"{in_kiosk} stat -c %a /var/lib/turbokiosk/signer").strip() == "0"
    assert box.ok("stat -c %a /var/lib/turbokiosk/signer").strip() == "700"
    # The signer's socket: the kiosk's group's, nobody else's.
    assert box.ok(f"stat -c '%U %G %a' {SIGNER_SOCKET}").split() == [
        "turbokiosk-signer",
        "turbokiosk",
        "660",
    ]
    assert box.ok("stat -c '%G %a' /run/turbokiosk-signer").split() == ["turbokiosk", "2750"]
    connect = (
        "/opt/turbokiosk/current/bin/python -c 'import socket, sys; "
        "s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])' " + SIGNER_SOCKET
    )
    box.ok(f"runuser -u turbokiosk -- {connect}")
    refused = box.run(f"runuser -u nobody -- {connect}")
    assert refused.returncode != 0 and "PermissionError" in refused.stderr, refused
    # The ratings of the units as systemd loaded them (the host-address drop-in included).
    assert exposure(box, "turbokiosk.service") <= 2.0
    assert exposure(box, "turbokiosk-signer.service") <= 1.5
    box.ok("systemctl stop turbokiosk.service")


def test_a_crash_loop_stops_and_puts_the_reason_on_the_screen(booted: Booted) -> None:
    """The kiosk made to fail at every start (a language it does not know): systemd restarts
    it until the start limit (5 in 10 minutes), then gives up; the out-of-service handler runs
    once, logs one line with the kiosk's own last message and writes the console."""
    box = booted
    drop_in(
        box.root,
        "turbokiosk.service",
        "[Service]\nEnvironment=SDL_VIDEODRIVER=offscreen\n"
        f"ExecStart=\nExecStart={box.kiosk} --language xx\n",
    )
    logged = f"journalctl -u {HANDLER} -o cat -p crit | grep 'OUT OF SERVICE' || true"
    before = len(box.ok(logged).splitlines())
    box.ok("systemctl daemon-reload; systemctl reset-failed turbokiosk.service")
    box.run("systemctl start turbokiosk.service")  # fails: the kiosk exits at once
    box.wait_for(
        "the start limit",
        '[ "$(systemctl show -P ActiveState turbokiosk.service)" = failed ] && '
        "journalctl -u turbokiosk.service -o cat | grep -q 'Start request repeated too quickly'",
        timeout=180,
    )
    box.wait_for(
        "the out-of-service handler",
        f'[ "$(systemctl show -P ActiveState {HANDLER})" = inactive ] && '
        f"[ $(journalctl -u {HANDLER} -o cat -p crit | grep -c 'OUT OF SERVICE') -gt {before} ]",
    )
    shown = box.show("turbokiosk.service", "ActiveState", "NRestarts", "Result")
    # Five runs (StartLimitBurst=5), the fifth restart refused; systemd 252 keeps the last
    # run's result rather than start-limit-hit.
    assert shown == {"ActiveState": "failed", "NRestarts": "5", "Result": "exit-code"}, shown
    runs = box.ok("journalctl -u turbokiosk.service -o cat | grep -c 'invalid choice' || true")
    assert runs.strip() == "5", runs
    lines = box.ok(logged).splitlines()[before:]
    assert len(lines) == 1, lines  # not once per crash: only when systemd gave up
    assert lines[0].startswith(
        "OUT OF SERVICE: turbokiosk.service gave up after repeated failures (exit-code, exited 2): "
        "turbokiosk run: error: argument --language: invalid choice: 'xx'"
    ), lines  # the kiosk's own last line
    screen = box.ok(f"cat {SCREEN}")
    assert "OUT OF SERVICE" in screen and "invalid choice: 'xx'" in screen, screen
    time.sleep(5)  # out of service stays out of service
    again = box.show("turbokiosk.service", "ActiveState", "NRestarts", "Result")
    assert again == shown
