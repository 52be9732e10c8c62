"""PIN records and lock-outs in the journal: genesis, restart, snapshot and replay, migration."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.pins import (
    FACTORY_PIN_TEXT,
    PRODUCTION_KDF,
    factory_records,
    hashed,
    matches,
)
from kiosk.terminal.core.state import TerminalState
from kiosk.terminal.service.access import FACTORY_PINS, AccessDeniedError, PinStore, Role
from kiosk.terminal.service.backends import InProcessTerminal, ReadOnlyError, ReadOnlyTerminal
from kiosk.terminal.store.audit import audit
from kiosk.terminal.store.journal import Journal, body_hash, canonical
from kiosk.terminal.store.lock import TerminalLock
from tests.helpers.service_rig import CHEAP_KDF, PINS, set_up_pins
from tests.helpers.terminal_rig import Rig


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = Rig(tmp_path / "t")
    set_up_pins(r.runtime)
    yield r
    r.runtime.close()


def pins_of(rig: Rig) -> PinStore:
    return PinStore(InProcessTerminal(rig.runtime), clock=rig.clock, kdf=CHEAP_KDF)


def lock_out(store: PinStore, role: Role, wrong: int = 3) -> None:
    for _ in range(wrong):
        with pytest.raises(AccessDeniedError):
            store.check(role, "0000")


def kinds(rig: Rig) -> list[str]:
    return [row.event.type_name for row in rig.runtime.journal.rows()]


def test_factory_hashes_are_the_factory_pins_with_production_parameters() -> None:
    for role, record in factory_records().items():
        assert (record["n"], record["r"], record["p"]) == (
            PRODUCTION_KDF.n,
            PRODUCTION_KDF.r,
            PRODUCTION_KDF.p,
        )
        assert record["must_change"] is True
        assert matches(record, FACTORY_PIN_TEXT[role])
        assert not matches(record, "0000")


def test_factory_pins_exist_only_in_the_genesis_of_a_new_store(tmp_path: Path) -> None:
    config = TerminalConfig()
    assert TerminalState(config).pins is None  # a state not built from a store has no PINs
    assert TerminalState.genesis(config).pins == factory_records()
    rig = Rig(tmp_path / "new")
    assert canonical(rig.runtime.journal.genesis()["pins"]) == canonical(factory_records())
    rig.runtime.close()


def test_pin_events_carry_no_pin(rig: Rig) -> None:
    store = pins_of(rig)
    lock_out(store, Role.ATTENDANT)
    store.change(Role.ATTENDANT, "86420", must_change=True, by="operator")
    found = kinds(rig)
    for kind in ("PinSet", "PinRefused", "PinLockedOut", "PinLockoutLifted"):
        assert kind in found
    for row in rig.runtime.journal.rows():
        if isinstance(row.event, e.PinSet):
            assert set(row.event.record) == {"kdf", "n", "r", "p", "salt", "hash"}
    assert "86420" not in "".join(e.encode(row.event) for row in rig.runtime.journal.rows())


def test_a_lockout_survives_a_restart_a_snapshot_and_the_replay(rig: Rig) -> None:
    store = pins_of(rig)
    lock_out(store, Role.OPERATOR)  # the third wrong PIN locks for 30 s
    locked = rig.runtime.state.pins
    assert locked is not None and locked["operator"]["failures"] == 3
    # a snapshot holding the lock-out (a configuration change writes one at once)
    rig.runtime.execute(c.SetService(active=True, role="technician"))
    rig.runtime.execute(c.ChangeConfig(config={**_config(rig), "venue": "Snap"}, by="t"))
    rig.runtime.close()
    rig.boot()
    with pytest.raises(AccessDeniedError, match="operator is locked out for 30 s more"):
        pins_of(rig).check(Role.OPERATOR, PINS[Role.OPERATOR])
    report = audit(rig.data_dir)
    assert report.ok, report.to_text()
    assert report.state is not None and report.state.pins == rig.runtime.state.pins
    rig.clock.advance(30)
    assert pins_of(rig).check(Role.OPERATOR, PINS[Role.OPERATOR]) is False
    assert rig.runtime.state.pins is not None
    assert rig.runtime.state.pins["operator"]["failures"] == 0


def test_a_snapshot_with_the_lockout_lifted_fails_the_audit(rig: Rig) -> None:
    lock_out(pins_of(rig), Role.OPERATOR)
    rig.runtime.execute(c.SetService(active=True, role="technician"))
    rig.runtime.execute(c.ChangeConfig(config={**_config(rig), "venue": "Snap"}, by="t"))
    rig.runtime.close()
    db = Journal(rig.data_dir)
    seq, body = db.db.execute("SELECT seq, body FROM snapshots ORDER BY seq DESC").fetchone()
    snapshot = json.loads(body)
    snapshot["pins"]["operator"].update(failures=0, locked_until=0)
    text = canonical(snapshot)
    db.db.execute(
        "UPDATE snapshots SET body = ?, hash = ? WHERE seq = ?", (text, body_hash(seq, text), seq)
    )
    db.close()
    report = audit(rig.data_dir)
    assert not report.ok
    # the snapshot's signature fails first (a resigned one would differ from the replay)
    assert f"snapshot after row {seq}" in report.to_text()


def _config(rig: Rig) -> dict[str, object]:
    from kiosk.terminal.core.config import to_dict

    return to_dict(rig.runtime.state.config)


# --- the previous release's pins.json -------------------------------------------------------------


def old_store(data_dir: Path) -> None:
    """A store as the previous release made it: no PIN records in its state."""
    journal = Journal(data_dir)
    journal.create(TerminalState(TerminalConfig()).to_snapshot(), 1_700_000_000_000)
    journal.close()


def old_pins_file(data_dir: Path, *, locked_until: int = 0) -> dict[str, dict[str, object]]:
    """A pins.json as the previous release wrote it (operator locked out when asked)."""
    records: dict[str, dict[str, object]] = {}
    for role in Role:
        records[role.label] = {
            **hashed(PINS[role], CHEAP_KDF),
            "must_change": False,
            "failures": 4 if locked_until and role is Role.OPERATOR else 0,
            "locked_until": locked_until if role is Role.OPERATOR else 0,
            "changed_at": 1_700_000_000_000,
        }
    path = data_dir / "service" / "pins.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(records))
    return records


def test_an_old_pins_file_is_migrated_once_with_its_lockout(tmp_path: Path) -> None:
    data_dir = tmp_path / "old"
    old_store(data_dir)
    until = 1_800_000_000_000 + 60_000  # the rig's clock starts at 1_800_000_000_000
    old_pins_file(data_dir, locked_until=until)
    rig = Rig(data_dir)
    assert not (data_dir / "service" / "pins.json").exists()
    aside = sorted(p.name for p in (data_dir / "service").iterdir())
    assert len(aside) == 1 and aside[0].startswith("pins.json.migrated-")
    assert "PinsMigrated" in kinds(rig)
    powered = [r.event for r in rig.runtime.journal.rows() if isinstance(r.event, e.PoweredUp)]
    assert "PINs migrated from service/pins.json" in powered[-1].recovered
    store = pins_of(rig)
    with pytest.raises(AccessDeniedError, match="operator is locked out for 60 s more"):
        store.check(Role.OPERATOR, PINS[Role.OPERATOR])
    assert store.check(Role.TECHNICIAN, PINS[Role.TECHNICIAN]) is False
    # the old snapshots still equal the replay: the audit passes on a migrated store
    report = audit(data_dir)
    assert report.ok, report.to_text()
    # a file put back later is never read again
    old_pins_file(data_dir)
    rig.runtime.close()
    rig.boot()
    assert not (data_dir / "service" / "pins.json").exists()
    with pytest.raises(AccessDeniedError, match="locked out"):
        pins_of(rig).check(Role.OPERATOR, PINS[Role.OPERATOR])
    rig.runtime.close()


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "there is no service/pins.json to take in"),
        ('{"attendant": {"kdf": "scr', "not JSON"),
        ("[]", "not an object of records by role"),
        ('{"attendant": {}}', "PIN records refused: unknown KDF"),
        ("directory", "is a directory"),
        ("fifo", "not a regular file"),
        ("big", "more than 65536 allowed"),
    ],
)
def test_an_old_store_without_a_good_pins_file_gets_no_pins_at_all(
    tmp_path: Path, content: str | None, reason: str
) -> None:
    """A missing or unreadable file never brings the factory PINs back: nobody can enter."""
    data_dir = tmp_path / "old"
    old_store(data_dir)
    path = data_dir / "service" / "pins.json"
    path.parent.mkdir(parents=True)
    if content == "directory":
        path.mkdir()
    elif content == "fifo":
        os.mkfifo(path)
    elif content == "big":
        with open(path, "wb") as fh:
            fh.truncate(100 * 1024 * 1024)
    elif content is not None:
        path.write_text(content)
    rig = Rig(data_dir)
    assert rig.runtime.state.pins is None
    assert rig.runtime.state.critical is None  # it plays; only the service menu is closed
    powered = [r.event for r in rig.runtime.journal.rows() if isinstance(r.event, e.PoweredUp)]
    assert reason in powered[-1].recovered
    store = PinStore(InProcessTerminal(rig.runtime), clock=rig.clock)
    for role in Role:
        with pytest.raises(AccessDeniedError, match=f"no {role.label} PIN record"):
            store.check(role, FACTORY_PINS[role])
    assert os.path.lexists(path) is (content is not None)  # left where it was
    rig.runtime.close()


def test_a_pins_file_planted_next_to_a_new_store_is_set_aside_unread(rig: Rig) -> None:
    path = rig.data_dir / "service" / "pins.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"operator": {"truncated')
    before = rig.runtime.state.pins
    rig.runtime.close()
    rig.boot()
    assert not path.exists()
    assert any(p.name.startswith("pins.json.ignored-") for p in path.parent.iterdir())
    assert rig.runtime.state.pins == before
    assert pins_of(rig).check(Role.OPERATOR, PINS[Role.OPERATOR]) is False


def test_a_read_only_session_never_writes_where_this_process_is_the_terminal(rig: Rig) -> None:
    lock = TerminalLock.acquire(rig.data_dir)
    try:
        terminal = ReadOnlyTerminal(rig.data_dir, "a look")
        with pytest.raises(ReadOnlyError):
            terminal.execute_pin(c.RecordPinEntry("operator", False, 1), None)
    finally:
        lock.release()
    # without it, the PIN outcome is journaled under the lock (the stopped-terminal path)
    rig.runtime.close()
    ReadOnlyTerminal(rig.data_dir, "a look").execute_pin(
        c.RecordPinEntry("operator", False, 1), None
    )
    journal = Journal(rig.data_dir, readonly=True)
    try:
        assert [row.event.type_name for row in journal.rows()][-1] == "PinRefused"
    finally:
        journal.close()
    rig.boot()


def test_wrong_pins_counted_in_the_audit_log_are_taken_into_the_journal(rig: Rig) -> None:
    """Wrong PINs typed over SSH while this terminal ran count at its own PIN pad, and its next
    wrong PIN journals the whole run."""
    terminal = InProcessTerminal(rig.runtime)
    for n in (1, 2):
        rig.clock.advance(1)
        terminal.append_audit(
            {
                "at": rig.clock(),
                "session": "ssh",
                "n": n,
                "via": "ssh",
                "role": "operator",
                "action": "enter",
                "args": {"unjournaled_failure": True},
                "before": None,
                "after": None,
                "outcome": "refused",
                "detail": "wrong PIN",
            }
        )
    store = pins_of(rig)
    assert store.access(Role.OPERATOR).failures == 2
    with pytest.raises(AccessDeniedError, match="operator is locked out for 30 s"):
        store.check(Role.OPERATOR, "0000")
    pins = rig.runtime.state.pins
    assert pins is not None and pins["operator"]["failures"] == 3
    assert store.access(Role.OPERATOR).failures == 3  # absorbed: not counted twice
    rig.clock.advance(30)
    assert store.check(Role.OPERATOR, PINS[Role.OPERATOR]) is False
    assert store.access(Role.OPERATOR).failures == 0
