"""The Debian bookworm chroot the installer is tried in (test_install_chroot.py) and booted with
systemd (test_systemd_boot.py): made by debootstrap, or unpacked from the cached tarball of an
earlier bootstrap, with a signed bundle of this repository and the casino's PKI in its kit.

Needs root, the Debian mirror and PyPI (the wheels are built here with ``pip wheel``).
``TURBOKIOSK_DEBOOTSTRAP_CACHE`` keeps downloaded .debs and the bootstrapped tree between runs
(default /var/tmp/turbokiosk-debootstrap-cache); ``TURBOKIOSK_DEBIAN_MIRROR`` picks the mirror.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from kiosk.terminal.hostlink import pki
from tests.deploy.kit import KIT, in_namespace, load, need_root, need_tool

REPO = KIT.parent
CACHE = Path(
    os.environ.get("TURBOKIOSK_DEBOOTSTRAP_CACHE", "/var/tmp/turbokiosk-debootstrap-cache")
)
MIRROR = os.environ.get("TURBOKIOSK_DEBIAN_MIRROR", "http://deb.debian.org/debian")
#: A Raspberry Pi OS Lite stand-in: systemd as init, udev, certificates (no python3, no Mesa).
BASE_PACKAGES = "systemd,systemd-sysv,udev,ca-certificates"
VERSION = "0.1.0"
release = load("release")
TERMINAL = "TK-0001"
#: The credentials handed to the installer, in the chroot's kit directory.
HOST_CREDENTIALS = (
    f"--host-ca /srv/kit/host/ca.crt --host-cert /srv/kit/host/{TERMINAL}.crt "
    f"--host-key /srv/kit/host/{TERMINAL}.key"
)


@dataclass
class Chroot:
    """A bootstrapped bookworm tree and the files handed to the installer inside it."""

    root: Path
    work: Path

    def run(self, command: str, *, timeout: int = 1800) -> subprocess.CompletedProcess[str]:
        """``bash -c command`` as root inside the chroot, with /proc, /sys and /dev mounted in
        a private mount namespace (they vanish with it; the host is untouched)."""
        root = shlex.quote(str(self.root))
        inner = (
            "env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "
            f"HOME=/root LANG=C.UTF-8 /bin/bash -ec {shlex.quote(command)}"
        )
        return in_namespace(
            f"mount -t proc proc {root}/proc; mount --rbind /sys {root}/sys; "
            f"mount --rbind /dev {root}/dev; mount -t tmpfs tk-run {root}/run; "
            f"exec chroot {root} {inner}",
        )

    def install(self, *args: str) -> subprocess.CompletedProcess[str]:
        return self.run("/srv/kit/deploy/install.sh " + " ".join(args))

    def current(self) -> str:
        return os.readlink(self.root / "opt/turbokiosk/current")


def build_bundle(work: Path, key: Path, wheels: Path) -> Path:
    """Sign the wheels in ``wheels`` as a bundle (deploy/release.py) in ``work``."""
    result = subprocess.run(
        [
            sys.executable,
            str(KIT / "release.py"),
            "build",
            "--key",
            str(key),
            "--wheels",
            str(wheels),
            "--out",
            str(work / "bundles"),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(result.stdout.strip())


def bootstrap(debootstrap: str, root: Path) -> None:
    """A fresh bookworm tree at ``root``: unpacked from the cached tarball of an earlier
    bootstrap when there is one, else made by debootstrap (and cached)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    tarball = CACHE / f"bookworm-{BASE_PACKAGES.replace(',', '-')}.tar"
    if tarball.is_file():
        root.mkdir()
        subprocess.run(["tar", "-xpf", str(tarball), "-C", str(root)], check=True)
        return
    subprocess.run(
        [
            debootstrap,
            "--variant=minbase",
            f"--include={BASE_PACKAGES}",
            f"--cache-dir={CACHE}",
            "bookworm",
            str(root),
            MIRROR,
        ],
        check=True,
        capture_output=True,
        timeout=1800,
    )
    partial = tarball.with_suffix(".partial")
    subprocess.run(["tar", "-cpf", str(partial), "-C", str(root), "."], check=True)
    partial.rename(tarball)


@contextmanager
def made_chroot() -> Iterator[Chroot]:
    """A fresh chroot with the kit, a signed bundle and the PKI (removed afterwards)."""
    need_root()
    if sys.version_info[:2] != (3, 11):
        pytest.skip("the bundle's wheels are built with this Python; bookworm's is 3.11")
    debootstrap = need_tool("debootstrap")
    base = Path(tempfile.mkdtemp(prefix="turbokiosk-chroot-", dir="/var/tmp"))
    try:
        root, work = base / "root", base / "work"
        work.mkdir()
        bootstrap(debootstrap, root)
        shutil.copy2("/etc/resolv.conf", root / "etc/resolv.conf")
        subprocess.run(
            [sys.executable, str(KIT / "release.py"), "keygen", "--out", str(work / "keys")],
            check=True,
            capture_output=True,
        )
        release.build_wheels(REPO, work / "wheels")
        bundle = build_bundle(work, work / "keys/release-key.pem", work / "wheels")
        kit = root / "srv/kit"
        shutil.copytree(KIT, kit / "deploy", ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy2(bundle, kit / bundle.name)
        shutil.copy2(work / "keys/release-key.pub.pem", kit / "release-key.pub.pem")
        shutil.copy2(KIT / "config/turbokiosk.conf.example", kit / "terminal.conf")
        # The casino's PKI: the host's certificate, this terminal's and another terminal's.
        pki.ensure_pki(work / "pki", (TERMINAL, "TK-0002"))
        (kit / "host").mkdir()
        for name in ("ca.crt", f"{TERMINAL}.crt", f"{TERMINAL}.key", "TK-0002.key"):
            shutil.copy2(work / "pki" / name, kit / "host" / name)
        yield Chroot(root, work)
    finally:
        shutil.rmtree(base, ignore_errors=True)  # mounts lived only in the namespaces
