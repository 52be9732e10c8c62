"""Why a settled round paid what it did, in the player's words: the hands compared, each
winning wager with what paid it and the pay table's odds (each family says it:
:meth:`kiosk.terminal.presentation.families.TableFamily.reasons`)."""

from __future__ import annotations

from kiosk.kernel.games.base import GameRules
from kiosk.terminal.core.records import SeatResult
from kiosk.terminal.core.state import RoundState
from kiosk.terminal.presentation.families import RoundCards, table_family
from kiosk.terminal.presentation.spots import spot_labels
from kiosk.terminal.presentation.words import GameWords


def round_reasons(
    game: GameRules,
    rnd: RoundState | None,
    seat_result: SeatResult | None,
    words: GameWords,
    seat: int,
) -> tuple[str, ...]:
    """The reasons of ``seat``'s result in ``rnd`` (none before it is settled)."""
    if rnd is None or seat_result is None:
        return ()
    family = table_family(game)
    labels = spot_labels(game, words)
    bet = next((b for b in rnd.bets if b.seat == seat), None)
    index = next((i for i, b in enumerate(rnd.bets) if b.seat == seat), 0)
    cards = RoundCards(
        first=tuple(rnd.first),
        own=tuple(rnd.seat_cards[index]) if len(rnd.seat_cards) > index else (),
        shared=tuple(rnd.second_shared),
        positions=bet.bet.positions if bet is not None else (),
    )

    def label(spot: str) -> str:
        return labels.get(spot) or family.extra_label(game, spot, words)

    return family.reasons(game, seat_result.results, cards, label, words)
