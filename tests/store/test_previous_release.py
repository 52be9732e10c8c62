"""A store written by the release before the typed money records (tests/store/data/README.md)
still verifies, replays, recovers and audits with today's code, with the same credits and meters.

The journal's event text, its chain hashes and the signed snapshots are the previous release's
bytes: a record that today's codec wrote differently would break the chain, a signature or the
replay's equality with the stored snapshots, and the audit would fail.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from kiosk.terminal.core import events as e
from kiosk.terminal.core.state import TerminalState
from kiosk.terminal.store.audit import audit
from tests.helpers.terminal_rig import Rig

DATA = Path(__file__).parent / "data" / "previous-release"


def _copy(tmp_path: Path) -> Path:
    """The test data in a private directory, with the permissions git does not keep."""
    shutil.copytree(DATA / "terminal", tmp_path / "terminal")
    shutil.copytree(DATA / "terminal.signer", tmp_path / "terminal.signer")
    (tmp_path / "terminal.signer").chmod(0o700)
    for path in (tmp_path / "terminal.signer").iterdir():
        path.chmod(0o600)
    return tmp_path / "terminal"


def test_old_store_powers_up_audits_and_keeps_credits_and_meters(tmp_path: Path) -> None:
    data_dir = _copy(tmp_path)
    expected = json.loads((DATA / "expected.json").read_text())
    before = audit(data_dir)
    assert before.ok, before.to_text()
    rig = Rig(data_dir)
    rt = rig.runtime
    report = rt.last_recovery
    assert report.critical is None
    state = rt.state
    assert state.critical is None
    assert state.credits == expected["credits"]
    assert state.game_number == expected["game_number"]
    assert sorted(state.tilts) == expected["tilts"]
    for name, value in expected["lifetime"].items():
        assert state.lifetime[name] == value, name
    assert rt.core.audit_credits() is None
    rt.close()
    after = audit(data_dir)  # the power-up's own rows, written by today's code, verify too
    assert after.ok, after.to_text()


def test_old_journal_rows_and_snapshots_decode_and_encode_to_the_same_bytes() -> None:
    # immutable: the committed test data is read, never given a -wal or -shm file
    store = DATA / "terminal" / "terminal.sqlite3"
    db = sqlite3.connect(f"file:{store}?mode=ro&immutable=1", uri=True)
    try:
        bodies = [body for (body,) in db.execute("SELECT body FROM journal ORDER BY seq")]
        snapshots = [body for (body,) in db.execute("SELECT body FROM snapshots ORDER BY seq")]
    finally:
        db.close()
    assert len(bodies) == 63 and snapshots
    kinds = {json.loads(body)["kind"] for body in bodies}
    assert {"RoundStarted", "RoundSettled", "HandpayLocked", "TiltRaised"} <= kinds
    for body in bodies:
        assert e.encode(e.decode(body)) == body
    for body in snapshots:
        state = TerminalState.from_snapshot(json.loads(body))
        assert e.canonical(state.to_snapshot()) == body
