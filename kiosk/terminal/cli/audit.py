"""``turbokiosk audit [--data-dir DIR]``: verify the journal and the reconciliation.

Exit status 0 only when every check holds (see :mod:`kiosk.terminal.store.audit`, and the devices'
own money records where they can be read, :mod:`kiosk.terminal.runtime.device_audit`), 1 otherwise.
"""

from __future__ import annotations

import argparse

from kiosk.kernel.paths import add_data_dir_argument, data_dir_of
from kiosk.terminal.runtime.device_audit import audit_devices
from kiosk.terminal.store.audit import audit


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    add_data_dir_argument(parser)


def run(args: argparse.Namespace) -> int:
    """Audit the data directory's store read-only and print the findings."""
    data_dir = data_dir_of(args)
    report = audit(data_dir)
    audit_devices(data_dir, report)
    print(report.to_text())
    return 0 if report.ok else 1
