"""The floor dashboard in a real browser: Debian's Chromium, headless, through Selenium and
``chromium-driver`` (``tox -e browser``).

Everything is real and on loopback: ``turbokiosk host serve --web`` (gRPC with mutual TLS and
the dashboard over TLS with the host's certificate, which Chromium is told to trust by its key,
not by ignoring certificate errors), two robot terminals playing against it in their own
processes (:mod:`tests.helpers.robot_terminal`), and a third terminal runtime in this process
that cashes out, redeems and obeys commands.

With ``TURBOKIOSK_WEB_SCREENSHOTS=DIR`` the pages are saved there as PNG (how
docs/screenshots/dashboard/ is made).
"""

from __future__ import annotations

import base64
import hashlib
import io
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

pytest.importorskip("selenium", reason="selenium is in the 'browser' extra (tox -e browser)")
CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
if CHROMIUM is None or DRIVER is None:  # pragma: no cover - the tox env installs them
    pytest.skip(
        "Debian packages chromium and chromium-driver are not installed", allow_module_level=True
    )

from cryptography import x509  # noqa: E402
from cryptography.hazmat.primitives import serialization  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.expected_conditions import staleness_of  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from kiosk.cli import main  # noqa: E402
from kiosk.host.accounting.db import Message, SqliteHostDb  # noqa: E402
from kiosk.kernel.games import progressive  # noqa: E402
from kiosk.kernel.money_text import dollars  # noqa: E402
from kiosk.terminal.core import commands as c  # noqa: E402
from kiosk.terminal.core import events as e  # noqa: E402
from kiosk.terminal.core.state import Phase  # noqa: E402
from kiosk.terminal.hostlink import pki  # noqa: E402
from kiosk.terminal.hostlink.client import HostClient  # noqa: E402
from kiosk.terminal.hostlink.ports import HostUnavailableError  # noqa: E402
from kiosk.terminal.hostlink.progressive_report import standalone_readings  # noqa: E402
from kiosk.terminal.hostlink.wiring import HostEndpoint  # noqa: E402
from kiosk.terminal.progressive.controller import ProgressiveController, WagerIn  # noqa: E402
from kiosk.terminal.store.journal import Journal  # noqa: E402
from tests.helpers.host_checks import enroll  # noqa: E402
from tests.helpers.host_rig import TerminalRig  # noqa: E402
from tests.helpers.web_records import game  # noqa: E402

PASSWORD = "correct horse battery"
ROBOTS = ("TK-A", "TK-B")
OFFLINE_AFTER = 5


@dataclass
class FloorRig:
    """The host process, its robots and the in-process terminal."""

    root: Path
    pki_dir: Path
    db: Path
    address: str = ""
    url: str = ""
    host: subprocess.Popen[bytes] | None = None
    robots: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def records(self) -> SqliteHostDb:
        return SqliteHostDb(self.db)

    def spki_pin(self) -> str:
        cert = x509.load_pem_x509_certificate((self.pki_dir / "host.crt").read_bytes())
        der = cert.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        return base64.b64encode(hashlib.sha256(der).digest()).decode()


def _add_user(db: Path, name: str, role: str) -> None:
    saved = sys.stdin
    sys.stdin = io.StringIO(PASSWORD + "\n")
    try:
        argv = ["host", "web-user", "add", "--db", str(db), name, "--role", role]
        assert main([*argv, "--password-stdin"]) == 0
    finally:
        sys.stdin = saved


def seed_history(db_path: Path, hours: int = 12) -> None:
    """Earlier hours of play for the robots' terminals, recorded through the host's own API
    (so that the charts have a day's shape; the current hour is the robots' live play)."""
    db = SqliteHostDb(db_path)
    rand = random.Random(17)
    now = time.time_ns() // 1_000_000
    try:
        for terminal in ROBOTS:
            db.hello(terminal, "0.1.0", "history", now - hours * 3_600_000)
            batch = []
            for hour in range(hours, 0, -1):
                busy = 0.4 + 0.6 * abs(math.sin(hour / 4))  # a floor's daily swing
                for i in range(int(40 * busy)):
                    seq = hour * 1000 + i
                    at = now - hour * 3_600_000 + i * 60_000
                    stake = rand.choice((100, 200, 500, 1000))
                    paid = rand.choice((0, 0, 0, 0, stake, 2 * stake, 3 * stake))  # holds 1/7
                    edition = rand.choice(("turbo-football", "stadium-3cp", "icon-v2"))
                    batch.append(game(terminal, seq, at, edition, [(stake, paid)]))
            db.record(terminal, batch, now)
    finally:
        db.close()


