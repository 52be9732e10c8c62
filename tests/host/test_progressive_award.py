"""The host books a progressive hit a terminal paid (decision 0066), over mutual TLS, on SQLite
and on PostgreSQL: a ``progressive_awarded`` up to the progressive's ceiling is recorded as
itself (the game's own report stays within its pay tables); one over what the progressive's
meter can ever hold, or of a progressive the host does not know, is refused with an
``implausible_progressive`` alarm."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.host.accounting.db import HostDb
from kiosk.terminal.hostlink.client import HostClient
from proto.turbokiosk.v1 import host_pb2
from tests.helpers.host_rig import HostRig, Pki, records_factory

CEILING = 10_000_000  # stadium-6cb-royal's ceiling, $100,000.00


@pytest.fixture(params=["sqlite", "postgresql"])
def rig(request: pytest.FixtureRequest, tmp_path: Path, pki_set: Pki) -> Iterator[HostRig]:
    made = HostRig(pki_set, records_factory(request, tmp_path))
    yield made
    made.stop()


@pytest.fixture
def client(rig: HostRig, pki_set: Pki) -> Iterator[HostClient]:
    made = HostClient(rig.address, pki_set.terminal("TK-A"), "TK-A", timeout=20)
    made.hello("0.1.0", "sig", 0)
    yield made
    made.close()


def _award(seq: int, cents: int, name: str = "stadium-6cb-royal") -> host_pb2.TerminalMessage:
    msg = host_pb2.TerminalMessage(message_id=f"TK-A:1:{seq}:0", journal_seq=seq, at_ms=seq)
    award = msg.progressive_awarded
    award.seat, award.key = 0, f"TK-A/{seq}/0/six_card_bonus"
    award.progressive, award.outcome = name, "Royal flush"
    award.award_cents, award.handpay = cents, cents >= 120_000
    return msg


def test_a_progressive_award_is_booked_up_to_its_ceiling(rig: HostRig, client: HostClient) -> None:
    assert rig.db is not None
    db: HostDb = rig.db
    answer = client.report([_award(1, 253_140), _award(2, CEILING)])
    assert answer.accepted == 2
    booked = {b.body["key"]: b.body for b in db.events("TK-A", "progressive_awarded")}
    assert {k: (b["award_cents"], b["handpay"]) for k, b in booked.items()} == {
        "TK-A/1/0/six_card_bonus": (253_140, True),
        "TK-A/2/0/six_card_bonus": (CEILING, True),
    }
    assert not [a for a in db.terminal_alarms("TK-A", "alarm") if "progressive" in a.kind]
    assert client.report([_award(1, 253_140)]).duplicates == 1  # a resend: once


def test_an_award_the_progressive_cannot_pay_is_refused(rig: HostRig, client: HostClient) -> None:
    assert rig.db is not None
    db: HostDb = rig.db
    answer = client.report([_award(1, CEILING + 1), _award(2, 500, name="no-such-meter")])
    assert answer.accepted == 2  # recorded apart: the terminal's outbox moves on
    assert db.events("TK-A", "progressive_awarded") == []
    alarms = [a for a in db.terminal_alarms("TK-A", "alarm") if a.kind == "implausible_progressive"]
    whys = sorted(a.detail["why"] for a in alarms)
    assert len(whys) == 2
    assert "stadium-6cb-royal's meter holds at most 10000000" in whys[0]
    assert "knows no progressive 'no-such-meter'" in whys[1]
