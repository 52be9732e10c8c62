"""The store's error types, below both the store and the signer.

:class:`StoreError` is what locks the terminal up (decision 0007); the signer's errors are
``StoreError``s too (decision 0012), so the signer imports this module and never the store
(decision 0050).  :mod:`kiosk.terminal.store.faults` names each SQLite or file-system error with
them.
"""

from __future__ import annotations


class StoreError(Exception):
    """The store cannot be opened or written as required."""


class StorageFullError(StoreError):
    """The file system holding the store is full: the write was not made."""
