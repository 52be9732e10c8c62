"""Issue 26, the floor dashboard as an operator meets it: a door opened outside service shows
(an alarm, the terminal's page), alarms are acknowledged (audited) and the floor's counts are
the list's, handpays with a PDF slip, vouchers found by the number printed on the ticket, the
casino's win and hold, lifetime meters a terminal a row and by name, a disable titled as one."""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from kiosk.host.accounting.db import HostDb, PostgresHostDb, SqliteHostDb
from kiosk.host.web.accounts import Kdf
from kiosk.host.web.app import DashboardConfig, SecurityHeaders, build_app
from tests.helpers.web_records import attendant_events, populate

PASSWORD = "correct horse battery"


def make_app(request: pytest.FixtureRequest, tmp_path: Path, back_end: str) -> SecurityHeaders:
    """The dashboard on a floor of :func:`populate` with TK-C's doors, tilt and handpays."""
    if back_end == "sqlite":
        target = str(tmp_path / "host.sqlite3")
        db: HostDb = SqliteHostDb(Path(target))
    else:
        target = request.getfixturevalue("postgres_server").new_database()
        db = PostgresHostDb(target)
    made = populate(db)
    db.hello("TK-C", "1.4.0", "sig-c", made.now)
    attendant_events(db, "TK-C", made.now)
    db.close()
    config = DashboardConfig(db=target, kdf=Kdf(n=2**10))
    app = build_app(config)
    app.dashboard.accounts.add_user("olive", "operator", PASSWORD)
    app.dashboard.accounts.add_user("audrey", "auditor", PASSWORD)
    return app


@pytest.fixture
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SecurityHeaders]:
    made = make_app(request, tmp_path, "sqlite")
    yield made
    made.dashboard.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def app_on(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SecurityHeaders]:
    """The same on each back end (the alarm queries and their acknowledgements)."""
    made = make_app(request, tmp_path, request.param)
    yield made
    made.dashboard.close()


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None, html
    return found.group(1)


def sign_in(app: SecurityHeaders, user: str) -> TestClient:
    c = TestClient(app, base_url="https://testserver", follow_redirects=False)
    page = c.get("/login")
    form = {"csrf": csrf_of(page.text), "username": user, "password": PASSWORD}
    assert c.post("/login", data=form).status_code == 303
    return c


