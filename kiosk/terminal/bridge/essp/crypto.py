"""eSSP: the Diffie-Hellman key exchange and the AES-128 encrypted packet (sans-IO).

The exchange uses 64-bit numbers sent little-endian: the host sets a prime generator and a
prime modulus, sends its intermediate key ``g^a mod p`` and receives the device's ``g^b mod
p``; both get ``g^ab mod p``.  The AES-128 key is the 64-bit *fixed* key (the device's, ITL's
default 0x0123456701234567 unless changed) then the 64-bit negotiated key, both little-endian.
A 64-bit exchange is weak; this is a compatibility requirement, not a security boundary
(docs/security.md, "Native validator protocols").

An encrypted packet's SSP data is ``0x7E`` then AES-ECB over
``eLENGTH | eCOUNT (4, LE) | eDATA | ePACKING | eCRC (2, LE)``, padded so the whole is a
multiple of 16 bytes, the CRC (SSP's) over everything before it.  Both ends keep one counter
from 0 at the key exchange; every packet accepted by either end moves it on by one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from kiosk.terminal.bridge.essp.frame import crc16

STEX = 0x7E
DEFAULT_FIXED_KEY = 0x0123456701234567
_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)  # exact for n < 3.3e24


def is_prime(n: int) -> bool:
    """Miller-Rabin with bases that make it exact below 2**64."""
    if n < 2:
        return False
    for p in _BASES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in _BASES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def random_prime(random_bytes: Callable[[int], bytes], bits: int = 63) -> int:
    """A random prime of exactly ``bits`` bits."""
    while True:
        n = int.from_bytes(random_bytes(8), "little") & ((1 << bits) - 1)
        n |= (1 << (bits - 1)) | 1
        if is_prime(n):
            return n


def random_secret(random_bytes: Callable[[int], bytes]) -> int:
    """A private exponent (nonzero, below 2**63)."""
    return (int.from_bytes(random_bytes(8), "little") & ((1 << 63) - 1)) | 1


def u64(value: int) -> bytes:
    """A 64-bit number as the exchange sends it."""
    return value.to_bytes(8, "little")


def aes_key(fixed_key: int, negotiated: int) -> bytes:
    """The 16-byte AES key: fixed key then negotiated key, each little-endian."""
    return u64(fixed_key) + u64(negotiated)


class CryptoError(ValueError):
    """An encrypted packet that does not decrypt to a well-formed one."""


@dataclass(frozen=True)
class Opened:
    """A decrypted packet."""

    count: int
    data: bytes


class PacketCipher:
    """Seals and opens eSSP packets under one AES-128 key."""

    def __init__(self, key: bytes, random_bytes: Callable[[int], bytes]) -> None:
        self._cipher = Cipher(algorithms.AES(key), modes.ECB())  # ECB: as eSSP defines it
        self._random = random_bytes

    def seal(self, count: int, data: bytes) -> bytes:
        """SSP data (0x7E + ciphertext) carrying ``data`` under counter ``count``."""
        if len(data) > 255 - 1 - 7 - 15:
            raise ValueError("too long for one encrypted packet")
        head = bytes([len(data)]) + (count & 0xFFFFFFFF).to_bytes(4, "little") + data
        pad = -(len(head) + 2) % 16
        plain = head + self._random(pad)
        crc = crc16(plain)
        plain += bytes([crc & 0xFF, crc >> 8])
        encryptor = self._cipher.encryptor()
        return bytes([STEX]) + encryptor.update(plain) + encryptor.finalize()

    def open(self, sealed: bytes) -> Opened:
        """The counter and data in SSP data ``sealed``; :class:`CryptoError` when malformed."""
        if not sealed or sealed[0] != STEX:
            raise CryptoError("not an encrypted packet")
        body = sealed[1:]
        if not body or len(body) % 16:
            raise CryptoError("not whole AES blocks")
        decryptor = self._cipher.decryptor()
        plain = decryptor.update(body) + decryptor.finalize()
        crc = crc16(plain[:-2])
        if plain[-2] != crc & 0xFF or plain[-1] != crc >> 8:
            raise CryptoError("encrypted CRC mismatch")
        length = plain[0]
        if 5 + length > len(plain) - 2:
            raise CryptoError("encrypted length beyond the packet")
        return Opened(int.from_bytes(plain[1:5], "little"), plain[5 : 5 + length])
