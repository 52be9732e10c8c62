"""Fisher-Yates shuffle (Durstenfeld's in-place form, Knuth TAOCP vol. 2, Algorithm 3.4.2P).

For ``i`` from ``len - 1`` down to ``1``, swap item ``i`` with item ``j``, ``j`` uniform in
``[0, i]``.  The ``n!`` possible sequences of ``j`` values map one-to-one onto the ``n!``
orderings, so with an unbiased ``randbelow`` every ordering is equally likely;
``tests/rng/test_shuffle.py`` checks the one-to-one mapping exhaustively for small decks.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence
from typing import TypeVar

T = TypeVar("T")


def fisher_yates(items: MutableSequence[T], randbelow: Callable[[int], int]) -> None:
    """Shuffle ``items`` in place, drawing ``j`` with ``randbelow(i + 1)``."""
    for i in range(len(items) - 1, 0, -1):
        j = randbelow(i + 1)
        items[i], items[j] = items[j], items[i]
