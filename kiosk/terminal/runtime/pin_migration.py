"""The previous release's ``<data_dir>/service/pins.json``, taken into the journal once.

Until this release the service PIN records lived in that file, outside the protected store.
At power-up (:func:`take_in_old_pins`, called by :meth:`TerminalRuntime.power_up`):

- a store whose state has no PIN records yet (made by the previous release) takes the file's
  records in with one ``MigratePins`` command (journaled: ``PinsMigrated``), then the file is
  renamed aside to ``pins.json.migrated-<epoch ms>``;
- a store that has its records already (every store this release makes: the genesis state holds
  the factory PINs) never reads the file: it is renamed aside to ``pins.json.ignored-<epoch ms>``,
  so deleting, editing or truncating it changes nothing;
- a file that cannot be taken in (not a regular file, more than 64 KiB, not JSON, a record
  missing or malformed) is refused and left where it is, and so is a missing file: the store
  keeps no PIN records and no role can enter the service menu (a missing record never brings
  the factory PINs back).  The reason is journaled in the power-up's ``PoweredUp`` event.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from kiosk.kernel.bounded_read import InputFileError, read_bounded_text
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.commands import CommandError
from kiosk.terminal.core.state import TerminalState

#: where the previous release kept the PIN records, under the data directory
OLD_PINS = Path("service") / "pins.json"
#: the most a pins.json of three records can sensibly hold
OLD_PINS_LIMIT = 64 * 1024


def take_in_old_pins(
    data_dir: Path,
    state: TerminalState,
    execute: Callable[[c.Command], list[e.Event]],
    now: int,
) -> list[str]:
    """Migrate or set aside the old PIN file; what was done, for the power-up record."""
    path = Path(data_dir) / OLD_PINS
    present = os.path.lexists(path)
    if state.pins is not None:
        if not present:
            return []
        aside = _set_aside(path, f"ignored-{now}")
        return [f"{OLD_PINS} ignored (the PINs are in the journal): {aside}"]
    if not present:
        return [
            f"no PIN records: the store predates PINs in the journal and there is no {OLD_PINS} "
            "to take in; no role can enter the service menu"
        ]
    try:
        text = read_bounded_text(path, OLD_PINS_LIMIT, what="PIN file")
        try:
            records = json.loads(text)
        except ValueError as exc:
            raise InputFileError(f"PIN file {path}: not JSON ({exc})") from None
        if not isinstance(records, dict):
            raise InputFileError(f"PIN file {path}: not an object of records by role")
        execute(c.MigratePins(records=records, source=str(path)))
    except (InputFileError, CommandError) as exc:
        return [f"PINs not migrated, no role can enter the service menu: {exc}"]
    aside = _set_aside(path, f"migrated-{now}")
    return [f"PINs migrated from {OLD_PINS} into the journal (file set aside: {aside})"]


def _set_aside(path: Path, suffix: str) -> str:
    """Rename ``path`` to ``<name>.<suffix>`` durably; the new name, or why it stayed."""
    target = path.with_name(f"{path.name}.{suffix}")
    try:
        os.replace(path, target)
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        return f"could not be set aside ({exc.strerror})"
    return target.name
