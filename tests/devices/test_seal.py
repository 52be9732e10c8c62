"""The sealed link packet: what opens, and why everything else is refused."""

from __future__ import annotations

import pytest
from cobs import cobs

from kiosk.terminal.devices.framing import encode_frame
from kiosk.terminal.devices.link import Delivered, Link, LinkConfig, Tampered
from kiosk.terminal.devices.seal import HEADER_BYTES, LinkSeal, Opened, Refusal, Role

KEY = bytes(range(32))
OTHER_KEY = bytes(range(1, 33))
CONFIG = LinkConfig(retransmit_ms=100, heartbeat_ms=150, link_timeout_ms=600)


def pair(key_t: bytes = KEY, key_d: bytes = KEY) -> tuple[LinkSeal, LinkSeal]:
    return LinkSeal(key_t, Role.TERMINAL, 0x1111), LinkSeal(key_d, Role.DEVICE, 0x2222)


def test_a_sealed_packet_opens_at_the_peer_once():
    terminal, device = pair()
    frame = device.seal(0x1111, b"stacked 500")
    opened = terminal.open(frame)
    assert opened == Opened(sender=0x2222, receiver=0x1111, packet=b"stacked 500")
    assert b"stacked" not in frame  # sealed, not merely signed
    assert terminal.open(frame) is Refusal.REPLAYED


def test_hello_to_an_unknown_peer_opens_under_the_hello_key():
    terminal, device = pair()
    assert isinstance(terminal.open(device.seal(0, b"hello")), Opened)


@pytest.mark.parametrize("position", [0 + 1, 5, HEADER_BYTES - 1, HEADER_BYTES, -1])
def test_any_changed_byte_is_refused(position):
    terminal, device = pair()
    frame = bytearray(device.seal(0x1111, b"stacked 500"))
    frame[position] ^= 0x40
    assert terminal.open(bytes(frame)) is Refusal.FORGED


def test_a_frame_is_refused_when_reordered():
    terminal, device = pair()
    first, second = device.seal(0x1111, b"one"), device.seal(0x1111, b"two")
    assert isinstance(terminal.open(second), Opened)
    assert terminal.open(first) is Refusal.REPLAYED


def test_a_frame_reflected_back_to_its_sender_is_refused():
    terminal, _device = pair()
    assert terminal.open(terminal.seal(0x2222, b"stack")) is Refusal.FORGED
    assert terminal.open(terminal.seal(0, b"hello")) is Refusal.FORGED


def test_a_device_paired_with_another_key_is_refused():
    terminal, device = pair(KEY, OTHER_KEY)
    assert terminal.open(device.seal(0x1111, b"stacked")) is Refusal.FORGED
    assert terminal.open(device.seal(0, b"hello")) is Refusal.FORGED


def test_a_frame_of_an_earlier_session_does_not_open_in_a_later_one():
    _terminal, device = pair()
    old = device.seal(0x1111, b"stacked 500")
    restarted = LinkSeal(KEY, Role.TERMINAL, 0x3333)  # the terminal's next session
    header = bytearray(old)
    header[5:9] = (0x3333).to_bytes(4, "big")  # re-addressed to the new session
    assert restarted.open(bytes(header)) is Refusal.FORGED
    # as it was, it opens (addressed to the earlier session: the link drops it as stale)
    opened = restarted.open(old)
    assert isinstance(opened, Opened) and opened.receiver == 0x1111


def test_short_or_unknown_version_frames_are_refused():
    terminal, device = pair()
    assert terminal.open(b"\x01" * 10) is Refusal.MALFORMED
    frame = bytearray(device.seal(0x1111, b"x"))
    frame[0] = 2
    assert terminal.open(bytes(frame)) is Refusal.MALFORMED


def test_a_key_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError, match="32 bytes"):
        LinkSeal(b"short", Role.TERMINAL, 1)


def connected_links() -> tuple[Link, Link]:
    t = Link(0x1111, 0, CONFIG, key=KEY, role=Role.TERMINAL)
    d = Link(0x2222, 0, CONFIG, key=KEY, role=Role.DEVICE)
    for _ in range(3):
        d.receive(t.data_to_send(), 0)
        t.receive(d.data_to_send(), 0)
    t.events()
    d.events()
    return t, d


def test_the_link_reports_a_rewritten_frame_as_tampering_and_delivers_nothing():
    t, d = connected_links()
    d.send(b"stacked 500", 10)
    (frame,) = [f for f in d.data_to_send().split(b"\x00") if f]

    body = bytearray(cobs.decode(frame)[:-4])
    body[-3] ^= 0x08
    t.receive(encode_frame(bytes(body), t.frame_limit), 11)  # a good CRC
    assert t.events() == [Tampered(1, "failed authentication")]
    assert (t.stats.tampered, t.stats.forged, t.stats.delivered) == (1, 1, 0)
    t.receive(encode_frame(cobs.decode(frame)[:-4], t.frame_limit), 12)  # the genuine one
    assert t.events() == [Delivered(b"stacked 500")]
    t.receive(encode_frame(cobs.decode(frame)[:-4], t.frame_limit), 13)  # again: replayed
    assert t.events() == [Tampered(2, "replayed or reordered")]
    assert t.stats.replayed == 1


def test_line_noise_with_a_bad_crc_is_not_tampering():
    t, _d = connected_links()
    t.receive(b"\x05\x01\x02\x03\x04\x00" + bytes(range(1, 200)) + b"\x00", 10)
    assert t.events() == []
    assert t.stats.tampered == 0
    assert t.decoder.stats.crc_errors + t.decoder.stats.cobs_errors >= 1
    t.receive(b"\x01\x01\x01\x01\x01\x00", 11)  # the empty payload, with its good CRC
    assert t.events() == [] and (t.stats.unsealed, t.stats.tampered) == (1, 0)
