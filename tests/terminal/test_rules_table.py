"""Every command outside its table entry is refused with a clear error and changes nothing."""

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.kernel.games.base import SeatBet
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.core import COMMAND_RULES, TerminalCore
from kiosk.terminal.core.meters import METER_MODULUS, Meters, expected_credits
from kiosk.terminal.core.records import SeatBetRecord
from kiosk.terminal.core.state import Lockup, Phase

SAMPLES = {
    c.PowerUp: c.PowerUp("t"),
    c.InsertBill: c.InsertBill(2000),
    c.BillStackedReport: c.BillStackedReport(2000),
    c.BillReturnedReport: c.BillReturnedReport(2000, "jam"),
    c.InsertTicket: c.InsertTicket("1" * 18, 500),
    c.TicketStackedReport: c.TicketStackedReport("1" * 18),
    c.TicketReturnedReport: c.TicketReturnedReport("1" * 18, "jam"),
    c.SelectEdition: c.SelectEdition("icon-v2"),
    c.PlaceWager: c.PlaceWager("bet_a", 100),
    c.ClearWagers: c.ClearWagers(),
    c.RepeatWagers: c.RepeatWagers(),
    c.SelectPositions: c.SelectPositions((0, 1, 2)),
    c.Deal: c.Deal(),
    c.VoidRound: c.VoidRound("the table voided the round"),
    c.CardsDrawn: c.CardsDrawn((0, 1, 2)),
    c.Decide: c.Decide("raise"),
    c.CashOut: c.CashOut("3" * 18),
    c.PrinterReport: c.PrinterReport(True),
    c.AttendantReset: c.AttendantReset(),
    c.RaiseTilt: c.RaiseTilt("x", "y"),
    c.ClearTilt: c.ClearTilt("x", "a"),
    c.SetDoor: c.SetDoor("main", True),
    c.SetEnabled: c.SetEnabled(False),
    c.SetService: c.SetService(True, "technician"),
    c.ChangeConfig: c.ChangeConfig({}, "operator"),
    c.ResetPeriodMeters: c.ResetPeriodMeters("operator"),
    c.ReportCritical: c.ReportCritical("x"),
    c.RecordWithdrawal: c.RecordWithdrawal(epoch=1, seq=5, chain_hash="00" * 32, store_seq=4),
    c.RecordPinEntry: c.RecordPinEntry("attendant", False, 1),
    c.SetPin: c.SetPin("attendant", {}, True, "set"),
    c.MigratePins: c.MigratePins({}, "pins.json"),
    c.RecordDeviceBaseline: c.RecordDeviceBaseline("printer", {"tickets_out": 0}, {"vouchers": 0}),
    c.ConfirmDeviceRecords: c.ConfirmDeviceRecords(
        "printer_reconcile", "host", "printer", {"tickets_out": 0}, {"vouchers": 0}
    ),
    c.TransferFunds: c.TransferFunds("aft_in", "T1", 500, 10_000),
    c.PayProgressive: c.PayProgressive(
        0, "TK-0001/7/0/pairs_plus", "test-3cp-pair", "Pair", 530, False
    ),
}


def test_every_command_has_a_rule_and_a_sample():
    assert set(SAMPLES) == set(COMMAND_RULES)


def fingerprint(core: TerminalCore):
    s = core.state
    return (
        s.to_snapshot(),
        copy.deepcopy(s.pending_wagers),
        copy.deepcopy(s.pending_positions),
        s.selected_edition,
    )


def reach(rig, phase: Phase):
    rt = rig.runtime
    rig.insert(20)
    if phase is Phase.IDLE:
        return rt
    rt.execute(c.SelectEdition("icon-v2"))
    rt.execute(c.PlaceWager("bet_a", 100))
    if phase is Phase.WAGERING:
        return rt
    if phase is Phase.CASHOUT:
        rt.execute(c.ClearWagers())
        rt.execute(c.CashOut("4" * 18, printer_ready=True))
        return rt
    rig.script = ["2h", "3h", "4h"]  # no icons: the raise is offered
    rt.execute(c.Deal())
    if phase is Phase.DECISION:
        return rt
    rt.execute(c.Decide("no_raise"))
    assert rt.state.phase is Phase.RESULT
    return rt