@pytest.fixture(scope="module")
def floor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FloorRig]:
    root = tmp_path_factory.mktemp("floor")
    rig = FloorRig(root, root / "pki", root / "host.sqlite3")
    pki.ensure_pki(rig.pki_dir, (*ROBOTS, "TK-C", "TK-D", "TK-E"))
    seed_history(rig.db)
    enroll(rig.db, (*ROBOTS, "TK-C", "TK-D", "TK-E"))
    for name, role in (("olive", "operator"), ("audrey", "auditor"), ("locky", "operator")):
        _add_user(rig.db, name, role)
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    host_log = (root / "host.log").open("wb")
    rig.host = subprocess.Popen(
        [
            sys.executable, "-m", "kiosk", "host", "serve", "--db", str(rig.db),
            "--pki", str(rig.pki_dir), "--listen", "127.0.0.1:0", "--web", "127.0.0.1:0",
            "--offline-after", str(OFFLINE_AFTER), "--meter-period", "5",
        ],
        stdout=subprocess.PIPE,
        stderr=host_log,
        env=env,
    )  # fmt: skip
    assert rig.host.stdout is not None
    serving, dashboard = rig.host.stdout.readline().decode(), rig.host.stdout.readline().decode()
    assert serving.startswith("host: serving on "), (root / "host.log").read_text()
    rig.address, rig.url = serving.split()[3], dashboard.split()[3]
    for seed, name in enumerate(ROBOTS, 1):
        rig.robots[name] = subprocess.Popen(
            [
                sys.executable, "-m", "tests.helpers.robot_terminal", "--data-dir",
                str(root / name), "--host", rig.address, "--pki", str(rig.pki_dir),
                "--terminal", name, "--seed", str(seed),
            ],
            stdout=subprocess.DEVNULL,
            stderr=(root / f"{name}.log").open("wb"),
            env=env,
        )  # fmt: skip
    yield rig
    for process in rig.robots.values():
        if process.poll() is None:
            process.kill()
        process.wait(timeout=20)
    rig.host.send_signal(signal.SIGTERM)
    rig.host.wait(timeout=30)
    host_log.close()
    log = (root / "host.log").read_text()
    assert rig.host.returncode == 0, log
    assert "Traceback" not in log, log


@pytest.fixture(scope="module")
def browser(floor: FloorRig, tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",  # root in a container
        "--disable-dev-shm-usage",
        "--window-size=1440,900",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium')}",
        # trust exactly the host's key (the casino's CA is not in the browser's store here)
        f"--ignore-certificate-errors-spki-list={floor.spki_pin()}",
        "--lang=en-US",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=str(DRIVER)), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def wait(driver: WebDriver, condition: Callable[[WebDriver], object], seconds: float = 20) -> None:
    WebDriverWait(driver, seconds, poll_frequency=0.1).until(condition)


def text(driver: WebDriver, css: str) -> str:
    return str(driver.find_element(By.CSS_SELECTOR, css).text)


