"""Issue 26, item 3: the table's setup as docs/table.md writes it, command by command.

- "From ``host init-ca`` to a seated kiosk": the documented commands, each its own process in
  a fresh directory, up to the touchscreen kiosk (offscreen) seated and in the round.  On the
  base the kiosk refused to start: its game was selected while play still waited for its host
  link's first answer ("SelectEdition is not allowed: terminal locked (disabled)").
- A CA certificate whose CA cannot be found: ``table serve --robots 3`` refuses in one line
  and makes no second CA.
- A peer with a certificate of another CA, again and again: one line on the controller's (and
  the host's) standard error, not two per attempt.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
import pytest

from kiosk.terminal.hostlink import pki
from kiosk.terminal.hostlink.identity import SERVER_NAMES, Role
from tests.helpers.table_cli import REPO

OFFSCREEN = {"SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy", "KIVY_NO_ARGS": "1"}


def clean_env(home: Path) -> dict[str, str]:
    """The environment of an operator's shell: no TURBOKIOSK_* settings of this machine."""
    keep = {k: v for k, v in os.environ.items() if not k.startswith("TURBOKIOSK_")}
    return {**keep, "PYTHONPATH": str(REPO), "KIVY_HOME": str(home / ".kivy"), **OFFSCREEN}


def turbokiosk(*args: str) -> list[str]:
    return [sys.executable, "-m", "kiosk", *args]


@contextmanager
def serving(command: list[str], cwd: Path, env: dict[str, str], log: Path) -> Iterator[str]:
    """A serving process until the block ends (SIGTERM); yields the address it printed."""
    with log.open("wb") as errors:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=errors)
        try:
            assert process.stdout is not None
            line = process.stdout.readline().decode()
            assert " serving on " in line, (line, log.read_text())
            yield line.split(" serving on ")[1].split()[0]
        finally:
            process.terminate()
            process.wait(timeout=30)
    assert process.returncode == 0, log.read_text()


def test_the_documented_path_seats_a_kiosk(tmp_path: Path) -> None:
    env = clean_env(tmp_path)

    def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            turbokiosk(*args), cwd=tmp_path, env=env, capture_output=True, text=True,
            timeout=timeout,
        )  # fmt: skip
        assert done.returncode == 0, (args, done.stderr)
        return done

    # docs/table.md, "From host init-ca to a seated kiosk", steps 1 to 4
    run("host", "init-ca")
    run("host", "issue-cert", "table-T1")
    run("host", "issue-cert", "seat-1")
    seat_pki = tmp_path / "var/seat-1/pki"
    seat_pki.mkdir(parents=True)
    for name in ("ca.crt", "seat-1.crt", "seat-1.key"):
        shutil.copy2(tmp_path / "var/host/pki" / name, seat_pki / name)
    table = turbokiosk(
        *["table", "serve", "--edition", "stadium-3cp", "--listen", "127.0.0.1:0"],
        *["--auto-deal", "2"],
    )
    with serving(table, tmp_path, env, tmp_path / "table.log") as address:
        dump = tmp_path / "kiosk.json"
        run(
            *["run", "--data-dir", "var/kiosk", "--table", address, "--seat", "1"],
            *["--table-pki-dir", "var/seat-1/pki", "--edition", "stadium-3cp"],
            *["--dump-screen", str(dump), "--exit-after-dump"],
            timeout=240,
        )
    shown = json.loads(dump.read_text())
    assert shown["links"]["table"] is True, shown  # seated: the controller answered the join
    assert shown["lockup"] is None and shown["screen"] == "stadium"
    assert shown["table"]["lost"] is False and shown["table"]["detail"].startswith("T1 ")
    assert not (tmp_path / "var/host/pki-ca").exists()  # one CA, where init-ca put it
    assert "Handshake" not in (tmp_path / "table.log").read_text()


