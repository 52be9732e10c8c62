"""The installer end to end in a fresh Debian bookworm (debootstrap) chroot, as on a blank
Raspberry Pi OS Lite: a signed bundle of this repository's wheel is installed, the system is set
up, a second run changes nothing, the kiosk started with the unit's own command line (offscreen
SDL instead of kmsdrm) reaches attract mode with its device links and its mutual-TLS host link up
(the simulator programs on pseudo-terminals standing in for the USB devices, ``turbokiosk host
serve`` for the casino's host) and notifies systemd's socket, credentials that do not belong
together are refused, a CA's key or certificate offered as the terminal's is refused, the
signer's key is made once and kept, a tampered bundle is refused, and a release whose power-up
self-test fails is rolled back.  The chroot itself: tests/deploy/chroot.py (several minutes).
"""

from __future__ import annotations

import datetime as dt
import io
import json
import os
import shlex
import shutil
import socket
import subprocess
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from kiosk.cli import COMMANDS
from kiosk.terminal.app.peripherals import start_simulated_peripherals
from tests.deploy.chroot import REPO, TERMINAL, VERSION, Chroot, build_bundle, release
from tests.deploy.kit import SAMPLE, settings
from tests.helpers.cli_process import turbokiosk
from tests.helpers.host_checks import enroll
from tests.helpers.host_process import host_process

pytestmark = [pytest.mark.deploy, pytest.mark.slow]


