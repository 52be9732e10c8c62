"""A refused TLS handshake is one line on stderr, not a flood (issue 26).

gRPC's core writes a line (two, on a server) to file descriptor 2 for every TLS handshake that
fails: a peer whose certificate another CA issued, trying again every second, fills a
controller's or a host's log.  :class:`HandshakeLog` puts a pipe in front of descriptor 2: every
line passes unchanged except those, which become one line of the server's own (who refused,
why) and then at most one line per interval counting the refusals since::

    table T1: refused a TLS handshake: CERTIFICATE_VERIFY_FAILED: unable to get local issuer
    certificate (a peer whose certificate the casino's CA did not issue?); further refusals are
    counted, one line a minute
    table T1: 57 more TLS handshakes refused in the last 60 s (last: CERTIFICATE_VERIFY_FAILED ...)

The line is kept whole (a partial line waits for its end); :meth:`HandshakeLog.close` puts
descriptor 2 back and writes what is still counted, so nothing written before it is lost.
"""

from __future__ import annotations

import atexit
import os
import re
import threading
import time
from collections.abc import Callable

#: what gRPC's core writes for a failed handshake
HANDSHAKE_FAILED = re.compile(rb"[Hh]andshake failed")
#: the reason in such a line: OpenSSL's words after the library's code, else the SSL error
REASON = re.compile(rb"OPENSSL_internal:([^\r\n]+)")
SSL_ERROR = re.compile(rb"SSL_ERROR_[A-Z_]+")
INTERVAL_SECONDS = 60.0


class HandshakeLog:
    """Descriptor 2 through a filter that makes refused handshakes one line an interval."""

    def __init__(
        self,
        who: str,
        interval: float = INTERVAL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.who = who
        self.interval = interval
        self.clock = clock
        self.refused = 0  # every refusal seen
        self._counted = 0  # refusals since the last line said
        self._said_at: float | None = None
        self._last_reason = ""
        self._real = -1
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    # --- the filter, without descriptors (tests feed it lines) ------------------------------------

    def line(self, raw: bytes) -> bytes | None:
        """What to write for one line of descriptor 2 (None: nothing now)."""
        if not HANDSHAKE_FAILED.search(raw):
            return raw
        found = REASON.search(raw)
        if found is not None:
            reason = found.group(1).decode("utf-8", "replace").strip()
        else:
            code = SSL_ERROR.search(raw)
            reason = code.group(0).decode() if code is not None else ""
        with self._lock:
            self.refused += 1
            self._last_reason = reason or self._last_reason
            now = self.clock()
            if self._said_at is None:
                self._said_at = now
                why = f": {reason}" if reason else ""
                return (
                    f"{self.who}: refused a TLS handshake{why} (a peer whose certificate the"
                    " casino's CA did not issue?); further refusals are counted, one line every"
                    f" {self.interval:.0f} s\n"
                ).encode()
            self._counted += 1
            if now - self._said_at < self.interval:
                return None
            return self._summary(now)

    def _summary(self, now: float) -> bytes:
        span = now - (self._said_at or now)
        text = (
            f"{self.who}: {self._counted} more TLS handshake(s) refused in the last"
            f" {span:.0f} s (last: {self._last_reason or 'no reason given'})\n"
        )
        self._counted, self._said_at = 0, now
        return text.encode()

    def pending(self) -> bytes | None:
        """The count not yet said (at close)."""
        with self._lock:
            return self._summary(self.clock()) if self._counted else None

    # --- descriptor 2 --------------------------------------------------------------------------

    def install(self) -> HandshakeLog:
        """Put the filter in front of descriptor 2 (until :meth:`close`, or the process ends)."""
        self._real = os.dup(2)
        read, write = os.pipe()
        os.dup2(write, 2)
        os.close(write)
        self._thread = threading.Thread(
            target=self._pump, args=(read,), name="handshake-log", daemon=True
        )
        self._thread.start()
        atexit.register(self.close)
        return self

    def _pump(self, read: int) -> None:
        buffered = b""
        while True:
            chunk = os.read(read, 65536)
            if not chunk:
                break
            buffered += chunk
            *lines, buffered = buffered.split(b"\n")
            for raw in lines:
                out = self.line(raw + b"\n")
                if out:
                    os.write(self._real, out)
        if buffered:
            os.write(self._real, buffered)
        os.close(read)

    def close(self) -> None:
        """Put descriptor 2 back, let the filter write what it holds, and say the count."""
        if self._thread is None:
            return
        thread, self._thread = self._thread, None
        os.dup2(self._real, 2)  # the pipe's last writer is gone: the reader sees its end
        thread.join(timeout=5)
        left = self.pending()
        if left:
            os.write(2, left)
        os.close(self._real)
