"""The host trusts no terminal's word: each voucher rule and bound, over mutual TLS, on SQLite and
on PostgreSQL (issue 11, item 4; docs/security/host-trust.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest

from kiosk.cli import main
from kiosk.host.accounting.bounds import MAX_BATCH, Limits
from kiosk.host.accounting.db import HostDb, SqliteHostDb
from kiosk.host.accounting.records import VoucherAuditEntry
from kiosk.host.accounting.server import HostServer, HostSettings
from kiosk.terminal.hostlink.client import HostClient
from proto.turbokiosk.v1 import host_pb2
from tests.helpers.host_checks import enroll
from tests.helpers.host_rig import ENROLLED, HostRig, Pki, TerminalRig, records_factory

LIMITS = Limits(ticket_out_limit=1_000_000, ticket_in_limit=150_000, largest_bill=10_000)
NEVER_ISSUED = "424242424242424242"


class TrustRig(HostRig):
    """A host with LIMITS, and one client per terminal (TK-A, TK-B) over mutual TLS."""

    limits = LIMITS

    def start(self) -> HostServer:
        self.db = self.db_factory()
        enroll(self.db, ENROLLED)
        self.server = HostServer(
            self.db,
            self.pki.host(),
            self.address,
            settings=HostSettings(limits=self.limits),
            max_workers=16,
        ).start()
        self.address = self.server.address
        return self.server

    @property
    def records(self) -> HostDb:
        assert self.db is not None
        return self.db


@pytest.fixture(params=["sqlite", "postgresql"])
def rig(request: pytest.FixtureRequest, tmp_path: Path, pki_set: Pki) -> Iterator[TrustRig]:
    made = TrustRig(pki_set, records_factory(request, tmp_path))
    yield made
    made.stop()


@pytest.fixture
def clients(rig: TrustRig, pki_set: Pki) -> Iterator[dict[str, HostClient]]:
    made = {
        t: HostClient(rig.address, pki_set.terminal(t), t, timeout=10) for t in ("TK-A", "TK-B")
    }
    for client in made.values():
        client.hello("0.1.0", "sig", 0)
    yield made
    for client in made.values():
        client.close()


def _voucher_message(
    terminal: str, seq: int, kind: str, number: str, value: int
) -> host_pb2.TerminalMessage:
    msg = host_pb2.TerminalMessage(message_id=f"{terminal}:1:{seq}:0", journal_seq=seq, at_ms=1)
    ref = getattr(msg, kind)
    ref.validation_number, ref.value_cents, ref.seat = number, value, 0
    return msg


def _report(client: HostClient, *messages: host_pb2.TerminalMessage) -> None:
    client.report(list(messages))


def _refused(call: Callable[[], object]) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value


def _alarms(db: HostDb, number: str, kind: str) -> list[VoucherAuditEntry]:
    return [a for a in db.voucher_audit(number, "alarm") if a.kind == kind]


def test_printed_for_a_number_the_host_never_issued_is_quarantined_never_redeemable(
    rig: TrustRig, clients: dict[str, HostClient]
) -> None:
    _report(clients["TK-B"], _voucher_message("TK-B", 5, "voucher_printed", NEVER_ISSUED, 500_000))
    record = rig.records.voucher(NEVER_ISSUED)
    assert record is not None and record.state == "quarantined"
    (alarm,) = _alarms(rig.records, NEVER_ISSUED, "quarantined")
    assert alarm.terminal_id == "TK-B" and "never issued" in str(alarm.detail)
    answer = clients["TK-A"].validate_ticket(NEVER_ISSUED)
    assert not answer.accepted and "quarantined" in answer.reason
    with pytest.raises(Exception, match="not reserved"):
        clients["TK-B"].ticket_stacked(NEVER_ISSUED)
    assert rig.records.voucher(NEVER_ISSUED).state == "quarantined"  # type: ignore[union-attr]


def test_quarantine_and_refusals_are_listed_by_the_commands(
    rig: TrustRig, clients: dict[str, HostClient], capsys: pytest.CaptureFixture[str]
) -> None:
    number = clients["TK-A"].validation_number(2500)
    _report(clients["TK-B"], _voucher_message("TK-B", 5, "voucher_printed", NEVER_ISSUED, 500_000))
    _report(clients["TK-B"], _voucher_message("TK-B", 6, "voucher_voided", number, 2500))
    db = rig.records
    target = str(db.path) if isinstance(db, SqliteHostDb) else db.dsn  # type: ignore[attr-defined]
    assert main(["host", "vouchers", "--db", target, "--state", "quarantined"]) == 0
    out = capsys.readouterr().out
    assert NEVER_ISSUED in out and "$5,000.00" in out and "TK-B" in out
    assert main(["host", "vouchers", "audit", "--alarms", "--db", target]) == 0
    out = capsys.readouterr().out
    assert "quarantined" in out and "refused_void" in out and "ALARM" in out


def test_printed_for_another_terminals_number_is_quarantined(
    rig: TrustRig, clients: dict[str, HostClient]
) -> None:
    number = clients["TK-A"].validation_number(1500)
    _report(clients["TK-B"], _voucher_message("TK-B", 5, "voucher_printed", number, 1500))
    assert rig.records.voucher(number).state == "pending"  # type: ignore[union-attr]
    (alarm,) = _alarms(rig.records, number, "quarantined")
    assert alarm.terminal_id == "TK-B" and "issued to TK-A" in str(alarm.detail)
    assert not clients["TK-B"].validate_ticket(number).accepted
    # the issuing terminal's own report still moves it
    _report(clients["TK-A"], _voucher_message("TK-A", 6, "voucher_printed", number, 1500))
    assert rig.records.voucher(number).state == "issued"  # type: ignore[union-attr]
    assert clients["TK-B"].validate_ticket(number).accepted


def test_printed_with_another_value_is_quarantined(
    rig: TrustRig, clients: dict[str, HostClient]
) -> None:
    number = clients["TK-A"].validation_number(1500)
    _report(clients["TK-A"], _voucher_message("TK-A", 5, "voucher_printed", number, 150_000))
    record = rig.records.voucher(number)
    assert record is not None and (record.state, record.value_cents) == ("quarantined", 1500)
    (alarm,) = _alarms(rig.records, number, "quarantined")
    assert "issued for 1500 cents, reported printed for 150000" in str(alarm.detail)
    answer = clients["TK-B"].validate_ticket(number)
    assert not answer.accepted and "quarantined" in answer.reason


def test_a_void_from_a_terminal_that_did_not_issue_the_voucher_is_refused(
    rig: TrustRig, clients: dict[str, HostClient]
) -> None:
    number = clients["TK-A"].validation_number(2500)
    _report(clients["TK-B"], _voucher_message("TK-B", 5, "voucher_voided", number, 2500))
    assert rig.records.voucher(number).state == "pending"  # type: ignore[union-attr]
    (alarm,) = _alarms(rig.records, number, "refused_void")
    assert alarm.terminal_id == "TK-B"
    _report(clients["TK-A"], _voucher_message("TK-A", 6, "voucher_printed", number, 2500))
    assert rig.records.voucher(number).state == "issued"  # type: ignore[union-attr]
    # the issuer voids only a pending voucher: a printed one stays redeemable
    _report(clients["TK-A"], _voucher_message("TK-A", 7, "voucher_voided", number, 2500))
    assert rig.records.voucher(number).state == "issued"  # type: ignore[union-attr]


def test_a_redemption_from_a_terminal_that_did_not_hold_the_voucher_is_refused(
    rig: TrustRig, clients: dict[str, HostClient]
) -> None:
    number = clients["TK-A"].validation_number(3000)
    _report(clients["TK-A"], _voucher_message("TK-A", 5, "voucher_printed", number, 3000))
    # TK-B says it credited the voucher without ever reserving it
    _report(clients["TK-B"], _voucher_message("TK-B", 5, "voucher_redeemed", number, 3000))
    record = rig.records.voucher(number)
    assert record is not None and (record.state, record.holder) == ("issued", "")
    (alarm,) = _alarms(rig.records, number, "refused_redeem")
    assert alarm.terminal_id == "TK-B"
    error = _refused(
        lambda: clients["TK-B"].stub.FinishTicket(
            host_pb2.FinishTicketRequest(terminal_id="TK-B", validation_number=number, stacked=True)
        )
    )
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION
    # the player still has it: TK-A reserves and redeems it as the holder
    assert clients["TK-A"].validate_ticket(number).accepted
    _report(clients["TK-B"], _voucher_message("TK-B", 6, "voucher_redeemed", number, 3000))
    assert rig.records.voucher(number).state == "reserved"  # type: ignore[union-attr]
    clients["TK-A"].ticket_stacked(number)
    record = rig.records.voucher(number)
    assert record is not None and (record.state, record.holder) == ("redeemed", "TK-A")


@pytest.mark.parametrize("value", [2**62, -500, 0, LIMITS.ticket_out_limit + 1])
def test_a_validation_number_only_for_a_bounded_amount(
    rig: TrustRig, clients: dict[str, HostClient], value: int
) -> None:
    request = host_pb2.IssueValidationNumberRequest(terminal_id="TK-A", value_cents=value)
    error = _refused(lambda: clients["TK-A"].stub.IssueValidationNumber(request, timeout=5))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert rig.records.vouchers() == []
    assert clients["TK-A"].validation_number(LIMITS.ticket_out_limit)  # the limit itself is fine


def test_a_voucher_over_the_ticket_in_limit_is_refused(
    rig: TrustRig, clients: dict[str, HostClient]
) -> None:
    number = clients["TK-A"].validation_number(LIMITS.ticket_in_limit + 1)
    _report(clients["TK-A"], _voucher_message("TK-A", 5, "voucher_printed", number, 150_001))
    answer = clients["TK-B"].validate_ticket(number)
    assert not answer.accepted and "ticket-in limit" in answer.reason
    assert rig.records.voucher(number).state == "issued"  # type: ignore[union-attr]


def _bill(value: int, seq: int = 3) -> host_pb2.TerminalMessage:
    msg = host_pb2.TerminalMessage(message_id=f"TK-A:1:{seq}:0", journal_seq=seq, at_ms=1)
    msg.bill_stacked.seat, msg.bill_stacked.value_cents = 0, value
    return msg


def _meters(value: int) -> host_pb2.TerminalMessage:
    msg = host_pb2.TerminalMessage(message_id="TK-A:1:4:1", journal_seq=4, at_ms=1)
    msg.meters.reason = "event"
    msg.meters.meters.add(name="bills_in", value=value)
    return msg


def _tilt(reason: str) -> host_pb2.TerminalMessage:
    msg = host_pb2.TerminalMessage(message_id="TK-A:1:9:0", journal_seq=9, at_ms=1)
    msg.tilt.code, msg.tilt.raised, msg.tilt.reason = "door", True, reason
    return msg


@pytest.mark.parametrize(
    ("batch", "code", "words"),
    [
        ([_bill(-10_000)], grpc.StatusCode.INVALID_ARGUMENT, "negative"),
        ([_bill(LIMITS.largest_bill + 1)], grpc.StatusCode.INVALID_ARGUMENT, "over the host's"),
        ([_bill(2000), _meters(-1)], grpc.StatusCode.INVALID_ARGUMENT, "out of range"),
        ([_tilt("x" * 2000)], grpc.StatusCode.INVALID_ARGUMENT, "at most 1024"),
        ([_tilt("x" * 3_900_000)], grpc.StatusCode.RESOURCE_EXHAUSTED, ""),
        ([_bill(100, s) for s in range(MAX_BATCH + 1)], grpc.StatusCode.INVALID_ARGUMENT, "1000"),
        ([_bill(100, s) for s in range(50_000)], grpc.StatusCode.RESOURCE_EXHAUSTED, ""),
    ],
    ids=[
        "negative-bill",
        "bill-over-limit",
        "negative-meter",
        "long-tilt-reason",
        "3.9MB-tilt-reason",
        "batch-over-1000",
        "50000-messages",
    ],
)
def test_reports_out_of_bounds_are_refused_whole_and_store_nothing(
    rig: TrustRig,
    clients: dict[str, HostClient],
    batch: list[host_pb2.TerminalMessage],
    code: grpc.StatusCode,
    words: str,
) -> None:
    error = _refused(lambda: clients["TK-A"].report(batch))
    assert error.code() == code
    assert words in (error.details() or "")
    assert rig.records.events("TK-A") == [] and rig.records.meter_history("TK-A") == []
    assert clients["TK-A"].report([_bill(LIMITS.largest_bill)]).accepted == 1  # in bounds


def test_ticket_numbers_must_be_eighteen_digits(clients: dict[str, HostClient]) -> None:
    request = host_pb2.ValidateTicketRequest(terminal_id="TK-A", validation_number="9" * 5000)
    error = _refused(lambda: clients["TK-A"].stub.ValidateTicket(request, timeout=5))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "18 digits" in str(error.details())


def test_the_database_holds_the_voucher_rules_itself(rig: TrustRig) -> None:
    db = rig.records
    rows = [
        ("123456789012345678", -5, "issued", "TK-A", 1, "", 1),  # negative value
        ("123456789012345678", 5, "paid", "TK-A", 1, "", 1),  # no such state
        ("123456789012345678", 5, "redeemed", "TK-A", 1, "", 1),  # redeemed by nobody
        ("12345", 5, "issued", "TK-A", 1, "", 1),  # not 18 digits
    ]
    for row in rows:
        with pytest.raises(Exception, match=r"(?i)check"), db.transaction() as tx:
            tx.execute("INSERT INTO vouchers VALUES (?, ?, ?, ?, ?, ?, ?)", row)
    assert db.vouchers() == []


def test_a_terminal_whose_reports_are_refused_stops_play_until_they_are_accepted(
    tmp_path: Path, pki_set: Pki, make_terminal: Callable[..., TerminalRig]
) -> None:
    from kiosk.terminal.hostlink.link import REFUSED_REASON

    strict = TrustRig(pki_set, lambda: SqliteHostDb(tmp_path / "host.sqlite3"))
    strict.limits = Limits(largest_bill=100)  # no note above $1 is believed
    strict.stop()
    strict.start()
    rig = make_terminal(strict.endpoint("TK-A")).start()
    try:
        rig.pump_until(lambda: rig.runtime.accepting_money())
        assert rig.validator.insert(2000)  # a $20 note
        rig.pump_until(lambda: (rig.runtime.state.disabled or "").startswith(REFUSED_REASON))
        assert "over the host's limit of 100 cents" in (rig.runtime.state.disabled or "")
        assert not rig.outbox_empty()
        assert strict.records.events("TK-A", kind="bill_stacked") == []
        strict.stop()
        strict.limits = LIMITS  # the operator corrects the host's limit
        strict.start()
        rig.pump_until(lambda: rig.runtime.state.disabled is None and rig.outbox_empty())
        assert strict.records.events("TK-A", kind="bill_stacked") != []
    finally:
        strict.stop()


def test_a_small_message_with_an_oversized_hash_is_refused() -> None:
    from kiosk.host.accounting.bounds import BoundsError, check_message

    msg = host_pb2.TerminalMessage(message_id="TK-A:2:1:0", journal_seq=1, at_ms=1)
    clear = msg.ram_cleared
    clear.previous_epoch, clear.previous_hash, clear.by, clear.reason = 1, b"h" * 65, "op", "x"
    with pytest.raises(BoundsError, match="previous_hash is 65 bytes"):
        check_message(msg, LIMITS)
