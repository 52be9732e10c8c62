"""The dashboard's sign-in lock-out: per user *and* source address, with exponential back-off.

Decision 0040.  Wrong passwords are counted for the pair (user, source) in ``web_lockouts``:

- :data:`MAX_FAILURES` wrong passwords in a row from one source lock the user **at that
  source** for :data:`LOCKOUT_SECONDS`; every further wrong password there (once the lock has
  run out) locks it for twice as long as the one before, at most :data:`MAX_LOCKOUT_SECONDS`;
- while the pair is locked, a sign-in from that source is refused without its password being
  looked at; the same user signs in from any other source as usual, so nobody can lock an
  operator out of the dashboard at her own desk from elsewhere;
- a right password clears the pair; so does an operator's ``turbokiosk host web-user unlock``;
- a source is the client's address, an IPv6 address by its /64 (one host's whole prefix,
  which it can rotate through at will), an IPv4-mapped IPv6 address as the IPv4 address;
- a pair not seen for :data:`FORGET_SECONDS` and not locked is forgotten (its row deleted at
  the user's next wrong password), so the table does not grow with every address ever seen.

Only known users are counted: an unknown name has no row to lock (and writes nothing).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

MAX_FAILURES = 5
#: the first lock-out of a pair; each further wrong password doubles it
LOCKOUT_SECONDS = 15 * 60
#: the longest lock-out
MAX_LOCKOUT_SECONDS = 24 * 3600
#: a pair unlocked and untouched this long is forgotten
FORGET_SECONDS = 7 * 24 * 3600

SCHEMA = """
CREATE TABLE IF NOT EXISTS web_lockouts (
    username TEXT NOT NULL,
    source TEXT NOT NULL,
    failures INTEGER NOT NULL CHECK (failures >= 0),
    locked_until_ms BIGINT NOT NULL,
    last_ms BIGINT NOT NULL,
    PRIMARY KEY (username, source));
"""


@dataclass(frozen=True)
class LockOut:
    """Wrong passwords in a row for one user from one source, and the lock they earned."""

    username: str
    source: str
    failures: int
    locked_until_ms: int
    last_ms: int

    def locked(self, at: int) -> bool:
        """Whether the pair is locked at ``at`` (epoch ms)."""
        return self.locked_until_ms > at


def source_of(address: str) -> str:
    """The source a client address counts for: IPv4 as it is, IPv6 by its /64, anything else
    (a test client's name, a Unix socket) as given, cut to 64 characters."""
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def lockout_ms(failures: int) -> int:
    """How long ``failures`` wrong passwords in a row lock a pair (0: not locked yet)."""
    if failures < MAX_FAILURES:
        return 0
    doublings = min(failures - MAX_FAILURES, 20)  # 2**20 times the first is past the cap
    seconds: int = LOCKOUT_SECONDS << doublings
    return min(seconds, MAX_LOCKOUT_SECONDS) * 1000


def locked_text(ms: int) -> str:
    """What the sign-in page says to a locked pair."""
    minutes = max(1, (ms + 59_999) // 60_000)
    return f"too many wrong passwords: this user is locked for {minutes} min at this address"