def shoot(driver: WebDriver, name: str) -> None:
    """Save the page when screenshots are asked for."""
    where = os.environ.get("TURBOKIOSK_WEB_SCREENSHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        height = int(driver.execute_script("return document.documentElement.scrollHeight"))
        driver.set_window_size(1440, max(900, min(height + 40, 2400)))
        time.sleep(0.2)
        inner = int(driver.execute_script("return window.innerHeight"))
        if inner < height:  # the window's frame takes some of its height: the whole page
            driver.set_window_size(1440, min(height + 40 + (height + 40 - inner), 2600))
        time.sleep(0.3)
        driver.save_screenshot(str(Path(where) / f"{name}.png"))
        driver.set_window_size(1440, 900)


def follow(driver: WebDriver, element_id: str) -> None:
    """Click a link or button and wait for the page it leads to."""
    element = driver.find_element(By.ID, element_id)
    element.click()
    wait(driver, staleness_of(element))


def sign_in(driver: WebDriver, url: str, user: str, password: str) -> None:
    driver.delete_all_cookies()
    driver.get(f"{url}/login")
    driver.find_element(By.ID, "username").send_keys(user)
    field = driver.find_element(By.ID, "password")
    field.send_keys(password + Keys.RETURN)
    wait(driver, staleness_of(field))  # the answer's page has replaced the form


def test_wrong_passwords_refuse_the_sign_in_then_lock_the_user(
    floor: FloorRig, browser: WebDriver
) -> None:
    assert floor.url.startswith("https://127.0.0.1:")
    for attempt in range(1, 6):
        sign_in(browser, floor.url, "locky", f"wrong-{attempt}")
        message = text(browser, "#login-error")
        if attempt < 5:
            assert message == "wrong user name or password"
    assert "locked for 15 min" in message
    shoot(browser, "01-sign-in-locked")
    sign_in(browser, floor.url, "locky", PASSWORD)  # the right password, during the lock-out
    assert "locked" in text(browser, "#login-error")
    assert browser.current_url.endswith("/login")
    assert browser.get_cookie("tk_session") is None


def test_the_floor_updates_live_while_robots_play(floor: FloorRig, browser: WebDriver) -> None:
    sign_in(browser, floor.url, "olive", PASSWORD)
    wait(browser, lambda d: d.current_url.rstrip("/") == floor.url)
    rows = [f'tr[data-terminal="{name}"]' for name in ROBOTS]
    wait(browser, lambda d: all(d.find_elements(By.CSS_SELECTOR, row) for row in rows))
    browser.execute_script("window.notReloaded = true")
    row = 'tr[data-terminal="TK-A"]'
    first = int(text(browser, f"{row} td.events"))
    wait(browser, lambda d: int(text(d, f"{row} td.events")) > first + 5)
    wait(browser, lambda d: text(d, f"{row} td.link") == "online")
    assert text(browser, "#live-text") == "live"
    assert browser.execute_script("return window.notReloaded") is True  # updated in place
    assert text(browser, "#who") == "olive (operator)"
    shoot(browser, "02-floor")
    for page in ("meters", "charts", "vouchers"):
        browser.get(f"{floor.url}/{page}")
        assert browser.find_elements(By.CSS_SELECTOR, "main table")
        shoot(browser, f"03-{page}")
    browser.get(f"{floor.url}/meters?period=hour")
    games = text(browser, "#games")
    assert "Turbo" in games or "Stadium" in games  # by the edition's title
    browser.get(f"{floor.url}/charts?hours=6")
    assert len(browser.find_elements(By.CSS_SELECTOR, "svg.chart")) == 3
    assert browser.find_elements(By.CSS_SELECTOR, "svg.in rect.bar")


def _cash_out(rig: TerminalRig, cents: int) -> str:
    rt = rig.runtime
    rig.validator.insert(cents)
    rig.pump_until(lambda: rt.state.credits[0] == cents)
    rt.cash_out()
    rig.pump_until(lambda: rt.state.phase is not Phase.CASHOUT)
    rig.pump_until(rig.outbox_empty)  # printed: the host knows the voucher
    printed = [r.event for r in rt.journal.rows() if isinstance(r.event, e.VoucherPrinted)]
    return printed[-1].validation_number


def test_a_voucher_redeemed_twice_raises_an_alarm_live(floor: FloorRig, browser: WebDriver) -> None:
    browser.get(f"{floor.url}/")
    wait(browser, lambda d: text(d, "#live-text") == "live")
    browser.execute_script("window.notReloaded = true")
    rig = TerminalRig(
        floor.root / "TK-C",
        HostEndpoint(floor.address, pki.credentials(floor.pki_dir, "TK-C"), "TK-C"),
    ).start()
    try:
        rig.pump_until(lambda: rig.link.connected)
        number = _cash_out(rig, 2000)
        # redeemed at TK-C through the ticket-in path ...
        assert rig.wiring.client.validate_ticket(number).accepted
        rig.runtime.execute(c.InsertTicket(validation_number=number, value=2000))
        rig.runtime.execute(c.TicketStackedReport(validation_number=number))
        rig.wiring.client.ticket_stacked(number)
        # ... and reported stacked again by another terminal (a copied ticket)
        other = HostClient(floor.address, pki.credentials(floor.pki_dir, "TK-D"), "TK-D")
        with pytest.raises(HostUnavailableError, match="double redemption"):
            other.ticket_stacked(number)
        other.close()
        item = '#alarm-list li.double_redemption[data-key^="v:"]'
        printed = "-".join([number[:2], number[2:6], number[6:10], number[10:14], number[14:]])
        wait(  # the number as the ticket prints it
            browser,
            lambda d: any(printed in li.text for li in d.find_elements(By.CSS_SELECTOR, item)),
        )
        assert browser.execute_script("return window.notReloaded") is True
        wait(browser, lambda d: int(text(d, "#alarm-badge") or 0) >= 1)  # the open alarms
        shoot(browser, "04-floor-double-redemption")
        browser.get(f"{floor.url}/alarms")
        assert printed in text(browser, "#alarm-list")
        shoot(browser, "05-alarms")
        browser.get(f"{floor.url}/vouchers")
        assert "double redemption" in text(browser, "#voucher-audit")
        shoot(browser, "06-vouchers-audit")
    finally:
        rig.close()


class PumpedTerminal(threading.Thread):
    """A terminal runtime made and pumped in a thread of its own (its journal's thread)."""

    def __init__(self, floor: FloorRig, name: str) -> None:
        super().__init__(daemon=True)
        self.endpoint = HostEndpoint(floor.address, pki.credentials(floor.pki_dir, name), name)
        self.data_dir = floor.root / name
        self.ready, self.stop = threading.Event(), threading.Event()
        self.rig: TerminalRig | None = None

    def run(self) -> None:
        self.rig = TerminalRig(self.data_dir, self.endpoint).start()
        self.ready.set()
        try:
            while not self.stop.is_set():
                self.rig.runtime.pump()
                time.sleep(0.02)
        finally:
            self.rig.close()

    def __enter__(self) -> TerminalRig:
        self.start()
        assert self.ready.wait(30) and self.rig is not None
        return self.rig

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.join(timeout=10)


def test_a_disable_command_reaches_the_terminal(floor: FloorRig, browser: WebDriver) -> None:
    with PumpedTerminal(floor, "TK-C") as rig:
        wait(browser, lambda d: rig.link.connected)
        browser.get(f"{floor.url}/")
        wait(browser, lambda d: text(d, 'tr[data-terminal="TK-C"] td.link') == "online")
        follow(browser, "authenticate-TK-C")
        follow(browser, "review")
        follow(browser, "confirm")
        wait(browser, lambda d: text(d, "#command-state") == "done")
        assert text(browser, "#command-result") == "match"  # the software the host approves
        browser.get(f"{floor.url}/")
        auth = 'tr[data-terminal="TK-C"] td.auth'
        wait(browser, lambda d: text(d, auth).startswith("match "))
        follow(browser, "disable-TK-C")
        browser.find_element(By.ID, "text").send_keys("count room")
        follow(browser, "review")
        assert "disable TK-C: count room" in text(browser, "#confirm-text")
        shoot(browser, "07-command-confirm")
        assert rig.runtime.state.disabled is None  # nothing sent before the confirmation
        follow(browser, "confirm")
        wait(browser, lambda d: text(d, "#command-state") == "done")
        shoot(browser, "08-command-done")
        assert rig.runtime.state.disabled == "count room"
        browser.get(f"{floor.url}/")
        row = 'tr[data-terminal="TK-C"] td.play'
        wait(browser, lambda d: text(d, row) == "disabled: count room")
        browser.get(f"{floor.url}/audit")
        assert "command 2: disable TK-C: count room" in text(browser, "#audit")
        shoot(browser, "09-audit")
    journal = Journal(floor.root / "TK-C", readonly=True)
    try:
        changed = [r.event for r in journal.rows() if isinstance(r.event, e.EnableChanged)]
    finally:
        journal.close()
    assert (changed[-1].enabled, changed[-1].reason) == (False, "count room")


def test_a_silent_terminal_goes_offline_with_an_alarm(floor: FloorRig, browser: WebDriver) -> None:
    browser.get(f"{floor.url}/")
    row = 'tr[data-terminal="TK-B"]'
    wait(browser, lambda d: text(d, f"{row} td.link") == "online")
    browser.execute_script("window.notReloaded = true")
    floor.robots["TK-B"].kill()  # the cable cut (or the power)
    wait(browser, lambda d: text(d, f"{row} td.link") == "OFFLINE", OFFLINE_AFTER + 15)
    item = '#alarm-list li.communication_loss[data-key^="c:TK-B:"]'
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, item))
    assert browser.execute_script("return window.notReloaded") is True
    shoot(browser, "10-floor-communication-loss")


