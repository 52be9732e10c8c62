"""``table serve --card-source`` and ``sim shuffler``: bad input is one line and a non-zero
exit, before anything starts (in-process: the same ``main`` the console script runs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.cli import main


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--card-source", "shuffler"], "needs --shuffler-port"),
        (
            ["--card-source", "shuffler", "--shuffler-port", "/dev/null", "--shuffler-key", "K"],
            "--shuffler-key",
        ),
        (["--card-source", "manual", "--auto-deal", "1"], "manual cards are entered by a dealer"),
        (["--shuffler-port", "/dev/ttyUSB0"], "the cards are virtual"),
        (["--card-source", "deck"], "invalid choice"),
    ],
)
def test_serve_refuses_a_bad_card_source_in_one_line(
    args: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = ["table", "--data-dir", str(tmp_path / "t"), "serve", "--edition", "stadium-3cp"]
    with pytest.raises(SystemExit) as exited:
        raise SystemExit(main([*command, *args]))
    err = capsys.readouterr().err
    assert exited.value.code not in (0, None)
    assert words in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "t").exists()  # nothing was made


def test_sim_shuffler_without_its_pairing_key_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = str(tmp_path / "shuffler.tty")
    code = main(["sim", "shuffler", "--port", port, "--state-dir", str(tmp_path / "s")])
    err = capsys.readouterr().err
    assert code == 2 and "pairing key" in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_serve_deals_the_shuffler_programs_cards_to_robots(tmp_path: Path) -> None:
    """``table serve --card-source shuffler --auto-deal --robots 3`` in a real process with the
    shuffler simulator program on a pty: every finished round's cards are the shuffler's, its
    deck check passed, and every robot's credits reconcile with the recall to the cent."""
    import re
    import signal
    import subprocess
    import time

    from kiosk.table.core import events as e
    from kiosk.table.core.journal import TableJournal
    from kiosk.terminal.app.peripherals import spawn_simulator, wait_ready
    from kiosk.terminal.devices.pairing import key_path
    from kiosk.terminal.hostlink import pki
    from tests.helpers.table_cli import CREDITS, SUMMARY, env, turbokiosk

    pki.ensure_pki(tmp_path / "pki", ("table-T1",))
    sim, ready = spawn_simulator("shuffler", tmp_path / "periph")
    try:
        port = wait_ready(sim, ready, 15)["port"]
        key = key_path(tmp_path / "periph" / "keys", "shuffler")
        command = turbokiosk(
            *["table", "--data-dir", str(tmp_path / "table"), "serve"],
            *["--edition", "stadium-3cp", "--pki-dir", str(tmp_path / "pki")],
            *["--card-source", "shuffler", "--shuffler-port", port, "--shuffler-key", str(key)],
            *["--listen", "127.0.0.1:0", "--betting-seconds", "0.3", "--decision-seconds", "0.3"],
            *["--auto-deal", "0.1", "--robots", "3"],
        )
        server = subprocess.Popen(
            command, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        assert server.stdout is not None
        assert server.stdout.readline().startswith("table T1: serving on ")
        time.sleep(6)
        server.send_signal(signal.SIGTERM)
        out, err = server.communicate(timeout=30)
    finally:
        sim.terminate()
        sim.wait(10)
    assert server.returncode == 0 and "Traceback" not in err, err
    books = {int(m[1]): tuple(map(int, m.groups()[1:])) for m in SUMMARY.finditer(out)}
    assert sorted(books) == [0, 1, 2], out
    journal = TableJournal(tmp_path / "table" / "table-T1.sqlite3", "T1")
    try:
        games = [ev.game_number for ev in journal.events() if isinstance(ev, e.RoundOpened)]
        records = [r for r in (journal.recall(g) for g in games) if r is not None]
    finally:
        journal.close()
    assert len(records) >= 3, out
    net = dict.fromkeys(books, 0)
    for record in records:
        assert record.voided is None and record.card_source == "shuffler"
        assert [p.pack for p in record.packs] == [1, 2, 3, 4]
        assert record.deck_checks and all(d.passed for d in record.deck_checks)
        for outcome in record.outcomes:
            net[outcome.seat] += outcome.paid - outcome.stake
    for seat, (credits, at_stake, rounds, voided, _refused, disagreements) in books.items():
        assert disagreements == 0 and voided == 0 and rounds >= 1
        assert credits + at_stake == CREDITS + net[seat], (seat, out)
    assert re.search(r"table T1: stopped", out)
