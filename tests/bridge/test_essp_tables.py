"""The SSP escrow table, row by row, and the host machine's link behaviour on a fake clock."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.terminal.bridge.essp import escrow
from kiosk.terminal.bridge.essp.device import EsspDevice
from kiosk.terminal.bridge.essp.frame import Decoder, Packet, encode
from kiosk.terminal.bridge.essp.host import EsspValidator, Phase
from kiosk.terminal.bridge.native import ItemReturned, ItemStacked, LinkChanged, NoteEscrowed
from tests.bridge.native_rig import Rig

S, T, A = escrow.State, escrow.Token, escrow.Action

ROWS = [
    (S.IDLE, T.READING, S.READING, A.NONE),
    (S.READING, T.NOTE_HELD, S.NOTE_ESCROW, A.NOTE_ESCROWED),
    (S.IDLE, T.NOTE_HELD, S.NOTE_ESCROW, A.NOTE_ESCROWED),
    (S.READING, T.TICKET_HELD, S.TICKET_ESCROW, A.ASK_BARCODE),
    (S.NOTE_ESCROW, T.STACKING, S.STACKING, A.NONE),
    (S.STACKING, T.CREDIT, S.CREDITED, A.STACKED),
    (S.NOTE_ESCROW, T.CREDIT, S.CREDITED, A.STACKED),
    (S.CREDITED, T.STACKED, S.IDLE, A.NONE),
    (S.CREDITED, T.CREDIT, S.CREDITED, A.NONE),  # a repeated credit is not a second note
    (S.STACKING, T.TICKET_STACKED, S.IDLE, A.STACKED),
    (S.READING, T.REJECTING, S.REJECTING, A.NONE),
    (S.REJECTING, T.REJECTED, S.IDLE, A.ASK_REJECT_REASON),
    (S.NOTE_ESCROW, T.REJECTING, S.RETURNING, A.NONE),
    (S.RETURNING, T.REJECTED, S.IDLE, A.RETURNED),
    (S.TICKET_ESCROW, T.REJECTED, S.IDLE, A.RETURNED),
    (S.STACKING, T.CLEARED_FRONT, S.IDLE, A.RETURNED),
    (S.STACKING, T.CLEARED_CASHBOX, S.IDLE, A.STACKED),
    (S.NOTE_ESCROW, T.RESET, S.NOTE_ESCROW, A.NONE),  # cleared front or box comes next
    (S.READING, T.RESET, S.IDLE, A.NONE),
    (S.IDLE, T.STACKED, S.IDLE, A.NONE),  # nothing was in escrow: nothing to credit
    (S.IDLE, T.CREDIT, S.IDLE, A.NONE),
]


@pytest.mark.parametrize(("state", "tok", "after", "action"), ROWS)
def test_escrow_table(
    state: escrow.State, tok: escrow.Token, after: escrow.State, action: escrow.Action
) -> None:
    assert escrow.step(state, tok) == (after, action)


def test_only_credit_or_a_clear_into_the_box_credits() -> None:
    crediting = {key for key, (_s, act) in escrow.TABLE.items() if act is A.STACKED}
    assert {tok for _state, tok in crediting} == {T.CREDIT, T.TICKET_STACKED, T.CLEARED_CASHBOX}


def _ready() -> tuple[Rig, EsspValidator, EsspDevice]:
    host, device = EsspValidator(poll_interval_ms=50, reply_timeout_ms=100), EsspDevice()
    rig = Rig(host, device)
    rig.until(LinkChanged)
    host.enable((1000,), tickets=False)
    rig.run(500)
    return rig, host, device


def test_a_lost_reply_is_resent_and_the_note_credited_once() -> None:
    rig, host, device = _ready()
    device.insert_note(1000)
    rig.until(NoteEscrowed)
    host.stack()
    for _ in range(3):
        device.garble_next_reply()
        rig.run(200)
    rig.run(1000)
    assert sum(isinstance(e, ItemStacked) for e in rig.seen) == 1
    assert device.cashbox.notes == (1000,)
    assert LinkChanged(up=False) not in rig.seen


def test_a_silent_device_takes_the_link_down_and_back_with_a_new_key() -> None:
    rig, host, device = _ready()
    old_key = host._cipher
    rig.line_up = False
    rig.run(1000)
    assert rig.seen[-1] == LinkChanged(up=False)
    assert host.phase is not Phase.READY
    rig.line_up = True
    rig.until(LinkChanged)
    assert host._cipher is not None and host._cipher is not old_key
    device.insert_note(1000)
    assert rig.until(NoteEscrowed) == NoteEscrowed(1000)


def test_the_device_refuses_a_replayed_encrypted_command() -> None:
    rig, host, device = _ready()
    sent = host.transmit(rig.now + 1000)  # an encrypted POLL
    device.receive(sent, rig.now)
    assert device.transmit(rig.now)
    (packet,) = Decoder().feed(sent)
    # the same sealed body under the other sequence flag: a new command to the device
    device.receive(encode(Packet(not packet.seq, 0, packet.data)), rig.now)
    assert device.transmit(rig.now) == b""  # its counter is stale: dropped
    assert "stale counter" in device.log[-1]


def test_plain_commands_are_refused_once_a_key_is_set() -> None:
    rig, _host, device = _ready()
    assert device.encrypted
    seq = not device._last_seq
    device.receive(encode(Packet(seq, 0, b"\x0a")), rig.now)  # ENABLE in clear
    assert [p.data for p in Decoder().feed(device.transmit(rig.now))] == [b"\xfa"]


def test_a_power_cycle_mid_escrow_returns_the_note_and_the_link_rekeys() -> None:
    rig, _host, device = _ready()
    device.insert_note(1000)
    rig.until(NoteEscrowed)
    device.power_cycle()  # the key is gone: the next sealed command is refused, the host re-keys
    assert rig.until(LinkChanged) == LinkChanged(up=False)
    assert rig.until(LinkChanged) == LinkChanged(up=True)
    assert isinstance(rig.until(ItemReturned), ItemReturned)  # cleared from the front
    rig.run(500)
    assert device.enabled  # the host sent its settings again
    device.insert_note(1000)
    assert rig.until(NoteEscrowed) == NoteEscrowed(1000)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.binary(max_size=40), max_size=6))
def test_host_and_device_never_raise_on_well_framed_nonsense(bodies: list[bytes]) -> None:
    host, device = EsspValidator(encrypted=False), EsspDevice()
    sent = host.transmit(0)  # SYNC: the host now awaits a reply with the flag set
    assert sent
    for i, body in enumerate(bodies):
        wire = encode(Packet(bool(i % 2 == 0), 0, body))
        host.receive(wire, i)
        device.receive(wire, i)
        host.transmit(i * 1000)
        device.transmit(i)
    host.events()


def test_plain_ssp_without_encryption() -> None:
    host, device = EsspValidator(encrypted=False, poll_interval_ms=50), EsspDevice()
    rig = Rig(host, device)
    rig.until(LinkChanged)
    assert host._cipher is None and not device.encrypted
    host.enable((2000,), tickets=False)
    rig.run(300)
    device.insert_note(2000)
    assert rig.until(NoteEscrowed) == NoteEscrowed(2000)
    host.stack()
    host.return_item()  # too late: the note is already on its way to the box
    assert isinstance(rig.until(ItemStacked), ItemStacked)
    assert device.cashbox.notes == (2000,)


def test_a_device_refusing_the_handshake_is_retried_at_a_measured_pace() -> None:
    host = EsspValidator(reply_timeout_ms=100)
    syncs = 0
    for now in range(0, 1000, 10):
        out = host.transmit(now)
        if out:
            host.receive(encode(Packet(bool(out[1] & 0x80), 0, b"\xf8")), now)  # FAIL to all
            syncs += Decoder().feed(out)[0].data == b"\x11"
    assert 5 <= syncs <= 11  # one handshake per reply time-out, not one per call


def test_a_decision_made_before_the_link_dropped_still_stands() -> None:
    rig, host, device = _ready()
    device.insert_note(1000)
    rig.until(NoteEscrowed)
    rig.line_up = False
    host.return_item()
    rig.until(LinkChanged)  # down
    rig.line_up = True
    rig.until(LinkChanged)  # up again, with a new key
    assert isinstance(rig.until(ItemReturned), ItemReturned)
    assert device.cashbox.notes == ()
