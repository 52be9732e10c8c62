"""The floor dashboard's application through Starlette's test client, on real host records
(SQLite; the floor queries also on PostgreSQL): sign-in, sessions, lock-out, CSRF, roles,
commands into the host's command path, alarms and the live feed, CSV."""

from __future__ import annotations

import csv
import io
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from kiosk.host.accounting.db import HostDb, SqliteHostDb
from kiosk.host.web import live
from kiosk.host.web.accounts import MAX_FAILURES, Accounts, Kdf
from kiosk.host.web.app import DashboardConfig, SecurityHeaders, build_app
from kiosk.host.web.floor import Floor
from kiosk.host.web.sql import Connection
from tests.helpers.web_records import double_redemption, populate, printed_voucher

FAST_KDF = Kdf(n=2**10)  # the production cost (2**15) is tested by the command-line test
PASSWORD = "correct horse battery"


@pytest.fixture
def records(tmp_path: Path) -> Iterator[tuple[HostDb, str]]:
    db = SqliteHostDb(tmp_path / "host.sqlite3")
    yield db, str(tmp_path / "host.sqlite3")
    db.close()


def make_app(target: str) -> SecurityHeaders:
    config = DashboardConfig(db=target, kdf=FAST_KDF, stream_seconds=0.3, tick_seconds=0.05)
    app = build_app(config)
    app.dashboard.accounts.add_user("olive", "operator", PASSWORD)
    app.dashboard.accounts.add_user("audrey", "auditor", PASSWORD)
    return app


@pytest.fixture
def app(records: tuple[HostDb, str]) -> Iterator[SecurityHeaders]:
    populate(records[0])
    app = make_app(records[1])
    yield app
    app.dashboard.close()


def client(app: SecurityHeaders) -> TestClient:
    return TestClient(app, base_url="https://testserver", follow_redirects=False)


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None, html
    return found.group(1)


def sign_in(app: SecurityHeaders, user: str, password: str = PASSWORD) -> TestClient:
    c = client(app)
    page = c.get("/login")
    answer = c.post(
        "/login", data={"csrf": csrf_of(page.text), "username": user, "password": password}
    )
    assert answer.status_code == 303 and answer.headers["location"] == "/", answer.text
    return c


def audit(app: SecurityHeaders) -> list[tuple[str, str, str, str]]:
    return [(a.username, a.action, a.outcome, a.detail) for a in app.dashboard.accounts.audit()]


PAGES = ("/", "/meters", "/charts", "/vouchers", "/alarms", "/audit", "/export/terminals.csv")


def test_every_page_needs_a_signed_in_user(app: SecurityHeaders) -> None:
    c = client(app)
    for page in PAGES:
        answer = c.get(page)
        assert (answer.status_code, answer.headers["location"]) == (303, "/login"), page
    assert c.get("/events").status_code == 401
    assert c.get("/api/commands/1").status_code == 401
    c.cookies.set("tk_session", "forged-token")
    assert c.get("/").status_code == 303


def test_sign_in_cookie_headers_and_sign_out(app: SecurityHeaders) -> None:
    c = client(app)
    page = c.get("/login")
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    answer = c.post(
        "/login", data={"csrf": csrf_of(page.text), "username": "olive", "password": PASSWORD}
    )
    cookie = answer.headers["set-cookie"]
    assert "tk_session=" in cookie and "HttpOnly" in cookie and "Secure" in cookie
    assert "SameSite=strict" in cookie
    floor = c.get("/")
    assert floor.status_code == 200 and "olive (operator)" in floor.text
    token = c.cookies["tk_session"]
    stored = app.dashboard.write.rows("SELECT token_sha256 FROM web_sessions")
    assert stored and token not in {r[0] for r in stored}  # only its hash is kept
    assert c.post("/logout", data={"csrf": csrf_of(floor.text)}).status_code == 303
    assert c.get("/").status_code == 303  # the session ended on the server, not only the cookie
    c.cookies.set("tk_session", token)
    assert c.get("/").status_code == 303
    assert [e[:3] for e in audit(app)[:2]] == [
        ("olive", "sign_out", "ok"),
        ("olive", "sign_in", "ok"),
    ]


