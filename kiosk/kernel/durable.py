"""Small files made durable: after a power cut a replaced file is its old or its new content."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def fsync_directory(path: Path) -> None:
    """Make the directory's entries (a created, renamed or removed file) durable."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_json_durably(path: Path, data: Any) -> None:
    """Write ``data`` as JSON to a temporary file, fsync it, rename it over ``path`` and fsync
    the directory."""
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, sort_keys=True)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    fsync_directory(path.parent)
