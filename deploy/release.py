#!/usr/bin/env python3
"""Release bundles for terminals: build the wheels, bundle them, sign the manifest (Ed25519).

    release.py keygen --out DIR            # release-key.pem (secret, 0600) + release-key.pub.pem
    release.py build --key KEY.pem [--project DIR] [--out DIR]   # turbokiosk-VERSION.tkb

``build`` makes the terminal's wheel and every dependency's wheel with ``pip wheel`` (so run it
with Python 3.11 on the terminals' platform: a Raspberry Pi OS bookworm arm64 machine or
container, since a few dependencies ship no arm64 wheels and are built here), writes
``manifest.json`` (version and each wheel's SHA-256), signs those exact bytes and packs
``manifest.json``, ``manifest.sig`` and ``wheels/`` into one tar file.  The terminal installs it
offline; ``deploy/verify_bundle.py`` checks it first.

The bundle is the terminal's software alone (decision 0044): the wheel is built from a copy of
the project without the other deployables' folders (the table, the host, the tools), with the
terminal's dependencies only (no extra), and a wheel carrying another deployable's file, or a
dependency only they need, is refused.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
    load_pem_private_key,
)

FORMAT = 1
SUFFIX = ".tkb"
#: the other deployables' folders, not the terminal's software (the same list as
#: kiosk/kernel/integrity.py NOT_TERMINAL, which software authentication leaves out)
NOT_TERMINAL = ("kiosk/table/", "kiosk/host/", "kiosk/tools/", "ui/table/")
#: the distributions only the host and the tools need (pyproject.toml extras host and lab)
NOT_TERMINAL_DEPENDENCIES = (
    "grpcio_health_checking",
    "psycopg",
    "starlette",
    "uvicorn",
    "jinja2",
    "python_multipart",
    "matplotlib",
    "pypdfium2",
)


def keygen(out: Path) -> tuple[Path, Path]:
    """A new release key pair in ``out``: the private key (mode 0600) and the public key."""
    out.mkdir(parents=True, exist_ok=True)
    secret, public = out / "release-key.pem", out / "release-key.pub.pem"
    if secret.exists():
        raise FileExistsError(f"{secret} exists; not overwriting a release key")
    key = Ed25519PrivateKey.generate()
    fd = os.open(secret, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
    public.write_bytes(
        key.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
    )
    return secret, public


def load_private_key(path: Path) -> Ed25519PrivateKey:
    """The Ed25519 private key in the PEM file ``path``."""
    key = load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path} is not an Ed25519 private key")
    return key


def terminal_source(project: Path, dest: Path) -> Path:
    """A copy of ``project`` in ``dest`` without the other deployables' folders, tests and docs:
    what the terminal's wheel is built from."""
    skip = shutil.ignore_patterns(
        ".*", "build", "dist", "*.egg-info", "__pycache__", "tests", "docs"
    )
    copy = dest / "terminal-source"
    shutil.copytree(project, copy, ignore=skip)
    for folder in NOT_TERMINAL:
        shutil.rmtree(copy / folder, ignore_errors=True)
    return copy


def check_terminal_wheels(wheels: list[Path]) -> None:
    """Refuse (ValueError) a bundle that carries more than the terminal: a turbokiosk wheel
    with another deployable's file, or a dependency only the host or the tools need."""
    for wheel in wheels:
        distribution = wheel.name.split("-")[0].lower()
        if distribution in NOT_TERMINAL_DEPENDENCIES:
            raise ValueError(
                f"{wheel.name}: a dependency of the host or the tools, not the terminal"
            )
        if distribution != "turbokiosk":
            continue
        with zipfile.ZipFile(wheel) as archive:
            extra = [name for name in archive.namelist() if name.startswith(NOT_TERMINAL)]
        if extra:
            raise ValueError(f"{wheel.name}: not the terminal's software: {extra[0]} ...")


def build_wheels(project: Path, dest: Path, *, dependencies: bool = True) -> Path:
    """The terminal's wheel and (unless not ``dependencies``) its dependencies' wheels in
    ``dest``; the terminal's wheel."""
    command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check"]
    if not dependencies:
        command.append("--no-deps")
    with tempfile.TemporaryDirectory() as staging:
        source = terminal_source(project, Path(staging))
        subprocess.run([*command, "--wheel-dir", str(dest), str(source)], check=True)
    own = sorted(dest.glob("turbokiosk-*.whl"))
    if len(own) != 1:
        raise RuntimeError(f"expected one turbokiosk wheel in {dest}, found {own}")
    return own[0]


def manifest_of(version: str, wheels: list[Path]) -> bytes:
    """The manifest's exact bytes (what is signed)."""
    files = {f"wheels/{w.name}": hashlib.sha256(w.read_bytes()).hexdigest() for w in wheels}
    body = {"format": FORMAT, "name": "turbokiosk", "version": version, "files": files}
    return (json.dumps(body, indent=1, sort_keys=True) + "\n").encode("utf-8")


def bundle(key: Ed25519PrivateKey, version: str, wheels: list[Path], out: Path) -> Path:
    """Sign and pack ``wheels`` as release ``version``; the bundle's path in ``out``."""
    manifest = manifest_of(version, wheels)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"turbokiosk-{version}{SUFFIX}"
    with tarfile.open(path, "w") as archive:
        for name, data in (("manifest.json", manifest), ("manifest.sig", key.sign(manifest))):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o644
            archive.addfile(info, io.BytesIO(data))
        for wheel in wheels:
            archive.add(wheel, arcname=f"wheels/{wheel.name}", recursive=False)
    return path


def version_of(wheel: Path) -> str:
    """The version in a wheel's file name (``name-version-...whl``)."""
    return wheel.name.split("-")[1]


def main(argv: list[str] | None = None) -> int:
    """The command line."""
    parser = argparse.ArgumentParser(prog="release.py", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    gen = commands.add_parser("keygen", help="make a release key pair")
    gen.add_argument("--out", type=Path, required=True)
    build = commands.add_parser("build", help="build, bundle and sign a release")
    build.add_argument("--key", type=Path, required=True, help="the private release key (PEM)")
    build.add_argument("--project", type=Path, default=Path(__file__).resolve().parent.parent)
    build.add_argument("--out", type=Path, default=Path("dist"))
    build.add_argument("--wheels", type=Path, help="bundle these wheels instead of building")
    args = parser.parse_args(argv)
    if args.command == "keygen":
        for path in keygen(args.out):
            print(path)
        return 0
    key = load_private_key(args.key)
    with tempfile.TemporaryDirectory() as tmp:
        source = args.wheels if args.wheels is not None else Path(tmp)
        if args.wheels is None:
            build_wheels(args.project, source)
        own = sorted(source.glob("turbokiosk-*.whl"))
        if len(own) != 1:
            parser.error(f"expected one turbokiosk wheel in {source}")
        wheels = sorted(source.glob("*.whl"))
        try:
            check_terminal_wheels(wheels)
        except ValueError as exc:
            parser.error(str(exc))
        print(bundle(key, version_of(own[0]), wheels, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
