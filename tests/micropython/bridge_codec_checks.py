"""Known-answer checks of the SSP and EBDS wire codecs, runnable under MicroPython and CPython.

Plain asserts, no imports: ``run_checks(ssp, ebds)`` takes the modules under test, so the same
cases run against ``kiosk/terminal/bridge/essp/wire.py`` and ``kiosk/terminal/bridge/ebds/wire.py``
under CPython (tests/bridge/test_wire_checks.py) and under the MicroPython unix port, from source
and from ``mpy-cross`` bytecode (tests/micropython/run_bridge_codecs.py).
"""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

# ITL's published SYNC to address 0, sequence flag set.
SSP_SYNC = b"\x7f\x80\x01\x11\x65\x82"
# An EBDS omnibus command: all seven denominations, escrow mode, ACK 0 (XOR checked by hand:
# 08 ^ 10 ^ 7F ^ 10 ^ 00 = 77).
EBDS_OMNIBUS = b"\x02\x08\x10\x7f\x10\x00\x03\x77"


def _ssp(ssp: "ModuleType") -> int:
    n = 0
    assert ssp.crc16(b"123456789") == 0xAEE7  # CRC-16/CMS check value
    n += 1
    assert ssp.encode(True, 0, b"\x11") == SSP_SYNC
    n += 1
    assert ssp.WireDecoder().feed(SSP_SYNC) == [(True, 0, b"\x11")]
    n += 1
    stuffed = ssp.encode(False, 0, b"\x7f\x00\x7f")
    assert stuffed.count(b"\x7f\x7f") >= 2
    n += 1
    decoder = ssp.WireDecoder()
    got = []
    for byte in b"\x01\x7f\x99" + stuffed + SSP_SYNC:  # noise, a half packet, then two packets
        got += decoder.feed(bytes([byte]))
    assert got[-2:] == [(False, 0, b"\x7f\x00\x7f"), (True, 0, b"\x11")], got
    n += 1
    bad = bytearray(SSP_SYNC)
    bad[3] ^= 1
    decoder = ssp.WireDecoder()
    assert decoder.feed(bytes(bad)) == [] and decoder.crc_errors == 1
    n += 1
    return n


def _ebds(ebds: "ModuleType") -> int:
    n = 0
    assert ebds.encode(0x10, 0, b"\x7f\x10\x00") == EBDS_OMNIBUS
    n += 1
    assert ebds.WireDecoder().feed(EBDS_OMNIBUS) == [(0x10, 0, b"\x7f\x10\x00")]
    n += 1
    bad = bytearray(EBDS_OMNIBUS)
    bad[-1] ^= 1
    decoder = ebds.WireDecoder()
    got = decoder.feed(b"\x55\x02" + bytes(bad) + EBDS_OMNIBUS)
    assert got == [(0x10, 0, b"\x7f\x10\x00")] and decoder.bad_messages >= 1, got
    n += 1
    decoder = ebds.WireDecoder(100)
    assert decoder.feed(b"\x02\x28\x20", 0) == []  # claims 40 bytes and stops
    assert decoder.feed(EBDS_OMNIBUS, 500) == [(0x10, 0, b"\x7f\x10\x00")]
    assert decoder.stale == 1
    n += 1
    try:
        ebds.encode(0x20, 0, b"\x80")
    except ValueError:
        n += 1
    else:
        raise AssertionError("an 8-bit byte was encoded")
    return n


def run_checks(ssp: "ModuleType", ebds: "ModuleType") -> int:
    """Run every check; the number of checks passed (an AssertionError on the first failure)."""
    return _ssp(ssp) + _ebds(ebds)