def test_wrong_passwords_lock_the_user_out(app: SecurityHeaders) -> None:
    c = client(app)
    for attempt in range(MAX_FAILURES):
        page = c.get("/login")
        answer = c.post(
            "/login", data={"csrf": csrf_of(page.text), "username": "olive", "password": "nope"}
        )
        assert answer.status_code == 401
        expected = "locked" if attempt == MAX_FAILURES - 1 else "wrong user name or password"
        assert expected in answer.text
    page = c.get("/login")
    answer = c.post(
        "/login", data={"csrf": csrf_of(page.text), "username": "olive", "password": PASSWORD}
    )
    assert answer.status_code == 401 and "locked for 15 min" in answer.text
    page = c.get("/login")
    c.post("/login", data={"csrf": csrf_of(page.text), "username": "mallory", "password": "x"})
    entries = audit(app)
    assert entries[0] == ("mallory", "sign_in", "refused", "unknown user")
    assert entries[1] == ("olive", "sign_in", "refused", "locked out")
    assert entries[2][3] == (
        f"wrong password ({MAX_FAILURES} in a row from testclient), locked out there for 15 min"
    )
    assert sign_in(app, "audrey")  # another user is not affected


def test_sessions_expire_when_idle_and_after_the_longest_session(tmp_path: Path) -> None:
    conn = Connection(str(tmp_path / "web.sqlite3"), read_only=False)
    accounts = Accounts(conn, FAST_KDF, idle_seconds=60, max_seconds=600)
    accounts.add_user("olive", "operator", PASSWORD, at=0)
    token = accounts.sign_in("olive", PASSWORD, "127.0.0.1", at=1_000).token
    assert token is not None
    assert accounts.session(token, at=50_000) is not None
    assert accounts.session(token, at=50_000 + 60_001) is None  # idle for more than a minute
    assert accounts.session(token, at=50_000) is None  # ended for good
    token = accounts.sign_in("olive", PASSWORD, "127.0.0.1", at=10_000).token
    assert token is not None
    at = 10_000
    while at < 10_000 + 600_000 - 50_000:
        at += 50_000
        assert accounts.session(token, at=at) is not None
    assert accounts.session(token, at=10_000 + 600_001) is None  # in use, but 10 min is the most
    conn.close()


def test_a_form_without_its_csrf_token_is_refused(app: SecurityHeaders) -> None:
    c = client(app)
    c.get("/login")
    answer = c.post("/login", data={"username": "olive", "password": PASSWORD})
    assert answer.status_code == 403 and "tk_session" not in c.cookies
    c = sign_in(app, "olive")
    form = {"action": "disable", "text": "count room", "confirmed": "yes"}
    assert c.post("/terminals/TK-A/command", data=form).status_code == 403
    wrong = {**form, "csrf": "x" * 43}
    assert c.post("/terminals/TK-A/command", data=wrong).status_code == 403
    assert c.post("/logout", data={}).status_code == 403
    assert app.dashboard.read.rows("SELECT COUNT(*) FROM commands") == [(0,)]
    assert ("olive", "/terminals/TK-A/command", "refused", "bad CSRF token") in audit(app)


def test_a_command_is_confirmed_then_queued_for_the_host(app: SecurityHeaders) -> None:
    c = sign_in(app, "olive")
    form_page = c.get("/terminals/TK-A/command?action=disable")
    token = csrf_of(form_page.text)
    form = {"csrf": token, "action": "disable", "text": "count  room"}
    review = c.post("/terminals/TK-A/command", data=form)
    assert review.status_code == 200 and "disable TK-A: count room" in review.text
    assert app.dashboard.read.rows("SELECT COUNT(*) FROM commands") == [(0,)]  # not yet
    sent = c.post("/terminals/TK-A/command", data={**form, "confirmed": "yes"})
    assert sent.status_code == 303
    command_id = int(sent.headers["location"].rsplit("/", 1)[1])
    rows = app.dashboard.read.rows(
        "SELECT terminal_id, kind, body, state FROM commands WHERE command_id = ?", (command_id,)
    )
    assert rows == [
        ("TK-A", "set_enabled", '{"enabled": false, "reason": "count room"}', "pending")
    ]
    assert c.get(f"/api/commands/{command_id}").json()["state"] == "pending"
    assert audit(app)[0][:3] == ("olive", "command_disable", "queued")
    # refused before anything is queued: a disable without reason, a message too long, no such
    # terminal or action
    for terminal, action, text in [
        ("TK-A", "disable", " "),
        ("TK-A", "message", "x" * 201),
        ("TK-NONE", "enable", ""),
        ("TK-A", "ram-clear", ""),
    ]:
        answer = c.post(
            f"/terminals/{terminal}/command",
            data={"csrf": token, "action": action, "text": text, "confirmed": "yes"},
        )
        assert answer.status_code == 200 and 'id="command-error"' in answer.text, action
    assert app.dashboard.read.rows("SELECT COUNT(*) FROM commands") == [(1,)]