def test_an_auditor_sees_no_commands(floor: FloorRig, browser: WebDriver) -> None:
    sign_in(browser, floor.url, "audrey", PASSWORD)
    wait(browser, lambda d: d.find_elements(By.ID, "terminals"))
    assert not browser.find_elements(By.ID, "disable-TK-A")
    browser.get(f"{floor.url}/terminals/TK-A/command?action=disable")
    assert "does not send commands" in browser.find_element(By.TAG_NAME, "body").text


def _fetch_bytes(driver: WebDriver, url: str) -> bytes:
    """A resource fetched by the page itself (its session cookie), as bytes."""
    script = (
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0], {credentials: 'same-origin'}).then((r) => r.arrayBuffer())"
        ".then((b) => { let s = ''; for (const x of new Uint8Array(b)) s += String.fromCharCode(x);"
        " done(btoa(s)); });"
    )
    return base64.b64decode(driver.execute_async_script(script, url))


def _save_slip(pdf: bytes) -> None:
    """The slip as a PNG beside the screenshots (with poppler's pdftoppm, when installed)."""
    where = os.environ.get("TURBOKIOSK_WEB_SCREENSHOTS")
    render = shutil.which("pdftoppm")
    if not where or render is None:
        return
    path = Path(where) / "14-handpay-slip.pdf"
    path.write_bytes(pdf)
    png = str(path.with_suffix(""))
    subprocess.run([render, "-png", "-r", "110", "-singlefile", str(path), png], check=True)
    path.unlink()


