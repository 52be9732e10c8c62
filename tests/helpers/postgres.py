"""A throw-away PostgreSQL server from the Debian package, on a Unix socket in a temp directory.

The tests' server (not the benchmarks', which commit to the disk) lives in ``/dev/shm``
(memory) where there is one: it is thrown away and runs without fsync anyway, and each test's
database is some 300 files that initdb, ``CREATE DATABASE`` and the final removal would
otherwise write to and unlink from a busy disk (decision 0047: removing 67 of them took 22 s
at the end of ``tests/host`` on the shared machine).

As root the server runs as the ``postgres`` user (initdb refuses root).  When the binaries are
not installed the tests that need it are skipped with that reason; CI installs the package
(deploy/system-packages.txt).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import quote


def scratch_dir() -> str | None:
    """``/dev/shm`` when it is a writable directory, else None (the usual temp directory)."""
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK) else None


def binaries() -> Path | None:
    """The directory holding initdb and pg_ctl, or None."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(candidates[-1]).parent if candidates else None


class PostgresServer:
    """initdb + pg_ctl start; ``dsn(db)`` to connect; ``stop()`` removes everything."""

    def __init__(self, *, fsync: bool = False) -> None:
        """``fsync``: commits wait for the disk (benchmarks); the tests run without it."""
        bindir = binaries()
        if bindir is None:
            raise FileNotFoundError("PostgreSQL server binaries (Debian package postgresql)")
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="tk-pg-", dir=None if fsync else scratch_dir()))
        self.root.chmod(0o755)
        self.data = self.root / "data"
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = "postgres"
            pw = pwd.getpwnam(self.user)
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        options = f"-k {self.root} -c listen_addresses='' -c max_connections=300"
        if not fsync:
            options += " -F"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "start",
        )
        self._databases = 0

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bindir / tool), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def dsn(self, dbname: str = "postgres") -> str:
        """A libpq connection string for a database of this server."""
        return f"host={self.root} dbname={dbname} user=postgres"

    def url(self, dbname: str = "postgres") -> str:
        """The same as a ``postgresql://`` URL (the socket directory as the ``host`` parameter)."""
        return f"postgresql://postgres@/{dbname}?host={quote(str(self.root), safe='')}"

    def new_database(self, *, url: bool = False) -> str:
        """A fresh empty database; its connection string (``url``: as a URL)."""
        import psycopg

        self._databases += 1
        name = f"host_{self._databases}"
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name) if url else self.dsn(name)

    def stop(self) -> None:
        """Stop the server and delete its files."""
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
