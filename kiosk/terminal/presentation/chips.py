"""The chips a player bets with: values offered for the terminal's denomination and limits."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.presentation.money import dollars

#: Casino chip values in cents, smallest first; a terminal offers those its settings allow.
STANDARD_CHIPS = (25, 100, 500, 2_500, 10_000, 50_000, 100_000)
#: At most this many chips fit the chip rack at 800x480.
RACK_SIZE = 5


@dataclass(frozen=True)
class Chip:
    """One chip of the rack."""

    value: int  # cents
    text: str  # "$5", "25¢", "$1K"
    colour: str  # colour name the UI's theme draws the chip in


_COLOURS = {
    25: "grey",
    100: "white",
    500: "red",
    2_500: "green",
    10_000: "black",
    50_000: "purple",
    100_000: "orange",
}


def chip_text(value: int) -> str:
    """Short face text of a chip: ``25¢``, ``$1``, ``$25``, ``$1K``."""
    if value < 100:
        return f"{value}¢"
    whole, cents = divmod(value, 100)
    if cents:
        return dollars(value)
    if whole >= 1000 and whole % 1000 == 0:
        return f"${whole // 1000}K"
    return f"${whole}"


def chip_values(config: TerminalConfig) -> tuple[int, ...]:
    """Chip values for the configuration: whole credits of the denomination, no larger than
    the most allowed on one spot, the largest :data:`RACK_SIZE` of them (smallest first).

    A denomination that no standard chip is a multiple of gets a chip of one credit.
    """
    fitting = [
        v
        for v in STANDARD_CHIPS
        if v % config.denomination == 0 and v <= config.max_wager and v >= config.denomination
    ]
    if not fitting:
        fitting = [config.denomination]
    return tuple(fitting[-RACK_SIZE:])


def chips(config: TerminalConfig) -> tuple[Chip, ...]:
    """The rack of chips for the configuration."""
    return tuple(Chip(v, chip_text(v), _COLOURS.get(v, "blue")) for v in chip_values(config))
