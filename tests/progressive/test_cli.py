"""``turbokiosk progressive meters|reconcile`` on real journals; bad input is one line."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from kiosk.table.core.controller import TableController
from kiosk.table.progressive.feed import TableFeed
from kiosk.terminal.progressive.controller import ProgressiveController
from tests.helpers.cli_process import turbokiosk
from tests.helpers.progressive import frequent, play_rounds, table_config, write_frequent
from tests.helpers.table import SeededDecks


def test_meters_and_reconcile_read_the_journals(tmp_path: Path) -> None:
    settings_file = write_frequent(tmp_path / "test-6cb-trips.toml")
    settings = frequent()
    meter = ProgressiveController(settings, tmp_path / "progressive-test-6cb-trips.sqlite3")
    table = TableController(table_config("T1"), tmp_path / "T1.sqlite3", SeededDecks(5))
    table.hooks.append(TableFeed(meter, "table-T1", settings, 700).after)
    play_rounds(table, "T1", 12)
    state = meter.meters()
    table.close()
    meter.close()
    common = ("progressive", "--progressive", str(settings_file), "--data-dir", str(tmp_path))
    shown = turbokiosk(*common, "meters", "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["contributed"] == state.contributed
    ok = turbokiosk(*common, "reconcile", "--table", f"T1={tmp_path / 'T1.sqlite3'}")
    assert ok.returncode == 0 and "12 rounds" in ok.stdout and "reconciled" in ok.stdout
    db = sqlite3.connect(tmp_path / "progressive-test-6cb-trips.sqlite3")
    db.execute("DELETE FROM rounds WHERE seq = (SELECT max(seq) FROM rounds)")  # a lost round
    db.commit()
    db.close()
    bad = turbokiosk(*common, "reconcile", "--table", f"T1={tmp_path / 'T1.sqlite3'}")
    assert bad.returncode == 1 and "DIFFERS" in bad.stdout and "missing games [12]" in bad.stdout


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    for args in (
        ("--progressive", "nope", "meters"),
        ("--progressive", "stadium-6cb-royal", "--data-dir", str(tmp_path), "meters"),
        ("--progressive", "stadium-6cb-royal", "reconcile", "--table", "T1"),
    ):
        done = turbokiosk("progressive", *args)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
