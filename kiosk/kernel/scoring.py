"""Icon scoring for the Turbo Icon games: the settlement hot path.

Cards are ints 0..51 with ``code = rank * 4 + suit`` (rank 0..12 = 2..A, suit 0..3 = s, h, d, c;
see ``kiosk.kernel.cards``).  A card of the game's suit S carries icons by rank: J, Q, K, A = 4;
6, 7, 8, 9, T = 2; 2, 3, 4, 5 = 1.  Cards of other suits carry none.

- ``count_icons(cards, suit)``: total icons (Bet A / Bet B / Bet C, the Raise decision).
- ``score_turbo(cards, suit)``: ``(icons, suited_count, longest_suited_run)`` in one pass,
  everything Turbo settlement needs (the 9 Card Bonus pays on the suited count and on 8 or 9
  card straight flushes, i.e. a longest suited run of 8 or 9).

The longest suited run is the longest run of consecutive ranks among the cards of suit S; the ace
plays high or low (A-2-3 and Q-K-A are runs) but a run does not wrap around (K-A-2 is not).

Preconditions, not re-checked on the hot path: ``cards`` is a tuple or list (not a one-shot
iterator) of *distinct* codes in 0..51, and ``suit`` is in 0..3.  The deck guarantees both.
Codes of 52 and more raise ``IndexError``; negative codes index from the end of the tables;
a repeated card is counted twice by ``count_icons`` and once by ``score_turbo``.

The module is isolated on purpose: it imports nothing (not even the standard library at run
time) and uses only what MicroPython has, so the same file is timed and tested on CPython and
on MicroPython.  It carries no compiler directive: machine code is chosen when it is built,
``mpy-cross -X emit=native -march=ARCH`` on a port with a native emitter (x86, x64, ARM Thumb
and ARMv6/7, Xtensa, RISC-V), plain ``mpy-cross`` (bytecode) where there is none - 64-bit ARM,
the Raspberry Pi 4 and 5 under a 64-bit OS, where a ``@micropython.native`` in the source would
not even compile (docs/performance.md).
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # type checkers only: MicroPython has no ``typing`` module at run time
    from collections.abc import Sequence

    _Table = tuple[tuple[int, ...], ...]
    _Score = tuple[int, int, int]

__all__ = ["ICONS_BY_RANK", "count_icons", "score_turbo"]

ICONS_BY_RANK = (1, 1, 1, 1, 2, 2, 2, 2, 2, 4, 4, 4, 4)
"""Icons on a card of suit S by rank 0..12 (2..A)."""


def _longest_run(mask: int) -> int:
    """Longest run of consecutive ranks in a 13-bit rank mask, ace high or low, no wrap."""
    # Bit 0 of `extended` is the ace played low, bits 1..13 are ranks 2..A.
    extended = (mask << 1) | (mask >> 12)
    length = 0
    while extended:
        extended &= extended << 1
        length += 1
    # All 13 ranks set both ace bits: the run A-2-...-K-A uses the ace twice.
    return 13 if length > 13 else length


def _build_tables() -> "tuple[_Table, _Table, tuple[_Score, ...]]":
    """Per-suit card tables and the rank-mask table (built once, at import)."""
    icons = tuple(
        tuple(ICONS_BY_RANK[code >> 2] if code & 3 == suit else 0 for code in range(52))
        for suit in range(4)
    )
    rank_bits = tuple(
        tuple(1 << (code >> 2) if code & 3 == suit else 0 for code in range(52))
        for suit in range(4)
    )
    # Icon totals and card counts of every rank mask, doubling the masks one rank at a time:
    # the masks holding `rank` are those without it plus 1 << rank.
    totals = [0]
    counts = [0]
    for rank in range(13):
        totals += [total + ICONS_BY_RANK[rank] for total in totals]
        counts += [count + 1 for count in counts]
    # One shared tuple per distinct result (439 of them), so a lookup allocates nothing.  Keyed
    # by a packed int: MicroPython hashes tuples poorly (building this took 0.5 s with them).
    distinct: dict[int, _Score] = {}
    turbo = []
    for mask in range(1 << 13):
        run = _longest_run(mask)
        key = totals[mask] << 8 | counts[mask] << 4 | run
        score = distinct.get(key)
        if score is None:
            score = distinct[key] = (totals[mask], counts[mask], run)
        turbo.append(score)
    return icons, rank_bits, tuple(turbo)


_ICONS, _RANK_BITS, _TURBO = _build_tables()
# _ICONS[suit][code]: icons on the card; _RANK_BITS[suit][code]: 1 << rank if the card is of
# the suit, else 0; _TURBO[rank_mask]: (icons, suited_count, longest_suited_run).


def count_icons(cards: "Sequence[int]", suit: int) -> int:
    """Total icons on ``cards`` (distinct codes 0..51) for the icon suit ``suit`` (0..3)."""
    table = _ICONS[suit]
    try:  # the 9-card hand, unrolled; cheaper than a len() call on both interpreters
        a, b, c, d, e, f, g, h, i = cards
    except ValueError:  # any other length, e.g. the 3 community cards
        total = 0
        for code in cards:
            total += table[code]
        return total
    return (
        table[a]
        + table[b]
        + table[c]
        + table[d]
        + table[e]
        + table[f]
        + table[g]
        + table[h]
        + table[i]
    )


def score_turbo(cards: "Sequence[int]", suit: int) -> "_Score":
    """``(icons, suited_count, longest_suited_run)`` of ``cards`` for the icon suit ``suit``.

    One pass builds the 13-bit mask of the ranks held in the suit; a precomputed table maps it
    to the three figures.  The returned tuple is shared: do not rely on its identity.
    """
    bits = _RANK_BITS[suit]
    try:
        a, b, c, d, e, f, g, h, i = cards
    except ValueError:
        mask = 0
        for code in cards:
            mask |= bits[code]
        return _TURBO[mask]
    return _TURBO[
        bits[a] | bits[b] | bits[c] | bits[d] | bits[e] | bits[f] | bits[g] | bits[h] | bits[i]
    ]
