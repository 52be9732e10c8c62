"""The floor dashboard as a Starlette application (decision 0029).

Pages: the floor (terminals on and offline, live, and the open alarms), a terminal's page (its
doors, tilts, handpays, power; meters by name; vouchers), meters by terminal, game and period,
the hourly charts, vouchers (searched by number) with their audit, handpays with a printable
slip (PDF), alarms (live; an operator acknowledges them), the dashboard's own audit; CSV exports
of each; commands (enable, disable, message) with a confirmation step.  Every page needs a
signed-in user (:mod:`kiosk.host.web.accounts`); every ``POST`` needs the session's CSRF token;
commands need the operator role.  The live feed is Server-Sent Events (:mod:`kiosk.host.web.live`).
"""

from __future__ import annotations

import asyncio
import csv
import hmac
import io
import json
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import (
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kiosk.host.web import live
from kiosk.host.web.accounts import Accounts, Kdf, Session
from kiosk.host.web.charts import Bar, bar_chart, hour_label
from kiosk.host.web.commands import (
    ACTIONS,
    CommandQueue,
    HostRecordsQueue,
    checked,
    command_title,
)
from kiosk.host.web.floor import (
    HOUR_MS,
    LIFETIME_COLUMNS,
    OFFLINE_AFTER_SECONDS,
    PERIODS,
    PROGRESSIVE_STALE_SECONDS,
    VOUCHER_STATES,
    Floor,
    is_money,
    meter_order,
    now_ms,
)
from kiosk.host.web.meter_names import edition_title, meter_name
from kiosk.host.web.safety import BodyTooLargeError, bounded, logged_fault
from kiosk.host.web.sql import Connection
from kiosk.kernel.errors import CommandError
from kiosk.kernel.money_text import dollars
from kiosk.kernel.time_text import clock_time, local_stamp
from kiosk.terminal.devices.voucher import grouped_number

HERE = Path(__file__).parent
SESSION_COOKIE = "tk_session"
LOGIN_COOKIE = "tk_login"
MAX_FORM_BYTES = 16_384
#: the largest row id either back end stores (a signed 64-bit integer)
MAX_ROW_ID = 2**63 - 1
#: vouchers listed on the page, newest first (every one is in the CSV)
VOUCHERS_SHOWN = 50
#: what a voucher search may hold besides digits (as printed: 12-3456-7890-1234-5678)
NUMBER_SEPARATORS = str.maketrans("", "", "- .")
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self';"
        b" frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
    (b"strict-transport-security", b"max-age=31536000"),
]


@dataclass
class DashboardConfig:
    """How the dashboard runs."""

    db: str  #: the host's records: a SQLite file or a PostgreSQL URL/DSN
    offline_after_seconds: int = OFFLINE_AFTER_SECONDS
    #: a progressive not reported for this long is shown stale
    progressive_stale_seconds: int = PROGRESSIVE_STALE_SECONDS
    #: a live stream ends after this long (the browser reconnects at once, its session checked)
    stream_seconds: float = 300.0
    tick_seconds: float = 1.0
    idle_seconds: int = 15 * 60
    max_seconds: int = 8 * 3600
    kdf: Kdf = field(default_factory=Kdf)
    #: where commands go (default: the host's records, as ``turbokiosk host send`` does)
    commands: CommandQueue | None = None
    #: cookies only over TLS (always, except in tests of the app without a server)
    secure_cookies: bool = True


class SignInNeededError(Exception):
    """No live session: the browser is sent to the sign-in page."""


