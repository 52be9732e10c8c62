"""Game recall for the player: the last games, card by card, from the terminal's recall records."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from kiosk.kernel.games.base import GameRules
from kiosk.kernel.scoring import count_icons
from kiosk.kernel.time_text import date_time
from kiosk.terminal.core.state import RoundState
from kiosk.terminal.presentation.faces import CardFace, face
from kiosk.terminal.presentation.families import table_family
from kiosk.terminal.presentation.i18n import game_text, text
from kiosk.terminal.presentation.money import dollars
from kiosk.terminal.presentation.played_game import game_of
from kiosk.terminal.presentation.reasons import round_reasons
from kiosk.terminal.presentation.spots import ResultLine, result_line, spot_labels
from kiosk.terminal.presentation.win import round_summary
from kiosk.terminal.presentation.words import GameWords

SEAT = 0


@dataclass(frozen=True)
class RecallView:
    """One recalled game."""

    heading: str  # "Game 12 · Turbo Football · 2026-11-25 14:05:29"
    family: str  # the game's family ("turbo", "stadium"), "" for rules no longer shipped
    icon: str
    first: tuple[CardFace, ...]
    own: tuple[CardFace, ...]
    dealer: tuple[CardFace, ...]
    positions: tuple[int, ...]
    icons_text: str
    hand_text: str
    wagers: tuple[tuple[str, str], ...]  # (label, amount)
    decision_text: str
    results: tuple[ResultLine, ...]
    total_text: str  # the banner: win, push or no win
    credits_text: str
    reasons: tuple[str, ...] = ()  # why it paid: the hands compared, the paying lines named


def recall_view(record: Mapping[str, Any], language: str) -> RecallView:
    """A recall record (:meth:`TerminalRuntime.recall_record`) as the player sees it."""
    rnd = RoundState.from_dict(record)
    game = game_of(rnd)
    family = table_family(game)
    suit = family.suit(game) if game is not None else None
    bet = next((b for b in rnd.bets if b.seat == SEAT), rnd.bets[0])
    seat_cards = rnd.seat_cards[0] if rnd.seat_cards else []
    first = [face(x, suit) for x in rnd.first]
    own = [face(x, suit) for x in seat_cards]
    dealer = [face(x, suit) for x in rnd.second_shared]
    words = GameWords(game, language)
    title = words.title if game is not None else rnd.edition
    labels = spot_labels(game, words) if game is not None else {}
    icons_text = hand_text = ""
    positions = bet.bet.positions
    if game is not None:
        if suit is not None:
            n = count_icons([*rnd.first, *seat_cards], suit)
            icons_text = family.icon_count_text(game, n, words)
        if rnd.first:
            hand_text = family.hand_text(game, rnd.first, positions, language)
    seat = bet.seat
    settled = next((s for s in rnd.settlement if s.seat == seat), None)
    results: tuple[ResultLine, ...] = ()
    total_text = ""
    reasons: tuple[str, ...] = ()
    order = _table_order(game)
    if settled is not None and game is not None:
        ordered = sorted(settled.results, key=lambda r: order(r.spot))
        results = tuple(result_line(game, r, words, labels) for r in ordered)
        total_text = round_summary(settled.paid, settled.stake, language)
        reasons = round_reasons(game, rnd, settled, words, seat)
    choice = rnd.choices.get(seat)
    decision = ""
    if choice is not None:
        auto = f" {text(language, 'history_auto')}" if rnd.automatic.get(seat) else ""
        said = decision_word(game, rnd, seat, words) if game is not None else choice
        decision = text(language, "history_decision", choice=said) + auto
    after = record.get("credits_after")
    credits_text = ""
    if after is not None:
        credits_text = text(
            language,
            "history_credits",
            before=dollars(rnd.credits_before[seat]),
            after=dollars(after[seat]),
        )
    return RecallView(
        heading=text(
            language,
            "history_game",
            number=rnd.game_number,
            title=title,
            time=date_time(rnd.started_at),
        ),
        family=game.family if game is not None else "",
        icon=family.card_icon(game) if game is not None else "",
        first=tuple(first),
        own=tuple(own),
        dealer=tuple(dealer),
        positions=positions,
        icons_text=icons_text,
        hand_text=hand_text,
        wagers=tuple(
            (labels.get(spot, spot), dollars(amount))
            for spot, amount in sorted(bet.bet.wagers.items(), key=lambda item: order(item[0]))
        ),
        decision_text=decision,
        results=results,
        total_text=total_text,
        credits_text=credits_text,
        reasons=reasons,
    )


def _table_order(game: GameRules | None) -> Callable[[str], float]:
    """A sort key putting wager spots in the order the table shows them (a decision wager —
    Play, Double — right after the first spot, the one it is made on)."""
    order = {spot.id: float(i) for i, spot in enumerate(game.spots)} if game is not None else {}
    return lambda spot: order.get(spot, 0.5)


def decision_word(game: GameRules, rnd: RoundState, seat: int, words: GameWords) -> str:
    """The seat's decision in the words its button said (DOUBLE / NO THANKS, PLAY / FOLD): the
    family's own labels of the offer."""
    choice = rnd.choices[seat]
    offered = rnd.offers.get(seat)
    if offered is None:
        return game_text(words.language, choice)
    offer = offered.decision
    decline = next((ch for ch in offer.choices if ch != offer.take), choice)
    labels = table_family(game).offer_labels(game, words, offer.take, decline, "")
    return (labels.take if choice == offer.take else labels.decline).strip()
