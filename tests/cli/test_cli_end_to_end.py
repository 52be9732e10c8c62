"""``turbokiosk play`` driven through a pipe from the first note to the voucher, then the data
directory checked with ``meters --json``, ``recall --json``, ``events --json`` and ``audit``.

Cards come from the certified RNG, so the scripts answer every decision either game may offer
(an answer to a decision not offered is refused and changes nothing) and end with the
attendant (a jackpot handpay, however unlikely, is paid before the cash-out).
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from kiosk.cli import main
from kiosk.kernel.paths import DATA_DIR_ENV
from tests.helpers.cli_process import turbokiosk

CARD = r"[2-9TJQKA][shdc]"
TURBO_SCRIPT = """\
bill 20
game turbo-football
bet first_down 5
bet nine_card_bonus 1
deal
noraise
attendant
cashout
quit
"""
STADIUM_SCRIPT = """\
bill 50
game stadium-3cp
positions 1 5 9
bet ante 5
bet pairs_plus 1
bet pairs_plus_row_1 1
deal
play
attendant
cashout
quit
"""


def play(data_dir: Path, script: str) -> str:
    done = turbokiosk("play", "--data-dir", str(data_dir), stdin=script)
    assert done.returncode == 0, done.stderr
    return done.stdout


def as_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    """``turbokiosk ARGS --json`` (in this process: the play and audit runs are separate)."""
    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def voucher_value(output: str) -> int:
    match = re.search(
        r"^Voucher printed: \$([\d,]+)\.(\d\d), validation number \d{18}\.", output, re.MULTILINE
    )
    assert match, output
    return int(match[1].replace(",", "")) * 100 + int(match[2])


def check_store(
    capsys: pytest.CaptureFixture[str], data_dir: Path, note: int, wagered: int, edition: str
) -> dict[str, Any]:
    """The meters, recall, event log and audit of a terminal that played one game."""
    meters = as_json(capsys, "meters", "--data-dir", str(data_dir))
    life = meters["lifetime"]
    assert meters["credits"] == [0]
    assert life["bills_in"] == note and life["bills_in_count"] == 1
    assert life[f"bills_in.{note}"] == 1
    assert life["games_played"] == 1
    assert life["coin_in"] == wagered
    assert meters["period"] == life
    assert meters["units"]["coin_in"] == "cents" and meters["units"]["games_played"] == "count"

    recall = as_json(capsys, "recall", "--data-dir", str(data_dir))
    assert recall["in_progress"] is None
    (game,) = recall["games"]
    assert isinstance(game, dict)
    assert game["game_number"] == 1 and game["edition"] == edition
    assert game["credits_before"] == [note]
    (seat,) = game["settlement"]
    assert life["coin_out"] + life["handpaid_jackpots"] == seat["paid"]
    assert life["tickets_out"] == game["credits_after"][0]
    assert life["tickets_out"] == note - wagered + life["coin_out"]

    events = as_json(capsys, "events", "--data-dir", str(data_dir))
    kinds = [e["kind"] for e in events]
    assert kinds[:3] == ["VoucherPrinted", "CashoutStarted", "BillStacked"]
    assert kinds[-1] == "PoweredUp"
    assert events[0]["data"]["value"] == life["tickets_out"]
    stacked = as_json(capsys, "events", "--data-dir", str(data_dir), "--kind", "BillStacked")
    assert [e["data"]["value"] for e in stacked] == [note]

    audit = turbokiosk("audit", "--data-dir", str(data_dir))
    assert audit.returncode == 0, audit.stdout
    assert audit.stdout.rstrip().endswith("AUDIT PASSED")
    return game


def test_a_turbo_game_from_the_note_to_the_voucher(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = tmp_path / "terminal"
    out = play(data_dir, TURBO_SCRIPT)
    assert "$20.00 note stacked: credits $20.00." in out
    assert "Game 1  Turbo Football (turbo-football)" in out
    assert "  wagers taken: First Down $5.00, 9 Card Bonus $1.00 (total $6.00)" in out
    assert re.search(rf"^  Community: {CARD} {CARD} {CARD}  \(\d+ footballs?\)$", out, re.M)
    assert re.search(
        rf"^  Own cards: (?:{CARD} ){{5}}{CARD}  \(9 cards: \d+ footballs?\)$", out, re.M
    )
    assert re.search(r"^  Total: stake \$6\.00, paid \$[\d,.]+, net [+-]?\$", out, re.M)
    value = voucher_value(out)
    assert out.rstrip().endswith("Bye. Credits on the terminal: $0.00.")
    game = check_store(capsys, data_dir, 2000, 600, "turbo-football")
    assert game["bets"][0]["wagers"] == {"first_down": 500, "nine_card_bonus": 100}
    assert len(game["card_names"]["first"]) == 3
    assert len(game["card_names"]["seat_cards"][0]) == 6
    assert game["credits_after"] == [value]


def test_a_stadium_game_from_the_note_to_the_voucher(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = tmp_path / "terminal"
    out = play(data_dir, STADIUM_SCRIPT)
    assert "Game 1  Stadium Three Card Poker (stadium-3cp)" in out
    assert re.search(rf"^    \[{CARD}\]  {CARD}   {CARD}$", out, re.M)  # array row 1
    assert re.search(rf"^  Hand \(locations 1 5 9\): {CARD} {CARD} {CARD}  ", out, re.M)
    assert "  Decision: chose play (+$5.00)" in out
    assert re.search(rf"^  Dealer: {CARD} {CARD} {CARD}  .* \((does not )?qualif", out, re.M)
    value = voucher_value(out)
    game = check_store(capsys, data_dir, 5000, 1200, "stadium-3cp")
    assert game["bets"][0]["positions"] == [0, 4, 8]
    assert game["choices"] == {"0": "play"} and game["automatic"] == {"0": False}
    assert len(game["card_names"]["first"]) == 9
    assert len(game["card_names"]["second_shared"]) == 3
    assert game["credits_after"] == [value]

    assert main(["recall", "--data-dir", str(data_dir), "--last", "1"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Game 1  Stadium Three Card Poker (stadium-3cp)\n")
    assert "  Seat 0: credits before $50.00, after $" in text
    assert "      chose play (+$5.00)\n" in text


def test_audit_fails_on_a_tampered_journal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = tmp_path / "terminal"
    play(data_dir, "bill 20\nquit\n")
    tampered = tmp_path / "tampered"
    shutil.copytree(data_dir, tampered)
    # the development signer's state lives beside the data directory: copied with it
    shutil.copytree(tmp_path / "terminal.signer", tmp_path / "tampered.signer")
    with sqlite3.connect(tampered / "terminal.sqlite3") as db:
        changed = db.execute(
            "UPDATE journal SET body = replace(body, '\"value\":2000', '\"value\":5000') "
            "WHERE kind = 'BillStacked'"
        ).rowcount
    assert changed == 1
    bad = turbokiosk("audit", "--data-dir", str(tampered))
    assert bad.returncode == 1
    assert re.search(r"^FAIL integrity: journal row \d+ fails its chain hash$", bad.stdout, re.M)
    assert bad.stdout.rstrip().endswith("AUDIT FAILED (1)")
    monkeypatch.setenv(DATA_DIR_ENV, str(data_dir))  # the original, as the default directory
    assert main(["audit"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("AUDIT PASSED")


def test_commands_on_a_directory_without_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "nothing")
    for command in ("meters", "recall", "events"):
        assert main([command, "--data-dir", missing]) == 1
        assert f"turbokiosk {command}: no terminal data in {missing}" in capsys.readouterr().err
    assert main(["audit", "--data-dir", missing]) == 1
    assert "FAIL cannot open the store" in capsys.readouterr().out
    assert not Path(missing).exists()  # reading never creates a store


def test_play_refuses_an_edition_that_is_not_enabled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--data-dir", str(tmp_path / "t"), "--edition", "nope"]) == 2
    assert "--edition: unknown edition 'nope'" in capsys.readouterr().err
    assert not (tmp_path / "t").exists()  # refused before a store is created
