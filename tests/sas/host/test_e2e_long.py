"""The long SAS runs over ptys against real terminal processes (``tox -e sas``; also slow).

- a robot soak (notes, wagers, cash-outs validated by the host, handpays, doors, faults), then
  every long poll of a sweep, the machine's and each game's, against ``turbokiosk meters``;
- the exception queue across SIGKILLs of the terminal: nothing lost, nothing repeated;
- a ticket printed at one terminal redeemed at another through the host tool, exactly once,
  also when two terminals race for it, with no gRPC host anywhere;
- the bad-input campaign: wrong CRC, wrong address, truncated and overlong polls, garbage,
  polls faster than allowed, unsolicited ticket polls: no answer where the protocol says none,
  never a crash, never a credit.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from kiosk.host.sas.line import HostLine
from kiosk.host.sas.tickets import TicketDb, TicketState
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.crc import with_crc
from kiosk.terminal.sas.events import effects_of
from kiosk.terminal.sas.wire import ExceptionCode as X
from kiosk.terminal.store.reader import open_readonly
from tests.sas.host.e2e import (
    HostTool,
    TerminalProcess,
    expected_sas_meters,
    game_meters,
    terminal_meters,
)

pytestmark = [pytest.mark.sas, pytest.mark.slow, pytest.mark.timeout(1800)]


def _mismatches(
    read: dict[tuple[str, str], str], expected: dict[tuple[str, str], int]
) -> dict[Any, Any]:
    return {k: (read.get(k), v) for k, v in expected.items() if read.get(k) != str(v)}


def test_soak_every_long_poll_against_the_meters(tmp_path: Path) -> None:
    host = HostTool(
        tmp_path, 1, tmp_path / "tickets.sqlite3", "--interval-ms", "100", "--rom-seed", "4660",
        console=True,
    )  # fmt: skip
    term = TerminalProcess(tmp_path / "term", host.link, 1)
    try:
        term.do("bill 10000")
        stats = term.do("robot 400 1602 0.05")
        assert stats["cashouts"] > 10, stats  # handpays come below for sure
        # a handpay the host resets (94): a cash-out with no paper is a handpay
        term.do("bill 5000")
        term.do("paper out")
        handpay = term.do("cashout")["handpay"]
        assert handpay is not None
        host.command("handpay-reset")
        assert host.wait_for("meter", "reset_code")["value"] == "0"  # 0: reset
        amounts = [
            r["value"]
            for r in host.records()
            if r["source"] == "send_handpay_information" and r["name"] == "amount"
        ]
        assert str(handpay) in amounts  # 51 handpay pending made the host read 1B
        assert term.do("wait 0.5")["handpay"] is None
        term.do("paper in")
        term.do("bill 2000")
        term.do("door open")
        term.do("door close")
        host.command("sweep")
        host.wait_for("meter", "rom_signature", timeout=120)
        host.sweep(timeout=120)  # a second, read after everything above had settled
        report = terminal_meters(tmp_path / "term")
    finally:
        term.quit()
        status, err = host.stop()
    assert status == 0, err
    read = host.last_values()
    assert not _mismatches(read, expected_sas_meters(report))
    enabled = {
        int(r["value"])
        for r in host.records()
        if r["source"] == "send_enabled_game_numbers" and r["name"] == "game"
    }
    assert len(enabled) >= 2
    for number, meters in game_meters(report).items():
        if number not in enabled:
            assert meters == {"in": 0, "out": 0, "played": 0}, number  # never offered
            continue
        label = f"send_selected_meters_game_{number}"
        assert read[(label, "total_coin_in")] == str(meters["in"]), number
        assert read[(label, "total_coin_out")] == str(meters["out"]), number
        assert read[(label, "games_played")] == str(meters["played"]), number
        assert read[(f"send_game_configuration_game_{number}", "game_number")] == str(number)
    assert read[("send_last_accepted_bill", "denomination_code")] == "4"  # the $20 note
    assert read[("send_last_accepted_bill", "country_code")] == str(wire.COUNTRY_CODE_USD)
    lifetime = report["lifetime"]
    assert read[("send_last_accepted_bill", "bill_meter")] == str(lifetime["bills_in.2000"])
    assert lifetime["handpaid_cancelled_credits"] > 0 and lifetime["tickets_out"] > 0
    assert lifetime["door_opens"] >= 1
    db = TicketDb(tmp_path / "tickets.sqlite3", lambda: 0)
    try:
        printed = [t for t in db.all() if t.state is TicketState.PRINTED]
        assert sum(t.amount_cents for t in printed) == lifetime["tickets_out"]
        assert len(printed) == lifetime["tickets_out_count"]
    finally:
        db.close()


def _journal_exceptions(data_dir: Path) -> Counter[int]:
    """Every exception the journal's rows raise (real-time-only ones aside)."""
    found: Counter[int] = Counter()
    with open_readonly(data_dir) as journal:
        meters: dict[str, int] = {}
        for row in journal.rows():
            for item in effects_of(row.event, meters).exceptions:
                if not item.rte_only:
                    found[item.code] += 1
    return found


