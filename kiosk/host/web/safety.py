"""The dashboard's safety net: bounded request bodies, and no traceback in the log or on a page.

A request the pages do not expect is answered 4xx by the endpoints themselves (the route fuzz
in ``tests/web`` holds every route to that).  Should one still fail, the outermost middleware
(:class:`kiosk.host.web.app.SecurityHeaders`) answers a plain ``500 internal error`` and
:func:`logged_fault` logs **one line** naming the exception and the request; the traceback
goes to a file in ``$TURBOKIOSK_CRASH_DIR`` (default: the temporary directory), as the command
line's crash files do (decision 0011), so it is kept for the developer without reaching the
host's log, where whoever reads it learns where the code is weak.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
import time
import traceback
from pathlib import Path

from starlette.types import Message, Receive, Scope

LOG = logging.getLogger("kiosk.host.web")
#: where a fault's traceback is written (the command line's variable, decision 0011)
CRASH_DIR_ENV = "TURBOKIOSK_CRASH_DIR"


class BodyTooLargeError(Exception):
    """A request body past the dashboard's bound (answered 413)."""


def bounded(receive: Receive, limit: int) -> Receive:
    """``receive`` that raises :class:`BodyTooLargeError` once the body passes ``limit`` bytes
    (a chunked body has no ``Content-Length`` to refuse it by)."""
    seen = 0

    async def receive_bounded() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise BodyTooLargeError(f"request body over {limit} bytes")
        return message

    return receive_bounded


def logged_fault(scope: Scope, exc: BaseException) -> str:
    """Log one line for a request that failed inside the dashboard; that line."""
    method = str(scope.get("method", ""))
    path = str(scope.get("path", ""))[:200].encode("unicode_escape").decode("ascii")
    summary = " ".join(f"{exc.__class__.__name__}: {exc}".split())[:300]
    where = _crash_file(exc)
    line = f"dashboard: internal error on {method} {path}: {summary}" + (
        f" (traceback in {where})" if where else ""
    )
    LOG.error(line)
    return line


def _crash_file(exc: BaseException) -> str:
    text = "".join(traceback.format_exception(exc))
    with contextlib.suppress(OSError):
        where = Path(os.environ.get(CRASH_DIR_ENV) or tempfile.gettempdir())
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
        fd, name = tempfile.mkstemp(prefix=f"turbokiosk-web-{stamp}-", suffix=".txt", dir=where)
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as handle:
            handle.write(text)
        return name
    return ""
