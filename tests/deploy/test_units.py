"""The systemd units and drop-ins: ``systemd-analyze verify`` finds nothing to say about the real
unit files, the kiosk's command line is one the app accepts, and the settings the issue asks for
(notify + watchdog, restart always, kmsdrm, persistent bounded journal, hardware watchdog, no
login prompts) are the ones written."""

from __future__ import annotations

import argparse
import shlex
import subprocess
from pathlib import Path

import pytest

from kiosk.app.cli_run import add_arguments
from tests.deploy.kit import KIT, SAMPLE, in_namespace, need_root, need_tool, settings

pytestmark = pytest.mark.deploy

UNITS = sorted(p for p in (KIT / "systemd").iterdir() if p.suffix in (".service", ".mount"))
STUB = "/opt/turbokiosk/current/bin/turbokiosk"


def one(path: Path, section: str, key: str) -> str:
    values = [v for s, k, v in settings(path) if (s, k) == (section, key)]
    assert len(values) == 1, f"{path.name}: [{section}] {key} set {len(values)} times"
    return values[0]


def verify(unit: Path) -> subprocess.CompletedProcess[str]:
    """systemd-analyze verify on ``unit``, with the kiosk's executable stubbed on a private /opt."""
    tool = need_tool("systemd-analyze")
    return in_namespace(
        f"mount -t tmpfs tk-opt /opt; mkdir -p {Path(STUB).parent}; "
        f"printf '#!/bin/sh\\n' > {STUB}; chmod 755 {STUB}; "
        f"exec {tool} verify --man=no {shlex.quote(str(unit))}"
    )


def test_the_units_are_found() -> None:
    assert {u.name for u in UNITS} == {"turbokiosk.service", "var-log-journal.mount"}


@pytest.mark.parametrize("unit", UNITS, ids=lambda p: p.name)
def test_systemd_analyze_verify(unit: Path) -> None:
    need_root()
    result = verify(unit)
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr


def test_verify_reports_a_misspelt_key(tmp_path: Path) -> None:
    """The check can fail: systemd only warns on an unknown key, and the test sees the warning."""
    need_root()
    bad = tmp_path / "turbokiosk.service"
    bad.write_text(
        (KIT / "systemd/turbokiosk.service").read_text().replace("WatchdogSec=", "WatchdogSecs=")
    )
    assert "Unknown key 'WatchdogSecs'" in verify(bad).stderr


def test_kiosk_unit_settings() -> None:
    unit = KIT / "systemd/turbokiosk.service"
    assert one(unit, "Service", "Type") == "notify"
    assert one(unit, "Service", "Restart") == "always"
    assert int(one(unit, "Service", "WatchdogSec")) >= 10
    assert one(unit, "Service", "User") == "turbokiosk"
    assert one(unit, "Service", "EnvironmentFile") == "/etc/turbokiosk/turbokiosk.conf"
    env = dict(
        v.split("=", 1) for s, k, v in settings(unit) if (s, k) == ("Service", "Environment")
    )
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert env["TURBOKIOSK_DATA_DIR"] == "/var/lib/turbokiosk/terminal"
    assert one(unit, "Service", "ReadWritePaths") == "/var/lib/turbokiosk"
    assert one(unit, "Install", "WantedBy") == "multi-user.target"


def test_kiosk_keeps_its_devices() -> None:
    """Display, touch and serial devices stay reachable: no device allow-list, explicit or
    implied (ProtectClock= implies one before systemd 253)."""
    keys = {k for s, k, _ in settings(KIT / "systemd/turbokiosk.service") if s == "Service"}
    assert not keys & {"PrivateDevices", "DeviceAllow", "DevicePolicy", "ProtectClock"}


def test_kiosk_command_line_is_one_the_app_accepts() -> None:
    """ExecStart, with the configuration's values, parses with ``turbokiosk run``'s options and
    names the field terminal's parts: the udev rules' device names, the configured host and
    the credentials where install.sh puts them."""
    command = shlex.split(one(KIT / "systemd/turbokiosk.service", "Service", "ExecStart"))
    assert command[:2] == [STUB, "run"]
    args = command[2:]
    for key, value in SAMPLE.items():
        args = [a.replace("${" + key + "}", value) for a in args]
    assert not [a for a in args if "${" in a], "a setting the configuration file lacks"
    parser = argparse.ArgumentParser(exit_on_error=False)
    add_arguments(parser)
    parsed = parser.parse_args(args)
    assert parsed.fullscreen and parsed.no_simulator and not parsed.no_host
    assert parsed.size == SAMPLE["DISPLAY_SIZE"]
    rules = (KIT / "udev/70-turbokiosk-devices.rules.in").read_text()
    for port in (parsed.validator_port, parsed.printer_port):
        assert port.startswith("/dev/")
        assert f'SYMLINK+="{port.removeprefix("/dev/")}"' in rules, port
    assert parsed.host == f"{SAMPLE['HOST_ADDRESS']}:{SAMPLE['HOST_PORT']}"
    installer = (KIT / "install.sh").read_text()
    for option, name in (
        ("host_ca", "ca.crt"),
        ("host_cert", "terminal.crt"),
        ("host_key", "terminal.key"),
    ):
        path = getattr(parsed, option)
        assert path == Path("/etc/turbokiosk/host") / name
        assert f'{option}="$host_dir/{name}"' in installer, option
    assert 'host_dir="$etc/host"' in installer and "etc=/etc/turbokiosk" in installer


def test_sample_configuration_matches_the_example_file() -> None:
    example = {}
    for line in (KIT / "config/turbokiosk.conf.example").read_text().splitlines():
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            example[key] = value
    assert example == SAMPLE


def test_journal_watchdog_and_login_drop_ins() -> None:
    journald = KIT / "systemd/journald.conf.d/turbokiosk.conf"
    assert one(journald, "Journal", "Storage") == "persistent"
    assert one(journald, "Journal", "SystemMaxUse").endswith("M")
    assert one(journald, "Journal", "SystemMaxFileSize").endswith("M")
    watchdog = KIT / "systemd/system.conf.d/turbokiosk-watchdog.conf"
    assert one(watchdog, "Manager", "RuntimeWatchdogSec") == "15s"
    assert one(watchdog, "Manager", "RebootWatchdogSec") == "2min"
    logind = KIT / "systemd/logind.conf.d/turbokiosk.conf"
    assert one(logind, "Login", "NAutoVTs") == "0"
    mount = KIT / "systemd/var-log-journal.mount"
    assert one(mount, "Mount", "Where") == "/var/log/journal"
    assert one(mount, "Mount", "What").startswith("/var/lib/turbokiosk/")
