"""The CRC-16 SAS puts on every long poll and long-poll response.

SAS uses the CCITT polynomial x^16 + x^12 + x^5 + 1 in its *reflected* form (0x8408), shifted
LSB first, with an initial value of zero and no final XOR: the catalogue name is
CRC-16/KERMIT.  On the line the CRC follows the message **low byte first**.

The same register, started from a host-chosen seed instead of zero, is SAS's ROM signature
(long poll 21): see :func:`crc16`'s ``seed``.

:data:`TEST_VECTORS` are published check values (the CRC catalogue's check string and values
worked by hand from the definition above); ``tests/sas/test_crc.py`` checks the table-driven
register here against them and against a bit-at-a-time reference.
"""

from __future__ import annotations

POLYNOMIAL = 0x8408  # 0x1021 bit-reversed
CRC_BYTES = 2


def _table() -> tuple[int, ...]:
    rows = []
    for byte in range(256):
        register = byte
        for _ in range(8):
            register = (register >> 1) ^ POLYNOMIAL if register & 1 else register >> 1
        rows.append(register)
    return tuple(rows)


_TABLE = _table()


def crc16(data: bytes, seed: int = 0) -> int:
    """CRC-16/KERMIT of ``data``, the register started at ``seed`` (0 for frames)."""
    if not 0 <= seed <= 0xFFFF:
        raise ValueError(f"CRC seed {seed} is not a 16-bit value")
    register = seed
    for byte in data:
        register = (register >> 8) ^ _TABLE[(register ^ byte) & 0xFF]
    return register


def crc_bytes(data: bytes) -> bytes:
    """The two CRC bytes that follow ``data`` on the line (low byte first)."""
    return crc16(data).to_bytes(CRC_BYTES, "little")


def with_crc(data: bytes) -> bytes:
    """``data`` followed by its CRC."""
    return data + crc_bytes(data)


def crc_ok(frame: bytes) -> bool:
    """Whether the last two bytes of ``frame`` are the CRC of the rest."""
    if len(frame) < CRC_BYTES:
        return False
    return crc_bytes(frame[:-CRC_BYTES]) == frame[-CRC_BYTES:]


#: (message, seed, CRC register value).  The first is the CRC catalogue's check value for
#: CRC-16/KERMIT ("123456789" -> 0x2189); the frames are SAS long polls as a host sends them.
TEST_VECTORS: tuple[tuple[bytes, int, int], ...] = (
    (b"", 0, 0x0000),
    (b"123456789", 0, 0x2189),
    (b"\x00", 0, 0x0000),
    (b"\x01", 0, 0x1189),
    (b"\x80", 0, 0x8408),
    (b"\xff", 0, 0x0F78),
    (b"\x01\x01", 0, 0x0851),  # shutdown to address 1: 01 01 51 08 on the line
    (b"\x01\x02", 0, 0x3ACA),  # startup to address 1: 01 02 CA 3A on the line
)