@pytest.mark.parametrize(
    "phase", [Phase.IDLE, Phase.WAGERING, Phase.DECISION, Phase.RESULT, Phase.CASHOUT]
)
def test_commands_outside_their_phases_are_refused_and_change_nothing(rig, phase):
    rt = reach(rig, phase)
    assert rt.state.phase is phase
    refused = 0
    for kind, rule in COMMAND_RULES.items():
        if phase in rule.phases:
            continue
        before = fingerprint(rt.core)
        with pytest.raises(c.IllegalCommandError, match="not allowed while"):
            rt.execute(SAMPLES[kind])
        assert fingerprint(rt.core) == before
        refused += 1
    assert refused > 0


@pytest.mark.parametrize(
    ("lockup_command", "lockup"),
    [
        (c.SetDoor("main", True), Lockup.DOOR),
        (c.SetService(True, "attendant"), Lockup.SERVICE),
        (c.RaiseTilt("printer", "paper out"), Lockup.TILT),
        (c.SetEnabled(False, "host"), Lockup.DISABLED),
    ],
)
def test_lockups_stop_play_and_return_notes(rig, lockup_command, lockup):
    rt = rig.runtime
    rig.insert(20)
    rt.execute(lockup_command)
    assert lockup in rt.state.lockups()
    before = fingerprint(rt.core)
    with pytest.raises(c.TerminalLockedError, match=f"locked \\({lockup.value}\\)"):
        rt.execute(c.PlaceWager("bet_a", 100))
    assert fingerprint(rt.core) == before
    events = rt.execute(c.InsertBill(500))
    assert isinstance(events[0], e.BillReturned) and "locked" in events[0].reason
    assert rt.state.credits == [2000]


def test_a_host_disable_waits_for_the_end_of_the_game(rig):
    rt = reach(rig, Phase.DECISION)
    rt.execute(c.SetEnabled(False, "host"))
    rt.execute(c.Decide("raise"))  # the game in progress finishes
    assert rt.state.phase is Phase.RESULT
    with pytest.raises(c.CommandError, match="disabled"):
        rt.execute(c.PlaceWager("bet_a", 100))
    rt.cash_out()  # the player can still leave with the credits
    rt.pump()
    assert rt.state.credits == [0]


def test_service_mode_freezes_the_round_and_resumes_it(rig):
    rt = reach(rig, Phase.DECISION)
    cards = list(rt.state.round.first)
    rt.execute(c.SetService(True, "technician"))
    with pytest.raises(c.CommandError, match="service"):
        rt.execute(c.Decide("raise"))
    rt.execute(c.SetService(False))
    assert rt.state.phase is Phase.DECISION and rt.state.round.first == cards
    rt.execute(c.Decide("raise"))
    assert rt.state.phase is Phase.RESULT


def test_notes_beyond_the_credit_limit_are_returned(rig):
    rt = rig.runtime
    for _ in range(10):
        rig.insert(100)
    assert rt.state.credits == [100_000]
    assert rig.validator.insert(100)
    rt.pump()
    assert rt.state.credits == [100_000] and rig.validator.returned[-1] == 100
    assert rt.state.lifetime["bills_in"] == 100_000


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (c.PlaceWager("first_down", 110), "whole number of credits"),
        (c.PlaceWager("first_down", 20_000), "most on one spot"),
        (c.PlaceWager("bet_a", 100), "no wager spot"),
        (c.PlaceWager("first_down", 100, seat=3), "no seat 3"),
        (c.SelectPositions((1, 2, 3)), "no positions to choose"),
        (c.Deal(), "not allowed while idle"),
        (c.SelectEdition("chess"), "not enabled"),
        (c.CashOut("123"), "18 digits"),
    ],
)
def test_bad_wagers_get_clear_errors(rig, command, message):
    rig.insert(20)
    before = fingerprint(rig.runtime.core)
    with pytest.raises(c.CommandError, match=message):
        rig.runtime.execute(command)
    assert fingerprint(rig.runtime.core) == before


