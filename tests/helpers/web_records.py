"""A host's records with something of everything the dashboard shows, made through the host's
own database API (:class:`kiosk.host.accounting.db.HostDb`): games, meters, vouchers and their
audit, a RAM clear, meters going backwards, a double redemption, a quarantined number, a silent
terminal."""

from __future__ import annotations

import time
from dataclasses import dataclass

import pytest

from kiosk.host.accounting.db import HostDb, HostDbError, Message
from kiosk.terminal.hostlink.anchor import JournalHead

HOUR = 3_600_000


def game(terminal: str, seq: int, at: int, edition: str, stakes: list[tuple[int, int]]) -> Message:
    """A ``game_played`` message with one seat per (stake, paid)."""
    seats = [
        {"seat": i, "stake_cents": s, "paid_cents": p, "handpay": False, "spots": []}
        for i, (s, p) in enumerate(stakes)
    ]
    body = {"game_number": seq, "edition": edition, "seats": seats}
    return Message(f"{terminal}:1:{seq}:0", seq, at, "game_played", body)


def meters(terminal: str, seq: int, at: int, values: dict[str, int]) -> Message:
    return Message(
        f"{terminal}:1:{seq}:m", seq, at, "meters", {"reason": "event", "meters": values}
    )


@dataclass
class Floor:
    """What :func:`populate` made (money in cents)."""

    now: int
    double_redeemed: str
    quarantined: str
    coin_in: int
    win: int


def printed_voucher(db: HostDb, terminal: str, value: int, seq: int, at: int) -> str:
    number = db.issue_validation_number(terminal, value, at)
    body = {"validation_number": number, "value_cents": value, "seat": 0}
    db.record(terminal, [Message(f"{terminal}:1:{seq}:v", seq, at, "voucher_printed", body)], at)
    return number


def double_redemption(db: HostDb, number: str, first: str, second: str, at: int) -> None:
    """``number`` stacked at ``first``, then reported stacked at ``second`` too."""
    assert db.validate_ticket(first, number, at).accepted
    db.finish_ticket(first, number, True, at)
    with pytest.raises(HostDbError, match="double redemption"):
        db.finish_ticket(second, number, True, at + 1)


def populate(db: HostDb) -> Floor:
    now = time.time_ns() // 1_000_000
    db.hello("TK-A", "1.4.0", "sig-a", now)
    db.hello("TK-B", "1.4.0", "sig-b", now)
    db.hello("TK-SILENT", "1.3.9", "sig-s", now - 10 * 60_000)
    db.set_auth_result("TK-A", "match", now)
    db.set_auth_result("TK-B", "mismatch", now)
    games = [
        game("TK-A", 1, now - 2 * HOUR, "turbo-football", [(500, 0), (200, 600)]),
        game("TK-A", 2, now - HOUR // 2, "turbo-football", [(1000, 250)]),
        game("TK-A", 3, now - 60_000, "stadium", [(300, 900)]),
    ]
    db.record("TK-A", games, now)
    db.record("TK-B", [game("TK-B", 1, now - 30_000, "stadium", [(700, 0)])], now)
    db.record("TK-A", [meters("TK-A", 10, now, {"coin_in": 2000, "coin_out": 1750})], now)
    db.record("TK-B", [meters("TK-B", 10, now, {"coin_in": 900, "coin_out": 0})], now)
    db.record("TK-B", [meters("TK-B", 11, now, {"coin_in": 700, "coin_out": 0})], now)  # backwards
    number = printed_voucher(db, "TK-A", 2500, 20, now)
    double_redemption(db, number, "TK-A", "TK-B", now)
    printed_voucher(db, "TK-B", 1200, 21, now)  # stays issued
    unknown = "987654321098765432"
    body = {"validation_number": unknown, "value_cents": 5000, "seat": 0}
    db.record("TK-B", [Message("TK-B:1:22:v", 22, now, "voucher_printed", body)], now)
    head = JournalHead(5, 12, bytes(32))
    db.record("TK-A", [meters("TK-A", 12, now, {"coin_in": 2000, "coin_out": 1750})], now, head)
    clear = {
        "previous_epoch": 5,
        "previous_seq": 12,
        "previous_hash": "00" * 32,
        "signer_epoch": 6,
        "by": "operator",
        "cleared_ms": now,
        "reason": "board replaced",
    }
    db.record(
        "TK-A",
        [Message("TK-A:6:1:0", 1, now, "ram_cleared", clear)],
        now,
        JournalHead(6, 1, bytes(32)),
    )
    return Floor(
        now=now,
        double_redeemed=number,
        quarantined=unknown,
        coin_in=500 + 200 + 1000 + 300 + 700,
        win=0 + 600 + 250 + 900 + 0,
    )


def attendant_events(db: HostDb, terminal: str, now: int) -> None:
    """What an attendant goes to at ``terminal`` (issue 26): power, a main door opened outside
    service, a technician's door inside it, paper out, a jackpot handpay paid and one waiting,
    and a meter snapshot with notes, games and wager spots."""

    def event(seq: int, kind: str, body: dict[str, object]) -> Message:
        return Message(f"{terminal}:1:{100 + seq}:0", 100 + seq, now - 60_000 + seq, kind, body)

    tilt = {"code": "paper_out", "raised": True, "reason": "printer out of paper"}
    db.record(
        terminal,
        [
            event(1, "power_up", {"software_version": "1.4.0", "recovered": False}),
            event(2, "door", {"door": "main", "open": True}),
            event(3, "door", {"door": "main", "open": False}),
            event(4, "service", {"active": True, "role": "technician"}),
            event(5, "door", {"door": "logic", "open": True}),
            event(6, "door", {"door": "logic", "open": False}),
            event(7, "service", {"active": False, "role": ""}),
            event(8, "tilt", {**tilt, "needs_attendant": False, "by": ""}),
            event(9, "handpay_locked", {"seat": 0, "value_cents": 125_000, "kind": "jackpot"}),
            event(
                10,
                "handpay_reset",
                {"seat": 0, "value_cents": 125_000, "kind": "jackpot", "by": "attendant 7"},
            ),
            event(
                11, "handpay_locked", {"seat": 0, "value_cents": 4_000, "kind": "cancelled_credits"}
            ),
        ],
        now,
    )
    values = {
        "coin_in": 2000,
        "coin_out": 1750,
        "bills_in": 20000,
        "bills_in.10000": 2,
        "game.icon-v2.default.in": 1500,
        "wager_in.first_down": 500,
        "door_opens": 2,
    }
    db.record(terminal, [meters(terminal, 200, now, values)], now)
