"""What the service functions do to (and report of) the terminal."""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from kiosk.kernel import integrity
from kiosk.kernel.analysis.turbo_par import par_sheet
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.config import ConfigError, TerminalConfig, to_dict
from kiosk.terminal.core.state import Lockup, Phase
from kiosk.terminal.presentation.service_words import status_rows
from kiosk.terminal.service.access import Role
from kiosk.terminal.service.functions.base import ServiceError
from kiosk.terminal.service.functions.config import parse_field, with_edition, with_paytable
from kiosk.terminal.service.functions.house_edge import HouseEdges
from tests.helpers.service_rig import ServiceRig

#: a terminal whose operator set a decision timer (none by default: decision 0054)
TIMED = TerminalConfig(decision_seconds=20)


def start_decision(rig: ServiceRig) -> None:
    """A Turbo Football round waiting for the raise decision."""
    rt = rig.runtime
    rig.insert(20)
    rt.execute(c.SelectEdition("turbo-football"))
    rt.execute(c.PlaceWager("first_down", 500))
    rig.script = ["2h", "3h", "4h", "As", "Ks", "Qs", "2s", "3d", "4d"]
    rt.execute(c.Deal())
    assert rt.state.phase is Phase.DECISION


def test_service_stops_play_and_the_round_resumes_where_it_was(
    make_srig: Callable[..., ServiceRig],
) -> None:
    srig = make_srig(TIMED)
    rt = srig.runtime
    start_decision(srig)
    rt.pump()  # the decision timer starts
    deadline = rt.decision_deadline()
    assert deadline is not None
    srig.clock.advance(5)
    session = srig.enter(Role.ATTENDANT)
    assert Lockup.SERVICE in rt.state.lockups() and not rt.accepting_money()
    with pytest.raises(c.CommandError, match="terminal locked"):
        rt.execute(c.Decide("raise"))
    assert not srig.validator.insert(2000)  # no credit acceptance
    srig.clock.advance(600)  # far beyond the 20 s timer
    rt.pump()
    assert rt.state.phase is Phase.DECISION
    assert rt.state.round is not None and 0 not in rt.state.round.choices
    session.leave()
    assert rt.accepting_money()
    # the timer lost nothing: 15 s were left when service began, 15 s are left now
    assert rt.decision_deadline() == srig.clock.now + 15_000
    rt.execute(c.Decide("raise"))
    assert rt.state.phase is Phase.RESULT and rt.state.credits == [3000]


@pytest.mark.parametrize(
    ("lock", "unlock"),
    [
        (c.SetDoor("main", open=True), c.SetDoor("main", open=False)),
        (c.RaiseTilt("bill_jam", "bill validator jammed"), c.ClearTilt("bill_jam")),
        (c.SetEnabled(False, "host: count room"), c.SetEnabled(True, "host")),
    ],
    ids=["door", "tilt", "host-disable"],
)
def test_a_lockup_holds_the_decision_timer(
    make_srig: Callable[..., ServiceRig], lock: c.Command, unlock: c.Command
) -> None:
    """The player cannot act while a lockup covers the table, so no default is taken for
    them then, nor the moment it clears: the timer resumes with the time it had left."""
    srig = make_srig(TIMED)
    rt = srig.runtime
    start_decision(srig)
    rt.pump()
    srig.clock.advance(12)  # 8 s left
    rt.execute(lock)
    assert rt.state.lockups()
    srig.clock.advance(300)
    rt.pump()
    rt.execute(unlock)
    assert not rt.state.lockups()
    rt.pump()
    assert rt.state.phase is Phase.DECISION, "the timer ran out during the lockup"
    assert rt.decision_deadline() == srig.clock.now + 8_000
    srig.clock.advance(8)
    rt.pump()  # now it runs out: the default (no raise) is taken
    assert rt.state.phase is Phase.RESULT


