"""HMAC_DRBG with SHA-256, as specified in NIST SP 800-90A Rev. 1, section 10.1.2.

This module is the deterministic part only: it turns entropy input handed to it into output
bits.  It never fetches entropy by itself, except through the ``entropy_source`` callable a
caller may pass for prediction resistance and automatic reseeding (SP 800-90A §9.3.1 steps 6-7).

Parameters (SP 800-90A Table 2, SHA-256): security strength 256 bits; entropy input 256 bits
to 2**35 bits; nonce at least 128 bits; personalization string and additional input at most
2**35 bits; at most 2**19 bits (65,536 bytes) per request; at most 2**48 requests between
reseeds.  Every limit is checked and a violation raises :class:`DrbgError` (or its subclass
:class:`ReseedRequiredError`) before the internal state changes.

The internal state (``Key``, ``V``) is never exposed: there is no accessor, ``repr`` shows only
counters, and pickling or copying an instance raises :class:`TypeError`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import NoReturn

SECURITY_STRENGTH_BITS = 256
OUTLEN = 32  # bytes of SHA-256 output
MIN_ENTROPY_BYTES = SECURITY_STRENGTH_BITS // 8  # 32
MAX_LENGTH_BYTES = 2**35 // 8  # entropy input, personalization string, additional input
MIN_NONCE_BYTES = SECURITY_STRENGTH_BITS // 16  # 16: half the security strength
MAX_BYTES_PER_REQUEST = 2**19 // 8  # 65,536
MAX_RESEED_INTERVAL = 2**48

_BLOCK = 64  # SHA-256 block size in bytes
_XOR_IPAD = bytes(b ^ 0x36 for b in range(256))  # translation tables: key XOR ipad / opad
_XOR_OPAD = bytes(b ^ 0x5C for b in range(256))


class DrbgError(ValueError):
    """A request outside SP 800-90A's limits (the state is left unchanged)."""


class ReseedRequiredError(DrbgError):
    """The reseed counter passed the reseed interval and no entropy source was supplied."""


class _HmacSha256:
    """HMAC-SHA256 (FIPS 198-1) under one key, with the padded key hashed once.

    Equivalent to ``hmac.new(key, msg, "sha256").digest()``; precomputing the inner and outer
    hash states halves the cost of the many short HMACs the DRBG computes.
    """

    __slots__ = ("_inner", "_outer")

    def __init__(self, key: bytes) -> None:
        if len(key) > _BLOCK:
            key = hashlib.sha256(key).digest()
        padded = key.ljust(_BLOCK, b"\x00")
        self._inner = hashlib.sha256(padded.translate(_XOR_IPAD))
        self._outer = hashlib.sha256(padded.translate(_XOR_OPAD))

    def mac(self, *parts: bytes) -> bytes:
        """HMAC of the concatenation of ``parts``."""
        inner = self._inner.copy()
        for part in parts:
            inner.update(part)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()

    def chain(self, v: bytes, count: int) -> list[bytes]:
        """``count`` successive values of ``v = HMAC(key, v)``, the generate loop's blocks."""
        inner0, outer0 = self._inner, self._outer
        blocks = []
        for _ in range(count):
            inner = inner0.copy()
            inner.update(v)
            outer = outer0.copy()
            outer.update(inner.digest())
            v = outer.digest()
            blocks.append(v)
        return blocks

    def __reduce_ex__(self, protocol: object) -> NoReturn:
        raise TypeError("HMAC key state cannot be serialised")


def _check_length(what: str, data: bytes) -> None:
    if not isinstance(data, bytes | bytearray):
        raise DrbgError(f"{what} must be bytes, not {type(data).__name__}")
    if len(data) > MAX_LENGTH_BYTES:
        raise DrbgError(
            f"{what} is {len(data)} bytes; SP 800-90A allows at most {MAX_LENGTH_BYTES}"
        )


def _check_entropy(entropy_input: bytes) -> None:
    _check_length("entropy input", entropy_input)
    if len(entropy_input) < MIN_ENTROPY_BYTES:
        raise DrbgError(
            f"entropy input is {len(entropy_input)} bytes; a security strength of "
            f"{SECURITY_STRENGTH_BITS} bits needs at least {MIN_ENTROPY_BYTES}"
        )