class Dashboard:
    """The application's state: connections, accounts, templates."""

    def __init__(self, config: DashboardConfig) -> None:
        self.config = config
        self.write = Connection(config.db, read_only=False)  # first: it sets up WAL for SQLite
        self.read = Connection(config.db, read_only=True)
        self.floor = Floor(self.read, config.offline_after_seconds)
        self.shared_floor = live.SharedFloor(self.floor, config.tick_seconds * 0.9)
        self.accounts = Accounts(self.write, config.kdf, config.idle_seconds, config.max_seconds)
        self.commands: CommandQueue = config.commands or HostRecordsQueue(config.db)
        self.templates = Jinja2Templates(directory=str(HERE / "templates"))
        env = self.templates.env
        env.filters["when"] = local_stamp
        env.filters["clock"] = clock_time
        env.filters["dollars"] = dollars
        env.filters["percent"] = lambda v: "-" if v is None else f"{v:.2f}%"
        env.filters["ticket"] = ticket_number
        env.filters["meter"] = meter_name
        env.filters["edition"] = edition_title
        env.globals["command_title"] = command_title
        env.globals["periods"] = PERIODS
        env.tests["money_meter"] = is_money

    def close(self) -> None:
        """Close the connections."""
        close = getattr(self.commands, "close", None)
        if close is not None:
            close()
        self.read.close()
        self.write.close()

    # --- sessions -------------------------------------------------------------------------------

    async def session(self, request: Request) -> Session:
        token = request.cookies.get(SESSION_COOKIE, "")
        session = await run_in_threadpool(self.accounts.session, token) if token else None
        if session is None:
            raise SignInNeededError
        return session

    async def form(self, request: Request, session: Session | None) -> FormData:
        """The posted form, its CSRF token checked (the session's, or the sign-in cookie's)."""
        given = request.headers.get("content-length") or "0"
        if not (given.isascii() and given.isdigit()):
            raise HTTPException(400, "bad Content-Length")
        if len(given) > 9 or int(given) > MAX_FORM_BYTES:
            raise HTTPException(413, "form too large")
        form = await request.form(max_files=0, max_fields=20, max_part_size=MAX_FORM_BYTES)
        given = str(form.get("csrf", ""))
        expected = session.csrf if session is not None else request.cookies.get(LOGIN_COOKIE, "")
        if not expected or not hmac.compare_digest(given.encode(), expected.encode()):
            user = session.user.username if session is not None else ""
            await run_in_threadpool(
                self.accounts.log,
                user,
                request.url.path,
                "refused",
                "",
                "bad CSRF token",
                _address(request),
            )
            raise HTTPException(
                403, "the form's security token is missing or wrong: reload the page"
            )
        return form

    def page(self, request: Request, name: str, session: Session | None, **data: Any) -> Response:
        context = {"session": session, "now_ms": now_ms(), "path": request.url.path, **data}
        return self.templates.TemplateResponse(request, name, context)


def ticket_number(number: str) -> str:
    """A validation number as the ticket prints it (``12-3456-7890-1234-5678``)."""
    return grouped_number(number) if len(number) == 18 and number.isdigit() else number


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else ""


def _period(request: Request) -> tuple[str, int, int]:
    name = request.query_params.get("period", "24h")
    if name not in PERIODS:
        raise HTTPException(400, f"period: one of {', '.join(PERIODS)}")
    at = now_ms()
    back = PERIODS[name][1]
    return name, (at - back if back else 0), at + 1


def _hours(request: Request) -> int:
    text = request.query_params.get("hours", "24")
    if not (text.isascii() and text.isdigit() and len(text) < 5) or not 1 <= int(text) <= 24 * 31:
        raise HTTPException(400, "hours: 1 to 744")
    return int(text)


Endpoint = Callable[[Dashboard, Request], Awaitable[Response]]


def build_app(config: DashboardConfig) -> SecurityHeaders:
    """The dashboard application (``app.state.dashboard`` holds its state)."""
    dash = Dashboard(config)

    def route(path: str, endpoint: Endpoint, methods: Sequence[str] = ("GET",)) -> Route:
        async def call(request: Request) -> Response:
            return await endpoint(dash, request)

        return Route(path, call, methods=list(methods))

    async def need_sign_in(request: Request, exc: Exception) -> Response:
        if request.url.path.startswith(("/events", "/api/")):
            return PlainTextResponse("sign in first", status_code=401)
        return RedirectResponse("/login", status_code=303)

    async def internal(request: Request, exc: Exception) -> Response:
        return PlainTextResponse("internal error", status_code=500)

    async def too_large(request: Request, exc: Exception) -> Response:
        return PlainTextResponse(str(exc), status_code=413)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return PlainTextResponse(str(exc.detail), status_code=exc.status_code)

    app = Starlette(
        routes=[
            route("/login", login_page),
            route("/login", login, ("POST",)),
            route("/logout", logout, ("POST",)),
            route("/", floor_page),
            route("/meters", meters_page),
            route("/charts", charts_page),
            route("/vouchers", vouchers_page),
            route("/alarms", alarms_page),
            route("/alarms/ack", alarm_ack, ("POST",)),
            route("/terminals/{terminal}", terminal_page),
            route("/handpays", handpays_page),
            route("/handpays/{message_id}/slip.pdf", handpay_slip),
            route("/progressives", progressives_page),
            route("/audit", audit_page),
            route("/terminals/{terminal}/command", command_form),
            route("/terminals/{terminal}/command", command_post, ("POST",)),
            route("/commands/{command_id}", command_page),
            route("/api/commands/{command_id}", command_json),
            route("/events", events),
            route("/export/{name}.csv", export),
            Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
        ],
        exception_handlers={
            SignInNeededError: need_sign_in,
            HTTPException: http_error,
            BodyTooLargeError: too_large,
            Exception: internal,  # the page; the log line is SecurityHeaders'
        },
    )
    app.state.dashboard = dash
    return SecurityHeaders(app, dash)