def visible(html: str) -> str:
    """The page's text as a person reads it (tags and attributes dropped)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def row_of(html: str, terminal: str) -> str:
    found = re.search(rf'<tr data-terminal="{terminal}">(.*?)</tr>', html, re.S)
    assert found is not None, terminal
    return found.group(1)


def open_count(html: str, terminal: str) -> int:
    found = re.search(r'<td class="alarms num">(\d+)</td>', row_of(html, terminal))
    assert found is not None
    return int(found.group(1))


def test_a_door_opened_outside_service_is_on_the_floor_and_the_terminal_page(
    app_on: SecurityHeaders,
) -> None:
    c = sign_in(app_on, "olive")
    floor = c.get("/").text
    listed = re.findall(r'<li class="alarm [^"]*" data-key="([^"]+)"', floor)
    assert "main door opened outside service" in visible(floor)
    assert "logic door" not in visible(floor)  # opened by the technician, in service
    assert "tilt paper_out: printer out of paper" in visible(floor)
    assert "handpay $1,250.00 jackpot, seat 0" in visible(floor)
    # the floor's counts are the list's: a silent terminal's communication loss counts
    assert open_count(floor, "TK-SILENT") == 1
    counts = sum(open_count(floor, t) for t in ("TK-A", "TK-B", "TK-C", "TK-SILENT"))
    shown = re.search(r'id="n-alarms">(\d+)<', floor)
    assert shown is not None and int(shown.group(1)) == len(listed) == counts
    page = c.get("/terminals/TK-C").text
    events = visible(page[page.index('id="notices"') :])
    for seen in (
        "main door opened",
        "logic door opened",
        "service menu entered (technician)",
        "tilt paper_out: printer out of paper",
        "handpay $1,250.00 paid by attendant 7",
        "handpay $40.00 cancelled credits, seat 0: waiting for the attendant",
        "powered up, software 1.4.0",
    ):
        assert seen in events, seen
    assert c.get("/terminals/TK-NOPE").status_code == 404


def test_meters_have_names_and_terminals_are_rows(app: SecurityHeaders) -> None:
    c = sign_in(app, "olive")
    page = visible(c.get("/terminals/TK-C").text)
    assert "Bills in $100 (notes) 2" in page
    assert "Turbo Icon Games - Version 2, default pay tables: wagered $15.00" in page
    assert "Wagered on First Down $5.00" in page
    for key in ("bills_in.10000", "game.icon-v2.default.in", "wager_in.first_down", "coin_in"):
        assert key not in page, key  # only in a tooltip, for machines
    meters = c.get("/meters?period=24h").text
    table = meters[meters.index('<table id="meters">') :]
    assert [t for t in ("TK-A", "TK-B", "TK-C") if f'<tr data-terminal="{t}">' in table] == [
        "TK-A",
        "TK-B",
        "TK-C",
    ]
    head = visible(table[: table.index("</thead>")])
    assert "Coin in (wagered)" in head and "Tickets out" in head and "coin_in" not in head


def test_the_casino_win_is_coin_in_less_what_was_paid(app: SecurityHeaders) -> None:
    c = sign_in(app, "olive")
    meters = c.get("/meters?period=24h").text
    # populate: coin-in $27.00, the players paid $17.50: the casino won $9.50, hold 35.19%
    win = re.search(r'id="floor-win">([^<]+)<', meters)
    hold = re.search(r'id="floor-hold">([^<]+)<', meters)
    assert win is not None and hold is not None
    assert (win.group(1), hold.group(1)) == ("$9.50", "35.19%")
    assert "paid to players" in meters and "casino win" in meters
    charts = c.get("/charts?hours=6").text
    assert "Casino win per hour (coin-in less paid)" in charts


def test_an_operator_acknowledges_an_alarm_audited(app_on: SecurityHeaders) -> None:
    app = app_on
    c = sign_in(app, "olive")
    floor = c.get("/").text
    key = re.search(r'data-key="(t:\d+)"[^>]*>Acknowledge', floor)
    door = list(re.findall(r'class="alarm sev-alarm door_open" data-key="([^"]+)"', floor))
    assert key is not None and len(door) == 1
    before = open_count(floor, "TK-C")
    answer = c.post(
        "/alarms/ack", data={"csrf": csrf_of(floor), "key": door[0], "back": "/terminals/TK-C"}
    )
    assert (answer.status_code, answer.headers["location"]) == (303, "/terminals/TK-C")
    floor = c.get("/").text
    assert open_count(floor, "TK-C") == before - 1
    assert "main door opened outside service" not in visible(floor)
    alarms = c.get("/alarms").text
    item = re.search(rf'data-key="{door[0]}">(.*?)</li>', alarms, re.S)
    assert item is not None and "acknowledged by olive" in visible(item.group(1))
    entry = app.dashboard.accounts.audit()[0]
    assert (entry.username, entry.action, entry.outcome, entry.terminal_id) == (
        "olive",
        "alarm_ack",
        "ok",
        "TK-C",
    )
    assert door[0] in entry.detail and "main door opened outside service" in entry.detail
    # once only; an unknown alarm; no token; an auditor
    c.post("/alarms/ack", data={"csrf": csrf_of(floor), "key": door[0]})
    assert [e.action for e in app.dashboard.accounts.audit()].count("alarm_ack") == 1
    assert c.post("/alarms/ack", data={"csrf": csrf_of(floor), "key": "t:999"}).status_code == 404
    assert c.post("/alarms/ack", data={"key": "t:1"}).status_code == 403
    a = sign_in(app, "audrey")
    page = a.get("/").text
    assert "Acknowledge" not in page
    assert a.post("/alarms/ack", data={"csrf": csrf_of(page), "key": "t:1"}).status_code == 403
    assert app.dashboard.accounts.audit()[0].outcome == "refused"


def test_a_communication_loss_is_acknowledged_too(app: SecurityHeaders) -> None:
    c = sign_in(app, "olive")
    floor = c.get("/").text
    key = re.search(r'data-key="(c:TK-SILENT:\d+)"', floor)
    assert key is not None and open_count(floor, "TK-SILENT") == 1
    c.post("/alarms/ack", data={"csrf": csrf_of(floor), "key": key.group(1), "back": "/"})
    assert open_count(c.get("/").text, "TK-SILENT") == 0


def pdf_text(pdf: bytes) -> str:
    """The text a PDF draws (its content streams, inflated)."""
    out = []
    for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", pdf, re.S):
        try:
            out.append(zlib.decompress(stream).decode("latin-1"))
        except zlib.error:
            out.append(stream.decode("latin-1"))
    return "".join(out)


def test_handpays_are_listed_with_a_printable_slip(app: SecurityHeaders) -> None:
    c = sign_in(app, "audrey")  # an auditor prints a slip too
    page = c.get("/handpays").text
    rows = re.findall(r'<tr class="(paid|waiting)" data-handpay="([^"]+)">', page)
    assert [r[0] for r in rows] == ["waiting", "paid"]  # newest first
    assert "paid " in visible(page) and "by attendant 7" in visible(page)
    slip = c.get(f"/handpays/{rows[1][1]}/slip.pdf")
    assert slip.status_code == 200 and slip.headers["content-type"] == "application/pdf"
    assert slip.content.startswith(b"%PDF-")
    text = pdf_text(slip.content)
    for seen in ("HANDPAY SLIP", "$1,250.00", "ONE THOUSAND TWO HUNDRED FIFTY DOLLARS", "TK-C"):
        assert seen in text, seen
    assert "Jackpot" in text and "by attendant 7" in text and "by audrey" in text
    assert "Player: signature" in text
    entry = app.dashboard.accounts.audit()[0]
    assert (entry.action, entry.terminal_id) == ("handpay_slip", "TK-C")
    assert c.get("/handpays/TK-C:1:999:0/slip.pdf").status_code == 404
    assert "TK-C:1:111:0" in c.get("/export/handpays.csv").text


def test_vouchers_are_found_by_the_number_printed_on_the_ticket(app: SecurityHeaders) -> None:
    c = sign_in(app, "olive")
    number = app.dashboard.floor.vouchers("issued")[0].validation_number
    printed = f"{number[:2]}-{number[2:6]}-{number[6:10]}-{number[10:14]}-{number[14:]}"
    for asked in (printed, number, f" {printed} ", number[-6:]):
        page = c.get("/vouchers", params={"number": asked}).text
        found = page[page.index('<table id="found">') : page.index("</table>")]
        assert printed in found and "issued" in found, asked
    page = c.get("/vouchers", params={"number": "00-0000-0000-0000-0000"}).text
    assert "No voucher with that number." in page
    for bad in ("12ab", "123", "1" * 19, "１２３４５"):
        page = c.get("/vouchers", params={"number": bad}).text
        assert 'id="search-error"' in page, bad
    assert printed in c.get("/vouchers").text  # every list shows the number as printed


def test_a_disable_is_titled_for_what_it_does(app: SecurityHeaders) -> None:
    c = sign_in(app, "olive")
    form = c.get("/terminals/TK-A/command?action=disable").text
    data = {"csrf": csrf_of(form), "action": "disable", "text": "count room", "confirmed": "yes"}
    answer = c.post("/terminals/TK-A/command", data=data)
    page = c.get(answer.headers["location"]).text
    title = re.search(r"<title>(.*?)</title>", page)
    assert title is not None and title.group(1).startswith("Disable TK-A: count room")
    assert "set enabled" not in page and "Disable TK-A: count room" in visible(page)
    data |= {"action": "enable", "text": ""}
    page = c.get(c.post("/terminals/TK-A/command", data=data).headers["location"]).text
    assert "Enable TK-A" in visible(page)


def test_the_new_pages_need_a_signed_in_user(app: SecurityHeaders) -> None:
    c = TestClient(app, base_url="https://testserver", follow_redirects=False)
    for page in ("/terminals/TK-C", "/handpays", "/handpays/TK-C:1:109:0/slip.pdf"):
        assert c.get(page).status_code == 303, page
    assert c.post("/alarms/ack", data={"key": "t:1"}).status_code == 303
