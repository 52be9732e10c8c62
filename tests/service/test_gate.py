"""The gate: role enforcement for every function, and exactly one audit record per action."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import kiosk.terminal.service.functions as functions_package
from kiosk.terminal.core import commands as c
from kiosk.terminal.service import audit_log
from kiosk.terminal.service.access import AccessDeniedError, Role
from kiosk.terminal.service.backends import ReadOnlyTerminal
from kiosk.terminal.service.functions import FUNCTIONS
from kiosk.terminal.service.functions.base import ServiceError
from kiosk.terminal.service.session import ServiceSession
from kiosk.terminal.store.journal import IntegrityError
from tests.helpers.service_rig import PINS, ServiceRig


def sample_args(name: str, tmp: Path, k: int = 0) -> dict[str, Any]:
    """Arguments with which each function does its job in the state :func:`prepare` makes
    (``k`` makes a change differ from the one before)."""
    samples: dict[str, dict[str, Any]] = {
        "recall": {"last": 3},
        "clear_tilt": {"code": "printer_fault"},
        "change_pin": {"new_pin": "86420"},
        "events": {"kinds": ["PoweredUp", "ServiceChanged"], "last": 5},
        "audit_log": {"last": 5},
        "bill_test": {"action": "start"},
        "touch_test": {"cells": 12, "hit": 12},
        "display_test": {"patterns": ["white", "bars"], "verdict": "pass"},
        "software_hmac": {"seed": "000102030405060708090a0b0c0d0e0f"},
        "paytables": {"edition": "icon-v2"},
        "config_change": {"changes": {"venue": f"Riverside {k}", "max_wager": 5000}},
        "config_export": {"path": str(tmp / "out.json")},
        "config_import": {"path": str(tmp / "in.json")},
        "set_pin": {"role": "attendant", "new_pin": "97979"},
        "sas_address": {"address": 1 + k % 127},
    }
    return samples.get(name, {})


def prepare(rig: ServiceRig, name: str, tmp: Path) -> None:
    """Put the terminal in a state where ``name`` has something to do."""
    rt = rig.runtime
    if name.startswith("sas"):  # a terminal with a SAS link keeps its store beside the journal
        from kiosk.terminal.sas.queue import ExceptionQueue

        store = ExceptionQueue(rig.data_dir)
        if name == "sas_aft_acknowledge":  # the SAS host asked to register (73 40)
            waiting = {"status": 0x40, "asset": 1, "key": "00" * 20, "pos_id": 0}
            store.set_json("aft_registration", waiting)
        store.close()
    if name == "handpay_reset" and rt.state.handpay is None:
        rig.insert(20)
        rig.printer.fault = "jam"
        rt.cash_out()  # the printer cannot print: a handpay
        assert rt.state.handpay is not None
    elif name == "clear_tilt":
        rt.execute(c.RaiseTilt("printer_fault", "printer jammed", needs_attendant=True))
    elif name == "config_import":
        from kiosk.terminal.service.functions.config_file import export_text, signing_key

        config = rt.state.config.with_changes(venue=f"Imported {rig.audit_count()}")
        (tmp / "in.json").write_text(export_text(config, signing_key(rig.data_dir / "service"), 1))


#: every function but the RAM clear, which replaces the store the generic checks count records in
#: (it has its own checks below and in tests/faults/test_ram_clear.py)
IN_PLACE = [name for name in FUNCTIONS if name != "ram_clear"]


@pytest.mark.parametrize("name", IN_PLACE)
def test_role_enforcement(make_srig: Callable[..., ServiceRig], tmp_path: Path, name: str) -> None:
    function = FUNCTIONS[name]
    rig = make_srig()
    session = rig.session
    for role in Role:
        prepare(rig, name, tmp_path)
        session.turn_key(True)
        session.enter(role, PINS[role])
        before = rig.audit_count()
        args = sample_args(name, tmp_path, before)
        if role < function.role:
            with pytest.raises(ServiceError, match=f"needs the {function.role.label} role"):
                session.call(name, args)
            last = audit_log.entries(rig.runtime.journal, last=1)[0].record
            assert (last["action"], last["outcome"], last["role"]) == (name, "refused", role.label)
        else:
            outcome = session.call(name, args)
            assert outcome.ok, outcome
        assert rig.audit_count() - before == 1
        session.turn_key(False)


def test_the_documented_role_table_is_the_enforced_one() -> None:
    doc = functions_package.__doc__ or ""
    for name, function in FUNCTIONS.items():
        line = next(x for x in doc.splitlines() if x.startswith(f"{name} "))
        assert line.split()[1] == function.role.label, name
    assert len(FUNCTIONS) == 29


def test_ram_clear_is_the_operators_and_its_record_is_in_the_new_store(
    make_srig: Callable[..., ServiceRig],
) -> None:
    rig = make_srig()
    session = rig.session
    args = {"reason": "test", "confirm": True}
    for role in (Role.ATTENDANT, Role.TECHNICIAN):
        session.turn_key(True)
        session.enter(role, PINS[role])
        with pytest.raises(ServiceError, match="needs the operator role"):
            session.call("ram_clear", args)
        session.turn_key(False)
    old_epoch = rig.runtime.journal.epoch()
    session = rig.enter(Role.OPERATOR)
    outcome = session.call("ram_clear", args)
    assert outcome.ok and outcome.data["epoch"] == (old_epoch or 0) + 1
    journal = rig.runtime.journal
    assert journal.epoch() == outcome.data["epoch"]
    record = audit_log.entries(journal, last=1)[0].record
    assert (record["action"], record["role"], record["outcome"]) == ("ram_clear", "operator", "ok")
    assert rig.runtime.state.service_role == "operator"  # still in the service menu
    session.turn_key(False)
    assert rig.runtime.state.service_role is None


@pytest.mark.parametrize("name", IN_PLACE)
def test_exactly_one_record_per_action(
    make_srig: Callable[..., ServiceRig], tmp_path: Path, name: str
) -> None:
    rig = make_srig()
    prepare(rig, name, tmp_path)
    session = rig.enter(Role.OPERATOR)
    journal = rig.runtime.journal
    seq_before = journal.head()[0]
    count = rig.audit_count()
    outcome = session.call(name, sample_args(name, tmp_path))
    assert outcome.ok
    assert rig.audit_count() == count + 1
    entry = audit_log.entries(journal, last=1)[0]
    record = entry.record
    assert (record["action"], record["role"], record["outcome"]) == (name, "operator", "ok")
    assert record["session"] == session.id and record["via"] == "touchscreen"
    for secret in FUNCTIONS[name].secret_args:
        assert secret not in record["args"]
    if FUNCTIONS[name].writes:
        # committed in the same transaction as the command's events: it names their last row
        assert journal.head()[0] > seq_before
        assert entry.seq == journal.head()[0]
        assert record["before"] != record["after"]
    # a refused call leaves one record too
    count = rig.audit_count()
    session.role = None
    with pytest.raises(ServiceError, match="enter a role"):
        session.call(name, sample_args(name, tmp_path))
    assert rig.audit_count() == count + 1


def test_entry_exit_and_refused_pins_are_audited(srig: ServiceRig) -> None:
    session, journal = srig.session, srig.runtime.journal
    with pytest.raises(ServiceError, match="service key"):
        session.enter(Role.ATTENDANT, PINS[Role.ATTENDANT])
    session.turn_key(True)
    with pytest.raises(AccessDeniedError, match="wrong PIN"):
        session.enter(Role.TECHNICIAN, "0000")
    assert session.role is None and srig.runtime.state.service_role is None
    session.enter(Role.TECHNICIAN, PINS[Role.TECHNICIAN])
    assert srig.runtime.state.service_role == "technician"
    session.enter(Role.OPERATOR, PINS[Role.OPERATOR])  # switch roles
    session.turn_key(False)  # leaves
    assert srig.runtime.state.service_role is None
    records = [e.record for e in reversed(audit_log.entries(journal))]
    summary = [(r["action"], r["role"], r["outcome"]) for r in records]
    assert summary == [
        ("enter", "attendant", "refused"),
        ("enter", "technician", "refused"),
        ("enter", "technician", "ok"),
        ("enter", "operator", "ok"),
        ("exit", "operator", "ok"),
    ]
    assert records[3]["before"] == {"service_role": "technician"}
    assert records[4]["args"] == {"reason": "key off"}
    kinds = [row.event.type_name for row in journal.rows()]
    assert kinds.count("ServiceChanged") == 3
    assert audit_log.verify(journal) == 5


def test_the_factory_pin_opens_only_the_pin_change(make_srig: Callable[..., ServiceRig]) -> None:
    rig = make_srig()
    rig.pins.change(Role.ATTENDANT, "5656", must_change=True)
    session = rig.session
    session.turn_key(True)
    assert session.enter(Role.ATTENDANT, "5656") is True
    with pytest.raises(ServiceError, match="must be changed first"):
        session.call("meters")
    assert [f.name for f in session.allowed()] == ["change_pin"]
    session.call("change_pin", {"new_pin": "6767"})
    assert session.call("meters").ok


def test_pins_never_reach_the_store_or_the_files(make_srig: Callable[..., ServiceRig]) -> None:
    rig = make_srig()
    session = rig.enter(Role.OPERATOR)
    session.call("change_pin", {"new_pin": "73915"})
    session.call("set_pin", {"role": "technician", "new_pin": "48263"})
    with pytest.raises(ServiceError):
        session.call("change_pin", {"new_pin": "73915"})  # the same PIN again: refused
    session.leave()
    rig.runtime.journal.db.execute("PRAGMA wal_checkpoint(FULL)")
    for pin in ("73915", "48263", *PINS.values()):
        for path in rig.data_dir.rglob("*"):
            if path.is_file():
                assert pin.encode() not in path.read_bytes(), (pin, path)


def test_the_audit_log_cannot_be_changed_or_cleared(srig: ServiceRig) -> None:
    srig.enter(Role.OPERATOR).call("meters")
    db = srig.runtime.journal.db
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("DELETE FROM service_audit")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("UPDATE service_audit SET body = '{}' WHERE id = 1")
    assert audit_log.verify(srig.runtime.journal) == 2
    # a file rewritten behind SQLite's back (triggers dropped) breaks the chain
    db.execute("DROP TRIGGER service_audit_no_update")
    body = json.loads(db.execute("SELECT body FROM service_audit WHERE id = 1").fetchone()[0])
    body["role"] = "attendant"
    db.execute("UPDATE service_audit SET body = ? WHERE id = 1", (json.dumps(body),))
    with pytest.raises(IntegrityError, match="record 1 fails its chain hash"):
        audit_log.verify(srig.runtime.journal)
    assert not srig.session.call("store_check").ok


def test_a_command_refused_by_the_terminal_is_recorded_once(srig: ServiceRig) -> None:
    srig.insert(5)  # credits on the terminal: no configuration change
    session = srig.enter(Role.OPERATOR)
    count = srig.audit_count()
    with pytest.raises(ServiceError, match="zero credits"):
        session.call("config_change", {"changes": {"venue": "X"}})
    assert srig.audit_count() == count + 1
    record = audit_log.entries(srig.runtime.journal, last=1)[0].record
    assert record["outcome"] == "refused" and "zero credits" in record["detail"]
    assert record["before"] == record["after"] == {}
    assert srig.runtime.state.config.venue == "Demo Casino"


def test_read_only_sessions_refuse_changes_and_still_audit(srig: ServiceRig) -> None:
    srig.runtime.execute(c.RaiseTilt("door_sensor", "check the door", needs_attendant=True))
    terminal = ReadOnlyTerminal(srig.data_dir, "the terminal runs in process 1")
    session = ServiceSession(terminal, srig.pins, via="ssh", clock=srig.clock)
    session.turn_key(True)
    session.enter(Role.OPERATOR, PINS[Role.OPERATOR])
    assert srig.runtime.state.service_role is None  # the running terminal plays on
    assert session.call("status").data["tilts"] == {
        "door_sensor": {"reason": "check the door", "needs_attendant": True}
    }
    with pytest.raises(ServiceError, match="changes the terminal: the terminal runs"):
        session.call("clear_tilt", {"code": "door_sensor"})
    with pytest.raises(ServiceError, match="needs the terminal's devices"):
        session.call("bill_test", {"action": "start"})
    session.leave()
    records = [e.record for e in reversed(audit_log.entries(srig.runtime.journal))]
    assert [(r["action"], r["outcome"], r["via"]) for r in records] == [
        ("enter", "ok", "ssh"),
        ("status", "ok", "ssh"),
        ("clear_tilt", "refused", "ssh"),
        ("bill_test", "refused", "ssh"),
        ("exit", "ok", "ssh"),
    ]
    assert records[0]["detail"] == "read-only: the terminal runs in process 1"
    assert audit_log.verify(srig.runtime.journal) == 5