class SecurityHeaders:
    """The outermost layer: the security headers on every response (a plain ASGI middleware,
    so SSE streams pass), request bodies bounded, and the one safety net
    (:mod:`kiosk.host.web.safety`): no request leaves a traceback in the log or on the page."""

    def __init__(self, app: Starlette, dash: Dashboard) -> None:
        self.app = app
        self.state = app.state
        self.dashboard = dash

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            inner: ASGIApp = self.app
            await inner(scope, receive, send)
            return
        started = False

        async def with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], *SECURITY_HEADERS]
            await send(message)

        try:
            await self.app(scope, bounded(receive, MAX_FORM_BYTES), with_headers)
        except Exception as exc:  # the net: one line in the log, a plain 500
            logged_fault(scope, exc)
            if not started:
                await PlainTextResponse("internal error", status_code=500)(
                    scope, receive, with_headers
                )


# --- sign-in -------------------------------------------------------------------------------------


async def login_page(dash: Dashboard, request: Request, error: str = "") -> Response:
    token = secrets.token_urlsafe(32)
    response = dash.page(request, "login.html", None, csrf=token, error=error)
    response.set_cookie(
        LOGIN_COOKIE, token, httponly=True, secure=dash.config.secure_cookies, samesite="strict"
    )
    if error:
        response.status_code = 401
    return response


async def login(dash: Dashboard, request: Request) -> Response:
    form = await dash.form(request, None)
    username, password = str(form.get("username", "")), str(form.get("password", ""))
    result = await run_in_threadpool(dash.accounts.sign_in, username, password, _address(request))
    if result.token is None:
        return await login_page(dash, request, result.reason)
    response = RedirectResponse("/", status_code=303)
    response.set_cookie(
        SESSION_COOKIE,
        result.token,
        max_age=dash.config.max_seconds,
        httponly=True,
        secure=dash.config.secure_cookies,
        samesite="strict",
    )
    response.delete_cookie(LOGIN_COOKIE)
    return response


async def logout(dash: Dashboard, request: Request) -> Response:
    session = await dash.session(request)
    await dash.form(request, session)
    token = request.cookies.get(SESSION_COOKIE, "")
    await run_in_threadpool(dash.accounts.sign_out, token, _address(request))
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(SESSION_COOKIE)
    return response


# --- pages ---------------------------------------------------------------------------------------


async def floor_page(dash: Dashboard, request: Request) -> Response:
    session = await dash.session(request)
    at = now_ms()

    def read() -> dict[str, Any]:
        return {
            "terminals": dash.floor.terminals(at),
            "alarms": dash.floor.open_alarms(at),
            "cursor": live.AlarmCursor(*dash.floor.alarm_cursor()).text(),
            "states": dash.floor.voucher_states(),
        }

    data = await run_in_threadpool(read)
    return dash.page(
        request, "floor.html", session, actions=ACTIONS, back="/", open_only=True, **data
    )


async def meters_page(dash: Dashboard, request: Request) -> Response:
    session = await dash.session(request)
    period, since, until = _period(request)

    def read() -> dict[str, Any]:
        snapshots = dash.floor.latest_meters()
        return {
            "snapshots": snapshots,
            "columns": [meter_name(n) for n in LIFETIME_COLUMNS],
            "games": dash.floor.games_by_terminal(since, until),
        }

    data = await run_in_threadpool(read)
    return dash.page(request, "meters.html", session, period=period, **data)


