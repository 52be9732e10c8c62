"""The SAS link's state from its store, for the service menu in any process.

The running link writes its figures to ``sas.sqlite3`` once a second (``meta.stats``: address,
polls per second, last poll, errors, exception queue depth, timing) and picks up an address a
technician sets there within a second.  So ``turbokiosk service`` over SSH and the touchscreen
menu read and set the same thing, whether or not they are the process running the link.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from kiosk.terminal.sas import wire
from kiosk.terminal.sas.queue import FILE_NAME

#: the figures of :func:`read_status` the service menu shows, in its order
SHOWN_FIELDS = (
    "address",
    "port",
    "mode",
    "polls_per_second",
    "last_poll_at",
    "errors",
    "queue_depth",
    "real_time",
    "bills_enabled",
    "latency_p50_ms",
    "latency_p99_ms",
    "over_limit",
    "port_error",
)


class SasStoreMissingError(Exception):
    """This terminal has no SAS link (no ``sas.sqlite3``)."""


def _connect(data_dir: Path, *, write: bool) -> sqlite3.Connection:
    path = Path(data_dir) / FILE_NAME
    if not path.exists():
        raise SasStoreMissingError(f"no SAS link on this terminal ({path} does not exist)")
    mode = "rw" if write else "ro"
    db = sqlite3.connect(f"file:{path}?mode={mode}", uri=True, timeout=5, isolation_level=None)
    return db


def read_status(data_dir: Path) -> dict[str, Any]:
    """Address, the running link's last figures, queue depth, the host's bill switch."""
    db = _connect(data_dir, write=False)
    try:
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        depth = db.execute("SELECT COUNT(*) FROM exceptions WHERE state = 'queued'").fetchone()[0]
    finally:
        db.close()
    stats: dict[str, Any] = {}
    try:
        loaded = json.loads(meta.get("stats", "{}"))
        stats = loaded if isinstance(loaded, dict) else {}
    except ValueError:
        pass
    return {
        "address": int(meta.get("address") or stats.get("address") or 0) or None,
        "queue_depth": int(depth),
        "bills_enabled": meta.get("bills_enabled", "1") == "1",
        **{k: v for k, v in stats.items() if k != "address"},
    }


def set_address(data_dir: Path, address: int) -> None:
    """Keep ``address`` (1..127); the running link answers to it within a second."""
    wire.check_address(address)
    db = _connect(data_dir, write=True)
    try:
        db.execute("INSERT OR REPLACE INTO meta VALUES ('address', ?)", (str(address),))
    finally:
        db.close()


def read_aft_registration(data_dir: Path) -> dict[str, Any]:
    """The AFT registration kept (status, asset, key, POS id), {} for none."""
    db = _connect(data_dir, write=False)
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'aft_registration'").fetchone()
    finally:
        db.close()
    try:
        loaded = json.loads(row[0]) if row else {}
    except ValueError:
        return {}
    return loaded if isinstance(loaded, dict) else {}


def acknowledge_aft_registration(data_dir: Path, token: str) -> None:
    """The operator acknowledged the AFT registration the host asked for (73 ``40``); the
    running link takes it within a second (registration ready again, exception 6D)."""
    db = _connect(data_dir, write=True)
    try:
        db.execute("INSERT OR REPLACE INTO meta VALUES ('aft_ack', ?)", (token,))
    finally:
        db.close()
