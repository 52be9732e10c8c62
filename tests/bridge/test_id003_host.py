"""The ID-003 host side: its status table as a table, and the host against the simulated
acceptor in memory (retries, link loss, power-up with a note in the path, settings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.terminal.bridge.id003 import codes as k
from kiosk.terminal.bridge.id003.codec import Decoder, Frame, encode
from kiosk.terminal.bridge.id003.device import Id003Device
from kiosk.terminal.bridge.id003.host import Id003Validator
from kiosk.terminal.bridge.native import (
    Condition,
    Identified,
    ItemRejected,
    ItemReturned,
    ItemStacked,
    LinkChanged,
    NoteEscrowed,
    PathClear,
    RejectCause,
    TicketEscrowed,
)

IDLE = Frame(k.ENABLE)
ESCROW_20 = Frame(k.ESCROW, bytes([0x65]))
#: how the host got where the row starts: statuses answered before
BEFORE = {
    "start": [],
    "idle": [IDLE],
    "escrow": [IDLE, ESCROW_20],
    "stacking": [IDLE, ESCROW_20, Frame(k.STACKING)],
    "vend": [IDLE, ESCROW_20, Frame(k.STACKING), Frame(k.VEND_VALID)],
}
ENABLED = Condition(enabled=True)

#: (where the host is, the status answered) -> the events it reports
TABLE = [
    ("start", IDLE, [PathClear(), ENABLED]),
    ("start", Frame(k.DISABLE), [PathClear(), Condition(enabled=False)]),
    ("start", Frame(k.POWER_UP), []),
    ("idle", Frame(k.ACCEPTING), []),
    ("idle", ESCROW_20, [NoteEscrowed(2000)]),
    ("idle", Frame(k.ESCROW, bytes([0x6F]) + b"123456789012345678"),
     [TicketEscrowed("123456789012345678")]),
    ("idle", Frame(k.ESCROW, bytes([0x6A])), []),  # a denomination it cannot value: returned
    ("escrow", ESCROW_20, []),
    ("escrow", Frame(k.HOLDING), []),
    ("escrow", Frame(k.STACKING), []),
    ("escrow", Frame(k.RETURNING), [ItemReturned()]),
    ("escrow", IDLE, [ItemReturned(), PathClear()]),  # the returning status was missed
    ("escrow", Frame(k.REJECTING, bytes([0x75])), [ItemReturned()]),
    ("stacking", Frame(k.VEND_VALID), [ItemStacked()]),
    ("stacking", Frame(k.JAM_IN_STACKER), [Condition(enabled=False, jammed=True)]),
    ("vend", Frame(k.VEND_VALID), []),  # repeated until the ACK arrives: counted once
    ("vend", Frame(k.STACKED), []),
    ("vend", IDLE, [PathClear()]),
    ("idle", Frame(k.REJECTING, bytes([0x77])),
     [ItemRejected(RejectCause.NOT_RECOGNISED, "photo pattern error")]),
    ("idle", Frame(k.REJECTING, bytes([0x79])),
     [ItemRejected(RejectCause.NOT_ACCEPTED, "return by inhibit")]),
    ("idle", Frame(k.STACKER_FULL), [Condition(enabled=False, cashbox_full=True)]),
    ("idle", Frame(k.STACKER_OPEN), [Condition(enabled=False, cashbox_removed=True)]),
    ("idle", Frame(k.JAM_IN_ACCEPTOR), [Condition(enabled=False, jammed=True)]),
    ("idle", Frame(k.CHEATED), [Condition(enabled=False, cheated=True)]),
    ("idle", Frame(k.FAILURE, bytes([0xA2])),
     [Condition(enabled=False, failure="stack motor failure")]),
    ("idle", Frame(k.INVALID_COMMAND), []),
]  # fmt: skip


@pytest.mark.parametrize(("where", "status", "expected"), TABLE)
def test_status_table(where: str, status: Frame, expected: list[object]) -> None:
    host = Id003Validator()
    for frame in BEFORE[where]:
        host.on_status(frame)
    host.events()
    host.on_status(status)
    assert host.events() == expected


def test_vend_valid_is_acknowledged_after_the_event_is_taken() -> None:
    host = Id003Validator()
    for frame in BEFORE["stacking"]:
        host.on_status(frame)
    host.on_status(Frame(k.VEND_VALID))
    assert host.transmit(10_000) == encode(Frame(k.ACK))


def test_power_up_is_answered_with_a_reset_first() -> None:
    host = Id003Validator()
    host.receive(b"", 0)
    first = host.transmit(0)
    assert Decoder().feed(first) == [Frame(k.STATUS_REQUEST)]
    host.receive(encode(Frame(k.POWER_UP)), 5)
    assert Decoder().feed(host.transmit(10)) == [Frame(k.RESET)]


def test_unknown_denomination_is_returned() -> None:
    host = Id003Validator()
    host.on_status(IDLE)
    host.on_status(Frame(k.ESCROW, bytes([0x6A])))
    assert Frame(k.RETURN) in host._queue


class Pair:
    """The host and the simulated acceptor on a perfect line, on a fake clock."""

    def __init__(self, state: Path) -> None:
        self.now = 0
        self.state = state
        self.device = Id003Device(state, 0)
        self.host = Id003Validator()
        self.events: list[object] = []
        self.cut = False

    def run(self, ms: int) -> None:
        for _ in range(ms // 5):
            self.now += 5
            self.device.tick(self.now)
            out = self.host.transmit(self.now)
            if out and not self.cut:
                self.device.receive(out, self.now)
            back = self.device.take_output()
            if back and not self.cut:
                self.host.receive(back, self.now)
            self.events += self.host.events()

    def take(self) -> list[object]:
        out, self.events = self.events, []
        return out


def test_start_identify_configure_and_enable(tmp_path: Path) -> None:
    pair = Pair(tmp_path)
    pair.host.enable((100, 500, 2000), tickets=True)
    pair.run(1000)
    events = pair.take()
    assert events[0] == LinkChanged(up=True)
    assert Identified("TK-ID003-SIM", "", "USA-ID003-05 V1.00") in events
    assert events[-1] == ENABLED and PathClear() in events
    assert not pair.device.inhibited and pair.device.bar_inhibit == 0xFC
    assert pair.host.denominations[0x67] == 10_000  # from CURRENCY ASSIGN
    # 10.00 inhibited: refused by the acceptor itself
    assert pair.device.control(["insert", "1000"], pair.now).startswith("ok rejected 0x79")


def test_a_note_escrowed_stacked_and_acknowledged(tmp_path: Path) -> None:
    pair = Pair(tmp_path)
    pair.host.enable((2000,), tickets=False)
    pair.run(1000)
    pair.take()
    assert pair.device.control(["insert", "2000"], pair.now) == "ok accepting"
    pair.run(500)
    assert pair.take() == [NoteEscrowed(2000)]
    pair.host.stack()
    pair.run(1000)
    assert pair.take() == [ItemStacked(), PathClear()]
    assert pair.device.mem.data["path"] is None
    assert pair.device.mem.data["cashbox"]["notes"] == {"2000": 1}


def test_a_lost_line_is_retried_then_reported_down_and_up(tmp_path: Path) -> None:
    pair = Pair(tmp_path)
    pair.run(1000)
    pair.take()
    pair.cut = True
    pair.run(2500)
    assert pair.take() == [LinkChanged(up=False)]
    assert pair.host.unanswered > 5
    pair.cut = False
    pair.run(1000)
    assert pair.take()[0] == LinkChanged(up=True)


@pytest.mark.parametrize(
    ("stage", "after"),
    [("escrow", [ItemReturned, PathClear]), ("stacking", [ItemStacked, PathClear])],
)
def test_an_acceptor_restarted_with_a_note_in_its_path(
    tmp_path: Path, stage: str, after: list[type]
) -> None:
    pair = Pair(tmp_path)
    pair.host.enable((2000,), tickets=False)
    pair.run(1000)
    pair.device.control(["insert", "2000"], pair.now)
    pair.run(500)
    if stage == "stacking":
        pair.host.stack()
        pair.run(40)
        assert pair.device.phase == "stacking"
    pair.take()
    pair.device = Id003Device(tmp_path, pair.now)  # power cut and back
    assert pair.device.power_up == (
        k.POWER_UP_BILL_IN_ACCEPTOR if stage == "escrow" else k.POWER_UP_BILL_IN_STACKER
    )
    pair.run(1500)
    events = [type(ev) for ev in pair.take() if not isinstance(ev, Condition | LinkChanged)]
    if stage == "escrow":
        assert events == [ItemReturned, PathClear] or events == [PathClear]
        assert pair.device.mem.data["handed_back"][-1]["why"] == "returned at power-up"
    else:
        assert events == after
        assert pair.device.mem.data["cashbox"]["notes"] == {"2000": 1}