def _listed(driver: WebDriver) -> int:
    """The open alarms the floor page lists now."""
    return len(driver.find_elements(By.CSS_SELECTOR, "#alarm-list li.alarm"))


def test_a_door_a_handpay_and_a_voucher_on_the_operators_pages(
    floor: FloorRig, browser: WebDriver
) -> None:
    """Issue 26: a main door opened outside service is an alarm and on the terminal's page; an
    operator acknowledges it; a handpay is listed with its slip; a voucher is found by the number
    printed on it; meters by name."""
    sign_in(browser, floor.url, "olive", PASSWORD)
    rig = TerminalRig(
        floor.root / "TK-D",
        HostEndpoint(floor.address, pki.credentials(floor.pki_dir, "TK-D"), "TK-D"),
    ).start()
    try:
        rig.pump_until(lambda: rig.link.connected)
        number = _cash_out(rig, 5000)  # a voucher printed
        rig.printer.paper = False  # the next cash-out cannot print: a handpay
        rig.validator.insert(2000)
        rig.pump_until(lambda: rig.runtime.state.credits[0] == 2000)
        rig.runtime.cash_out()
        rig.pump_until(lambda: rig.runtime.state.handpay is not None)
        rig.runtime.execute(c.SetDoor(door="main", open=True))  # nobody in the service menu
        rig.pump_until(rig.outbox_empty)
    finally:
        rig.close()
    browser.get(f"{floor.url}/")
    door = "#alarm-list li.door_open"
    wait(browser, lambda d: any("TK-D" in li.text for li in d.find_elements(By.CSS_SELECTOR, door)))
    assert "main door opened outside service" in text(browser, door)
    # the count is the list's, both live (TK-D, stopped above, goes silent meanwhile: its
    # communication loss joins both)
    wait(browser, lambda d: text(d, "#n-alarms") == str(_listed(d)))
    shoot(browser, "11-floor-door-alarm")
    browser.get(f"{floor.url}/terminals/TK-D")
    notices = text(browser, "#notices")
    assert "main door opened" in notices and "handpay $20.00 cancelled credits" in notices
    meters = text(browser, "#terminal-meters")
    assert "Bills in $50 (notes)" in meters and "bills_in.5000" not in meters
    shoot(browser, "12-terminal-page")
    browser.get(f"{floor.url}/alarms")
    key = browser.find_element(By.CSS_SELECTOR, "li.door_open").get_attribute("data-key")
    button = browser.find_element(By.CSS_SELECTOR, f'button.ack-button[data-key="{key}"]')
    button.click()
    wait(browser, staleness_of(button))
    item = browser.find_element(By.CSS_SELECTOR, f'li[data-key="{key}"]')
    assert "acknowledged by olive" in item.text
    shoot(browser, "15-alarm-acknowledged")
    browser.get(f"{floor.url}/handpays")
    assert "waiting for the attendant" in text(browser, "#handpays")
    shoot(browser, "13-handpays")
    href = browser.find_element(By.CSS_SELECTOR, "#handpays a.slip").get_attribute("href")
    pdf = _fetch_bytes(browser, str(href))
    assert pdf.startswith(b"%PDF-")
    _save_slip(pdf)
    printed = "-".join([number[:2], number[2:6], number[6:10], number[10:14], number[14:]])
    browser.get(f"{floor.url}/vouchers")
    browser.find_element(By.ID, "number").send_keys(printed)
    follow(browser, "search")
    assert printed in text(browser, "#found")
    shoot(browser, "16-voucher-search")
    browser.get(f"{floor.url}/audit")
    assert "alarm ack" in text(browser, "#audit")


