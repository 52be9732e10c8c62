"""Would power-up take this store?  The same checks, read-only, for the commands that read it.

``turbokiosk meters``, ``recall`` and ``events`` read a store without powering the terminal
up.  Before they show a figure they ask :func:`refusal` what power-up would say
(:func:`kiosk.terminal.store.critmem.power_up_store`, decision 0007): the signer's status, the store
verified against the signer's key and anchor (:func:`kiosk.terminal.store.verify.verify_store`), and
the credit audit of the state it loads.  A store power-up refuses is said to be so before anything
else is printed (decision 0040).

Nothing is written: the signer is asked for its status only (never created), an unsigned store
of the previous release (which power-up would adopt) is checked as ``audit`` checks it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from kiosk.terminal.core.core import TerminalCore
from kiosk.terminal.signer.client import signer_for
from kiosk.terminal.store.journal import IntegrityError, Journal, StoreError
from kiosk.terminal.store.verify import UnsignedStoreError, verify_store


def refusal(journal: Journal, data_dir: Path) -> str | None:
    """Why the terminal's power-up would refuse the store ``journal`` reads (one line), or
    None when it would take it.  Call inside the read transaction the figures come from."""
    from kiosk.terminal.store.lock import in_use

    journal.head()  # the view is fixed now: the signer's anchor is read after it
    signer = signer_for(data_dir, create=False)
    try:
        try:
            status = signer.status()
        except StoreError as exc:
            return f"the signer cannot be asked: {exc}"
        running = in_use(data_dir)
        try:
            verified = verify_store(journal, status.public_key, status.anchor, running=running)
        except UnsignedStoreError:
            if status.anchor.epoch:
                raise
            journal.verify_tables()  # power-up adopts it once its replay holds
            return None
        problem = TerminalCore(verified.state).audit_credits()
        return None if problem is None else f"credit audit failed: {problem}"
    except (IntegrityError, StoreError) as exc:
        return str(exc)
    except sqlite3.Error as exc:
        return f"the store is unreadable: {exc}"
    finally:
        signer.close()
