"""``turbokiosk host web-user`` and the dashboard in a real ``host serve --web`` process over
TLS with the host's certificate, commanding a real terminal."""

from __future__ import annotations

import io
import os
import re
import ssl
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from kiosk.cli import main
from kiosk.host.web.accounts import Accounts
from kiosk.host.web.sql import Connection
from kiosk.terminal.hostlink.wiring import HostEndpoint
from tests.helpers.host_checks import enroll
from tests.helpers.host_rig import Pki, TerminalRig

PASSWORD = "correct horse battery"


def add_user(
    monkeypatch: pytest.MonkeyPatch, db: Path, *argv: str, password: str = PASSWORD
) -> int:
    monkeypatch.setattr(sys, "stdin", io.StringIO(password + "\n"))
    try:
        return main(["host", "web-user", "add", "--db", str(db), *argv, "--password-stdin"])
    except SystemExit as exc:  # refused by the argument parser
        return int(exc.code or 0)


def test_web_user_add_refuses_bad_input_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "host.sqlite3"
    assert add_user(monkeypatch, db, "olive", "--role", "operator") == 0
    assert "user olive added (operator)" in capsys.readouterr().out
    bad = [
        (("Olive!", "--role", "operator"), PASSWORD, "user name 'Olive!'"),
        (("bob", "--role", "operator"), "short", "12 to 256 characters, not 5"),
        (("bob", "--role", "auditor"), " " + PASSWORD, "no leading or trailing blanks"),
        (("olive", "--role", "auditor"), PASSWORD, "user 'olive' exists already"),
        (("bob", "--role", "boss"), PASSWORD, "invalid choice: 'boss'"),
        (("bob",), PASSWORD, "the following arguments are required: --role"),
    ]
    for argv, password, message in bad:
        assert add_user(monkeypatch, db, *argv, password=password) == 2, argv
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1 and "Traceback" not in err, err
    fresh = tmp_path / "fresh.sqlite3"
    assert add_user(monkeypatch, fresh, "bob", "--role", "auditor", password="short") == 2
    assert not fresh.exists()  # refused before anything was opened
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["host", "web-user", "add", "--db", str(db), "bob", "--role", "auditor"]) == 2
    assert "no terminal to ask the password on" in capsys.readouterr().err
    conn = Connection(str(db), read_only=False)
    users = Accounts(conn).users()
    conn.close()
    assert [(name, role) for name, role, _, _ in users] == [("olive", "operator")]
    assert main(["host", "web-user", "list", "--db", str(db)]) == 0
    assert "olive" in capsys.readouterr().out


def test_host_web_refuses_a_missing_certificate_or_address_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = str(tmp_path / "h")
    assert main(["host", "init-ca", "--host-dir", d]) == 0
    assert main(["host", "web", "--host-dir", d, "--listen", "127.0.0.1:0"]) == 2
    assert "the dashboard serves with the host's certificate" in capsys.readouterr().err
    assert main(["host", "issue-cert", "--host-dir", d, "--server", "host"]) == 0
    assert main(["host", "web", "--host-dir", d, "--listen", "192.0.2.1:8443"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--listen" in err and "Traceback" not in err


@pytest.fixture
def web_host(
    tmp_path: Path, pki_set: Pki, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[str, str]]:
    """``turbokiosk host serve --web`` as its own process: (gRPC address, dashboard URL)."""
    db = tmp_path / "host.sqlite3"
    assert add_user(monkeypatch, db, "olive", "--role", "operator") == 0
    enroll(db, ("TK-A",))
    command = [
        sys.executable, "-m", "kiosk", "host", "serve", "--db", str(db), "--pki",
        str(pki_set.dir), "--listen", "127.0.0.1:0", "--web", "127.0.0.1:0",
    ]  # fmt: skip
    log = tmp_path / "host.log"
    with log.open("wb") as errors:
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=errors, env={**os.environ}
        )
        try:
            assert process.stdout is not None
            serving = process.stdout.readline().decode()
            dashboard = process.stdout.readline().decode()
            assert serving.startswith("host: serving on "), (serving, log.read_text())
            assert dashboard.startswith("host: dashboard on https://"), dashboard
            yield serving.split()[3], dashboard.split()[3]
        finally:
            process.terminate()
            process.wait(timeout=20)
    assert process.returncode == 0, log.read_text()
    assert "Traceback" not in log.read_text()


def test_the_dashboard_over_tls_disables_a_real_terminal(
    web_host: tuple[str, str], pki_set: Pki, tmp_path: Path
) -> None:
    address, url = web_host
    rig = TerminalRig(
        tmp_path / "TK-A", HostEndpoint(address, pki_set.terminal("TK-A"), "TK-A")
    ).start()
    try:
        rig.pump_until(lambda: rig.link.connected)
        # the host's certificate, checked against the casino's CA (no "insecure" anywhere)
        tls = ssl.create_default_context(cafile=str(pki_set.dir / "ca.crt"))
        with httpx2.Client(base_url=url, verify=tls, timeout=10) as web:
            page = web.get("/login")
            token = re.search(r'name="csrf" value="([^"]+)"', page.text)
            assert token is not None
            form = {"csrf": token.group(1), "username": "olive", "password": PASSWORD}
            assert web.post("/login", data=form).status_code == 303
            floor = web.get("/").text
            row = re.search(r'<tr data-terminal="TK-A">(.*?)</tr>', floor, re.S)
            assert row is not None and ">online<" in row.group(1)
            csrf = re.search(r'name="csrf" value="([^"]+)"', floor)
            assert csrf is not None
            order = {"csrf": csrf.group(1), "action": "disable", "text": "count room"}
            sent = web.post("/terminals/TK-A/command", data={**order, "confirmed": "yes"})
            assert sent.status_code == 303
            state = sent.headers["location"].replace("/commands/", "/api/commands/")
            rig.pump_until(lambda: rig.runtime.state.disabled == "count room")
            rig.pump_until(lambda: web.get(state).json()["state"] == "done")
            rig.pump_until(lambda: "disabled: count room" in web.get("/").text)
    finally:
        rig.close()


@pytest.mark.slow  # a second process start (~1.5 s); the default run has the serve --web one
def test_host_web_serves_alone_and_stops_on_sigterm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = tmp_path / "h"
    assert main(["host", "init-ca", "--host-dir", str(d)]) == 0
    assert main(["host", "issue-cert", "--host-dir", str(d), "--server", "host"]) == 0
    assert add_user(monkeypatch, d / "host.sqlite3", "olive", "--role", "auditor") == 0
    command = [sys.executable, "-m", "kiosk", "host", "web", "--host-dir", str(d)]
    process = subprocess.Popen(
        [*command, "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().decode()
        assert line.startswith("web: dashboard on https://127.0.0.1:"), line
        tls = ssl.create_default_context(cafile=str(d / "pki" / "ca.crt"))
        with httpx2.Client(base_url=line.split()[3], verify=tls, timeout=10) as web:
            assert web.get("/").headers["location"] == "/login"
            assert 'name="password"' in web.get("/login").text
    finally:
        process.terminate()
        out, err = process.communicate(timeout=20)
    assert process.returncode == 0 and out.decode() == "web: stopped\n", err.decode()
    assert err.decode() == ""