def test_the_progressives_page_shows_each_meter_and_a_stale_one(
    floor: FloorRig, browser: WebDriver
) -> None:
    """Issue 28: a terminal's standalone meter reaches the dashboard over its link (mutual TLS)
    with its periodic meters, with its reset, hits and last hit; a table's meter no seat has
    reported for ten minutes is shown stale."""
    settings = progressive.load("stadium-6cb-royal")
    controller = ProgressiveController(settings, floor.root / "TK-E-progressive.sqlite3")
    spot, stake = settings.wager, max(settings.qualify_cents, 500)
    for number in range(1, 41):  # a hit in round 7, then the meter grows again
        controller.book_round("TK-E", number, [WagerIn(1, spot, stake, number == 7)], None)
    meters = controller.meters()
    award = [h for r in controller.rounds() for h in r.hits][-1].award_cents
    old = time.time_ns() // 1_000_000 - 600_000
    body = {"name": settings.name, "mode": "table", "source": "T9", "meter_cents": 1_234_567}
    db = floor.records()
    try:  # a seat of table T9 that last spoke ten minutes ago
        db.record("TK-D", [Message(f"TK-D:1:1:p{old}-p0", 1, old, "progressive", body)], old)
    finally:
        db.close()
    sign_in(browser, floor.url, "olive", PASSWORD)
    try:
        with PumpedTerminal(floor, "TK-E") as rig:
            rig.link.progressive_readings = standalone_readings(controller, "TK-E")
            browser.get(f"{floor.url}/progressives")
            row = 'tr[data-source="TK-E"]'

            deadline = time.monotonic() + 30  # the link's next periodic snapshot (5 s here)
            while not browser.find_elements(By.CSS_SELECTOR, row):
                assert time.monotonic() < deadline, "the progressive never reached the page"
                time.sleep(1)
                browser.refresh()
    finally:
        controller.close()
    assert text(browser, f"{row} td.amount") == dollars(meters.meter_cents)
    assert text(browser, f"{row} td.reset") == dollars(settings.meter.reset_cents)
    assert text(browser, f"{row} td.hits") == "1"
    assert text(browser, f"{row} td.last-hit").startswith(dollars(award))
    assert text(browser, f"{row} td.status") == "current"
    stale = 'tr[data-source="T9"]'
    assert text(browser, f"{stale} td.status") == "stale"
    assert text(browser, f"{stale} td.amount") == "$12,345.67"
    assert text(browser, f"{stale} td.hits") == "not reported"
    shoot(browser, "17-progressives")