def test_stadium_positions_are_three_distinct_and_cleared_with_the_wagers(rig):
    rt = rig.runtime
    rig.insert(20)
    rt.execute(c.SelectEdition("stadium-3cp"))
    with pytest.raises(c.CommandError, match="distinct"):
        rt.execute(c.SelectPositions((1, 1, 2)))
    rt.execute(c.SelectPositions((1, 2, 3)))
    assert rt.state.phase is Phase.WAGERING
    rt.execute(c.ClearWagers())
    assert rt.state.pending_positions == {}
    assert rt.state.phase is Phase.IDLE
    rt.execute(c.SelectEdition("turbo-football"))  # nothing keeps the player at this game


def test_configuration_changes_need_the_service_menu_and_zero_credits(rig):
    rt = rig.runtime
    new = rt.state.config.with_changes(denomination=100, min_wager=100)
    from kiosk.terminal.core.config import to_dict

    with pytest.raises(c.CommandError, match="service menu"):
        rt.execute(c.ChangeConfig(to_dict(new), "operator"))
    rig.insert(5)
    rt.execute(c.SetService(True, "operator"))
    with pytest.raises(c.CommandError, match="zero credits"):
        rt.execute(c.ChangeConfig(to_dict(new), "operator"))
    rt.execute(c.SetService(False))
    rt.cash_out()
    rt.pump()
    rt.execute(c.SetService(True, "operator"))
    bad = to_dict(new) | {"handpay_limit": -5}
    with pytest.raises(c.CommandError, match="handpay_limit"):
        rt.execute(c.ChangeConfig(bad, "operator"))
    rt.execute(c.ChangeConfig(to_dict(new), "operator"))
    assert rt.state.config.denomination == 100
    rt = rig.power_cut()
    assert rt.state.config.denomination == 100


def test_meters_roll_over_and_the_credit_audit_works_modulo():
    m = Meters()
    m.add("bills_in", METER_MODULUS - 100)
    m.add("bills_in", 300)
    assert m["bills_in"] == 200
    assert expected_credits(m) == 200
    with pytest.raises(ValueError, match="negative"):
        m.add("coin_in", -1)


EVENT_SAMPLES = [
    e.PoweredUp(1, software_version="0.1", recovered="x"),
    e.RoundStarted(
        2,
        game_number=7,
        edition="icon-v2",
        paytables={"bet_b": "flat"},
        bets=(SeatBetRecord(0, SeatBet({"bet_a": 100})),),
    ),
    e.CardsDealt(3, stage="first", shared=[1, 2, 3], per_seat=[], offers=1),
    e.DecisionOffered(
        4,
        seat=0,
        kind="raise",
        choices=["raise", "no_raise"],
        default="no_raise",
        take="raise",
        extra_wager=100,
        spot="raise",
        deadline=9,
    ),
    e.TableRoundJoined(2, game_number=8, table_id="T1", table_game=41),
    e.RoundVoided(3, game_number=8, reason="the table did not take the wager", returned=100),
    e.HandpayLocked(5, seat=0, value=150000, kind="jackpot", game_number=7),
    e.DoorChanged(6, door="main", open=True),
    e.FundsTransferred(
        7,
        seat=0,
        kind="aft_out",
        transaction_id="T2",
        cashable=400,
        requested=500,
        limit=10_000,
        tax_status=0,
        pos_id=0,
    ),
    e.ProgressiveAwarded(
        8,
        seat=0,
        key="TK-0001/7/0/pairs_plus",
        progressive="test-3cp-pair",
        outcome="Pair",
        award=530,
        handpay=True,
    ),
]


@pytest.mark.parametrize("event", EVENT_SAMPLES, ids=lambda x: x.type_name)
def test_events_round_trip_through_the_journal_encoding(event):
    assert e.decode(e.encode(event)) == event


@given(st.text(max_size=60))
def test_garbage_is_not_decoded_as_an_event(text):
    try:
        e.decode(text)
    except e.EventDecodeError:
        return
    raise AssertionError("decoded garbage")