async def charts_page(dash: Dashboard, request: Request) -> Response:
    session = await dash.session(request)
    hours = _hours(request)
    at = now_ms()
    since = (at // HOUR_MS - hours + 1) * HOUR_MS
    rows = await run_in_threadpool(dash.floor.games_by_hour, since, at + 1)
    charts = [
        bar_chart("Coin-in per hour", [Bar(hour_label(r.hour_ms), r.coin_in) for r in rows], "in"),
        bar_chart(
            "Paid to players per hour", [Bar(hour_label(r.hour_ms), r.paid) for r in rows], "paid"
        ),
        bar_chart(
            "Casino win per hour (coin-in less paid)",
            [Bar(hour_label(r.hour_ms), r.win) for r in rows],
            "win",
        ),
    ]
    return dash.page(request, "charts.html", session, charts=charts, rows=rows, hours=hours)


async def vouchers_page(dash: Dashboard, request: Request) -> Response:
    session = await dash.session(request)
    state = request.query_params.get("state") or None
    if state is not None and state not in VOUCHER_STATES:
        raise HTTPException(400, f"state: one of {', '.join(VOUCHER_STATES)}")
    number = request.query_params.get("number", "").strip()
    digits = number.translate(NUMBER_SEPARATORS)
    error = ""
    if number and not (digits.isascii() and digits.isdigit() and 4 <= len(digits) <= 18):
        error = "a validation number: 4 to 18 digits, with or without the dashes of the ticket"

    def read() -> dict[str, Any]:
        searched = bool(number) and not error
        found = dash.floor.voucher_search(digits, VOUCHERS_SHOWN) if searched else None
        return {
            "vouchers": dash.floor.vouchers(state, last=VOUCHERS_SHOWN),
            "found": found,
            "audit": dash.floor.voucher_audit(),
            "states": dash.floor.voucher_states(),
        }

    data = await run_in_threadpool(read)
    return dash.page(
        request,
        "vouchers.html",
        session,
        state=state,
        shown=VOUCHERS_SHOWN,
        number=number,
        error=error,
        **data,
    )


async def alarms_page(dash: Dashboard, request: Request) -> Response:
    session = await dash.session(request)

    def read() -> dict[str, Any]:
        return {
            "alarms": dash.floor.alarms(),
            "open": len(dash.floor.open_alarms()),
            "cursor": live.AlarmCursor(*dash.floor.alarm_cursor()).text(),
        }

    data = await run_in_threadpool(read)
    return dash.page(request, "alarms.html", session, back="/alarms", **data)


def _back(text: str) -> str:
    """Where an acknowledgement returns: the floor, the alarms or a terminal's page."""
    if text in ("/", "/alarms"):
        return text
    if text.startswith("/terminals/") and text[11:].replace("-", "").isalnum():
        return text
    return "/alarms"


async def alarm_ack(dash: Dashboard, request: Request) -> Response:
    session = await dash.session(request)
    form = await dash.form(request, session)
    key = str(form.get("key", ""))
    if not session.user.may_command:
        await run_in_threadpool(
            dash.accounts.log,
            session.user.username,
            "alarm_ack",
            "refused",
            "",
            f"{key[:40]}: role {session.user.role} may not acknowledge alarms",
            _address(request),
        )
        raise HTTPException(403, f"the {session.user.role} role does not acknowledge alarms")
    alarm = await run_in_threadpool(dash.floor.alarm, key)
    if alarm is None:
        raise HTTPException(404, "no such alarm")
    await run_in_threadpool(
        dash.accounts.acknowledge,
        alarm.key,
        session.user.username,
        alarm.terminal_id,
        f"{alarm.kind} {alarm.text}",
        _address(request),
    )
    return RedirectResponse(_back(str(form.get("back", ""))), status_code=303)


async def terminal_page(dash: Dashboard, request: Request) -> Response:
    session = await dash.session(request)
    terminal_id = request.path_params["terminal"]
    at = now_ms()

    def read() -> dict[str, Any] | None:
        status = dash.floor.terminal(terminal_id, at)
        if status is None:
            return None
        snapshot = dash.floor.meters_of(terminal_id)
        names = meter_order(set(snapshot.meters)) if snapshot is not None else []
        return {
            "t": status,
            "alarms": [a for a in dash.floor.open_alarms(at) if a.terminal_id == terminal_id],
            "notices": dash.floor.notices(terminal_id),
            "snapshot": snapshot,
            "meters": [(meter_name(n), snapshot.value(n)) for n in names] if snapshot else [],
            "vouchers": dash.floor.vouchers_of(terminal_id),
            "handpays": dash.floor.handpays(terminal_id, last=20),
        }

    data = await run_in_threadpool(read)
    if data is None:
        raise HTTPException(404, "no such terminal")
    back = f"/terminals/{terminal_id}"
    return dash.page(
        request, "terminal.html", session, actions=ACTIONS, back=back, open_only=True, **data
    )


async def handpays_page(dash: Dashboard, request: Request) -> Response:
    session = await dash.session(request)
    handpays = await run_in_threadpool(dash.floor.handpays)
    return dash.page(request, "handpays.html", session, handpays=handpays)


async def progressives_page(dash: Dashboard, request: Request) -> Response:
    session = await dash.session(request)
    meters = await run_in_threadpool(dash.floor.progressives)
    now = now_ms()
    stale_ms = dash.config.progressive_stale_seconds * 1000
    rows = [(p, p.stale(now, stale_ms)) for p in meters]
    return dash.page(
        request,
        "progressives.html",
        session,
        progressives=rows,
        stale_seconds=dash.config.progressive_stale_seconds,
    )


async def handpay_slip(dash: Dashboard, request: Request) -> Response:
    from kiosk.host.web.slip import handpay_slip_pdf

    session = await dash.session(request)
    message_id = str(request.path_params["message_id"])
    handpay = await run_in_threadpool(dash.floor.handpay, message_id[:200])
    if handpay is None:
        raise HTTPException(404, "no such handpay")
    pdf = await run_in_threadpool(handpay_slip_pdf, handpay, session.user.username, now_ms())
    await run_in_threadpool(
        dash.accounts.log,
        session.user.username,
        "handpay_slip",
        "ok",
        handpay.terminal_id,
        f"{handpay.message_id}: {handpay.what} {dollars(handpay.value_cents)}",
        _address(request),
    )
    name = f"handpay-{handpay.terminal_id}-{handpay.journal_seq}.pdf"
    return Response(
        pdf,
        media_type="application/pdf",
        headers={"content-disposition": f'inline; filename="{name}"'},
    )


async def audit_page(dash: Dashboard, request: Request) -> Response:
    session = await dash.session(request)
    entries = await run_in_threadpool(dash.accounts.audit)
    return dash.page(request, "audit.html", session, entries=entries)


# --- commands ------------------------------------------------------------------------------------


async def _operator(dash: Dashboard, request: Request) -> Session:
    session = await dash.session(request)
    if not session.user.may_command:
        await run_in_threadpool(
            dash.accounts.log,
            session.user.username,
            "command",
            "refused",
            request.path_params.get("terminal", ""),
            f"role {session.user.role} may not send commands",
            _address(request),
        )
        raise HTTPException(403, f"the {session.user.role} role does not send commands")
    return session


async def command_form(dash: Dashboard, request: Request) -> Response:
    session = await _operator(dash, request)
    terminal = request.path_params["terminal"]
    action = request.query_params.get("action", "")
    known = await run_in_threadpool(dash.floor.terminal_ids)
    if terminal not in known or action not in ACTIONS:
        raise HTTPException(404, "no such terminal or action")
    return dash.page(
        request, "command.html", session, terminal=terminal, action=action, text="", step="ask"
    )


async def command_post(dash: Dashboard, request: Request) -> Response:
    session = await _operator(dash, request)
    form = await dash.form(request, session)
    terminal = request.path_params["terminal"]
    action, text = str(form.get("action", "")), str(form.get("text", ""))
    known = await run_in_threadpool(dash.floor.terminal_ids)
    try:
        wanted = checked(terminal, action, text, known)
    except (CommandError, ValueError, KeyError) as exc:
        return dash.page(
            request,
            "command.html",
            session,
            terminal=terminal,
            action=action,
            text=text,
            step="ask",
            error=str(exc),
        )
    if form.get("confirmed") != "yes":
        return dash.page(
            request,
            "command.html",
            session,
            terminal=terminal,
            action=wanted.action,
            text=wanted.text,
            step="confirm",
            request_text=wanted.describe(),
        )
    command_id = await run_in_threadpool(dash.commands.queue, wanted)
    await run_in_threadpool(
        dash.accounts.log,
        session.user.username,
        f"command_{wanted.action}",
        "queued",
        terminal,
        f"command {command_id}: {wanted.describe()}",
        _address(request),
    )
    return RedirectResponse(f"/commands/{command_id}", status_code=303)


def _command_id(request: Request) -> int:
    """The command id in the path: a row id (1 to 2**63 - 1), else 404 (never a 500)."""
    text = str(request.path_params["command_id"])
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(MAX_ROW_ID))):
        raise HTTPException(404, "no such command")
    number = int(text)
    if not 1 <= number <= MAX_ROW_ID:
        raise HTTPException(404, "no such command")
    return number


