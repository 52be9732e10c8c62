"""A simulated device's non-volatile memory: one JSON file, replaced atomically with fsync."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kiosk.kernel.durable import write_json_durably


class DeviceMemory:
    """Key/value memory that survives the device's restarts (and power cuts)."""

    def __init__(self, path: Path, default: dict[str, Any]) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with open(path, encoding="utf-8") as fh:
                loaded: dict[str, Any] = json.load(fh)
        except FileNotFoundError:
            loaded = {}
        self.data: dict[str, Any] = {**default, **loaded}

    def save(self) -> None:
        """Write the whole memory durably (temp file, fsync, rename, fsync the directory)."""
        write_json_durably(self.path, self.data)

    def next_event_id(self) -> int:
        """Allocate an event id (saved with the caller's next :meth:`save`)."""
        event_id: int = self.data["next_event_id"]
        self.data["next_event_id"] = event_id + 1
        return event_id
