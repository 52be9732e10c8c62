#!/usr/bin/python3
"""Verify a signed TurboKiosk release bundle and unpack it: ``verify_bundle.py KEY BUNDLE DEST``.

Runs on the terminal with the system Python and Debian's ``python3-cryptography`` (the installer
calls it before anything from the bundle is used).  A bundle is a tar archive holding
``manifest.json``, ``manifest.sig`` (the raw 64-byte Ed25519 signature of ``manifest.json``'s
bytes, made by ``deploy/release.py``) and the files the manifest lists with their SHA-256.
Nothing is written unless the signature is good, every listed file is present with its digest,
and the archive holds nothing else.  Prints the bundle's version; exit status 0 when verified,
1 when not (with the reason on stderr), 2 on usage errors.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import tarfile
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import load_pem_public_key

MANIFEST = "manifest.json"
SIGNATURE = "manifest.sig"
FORMAT = 1
#: Listed files: wheels only, plain names (no directories to escape through).
FILE_NAME = re.compile(r"^wheels/[A-Za-z0-9][A-Za-z0-9._+-]*\.whl$")
VERSION = re.compile(r"^[0-9][0-9A-Za-z.+-]*$")


class BundleError(Exception):
    """The bundle is not a genuine, complete release."""


def load_public_key(path: Path) -> Ed25519PublicKey:
    """The Ed25519 public key in the PEM file ``path``."""
    key = load_pem_public_key(path.read_bytes())
    if not isinstance(key, Ed25519PublicKey):
        raise BundleError(f"{path} is not an Ed25519 public key")
    return key


def _members(archive: tarfile.TarFile) -> dict[str, bytes]:
    contents: dict[str, bytes] = {}
    for member in archive.getmembers():
        if member.isdir() and member.name.rstrip("/") == "wheels":
            continue
        if not member.isfile():
            raise BundleError(f"unexpected archive entry {member.name!r}")
        if member.name in contents:
            raise BundleError(f"duplicate archive entry {member.name!r}")
        stream = archive.extractfile(member)
        assert stream is not None  # a regular file
        contents[member.name] = stream.read()
    return contents


def verify(key: Ed25519PublicKey, bundle: Path) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The verified manifest and file contents of ``bundle``; :class:`BundleError` otherwise."""
    try:
        with tarfile.open(bundle, "r:*") as archive:
            contents = _members(archive)
    except (OSError, tarfile.TarError) as exc:
        raise BundleError(f"cannot read {bundle}: {exc}") from exc
    manifest_bytes = contents.pop(MANIFEST, None)
    signature = contents.pop(SIGNATURE, None)
    if manifest_bytes is None or signature is None:
        raise BundleError("no manifest or no signature")
    try:
        key.verify(signature, manifest_bytes)
    except InvalidSignature:
        raise BundleError("bad signature: not signed by the release key") from None
    manifest = json.loads(manifest_bytes)
    if manifest.get("format") != FORMAT or manifest.get("name") != "turbokiosk":
        raise BundleError("not a TurboKiosk release bundle of a known format")
    if not VERSION.match(str(manifest.get("version", ""))):
        raise BundleError("bad version in the manifest")
    files: dict[str, str] = manifest.get("files", {})
    if not files or set(files) != set(contents):
        raise BundleError("the archive's files are not the manifest's files")
    for name, digest in files.items():
        if not FILE_NAME.match(name):
            raise BundleError(f"bad file name {name!r}")
        if hashlib.sha256(contents[name]).hexdigest() != digest:
            raise BundleError(f"{name}: SHA-256 differs from the manifest")
    return manifest, contents


def unpack(manifest: dict[str, Any], contents: dict[str, bytes], dest: Path) -> None:
    """Write the verified files and the manifest into the empty directory ``dest``."""
    (dest / "wheels").mkdir(parents=True)
    for name, data in contents.items():
        (dest / name).write_bytes(data)
    (dest / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


def main(argv: list[str]) -> int:
    """The command line."""
    if len(argv) != 3:
        print("usage: verify_bundle.py PUBLIC_KEY.pem BUNDLE DEST_DIR", file=sys.stderr)
        return 2
    key_path, bundle, dest = (Path(a) for a in argv)
    if dest.exists() and any(dest.iterdir()):
        print(f"verify_bundle: {dest} is not empty", file=sys.stderr)
        return 2
    try:
        manifest, contents = verify(load_public_key(key_path), bundle)
    except (BundleError, ValueError) as exc:
        print(f"verify_bundle: REJECTED {bundle}: {exc}", file=sys.stderr)
        return 1
    unpack(manifest, contents, dest)
    print(manifest["version"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
