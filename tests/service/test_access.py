"""PINs: salted scrypt hashes in the journal, factory PINs to change, lock-out with a growing
delay."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.pins import hashed
from kiosk.terminal.service.access import (
    FACTORY_PINS,
    PRODUCTION_KDF,
    AccessDeniedError,
    KdfParams,
    LockoutPolicy,
    PinPolicyError,
    PinStore,
    Role,
)
from kiosk.terminal.service.backends import InProcessTerminal
from tests.helpers.service_rig import CHEAP_KDF
from tests.helpers.terminal_rig import FakeClock, Rig


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    """A new terminal whose factory PINs are hashed cheaply (the genesis ones cost 0.2 s)."""
    r = Rig(tmp_path / "t")
    for role in Role:
        record = hashed(FACTORY_PINS[role], CHEAP_KDF)
        r.runtime.execute(c.SetPin(role.label, record, True, "cheap factory PINs"))
    yield r
    r.runtime.close()


@pytest.fixture
def clock(rig: Rig) -> FakeClock:
    return rig.clock


def pin_store(rig: Rig, **kwargs: object) -> PinStore:
    terminal = InProcessTerminal(rig.runtime)
    return PinStore(terminal, clock=rig.clock, **{"kdf": CHEAP_KDF, **kwargs})  # type: ignore[arg-type]


@pytest.fixture
def store(rig: Rig) -> PinStore:
    return pin_store(rig)


def test_roles_are_ordered_and_parsed() -> None:
    assert Role.ATTENDANT < Role.TECHNICIAN < Role.OPERATOR
    assert Role.parse(" Technician ") is Role.TECHNICIAN
    with pytest.raises(ValueError, match="roles: attendant, technician, operator"):
        Role.parse("manager")


def test_factory_pins_must_be_changed(store: PinStore) -> None:
    for role in Role:
        assert store.access(role).must_change
        assert store.check(role, FACTORY_PINS[role]) is True
    store.change(Role.TECHNICIAN, "864209")
    assert store.check(Role.TECHNICIAN, "864209") is False
    assert not store.access(Role.TECHNICIAN).must_change
    with pytest.raises(AccessDeniedError, match="wrong PIN"):
        store.check(Role.TECHNICIAN, FACTORY_PINS[Role.TECHNICIAN])


@pytest.mark.parametrize(
    ("pin", "message"),
    [
        ("12a4", "digits only"),
        ("123", "4 to 8 digits"),
        ("123456789", "4 to 8 digits"),
        ("", "digits only"),
        ("１２３４", "digits only"),
    ],
)
def test_pin_policy(store: PinStore, pin: str, message: str) -> None:
    with pytest.raises(PinPolicyError, match=message):
        store.change(Role.ATTENDANT, pin)


def test_a_new_pin_must_differ(store: PinStore) -> None:
    with pytest.raises(PinPolicyError, match="differ"):
        store.change(Role.ATTENDANT, FACTORY_PINS[Role.ATTENDANT])


def test_lockout_delay_grows_and_is_exact(store: PinStore, clock: FakeClock) -> None:
    store.change(Role.OPERATOR, "5555")
    for left in (2, 1):
        with pytest.raises(AccessDeniedError, match=f"{left} more before a lock-out"):
            store.check(Role.OPERATOR, "0000")
    expected_delays = [30, 60, 120, 240]
    for delay in expected_delays:
        with pytest.raises(AccessDeniedError, match=f"locked out for {delay} s") as denied:
            store.check(Role.OPERATOR, "0000")
        assert denied.value.locked_until == clock.now + delay * 1000
        # while locked, even the right PIN is refused, and not counted
        clock.advance(delay - 0.001)
        with pytest.raises(AccessDeniedError, match="locked out for 1 s more"):
            store.check(Role.OPERATOR, "5555")
        clock.advance(0.001)
    assert store.access(Role.OPERATOR).failures == 3 + len(expected_delays) - 1
    assert store.check(Role.OPERATOR, "5555") is False  # the lock-out is over: accepted
    access = store.access(Role.OPERATOR)
    assert (access.failures, access.locked_until) == (0, 0)
    # the count starts again from nothing
    for _ in range(2):
        with pytest.raises(AccessDeniedError, match="before a lock-out"):
            store.check(Role.OPERATOR, "0000")


def test_lockout_is_per_role_and_capped(rig: Rig, clock: FakeClock) -> None:
    policy = LockoutPolicy(free_attempts=1, first_delay_ms=1000, max_delay_ms=5000)
    store = pin_store(rig, policy=policy)
    delays = []
    for _ in range(6):
        with pytest.raises(AccessDeniedError) as denied:
            store.check(Role.ATTENDANT, "0000")
        delays.append(denied.value.locked_until - clock.now)
        clock.advance(10)
    assert delays == [1000, 2000, 4000, 5000, 5000, 5000]
    assert store.check(Role.TECHNICIAN, FACTORY_PINS[Role.TECHNICIAN]) is True


def test_lockout_survives_a_restart(rig: Rig, clock: FakeClock) -> None:
    store = pin_store(rig)
    for _ in range(3):
        with pytest.raises(AccessDeniedError):
            store.check(Role.ATTENDANT, "0000")
    rig.runtime.close()
    rig.boot()
    again = pin_store(rig)
    with pytest.raises(AccessDeniedError, match="locked out for 30 s more"):
        again.check(Role.ATTENDANT, FACTORY_PINS[Role.ATTENDANT])


def test_operator_set_pin_lifts_a_lockout(store: PinStore, clock: FakeClock) -> None:
    for _ in range(4):
        with pytest.raises(AccessDeniedError):
            store.check(Role.ATTENDANT, "0000")
    store.change(Role.ATTENDANT, "2468", must_change=True)
    assert store.check(Role.ATTENDANT, "2468") is True


def test_only_salted_hashes_are_stored(rig: Rig, store: PinStore) -> None:
    store.change(Role.ATTENDANT, "97531")
    store.change(Role.TECHNICIAN, "97531")
    with pytest.raises(AccessDeniedError):
        store.check(Role.OPERATOR, "97532")
    rig.runtime.execute(c.SetService(active=True, role="operator"))  # a snapshot of the state
    records = rig.runtime.state.pins
    assert records is not None
    db = rig.runtime.journal.db
    text = "\n".join(
        body
        for table in ("journal", "snapshots", "event_log", "service_audit")
        for (body,) in db.execute(f"SELECT body FROM {table}")
    )
    # Salts and hashes are random text in which four or five digits turn up by chance now
    # and then: the PINs must appear nowhere else, and never as a whole value.
    salts_and_hashes = {
        rec[name] for rec in records.values() for name in ("salt", "hash")
    } | _event_hashes(db)
    for value in salts_and_hashes:
        assert len(value) >= 32  # a KDF output or salt, not a PIN
        text = text.replace(value, "")
    for pin in ("97531", "97532", *FACTORY_PINS.values()):
        assert pin not in text
    attendant, technician = records["attendant"], records["technician"]
    assert attendant["kdf"] == "scrypt"
    assert attendant["salt"] != technician["salt"]  # same PIN, different salts and hashes
    assert attendant["hash"] != technician["hash"]
    assert not (rig.data_dir / "service" / "pins.json").exists()


def _event_hashes(db: sqlite3.Connection) -> set[str]:
    """Every salt and hash a PinSet event carried."""
    out = set()
    for (body,) in db.execute("SELECT body FROM journal WHERE kind = 'PinSet'"):
        record = json.loads(body)["data"]["record"]
        out |= {record["salt"], record["hash"]}
    return out


def test_weaker_hashes_are_renewed_at_the_next_good_check(rig: Rig) -> None:
    pin_store(rig).change(Role.ATTENDANT, "4567")
    stronger = KdfParams(n=64, r=2, p=1)
    store = pin_store(rig, kdf=stronger)
    assert store.check(Role.ATTENDANT, "4567") is False
    pins = rig.runtime.state.pins
    assert pins is not None
    assert (pins["attendant"]["n"], pins["attendant"]["r"]) == (64, 2)
    assert store.check(Role.ATTENDANT, "4567") is False


def test_production_parameters(tmp_path: Path) -> None:
    """A new terminal: the genesis factory PINs, production scrypt, a new PIN salted anew."""
    assert (PRODUCTION_KDF.n, PRODUCTION_KDF.r, PRODUCTION_KDF.p) == (2**14, 8, 1)
    rig = Rig(tmp_path / "new")
    store = PinStore(InProcessTerminal(rig.runtime), clock=rig.clock)
    for role in Role:
        assert store.check(role, FACTORY_PINS[role]) is True
    store.change(Role.ATTENDANT, "8642")
    pins = rig.runtime.state.pins
    assert pins is not None
    record = pins["attendant"]
    assert (record["n"], record["r"], record["p"], len(bytes.fromhex(record["salt"]))) == (
        2**14,
        8,
        1,
        16,
    )
    with pytest.raises(AccessDeniedError):
        store.check(Role.ATTENDANT, "1112")
    rig.runtime.close()
