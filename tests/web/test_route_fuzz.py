"""Every route of the floor dashboard, fuzzed (hypothesis): with and without a session, odd path
parameters (numbers past 64 bits, signs, Unicode digits, slashes, control characters), every
method, odd query strings and form bodies.  No request may be answered 5xx, and none may leave
a traceback in the log (issue 23, part 6).

The default run tries a few hundred requests; ``-m slow`` runs the same properties with many
more (``tox -e slow``).
"""

from __future__ import annotations

import logging
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.routing import Mount, Route
from starlette.testclient import TestClient

from kiosk.host.accounting.db import SqliteHostDb
from kiosk.host.web.accounts import Kdf
from kiosk.host.web.app import DashboardConfig, SecurityHeaders, build_app
from tests.helpers.web_records import populate

FAST_KDF = Kdf(n=2**10)
PASSWORD = "correct horse battery"
METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS")
#: path parameters: what the pages use, and what no page expects
ODD_VALUES = (
    "TK-A",
    "1",
    "0",
    "-1",
    str(2**63 - 1),
    str(2**63),
    str(2**86),
    "9" * 400,
    "²",
    "١٢",
    "1e9",
    " 1",
    "terminals",
    "audit",
    "..",
    "a/b",
    "%00",
    "\x00",
    "\u202e",
    "NaN",
)
QUERY_KEYS = ("period", "hours", "state", "cursor", "action", "x")
FORM_KEYS = ("csrf", "username", "password", "action", "text", "confirmed")


@dataclass
class Rig:
    app: SecurityHeaders
    anonymous: TestClient
    signed_in: dict[str, TestClient]


def _session(rig_app: SecurityHeaders, c: TestClient, user: str) -> None:
    """Give ``c`` a live session of ``user`` (signed in at an address the fuzz never uses, so
    that its wrong passwords cannot lock the rig out)."""
    accounts = rig_app.dashboard.accounts
    token = accounts.sign_in(user, PASSWORD, "192.0.2.250").token
    assert token is not None
    c.cookies.set("tk_session", token)


@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rig]:
    path = tmp_path_factory.mktemp("fuzz") / "host.sqlite3"
    db = SqliteHostDb(path)
    populate(db)
    config = DashboardConfig(db=str(path), kdf=FAST_KDF, stream_seconds=0.02, tick_seconds=0.01)
    app = build_app(config)
    app.dashboard.accounts.add_user("olive", "operator", PASSWORD)
    app.dashboard.accounts.add_user("audrey", "auditor", PASSWORD)
    signed_in = {}
    for user in ("olive", "audrey"):
        c = TestClient(app, base_url="https://testserver", follow_redirects=False)
        _session(app, c, user)
        signed_in[user] = c
    anonymous = TestClient(app, base_url="https://testserver", follow_redirects=False)
    yield Rig(app, anonymous, signed_in)
    app.dashboard.close()
    db.close()


def route_paths(app: SecurityHeaders) -> list[tuple[str, tuple[str, ...]]]:
    """(path template, methods) of every route of the application."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for r in app.app.routes:
        if isinstance(r, Route):
            out.append((r.path, tuple(sorted(r.methods or ()))))
        elif isinstance(r, Mount):
            out.append((r.path + "/{path}", ("GET",)))
    return out


def fill(template: str, values: list[str]) -> str:
    """The template with each ``{param}`` (``{param:conv}``) replaced by the next value."""
    out, rest = "", template
    while "{" in rest:
        before, _, after = rest.partition("{")
        _, _, rest = after.partition("}")
        value = values.pop(0) if values else "x"
        out += before + urllib.parse.quote(value, safe="")
    return out + rest


texts = st.text(max_size=40)
param_values = st.one_of(
    st.sampled_from(ODD_VALUES),
    st.integers(min_value=-(2**100), max_value=2**100).map(str),
    texts,
)


@dataclass(frozen=True)
class Req:
    """One fuzzed request."""

    method: str
    path: str
    query: dict[str, str]
    form: dict[str, str]
    who: str  # anonymous, olive (operator) or audrey (auditor)
    real_csrf: bool  # the session's own CSRF token in the form, to get past the check
    event_id: str | None  # a Last-Event-ID header


@st.composite
def requests(draw: st.DrawFn, routes: list[tuple[str, tuple[str, ...]]]) -> Req:
    template, methods = draw(st.sampled_from(routes))
    return Req(
        method=draw(st.one_of(st.sampled_from(methods), st.sampled_from(METHODS))),
        path=fill(template, draw(st.lists(param_values, min_size=3, max_size=3))),
        query=draw(st.dictionaries(st.sampled_from(QUERY_KEYS), texts, max_size=3)),
        form=draw(st.dictionaries(st.sampled_from(FORM_KEYS), texts, max_size=4)),
        who=draw(st.sampled_from(("anonymous", "olive", "audrey"))),
        real_csrf=draw(st.booleans()),
        event_id=draw(st.one_of(st.none(), st.text(alphabet="0123456789,²-", max_size=30))),
    )


def signed_in(rig: Rig, who: str) -> TestClient:
    """``who``'s client, signed in again if the fuzz signed it out (the rig is shared)."""
    c = rig.signed_in[who]
    if (
        "tk_session" not in c.cookies
        or rig.app.dashboard.accounts.session(c.cookies["tk_session"]) is None
    ):
        c.cookies.clear()
        _session(rig.app, c, who)
    return c