def test_exception_queue_across_sigkill(tmp_path: Path) -> None:
    host = HostTool(tmp_path, 1, None, "--interval-ms", "40")
    data = tmp_path / "term"
    rand = random.Random(16)
    try:
        for _ in range(6):
            term = TerminalProcess(data, host.link, 1)
            if term.do("state")["doors_open"]:
                term.do("door close")
            for _ in range(rand.randint(2, 6)):
                term.do("door open")
                term.do("door close")
            assert term.proc.stdin is not None
            term.proc.stdin.write("door open\ndoor close\ndoor open\n")
            term.proc.stdin.flush()
            time.sleep(rand.uniform(0.0, 0.05))
            term.kill()
        term = TerminalProcess(data, host.link, 1)
        term.do("wait 1")
        if term.do("state")["doors_open"]:
            term.do("door close")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # until the queue has drained
            before = len(host.records())
            term.do("wait 1.5")
            if len(host.records()) == before:
                break
        term.quit()
    finally:
        status, err = host.stop()
    assert status == 0, err
    received = Counter(int(r["value"]) for r in host.records() if r["kind"] == "exception")
    expected = _journal_exceptions(data)
    assert expected[X.SLOT_DOOR_OPENED] >= 6 and expected[X.AC_POWER_APPLIED] == 7
    assert received == expected  # nothing lost, nothing repeated


def _printed_ticket(db_path: Path) -> tuple[str, int]:
    db = TicketDb(db_path, lambda: 0)
    try:
        (ticket,) = [t for t in db.all() if t.state is TicketState.PRINTED]
        return ticket.validation_number, ticket.amount_cents
    finally:
        db.close()


def test_ticket_in_across_terminals_exactly_once(tmp_path: Path) -> None:
    tickets = tmp_path / "tickets.sqlite3"
    hosts = [HostTool(tmp_path, n, tickets, "--interval-ms", "100") for n in (1, 2, 3)]
    terms: list[TerminalProcess] = []
    try:
        terms.append(TerminalProcess(tmp_path / "a", hosts[0].link, 1))
        terms.append(TerminalProcess(tmp_path / "b", hosts[1].link, 2, serial=True))
        terms.append(TerminalProcess(tmp_path / "c", hosts[2].link, 3, serial=True))
        a, b, c = terms
        a.do("bill 5000")
        a.do("bill 2000")
        assert a.do("cashout")["cashed_out"] == 7000
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            db = TicketDb(tickets, lambda: 0)
            states = [t.state for t in db.all()]
            db.close()
            if states == [TicketState.PRINTED]:
                break
            a.do("wait 0.2")
        number, cents = _printed_ticket(tickets)
        assert cents == 7000
        # two terminals race for the ticket: exactly one is credited
        results: dict[str, dict[str, Any]] = {}
        racers = [
            threading.Thread(
                target=lambda t=t, k=k: results.__setitem__(k, t.do(f"ticket {number}"))
            )
            for k, t in (("b", b), ("c", c))
        ]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join(60)
        credited = sorted(results[k]["credited"] for k in ("b", "c"))
        assert credited == [0, 7000], results
        winner = b if results["b"]["credited"] else c
        loser = c if winner is b else b
        assert winner.do(f"ticket {number}")["credited"] == 0  # again: already redeemed
        assert loser.do("ticket 109999999999999999")["credited"] == 0  # never issued
        for t in terms:
            t.do("wait 2")  # 68 and the 71 status reach the hosts
        reports = {t.data_dir.name: terminal_meters(t.data_dir) for t in terms}
    finally:
        for t in terms:
            t.quit()
        for h in hosts:
            h.stop()
    db = TicketDb(tickets, lambda: 0)
    try:
        ticket = db.get(number)
        assert ticket is not None and ticket.state is TicketState.REDEEMED
        redeemed = [entry for entry in db.log(number) if entry[1] == "redeemed"]
        assert len(redeemed) == 1
    finally:
        db.close()
    tickets_in = {name: r["lifetime"].get("tickets_in", 0) for name, r in reports.items()}
    assert sorted(tickets_in.values()) == [0, 0, 7000]
    assert reports["a"]["lifetime"]["tickets_out"] == 7000


