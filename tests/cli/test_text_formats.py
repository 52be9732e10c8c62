"""Money, meters, events and the default data directory, as technicians read them."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from kiosk.kernel.paths import DATA_DIR_ENV, default_data_dir
from kiosk.terminal.core import events as e
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.meters import Meters
from kiosk.terminal.core.state import TerminalState
from kiosk.terminal.presentation.money import dollars, parse_dollars, signed_dollars
from kiosk.terminal.store.journal import JournalRow
from kiosk.terminal.textui.records import (
    event_details,
    events_json,
    is_money,
    meters_json,
    meters_text,
)
from kiosk.terminal.textui.show import array_lines, odds_text


@pytest.mark.parametrize(
    ("cents", "text"),
    [
        (0, "$0.00"),
        (5, "$0.05"),
        (123456, "$1,234.56"),
        (10**11, "$1,000,000,000.00"),
        (-500, "-$5.00"),
    ],
)
def test_dollars(cents: int, text: str) -> None:
    assert dollars(cents) == text


def test_signed_dollars() -> None:
    assert [signed_dollars(x) for x in (500, 0, -25)] == ["+$5.00", "$0.00", "-$0.25"]


@pytest.mark.parametrize(
    ("text", "cents"),
    [("20", 2000), ("$5", 500), ("2.5", 250), ("0.25", 25), ("1,000", 100000), (" 7.05 ", 705)],
)
def test_parse_dollars(text: str, cents: int) -> None:
    assert parse_dollars(text) == cents


@pytest.mark.parametrize("text", ["", "-5", "5.001", "five", "5.", ".5", "1e3", "$", "5 5"])
def test_parse_dollars_refuses(text: str) -> None:
    with pytest.raises(ValueError, match="not an amount in dollars"):
        parse_dollars(text)


def test_odds_text() -> None:
    assert [odds_text(x) for x in (Fraction(1), Fraction(3, 2), "10/1")] == ["1:1", "3:2", "10:1"]


def test_array_marks_the_seat_positions() -> None:
    assert array_lines(list(range(9)), [0, 4, 8]) == [
        "[2s]  2h   2d",
        " 2c  [3s]  3h",
        " 3d   3c  [4s]",
    ]


@pytest.mark.parametrize(
    ("meter", "money"),
    [
        ("coin_in", True),
        ("bills_in", True),
        ("bills_in_count", False),
        ("bills_in.2000", False),
        ("wager_out.pairs_plus_row_1", True),
        ("game.turbo-football.default.in", True),
        ("game.turbo-football.default.played", False),
        ("games_played", False),
        ("handpaid_jackpots", True),
        ("handpay_count", False),
    ],
)
def test_money_meters_and_counts(meter: str, money: bool) -> None:
    assert is_money(meter) is money


def test_meters_text_and_json() -> None:
    life = Meters({"coin_in": 123456, "games_played": 1234, "bills_in.10000": 2, "bills_in.500": 3})
    state = TerminalState(TerminalConfig(), credits=[2500], lifetime=life, period=Meters())
    lines = meters_text(state, 42, 0)
    assert lines[:4] == [
        "Meters of terminal TK-0001 (Demo Casino)",
        "As of journal row 42",
        "Period: since set-up",
        "Credits on the terminal: $25.00",
    ]
    table = [line.split() for line in lines[5:] if line]
    assert table[0] == ["Meter", "Lifetime", "Period"]
    assert ["coin_in", "$1,234.56", "$0.00"] in table
    assert ["games_played", "1,234", "0"] in table
    notes = [row[0] for row in table if row[0].startswith("bills_in.")]
    assert notes == ["bills_in.500", "bills_in.10000"]  # by value, not as text
    data = meters_json(state, 42, 0)
    assert data["lifetime"]["coin_in"] == 123456 and data["period"]["coin_in"] == 0
    assert data["units"]["bills_in.500"] == "count" and data["credits"] == [2500]


def test_event_details() -> None:
    stacked = e.BillStacked(at=1, seat=0, value=2000)
    assert event_details("BillStacked", {"at": 1, "seat": 0, "value": 2000}) == (
        "seat=0 value=$20.00"
    )
    assert event_details("DoorChanged", {"at": 1, "door": "main", "open": True}) == (
        "door=main open=yes"
    )
    changed = {
        "at": 1,
        "before": {"denomination": 25, "venue": "A"},
        "after": {"denomination": 50, "venue": "A"},
        "by": "tech",
    }
    assert event_details("ConfigChanged", changed) == "by=tech denomination: 25 -> 50"
    data = {"seat": 0, "value": 2000, "device": "", "device_count": 0}  # every field
    assert events_json([JournalRow(7, stacked)]) == [
        {"seq": 7, "kind": "BillStacked", "at": 1, "data": data}
    ]


def test_default_data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(DATA_DIR_ENV, raising=False)
    assert default_data_dir() == Path("var/terminal")
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    assert default_data_dir() == tmp_path
    monkeypatch.setenv(DATA_DIR_ENV, "")
    assert default_data_dir() == Path("var/terminal")