def test_handpay_reset_is_journaled_with_its_record(srig: ServiceRig) -> None:
    rt = srig.runtime
    srig.insert(20)
    srig.printer.fault = "jam"
    rt.cash_out()
    session = srig.enter(Role.ATTENDANT)
    outcome = session.call("status")
    assert "Handpay waiting: $20.00 cancelled credits, seat 0" in outcome.lines
    rows = dict(status_rows(outcome.data, "es"))  # the touchscreen's status page in Spanish
    assert rows["Pago a mano pendiente"] == "$20.00 créditos cancelados, puesto 0"
    assert rows["Créditos"] == "$20.00" and "Detenido por" in rows
    assert dict(status_rows(outcome.data, "en"))["Handpay waiting"] == (
        "$20.00 cancelled credits, seat 0"
    )
    outcome = session.call("handpay_reset")
    assert outcome.title == "Handpay of $20.00 cancelled credits, seat 0 reset"
    assert rt.state.handpay is None and rt.state.credits == [0]
    event = list(rt.journal.rows())[-1].event
    assert isinstance(event, e.HandpayReset) and event.by == "attendant"
    with pytest.raises(ServiceError, match="no handpay is waiting"):
        session.call("handpay_reset")


def test_clear_tilt_names_the_tilts(srig: ServiceRig) -> None:
    rt = srig.runtime
    rt.execute(c.RaiseTilt("printer_fault", "printer jammed", needs_attendant=True))
    session = srig.enter(Role.ATTENDANT)
    with pytest.raises(ServiceError, match=r"no tilt 'x' \(tilts now: printer_fault\)"):
        session.call("clear_tilt", {"code": "x"})
    assert session.call("clear_tilt", {"code": "printer_fault"}).ok
    assert rt.state.tilts == {}


def test_bill_validator_test_returns_notes_without_credit(srig: ServiceRig) -> None:
    rt = srig.runtime
    session = srig.enter(Role.TECHNICIAN)
    session.call("bill_test", {"action": "start"})
    assert not srig.validator.insert(2000) and not srig.validator.insert(500)
    assert not srig.validator.insert(300)  # not a note: not read
    rt.pump()
    outcome = session.call("bill_test", {"action": "status"})
    assert outcome.data == {"running": True, "notes": [2000, 500]}
    assert srig.validator.returned == [2000, 500, 300]
    assert rt.state.credits == [0] and rt.state.lifetime["bills_in"] == 0
    session.leave()  # leaving stops the test
    assert srig.validator.test_mode is False
    srig.insert(20)
    assert rt.state.credits == [2000]


def test_test_voucher_reports_a_printer_fault(srig: ServiceRig) -> None:
    session = srig.enter(Role.TECHNICIAN)
    assert session.call("voucher_test").ok
    srig.printer.paper = False
    outcome = session.call("voucher_test")
    assert not outcome.ok and outcome.title == "Test voucher NOT printed: paper out"
    assert srig.printer.printed() == {} and srig.printer.test_vouchers == 1


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"max_wager": 60000}, "max_wager: must not exceed table_max"),
        ({"min_wager": 110}, "min_wager: must be a whole number of credits of 25 cents"),
        ({"language": "fr"}, "language: must be 'en' or 'es'"),
        ({"terminal_id": "X" * 17}, "terminal_id: at most 16 ASCII characters"),
        ({"accepted_notes": [300]}, "accepted_notes: 300 is not a note value"),
        ({"credit_limit": 100}, "credit_limit: must be at least table_max"),
        ({"decision_seconds": -1}, "decision_seconds: 0 for no timer, or whole seconds up to 600"),
        ({"editions": []}, "editions: at least one edition must be enabled"),
        ({"seats": 2}, "seats: the number of seats is fixed at installation"),
        ({"colour": "red"}, "colour: unknown configuration field"),
        ({"venue": "Demo Casino"}, "nothing to change"),
    ],
)
def test_configuration_is_validated_with_clear_errors(
    srig: ServiceRig, changes: dict[str, Any], message: str
) -> None:
    session = srig.enter(Role.OPERATOR)
    before = srig.runtime.journal.head()
    with pytest.raises(ServiceError, match=message.replace("(", r"\(")):
        session.call("config_change", {"changes": changes})
    assert srig.runtime.journal.head() == before
    assert srig.runtime.state.config == TerminalConfig()