def test_an_auditor_reads_but_sends_no_command(app: SecurityHeaders) -> None:
    c = sign_in(app, "audrey")
    for page in PAGES:
        assert c.get(page).status_code == 200, page
    assert "/command?action=" not in c.get("/").text
    assert c.get("/terminals/TK-A/command?action=disable").status_code == 403
    token = csrf_of(c.get("/").text)
    form = {"csrf": token, "action": "disable", "text": "x", "confirmed": "yes"}
    assert c.post("/terminals/TK-A/command", data=form).status_code == 403
    assert app.dashboard.read.rows("SELECT COUNT(*) FROM commands") == [(0,)]
    assert audit(app)[0][:3] == ("audrey", "command", "refused")


def test_the_pages_show_the_floor(app: SecurityHeaders, records: tuple[HostDb, str]) -> None:
    c = sign_in(app, "olive")
    floor = c.get("/").text
    row = re.search(r'<tr data-terminal="TK-SILENT">(.*?)</tr>', floor, re.S)
    assert row is not None and "OFFLINE" in row.group(1)
    row = re.search(r'<tr data-terminal="TK-B">(.*?)</tr>', floor, re.S)
    assert row is not None and "online" in row.group(1) and "mismatch" in row.group(1)
    alarms = c.get("/alarms").text
    for kind in ("double redemption", "quarantined", "meters backwards", "ram cleared"):
        assert kind in alarms, kind
    assert "communication_loss" in alarms and "no word from TK-SILENT" in alarms
    meters = c.get("/meters?period=24h").text
    assert "turbo-football" in meters and "$27.00" in meters  # floor coin-in
    row = re.search(r'<tr data-terminal="TK-A">(.*?)</tr>', meters, re.S)
    assert row is not None and '<td class="num">$20.00</td>' in row.group(1)  # TK-A in dollars
    assert c.get("/meters?period=decade").status_code == 400
    charts = c.get("/charts?hours=6").text
    assert charts.count("<svg") == 3 and charts.count('<rect class="bar"') == 18
    vouchers = c.get("/vouchers?state=quarantined").text
    assert "98-7654-3210-9876-5432" in vouchers  # as the ticket prints it
    assert c.get("/vouchers?state=<script>").status_code == 400


def test_csv_exports_count_the_money_and_are_audited(app: SecurityHeaders) -> None:
    c = sign_in(app, "audrey")
    answer = c.get("/export/games.csv?period=24h")
    assert answer.headers["content-type"].startswith("text/csv")
    assert "attachment" in answer.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    by_game = {(r["terminal_id"], r["edition"]): r for r in rows}
    football = by_game[("TK-A", "turbo-football")]
    assert (football["games"], football["coin_in_cents"], football["paid_cents"]) == (
        "2",
        "1700",
        "850",
    )
    assert (football["win_cents"], football["hold_percent"]) == ("850", "50.00")
    assert sum(int(r["coin_in_cents"]) for r in rows) == 2700
    hours = list(csv.DictReader(io.StringIO(c.get("/export/hours.csv?hours=24").text)))
    assert len(hours) == 24 and sum(int(h["paid_cents"]) for h in hours) == 1750
    assert sum(int(h["win_cents"]) for h in hours) == 2700 - 1750
    vouchers = list(csv.DictReader(io.StringIO(c.get("/export/vouchers.csv").text)))
    assert sorted(v["state"] for v in vouchers) == ["issued", "quarantined", "redeemed"]
    assert c.get("/export/secrets.csv").status_code == 404
    assert audit(app)[0][:3] == ("audrey", "export", "ok")


def test_csv_cells_never_start_a_formula(app: SecurityHeaders, records: tuple[HostDb, str]) -> None:
    records[0].hello("TK-C", '=HYPERLINK("http://x")', "sig", 1)
    c = sign_in(app, "olive")
    text = c.get("/export/terminals.csv").text
    assert "'=HYPERLINK" in text and ",=HYPERLINK" not in text


def test_alarms_reach_the_live_feed(app: SecurityHeaders, records: tuple[HostDb, str]) -> None:
    db = records[0]
    c = sign_in(app, "olive")
    cursor = re.search(r'data-cursor="([0-9,]+)"', c.get("/").text)
    assert cursor is not None
    number = printed_voucher(db, "TK-B", 4000, 40, 0 + db.terminals()[0].last_seen_ms)
    double_redemption(db, number, "TK-B", "TK-A", db.terminals()[0].last_seen_ms)
    with c.stream("GET", f"/events?cursor={cursor.group(1)}") as answer:
        assert answer.headers["content-type"].startswith("text/event-stream")
        text = "".join(answer.iter_text())
    alarms = [line for line in text.splitlines() if line.startswith('data: {"at_ms"')]
    assert len([a for a in alarms if "double_redemption" in a and number in a]) == 1
    assert not [a for a in alarms if "quarantined" in a]  # before the page's cursor
    assert "event: floor" in text and '"offline": 1' in text
    assert [a for a in alarms if "communication_loss" in a and "TK-SILENT" in a]


