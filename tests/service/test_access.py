"""PINs: salted scrypt hashes, factory PINs to change, lock-out with a growing delay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiosk.service.access import (
    FACTORY_PINS,
    PRODUCTION_KDF,
    AccessDeniedError,
    KdfParams,
    LockoutPolicy,
    PinPolicyError,
    PinStore,
    Role,
)
from tests.service.conftest import CHEAP_KDF
from tests.terminal.conftest import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(tmp_path: Path, clock: FakeClock) -> PinStore:
    return PinStore(tmp_path, clock=clock, kdf=CHEAP_KDF)


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


def test_lockout_is_per_role_and_capped(tmp_path: Path, clock: FakeClock) -> None:
    policy = LockoutPolicy(free_attempts=1, first_delay_ms=1000, max_delay_ms=5000)
    store = PinStore(tmp_path, clock=clock, kdf=CHEAP_KDF, policy=policy)
    delays = []
    for _ in range(6):
        with pytest.raises(AccessDeniedError) as denied:
            store.check(Role.ATTENDANT, "0000")
        delays.append(denied.value.locked_until - clock.now)
        clock.advance(10)
    assert delays == [1000, 2000, 4000, 5000, 5000, 5000]
    assert store.check(Role.TECHNICIAN, FACTORY_PINS[Role.TECHNICIAN]) is True


def test_lockout_survives_a_restart(tmp_path: Path, clock: FakeClock) -> None:
    store = PinStore(tmp_path, clock=clock, kdf=CHEAP_KDF)
    for _ in range(3):
        with pytest.raises(AccessDeniedError):
            store.check(Role.ATTENDANT, "0000")
    again = PinStore(tmp_path, clock=clock, kdf=CHEAP_KDF)
    with pytest.raises(AccessDeniedError, match="locked out for 30 s more"):
        again.check(Role.ATTENDANT, FACTORY_PINS[Role.ATTENDANT])


def test_operator_set_pin_lifts_a_lockout(store: PinStore, clock: FakeClock) -> None:
    for _ in range(4):
        with pytest.raises(AccessDeniedError):
            store.check(Role.ATTENDANT, "0000")
    store.change(Role.ATTENDANT, "2468", must_change=True)
    assert store.check(Role.ATTENDANT, "2468") is True


def test_only_salted_hashes_are_stored(store: PinStore, tmp_path: Path) -> None:
    store.change(Role.ATTENDANT, "97531")
    store.change(Role.TECHNICIAN, "97531")
    records = json.loads((tmp_path / "pins.json").read_text())
    text = (tmp_path / "pins.json").read_text()
    # Salts and hashes are random text in which four or five digits turn up by chance now
    # and then: the PINs must appear nowhere else, and never as a whole value.
    for record in records.values():
        for field in ("salt", "hash"):
            value = record[field]
            assert len(value) >= 32, field  # a KDF output, not a PIN
            text = text.replace(value, "")
    for pin in ("97531", *FACTORY_PINS.values()):
        assert pin not in text
    attendant, technician = records["attendant"], records["technician"]
    assert attendant["kdf"] == "scrypt"
    assert attendant["salt"] != technician["salt"]  # same PIN, different salts and hashes
    assert attendant["hash"] != technician["hash"]
    assert (tmp_path / "pins.json").stat().st_mode & 0o777 == 0o600


def test_weaker_hashes_are_renewed_at_the_next_good_check(tmp_path: Path, clock: FakeClock) -> None:
    weak = PinStore(tmp_path, clock=clock, kdf=CHEAP_KDF)
    weak.change(Role.ATTENDANT, "4567")
    stronger = KdfParams(n=64, r=2, p=1)
    store = PinStore(tmp_path, clock=clock, kdf=stronger)
    assert store.check(Role.ATTENDANT, "4567") is False
    record = json.loads((tmp_path / "pins.json").read_text())["attendant"]
    assert (record["n"], record["r"]) == (64, 2)
    assert store.check(Role.ATTENDANT, "4567") is False


def test_production_parameters(tmp_path: Path) -> None:
    assert (PRODUCTION_KDF.n, PRODUCTION_KDF.r, PRODUCTION_KDF.p) == (2**14, 8, 1)
    store = PinStore(tmp_path)
    assert store.check(Role.ATTENDANT, FACTORY_PINS[Role.ATTENDANT]) is True
    record = json.loads((tmp_path / "pins.json").read_text())["attendant"]
    assert (record["n"], record["r"], record["p"], len(bytes.fromhex(record["salt"]))) == (
        2**14,
        8,
        1,
        16,
    )
    with pytest.raises(AccessDeniedError):
        store.check(Role.ATTENDANT, "1112")