def wheel_at(work: Path, version: str, *, broken: bool) -> Path:
    """This repository's wheel at ``version``; ``broken``: with the RNG package failing on
    import, a release that installs fine and fails its power-up self-test."""
    source = work / f"source-{version}"
    files = subprocess.run(
        ["git", "-C", str(REPO), "ls-files"], capture_output=True, text=True, check=True
    ).stdout.split()
    for name in files:
        if (REPO / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    package = source / "kiosk/__init__.py"  # the one source of the version (pyproject: dynamic)
    text = package.read_text()
    assert f'__version__ = "{VERSION}"' in text
    package.write_text(text.replace(f'__version__ = "{VERSION}"', f'__version__ = "{version}"'))
    if broken:
        with (source / "rng/__init__.py").open("a") as f:
            f.write('\nraise RuntimeError("deliberately broken release (deploy test)")\n')
    wheel: Path = release.build_wheels(source, work / f"wheel-{version}", dependencies=False)
    return wheel


def test_install_sets_up_the_terminal(
    chroot: Chroot, first_install: subprocess.CompletedProcess[str]
) -> None:
    assert first_install.returncode == 0, first_install.stdout + first_install.stderr
    root = chroot.root
    passwd = {
        line.split(":")[0]: line.split(":")
        for line in (root / "etc/passwd").read_text().splitlines()
    }
    assert passwd["turbokiosk"][6] == "/usr/sbin/nologin"
    assert int(passwd["turbokiosk"][2]) < 1000  # a system user
    groups = {
        fields[0]: fields[3].split(",")
        for fields in (ln.split(":") for ln in (root / "etc/group").read_text().splitlines())
    }
    for group in ("video", "render", "input", "dialout"):  # the unit's SupplementaryGroups
        assert "turbokiosk" in groups[group], group
    assert chroot.current() == f"/opt/turbokiosk/releases/{VERSION}"
    assert (root / f"opt/turbokiosk/releases/{VERSION}/bin/turbokiosk").is_file()
    units = {
        "turbokiosk.service": "enabled",
        "turbokiosk-signer.service": "enabled",
        "var-log-journal.mount": "enabled",
        "nftables.service": "enabled",
        "systemd-timesyncd.service": "enabled",
        "getty@tty1.service": "masked",
        "autovt@tty1.service": "masked",
    }
    states = chroot.run(f"systemctl is-enabled {' '.join(units)} || true").stdout.split()
    assert dict(zip(units, states, strict=True)) == units
    assert "default.target -> /lib/systemd/system/multi-user.target" in chroot.run(
        "ls -l /etc/systemd/system/default.target"
    ).stdout.replace("/usr/lib/", "/lib/")
    conf = (root / "etc/turbokiosk/turbokiosk.conf").stat()
    assert conf.st_mode & 0o777 == 0o640
    data = (root / "var/lib/turbokiosk/terminal").stat()
    assert data.st_uid == int(passwd["turbokiosk"][2]) and data.st_mode & 0o777 == 0o750
    assert SAMPLE["HOST_ADDRESS"] in (root / "etc/nftables.conf").read_text()
    assert (
        f"NTP={SAMPLE['HOST_ADDRESS']}"
        in (root / "etc/systemd/timesyncd.conf.d/turbokiosk.conf").read_text()
    )
    rules = (root / "etc/udev/rules.d/70-turbokiosk-devices.rules").read_text()
    assert SAMPLE["VALIDATOR_SERIAL"] in rules and SAMPLE["PRINTER_SERIAL"] in rules
    assert "no running systemd" in first_install.stderr
    dropin = (root / "etc/systemd/system/turbokiosk.service.d/host-address.conf").read_text()
    assert "IPAddressDeny=any" in dropin
    assert f"IPAddressAllow={SAMPLE['HOST_ADDRESS']}" in dropin
    if "devices" in COMMANDS:  # the release pairs its devices (the device link's keys)
        for device in ("bill-validator", "printer"):
            key = (root / "etc/turbokiosk/devices" / f"{device}.key").stat()
            assert (key.st_uid, key.st_gid, key.st_mode & 0o777) == (0, gid_of(root), 0o640)
            assert (root / "srv/kit/device-copies" / f"{device}.key").is_file()
    else:
        assert "this release does not pair devices: no device keys" in first_install.stderr
    tmpfiles = (root / "etc/tmpfiles.d/turbokiosk-signer.conf").read_text()
    assert "d /run/turbokiosk-signer 2750 turbokiosk-signer turbokiosk -" in tmpfiles
    out_of_service = (root / "opt/turbokiosk/lib/out-of-service.sh").stat()
    assert out_of_service.st_uid == 0 and out_of_service.st_mode & 0o777 == 0o755
    assert f"host credentials: terminal {TERMINAL}: certificate issued by" in first_install.stderr
    gid = int(passwd["turbokiosk"][3])
    for name, mode, owner_group in (
        ("", 0o750, gid),
        ("ca.crt", 0o644, 0),
        ("terminal.crt", 0o644, 0),
        ("terminal.key", 0o640, gid),
    ):
        installed = (root / "etc/turbokiosk/host" / name).stat()
        assert (installed.st_uid, installed.st_gid, installed.st_mode & 0o777) == (
            0,
            owner_group,
            mode,
        )
    assert (root / "etc/turbokiosk/host/terminal.key").read_bytes() == (
        chroot.work / "pki" / f"{TERMINAL}.key"
    ).read_bytes()


def gid_of(root: Path, group: str = "turbokiosk") -> int:
    """A group's id in the chroot."""
    for line in (root / "etc/group").read_text().splitlines():
        fields = line.split(":")
        if fields[0] == group:
            return int(fields[2])
    raise AssertionError(f"no group {group}")


def signer_files(chroot: Chroot) -> dict[str, tuple[int, int, int, bytes]]:
    """Every file of the signer's state directory: (uid, gid, mode, contents)."""
    found = {}
    for path in sorted((chroot.root / "var/lib/turbokiosk/signer").rglob("*")):
        if path.is_file():
            st = path.stat()
            found[path.name] = (st.st_uid, st.st_gid, st.st_mode & 0o777, path.read_bytes())
    return found


def test_the_signer_has_its_own_user_and_one_key(
    chroot: Chroot, first_install: subprocess.CompletedProcess[str]
) -> None:
    """``signer init`` ran once as the signer's user: its key (0600) in its 0700 directory,
    which the kiosk's user cannot enter; the public key printed went to /etc/turbokiosk."""
    assert first_install.returncode == 0, first_install.stderr
    root = chroot.root
    passwd = {
        ln.split(":")[0]: ln.split(":") for ln in (root / "etc/passwd").read_text().splitlines()
    }
    signer = passwd["turbokiosk-signer"]
    assert signer[6] == "/usr/sbin/nologin" and int(signer[2]) < 1000
    members = {
        fields[0]: fields[3].split(",")
        for fields in (ln.split(":") for ln in (root / "etc/group").read_text().splitlines())
    }
    assert "turbokiosk-signer" not in members["turbokiosk"]  # reads nothing of the kiosk's
    state = (root / "var/lib/turbokiosk/signer").stat()
    assert (state.st_uid, state.st_mode & 0o777) == (int(signer[2]), 0o700)
    top = (root / "var/lib/turbokiosk").stat()  # the kiosk's user cannot swap the directory
    assert (top.st_uid, top.st_mode & 0o777) == (0, 0o755)
    files = signer_files(chroot)
    assert files, "signer init left no key"
    for name, (uid, _gid, mode, _data) in files.items():
        assert (uid, mode) == (int(signer[2]), 0o600), name
    public = root / "etc/turbokiosk/signer-public-key"
    assert public.stat().st_mode & 0o777 == 0o644 and public.read_text().strip()
    assert "signer key created" in first_install.stderr
    denied = chroot.run("runuser -u turbokiosk -- ls /var/lib/turbokiosk/signer")
    assert denied.returncode != 0 and "Permission denied" in denied.stderr


def test_a_second_run_changes_nothing(
    chroot: Chroot, first_install: subprocess.CompletedProcess[str]
) -> None:
    key_before = signer_files(chroot)
    again = chroot.install(f"--bundle /srv/kit/turbokiosk-{VERSION}.tkb")
    assert again.returncode == 0, again.stderr
    assert "signer key kept" in again.stderr
    assert signer_files(chroot) == key_before  # a new key would mean a RAM clear
    assert f"version {VERSION} is already current" in again.stderr
    changes = [
        ln
        for ln in again.stderr.splitlines()
        if "installed /" in ln or "created" in ln or "masked" in ln
    ]
    assert changes == []
    assert chroot.current() == f"/opt/turbokiosk/releases/{VERSION}"


def test_credentials_that_do_not_belong_together_are_refused(
    chroot: Chroot, first_install: subprocess.CompletedProcess[str]
) -> None:
    installed = chroot.root / "etc/turbokiosk/host/terminal.key"
    before = installed.read_bytes()
    result = chroot.install(
        f"--host-ca /srv/kit/host/ca.crt --host-cert /srv/kit/host/{TERMINAL}.crt "
        "--host-key /srv/kit/host/TK-0002.key"
    )
    assert result.returncode != 0
    assert "host credentials REJECTED (key: it is not the certificate's key)" in result.stderr
    assert installed.read_bytes() == before
    half = chroot.install("--host-ca /srv/kit/host/ca.crt")
    assert half.returncode != 0 and "go together" in half.stderr


def rogue_ca(directory: Path) -> tuple[Path, Path]:
    """A CA certificate and its key (PEM), as a host's ``init-ca`` makes them."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "TurboKiosk Host CA")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "rogue-ca.crt", directory / "rogue-ca.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


def test_a_ca_key_never_goes_onto_the_terminal(
    chroot: Chroot, first_install: subprocess.CompletedProcess[str]
) -> None:
    """A CA key inside the CA file, or the CA's own certificate and key given as the terminal's
    (which every other check accepts: the CA issued itself), are refused; nothing changes."""
    kit = chroot.root / "srv/kit/host"
    cert, key = rogue_ca(kit)
    bundle = kit / "ca-with-key.pem"
    bundle.write_bytes(cert.read_bytes() + key.read_bytes())
    installed = chroot.root / "etc/turbokiosk/host"
    before = {p.name: p.read_bytes() for p in installed.iterdir()}
    with_key = chroot.install(
        f"--host-ca /srv/kit/host/{bundle.name} --host-cert /srv/kit/host/{TERMINAL}.crt "
        f"--host-key /srv/kit/host/{TERMINAL}.key"
    )
    assert with_key.returncode != 0
    assert "holds a private key; a CA key never goes onto a terminal" in with_key.stderr
    as_terminal = chroot.install(
        f"--host-ca /srv/kit/host/{cert.name} --host-cert /srv/kit/host/{cert.name} "
        f"--host-key /srv/kit/host/{key.name}"
    )
    assert as_terminal.returncode != 0
    assert "is a CA certificate, not a terminal's" in as_terminal.stderr
    assert {p.name: p.read_bytes() for p in installed.iterdir()} == before


def test_installed_units_verify_inside(
    chroot: Chroot, first_install: subprocess.CompletedProcess[str]
) -> None:
    """With the real app installed nothing is stubbed: systemd in the chroot checks the units."""
    result = chroot.run(
        "systemd-analyze verify --man=no /etc/systemd/system/turbokiosk.service "
        "/etc/systemd/system/turbokiosk-signer.service "
        "/etc/systemd/system/turbokiosk-out-of-service@.service "
        "/etc/systemd/system/var-log-journal.mount"
    )
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr


@pytest.fixture
def casino(chroot: Chroot) -> Iterator[tuple[str, Path]]:
    """The casino's accounting host (``turbokiosk host serve`` on the loopback the chroot
    shares): (its address, its directory)."""
    host_dir = chroot.work / "host"
    serve = ("--host-dir", str(host_dir), "--pki", str(chroot.work / "pki"))
    enroll(host_dir / "host.sqlite3", (TERMINAL,))  # the casino enrols the terminal it installs
    with host_process(*serve, log=chroot.work / "host.log") as address:
        yield address, host_dir


def test_kiosk_starts_and_talks_to_its_devices_and_host(
    chroot: Chroot, first_install: subprocess.CompletedProcess[str], casino: tuple[str, Path]
) -> None:
    """The unit's ExecStart, user and environment (EnvironmentFile included), offscreen; the
    udev names stand for the simulators' pseudo-terminals and the configured host address for
    the loopback host; the signer its unit's program, as its user, in the socket directory the
    installed tmpfiles.d line makes (under systemd itself: test_systemd_boot.py)."""
    address, host_dir = casino
    signer_unit = chroot.root / "etc/systemd/system/turbokiosk-signer.service"
    signer = [(k, v) for s, k, v in settings(signer_unit) if s == "Service"]
    (signer_command,) = (v for k, v in signer if k == "ExecStart")
    signer_socket = shlex.split(signer_command)[shlex.split(signer_command).index("--socket") + 1]
    unit = chroot.root / "etc/systemd/system/turbokiosk.service"
    service = [(k, v) for s, k, v in settings(unit) if s == "Service"]
    env = dict(v.split("=", 1) for k, v in service if k == "Environment")
    for line in (chroot.root / "etc/turbokiosk/turbokiosk.conf").read_text().splitlines():
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            env[key] = value
    env.update(SDL_VIDEODRIVER="offscreen", NOTIFY_SOCKET="/tmp/notify", WATCHDOG_USEC="1500000")
    env.update(zip(("HOST_ADDRESS", "HOST_PORT"), address.rsplit(":", 1), strict=True))
    (command,) = (v for k, v in service if k == "ExecStart")
    for key, value in env.items():
        command = command.replace("${" + key + "}", value)
    command += " --dump-screen /tmp/kiosk/dump.json --exit-after-dump"
    user = dict(service)["User"]
    assignments = " ".join(shlex.quote(f"{k}={v}") for k, v in env.items())
    if "devices" in COMMANDS:  # paired devices: the simulators get the installer's pairings
        peripherals = chroot.work / "devices/peripherals"
        for device in ("bill-validator", "printer"):
            for source, target in (
                (chroot.root / "etc/turbokiosk/devices", peripherals / "keys"),
                (chroot.root / "srv/kit/device-copies", peripherals / device),
            ):
                target.mkdir(parents=True, exist_ok=True)
                name = f"{device}.key" if target.name == "keys" else "pairing.key"
                shutil.copy2(source / f"{device}.key", target / name)
    with (
        start_simulated_peripherals(chroot.work / "devices") as devices,
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock,
    ):
        for name, port in (
            ("bill-validator", devices.ports.bill_validator),
            ("printer", devices.ports.printer),
        ):
            pty = Path(port).resolve()  # /dev/pts/N: the chroot has the host's /dev
            os.chmod(pty, 0o666)
            command = command.replace(f"/dev/turbokiosk/{name}", str(pty))
        sock.bind(str(chroot.root / "tmp/notify"))
        os.chmod(chroot.root / "tmp/notify", 0o777)
        result = chroot.run(
            f"install -d -o {user} /tmp/kiosk; cd /; "
            "systemd-tmpfiles --create /etc/tmpfiles.d/turbokiosk-signer.conf; "
            f"runuser -u {dict(signer)['User']} -- {signer_command} >/tmp/signer.log 2>&1 & "
            "signer=$!; "
            "trap 'kill $signer; wait $signer || true' EXIT; "
            f"for i in $(seq 300); do [ -S {signer_socket} ] && break; sleep 0.1; done; "
            f"stat -c '%U %G %a' {signer_socket}; "
            f"runuser -u {user} -- env -i PATH=/usr/bin:/bin {assignments} {command}",
            timeout=600,
        )
        sock.setblocking(False)
        messages = []
        while True:
            try:
                messages.append(sock.recv(4096).decode())
            except BlockingIOError:
                break
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert result.stdout.splitlines()[0] == "turbokiosk-signer turbokiosk 660"
    dump = json.loads((chroot.root / "tmp/kiosk/dump.json").read_text())
    assert dump["links"] == {"bill_validator": True, "printer": True, "host": True}, dump
    assert dump["screen"] == "attract", dump
    assert dump["lockup"] is None
    assert messages and messages[0].startswith("READY=1"), messages
    assert (chroot.root / "var/lib/turbokiosk/terminal/terminal.sqlite3").is_file()
    known = turbokiosk("host", "terminals", "--host-dir", str(host_dir), "--json")
    assert known.returncode == 0, known.stderr
    assert [t["terminal_id"] for t in json.loads(known.stdout)] == [TERMINAL]


def test_a_tampered_bundle_is_refused(
    chroot: Chroot, first_install: subprocess.CompletedProcess[str]
) -> None:
    genuine = chroot.root / f"srv/kit/turbokiosk-{VERSION}.tkb"
    tampered = chroot.root / "srv/kit/tampered.tkb"
    with tarfile.open(genuine) as source, tarfile.open(tampered, "w") as out:
        for member in source.getmembers():
            stream = source.extractfile(member)
            assert stream is not None
            data = stream.read()
            if member.name.startswith("wheels/turbokiosk-"):
                data = data[:-1] + bytes([data[-1] ^ 1])
            out.addfile(member, io.BytesIO(data))
    result = chroot.install("--bundle /srv/kit/tampered.tkb")
    assert result.returncode != 0 and "REJECTED" in result.stderr, result.stderr
    assert chroot.current() == f"/opt/turbokiosk/releases/{VERSION}"


def bundle_at(chroot: Chroot, version: str, *, broken: bool) -> str:
    """A signed bundle of this repository at ``version`` in the chroot's kit; its name."""
    wheels = chroot.work / f"wheels-{version}"
    wheels.mkdir()
    for wheel in (chroot.work / "wheels").glob("*.whl"):
        if not wheel.name.startswith("turbokiosk-"):
            shutil.copy2(wheel, wheels / wheel.name)
    shutil.copy2(wheel_at(chroot.work, version, broken=broken), wheels)
    bundle = build_bundle(chroot.work, chroot.work / "keys/release-key.pem", wheels)
    shutil.copy2(bundle, chroot.root / "srv/kit" / bundle.name)
    return bundle.name


