"""Reading one SAS reply off a pseudo-terminal."""

from __future__ import annotations

import os
import select
import time

from kiosk.terminal.sas import wire


def read_reply(master: int, command: int | None, timeout: float = 1.0) -> bytes:
    """One reply: a byte for a general poll, else as long as the response says."""
    data = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            data += os.read(master, 4096)
        if command is None and data:
            return data
        if command is not None and len(data) >= 2:
            size = wire.response_length(command, data)
            if size is not None and len(data) >= size:
                return data
    raise AssertionError(f"no reply (got {data.hex()})")
