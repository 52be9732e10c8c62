"""The systemd units and drop-ins: ``systemd-analyze verify`` finds nothing to say about the real
unit files, ``systemd-analyze security`` rates the kiosk 2.0 or better and the signer 1.5 or
better, the kiosk's command line is one the app accepts, and the settings the issue asks for
(notify + watchdog, restart always with a start limit, kmsdrm, a device allow-list, the signer
before the kiosk, persistent bounded journal, hardware watchdog, no login prompts) are the ones
written.  The units running under systemd: test_systemd_boot.py."""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from kiosk.terminal.cli.run import add_arguments
from tests.deploy.kit import KIT, SAMPLE, in_namespace, need_root, need_tool, settings

pytestmark = pytest.mark.deploy

UNITS = sorted(p for p in (KIT / "systemd").iterdir() if p.suffix in (".service", ".mount"))
STUB = "/opt/turbokiosk/current/bin/turbokiosk"
OUT_OF_SERVICE = "/opt/turbokiosk/lib/out-of-service.sh"
KIOSK = KIT / "systemd/turbokiosk.service"
SIGNER = KIT / "systemd/turbokiosk-signer.service"
#: The exposure each unit must reach in ``systemd-analyze security`` (issue 11, item 8).
EXPOSURE_LIMITS = {
    "turbokiosk.service": 2.0,
    "turbokiosk-signer.service": 1.5,
    "turbokiosk-bridge@.service": 2.0,
}
BRIDGE = KIT / "systemd/turbokiosk-bridge@.service"


def one(path: Path, section: str, key: str) -> str:
    values = [v for s, k, v in settings(path) if (s, k) == (section, key)]
    assert len(values) == 1, f"{path.name}: [{section}] {key} set {len(values)} times"
    return values[0]


def verify(unit: Path) -> subprocess.CompletedProcess[str]:
    """systemd-analyze verify on ``unit`` (the units beside it found too), with the kit's
    executables stubbed on a private /opt."""
    tool = need_tool("systemd-analyze")
    stubs = "; ".join(
        f"mkdir -p {Path(stub).parent}; printf '#!/bin/sh\\n' > {stub}; chmod 755 {stub}"
        for stub in (STUB, OUT_OF_SERVICE)
    )
    return in_namespace(
        f"mount -t tmpfs tk-opt /opt; {stubs}; exec {tool} verify --man=no {shlex.quote(str(unit))}"
    )


