"""The core's PIN and configuration-version commands (sans-IO): what each makes, what it refuses."""

from __future__ import annotations

import pytest

from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.config import TerminalConfig, to_dict
from kiosk.terminal.core.core import TerminalCore
from kiosk.terminal.core.pins import factory_records, hash_part
from kiosk.terminal.core.state import TerminalState

NOW = 1_800_000_000_000


def core(pins: bool = True) -> TerminalCore:
    config = TerminalConfig()
    return TerminalCore(TerminalState.genesis(config) if pins else TerminalState(config))


def run(core: TerminalCore, command: c.Command) -> list[e.Event]:
    events = core.handle(command, NOW)
    core.apply(events)
    return events


def test_a_wrong_pin_counts_and_locks_and_a_good_one_clears() -> None:
    t = core()
    assert [type(x) for x in run(t, c.RecordPinEntry("operator", False, 1))] == [e.PinRefused]
    events = run(t, c.RecordPinEntry("operator", False, 3, NOW + 30_000))
    assert [type(x) for x in events] == [e.PinRefused, e.PinLockedOut]
    assert t.state.pins is not None
    assert (t.state.pins["operator"]["failures"], t.state.pins["operator"]["locked_until"]) == (
        3,
        NOW + 30_000,
    )
    with pytest.raises(c.CommandError, match="more than 3"):
        t.handle(c.RecordPinEntry("operator", False, 3), NOW)  # the count never goes back
    assert [type(x) for x in run(t, c.RecordPinEntry("operator", True))] == [e.PinAccepted]
    assert t.state.pins["operator"]["failures"] == 0
    assert run(t, c.RecordPinEntry("operator", True)) == []  # nothing to clear: no event


def test_setting_a_locked_roles_pin_lifts_the_lockout() -> None:
    t = core()
    run(t, c.RecordPinEntry("attendant", False, 3, NOW + 30_000))
    record = hash_part(factory_records()["technician"])
    events = run(t, c.SetPin("attendant", record, True, "set by the operator", "operator"))
    assert [type(x) for x in events] == [e.PinSet, e.PinLockoutLifted]
    assert t.state.pins is not None
    rec = t.state.pins["attendant"]
    assert (rec["failures"], rec["locked_until"], rec["must_change"]) == (0, 0, True)
    assert rec["hash"] == record["hash"]


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (c.SetPin("attendant", {"kdf": "md5"}, False, "x"), "unknown KDF"),
        (c.SetPin("manager", {}, False, "x"), "no role 'manager'"),
        (c.RecordPinEntry("root", True), "no role 'root'"),
        (c.MigratePins({}, "pins.json"), "in the journal already"),
    ],
)
def test_malformed_pin_commands_are_refused(command: c.Command, message: str) -> None:
    t = core()
    before = t.state.to_snapshot()
    with pytest.raises(c.CommandError, match=message):
        t.handle(command, NOW)
    assert t.state.to_snapshot() == before


def test_without_records_no_role_gets_in_and_migration_checks_every_record() -> None:
    t = core(pins=False)
    with pytest.raises(c.CommandError, match="no PIN record for the operator role"):
        t.handle(c.RecordPinEntry("operator", False, 1), NOW)
    records = {role: {**rec, "changed_at": 5} for role, rec in factory_records().items()}
    partial = {"attendant": records["attendant"]}
    with pytest.raises(c.CommandError, match="PIN records refused"):
        t.handle(c.MigratePins(partial, "pins.json"), NOW)
    assert [type(x) for x in run(t, c.MigratePins(records, "pins.json"))] == [e.PinsMigrated]
    assert t.state.pins is not None and set(t.state.pins) == set(records)


def test_configuration_versions_only_go_up() -> None:
    t = core()
    t.state.service_role = "operator"
    config = to_dict(t.state.config)
    events = run(t, c.ChangeConfig({**config, "venue": "A"}, "operator"))
    assert [type(x) for x in events] == [e.ConfigChanged, e.ConfigVersioned]
    assert t.state.config_version == 1
    run(t, c.ChangeConfig({**config, "venue": "B"}, "operator", version=9, source="import"))
    assert t.state.config_version == 9
    with pytest.raises(
        c.CommandError, match="configuration version 7 is not newer than the one in force, 9"
    ):
        t.handle(c.ChangeConfig({**config, "venue": "C"}, "operator", version=7), NOW)
    assert t.state.config.venue == "B"
    snapshot = t.state.to_snapshot()
    assert snapshot["config_version"] == 9
    assert TerminalState.from_snapshot(snapshot).config_version == 9
