"""The dashboard's users, sessions, lock-outs and audit, in tables of its own.

- **Passwords** are kept only as scrypt hashes (RFC 7914, ``cryptography``'s ``Scrypt``;
  N = 2**15, r = 8, p = 1, 16-byte salt), compared in constant time.
- **Lock-out** per user *and* source address (:mod:`kiosk.host.web.lockout`, decision 0040):
  :data:`MAX_FAILURES` wrong passwords in a row from one address lock the user at that address
  for :data:`LOCKOUT_SECONDS`, each further wrong password there doubles it (at most a day); a
  right password from that address is refused too until then.  The same user signs in from
  any other address; an operator unlocks from the command line (:meth:`Accounts.unlock`).
- **Sessions**: a 256-bit random token in an ``HttpOnly; Secure; SameSite=Strict`` cookie; the
  table holds only its SHA-256.  A session ends after :data:`IDLE_SECONDS` without a request or
  :data:`MAX_SECONDS` after sign-in, whichever comes first, and at sign-out.  Each session has
  its own CSRF token, which every form and every ``POST`` must carry.
- **Audit**: every sign-in (accepted or refused, and why), sign-out, command and export is
  appended to ``web_audit``, which nothing updates or deletes.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass

from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from kiosk.host.web.floor import now_ms
from kiosk.host.web.lockout import FORGET_SECONDS, LockOut, locked_text, lockout_ms, source_of
from kiosk.host.web.lockout import LOCKOUT_SECONDS as LOCKOUT_SECONDS
from kiosk.host.web.lockout import MAX_FAILURES as MAX_FAILURES
from kiosk.host.web.lockout import SCHEMA as LOCKOUT_SCHEMA
from kiosk.host.web.sql import Connection, Transaction

ROLES = ("operator", "auditor")
IDLE_SECONDS = 15 * 60
MAX_SECONDS = 8 * 3600
MIN_PASSWORD = 12
MAX_PASSWORD = 256
USERNAME = re.compile(r"^[a-z][a-z0-9._-]{1,31}$")

SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS web_users (
    username TEXT PRIMARY KEY,
    role TEXT NOT NULL CHECK (role IN ('operator', 'auditor')),
    password TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    failures INTEGER NOT NULL CHECK (failures >= 0),
    locked_until_ms BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS web_sessions (
    token_sha256 TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    csrf TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    last_ms BIGINT NOT NULL,
    ended INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS web_audit (
    entry_id {serial} PRIMARY KEY,
    at_ms BIGINT NOT NULL,
    username TEXT NOT NULL,
    action TEXT NOT NULL,
    outcome TEXT NOT NULL,
    terminal_id TEXT NOT NULL,
    detail TEXT NOT NULL,
    address TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS web_alarm_acks (
    alarm_key TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    at_ms BIGINT NOT NULL);
"""
    + LOCKOUT_SCHEMA
)


class AccountError(Exception):
    """A user that cannot be added (bad name, role or password, already there)."""


@dataclass(frozen=True)
class Kdf:
    """scrypt cost parameters."""

    n: int = 2**15
    r: int = 8
    p: int = 1
    length: int = 32

    def derive(self, password: str, salt: bytes) -> bytes:
        """The hash of ``password`` with ``salt``."""
        return Scrypt(salt=salt, length=self.length, n=self.n, r=self.r, p=self.p).derive(
            password.encode()
        )

    def record(self, password: str) -> str:
        """A stored password: parameters, salt and hash (JSON)."""
        salt = secrets.token_bytes(16)
        return json.dumps(
            {
                "kdf": "scrypt",
                "n": self.n,
                "r": self.r,
                "p": self.p,
                "salt": salt.hex(),
                "hash": self.derive(password, salt).hex(),
            },
            sort_keys=True,
        )


def check_new_user(username: str, role: str, password: str) -> None:
    """A new user's name, role and password, or :class:`AccountError` naming what is wrong."""
    if not USERNAME.match(username):
        raise AccountError(
            f"user name {username!r}: 2 to 32 lower-case letters, digits, '.', '_' or '-',"
            " starting with a letter"
        )
    if role not in ROLES:
        raise AccountError(f"role {role!r}: one of {', '.join(ROLES)}")
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(
            f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters, not {len(password)}"
        )
    if password.strip() != password or not password.isprintable():
        raise AccountError("a password has no leading or trailing blanks nor control characters")