def test_the_feed_moves_its_cursor_on(records: tuple[HostDb, str]) -> None:
    db, target = records
    populate(db)
    floor = Floor(Connection(target, read_only=True))
    cursor = live.AlarmCursor()
    first = live.new_alarms(floor, cursor, db.terminals()[0].last_seen_ms)
    kinds = sorted(a.kind for a in first)
    assert kinds == sorted(
        [
            "ram_cleared",
            "meters_backwards",
            "quarantined",
            "double_redemption",
            "communication_loss",
        ]
    )
    assert live.new_alarms(floor, cursor, db.terminals()[0].last_seen_ms) == []
    assert live.AlarmCursor.parse(cursor.text()) is not None
    assert live.AlarmCursor.parse("1,x") is None and live.AlarmCursor.parse("9" * 30 + ",1") is None
    shared = live.SharedFloor(floor, max_age_seconds=0.2)
    first_floor = shared.get()
    db.hello("TK-NEW", "1.0", "sig", db.terminals()[0].last_seen_ms)
    assert shared.get() is first_floor  # one query per interval for every stream
    time.sleep(0.25)
    assert [t["terminal_id"] for t in shared.get()["terminals"]][-1] == "TK-SILENT"
    assert "TK-NEW" in {t["terminal_id"] for t in shared.get()["terminals"]}


def test_the_floor_connection_writes_nothing(app: SecurityHeaders) -> None:
    import sqlite3

    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        app.dashboard.read.rows("DELETE FROM vouchers")
    assert len(app.dashboard.floor.vouchers()) == 3


def test_the_floor_queries_on_postgresql(request: pytest.FixtureRequest) -> None:
    from kiosk.host.accounting.db import PostgresHostDb

    server = request.getfixturevalue("postgres_server")
    dsn = server.new_database()
    db = PostgresHostDb(dsn)
    made = populate(db)
    app = make_app(dsn)
    try:
        floor = app.dashboard.floor
        games = floor.games_by_terminal(0, made.now + 1)
        assert sum(g.coin_in for g in games) == made.coin_in
        assert sum(g.paid for g in games) == made.win  # what the players were paid
        assert sum(g.win for g in games) == made.coin_in - made.win
        assert (
            sum(h.games for h in floor.games_by_hour(made.now - 3 * 3_600_000, made.now + 1)) == 4
        )
        kinds = {a.kind for a in floor.alarms()}
        assert {"double_redemption", "quarantined", "meters_backwards", "ram_cleared"} <= kinds
        assert [s.value("coin_in") for s in floor.latest_meters()] == [2000, 700]
        import psycopg

        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            app.dashboard.read.rows("DELETE FROM vouchers")
        c = sign_in(app, "olive")
        assert "TK-SILENT" in c.get("/").text
    finally:
        app.dashboard.close()
        db.close()


def test_a_chart_draws_each_hour_on_round_ticks_through_zero() -> None:
    from kiosk.host.web.charts import Bar, axis, bar_chart

    assert axis([21150, -6100, 400]) == (-10000, 30000, 10000)
    assert axis([]) == (0, 50, 50)
    svg = str(bar_chart("Hold <per> hour", [Bar("13h", 2500), Bar("14h", -700)], "hold"))
    assert svg.count('<rect class="bar"') == 2 and "Hold &lt;per&gt; hour" in svg
    assert "-$7.00" in svg and ">$0.00<" in svg
    zero = float(re.findall(r'class="axis"[^>]*y1="([0-9.]+)"', svg)[0])
    tops = [float(y) for y in re.findall(r'<rect class="bar" x="[0-9.]+" y="([0-9.]+)"', svg)]
    assert tops[0] < zero and tops[1] == zero  # the win above the zero line, the loss below


def test_money_meters_are_told_from_counts() -> None:
    from kiosk.host.web.floor import is_money, meter_order

    money = ["coin_in", "tickets_out", "wager_in.ante", "wager_out.bet a", "game.stadium.p.out"]
    counts = ["bills_in.100", "bills_in_count", "game.stadium.p.played", "door_opens"]
    assert all(is_money(n) for n in money) and not any(is_money(n) for n in counts)
    assert meter_order({"zeta", "coin_out", "coin_in"}) == ["coin_in", "coin_out", "zeta"]
