"""Software authentication: what is installed, file by file, and a keyed check of all of it.

The *program files* are the terminal's: every file under the installed packages ``kiosk``,
``rng``, ``ui`` and ``proto`` (sources, layouts, edition and pay-table data, schemas), except the
other deployables' folders (``kiosk/table``, ``kiosk/host``, ``kiosk/tools``, ``ui/table``:
decision 0044, what a laboratory certifies is the terminal alone) and the interpreter's caches
(``__pycache__`` directories, ``.pyc``/``.pyo`` files).  Each is named by its path
relative to the directory holding its package, with ``/`` separators
(``kiosk/terminal/cli/run.py``), and files are taken in the order of those names (Python's ``str``
order, i.e. by code point).

- The **manifest** lists, per file, the SHA-256 of its bytes, its size and its name
  (``<hex>  <size>  <name>``, one line each, ``\\n``-terminated); the manifest digest is the
  SHA-256 of that text, UTF-8 encoded.
- The **keyed check** a test laboratory asks for with a seed of its choosing is
  HMAC-SHA256(key = seed, message = for each file in order: name (UTF-8), one zero byte, size
  as 8 bytes big-endian, the file's bytes).  The zero byte ends the name (names cannot hold
  one), so the message cannot be read two ways.  A seed is typed as hex digits, 1 to 64 bytes.
"""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

PACKAGES = ("kiosk", "rng", "ui", "proto")
#: the other deployables' folders: not the terminal's software (deploy/release.py leaves them
#: out of the terminal's wheel too)
NOT_TERMINAL = ("kiosk/table/", "kiosk/host/", "kiosk/tools/", "ui/table/")
_SKIPPED_DIRS = frozenset({"__pycache__"})
_SKIPPED_SUFFIXES = frozenset({".pyc", ".pyo"})
_CHUNK = 1 << 16


@dataclass(frozen=True)
class ManifestEntry:
    """One program file."""

    path: str
    size: int
    sha256: str

    def line(self) -> str:
        """``<hex>  <size>  <path>``."""
        return f"{self.sha256}  {self.size}  {self.path}"


@dataclass(frozen=True)
class Manifest:
    """Every program file, in order, and the digest of the listing."""

    entries: tuple[ManifestEntry, ...]
    packages: tuple[str, ...]

    def text(self) -> str:
        """The manifest, one line per file."""
        return "".join(entry.line() + "\n" for entry in self.entries)

    @property
    def digest(self) -> str:
        """SHA-256 of :meth:`text`."""
        return hashlib.sha256(self.text().encode()).hexdigest()


def package_dirs(packages: Iterable[str] = PACKAGES) -> dict[str, Path]:
    """Where each installed package lives (packages not installed are left out)."""
    found: dict[str, Path] = {}
    for name in packages:
        spec = importlib.util.find_spec(name)
        locations = list(spec.submodule_search_locations or []) if spec else []
        if locations:
            found[name] = Path(locations[0]).resolve()
    return found


def program_files(packages: Iterable[str] = PACKAGES) -> list[tuple[str, Path]]:
    """(name, file) of every program file, sorted by name."""
    files: list[tuple[str, Path]] = []
    for name, directory in package_dirs(packages).items():
        for path in directory.rglob("*"):
            relative = path.relative_to(directory)
            if not path.is_file() or path.suffix in _SKIPPED_SUFFIXES:
                continue
            if _SKIPPED_DIRS.intersection(relative.parts):
                continue
            file_name = f"{name}/{relative.as_posix()}"
            if not file_name.startswith(NOT_TERMINAL):
                files.append((file_name, path))
    files.sort(key=lambda item: item[0])
    return files


def manifest(packages: Iterable[str] = PACKAGES) -> Manifest:
    """The manifest of the installed program files."""
    chosen = tuple(packages)
    entries = []
    for name, path in program_files(chosen):
        digest = hashlib.sha256()
        size = 0
        with open(path, "rb") as fh:
            while chunk := fh.read(_CHUNK):
                digest.update(chunk)
                size += len(chunk)
        entries.append(ManifestEntry(name, size, digest.hexdigest()))
    return Manifest(tuple(entries), tuple(package_dirs(chosen)))


def parse_seed(text: str) -> bytes:
    """A seed typed as hex digits (spaces allowed), 1 to 64 bytes; ValueError otherwise."""
    digits = "".join(text.split())
    if not digits or len(digits) % 2 or len(digits) > 128:
        raise ValueError("seed: 2 to 128 hex digits, an even number")
    try:
        return bytes.fromhex(digits)
    except ValueError:
        raise ValueError("seed: hex digits only (0-9, a-f)") from None


def keyed_check(seed: bytes, packages: Iterable[str] = PACKAGES) -> str:
    """HMAC-SHA256 of every program file with ``seed`` as the key (hex)."""
    mac = hmac.new(seed, digestmod=hashlib.sha256)
    for name, path in program_files(packages):
        data = path.read_bytes()
        mac.update(name.encode() + b"\0" + len(data).to_bytes(8, "big"))
        mac.update(data)
    return mac.hexdigest()