# -- the bad-input campaign -------------------------------------------------------------------


def _answer(line: HostLine, frame: bytes, wait: float = 0.08) -> bytes:
    line.send(frame)
    got = b""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        got += line.read(max(0.0, deadline - time.monotonic()))
    return got


def test_bad_input_campaign(tmp_path: Path) -> None:
    link = tmp_path / "sas.tty"
    line = HostLine.create_pty(link)
    term = TerminalProcess(tmp_path / "term", link, 1)
    rand = random.Random(1616)
    try:
        term.do("bill 2000")
        for _ in range(50):  # drain the power-up and bill exceptions
            if _answer(line, wire.general_poll(1)) == b"\x00":
                break
        before = terminal_meters(tmp_path / "term")
        credits = term.do("state")["credits"]
        good = wire.long_poll(1, 0x1A)
        assert _answer(line, good) == wire.response(1, 0x1A, wire.to_bcd(credits[0], 4))
        silent: list[tuple[str, bytes]] = [
            ("wrong CRC", with_crc(b"\x01\x01")[:-1] + b"\x00"),
            ("wrong CRC on a redeem", with_crc(b"\x01\x71\x01\xff")[:-1] + b"\x99"),
            ("wrong address, long poll", wire.long_poll(2, 0x1A)),
            ("wrong address, general poll", wire.general_poll(2)),
            ("broadcast", wire.long_poll(0, 0x1A)),
            ("truncated", wire.long_poll(1, 0x2F, b"\x03\x00\x00\x00")[:4]),
            ("truncated S poll", with_crc(b"\x01\x58" + bytes(9))[:6]),
            ("overlong length byte", b"\x01\x2f\xc8" + bytes(10)),
            ("unknown command", b"\x01\xee\x00\x00"),
            ("unsupported R poll", b"\x01\x49"),
        ]
        for name, frame in silent:
            time.sleep(0.02)  # the line quiet: the next byte is an address byte again
            assert _answer(line, frame) == b"", name
            time.sleep(0.02)
        # unsolicited ticket and validation polls: answered, never a credit
        time.sleep(0.02)
        assert _answer(line, wire.long_poll(1, 0x58, wire.to_bcd(42, 1) + wire.to_bcd(1, 8))) == (
            wire.response(1, 0x58, b"\x80")
        )
        redeem = b"\x00" + wire.to_bcd(100000, 5) + b"\x00" + wire.to_bcd(4212345678901234, 9)
        redeem += bytes(6)
        answer = _answer(line, wire.long_poll(1, 0x71, bytes([len(redeem)]) + redeem))
        assert answer[:2] == b"\x01\x71" and answer[3] in (0xFF, 0x80, 0x81), answer.hex()
        # garbage, then random frames with good CRCs, then polls as fast as the line goes
        for _ in range(200):
            line.send(bytes(rand.randrange(256) for _ in range(rand.randint(1, 40))))
            line.read(0.002)
        time.sleep(0.05)
        line.read(0.05)
        for _ in range(300):
            body = bytes([1, rand.choice([0x10, 0x1A, 0x2F, 0x4D, 0x6F, 0x70, 0x71, 0x53, 0x21])])
            body += bytes(rand.randrange(256) for _ in range(rand.randint(0, 20)))
            line.send(with_crc(body))
            line.read(0.01)
        time.sleep(0.05)
        line.read(0.05)
        fast = 0
        for _ in range(2000):
            line.send(wire.general_poll(1))
            fast += len(line.read(0.0005))
        time.sleep(0.1)
        line.read(0.1)
        # the link answers properly again, the terminal is alive and no money moved
        assert _answer(line, good) == wire.response(1, 0x1A, wire.to_bcd(credits[0], 4))
        state = term.do("state")
        assert state["credits"] == credits and term.proc.poll() is None
        after = terminal_meters(tmp_path / "term")
        money = ("bills_in", "tickets_in", "tickets_out", "coin_in", "coin_out",
                 "handpaid_cancelled_credits", "handpaid_jackpots")  # fmt: skip
        assert {m: after["lifetime"].get(m, 0) for m in money} == {
            m: before["lifetime"].get(m, 0) for m in money
        }
        assert fast > 0
    finally:
        term.quit()
        line.close()
