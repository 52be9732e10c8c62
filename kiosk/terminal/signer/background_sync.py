"""An ``fdatasync`` on a helper thread, so that the caller works while the disk syncs.

:func:`start_fdatasync` hands a file descriptor to the process's one sync thread and returns
once the thread is in the call; :meth:`PendingSync.wait` waits for the sync and raises its
``OSError``.  The caller keeps the descriptor open until then.  ``os.fdatasync`` releases the
GIL, so the caller's Python runs meanwhile.  The thread needs the GIL to start the call, and
a thread holding it gives it up only for long (a short release, such as a SQLite statement's,
is taken back at once): so the caller waits, GIL released, until the thread has started.
The thread needs it again only to report the end, which the caller's :meth:`~PendingSync.wait`
gives it.

The thread is started on first use and again in a forked child (a fork keeps no thread).
"""

from __future__ import annotations

import os
import queue
import threading

_requests: queue.SimpleQueue[PendingSync] = queue.SimpleQueue()
_thread: threading.Thread | None = None
_starting = threading.Lock()


class PendingSync:
    """One sync handed to the thread: :meth:`wait` for it."""

    __slots__ = ("_done", "_error", "_started", "_waited", "fd")

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._started = threading.Lock()
        self._started.acquire()  # released by the thread as it calls fdatasync
        self._done = threading.Lock()
        self._done.acquire()  # released by the thread once the sync returned
        self._error: Exception | None = None
        self._waited = False

    def _run(self) -> None:
        try:
            self._started.release()
            os.fdatasync(self.fd)
        except Exception as exc:  # OSError; anything else is reported the same way
            self._error = exc
        finally:
            self._done.release()

    def wait(self) -> None:
        """Return once the file's data is durable; the sync's ``OSError`` if it failed (again
        on every later call)."""
        if not self._waited:
            self._done.acquire()
            self._waited = True
        if self._error is not None:
            raise self._error


def start_fdatasync(fd: int) -> PendingSync:
    """``os.fdatasync(fd)`` started on the sync thread; ``fd`` must stay open until
    :meth:`PendingSync.wait` returned."""
    pending = PendingSync(fd)
    _ensure_thread()
    _requests.put(pending)
    pending._started.acquire()  # the GIL is the thread's until it is in the call
    return pending


def _ensure_thread() -> None:
    global _thread
    if _thread is not None:
        return
    with _starting:
        if _thread is None:
            thread = threading.Thread(target=_serve, name="fdatasync", daemon=True)
            thread.start()
            _thread = thread


def _serve() -> None:
    while True:
        _requests.get()._run()


def _after_fork() -> None:
    """A forked child has no sync thread (and may have inherited a request queued for it)."""
    global _requests, _thread, _starting
    _requests = queue.SimpleQueue()
    _thread = None
    _starting = threading.Lock()


os.register_at_fork(after_in_child=_after_fork)
