"""Shared helpers of the deployment kit tests: the kit's paths, rendering, privileged runs."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

KIT = Path(__file__).resolve().parents[2] / "deploy"

#: A terminal's configuration, as a technician writes it (config/turbokiosk.conf.example).
SAMPLE = {
    "HOST_ADDRESS": "192.0.2.10",
    "HOST_PORT": "50051",
    "HOST_INTERFACE": "eth0",
    "DISPLAY_SIZE": "800x480",
    "LANGUAGE": "en",
    "VALIDATOR_VENDOR": "0403",
    "VALIDATOR_PRODUCT": "6001",
    "VALIDATOR_SERIAL": "BV000001",
    "PRINTER_VENDOR": "0403",
    "PRINTER_PRODUCT": "6015",
    "PRINTER_SERIAL": "PR000001",
}


def load(name: str) -> ModuleType:
    """The kit's Python program ``deploy/NAME.py`` as a module (it is not a package)."""
    spec = importlib.util.spec_from_file_location(f"deploy_{name}", KIT / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def settings(path: Path) -> list[tuple[str, str, str]]:
    """(section, key, value) for every assignment of a systemd INI file, in order (a line
    ending in a backslash goes on on the next, as systemd reads it)."""
    section, found = "", []
    for raw in path.read_text().replace("\\\n", " ").splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        found.append((section, key.strip(), value.strip()))
    return found


def render(template: Path, values: dict[str, str] = SAMPLE) -> str:
    """The template with ``@KEY@`` replaced as install.sh does; every placeholder must be known."""
    text = template.read_text()
    for key, value in values.items():
        text = text.replace(f"@{key}@", value)
    assert "@" not in text.replace("@.service", ""), f"unrendered placeholder in {template}"
    return text


def need_tool(name: str) -> str:
    """The path of a command the deploy env installs (deploy/system-packages-deploy.txt)."""
    path = shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")
    assert path is not None, (
        f"{name} missing: run deploy/install-system-packages on system-packages-deploy.txt"
    )
    return path


def need_root() -> None:
    """Skip unless root: private mount and network namespaces and chroot need it."""
    if os.geteuid() != 0:
        pytest.skip("needs root (mount/network namespaces, chroot)")


def in_namespace(script: str, *, net: bool = False) -> subprocess.CompletedProcess[str]:
    """Run ``sh -c script`` in a private mount (and, with ``net``, network) namespace: its
    mounts and firewall rules vanish with it, the host is left untouched."""
    flags = ["-m", "--propagation", "private"] + (["-n"] if net else [])
    return subprocess.run(
        ["unshare", *flags, "sh", "-ec", script], capture_output=True, text=True, timeout=600
    )
