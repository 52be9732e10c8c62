"""Linked mode from the command line: ``turbokiosk progressive serve`` and a ``turbokiosk
table serve --progressive --progressive-at`` table of robot seats, each its own process; after
both stop, ``progressive reconcile`` finds every settled round booked to the micro-cent."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

from tests.helpers.progressive import pki_dir, write_frequent
from tests.helpers.table_cli import env, turbokiosk


def test_a_table_books_on_the_linked_controller(tmp_path: Path) -> None:
    pki = pki_dir(tmp_path / "pki", ("T1",))
    settings = str(write_frequent(tmp_path / "test-6cb-trips.toml"))
    common = ["progressive", "--progressive", settings, "--data-dir", str(tmp_path / "prog")]
    controller = subprocess.Popen(
        turbokiosk(*common, "serve", "--pki-dir", str(pki), "--listen", "127.0.0.1:0"),
        env=env(),
        stdout=subprocess.PIPE,
        text=True,
    )
    table = None
    try:
        assert controller.stdout is not None
        line = controller.stdout.readline()
        assert line.startswith("progressive test-6cb-trips: serving on "), line
        address = line.split()[-1]
        table = subprocess.Popen(
            turbokiosk(
                *["table", "--data-dir", str(tmp_path / "table"), "serve"],
                *["--edition", "stadium-3cp", "--pki-dir", str(pki), "--ca-dir", str(pki)],
                *["--robots", "4"],
                *["--listen", "127.0.0.1:0", "--betting-seconds", "0.3"],
                *["--decision-seconds", "0.3", "--auto-deal", "0.1"],
                *["--progressive", settings, "--progressive-at", address],
            ),
            env=env(),
            stdout=subprocess.PIPE,
            text=True,
        )
        assert table.stdout is not None
        assert "progressive test-6cb-trips (linked)" in table.stdout.readline()
        time.sleep(4)
    finally:
        if table is not None:
            table.send_signal(signal.SIGTERM)
            table.communicate(timeout=60)
        controller.send_signal(signal.SIGTERM)
        controller.communicate(timeout=30)
    assert table is not None and table.returncode == 0
    journal = tmp_path / "table" / "table-T1.sqlite3"
    done = subprocess.run(
        turbokiosk(*common, "reconcile", "--table", f"T1={journal}"),
        env=env(),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "table-T1:" in done.stdout and "reconciled" in done.stdout
    meters = subprocess.run(
        turbokiosk(*common, "meters", "--json"), env=env(), capture_output=True, text=True
    )
    assert json.loads(meters.stdout)["wagers"] > 0, done.stdout
