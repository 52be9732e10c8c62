"""Signed release bundles: what release.py signs, verify_bundle.py accepts and unpacks exactly;
any change to a wheel, the manifest or the archive, or a signature by another key, is refused
and nothing is unpacked."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from tests.deploy.kit import KIT, load

pytestmark = pytest.mark.deploy


release = load("release")


@pytest.fixture
def keys(tmp_path: Path) -> tuple[Path, Path]:
    secret, public = release.keygen(tmp_path / "keys")
    return Path(secret), Path(public)


@pytest.fixture
def wheels(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "wheels"
    folder.mkdir()
    made = []
    for name, body in (
        ("turbokiosk-0.2.0-py3-none-any.whl", b"app"),
        ("cobs-1.2.2-cp311-linux.whl", b"dep"),
    ):
        (folder / name).write_bytes(body * 1000)
        made.append(folder / name)
    return made


@pytest.fixture
def bundle(tmp_path: Path, keys: tuple[Path, Path], wheels: list[Path]) -> Path:
    key = release.load_private_key(keys[0])
    return Path(release.bundle(key, "0.2.0", wheels, tmp_path / "out"))


def verify(public: Path, bundle: Path, dest: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(KIT / "verify_bundle.py"), str(public), str(bundle), str(dest)],
        capture_output=True,
        text=True,
    )


def rewrite(bundle: Path, change: dict[str, bytes | None]) -> None:
    """Rewrite the archive with members replaced (bytes), removed (None) or added."""
    with tarfile.open(bundle) as archive:
        members: dict[str, bytes | None] = {}
        for member in archive.getmembers():
            stream = archive.extractfile(member)
            assert stream is not None
            members[member.name] = stream.read()
    members.update(change)
    with tarfile.open(bundle, "w") as archive:
        for name, data in members.items():
            if data is None:
                continue
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))


def test_keys_are_ed25519_and_the_secret_is_private(keys: tuple[Path, Path]) -> None:
    secret, public = keys
    assert secret.stat().st_mode & 0o777 == 0o600
    assert b"BEGIN PUBLIC KEY" in public.read_bytes()
    with pytest.raises(FileExistsError):
        release.keygen(secret.parent)


def test_a_genuine_bundle_is_unpacked(
    tmp_path: Path, keys: tuple[Path, Path], wheels: list[Path], bundle: Path
) -> None:
    result = verify(keys[1], bundle, tmp_path / "dest")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "0.2.0"
    for wheel in wheels:
        assert (tmp_path / "dest/wheels" / wheel.name).read_bytes() == wheel.read_bytes()
    manifest = json.loads((tmp_path / "dest/manifest.json").read_text())
    assert manifest["version"] == "0.2.0" and len(manifest["files"]) == 2


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"wheels/cobs-1.2.2-cp311-linux.whl": b"evil"}, "SHA-256 differs"),
        ({"wheels/extra-1.0-py3-none-any.whl": b"x"}, "not the manifest's files"),
        ({"wheels/cobs-1.2.2-cp311-linux.whl": None}, "not the manifest's files"),
        ({"manifest.sig": None}, "no manifest or no signature"),
        ({"manifest.sig": bytes(64)}, "bad signature"),
    ],
)
def test_a_changed_bundle_is_refused(
    tmp_path: Path,
    keys: tuple[Path, Path],
    bundle: Path,
    change: dict[str, bytes | None],
    reason: str,
) -> None:
    rewrite(bundle, change)
    result = verify(keys[1], bundle, tmp_path / "dest")
    assert result.returncode == 1 and reason in result.stderr, result.stderr
    assert not (tmp_path / "dest").exists()


def test_a_changed_manifest_is_refused(
    tmp_path: Path, keys: tuple[Path, Path], bundle: Path
) -> None:
    with tarfile.open(bundle) as archive:
        member = archive.extractfile("manifest.json")
        assert member is not None
        manifest = member.read()
    rewrite(bundle, {"manifest.json": manifest.replace(b"0.2.0", b"9.9.9")})
    result = verify(keys[1], bundle, tmp_path / "dest")
    assert result.returncode == 1 and "bad signature" in result.stderr


def test_another_key_is_refused(tmp_path: Path, bundle: Path) -> None:
    _, other = release.keygen(tmp_path / "other")
    result = verify(other, bundle, tmp_path / "dest")
    assert result.returncode == 1 and "bad signature" in result.stderr


def test_a_path_outside_the_bundle_is_refused(
    tmp_path: Path, keys: tuple[Path, Path], wheels: list[Path]
) -> None:
    """Even a correctly signed manifest may only name plain wheel files."""
    evil = tmp_path / "wheels/..evil.whl"
    evil.write_bytes(b"x")
    key = release.load_private_key(keys[0])
    manifest = release.manifest_of("0.2.0", wheels).replace(b"wheels/cobs", b"wheels/../cobs")
    path = tmp_path / "evil.tkb"
    with tarfile.open(path, "w") as archive:
        for name, data in (("manifest.json", manifest), ("manifest.sig", key.sign(manifest))):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        archive.add(wheels[0], arcname=f"wheels/{wheels[0].name}")
        archive.add(wheels[1], arcname=f"wheels/../{wheels[1].name}")
    result = verify(keys[1], path, tmp_path / "dest")
    assert result.returncode == 1 and "bad file name" in result.stderr
