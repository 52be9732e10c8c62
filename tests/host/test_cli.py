"""``turbokiosk host ...`` and ``turbokiosk software``."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.host.accounting.db import Message, SqliteHostDb
from kiosk.host.embedded import start_embedded_host
from kiosk.kernel import integrity
from kiosk.terminal.app.wiring import build_terminal

T0 = 1_800_000_000_000


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_pki_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = str(tmp_path / "h")
    assert _run(capsys, "host", "init-ca", "--host-dir", d)[0] == 0
    assert _run(capsys, "host", "issue-cert", "--host-dir", d, "--server", "host")[0] == 0
    code, out = _run(capsys, "host", "issue-cert", "--host-dir", d, "TK-0009")
    assert code == 0 and "TK-0009.crt" in out
    assert (tmp_path / "h" / "pki" / "TK-0009.key").stat().st_mode & 0o777 == 0o600
    # the CA's key is beside the host's directory, never in it; its certificate is in both
    assert sorted(p.name for p in (tmp_path / "h-ca").iterdir()) == ["ca.crt", "ca.key"]
    assert (tmp_path / "h" / "pki" / "ca.crt").exists()
    assert not list((tmp_path / "h").rglob("ca.key"))
    assert main(["host", "init-ca", "--host-dir", d]) == 2  # refuses to replace the CA


def test_record_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = SqliteHostDb(tmp_path / "host.sqlite3")
    db.hello("TK-A", "0.1.0", "ab" * 32, T0)
    number = db.issue_validation_number("TK-A", 1234, T0)
    voucher = {"validation_number": number, "value_cents": 1234, "seat": 0}
    db.record(
        "TK-A",
        [
            Message("TK-A:1:3:0", 3, T0, "voucher_printed", voucher),
            Message("TK-A:1:3:1", 3, T0, "meters", {"reason": "event", "meters": {"coin_in": 7}}),
        ],
        T0,
    )
    db.close()
    base = ["--host-dir", str(tmp_path)]
    code, out = _run(capsys, "host", "terminals", *base, "--json")
    assert code == 0 and json.loads(out)[0]["terminal_id"] == "TK-A"
    code, out = _run(capsys, "host", "meters", "TK-A", *base, "--json")
    assert json.loads(out)["TK-A"][0]["meters"] == {"coin_in": 7}
    code, out = _run(capsys, "host", "events", *base, "--json")
    assert [e["kind"] for e in json.loads(out)] == ["voucher_printed"]
    code, out = _run(capsys, "host", "vouchers", *base, "--state", "issued")
    assert number in out and "$12.34" in out
    for what in ("terminals", "meters", "events"):
        assert _run(capsys, "host", what, *base)[0] == 0
    code, out = _run(capsys, "host", "send", "TK-A", "disable", "--reason", "count", *base)
    assert code == 0 and "queued" in out
    (pending,) = SqliteHostDb(tmp_path / "host.sqlite3").pending_commands()
    assert pending[1:] == ("TK-A", "set_enabled", {"enabled": False, "reason": "count"})
    assert main(["host", "events", "--host-dir", str(tmp_path / "none")]) == 2


def test_software_command(capsys: pytest.CaptureFixture[str]) -> None:
    seed = "00" * 16
    code, out = _run(capsys, "software", "--seed", seed, "--json")
    data = json.loads(out)
    assert code == 0 and data["signature"] == integrity.manifest().digest
    assert data["hmac"] == integrity.keyed_check(bytes(16))
    assert main(["software", "--seed", "xyz"]) == 2


def test_embedded_host_serves_a_terminal(tmp_path: Path) -> None:
    embedded = start_embedded_host(tmp_path, "TK-0001")
    terminal = build_terminal(tmp_path, host=embedded.endpoint)
    try:
        terminal.runtime.power_up()
        assert terminal.host_link is not None
        terminal.host_link.start()
        deadline = time.monotonic() + 10
        rt = terminal.runtime
        while rt.journal.outbox(1) or not terminal.host_link.connected or rt.state.disabled:
            assert time.monotonic() < deadline
            rt.pump()
            time.sleep(0.02)
        events = embedded.server.db.events("TK-0001")
        # play held from the link's start until the host's anchor was checked
        assert [e.kind for e in events] == ["enable", "enable", "power_up"]
        assert [e.body["enabled"] for e in events[:2]] == [True, False]
    finally:
        terminal.close()
        embedded.stop()


def test_host_serve_gathers_its_group_commits_ten_ms_by_default_and_takes_zero() -> None:
    """A floor server starts a group commit at most every 10 ms (decision 0075); 0 commits at
    once, as the library and the embedded host do."""
    from kiosk.cli import build_parser
    from kiosk.host.accounting.group_commit import GATHER_MS, SERVE_GATHER_MS

    serve = ["host", "serve", "--host-dir", "/nonexistent"]
    assert build_parser(serve).parse_args(serve).gather_ms == SERVE_GATHER_MS == 10.0
    at_once = [*serve, "--gather-ms", "0"]
    assert build_parser(at_once).parse_args(at_once).gather_ms == GATHER_MS == 0.0
