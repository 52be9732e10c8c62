"""``turbokiosk run`` as a field terminal runs it (the kiosk unit's options): the devices on
named serial ports, the casino's host over mutual TLS, no simulator panel.  Here the ports are
the simulator programs' pseudo-terminals and the host is ``turbokiosk host serve``, each its
own process; the kiosk comes up with every link up and the host knows the terminal by its
certificate's name."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.terminal.app.peripherals import start_simulated_peripherals
from kiosk.terminal.hostlink import pki
from tests.helpers.cli_process import turbokiosk
from tests.helpers.host_process import host_process

TERMINAL = "TK-0042"
OFFSCREEN = {"SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy"}


@pytest.fixture
def host(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """`turbokiosk host serve` on a free loopback port: (its address, its directory)."""
    host_dir = tmp_path / "host"
    pki.ensure_pki(host_dir / "pki", (TERMINAL,))
    enrolled = turbokiosk("host", "terminals", "enroll", TERMINAL, "--host-dir", str(host_dir))
    assert enrolled.returncode == 0, enrolled.stderr
    with host_process("--host-dir", str(host_dir), log=tmp_path / "host.log") as address:
        yield address, host_dir


def test_a_field_terminal_comes_up_talking_to_its_devices_and_host(
    tmp_path: Path, host: tuple[str, Path]
) -> None:
    address, host_dir = host
    credentials = host_dir / "pki"
    with start_simulated_peripherals(tmp_path / "devices") as devices:
        dump = tmp_path / "dump.json"
        run = turbokiosk(
            "run",
            "--data-dir",
            str(tmp_path / "terminal"),
            "--fullscreen",
            "--no-simulator",
            "--validator-port",
            devices.ports.bill_validator,
            "--printer-port",
            devices.ports.printer,
            "--device-keys",
            str(devices.key_dir),
            "--host",
            address,
            "--host-ca",
            str(credentials / pki.CA_CERT),
            "--host-cert",
            str(credentials / f"{TERMINAL}.crt"),
            "--host-key",
            str(credentials / f"{TERMINAL}.key"),
            "--dump-screen",
            str(dump),
            "--exit-after-dump",
            env=OFFSCREEN,
            timeout=180,
        )
    assert run.returncode == 0, run.stderr[-3000:]
    shown = json.loads(dump.read_text())
    assert shown["links"] == {"bill_validator": True, "printer": True, "host": True}
    assert (shown["screen"], shown["lockup"]) == ("attract", None)
    known = turbokiosk("host", "terminals", "--host-dir", str(host_dir), "--json")
    assert known.returncode == 0, known.stderr
    assert [t["terminal_id"] for t in json.loads(known.stdout)] == [TERMINAL]