def test_configuration_changes_need_zero_credits_and_no_game(srig: ServiceRig) -> None:
    start_decision(srig)
    session = srig.enter(Role.OPERATOR)
    with pytest.raises(ServiceError, match=r"zero credits \(credits: \$15.00\)"):
        session.call("config_change", {"changes": {"venue": "X"}})
    session.leave()
    srig.runtime.execute(c.Decide("no_raise"))
    srig.runtime.cash_out()
    srig.runtime.pump()
    assert srig.runtime.state.credits == [0]
    session = srig.enter(Role.OPERATOR)
    outcome = session.call("config_change", {"changes": {"venue": "X", "max_wager": 2500}})
    assert outcome.lines == ("max_wager: $100.00 -> $25.00", "venue: Demo Casino -> X")
    assert srig.runtime.state.config.venue == "X"


def test_editions_and_pay_tables(srig: ServiceRig) -> None:
    session = srig.enter(Role.OPERATOR)
    config = to_dict(srig.runtime.state.config)
    flat = with_paytable(config, "icon-v2", "bet_b", "flat")
    session.call("config_change", {"changes": {"editions": flat["editions"]}})
    assert srig.runtime.state.config.edition("icon-v2").paytables == {"bet_b": "flat"}
    back = with_paytable(flat, "icon-v2", "bet_b", "standard")  # the default: no entry
    assert back["editions"] == config["editions"]
    view = session.call("config")
    icon = next(e for e in view.data["editions"] if e["edition"] == "icon-v2")
    bet_b = next(w for w in icon["wagers"] if w["wager"] == "bet_b")
    exact = par_sheet("icon-v2", {"bet_b": "flat"}).wagers["bet_b"].house_edge
    assert Fraction(bet_b["house_edge"]) == exact and not bet_b["default"]
    fewer = with_edition(config, "stadium-3cp", False)
    session.call("config_change", {"changes": {"editions": fewer["editions"]}})
    assert [e.edition for e in srig.runtime.state.config.editions] == ["turbo-football", "icon-v2"]
    with pytest.raises(ConfigError, match="no wager 'nope'"):
        with_paytable(config, "icon-v2", "nope", "x")
    with pytest.raises(ServiceError, match="no pay table named 'nope'"):
        session.call(
            "config_change",
            {"changes": {"editions": [{"edition": "icon-v2", "paytables": {"bet_b": "nope"}}]}},
        )


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [
        ("max_wager", "25", 2500),
        ("denomination", "0.25", 25),
        ("accepted_notes", "5, 20,100", [500, 2000, 10000]),
        ("decision_seconds", "15", 15),
        ("venue", " Riverside ", "Riverside"),
    ],
)
def test_typed_fields(name: str, text: str, value: Any) -> None:
    assert parse_field(name, text) == value


def test_typed_field_errors() -> None:
    with pytest.raises(ConfigError, match="max_wager: not an amount in dollars"):
        parse_field("max_wager", "lots")
    with pytest.raises(ConfigError, match="seats: not a field the operator sets"):
        parse_field("seats", "2")


def test_period_meter_reset(srig: ServiceRig) -> None:
    srig.insert(20)
    session = srig.enter(Role.OPERATOR)
    session.call("period_reset")
    state = srig.runtime.state
    assert state.period["bills_in"] == 0 and state.lifetime["bills_in"] == 2000
    meters = session.call("meters")
    assert any(line.split()[:3] == ["bills_in", "$20.00", "$0.00"] for line in meters.lines)


def test_house_edges_are_the_par_sheets_and_cached(tmp_path: Path) -> None:
    notes: list[str] = []
    edges = HouseEdges(tmp_path / "edges.json", notes.append)
    sheet = par_sheet("turbo-football", {})
    for wager, par in sheet.wagers.items():
        table = "3-8-40-150-1000-10000" if wager == "nine_card_bonus" else "standard"
        assert edges.edge("turbo-football", wager, table) == par.house_edge
    assert len(notes) == len(sheet.wagers)
    again = HouseEdges(tmp_path / "edges.json", notes.append)
    assert (
        again.edge("turbo-football", "first_down", "standard")
        == sheet.wagers["first_down"].house_edge
    )
    assert len(notes) == len(sheet.wagers)
    assert again.edge("icon-v2", "nine_card_bonus", "off") is None