class HmacDrbg:
    """HMAC_DRBG (SHA-256) at a security strength of 256 bits.

    ``reseed_interval`` is the number of generate requests allowed between reseeds (at most
    2**48, the standard's maximum).  When it is reached, or on every request when
    ``prediction_resistance`` is set, the DRBG reseeds itself from ``entropy_source(bits)``
    (SP 800-90A's Get_entropy_input: an entropy input of at least 32 bytes carrying at least
    ``bits`` bits of min-entropy) or, without a source, raises :class:`ReseedRequiredError`.
    """

    __slots__ = (
        "_mac",
        "_v",
        "entropy_source",
        "prediction_resistance",
        "reseed_counter",
        "reseed_interval",
    )

    def __init__(
        self,
        entropy_input: bytes,
        nonce: bytes,
        personalization: bytes = b"",
        *,
        prediction_resistance: bool = False,
        reseed_interval: int = MAX_RESEED_INTERVAL,
        entropy_source: Callable[[int], bytes] | None = None,
    ) -> None:
        """Instantiate (SP 800-90A §10.1.2.3)."""
        _check_entropy(entropy_input)
        _check_length("nonce", nonce)
        if len(nonce) < MIN_NONCE_BYTES:
            raise DrbgError(f"nonce is {len(nonce)} bytes; at least {MIN_NONCE_BYTES} needed")
        _check_length("personalization string", personalization)
        if not 1 <= reseed_interval <= MAX_RESEED_INTERVAL:
            raise DrbgError(f"reseed interval must be 1..2**48, not {reseed_interval}")
        if prediction_resistance and entropy_source is None:
            raise DrbgError("prediction resistance needs an entropy source")
        self.prediction_resistance = prediction_resistance
        self.reseed_interval = reseed_interval
        self.entropy_source = entropy_source
        self._mac = _HmacSha256(b"\x00" * OUTLEN)  # Key
        self._v = b"\x01" * OUTLEN
        self._update(bytes(entropy_input) + bytes(nonce) + bytes(personalization))
        self.reseed_counter = 1

    def _update(self, provided_data: bytes) -> None:
        """HMAC_DRBG_Update (SP 800-90A §10.1.2.2)."""
        self._mac = _HmacSha256(self._mac.mac(self._v, b"\x00", provided_data))
        self._v = self._mac.mac(self._v)
        if provided_data:
            self._mac = _HmacSha256(self._mac.mac(self._v, b"\x01", provided_data))
            self._v = self._mac.mac(self._v)

    def reseed(self, entropy_input: bytes, additional_input: bytes = b"") -> None:
        """Reseed (SP 800-90A §10.1.2.4)."""
        _check_entropy(entropy_input)
        _check_length("additional input", additional_input)
        self._update(bytes(entropy_input) + bytes(additional_input))
        self.reseed_counter = 1

    def _reseed_from_source(self, additional_input: bytes) -> None:
        if self.entropy_source is None:
            raise ReseedRequiredError(
                f"{self.reseed_counter - 1} requests since the last reseed reach the reseed "
                f"interval {self.reseed_interval}; reseed with fresh entropy"
            )
        entropy = self.entropy_source(SECURITY_STRENGTH_BITS)
        self.reseed(entropy, additional_input)

    def generate(self, n_bytes: int, additional_input: bytes = b"") -> bytes:
        """Generate ``n_bytes`` (at most 65,536) bytes (SP 800-90A §9.3.1 and §10.1.2.5)."""
        if not isinstance(n_bytes, int) or isinstance(n_bytes, bool):
            raise DrbgError(f"number of bytes must be an int, not {type(n_bytes).__name__}")
        if not 0 <= n_bytes <= MAX_BYTES_PER_REQUEST:
            raise DrbgError(
                f"request of {n_bytes} bytes; SP 800-90A allows 0..{MAX_BYTES_PER_REQUEST} "
                "bytes per request"
            )
        _check_length("additional input", additional_input)
        if self.prediction_resistance or self.reseed_counter > self.reseed_interval:
            # §9.3.1 steps 7.1-7.4: the reseed consumes the additional input.
            self._reseed_from_source(bytes(additional_input))
            additional_input = b""
        if additional_input:
            self._update(bytes(additional_input))
        blocks = self._mac.chain(self._v, -(-n_bytes // OUTLEN))
        if blocks:
            self._v = blocks[-1]
        self._update(bytes(additional_input))
        self.reseed_counter += 1
        return b"".join(blocks)[:n_bytes]

    def __repr__(self) -> str:
        return (
            f"<HmacDrbg SHA-256 reseed_counter={self.reseed_counter} "
            f"reseed_interval={self.reseed_interval} "
            f"prediction_resistance={self.prediction_resistance}>"
        )

    def __reduce_ex__(self, protocol: object) -> NoReturn:
        raise TypeError("DRBG state must never be serialised or copied")

    def __getstate__(self) -> NoReturn:
        raise TypeError("DRBG state must never be serialised or copied")
