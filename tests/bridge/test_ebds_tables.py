"""The EBDS escrow table, row by row, and the host machine's ACK handling on a fake clock."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.terminal.bridge.ebds import escrow
from kiosk.terminal.bridge.ebds.codes import S0, S1
from kiosk.terminal.bridge.ebds.device import EbdsDevice
from kiosk.terminal.bridge.ebds.frame import Message, encode
from kiosk.terminal.bridge.ebds.host import EbdsValidator
from kiosk.terminal.bridge.native import (
    Identified,
    ItemReturned,
    ItemStacked,
    LinkChanged,
    NoteEscrowed,
)
from tests.bridge.native_rig import Rig

S, T, A = escrow.State, escrow.Token, escrow.Action

ROWS = [
    (S.IDLE, T.ACCEPTING, S.ACCEPTING, A.NONE),
    (S.ACCEPTING, T.ESCROWED, S.ESCROW, A.ESCROWED),
    (S.ESCROW, T.ESCROWED, S.ESCROW, A.NONE),  # repeated while it waits: reported once
    (S.ESCROW, T.STACKING, S.STACKING, A.NONE),
    (S.STACKING, T.STACKED, S.IDLE, A.STACKED),
    (S.ESCROW, T.STACKED, S.IDLE, A.STACKED),
    (S.ESCROW, T.RETURNING, S.RETURNING, A.NONE),
    (S.RETURNING, T.RETURNED, S.IDLE, A.RETURNED),
    (S.ACCEPTING, T.REJECTED, S.IDLE, A.REJECTED),
    (S.ACCEPTING, T.IDLING, S.IDLE, A.NONE),
    (S.IDLE, T.STACKED, S.IDLE, A.NONE),  # nothing was in escrow: nothing to credit
    (S.IDLE, T.RETURNED, S.IDLE, A.NONE),
]


@pytest.mark.parametrize(("state", "tok", "after", "action"), ROWS)
def test_escrow_table(
    state: escrow.State, tok: escrow.Token, after: escrow.State, action: escrow.Action
) -> None:
    assert escrow.step(state, tok) == (after, action)


def test_tokens_put_events_before_the_state() -> None:
    assert escrow.tokens(S0.STACKED | S0.IDLING, S1.CASSETTE_ATTACHED) == [T.STACKED, T.IDLING]
    assert escrow.tokens(S0.IDLING, S1.REJECTED) == [T.REJECTED, T.IDLING]


def test_the_ack_bit_toggles_and_a_lost_reply_is_resent_not_replayed() -> None:
    host, device = EbdsValidator(poll_interval_ms=50, reply_timeout_ms=100), EbdsDevice()
    rig = Rig(host, device)
    rig.until(Identified)
    acks = []
    for _ in range(4):
        rig.run(50)
        acks.append(host._ack)
    assert set(acks) == {0, 1}  # a new message, a new ACK number
    host.enable((500,), tickets=False)
    rig.run(300)
    device.insert_note(500)
    rig.until(NoteEscrowed)
    host.stack()
    for _ in range(3):
        device.garble_next_reply()
        rig.run(150)
    rig.run(800)
    assert sum(isinstance(e, ItemStacked) for e in rig.seen) == 1
    assert device.cashbox.notes == (500,)
    assert LinkChanged(up=False) not in rig.seen


def test_a_silent_device_takes_the_link_down_and_back() -> None:
    host, device = EbdsValidator(poll_interval_ms=50, reply_timeout_ms=100), EbdsDevice()
    rig = Rig(host, device)
    rig.until(LinkChanged)
    rig.line_up = False
    rig.run(1000)
    assert LinkChanged(up=False) in rig.seen
    rig.line_up = True
    assert rig.until(LinkChanged) == LinkChanged(up=True)


def test_a_power_cycle_mid_escrow_is_no_credit() -> None:
    host, device = EbdsValidator(poll_interval_ms=50, reply_timeout_ms=100), EbdsDevice()
    rig = Rig(host, device)
    rig.until(Identified)
    host.enable((500,), tickets=False)
    rig.run(300)
    device.insert_note(500)
    rig.until(NoteEscrowed)
    device.power_cycle()
    assert isinstance(rig.until(ItemReturned), ItemReturned)
    assert not any(isinstance(e, ItemStacked) for e in rig.seen)
    rig.run(300)
    device.insert_note(500)  # the host's omnibus restored the enables
    assert rig.until(NoteEscrowed) == NoteEscrowed(500)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0x10, 0x20, 0x70]), st.binary(max_size=34)), max_size=6))
def test_host_and_device_never_raise_on_well_framed_nonsense(
    messages: list[tuple[int, bytes]],
) -> None:
    host, device = EbdsValidator(), EbdsDevice()
    host.transmit(0)
    for i, (kind, data) in enumerate(messages):
        wire = encode(Message(kind, i % 2, bytes(b & 0x7F for b in data)))
        host.receive(wire, i)
        device.receive(wire, i)
        host.transmit(i * 1000)
        device.transmit(i)
    host.events()
