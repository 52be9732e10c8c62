"""The core's typed errors, in memory: a TerminalCore built directly (no journal, no SQLite).

Each kind of refusal has its own class (all of them a ``CommandError``), and a refusal changes
nothing.  Device reports are told apart: one of what the journal already holds is a duplicate,
one that disagrees with the state a mismatch (the runtime tilts for it).
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.core import TerminalCore
from kiosk.terminal.core.state import TerminalState

NOW = 1_800_000_000_000
NUMBER = "1" * 18
OTHER = "2" * 18


def new_core() -> TerminalCore:
    return TerminalCore(TerminalState(TerminalConfig()))


def run(core: TerminalCore, command: c.Command) -> list[e.Event]:
    """Handle and fold, as the runtime does after journaling."""
    events = core.handle(command, NOW)
    core.apply(events)
    return events


def with_credits(dollars: int) -> TerminalCore:
    core = new_core()
    run(core, c.InsertBill(dollars * 100))
    run(core, c.BillStackedReport(dollars * 100))
    return core


def fingerprint(core: TerminalCore) -> object:
    s = core.state
    return (s.to_snapshot(), copy.deepcopy(s.pending_wagers), dict(core.resolved))


def refused(core: TerminalCore, command: c.Command, kind: type[c.CommandError]) -> c.CommandError:
    before = fingerprint(core)
    with pytest.raises(kind) as caught:
        core.handle(command, NOW)
    assert fingerprint(core) == before
    assert isinstance(caught.value, c.CommandError)  # callers that catch the base still work
    return caught.value


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (c.Deal(), "Deal is not allowed while idle"),
        (c.CashOut(NUMBER), "no credits to cash out"),
        (c.AttendantReset(), "no handpay to reset"),
        (c.ResetPeriodMeters("operator"), "only from the service menu"),
    ],
)
def test_a_command_illegal_now_is_an_illegal_command_error(command, message):
    error = refused(new_core(), command, c.IllegalCommandError)
    assert message in str(error)


def test_a_command_stopped_by_a_lockup_is_a_terminal_locked_error():
    core = with_credits(20)
    run(core, c.RaiseTilt("printer", "paper out"))
    error = refused(core, c.PlaceWager("first_down", 100), c.TerminalLockedError)
    assert str(error) == "PlaceWager is not allowed: terminal locked (tilt)"
    assert isinstance(error, c.TerminalLockedError) and error.lockup == "tilt"


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (c.PlaceWager("first_down", 100, seat=3), "no seat 3 on this terminal"),
        (c.PlaceWager("first_down", 110), "whole number of credits"),
        (c.PlaceWager("nowhere", 100), "no wager spot 'nowhere'"),
        (c.SelectEdition("chess"), "not enabled"),
        (c.CashOut("123"), "a validation number has 18 digits"),
        (c.ClearTilt("nothing", ""), None),  # no such tilt: nothing to do, no error
    ],
)
def test_a_bad_argument_is_an_invalid_argument_error(command, message):
    core = with_credits(20)
    if message is None:
        assert core.handle(command, NOW) == []
        return
    error = refused(core, command, c.InvalidArgumentError)
    assert message in str(error)


def test_an_attendant_tilt_without_an_attendant_is_an_invalid_argument_error():
    core = new_core()
    run(core, c.RaiseTilt("door", "main door", needs_attendant=True))
    refused(core, c.ClearTilt("door"), c.InvalidArgumentError)
    assert run(core, c.ClearTilt("door", by="attendant"))


def test_a_stacked_note_reported_again_is_a_duplicate():
    core = with_credits(20)
    error = refused(core, c.BillStackedReport(2000), c.DuplicateReportError)
    assert "already" in str(error)
    assert core.state.credits == [2000]


def test_a_returned_note_reported_again_is_a_duplicate():
    core = new_core()
    assert isinstance(run(core, c.InsertBill(300))[0], e.BillReturned)  # not accepted
    refused(core, c.BillReturnedReport(300, "rejected"), c.DuplicateReportError)


def test_a_note_returned_with_nothing_in_escrow_moves_no_money_and_is_quiet():
    # an escrow whose commit failed (a full disk) ends with the device returning the note
    core = new_core()
    refused(core, c.BillReturnedReport(2000, "escrow timed out"), c.DuplicateReportError)
    assert core.state.credits == [0]


def test_another_note_returned_than_the_one_in_escrow_is_a_mismatch():
    core = new_core()
    run(core, c.InsertBill(2000))
    refused(core, c.BillReturnedReport(500, "rejected"), c.ReportMismatchError)


def test_a_stacked_voucher_reported_again_is_a_duplicate():
    core = new_core()
    run(core, c.InsertTicket(NUMBER, value=2500))
    run(core, c.TicketStackedReport(NUMBER))
    assert core.state.credits == [2500]
    refused(core, c.TicketStackedReport(NUMBER), c.DuplicateReportError)
    assert core.state.lifetime["tickets_in"] == 2500


def test_a_stacked_value_other_than_the_note_in_escrow_is_a_mismatch():
    core = new_core()
    run(core, c.InsertBill(2000))
    error = refused(core, c.BillStackedReport(500), c.ReportMismatchError)
    assert str(error) == "bill validator reported 500 stacked but escrow holds 2000"
    assert isinstance(error, c.ReportMismatchError)
    assert (error.device, error.reported, error.expected) == (
        "bill validator",
        "the note of 500 stacked",
        "the note of 2000 in escrow",
    )


def test_a_note_stacked_that_was_never_escrowed_is_a_mismatch():
    error = refused(new_core(), c.BillStackedReport(2000), c.ReportMismatchError)
    assert isinstance(error, c.ReportMismatchError)
    assert error.expected == "nothing in escrow"


def test_a_voucher_stacked_that_was_never_escrowed_is_a_mismatch():
    error = refused(new_core(), c.TicketStackedReport(NUMBER), c.ReportMismatchError)
    assert str(error) == f"no voucher {NUMBER} in escrow"
    assert isinstance(error, c.ReportMismatchError)
    assert error.reported == f"the voucher {NUMBER} stacked"


def test_another_voucher_than_the_one_in_escrow_is_a_mismatch():
    core = new_core()
    run(core, c.InsertTicket(NUMBER, value=2500))
    error = refused(core, c.TicketStackedReport(OTHER), c.ReportMismatchError)
    assert isinstance(error, c.ReportMismatchError)
    assert error.expected == f"the voucher {NUMBER} in escrow"


def test_a_returned_voucher_reported_stacked_is_a_mismatch_not_a_duplicate():
    core = new_core()
    run(core, c.InsertTicket(NUMBER, value=2500))
    run(core, c.TicketReturnedReport(NUMBER, "player took it"))
    refused(core, c.TicketStackedReport(NUMBER), c.ReportMismatchError)
    refused(core, c.TicketReturnedReport(NUMBER, "again"), c.DuplicateReportError)


def test_the_memory_of_resolutions_is_seeded_from_journaled_events():
    """At power-up the runtime seeds it from the event log: the snapshot does not hold it."""
    core = new_core()
    core.remember([e.BillStacked(at=NOW, seat=0, value=2000)])
    assert core.state.credits == [0]  # remembered, not folded
    refused(core, c.BillStackedReport(2000), c.DuplicateReportError)


def test_redeem_ticket_is_gone_but_an_old_journals_ticket_redeemed_still_folds():
    """The previous release journaled TicketRedeemed without an escrow (RedeemTicket)."""
    assert not hasattr(c, "RedeemTicket")
    core = new_core()
    old = e.TicketRedeemed(at=NOW, seat=0, value=700, validation_number=NUMBER)
    core.apply([e.decode(e.encode(old))])
    assert core.state.credits == [700]
    assert core.state.lifetime["tickets_in"] == 700
    assert core.state.lifetime["tickets_in_count"] == 1
    assert core.audit_credits() is None


REPORTS = st.one_of(
    st.builds(c.InsertBill, st.sampled_from([500, 2000, 300])),
    st.builds(c.BillStackedReport, st.sampled_from([500, 2000])),
    st.builds(c.BillReturnedReport, st.sampled_from([500, 2000]), st.just("jam")),
    st.builds(c.InsertTicket, st.sampled_from([NUMBER, OTHER]), st.just(2500)),
    st.builds(c.TicketStackedReport, st.sampled_from([NUMBER, OTHER])),
    st.builds(c.TicketReturnedReport, st.sampled_from([NUMBER, OTHER]), st.just("jam")),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(REPORTS, max_size=30))
def test_any_stream_of_validator_reports_credits_only_what_was_escrowed(reports):
    """Whatever the validator says, in any order: a refusal is one of the report kinds and
    changes nothing, and every credit is an item the core had accepted into escrow."""
    core = new_core()
    escrowed = credited = 0
    for report in reports:
        held = core.state.escrow or core.state.ticket_escrow
        if isinstance(report, c.InsertBill | c.InsertTicket) and held:
            continue  # a validator has one escrow position: nothing is read while it is full
        before = fingerprint(core)
        try:
            events = run(core, report)
        except (c.DuplicateReportError, c.ReportMismatchError):
            assert fingerprint(core) == before
            continue
        for event in events:
            if isinstance(event, e.BillEscrowAccepted | e.TicketEscrowAccepted):
                escrowed += event.value
            elif isinstance(event, e.BillStacked | e.TicketRedeemed):
                credited += event.value
            elif isinstance(event, e.BillReturned | e.TicketReturned) and not isinstance(
                report, c.InsertBill | c.InsertTicket
            ):
                escrowed -= event.value
    assert sum(core.state.credits) == credited
    assert (
        credited
        + sum(core.state.escrow.values())
        + sum(t.value for t in core.state.ticket_escrow.values())
        == escrowed
    )
    assert core.audit_credits() is None
