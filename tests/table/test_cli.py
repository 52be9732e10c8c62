"""``turbokiosk table``: served in a real process, a seat plays through it; bad input is one
line and a non-zero exit."""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path

import pytest

from kiosk.terminal.hostlink import pki
from proto.turbokiosk.v1 import table_pb2 as pb
from tests.helpers.table import SeatClient, ante
from tests.helpers.table_cli import env, turbokiosk


@pytest.fixture(scope="module")
def pki_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("table-cli-pki") / "pki"
    pki.ensure_pki(
        where,
        (
            "table-T1",
            "seat-0",
        ),
    )
    return where


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["serve", "--edition", "no-such-game"], "no-such-game"),
        (["serve", "--edition", "stadium-3cp", "--mode", "both"], "invalid choice"),
        (["serve", "--edition", "stadium-3cp", "--betting-seconds", "0"], "betting-seconds"),
        (["recall", "0"], "game number"),
        (["recall", "3"], "no journal"),
        (["--table-id", "../x", "recall", "1"], "table-id"),
        (["audit", "--seat", "x"], "N=DIR"),
        (["audit"], "no journal"),
        (["meters"], "no journal"),
        (["audit", "--mode", "both"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_a_non_zero_exit(
    args: list[str], words: str, pki_dir: Path, tmp_path: Path
) -> None:
    base = ["table", "--data-dir", str(tmp_path)]
    if args[0] == "serve":
        args = [*args, "--pki-dir", str(pki_dir), "--listen", "127.0.0.1:0"]
    done = subprocess.run(
        turbokiosk(*base, *args), env=env(), capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0
    assert len(done.stderr.strip().splitlines()) == 1 and words in done.stderr
    assert "Traceback" not in done.stderr


def test_serve_deals_for_a_seat_and_recall_shows_the_round(pki_dir: Path, tmp_path: Path) -> None:
    data = ["table", "--data-dir", str(tmp_path)]
    serve = [
        *["serve", "--edition", "stadium-3cp", "--pki-dir", str(pki_dir)],
        *["--listen", "127.0.0.1:0", "--betting-seconds", "2", "--decision-seconds", "1"],
        *["--auto-deal", "0.2"],
    ]
    server = subprocess.Popen(
        turbokiosk(*data, *serve), env=env(), stdout=subprocess.PIPE, text=True
    )
    seat = None
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("table T1: serving on ")
        seat = SeatClient(line.split()[-1], pki.credentials(pki_dir, "seat-0"))
        seat.send(join=pb.JoinTable(table_id="T1", seat=0))
        game = seat.next("round_opened").game_number
        wager = ante(0, 300)
        wager.game_number = game
        seat.send(wager=wager)
        seat.next("wager_accepted")
        result = seat.next("seat_settled").seat_settled  # no answer: folded at the timer
        assert result.stake_cents == 300 and result.paid_cents == 0
        seat.next("round_closed")
    finally:
        if seat is not None:
            seat.close()
        server.send_signal(signal.SIGTERM)
        out, _ = server.communicate(timeout=30)
    assert server.returncode == 0 and "stopped" in out
    shown = subprocess.run(
        turbokiosk(*data, "recall", str(game)), env=env(), capture_output=True, text=True
    )
    assert shown.returncode == 0, shown.stderr
    record = json.loads(shown.stdout)
    assert record["bets"][0][1]["wagers"] == [["ante", 300]]
    assert record["outcomes"][0]["choice"] == "fold"