def send(rig: Rig, req: Req) -> int:
    c = rig.anonymous if req.who == "anonymous" else signed_in(rig, req.who)
    form = dict(req.form)
    if req.real_csrf and req.who != "anonymous":
        session = rig.app.dashboard.accounts.session(c.cookies["tk_session"])
        if session is not None:
            form["csrf"] = session.csrf
    headers: dict[bytes, bytes] = {}
    if req.event_id is not None:
        headers[b"last-event-id"] = req.event_id.encode()
    with_body = req.method in ("POST", "PUT", "PATCH", "DELETE") and bool(form)
    answer = c.request(
        req.method, req.path, params=req.query, headers=headers, data=form if with_body else None
    )
    return answer.status_code


def _no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    for record in caplog.records:
        assert record.exc_info is None, record.getMessage()
        assert "Traceback" not in record.getMessage(), record.getMessage()
        assert not (record.name.startswith("kiosk.host.web") and record.levelno >= logging.ERROR), (
            record.getMessage()
        )


def _fuzz(rig: Rig, caplog: pytest.LogCaptureFixture, examples: int) -> None:
    routes = route_paths(rig.app)
    assert len(routes) >= 15  # every page, form, API, feed, export and the static files

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(req=requests(routes))
    def property_(req: Req) -> None:
        caplog.clear()
        status = send(rig, req)
        assert status < 500, (status, req)
        _no_traceback(caplog)

    property_()


def test_no_route_answers_5xx_or_logs_a_traceback(
    rig: Rig, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    _fuzz(rig, caplog, 250)


@pytest.mark.slow
def test_no_route_answers_5xx_or_logs_a_traceback_long(
    rig: Rig, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    _fuzz(rig, caplog, 5000)


@pytest.mark.parametrize("prefix", ["/commands/", "/api/commands/"])
@pytest.mark.parametrize("number", [2**86, 2**63, 10**400, 0], ids=["2^86", "2^63", "10^400", "0"])
def test_a_command_id_out_of_range_is_404(
    rig: Rig, caplog: pytest.LogCaptureFixture, prefix: str, number: int
) -> None:
    answer = signed_in(rig, "audrey").get(f"{prefix}{number}")
    assert answer.status_code == 404, answer.text
    assert "no such command" in answer.text
    _no_traceback(caplog)


@pytest.mark.parametrize(
    ("method", "path", "extra"),
    [
        ("GET", "/charts?hours=%C2%B2", {}),  # a superscript two: a digit to str.isdigit
        ("GET", "/export/hours.csv?hours=%C2%B2", {}),
        ("GET", "/events?cursor=%C2%B2,1", {}),
        ("POST", "/logout", {"headers": {"content-length": "x", "content-type": "text/plain"}}),
    ],
)
def test_odd_numbers_in_queries_and_headers_are_4xx(
    rig: Rig, caplog: pytest.LogCaptureFixture, method: str, path: str, extra: dict[str, object]
) -> None:
    answer = signed_in(rig, "olive").request(method, path, **extra)  # type: ignore[arg-type]
    assert answer.status_code < 500, answer.text
    _no_traceback(caplog)


def test_a_body_past_the_bound_is_refused_even_without_its_length(rig: Rig) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(64):
            yield b"username=" + b"x" * 4096 + b"&"

    answer = rig.anonymous.post(
        "/login",
        content=chunks(),
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert answer.status_code == 413


def test_a_fault_is_one_line_in_the_log_and_a_plain_500(
    rig: Rig, caplog: pytest.LogCaptureFixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The net under the endpoints: were a page to fail, the log has one line (the traceback
    goes to a crash file) and the page says nothing of the code."""
    monkeypatch.setenv("TURBOKIOSK_CRASH_DIR", str(tmp_path))

    def broken(*_args: object) -> object:
        raise RuntimeError("the records went away")

    monkeypatch.setattr(rig.app.dashboard.accounts, "audit", broken)
    answer = signed_in(rig, "audrey").get("/audit")
    assert (answer.status_code, answer.text) == (500, "internal error")
    assert "content-security-policy" in answer.headers
    lines = [r.getMessage() for r in caplog.records if r.name == "kiosk.host.web"]
    assert len(lines) == 1 and "\n" not in lines[0], lines
    assert "RuntimeError: the records went away" in lines[0] and "GET /audit" in lines[0]
    assert all(r.exc_info is None for r in caplog.records)
    (crash,) = tmp_path.glob("turbokiosk-web-*.txt")
    assert "Traceback" in crash.read_text() and str(crash) in lines[0]
