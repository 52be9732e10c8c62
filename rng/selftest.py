"""Power-up self-tests (SP 800-90A §11.3, SP 800-90B §4.3).

Run before the generator gives any output:

1. HMAC_DRBG known-answer tests of instantiate, reseed and generate, with and without
   prediction resistance, on two NIST CAVP vectors (CAVS 14.3 ``HMAC_DRBG.rsp``, [SHA-256],
   the first block with a 256-bit personalization string and 256-bit additional input,
   COUNT = 0, of ``pr_false`` and of ``pr_true``).  The tests in ``tests/rng`` check that these
   values appear verbatim in the CAVP files and that every one of the 720 SHA-256 vectors passes.
2. The health tests themselves: a stuck sequence must trip the Repetition Count Test, an
   over-represented value the Adaptive Proportion Test, and a balanced sequence neither.

Any mismatch raises :class:`~rng.errors.SelfTestFailure`.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterator
from dataclasses import dataclass

from rng.drbg import HmacDrbg
from rng.errors import HealthTestFailure, SelfTestFailure
from rng.health import AdaptiveProportionTest, Cutoffs, HealthTests, RepetitionCountTest


@dataclass(frozen=True)
class KnownAnswer:
    """One CAVP record: instantiate, optional reseed, two generates of 128 bytes."""

    source: str
    entropy_input: str
    nonce: str
    personalization: str
    reseed: tuple[str, str] | None  # (EntropyInputReseed, AdditionalInputReseed), pr_false
    additional_inputs: tuple[str, str]
    entropy_inputs_pr: tuple[str, ...]  # pr_true: one per generate
    returned_bits: str


KNOWN_ANSWERS = (
    KnownAnswer(
        source="pr_false/HMAC_DRBG.rsp [SHA-256] block 03 COUNT = 0",
        entropy_input="cdb0d9117cc6dbc9ef9dcb06a97579841d72dc18b2d46a1cb61e314012bdf416",
        nonce="d0c0d01d156016d0eb6b7e9c7c3c8da8",
        personalization="6f0fb9eab3f9ea7ab0a719bfa879bf0aaed683307fda0c6d73ce018b6e34faaa",
        reseed=(
            "8ec6f7d5a8e2e88f43986f70b86e050d07c84b931bcf18e601c5a3eee3064c82",
            "1ab4ca9014fa98a55938316de8ba5a68c629b0741bdd058c4d70c91cda5099b3",
        ),
        additional_inputs=(
            "16e2d0721b58d839a122852abd3bf2c942a31c84d82fca74211871880d7162ff",
            "53686f042a7b087d5d2eca0d2a96de131f275ed7151189f7ca52deaa78b79fb2",
        ),
        entropy_inputs_pr=(),
        returned_bits=(
            "dda04a2ca7b8147af1548f5d086591ca4fd951a345ce52b3cd49d47e84aa31a1"
            "83e31fbc42a1ff1d95afec7143c8008c97bc2a9c091df0a763848391f68cb4a3"
            "66ad89857ac725a53b303ddea767be8dc5f605b1b95f6d24c9f06be65a973a08"
            "9320b3cc42569dcfd4b92b62a993785b0301b3fc452445656fce22664827b88f"
        ),
    ),
    KnownAnswer(
        source="pr_true/HMAC_DRBG.rsp [SHA-256] block 03 COUNT = 0",
        entropy_input="4294671d493dc085b5184607d7de2ff2b6aceb734a1b026f6cfee7c5a90f03da",
        nonce="d071544e599235d5eb38b64b551d2a6e",
        personalization="63bc769ae1d95a98bde870e4db7776297041d37c8a5c688d4e024b78d83f4d78",
        reseed=None,
        additional_inputs=(
            "28848becd3f47696f124f4b14853a456156f69be583a7d4682cff8d44b39e1d3",
            "8bfce0b7132661c3cd78175d83926f643e36f7608eec2c5dac3ddcbacc8c2182",
        ),
        entropy_inputs_pr=(
            "db9b4790b62336fbb9a684b82947065393eeef8f57bd2477141ad17e776dac34",
            "4a9abe80f6f522f29878bedf8245b27940a76471006fb4a4110beb4decb6c341",
        ),
        returned_bits=(
            "e580dc969194b2b18a97478aef9d1a72390aff14562747bf080d741527a6655c"
            "e7fc135325b457483a9f9c70f91165a811cf4524b50d51199a0df3bd60d12aba"
            "c27d0bf6618e6b114e05420352e23f3603dfe8a225dc19b3d1fff1dc245dc6b1"
            "df24c741744bec3f9437dbbf222df84881a457a589e7815ef132f686b760f012"
        ),
    ),
)


def run_known_answer(answer: KnownAnswer) -> bytes:
    """The bits HmacDrbg returns for one record (the second generate's output)."""
    pr_inputs: Iterator[bytes] = (bytes.fromhex(e) for e in answer.entropy_inputs_pr)
    prediction_resistance = bool(answer.entropy_inputs_pr)
    drbg = HmacDrbg(
        bytes.fromhex(answer.entropy_input),
        bytes.fromhex(answer.nonce),
        bytes.fromhex(answer.personalization),
        prediction_resistance=prediction_resistance,
        entropy_source=(lambda bits: next(pr_inputs)) if prediction_resistance else None,
    )
    if answer.reseed is not None:
        drbg.reseed(bytes.fromhex(answer.reseed[0]), bytes.fromhex(answer.reseed[1]))
    n_bytes = len(answer.returned_bits) // 2
    drbg.generate(n_bytes, bytes.fromhex(answer.additional_inputs[0]))
    return drbg.generate(n_bytes, bytes.fromhex(answer.additional_inputs[1]))


def check_drbg(answers: tuple[KnownAnswer, ...] = KNOWN_ANSWERS) -> None:
    """SP 800-90A §11.3: instantiate, reseed and generate reproduce the known answers."""
    for answer in answers:
        try:
            got = run_known_answer(answer)
        except Exception as error:  # any failure of the DRBG code is a self-test failure
            raise SelfTestFailure(f"DRBG known-answer test {answer.source}: {error!r}") from error
        if not hmac.compare_digest(got, bytes.fromhex(answer.returned_bits)):
            raise SelfTestFailure(f"DRBG known-answer test {answer.source}: wrong output")


def _trips(test: RepetitionCountTest | AdaptiveProportionTest | HealthTests, data: bytes) -> bool:
    try:
        test.feed(data)
    except HealthTestFailure:
        return True
    return False


def check_health_tests(cutoffs: Cutoffs) -> None:
    """Each health test trips exactly at its cutoff, and a balanced sequence passes both."""
    rct, apt, window = cutoffs.rct, cutoffs.apt, cutoffs.apt_window

    def window_with_zeros(zeros: int) -> bytes:  # the first value, 0, occurs `zeros` times
        return bytes(zeros) + bytes(i % 255 + 1 for i in range(window - zeros))

    if _trips(RepetitionCountTest(rct), bytes(rct - 1) + b"\x01"):
        raise SelfTestFailure(f"repetition count test trips below its cutoff {rct}")
    if not _trips(RepetitionCountTest(rct), bytes(rct)):
        raise SelfTestFailure(f"repetition count test misses {rct} repeated samples")
    if _trips(AdaptiveProportionTest(apt, window), window_with_zeros(apt - 1)):
        raise SelfTestFailure(f"adaptive proportion test trips below its cutoff {apt}")
    if not _trips(AdaptiveProportionTest(apt, window), window_with_zeros(apt)):
        raise SelfTestFailure(f"adaptive proportion test misses {apt} of {window} samples")
    if _trips(HealthTests(cutoffs), bytes(i & 0xFF for i in range(2 * window))):
        raise SelfTestFailure("health tests reject a balanced sequence")


def run_power_up_tests(cutoffs: Cutoffs) -> None:
    """All power-up self-tests; raise :class:`SelfTestFailure` on the first failure."""
    check_drbg()
    check_health_tests(cutoffs)