def test_robots_refuse_to_make_a_second_ca(tmp_path: Path) -> None:
    """A ``ca.crt`` whose CA is not where the table looks: one line, exit 2, nothing made."""
    env = clean_env(tmp_path)
    pki.ensure_pki(tmp_path / "elsewhere/pki", (), None, tmp_path / "elsewhere/ca")
    published = tmp_path / "var/host/pki"
    published.mkdir(parents=True)
    shutil.copy2(tmp_path / "elsewhere/pki/ca.crt", published / "ca.crt")
    before = sorted(p.name for p in tmp_path.rglob("*"))
    done = subprocess.run(
        turbokiosk("table", "serve", "--edition", "stadium-3cp", "--robots", "3"),
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2, done
    assert done.stderr.count("\n") == 1 and "no second CA is made" in done.stderr, done.stderr
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def _knock(address: str, trusted: bytes, foreign: pki.Credentials, server: str, times: int) -> None:
    """Open a channel ``times`` times with a certificate of another CA (the server's CA
    trusted, so that the server is the one that refuses)."""
    for _ in range(times):
        credentials = grpc.ssl_channel_credentials(trusted, foreign.key, foreign.cert)
        options = [("grpc.ssl_target_name_override", server)]
        with (
            grpc.secure_channel(address, credentials, options=options) as channel,
            pytest.raises(grpc.FutureTimeoutError),
        ):
            grpc.channel_ready_future(channel).result(timeout=0.5)


def _handshake_lines(log: str) -> list[str]:
    return [line for line in log.splitlines() if "andshake" in line]


@pytest.mark.parametrize("side", ["table", "host"])
def test_a_foreign_certificate_is_one_line_however_often_it_tries(
    tmp_path: Path, side: str
) -> None:
    env = clean_env(tmp_path)
    mine = tmp_path / "var/host/pki"
    pki.ensure_pki(mine, ("table-T1", "TK-0001"), "host", tmp_path / "var/host-ca")
    foreign = tmp_path / "foreign/pki"
    pki.ensure_pki(foreign, ("seat-1", "TK-0001"), None, tmp_path / "foreign/ca")
    if side == "table":
        command = turbokiosk(
            "table", "serve", "--edition", "stadium-3cp", "--listen", "127.0.0.1:0"
        )
        name, server = "seat-1", SERVER_NAMES[Role.TABLE]
    else:
        command = turbokiosk("host", "serve", "--listen", "127.0.0.1:0")
        name, server = "TK-0001", SERVER_NAMES[Role.HOST]
    log = tmp_path / f"{side}.log"
    with serving(command, tmp_path, env, log) as address:
        trusted = (mine / pki.CA_CERT).read_bytes()
        _knock(address, trusted, pki.credentials(foreign, name), server, 8)
    lines = _handshake_lines(log.read_text())
    assert not [line for line in lines if "ssl_transport_security" in line], lines
    refused = [line for line in lines if "refused a TLS handshake" in line]
    assert len(refused) == 1 and "CERTIFICATE_VERIFY_FAILED" in refused[0], lines
    assert refused[0].startswith("table T1: " if side == "table" else "host: ")
    assert len(lines) <= 2, lines  # and, when it stops, how many more it refused


def test_the_filter_says_one_line_an_interval_and_passes_the_rest() -> None:
    from kiosk.terminal.hostlink.tls_log import HandshakeLog

    now = [0.0]
    log = HandshakeLog("table T1", interval=60, clock=lambda: now[0])
    failed = (
        b"E1128 ssl_transport_security.cc:2563] Handshake failed with error SSL_ERROR_SSL: "
        b"error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED: unable to get"
        b" local issuer certificate\n"
    )
    first = log.line(failed)
    assert first is not None and first.startswith(b"table T1: refused a TLS handshake: CERT")
    assert [log.line(failed) for _ in range(50)] == [None] * 50
    assert log.line(b"table T1: stopped\n") == b"table T1: stopped\n"
    now[0] = 61.0
    summary = log.line(failed)
    assert summary is not None and summary.startswith(b"table T1: 51 more TLS handshake(s)")
    assert log.pending() is None and log.refused == 52