async def command_page(dash: Dashboard, request: Request) -> Response:
    session = await dash.session(request)
    record = await run_in_threadpool(dash.floor.command, _command_id(request))
    if record is None:
        raise HTTPException(404, "no such command")
    return dash.page(request, "command_state.html", session, command=record)


async def command_json(dash: Dashboard, request: Request) -> Response:
    await dash.session(request)
    record = await run_in_threadpool(dash.floor.command, _command_id(request))
    if record is None:
        raise HTTPException(404, "no such command")
    return JSONResponse(
        {"command_id": record.command_id, "state": record.state, "result": record.result}
    )


# --- the live feed -------------------------------------------------------------------------------


async def events(dash: Dashboard, request: Request) -> Response:
    session = await dash.session(request)
    given = request.headers.get("last-event-id") or request.query_params.get("cursor")
    cursor = live.AlarmCursor.parse(given)
    if cursor is None:
        cursor = live.AlarmCursor(*await run_in_threadpool(dash.floor.alarm_cursor))
    token = request.cookies.get(SESSION_COOKIE, "")
    config = dash.config

    async def stream() -> AsyncIterator[str]:
        yield "retry: 1000\n\n"
        deadline = time.monotonic() + config.stream_seconds
        expires = session.expires_ms
        while True:
            yield await run_in_threadpool(live.tick, dash.shared_floor, cursor)
            if time.monotonic() >= deadline:
                return
            await asyncio.sleep(config.tick_seconds)
            if await request.is_disconnected():
                return
            if now_ms() >= expires:  # the session may have been used elsewhere: check it
                again = await run_in_threadpool(dash.accounts.session, token)
                if again is None:
                    yield live.message("expired", {"reason": "session ended"})
                    return
                expires = again.expires_ms

    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"X-Accel-Buffering": "no"},
    )


