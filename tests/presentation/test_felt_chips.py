"""The chips stacked on a felt spot: the amount in the rack's chips, largest first."""

from __future__ import annotations

import pytest

from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.presentation.chips import chips
from kiosk.terminal.presentation.felt import MAX_STACK, chip_stack

RACK = chips(TerminalConfig())  # 25c grey, $1 white, $5 red, $25 green, $100 black


@pytest.mark.parametrize(
    ("amount", "stack"),
    [
        (0, ()),
        (25, ("grey",)),
        (100, ("white",)),
        (1100, ("red", "red", "white")),
        (3125, ("green", "red", "white", "grey")),
        (10_000, ("black",)),
        (60, ("grey", "grey", "grey")),  # 10 cents no chip makes: one more of the smallest
    ],
)
def test_a_dealer_stacks_the_largest_chips_first(amount: int, stack: tuple[str, ...]) -> None:
    assert chip_stack(RACK, amount) == stack


def test_a_tall_stack_stops_at_the_most_drawn() -> None:
    assert chip_stack(RACK, 99_900) == ("black",) * MAX_STACK
    assert chip_stack((), 500) == ()