def test_a_release_failing_its_self_test_is_rolled_back(
    chroot: Chroot, first_install: subprocess.CompletedProcess[str]
) -> None:
    broken = "0.1.1"
    result = chroot.install(f"--bundle /srv/kit/{bundle_at(chroot, broken, broken=True)}")
    assert result.returncode != 0
    assert f"version {broken} FAILED its power-up self-test" in result.stderr, result.stderr
    assert chroot.current() == f"/opt/turbokiosk/releases/{VERSION}"
    assert not (chroot.root / f"opt/turbokiosk/releases/{broken}").exists()


def test_an_update_keeps_the_previous_version(
    chroot: Chroot, first_install: subprocess.CompletedProcess[str]
) -> None:
    update = "0.1.2"
    result = chroot.install(f"--bundle /srv/kit/{bundle_at(chroot, update, broken=False)}")
    assert result.returncode == 0, result.stderr
    assert chroot.current() == f"/opt/turbokiosk/releases/{update}"
    previous = os.readlink(chroot.root / "opt/turbokiosk/previous")
    assert previous == f"/opt/turbokiosk/releases/{VERSION}"
    releases = {p.name for p in (chroot.root / "opt/turbokiosk/releases").iterdir()}
    assert releases == {VERSION, update}
    version = chroot.run(
        "/opt/turbokiosk/current/bin/python -c "
        "'import importlib.metadata as m; print(m.version(\"turbokiosk\"))'"
    ).stdout
    assert version.strip() == update
    reported = chroot.run("/opt/turbokiosk/current/bin/turbokiosk --version").stdout
    assert reported.strip() == f"turbokiosk {update}"  # what the terminal reports to the host