# --- CSV -----------------------------------------------------------------------------------------


def _csv_cell(value: object) -> object:
    """A cell that a spreadsheet will not run as a formula."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _percent(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"


def _csv(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_csv_cell(v) for v in row])
    return out.getvalue()


def _export_rows(dash: Dashboard, name: str, request: Request) -> str:
    floor = dash.floor
    if name == "terminals":
        return _csv(
            [
                "terminal_id",
                "online",
                "last_seen_ms",
                "enabled",
                "disable_reason",
                "software_version",
                "auth_result",
                "auth_ms",
                "events",
                "alarms",
            ],
            (
                [
                    t.terminal_id,
                    int(t.online),
                    t.last_seen_ms,
                    int(t.enabled),
                    t.disable_reason,
                    t.software_version,
                    t.auth_result,
                    t.auth_ms,
                    t.events,
                    t.alarms,
                ]
                for t in floor.terminals()
            ),
        )
    if name == "meters":
        return _csv(
            ["terminal_id", "journal_seq", "at_ms", "meter", "name", "value"],
            (
                [s.terminal_id, s.journal_seq, s.at_ms, meter, meter_name(meter).name, value]
                for s in floor.latest_meters()
                for meter, value in sorted(s.meters.items())
            ),
        )
    if name == "games":
        _, since, until = _period(request)
        return _csv(
            [
                "terminal_id",
                "edition",
                "since_ms",
                "until_ms",
                "games",
                "coin_in_cents",
                "paid_cents",
                "win_cents",
                "hold_percent",
            ],
            (
                [
                    g.terminal_id,
                    g.edition,
                    since,
                    until,
                    g.games,
                    g.coin_in,
                    g.paid,
                    g.win,
                    _percent(g.hold_percent),
                ]
                for g in floor.games_by_terminal(since, until)
            ),
        )
    if name == "hours":
        hours = _hours(request)
        at = now_ms()
        rows = floor.games_by_hour((at // HOUR_MS - hours + 1) * HOUR_MS, at + 1)
        return _csv(
            ["hour_start_ms", "games", "coin_in_cents", "paid_cents", "win_cents", "hold_percent"],
            (
                [r.hour_ms, r.games, r.coin_in, r.paid, r.win, _percent(r.hold_percent)]
                for r in rows
            ),
        )
    if name == "vouchers":
        return _csv(
            [
                "validation_number",
                "value_cents",
                "state",
                "issued_by",
                "issued_ms",
                "holder",
                "updated_ms",
            ],
            (
                [
                    v.validation_number,
                    v.value_cents,
                    v.state,
                    v.issued_by,
                    v.issued_ms,
                    v.holder,
                    v.updated_ms,
                ]
                for v in floor.vouchers(last=1_000_000)
            ),
        )
    if name == "voucher-audit":
        return _csv(
            [
                "entry_id",
                "validation_number",
                "kind",
                "severity",
                "terminal_id",
                "operator",
                "reason",
                "at_ms",
                "detail",
            ],
            (
                [
                    a.entry_id,
                    a.validation_number,
                    a.kind,
                    a.severity,
                    a.terminal_id,
                    a.operator,
                    a.reason,
                    a.at_ms,
                    a.detail_text,
                ]
                for a in floor.voucher_audit(last=1_000_000)
            ),
        )
    if name == "alarms":
        return _csv(
            [
                "key",
                "kind",
                "severity",
                "terminal_id",
                "at_ms",
                "voucher",
                "detail",
                "acknowledged_by",
                "acknowledged_ms",
            ],
            (
                [
                    a.key,
                    a.kind,
                    a.severity,
                    a.terminal_id,
                    a.at_ms,
                    a.subject,
                    a.text,
                    a.acked_by,
                    a.acked_ms,
                ]
                for a in floor.alarms(last=1_000_000)
            ),
        )
    if name == "handpays":
        return _csv(
            [
                "message_id",
                "terminal_id",
                "journal_seq",
                "at_ms",
                "seat",
                "value_cents",
                "kind",
                "paid_ms",
                "paid_by",
            ],
            (
                [
                    h.message_id,
                    h.terminal_id,
                    h.journal_seq,
                    h.at_ms,
                    h.seat,
                    h.value_cents,
                    h.kind,
                    h.paid_ms,
                    h.paid_by,
                ]
                for h in floor.handpays(last=1_000_000)
            ),
        )
    if name == "audit":
        return _csv(
            [
                "entry_id",
                "at_ms",
                "username",
                "action",
                "outcome",
                "terminal_id",
                "detail",
                "address",
            ],
            (
                [
                    a.entry_id,
                    a.at_ms,
                    a.username,
                    a.action,
                    a.outcome,
                    a.terminal_id,
                    a.detail,
                    a.address,
                ]
                for a in dash.accounts.audit(last=1_000_000)
            ),
        )
    raise HTTPException(404, "no such export")


EXPORTS = (
    "terminals",
    "meters",
    "games",
    "hours",
    "vouchers",
    "voucher-audit",
    "alarms",
    "handpays",
    "audit",
)


async def export(dash: Dashboard, request: Request) -> Response:
    session = await dash.session(request)
    name = request.path_params["name"]
    if name not in EXPORTS:
        raise HTTPException(404, "no such export")
    text = await run_in_threadpool(_export_rows, dash, name, request)
    await run_in_threadpool(
        dash.accounts.log,
        session.user.username,
        "export",
        "ok",
        "",
        f"{name}.csv {json.dumps(dict(request.query_params), sort_keys=True)}",
        _address(request),
    )
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="{name}-{stamp}.csv"'},
    )