def password_matches(record: str, password: str) -> bool:
    """Whether ``password`` is the one ``record`` was made from (constant-time comparison)."""
    data = json.loads(record)
    digest = bytes.fromhex(data["hash"])
    kdf = Kdf(int(data["n"]), int(data["r"]), int(data["p"]), len(digest))
    return hmac.compare_digest(kdf.derive(password, bytes.fromhex(data["salt"])), digest)


def token_digest(token: str) -> str:
    """What the sessions table keeps of a session token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class User:
    """A signed-in user."""

    username: str
    role: str

    @property
    def may_command(self) -> bool:
        """Only operators send commands to terminals."""
        return self.role == "operator"


@dataclass(frozen=True)
class Session:
    """A live session."""

    user: User
    csrf: str
    expires_ms: int


@dataclass(frozen=True)
class SignIn:
    """The outcome of a sign-in: a session token, or why not."""

    token: str | None
    reason: str  # '' when accepted


@dataclass(frozen=True)
class AuditEntry:
    """One entry of the dashboard's audit."""

    entry_id: int
    at_ms: int
    username: str
    action: str
    outcome: str
    terminal_id: str
    detail: str
    address: str


class Accounts:
    """Users, sessions and the dashboard's audit on the ``write`` connection."""

    def __init__(
        self,
        conn: Connection,
        kdf: Kdf | None = None,
        idle_seconds: int = IDLE_SECONDS,
        max_seconds: int = MAX_SECONDS,
    ) -> None:
        self.conn = conn
        self.kdf = kdf or Kdf()
        self.idle_ms = idle_seconds * 1000
        self.max_ms = max_seconds * 1000
        self._dummy = ""  # made on first need: an unknown user costs as much as a known one
        serial = "BIGSERIAL" if conn.postgres else "INTEGER"
        with conn.transaction() as tx:
            if conn.postgres:
                tx.execute("SELECT pg_advisory_xact_lock(7167)")
            for statement in SCHEMA.format(serial=serial).split(";"):
                if statement.strip():
                    tx.execute(statement)

    # --- users ----------------------------------------------------------------------------------

    def add_user(self, username: str, role: str, password: str, at: int | None = None) -> None:
        """Add a user; :class:`AccountError` names what is wrong."""
        check_new_user(username, role, password)
        at = now_ms() if at is None else at
        record = self.kdf.record(password)
        with self.conn.transaction() as tx:
            added = tx.execute(
                "INSERT INTO web_users VALUES (?, ?, ?, ?, 0, 0) ON CONFLICT (username) DO NOTHING",
                (username, role, record, at),
            )
            if added == 0:
                raise AccountError(f"user {username!r} exists already")
            self._audit(tx, at, username, "user_added", "ok", "", f"role={role}", "")

    def users(self) -> list[tuple[str, str, int, int]]:
        """(name, role, most wrong passwords in a row from one source, latest end of a
        lock-out) of every user."""
        rows = self.conn.rows(
            "SELECT u.username, u.role, COALESCE(MAX(l.failures), 0),"
            " COALESCE(MAX(l.locked_until_ms), 0) FROM web_users u"
            " LEFT JOIN web_lockouts l ON l.username = u.username"
            " GROUP BY u.username, u.role ORDER BY u.username"
        )
        return [(r[0], r[1], int(r[2]), int(r[3])) for r in rows]

    def lockouts(self, username: str | None = None) -> list[LockOut]:
        """The counted wrong passwords (and locks) per user and source, newest first."""
        where, params = ("WHERE username = ?", (username,)) if username is not None else ("", ())
        rows = self.conn.rows(
            "SELECT username, source, failures, locked_until_ms, last_ms FROM web_lockouts"
            f" {where} ORDER BY last_ms DESC, source",
            params,
        )
        return [LockOut(r[0], r[1], int(r[2]), int(r[3]), int(r[4])) for r in rows]

    def unlock(
        self, username: str, by: str, source: str | None = None, at: int | None = None
    ) -> list[LockOut]:
        """Clear a user's lock-outs (every source, or one) and the wrong passwords counted
        there; audited with who did it.  The pairs cleared (locked or not)."""
        at = now_ms() if at is None else at
        with self.conn.transaction() as tx:
            if not tx.rows("SELECT 1 FROM web_users WHERE username = ?", (username,)):
                raise AccountError(f"no user {username!r}")
            where = "username = ?" + (" AND source = ?" if source is not None else "")
            params: tuple[str, ...] = (username,) if source is None else (username, source)
            rows = tx.rows(
                "SELECT username, source, failures, locked_until_ms, last_ms FROM web_lockouts"
                f" WHERE {where} ORDER BY source",
                params,
            )
            cleared = [LockOut(r[0], r[1], int(r[2]), int(r[3]), int(r[4])) for r in rows]
            tx.execute(f"DELETE FROM web_lockouts WHERE {where}", params)
            tx.execute(
                "UPDATE web_users SET failures = 0, locked_until_ms = 0 WHERE username = ?",
                (username,),
            )
            locked = [p.source for p in cleared if p.locked(at)]
            detail = (
                f"by {by}: "
                + (f"locked at {', '.join(locked)}" if locked else "no lock-out")
                + f"; {len(cleared)} source(s) cleared"
                + (f" (only {source})" if source is not None else "")
            )
            self._audit(tx, at, username, "unlock", "ok", "", detail, "command line")
        return cleared

    def _lockout(self, username: str, source: str) -> LockOut | None:
        rows = self.conn.rows(
            "SELECT username, source, failures, locked_until_ms, last_ms FROM web_lockouts"
            " WHERE username = ? AND source = ?",
            (username, source),
        )
        return LockOut(rows[0][0], rows[0][1], *map(int, rows[0][2:])) if rows else None

    # --- sign-in and sessions -------------------------------------------------------------------

    def sign_in(self, username: str, password: str, address: str, at: int | None = None) -> SignIn:
        """Check a password; a new session's token, or the reason it is refused (audited)."""
        at = now_ms() if at is None else at
        username = username.strip()[:64]
        rows = self.conn.rows(
            "SELECT role, password FROM web_users WHERE username = ?",
            (username,),
        )
        if not rows:
            self._dummy = self._dummy or self.kdf.record(secrets.token_hex(16))
            password_matches(self._dummy, password[:MAX_PASSWORD])
            self._log(at, username, "sign_in", "refused", "", "unknown user", address)
            return SignIn(None, "wrong user name or password")
        record = rows[0][1]
        source = source_of(address)
        pair = self._lockout(username, source)
        if pair is not None and pair.locked(at):
            self._log(at, username, "sign_in", "refused", "", "locked out", address)
            return SignIn(None, locked_text(pair.locked_until_ms - at))
        if not password_matches(record, password[:MAX_PASSWORD]):
            with self.conn.transaction() as tx:
                tx.execute(
                    "DELETE FROM web_lockouts WHERE username = ? AND last_ms < ?"
                    " AND locked_until_ms <= ?",
                    (username, at - FORGET_SECONDS * 1000, at),
                )
                tx.execute(  # counted in the database: parallel attempts each count
                    "INSERT INTO web_lockouts VALUES (?, ?, 1, 0, ?) ON CONFLICT (username, source)"
                    " DO UPDATE SET failures = web_lockouts.failures + 1,"
                    " last_ms = excluded.last_ms",
                    (username, source, at),
                )
                (failures,) = tx.rows(
                    "SELECT failures FROM web_lockouts WHERE username = ? AND source = ?",
                    (username, source),
                )[0]
                lock = lockout_ms(int(failures))
                if lock:
                    tx.execute(
                        "UPDATE web_lockouts SET locked_until_ms = ?"
                        " WHERE username = ? AND source = ?",
                        (at + lock, username, source),
                    )
                detail = f"wrong password ({failures} in a row from {source})" + (
                    f", locked out there for {lock // 60_000} min" if lock else ""
                )
                self._audit(tx, at, username, "sign_in", "refused", "", detail, address)
            if lock:
                return SignIn(None, locked_text(lock))
            return SignIn(None, "wrong user name or password")
        token = secrets.token_urlsafe(32)
        with self.conn.transaction() as tx:
            tx.execute(
                "DELETE FROM web_lockouts WHERE username = ? AND source = ?", (username, source)
            )
            tx.execute(
                "INSERT INTO web_sessions VALUES (?, ?, ?, ?, ?, 0)",
                (token_digest(token), username, secrets.token_urlsafe(32), at, at),
            )
            self._audit(tx, at, username, "sign_in", "ok", "", "", address)
        return SignIn(token, "")

    def session(self, token: str, at: int | None = None) -> Session | None:
        """The live session of a token (its idle clock restarted), or None."""
        at = now_ms() if at is None else at
        digest = token_digest(token)
        with self.conn.transaction() as tx:
            rows = tx.rows(
                "SELECT s.username, u.role, s.csrf, s.created_ms, s.last_ms FROM web_sessions s"
                " JOIN web_users u ON u.username = s.username"
                " WHERE s.token_sha256 = ? AND s.ended = 0",
                (digest,),
            )
            if not rows:
                return None
            username, role, csrf, created, last = rows[0]
            if at - int(last) > self.idle_ms or at - int(created) > self.max_ms:
                tx.execute("UPDATE web_sessions SET ended = 1 WHERE token_sha256 = ?", (digest,))
                return None
            tx.execute("UPDATE web_sessions SET last_ms = ? WHERE token_sha256 = ?", (at, digest))
        expires = min(at + self.idle_ms, int(created) + self.max_ms)
        return Session(User(username, role), csrf, expires)

    def sign_out(self, token: str, address: str, at: int | None = None) -> None:
        """End a session (audited)."""
        at = now_ms() if at is None else at
        digest = token_digest(token)
        with self.conn.transaction() as tx:
            rows = tx.rows(
                "SELECT username FROM web_sessions WHERE token_sha256 = ? AND ended = 0",
                (digest,),
            )
            if rows:
                tx.execute("UPDATE web_sessions SET ended = 1 WHERE token_sha256 = ?", (digest,))
                self._audit(tx, at, rows[0][0], "sign_out", "ok", "", "", address)

    # --- audit ----------------------------------------------------------------------------------

    def log(
        self,
        username: str,
        action: str,
        outcome: str,
        terminal_id: str = "",
        detail: str = "",
        address: str = "",
    ) -> None:
        """Append an entry to the dashboard's audit."""
        self._log(now_ms(), username, action, outcome, terminal_id, detail, address)

    def _log(
        self,
        at: int,
        username: str,
        action: str,
        outcome: str,
        terminal_id: str,
        detail: str,
        address: str,
    ) -> None:
        with self.conn.transaction() as tx:
            self._audit(tx, at, username, action, outcome, terminal_id, detail, address)

    @staticmethod
    def _audit(
        tx: Transaction,
        at: int,
        username: str,
        action: str,
        outcome: str,
        terminal_id: str,
        detail: str,
        address: str,
    ) -> None:
        tx.execute(
            "INSERT INTO web_audit (at_ms, username, action, outcome, terminal_id, detail,"
            " address) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (at, username[:64], action, outcome, terminal_id, detail[:2000], address[:64]),
        )

    def acknowledge(
        self, key: str, username: str, terminal_id: str, text: str, address: str
    ) -> bool:
        """Record that ``username`` acknowledged the alarm ``key``, audited in the same
        transaction; False (and nothing written) when it was acknowledged already."""
        at = now_ms()
        with self.conn.transaction() as tx:
            added = tx.execute(
                "INSERT INTO web_alarm_acks VALUES (?, ?, ?) ON CONFLICT (alarm_key) DO NOTHING",
                (key, username, at),
            )
            if added:
                detail = f"{key}: {text}"
                self._audit(tx, at, username, "alarm_ack", "ok", terminal_id, detail, address)
        return bool(added)

    def audit(self, last: int = 200) -> list[AuditEntry]:
        """The dashboard's audit, newest first."""
        rows = self.conn.rows(
            "SELECT entry_id, at_ms, username, action, outcome, terminal_id, detail, address"
            " FROM web_audit ORDER BY entry_id DESC LIMIT ?",
            (last,),
        )
        return [AuditEntry(int(r[0]), int(r[1]), *r[2:]) for r in rows]
