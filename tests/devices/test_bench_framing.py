"""Frame and link throughput, with baselines measured in the same run (tox -e bench).

Baselines: ``zlib.crc32`` and ``cobs.encode`` alone over the same payloads, so the ratio says
what framing adds on top of its two primitives.
"""

import zlib

import pytest
from cobs import cobs

from kiosk.terminal.devices.framing import FrameDecoder, encode_frame
from kiosk.terminal.devices.link import Delivered, Link, LinkConfig
from kiosk.terminal.devices.seal import LinkSeal, Opened, Role
from proto.turbokiosk.v1.device_pb2 import LinkPacket

pytestmark = pytest.mark.bench

PAYLOADS = [bytes((i * 7 + j) % 256 for j in range(120)) for i in range(1000)]  # voucher-sized


def test_bench_crc32_baseline(benchmark):
    benchmark(lambda: [zlib.crc32(p) for p in PAYLOADS])


def test_bench_cobs_baseline(benchmark):
    benchmark(lambda: [cobs.encode(p) for p in PAYLOADS])


def test_bench_encode_frames(benchmark):
    benchmark(lambda: [encode_frame(p) for p in PAYLOADS])


def test_bench_decode_frames(benchmark):
    stream = b"".join(encode_frame(p) for p in PAYLOADS)

    def decode() -> None:
        assert len(FrameDecoder().feed(stream)) == len(PAYLOADS)

    benchmark(decode)


def test_bench_link_round_trip(benchmark):
    """1000 payloads from one link end to the other and acknowledged, no loss."""

    def run() -> None:
        cfg = LinkConfig(window=8)
        key = bytes(32)
        a = Link(1, 0, cfg, key=key, role=Role.TERMINAL)
        b = Link(2, 0, cfg, key=key, role=Role.DEVICE)
        for _ in range(3):
            b.receive(a.data_to_send(), 0)
            a.receive(b.data_to_send(), 0)
        got = 0
        for p in PAYLOADS:
            a.send(p, 0)
            b.receive(a.data_to_send(), 0)
            a.receive(b.data_to_send(), 0)
            got += sum(isinstance(ev, Delivered) for ev in b.events())
        assert got == len(PAYLOADS)

    benchmark(run)


def _link_packets() -> list[bytes]:
    return [
        LinkPacket(session=7, peer_session=9, seq=i + 1, ack=i, payload=p).SerializeToString()
        for i, p in enumerate(PAYLOADS)
    ]


def test_bench_frames_unsealed_baseline(benchmark):
    """What the link did per frame before sealing: frame, deframe (the baseline)."""
    packets = _link_packets()

    def run() -> None:
        decoder = FrameDecoder(2048)
        stream = b"".join(encode_frame(p, 2048) for p in packets)
        assert len(decoder.feed(stream)) == len(packets)

    benchmark(run)


def test_bench_frames_sealed(benchmark):
    """The same frames sealed (ChaCha20-Poly1305) and opened: the cost of the sealed link."""
    packets = _link_packets()
    key = bytes(32)

    def run() -> None:
        sender = LinkSeal(key, Role.DEVICE, 9)
        receiver = LinkSeal(key, Role.TERMINAL, 7)
        decoder = FrameDecoder(2048)
        stream = b"".join(encode_frame(sender.seal(7, p), 2048) for p in packets)
        opened = [receiver.open(f) for f in decoder.feed(stream)]
        assert all(isinstance(o, Opened) for o in opened) and len(opened) == len(packets)

    benchmark(run)
