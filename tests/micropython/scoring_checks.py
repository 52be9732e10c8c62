"""Known-answer checks of the icon-scoring hot path, runnable under MicroPython and CPython.

Plain asserts, no imports: ``run_checks(scoring)`` takes the module under test, so the same
cases run against ``kiosk/kernel/scoring.py`` under CPython (tests/scoring/), and under the
MicroPython unix port against both the source and the ``mpy-cross``-compiled ``scoring.mpy``
(tests/micropython/run_on_micropython.py).  Expected values are worked out by hand in the
comments; the 3-card distribution is pinned from the combinatorial count in
tests/scoring/test_distributions.py.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

RANK_LETTERS = "23456789TJQKA"
SUIT_LETTERS = "shdc"
S, H, D, C = 0, 1, 2, 3

# (hand, suit, (icons, suited_count, longest_suited_run)), worked out by hand.
KNOWN_ANSWERS = (
    # 9-card straight flush 6..A: J Q K A = 4 x 4, 6 7 8 9 T = 5 x 2.
    ("As Ks Qs Js Ts 9s 8s 7s 6s", S, (26, 9, 9)),
    ("As Ks Qs Js Ts 9s 8s 7s 6s", H, (0, 0, 0)),
    # Ace low: A-2-...-8 is an 8-card run; A 4 + 2 3 4 5 4 x 1 + 6 7 8 3 x 2 = 14.
    ("As 2s 3s 4s 5s 6s 7s 8s Kh", S, (14, 8, 8)),
    # No wrap-around: K-A-2 is two runs of 2.  K 4 + A 4 + 2 1 = 9.
    ("Ks As 2s 3h 4h 5h 6h 7h 8h", S, (9, 3, 2)),
    ("Ks As 2s 3s 4h 5h 6h 7h 8h", S, (10, 4, 3)),
    # 9-T-J-Q-K-A (6) and A-2-3-4 (4), not a 9-card wrap.  2+2 + 4x4 + 1+1+1 = 23.
    ("9s Ts Js Qs Ks As 2s 3s 4s", S, (23, 9, 6)),
    # 8 consecutive among 9 suited: 2..9 (8); 2 3 4 5 = 4, 6 7 8 9 = 8, J = 4.
    ("2s 3s 4s 5s 6s 7s 8s 9s Js", S, (16, 9, 8)),
    ("2s 3s 4s 5s 6s 7s 8s 9s Js", C, (0, 0, 0)),
    # Mixed suits, icon suit d: A K Q = 12, 5 4 3 = 3; runs 3-4-5 and Q-K-A.
    ("Ad Kd 2c 3c 5d 4d 3d 2h Qd", D, (15, 6, 3)),
    ("Ad Kd 2c 3c 5d 4d 3d 2h Qd", C, (2, 2, 2)),
    ("Ad Kd 2c 3c 5d 4d 3d 2h Qd", H, (1, 1, 1)),
    ("Ad Kd 2c 3c 5d 4d 3d 2h Qd", S, (0, 0, 0)),
    # One suited card: a run of 1.
    ("Th 2c 3c 4c 5c 6c 7c 8c 9c", H, (2, 1, 1)),
    # 3 community cards.
    ("Js Qs Ks", S, (12, 3, 3)),
    ("2s 3h 4d", S, (1, 1, 1)),
    ("5c 6c 7c", C, (5, 3, 3)),
    ("Ac 2c Kc", C, (9, 3, 2)),
    # Other lengths: none, and all 13 cards of the suit (the ace is not counted twice).
    ("", S, (0, 0, 0)),
    ("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah", H, (30, 13, 13)),
    ("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", H, (26, 12, 12)),
    ("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh", H, (26, 12, 12)),
)

# Number of 3-card community sets (of 22,100) with exactly k icons, for any icon suit.
THREE_CARD_ICON_COUNTS = {
    0: 9139,
    1: 2964,
    2: 3939,
    3: 784,
    4: 3384,
    5: 664,
    6: 814,
    7: 80,
    8: 274,
    9: 24,
    10: 30,
    12: 4,
}


def codes(names: str) -> "list[int]":
    """Card codes from names like ``"As Td 2c"`` (``rank * 4 + suit``)."""
    return [RANK_LETTERS.index(n[0]) * 4 + SUIT_LETTERS.index(n[1]) for n in names.split()]


def check_known_answers(scoring: "ModuleType") -> int:
    checks = 0
    for names, suit, expected in KNOWN_ANSWERS:
        for hand in (tuple(codes(names)), codes(names), tuple(reversed(codes(names)))):
            got = tuple(scoring.score_turbo(hand, suit))
            assert got == expected, (names, suit, got, expected)
            icons = scoring.count_icons(hand, suit)
            assert icons == expected[0], (names, suit, icons, expected[0])
            checks += 2
    return checks


def check_single_cards(scoring: "ModuleType") -> int:
    """Every card under every icon suit, from the rank letters of the rules."""
    checks = 0
    for suit in range(4):
        for rank_letter in RANK_LETTERS:
            for suit_letter in SUIT_LETTERS:
                if SUIT_LETTERS.index(suit_letter) != suit:
                    expected = 0
                elif rank_letter in "JQKA":
                    expected = 4
                elif rank_letter in "6789T":
                    expected = 2
                else:
                    expected = 1
                hand = codes(rank_letter + suit_letter)
                assert scoring.count_icons(hand, suit) == expected, (hand, suit)
                run = 1 if expected else 0
                assert tuple(scoring.score_turbo(hand, suit)) == (expected, run, run), (hand, suit)
                checks += 2
    return checks


def check_three_card_distribution(scoring: "ModuleType") -> int:
    """All 22,100 sets of 3 cards, for each icon suit, against the pinned counts."""
    checks = 0
    for suit in range(4):
        counts: dict[int, int] = {}
        for a in range(52):
            for b in range(a + 1, 52):
                for c in range(b + 1, 52):
                    icons = scoring.count_icons((a, b, c), suit)
                    assert scoring.score_turbo((a, b, c), suit)[0] == icons
                    counts[icons] = counts.get(icons, 0) + 1
                    checks += 2
        assert counts == THREE_CARD_ICON_COUNTS, (suit, counts)
    return checks


def run_checks(scoring: "ModuleType") -> int:
    """Run every check against ``scoring``; return how many assertions passed."""
    return (
        check_known_answers(scoring)
        + check_single_cards(scoring)
        + check_three_card_distribution(scoring)
    )
