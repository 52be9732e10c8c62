"""Software authentication: a manifest of the installed program files and a seeded HMAC.

The program files are every regular file whose suffix is in :data:`PROGRAM_SUFFIXES` inside
the installed packages :data:`PACKAGES` (``kiosk``, ``rng``, ``ui``, ``proto``), skipping
directories whose name starts with ``.`` or is ``__pycache__`` or ``node_modules``.  Each file
is named by its POSIX path relative to the directory holding the packages
(``kiosk/terminal/core.py``), and the files are taken in ascending order of the UTF-8 bytes of
that name.

- **Manifest**: one line per file, ``<sha256 hex>  <size>  <name>\\n``.
- **Signature** (sent in the host hello): SHA-256 of the manifest text, lower-case hex.
- **Seeded HMAC** (the host's authentication challenge): HMAC-SHA256 with the seed as key over,
  for each file in order, ``len(name)`` as 4 bytes big-endian, the name's UTF-8 bytes,
  ``len(content)`` as 8 bytes big-endian, then the content.  A fresh seed each time means a
  terminal cannot answer from a stored result: it must read every byte again.
"""

from __future__ import annotations

import hashlib
import hmac
import importlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGES = ("kiosk", "rng", "ui", "proto")
PROGRAM_SUFFIXES = frozenset(
    {".py", ".kv", ".toml", ".json", ".proto", ".png", ".jpg", ".ttf", ".otf", ".wav", ".ogg"}
)
SKIPPED_DIRS = frozenset({"__pycache__", "node_modules"})
MIN_SEED, MAX_SEED = 16, 64


@dataclass(frozen=True)
class ProgramFile:
    """One file of the installed software."""

    name: str  # POSIX path relative to the directory holding the packages
    path: Path


def package_roots(packages: Iterable[str] = PACKAGES) -> list[Path]:
    """The directories of the installed packages."""
    roots = []
    for name in packages:
        module = importlib.import_module(name)
        roots.append(Path(next(iter(module.__path__))).resolve())
    return roots


def program_files(roots: Iterable[Path] | None = None) -> list[ProgramFile]:
    """Every program file of the packages, in the documented order."""
    found: list[ProgramFile] = []
    for root in package_roots() if roots is None else roots:
        base = root.parent
        for path in _walk(root):
            found.append(ProgramFile(path.relative_to(base).as_posix(), path))
    found.sort(key=lambda f: f.name.encode())
    names = [f.name for f in found]
    if len(set(names)) != len(names):
        raise ValueError("two program files share a name")
    return found


def _walk(directory: Path) -> Iterator[Path]:
    for entry in directory.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            if entry.name.startswith(".") or entry.name in SKIPPED_DIRS:
                continue
            yield from _walk(entry)
        elif entry.is_file() and entry.suffix in PROGRAM_SUFFIXES:
            yield entry


def manifest(files: Iterable[ProgramFile] | None = None) -> str:
    """The manifest text: ``<sha256>  <size>  <name>`` per file."""
    lines = []
    for f in program_files() if files is None else files:
        data = f.path.read_bytes()
        lines.append(f"{hashlib.sha256(data).hexdigest()}  {len(data)}  {f.name}\n")
    return "".join(lines)


def signature(files: Iterable[ProgramFile] | None = None) -> str:
    """SHA-256 of the manifest, lower-case hex (the software signature of the hello)."""
    return hashlib.sha256(manifest(files).encode()).hexdigest()


def seeded_hmac(seed: bytes, files: Iterable[ProgramFile] | None = None) -> bytes:
    """HMAC-SHA256 keyed with ``seed`` over every program file (see the module docstring)."""
    if not MIN_SEED <= len(seed) <= MAX_SEED:
        raise ValueError(f"a seed has {MIN_SEED} to {MAX_SEED} bytes, not {len(seed)}")
    mac = hmac.new(seed, digestmod=hashlib.sha256)
    for f in program_files() if files is None else files:
        name = f.name.encode()
        data = f.path.read_bytes()
        mac.update(len(name).to_bytes(4, "big"))
        mac.update(name)
        mac.update(len(data).to_bytes(8, "big"))
        mac.update(data)
    return mac.digest()
