"""The error state of the random number generator.

Any of these means the generator refuses output until the terminal is restarted (which runs
the power-up self-tests again); the terminal turns it into a tilt.
"""

from __future__ import annotations


class RngFailure(RuntimeError):  # noqa: N818 (the name the terminal knows)
    """The generator is in its error state and refuses output; the message says why."""


class HealthTestFailure(RngFailure):
    """An SP 800-90B health test (start-up or continuous) rejected the entropy source."""


class SelfTestFailure(RngFailure):
    """A power-up known-answer self-test did not reproduce its expected output."""