def _independent_hmac(seed: bytes) -> str:
    """The seeded check as docs/service.md states it, without kiosk.kernel.integrity."""
    files = []
    for package in ("kiosk", "rng", "ui", "proto"):
        spec = importlib.util.find_spec(package)
        assert spec is not None and spec.submodule_search_locations
        root = Path(next(iter(spec.submodule_search_locations)))
        for path in root.rglob("*"):
            name = f"{package}/{path.relative_to(root).as_posix()}"
            if name.startswith(("kiosk/table/", "kiosk/host/", "kiosk/tools/", "ui/table/")):
                continue  # the other deployables: not the terminal's software (decision 0044)
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                files.append((name, path.read_bytes()))
    mac = hmac.new(seed, digestmod=hashlib.sha256)
    for name, data in sorted(files):
        mac.update(name.encode() + b"\0" + len(data).to_bytes(8, "big") + data)
    return mac.hexdigest()


def test_software_authentication(srig: ServiceRig) -> None:
    session = srig.enter(Role.TECHNICIAN)
    outcome = session.call("software", {"full": True})
    made = integrity.manifest()
    assert outcome.data["digest"] == made.digest == hashlib.sha256(made.text().encode()).hexdigest()
    entry = next(
        e for e in outcome.data["entries"] if e["path"] == "kiosk/terminal/service/session.py"
    )
    data = Path(integrity.package_dirs()["kiosk"], "terminal/service/session.py").read_bytes()
    assert entry["sha256"] == hashlib.sha256(data).hexdigest() and entry["size"] == len(data)
    seed = "5eed" * 8
    outcome = session.call("software_hmac", {"seed": seed})
    assert outcome.data["hmac"] == _independent_hmac(bytes.fromhex(seed))
    with pytest.raises(ServiceError, match="seed: hex digits only"):
        session.call("software_hmac", {"seed": "zz"})


def test_rng_self_test_and_store_check(srig: ServiceRig) -> None:
    session = srig.enter(Role.TECHNICIAN)
    outcome = session.call("rng_selftest")
    assert outcome.ok and len(outcome.data["results"]) == 3
    assert outcome.data["status"]["healthy"] is True
    check = session.call("store_check")
    assert check.ok and check.lines[-1] == "AUDIT PASSED"
    assert any("service audit log: chain of" in line for line in check.lines)


def test_event_log_filters(srig: ServiceRig) -> None:
    srig.insert(5)
    srig.runtime.execute(c.SetDoor("main", True))
    srig.runtime.execute(c.SetDoor("main", False))
    session = srig.enter(Role.TECHNICIAN)
    doors = session.call("events", {"kinds": ["DoorChanged"]})
    assert [e["data"]["open"] for e in doors.data["events"]] == [False, True]
    assert len(session.call("events", {"last": 2}).data["events"]) == 2
    with pytest.raises(ServiceError, match="no event kind 'Nope'"):
        session.call("events", {"kinds": ["Nope"]})


def test_device_status_counters(srig: ServiceRig) -> None:
    srig.insert(20)
    session = srig.enter(Role.TECHNICIAN)
    outcome = session.call("devices")
    assert outcome.data["counters"]["bills_in_count"] == 1
    assert outcome.data["validator"]["cashbox_total"] == 2000
    assert outcome.data["printer"]["ready"] is True
    assert outcome.data["host"]["address"] == "127.0.0.1:50051"
    doors = session.call("doors")
    assert doors.data == {"key_on": True, "doors_open": [], "door_opens": 0}


def test_touch_and_display_tests(srig: ServiceRig) -> None:
    from kiosk.terminal.service.functions.diagnostics import TouchTest

    test = TouchTest(columns=2, rows=2)
    for x, y in ((0.1, 0.1), (0.9, 0.1), (0.1, 0.9)):
        test.touch(x, y)
    assert not test.passed and test.touch(1.0, 0.5) is None
    test.touch(0.6, 0.6)
    assert test.passed
    session = srig.enter(Role.TECHNICIAN)
    failed = session.call("touch_test", {"cells": 4, "hit": 3})
    assert not failed.ok and "FAILED: 3 of 4" in failed.title
    with pytest.raises(ServiceError, match="patterns"):
        session.call("display_test", {"patterns": ["plaid"]})


def test_the_caller_sees_refusals_only_as_service_errors(
    make_srig: Callable[..., ServiceRig],
) -> None:
    rig = make_srig()
    session = rig.enter(Role.OPERATOR)
    with pytest.raises(ServiceError, match="no service function 'nope'"):
        session.call("nope")
    with pytest.raises(ServiceError, match="last: a whole number"):
        session.call("recall", {"last": 0})
