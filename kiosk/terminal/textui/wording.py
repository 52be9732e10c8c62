"""The terminal's refusals in a player's words for ``turbokiosk play``.

The core refuses in its own terms ("Decide is not allowed while result", amounts in cents);
a player at the text terminal reads what the screen would tell them: what cannot be done now
and why, amounts in dollars, the commands they type.  Wagers are also checked when they are
placed (:func:`bet_refusal`), with the limits the deal would apply, so ``bet`` refuses what
``deal`` would.
"""

from __future__ import annotations

import re

from kiosk.kernel.games.base import GameRules
from kiosk.kernel.games.registry import edition_ids
from kiosk.terminal.core.commands import CommandError, TerminalLockedError
from kiosk.terminal.core.state import Phase, TerminalState
from kiosk.terminal.presentation.money import dollars

#: how the help explains odd cents (kiosk.kernel.games.base.pay: stake + stake * n // d)
ODD_CENTS = (
    "Odd cents: a win at odds like 3:2 is paid down to the whole cent (the fraction of a cent "
    "is not paid): 3:2 on $1.25 wins $1.87 and returns $3.12."
)

_NOT_ALLOWED = re.compile(r"^(\w+) is not allowed while (\w+)$")
_CENTS = re.compile(r"(\d+) cents\b")
_NOT_ENABLED = re.compile(r"'([\w-]+)' is not enabled on this terminal")

_IN_PLAY = "a round is in play"
#: (command, phase) -> what the player is told; None for any other phase
_WORDS: dict[tuple[str, str | None], str] = {
    ("Decide", "wagering"): "there is no decision to make: deal first",
    ("Decide", "result"): "there is no decision to make: the round is over",
    ("Decide", "idle"): "there is no decision to make: place a wager and deal first",
    ("Decide", None): "there is no decision to make now",
    ("SelectEdition", "wagering"): (
        "your wagers are on this game: deal, or take them back with 'clear', before choosing "
        "another game"
    ),
    ("SelectEdition", None): "finish this round before choosing another game",
    ("Deal", None): "place a wager first",
    ("Deal", "decision"): f"{_IN_PLAY}: answer its decision first",
    ("PlaceWager", None): f"{_IN_PLAY}: wagers wait for the next round",
    ("ClearWagers", None): f"{_IN_PLAY}: its wagers are committed",
    ("RepeatWagers", None): f"{_IN_PLAY}: wagers wait for the next round",
    ("SelectPositions", None): f"{_IN_PLAY}: positions wait for the next round",
    ("CashOut", None): "finish this round before cashing out",
}
_PHASES = {
    Phase.DEALING.value: "the cards are being dealt",
    Phase.DECISION.value: "a decision is waiting",
    Phase.SETTLING.value: "the cards are being dealt",
    Phase.CASHOUT.value: "a voucher is being printed",
}


def enable_hint(edition: str) -> str:
    """How an operator turns an edition on (the service menu's configuration function)."""
    return (
        f"an operator enables it in the service menu's configuration "
        f"(turbokiosk service --role operator enable {edition})"
    )


def not_enabled(message: str) -> str:
    """``"... 'turbo-hockey' is not enabled on this terminal"`` with the hint how to enable it."""
    match = _NOT_ENABLED.search(message)
    if match is None:
        return message
    if match[1] not in edition_ids():
        return f"there is no game {match[1]!r}; 'game' lists this terminal's games"
    return f"{match[1]} is not enabled on this terminal; {enable_hint(match[1])}"


def refusal(exc: CommandError) -> str:
    """The core's refusal ``exc`` as the player reads it."""
    message = str(exc)
    if isinstance(exc, TerminalLockedError):
        return (
            f"not now: the terminal is locked ({exc.lockup.replace('_', ' ')}); 'status' says why"
        )
    match = _NOT_ALLOWED.match(message)
    if match is not None:
        command, phase = match[1], match[2]
        words = _WORDS.get((command, phase)) or _WORDS.get((command, None))
        if words is None:
            words = f"not now: {_PHASES.get(phase, phase)}"
        elif phase in _PHASES and (command, phase) not in _WORDS:
            words = f"{words} ({_PHASES[phase]})"
        return words
    message = not_enabled(message)
    return _CENTS.sub(lambda m: dollars(int(m[1])), message)


def bet_refusal(
    state: TerminalState, game: GameRules, spot: str, amount: int, seat: int = 0
) -> str | None:
    """Why adding ``amount`` cents to ``spot`` would be refused at the deal, or None.

    The deal's limits (``TerminalCore._deal``): at least the minimum on every spot, and the
    round's total, with the decision wager it may bring (as much again as the mandatory
    wager: the Double, Play), at most the table maximum.
    """
    cfg = state.config
    wagers = dict(state.pending_wagers.get(seat, {}))
    wagers[spot] = wagers.get(spot, 0) + amount
    if 0 < wagers[spot] < cfg.min_wager:
        return (
            f"{spot}: the least on one spot is {dollars(cfg.min_wager)} "
            f"({dollars(wagers[spot])} would be on it)"
        )
    mandatory = [s.id for s in game.spots if s.mandatory]
    decision = wagers.get(mandatory[0], 0) if mandatory else 0
    total = sum(wagers.values())
    if decision and total + decision > cfg.table_max:
        return (
            f"at most {dollars(cfg.table_max)} a round, the decision wager included: "
            f"{dollars(total)} of wagers and {dollars(decision)} more if you double or play "
            f"would make {dollars(total + decision)}"
        )
    return None