def exposure(unit: Path) -> float:
    """The overall exposure ``systemd-analyze security --offline=yes`` gives ``unit``."""
    result = subprocess.run(
        [need_tool("systemd-analyze"), "security", "--offline=yes", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
    )
    name = re.escape(unit.name).replace("@", "@[^.]*")  # a template is rated as an instance
    found = re.search(rf"Overall exposure level for {name}: (\d+\.\d)", result.stdout)
    assert found, result.stdout + result.stderr
    return float(found.group(1))


def test_the_units_are_found() -> None:
    assert {u.name for u in UNITS} == {
        "turbokiosk.service",
        "turbokiosk-signer.service",
        "turbokiosk-out-of-service@.service",
        "turbokiosk-bridge@.service",
        "var-log-journal.mount",
    }


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


@pytest.mark.parametrize("name", sorted(EXPOSURE_LIMITS))
def test_security_exposure(name: str) -> None:
    """The kiosk at 2.0 or better, the signer at 1.5 or better (issue 11, item 8)."""
    assert exposure(KIT / "systemd" / name) <= EXPOSURE_LIMITS[name]


def test_exposure_reports_an_unhardened_unit(tmp_path: Path) -> None:
    """The check can fail: the kiosk unit without its sandbox rates far worse (main's was 6.3)."""
    bare = tmp_path / "turbokiosk.service"
    text = KIOSK.read_text()
    bare.write_text(
        text[: text.index("# --- Sandbox ---")] + "\n[Install]\nWantedBy=multi-user.target\n"
    )
    assert exposure(bare) > 7.0


def test_kiosk_unit_settings() -> None:
    unit = KIOSK
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


def test_kiosk_device_allow_list() -> None:
    """Nothing but the standard pseudo devices and: DRM (display), input devices read-only
    (touch), USB serial adapters (the two udev-named ports).  By class, because systemd
    resolves a path once at start to one major:minor (a replugged adapter, or one plugged in
    after the kiosk started, would be refused).  The udev rules give the ports the group the
    kiosk has and tag nothing else."""
    service = [(k, v) for s, k, v in settings(KIOSK) if s == "Service"]
    assert dict(service)["DevicePolicy"] == "closed"
    assert "PrivateDevices" not in dict(service)  # it would hide /dev/dri and /dev/input
    allowed = sorted(v for k, v in service if k == "DeviceAllow")
    assert allowed == ["char-drm rw", "char-input r", "char-ttyACM rw", "char-ttyUSB rw"]
    groups = dict(service)["SupplementaryGroups"].split()
    rules = (KIT / "udev/70-turbokiosk-devices.rules.in").read_text()
    assert 'SUBSYSTEM!="tty", GOTO="turbokiosk_end"' in rules  # the rules name tty devices only
    for group in re.findall(r'GROUP="([^"]+)"', rules):
        assert group in groups, group


def test_kiosk_sandbox_settings() -> None:
    """The settings issue 11 names, and the start limit that stops a crash loop."""
    unit = {k: v for s, k, v in settings(KIOSK) if s in ("Service", "Unit")}
    for key, value in {
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "NoNewPrivileges": "yes",
        "CapabilityBoundingSet": "",
        "RestrictAddressFamilies": "AF_UNIX AF_INET AF_INET6 AF_NETLINK",
        "RestrictNamespaces": "yes",
        "LockPersonality": "yes",
        "ProtectKernelTunables": "yes",
        "ProtectKernelModules": "yes",
        "ProtectKernelLogs": "yes",
        "ProtectClock": "yes",
        "ReadWritePaths": "/var/lib/turbokiosk",
        "InaccessiblePaths": "-/var/lib/turbokiosk/signer",
        "StartLimitBurst": "5",
        "StartLimitIntervalSec": "10min",
        "OnFailure": "turbokiosk-out-of-service@%n.service",
    }.items():
        assert unit.get(key) == value, key
    filters = [v for s, k, v in settings(KIOSK) if k == "SystemCallFilter"]
    assert filters == ["@system-service", "~@privileged @resources"]
    assert "MemoryDenyWriteExecute" not in unit  # Mesa's llvmpipe needs it (test_software_gl)


def test_signer_unit_settings() -> None:
    """Its own user, its key directory 0700 on the data partition (the anchor it writes must
    survive the read-only root), the socket's directory setgid to the kiosk's group, before the
    kiosk, which requires it; no network at all."""
    unit = {k: v for s, k, v in settings(SIGNER) if s in ("Service", "Unit")}
    assert (unit["User"], unit["Group"]) == ("turbokiosk-signer", "turbokiosk-signer")
    assert "SupplementaryGroups" not in unit
    assert (unit["StateDirectory"], unit["StateDirectoryMode"]) == ("turbokiosk/signer", "0700")
    assert unit["RequiresMountsFor"] == "/var/lib/turbokiosk"  # the data partition
    assert "RuntimeDirectory" not in unit  # systemd would give it back to User:Group
    tmpfiles = (KIT / "tmpfiles/turbokiosk-signer.conf").read_text().splitlines()
    assert [ln for ln in tmpfiles if ln and not ln.startswith("#")] == [
        "d /run/turbokiosk-signer 2750 turbokiosk-signer turbokiosk -"
    ]
    assert (
        unit["ExecStartPre"]
        == unit["ExecStopPost"]
        == ("-+/bin/rm -f /run/turbokiosk-signer/signer.sock")
    )
    assert unit["ReadWritePaths"] == "/run/turbokiosk-signer"
    assert unit["OnFailure"] == "turbokiosk-out-of-service@%n.service"
    command = shlex.split(unit["ExecStart"])
    assert command[:3] == [STUB, "signer", "serve"]
    socket_path = command[command.index("--socket") + 1]
    assert socket_path == "/run/turbokiosk-signer/signer.sock"
    assert command[command.index("--state-dir") + 1] == "/var/lib/turbokiosk/signer"
    assert (unit["PrivateNetwork"], unit["RestrictAddressFamilies"]) == ("yes", "AF_UNIX")
    assert unit["MemoryDenyWriteExecute"] == "yes"
    kiosk = {k: v for s, k, v in settings(KIOSK) if s == "Unit"}
    assert "turbokiosk-signer.service" in kiosk["Requires"].split()
    assert "turbokiosk-signer.service" in kiosk["After"].split()
    kiosk_command = shlex.split(one(KIOSK, "Service", "ExecStart"))
    assert kiosk_command[kiosk_command.index("--signer") + 1] == socket_path


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
    known, unknown = parser.parse_known_args(args)
    if unknown:
        raise argparse.ArgumentError(None, f"unrecognized arguments: {unknown}")
    parsed = known
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


def test_bridge_command_line_is_one_the_bridge_accepts() -> None:
    """The bridge unit's ExecStart, with each device's configuration, parses with ``turbokiosk
    bridge``'s options: the device by its udev name, the link where the kiosk is told to look,
    the key and the journal where install.sh and the unit put them."""
    from kiosk.terminal.cli.bridge import add_arguments as bridge_arguments

    command = shlex.split(one(BRIDGE, "Service", "ExecStart"))
    assert command[:2] == [STUB, "bridge"]
    rules = (KIT / "udev/70-turbokiosk-devices.rules.in").read_text()
    for device, kind, protocol in (
        ("bill-validator", "validator", "id003"),
        ("printer", "printer", "tcl"),
    ):
        args = [
            a.replace("${KIND}", kind).replace("${PROTOCOL}", protocol).replace("%i", device)
            for a in command[2:]
        ]
        parser = argparse.ArgumentParser(exit_on_error=False)
        bridge_arguments(parser)
        parsed = parser.parse_args(args)
        assert parsed.protocol == protocol and parsed.link_group == "turbokiosk"
        assert f'SYMLINK+="{parsed.device.removeprefix("/dev/")}"' in rules
        assert parsed.link == f"/run/turbokiosk-bridge/{device}.tty"
        assert str(parsed.pairing_key) == f"/etc/turbokiosk/bridge/{device}.key"
    installer = (KIT / "install.sh").read_text()
    assert 'bridge_etc="$etc/bridge"' in installer and "turbokiosk-bridge@.service" in installer
