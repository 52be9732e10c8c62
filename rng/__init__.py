"""Certified-style random number generation: HMAC_DRBG (NIST SP 800-90A) seeded from the OS
under SP 800-90B health tests, unbiased scaling, Fisher-Yates shuffle and a virtual deck.

The package knows nothing of games.  The terminal uses :class:`Csprng` (``randbelow``,
``shuffle``), :class:`Deck` and :class:`BackgroundCycler`, and turns :class:`RngFailure` into a
tilt.  The design, as submitted to a test laboratory, is described in ``docs/rng.md``.
"""

from rng.cycling import BackgroundCycler, CyclerThread
from rng.deck import Deck, DeckError
from rng.drbg import DrbgError, HmacDrbg, ReseedRequiredError
from rng.errors import HealthTestFailure, RngFailure, SelfTestFailure
from rng.generator import Csprng, RngConfig, RngStatus

__all__ = [
    "BackgroundCycler",
    "Csprng",
    "CyclerThread",
    "Deck",
    "DeckError",
    "DrbgError",
    "HealthTestFailure",
    "HmacDrbg",
    "ReseedRequiredError",
    "RngConfig",
    "RngFailure",
    "RngStatus",
    "SelfTestFailure",
]
