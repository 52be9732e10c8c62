"""The dashboard's sign-in lock-out per user and source address, with exponential back-off,
and an operator's unlock from the command line (issue 23, part 6; decision 0040)."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from kiosk.cli import main
from kiosk.host.web.accounts import Accounts, Kdf
from kiosk.host.web.app import DashboardConfig, SecurityHeaders, build_app
from kiosk.host.web.sql import Connection

FAST_KDF = Kdf(n=2**10)
PASSWORD = "correct horse battery"
MINUTE = 60_000
ATTACKER = "203.0.113.9"
OPERATOR_DESK = "10.20.0.5"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[SecurityHeaders]:
    config = DashboardConfig(db=str(tmp_path / "host.sqlite3"), kdf=FAST_KDF)
    app = build_app(config)
    app.dashboard.accounts.add_user("olive", "operator", PASSWORD)
    yield app
    app.dashboard.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def accounts(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Accounts]:
    """The dashboard's accounts on each back end (several dashboards share PostgreSQL's)."""
    if request.param == "sqlite":
        target = str(tmp_path / "web.sqlite3")
    else:
        target = request.getfixturevalue("postgres_server").new_database()
    conn = Connection(target, read_only=False)
    accounts = Accounts(conn, FAST_KDF)
    accounts.add_user("olive", "operator", PASSWORD, at=0)
    yield accounts
    conn.close()


def browser(app: SecurityHeaders, address: str) -> TestClient:
    return TestClient(
        app, base_url="https://testserver", follow_redirects=False, client=(address, 50123)
    )


def try_sign_in(c: TestClient, password: str) -> tuple[int, str]:
    page = c.get("/login")
    token = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert token is not None
    answer = c.post(
        "/login", data={"csrf": token.group(1), "username": "olive", "password": password}
    )
    return answer.status_code, answer.text


def test_an_attacker_elsewhere_cannot_lock_the_operator_out(app: SecurityHeaders) -> None:
    attacker = browser(app, ATTACKER)
    for _ in range(12):
        status, _text = try_sign_in(attacker, "guess-guess-guess")
        assert status == 401
    status, text = try_sign_in(attacker, PASSWORD)  # the right one: still refused there
    assert status == 401 and "locked" in text and "at this address" in text
    status, _text = try_sign_in(browser(app, OPERATOR_DESK), PASSWORD)
    assert status == 303  # at her own desk the operator signs in
    entries = [(a.action, a.outcome, a.address) for a in app.dashboard.accounts.audit()]
    assert entries[0] == ("sign_in", "ok", OPERATOR_DESK)
    assert ("sign_in", "refused", ATTACKER) in entries


def wrong(accounts: Accounts, at: int, address: str = ATTACKER) -> str:
    answer = accounts.sign_in("olive", "not the password", address, at=at)
    assert answer.token is None
    return answer.reason


def test_each_further_wrong_password_doubles_the_lock_out(accounts: Accounts) -> None:
    at = 1_000_000
    for _ in range(4):
        assert wrong(accounts, at) == "wrong user name or password"
    assert "locked for 15 min" in wrong(accounts, at)
    assert "locked for 1 min" in wrong(accounts, at + 14 * MINUTE)  # refused, not counted
    # each lock run out, one more wrong password: twice as long as the one before
    until = at + 15 * MINUTE
    for minutes in (30, 60, 120, 240, 480, 960, 1440, 1440):  # at most a day
        assert f"locked for {minutes} min" in wrong(accounts, until + 1)
        until += 1 + minutes * MINUTE
    refused = accounts.sign_in("olive", PASSWORD, ATTACKER, at=until - MINUTE)
    assert refused.token is None and "locked" in refused.reason
    assert accounts.sign_in("olive", PASSWORD, ATTACKER, at=until + 1).token is not None
    assert wrong(accounts, until + 2) == "wrong user name or password"  # counted from zero


def test_an_ipv6_host_counts_as_its_prefix(accounts: Accounts) -> None:
    for host in range(1, 6):  # one /64, five addresses
        reason = wrong(accounts, 1000 + host, f"2001:db8:5:7::{host:x}")
    assert "locked" in reason
    refused = accounts.sign_in("olive", PASSWORD, "2001:db8:5:7:abcd::1", at=2000)
    assert refused.token is None
    assert accounts.sign_in("olive", PASSWORD, "2001:db8:5:8::1", at=2000).token is not None
    assert accounts.sign_in("olive", PASSWORD, "::ffff:10.20.0.5", at=2000).token is not None
    (pair,) = accounts.lockouts("olive")
    assert pair.source == "2001:db8:5:7::/64" and pair.failures == 5


def web_user(db: Path, *argv: str) -> int:
    try:
        return main(["host", "web-user", *argv, "--db", str(db)])
    except SystemExit as exc:  # refused by the argument parser
        return int(exc.code or 0)


def test_an_operator_unlocks_from_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "host.sqlite3"
    monkeypatch.setattr(sys, "stdin", io.StringIO(PASSWORD + "\n"))
    assert web_user(db, "add", "olive", "--role", "operator", "--password-stdin") == 0
    conn = Connection(str(db), read_only=False)
    accounts = Accounts(conn, FAST_KDF)
    for address in (ATTACKER, "198.51.100.7"):
        for _ in range(5):
            assert accounts.sign_in("olive", "not the password", address).token is None
    capsys.readouterr()
    assert web_user(db, "list") == 0
    listing = capsys.readouterr().out
    assert "locked at 2 address(es)" in listing and f"from {ATTACKER}: 5 wrong in a row" in listing

    assert web_user(db, "unlock", "olive", "--address", ATTACKER) == 0
    assert f"user olive unlocked at {ATTACKER}" in capsys.readouterr().out
    assert accounts.sign_in("olive", PASSWORD, ATTACKER).token is not None
    assert accounts.sign_in("olive", PASSWORD, "198.51.100.7").token is None  # still locked
    assert web_user(db, "unlock", "olive") == 0
    assert "was locked at 198.51.100.7" in capsys.readouterr().out
    assert accounts.sign_in("olive", PASSWORD, "198.51.100.7").token is not None
    unlocks = [a for a in accounts.audit() if a.action == "unlock"]
    assert len(unlocks) == 2 and all(a.username == "olive" and a.outcome == "ok" for a in unlocks)
    assert "(command line)" in unlocks[0].detail and "locked at 198.51.100.7" in unlocks[0].detail
    conn.close()

    for argv, message in [
        (("unlock", "mallory"), "no user 'mallory'"),
        (("unlock", "olive", "--address", "not-an-address"), "not an IP address"),
        (("unlock",), "the following arguments are required: username"),
    ]:
        assert web_user(db, *argv) == 2, argv
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1 and "Traceback" not in err, err
