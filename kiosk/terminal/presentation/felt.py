"""The felt's chips: the stack a wager is paid in, chip by chip, from the rack's values."""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.terminal.presentation.chips import Chip

#: at most this many chips are drawn on one spot (the amount is printed beside them)
MAX_STACK = 6


def chip_stack(rack: Sequence[Chip], amount: int) -> tuple[str, ...]:
    """Colours of the chips that make up ``amount`` cents, bottom first: the largest rack chips
    first (as a dealer would stack them), at most :data:`MAX_STACK` of them; an amount no chip
    divides ends with one chip of the smallest colour; () for nothing."""
    if amount <= 0 or not rack:
        return ()
    stack: list[str] = []
    left = amount
    for chip in sorted(rack, key=lambda c: c.value, reverse=True):
        while left >= chip.value and len(stack) < MAX_STACK:
            stack.append(chip.colour)
            left -= chip.value
    if not stack or (left > 0 and len(stack) < MAX_STACK):
        stack.append(min(rack, key=lambda c: c.value).colour)
    return tuple(stack)
