"""``PathClear`` from the eSSP and EBDS host machines, row by row: the first reply after the
link came up that says nothing of an item, and again each time the path becomes idle; an item
the host never saw (it started mid-item) is still reported stacked or returned."""

from __future__ import annotations

import pytest

from kiosk.terminal.bridge.ebds import escrow as ebds_escrow
from kiosk.terminal.bridge.ebds.codes import S0, S1
from kiosk.terminal.bridge.ebds.host import EbdsValidator, Status
from kiosk.terminal.bridge.essp.host import EsspValidator, Phase
from kiosk.terminal.bridge.native import (
    Condition,
    Identified,
    ItemRejected,
    ItemReturned,
    ItemStacked,
    LinkChanged,
    NativeEvent,
    NoteEscrowed,
    PathClear,
)

IDLE = b""  # an SSP poll with no events
HELD, STACKING, CREDIT, STACKED = b"\xef\x01", b"\xcc", b"\xee\x01", b"\xeb"
REJECTING, REJECTED = b"\xed", b"\xec"
FRONT, BOX = b"\xe1\x01", b"\xe2\x01"
UNKNOWN = b"\x42"  # an event the host cannot size

ESSP_ROWS = [
    ("start idle", [IDLE], [PathClear]),
    ("idle polls report once", [IDLE, IDLE, IDLE], [PathClear]),
    ("start with a note held", [HELD], [NoteEscrowed]),
    (
        "stacked",
        [IDLE, HELD, STACKING, CREDIT, STACKED, IDLE],
        [PathClear, NoteEscrowed, ItemStacked, PathClear],
    ),
    (
        "returned",
        [IDLE, HELD, REJECTING, REJECTED, IDLE],
        [PathClear, NoteEscrowed, ItemReturned, PathClear],
    ),
    ("rejected at the bezel", [IDLE, REJECTING, REJECTED, IDLE], [PathClear, PathClear]),
    ("started mid-stack", [STACKING, CREDIT, STACKED, IDLE], [ItemStacked, PathClear]),
    ("started as it cleared to the box", [BOX, IDLE], [ItemStacked, PathClear]),
    ("started as it cleared to the front", [FRONT, IDLE], [ItemReturned, PathClear]),
    ("a stray credit once the path is known", [IDLE, CREDIT, IDLE], [PathClear, PathClear]),
    ("an unreadable reply proves nothing", [UNKNOWN], []),
]
ITEM_EVENTS = (NoteEscrowed, ItemStacked, ItemReturned, ItemRejected, PathClear)


def _kinds(events: list[NativeEvent]) -> list[type]:
    return [
        type(e) for e in events if isinstance(e, ITEM_EVENTS) and not isinstance(e, ItemRejected)
    ]


@pytest.mark.parametrize(("name", "polls", "events"), ESSP_ROWS, ids=[r[0] for r in ESSP_ROWS])
def test_essp_path_clear(name: str, polls: list[bytes], events: list[type]) -> None:
    host = EsspValidator(encrypted=False)
    host._ready()
    assert host.phase is Phase.READY
    for body in polls:
        host._on_poll(body)
    assert _kinds(host.events()) == events


def test_essp_link_up_again_reports_path_clear_again() -> None:
    host = EsspValidator(encrypted=False)
    host._ready()
    host._on_poll(IDLE)
    host._lose_link()
    host._ready()
    host._on_poll(IDLE)
    assert _kinds(host.events()) == [PathClear, PathClear]


A = int(S1.CASSETTE_ATTACHED)
E_IDLE, E_ACCEPTING, E_ESCROW = (int(S0.IDLING), A), (int(S0.ACCEPTING), A), (int(S0.ESCROWED), A)
E_STACKING, E_STACKED = (int(S0.STACKING), A), (int(S0.STACKED | S0.IDLING), A)
E_RETURNING, E_RETURNED = (int(S0.RETURNING), A), (int(S0.RETURNED | S0.IDLING), A)
E_REJECTED = (int(S0.IDLING), A | int(S1.REJECTED))
E_JAM = (0, A | int(S1.JAMMED))

EBDS_ROWS = [
    ("start idle", [E_IDLE], [PathClear]),
    ("idle replies report once", [E_IDLE, E_IDLE], [PathClear]),
    ("start with a note in escrow", [E_ESCROW], [NoteEscrowed]),
    (
        "stacked",
        [E_IDLE, E_ACCEPTING, E_ESCROW, E_STACKING, E_STACKED, E_IDLE],
        [PathClear, NoteEscrowed, ItemStacked, PathClear],
    ),
    (
        "returned",
        [E_IDLE, E_ESCROW, E_RETURNING, E_RETURNED, E_IDLE],
        [PathClear, NoteEscrowed, ItemReturned, PathClear],
    ),
    ("rejected at the bezel", [E_IDLE, E_ACCEPTING, E_REJECTED, E_IDLE], [PathClear, PathClear]),
    ("started mid-stack", [E_STACKING, E_STACKED, E_IDLE], [ItemStacked, PathClear]),
    ("started mid-return", [E_RETURNING, E_RETURNED, E_IDLE], [ItemReturned, PathClear]),
    ("a stray stacked once the path is known", [E_IDLE, E_STACKED, E_IDLE], [PathClear, PathClear]),
    ("a jam proves nothing", [E_JAM], []),
]


@pytest.mark.parametrize(("name", "replies", "events"), EBDS_ROWS, ids=[r[0] for r in EBDS_ROWS])
def test_ebds_path_clear(name: str, replies: list[tuple[int, int]], events: list[type]) -> None:
    host = EbdsValidator()
    host.enable((100, 500), tickets=False)
    for s0, s1 in replies:
        host._on_status(Status(s0, s1, 0x10, 0, 0x41, 1))  # note index 1, $1
    assert _kinds(host.events()) == events


def test_ebds_link_up_again_reports_path_clear_again() -> None:
    host = EbdsValidator(poll_interval_ms=10, reply_timeout_ms=10, retries=0)
    host._on_status(Status(*E_IDLE, 0, 0, 0x41, 1))
    host.transmit(0)
    host.transmit(20)  # no reply: the link is down
    host._on_status(Status(*E_IDLE, 0, 0, 0x41, 1))
    seen = host.events()
    assert LinkChanged(up=False) in seen
    assert _kinds(seen) == [PathClear, PathClear]
    assert any(isinstance(e, Identified) for e in seen) and any(
        isinstance(e, Condition) for e in seen
    )


def test_the_unseen_item_rows_never_credit_a_return() -> None:
    assert set(ebds_escrow.UNSEEN_ITEM.items()) == {
        (ebds_escrow.Token.STACKED, ebds_escrow.Action.STACKED),
        (ebds_escrow.Token.RETURNED, ebds_escrow.Action.RETURNED),
    }