def test_the_data_partition_is_found_by_its_label(
    chroot: Chroot, first_install: subprocess.CompletedProcess[str]
) -> None:
    """A file system labelled TKDATA (a loop device standing in for the SD card's third
    partition) goes into fstab once, by UUID, and is mounted on /var/lib/turbokiosk with the
    data directories created on it."""
    image = chroot.work / "data.img"
    with image.open("wb") as f:
        f.truncate(64 * 1024 * 1024)
    subprocess.run(["mkfs.ext4", "-q", "-L", "TKDATA", str(image)], check=True)
    uuid = subprocess.run(
        ["blkid", "-s", "UUID", "-o", "value", str(image)], capture_output=True, text=True
    ).stdout.strip()
    loop = subprocess.run(
        ["losetup", "--find", "--show", str(image)], capture_output=True, text=True, check=True
    ).stdout.strip()
    try:
        result = chroot.run(
            "/srv/kit/deploy/install.sh; /srv/kit/deploy/install.sh; "
            "findmnt -n -o SOURCE,FSTYPE /var/lib/turbokiosk; "
            "stat -c '%U %a' /var/lib/turbokiosk/terminal"
        )
    finally:
        subprocess.run(["losetup", "--detach", loop], check=True)
    assert result.returncode == 0, result.stderr
    fstab = (chroot.root / "etc/fstab").read_text().splitlines()
    assert [ln for ln in fstab if "/var/lib/turbokiosk" in ln] == [
        f"UUID={uuid} /var/lib/turbokiosk ext4 defaults,noatime,nodev,nosuid,noexec,commit=5 0 2"
    ]
    assert result.stdout.split() == [loop, "ext4", "turbokiosk", "750"]
