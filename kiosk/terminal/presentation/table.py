"""A table screen as data: meters, spots, cards, the decision prompt and the results.

:func:`table_view` reads the terminal's state and nothing else.  ``revealed`` is how many of
the round's cards the screen has finished dealing (its animation): cards beyond it are not yet
shown, and neither are the results, the win or the credits the win brings — a player never
sees the outcome before the cards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kiosk.kernel.games.base import GameRules, WagerResult
from kiosk.kernel.scoring import count_icons
from kiosk.terminal.core import commands as c
from kiosk.terminal.core.core import COMMAND_RULES
from kiosk.terminal.core.records import ProgressivePaid, SeatBetRecord, SeatResult
from kiosk.terminal.core.state import Phase, RoundState, TerminalState
from kiosk.terminal.presentation.chips import Chip, chips
from kiosk.terminal.presentation.faces import CardFace, face
from kiosk.terminal.presentation.families import table_family
from kiosk.terminal.presentation.i18n import text
from kiosk.terminal.presentation.money import dollars
from kiosk.terminal.presentation.reasons import round_reasons
from kiosk.terminal.presentation.spots import SpotView, spot_views
from kiosk.terminal.presentation.win import WinView, net_win, round_summary, win_view
from kiosk.terminal.presentation.words import GameWords

SEAT = 0
IN_ROUND = frozenset({Phase.DEALING, Phase.DECISION, Phase.SETTLING})


@dataclass(frozen=True)
class OfferView:
    """The decision prompt (Turbo raise / Stadium play or fold) with its countdown."""

    kind: str  # "raise" or "play"
    prompt: str
    take_choice: str
    take_label: str
    decline_choice: str
    decline_label: str
    seconds_left: int
    total_seconds: int
    default_text: str  # "FOLD in 12 s"; "" with no timer (the round waits for the player)
    can_take: bool = True  # False: the credits do not cover the extra wager (the prompt says so)
    default_label: str = ""  # the button of the choice the rules take when a timer runs out


@dataclass(frozen=True)
class TableView:
    """Everything a table screen shows."""

    family: str  # the game's family ("turbo", "stadium"): which table screen shows it
    edition: str
    title: str
    icon: str  # the icon drawn on the cards ("football", ...); "" for Stadium
    icons_word: str
    game_number: int
    phase: str
    credit_text: str
    wager_text: str
    win_text: str
    chips: tuple[Chip, ...]
    spots: tuple[SpotView, ...]
    first: tuple[CardFace | None, ...]  # Turbo: 3 community; Stadium: the 9-card array
    own: tuple[CardFace | None, ...]  # Turbo: the seat's 6 cards
    dealer: tuple[CardFace | None, ...]  # Stadium: the dealer's 3 cards
    dealer_face_down: bool  # Stadium: the dealer's cards wait face down (array dealt)
    icon_count: int  # icons on the cards shown so far (Turbo)
    icon_count_text: str
    positions: tuple[int, ...]  # Stadium: the seat's array positions (chosen or played)
    hand_text: str
    dealer_text: str
    offer: OfferView | None
    guide_text: str  # what to do next, or the game's result
    win_banner: str
    won: bool
    deal_steps: tuple[int, ...]  # cumulative card counts the deal animation stops at
    cards_total: int  # cards of the round dealt so far (the animation's target)
    revealed: int
    can_bet: bool
    can_deal: bool
    can_clear: bool
    can_repeat: bool
    can_cash_out: bool
    can_change_game: bool
    lines_text: str = ""  # Stadium: the blind row and column wagers' result, on every tab
    tile_icon: str = ""  # the game's icon in the title bar ("football", "stadium")
    win: WinView | None = None  # the round's win, once shown (the win presentation)
    #: why the round paid what it did, once shown: the hands compared, each winning wager
    #: with what paid it and its odds ("12 footballs: Field Goal pays 3 to 1")
    reasons: tuple[str, ...] = ()
    deal_button: bool = True  # a DEAL button is shown (none at a table's seat: decision 0054)


def allowed(state: TerminalState, command: type[c.Command]) -> bool:
    """Whether the terminal's command table allows ``command`` now (button enabling)."""
    rule = COMMAND_RULES[command]
    return state.phase in rule.phases and not any(x in rule.blocked_by for x in state.lockups())


def _shown_round(state: TerminalState, game: GameRules) -> RoundState | None:
    """The round on the table: the one being played, or the last one with its result until
    the player starts the next.  A game whose player picks positions on the first deal
    (Stadium's array) clears it as soon as a position or a chip is placed for the next round:
    the picker then shows empty numbered positions, never the last round's cards face up
    (which the next round does not deal again); the last round lives in history."""
    rnd = state.round
    if rnd is None or rnd.edition != state.selected_edition:
        return None
    if game.positions and state.phase not in IN_ROUND and next_round_started(state):
        return None
    return rnd


def next_round_started(state: TerminalState) -> bool:
    """The player has put something down for the next round (a chip, a position)."""
    return bool(state.pending_wagers.get(SEAT)) or bool(state.pending_positions.get(SEAT))


def round_cards(rnd: RoundState | None) -> list[int]:
    """The round's cards in dealing order: first deal, the seat's cards, the shared second."""
    if rnd is None:
        return []
    own = rnd.seat_cards[SEAT] if rnd.seat_cards else []
    return [*rnd.first, *own, *rnd.second_shared]


def deal_steps(game: GameRules) -> tuple[int, ...]:
    """Where the deal animation pauses: the first deal as the family deals it (card by card,
    Stadium's array in packs of three), then card by card."""
    first = game.first_deal
    steps = table_family(game).first_deal_steps(game)
    rest = game.second_deal_per_seat + game.second_deal_shared
    return (*steps, *range(first + 1, first + rest + 1))


def _slots(
    cards: list[int], start: int, n: int, shown: int, suit: int | None
) -> tuple[CardFace | None, ...]:
    return tuple(
        face(cards[i], suit) if i < len(cards) and i < shown else None
        for i in range(start, start + n)
    )


def _seat_result(rnd: RoundState | None) -> SeatResult | None:
    if rnd is None or not rnd.settled_at:
        return None
    return next((s for s in rnd.settlement if s.seat == SEAT), None)


def _bet(rnd: RoundState | None) -> SeatBetRecord | None:
    if rnd is None:
        return None
    return next((b for b in rnd.bets if b.seat == SEAT), None)


def table_view(
    state: TerminalState,
    rules: Callable[[str], GameRules],
    language: str,
    *,
    now: int,
    deadline: int | None,
    revealed: int | None = None,
    in_flight: bool = False,
) -> TableView:
    """The table of the selected edition; ``revealed`` None shows every card dealt.

    ``in_flight``: the screen is still moving dealt cards into place, so what follows from
    them waits — the decision prompt, the hands' names, the results, the win."""
    game = rules(state.selected_edition)
    rnd = _shown_round(state, game)
    cards = round_cards(rnd)
    shown = len(cards) if revealed is None else max(0, min(revealed, len(cards)))
    all_shown = shown == len(cards)
    seat_result = _seat_result(rnd)
    result_shown = seat_result is not None and all_shown and not in_flight
    pending = dict(state.pending_wagers.get(SEAT, {}))
    bet = _bet(rnd)
    stakes = _stakes(state, rnd, bet, pending, seat_result if result_shown else None)
    credits, paid = _credits_and_paid(state, seat_result, result_shown)
    win = paid if result_shown else 0

    rack = chips(state.config)
    family = table_family(game)
    suit = family.suit(game)
    first_n = game.first_deal
    own_n = game.second_deal_per_seat
    icon_count = count_icons(cards[:shown], suit) if suit is not None else 0
    words = GameWords(game, language)
    positions = _positions(state, pending, bet)

    landed = shown if not in_flight else -1  # nothing follows from cards still moving
    offer_view = _offer_view(state, rnd, game, words, now, deadline, landed >= first_n)
    busy = state.phase in IN_ROUND or not all_shown or in_flight
    jackpots = _jackpots(state, rnd, result_shown)
    banner = _banner(language, seat_result, result_shown, jackpots)
    spots = spot_views(game, stakes.wagers, stakes.extra, stakes.results, language, rack)
    buttons = _buttons(state, busy, pending)
    return TableView(
        family=game.family,
        edition=state.selected_edition,
        title=words.title,
        icon=family.card_icon(game),
        icons_word=words.icons(icon_count),
        game_number=rnd.game_number if rnd is not None else 0,
        phase=state.phase.value,
        credit_text=dollars(credits),
        wager_text=dollars(stakes.total),
        win_text=dollars(win + sum(p.award for p in jackpots)),
        chips=rack,
        spots=spots,
        first=_slots(cards, 0, first_n, shown, suit),
        own=_slots(cards, first_n, own_n, shown, suit),
        dealer=_slots(cards, first_n + own_n, game.second_deal_shared, shown, suit),
        dealer_face_down=_dealer_face_down(game, rnd, shown, busy),
        icon_count=icon_count,
        icon_count_text=family.icon_count_text(game, icon_count, words),
        positions=positions,
        hand_text=_hand_text(game, cards, _played_positions(state, bet), landed, language),
        dealer_text=_dealer_text(game, cards, landed, language),
        offer=offer_view,
        guide_text=_guide(state, game, words, pending, positions, busy, offer_view, banner),
        win_banner=banner,
        won=result_shown
        and seat_result is not None
        and (net_win(paid, seat_result.stake) or bool(jackpots)),
        deal_steps=deal_steps(game),
        cards_total=len(cards),
        revealed=shown,
        can_bet=buttons.bet,
        can_deal=buttons.deal,
        can_clear=buttons.clear,
        can_repeat=buttons.repeat,
        can_cash_out=buttons.cash_out,
        can_change_game=buttons.change_game,
        lines_text=_lines_text(game, stakes.results, language),
        win=_win(seat_result if result_shown else None, rnd, credits, spots, language),
        tile_icon=family.tile_icon(game),
        reasons=round_reasons(game, rnd, seat_result, words, SEAT) if result_shown else (),
    )


@dataclass(frozen=True)
class _Stakes:
    """What lies on the felt: the wagers, a decision's extra wager (its spot and cents) and,
    once shown, each wager's result."""

    wagers: dict[str, int]
    extra: tuple[str, int] | None
    results: tuple[WagerResult, ...]

    @property
    def total(self) -> int:
        return sum(self.wagers.values()) + (self.extra[1] if self.extra else 0)


def _stakes(
    state: TerminalState,
    rnd: RoundState | None,
    bet: SeatBetRecord | None,
    pending: dict[str, int],
    shown_result: SeatResult | None,
) -> _Stakes:
    """The wagers being placed, or else the round's (with the results once shown)."""
    if pending or state.phase is Phase.WAGERING:
        return _Stakes(pending, None, ())
    if bet is None:
        return _Stakes({}, None, ())
    extra_cents = rnd.extra.get(SEAT, 0) if rnd is not None else 0
    offer = rnd.offers.get(SEAT) if rnd is not None else None
    extra = (offer.decision.spot, extra_cents) if extra_cents and offer is not None else None
    results = shown_result.results if shown_result is not None else ()
    return _Stakes(dict(bet.bet.wagers), extra, results)


def _credits_and_paid(
    state: TerminalState, seat_result: SeatResult | None, result_shown: bool
) -> tuple[int, int]:
    """The credit meter on show (a win not yet shown held back) and the round's pay."""
    if seat_result is None:
        return state.credits[SEAT], 0
    paid = seat_result.paid
    # a handpay never reached the credit meter
    hidden_win = paid if not result_shown and not seat_result.handpay else 0
    return state.credits[SEAT] - hidden_win, paid


def _positions(
    state: TerminalState, pending: dict[str, int], bet: SeatBetRecord | None
) -> tuple[int, ...]:
    """The positions picked, or else (nothing being placed) the round's."""
    positions = tuple(state.pending_positions.get(SEAT, ()))
    if not positions and not pending and bet is not None:
        return bet.bet.positions
    return positions


def _dealer_face_down(game: GameRules, rnd: RoundState | None, shown: int, busy: bool) -> bool:
    """The dealer's cards lie face down: dealt after the first cards, not all shown yet."""
    if not game.second_deal_shared or rnd is None or not busy:
        return False
    first_n = game.first_deal
    return first_n <= shown < first_n + game.second_deal_per_seat + game.second_deal_shared


@dataclass(frozen=True)
class _Buttons:
    """Which of the player's buttons work."""

    bet: bool = False
    deal: bool = False
    clear: bool = False
    repeat: bool = False
    cash_out: bool = False
    change_game: bool = False


def _buttons(state: TerminalState, busy: bool, pending: dict[str, int]) -> _Buttons:
    """Which of the player's buttons work (none while a round is busy)."""
    if busy:
        return _Buttons()
    return _Buttons(
        bet=allowed(state, c.PlaceWager),
        deal=allowed(state, c.Deal),
        clear=bool(pending) and allowed(state, c.ClearWagers),
        repeat=_can_repeat(state) and allowed(state, c.RepeatWagers),
        cash_out=state.credits[SEAT] > 0 and allowed(state, c.CashOut),
        change_game=not state.lockups() and allowed(state, c.SelectEdition),
    )


def _win(
    shown_result: SeatResult | None,
    rnd: RoundState | None,
    credits: int,
    spots: tuple[SpotView, ...],
    language: str,
) -> WinView | None:
    """The win presentation of a result on show (None before)."""
    if shown_result is None:
        return None
    winning = tuple(spot.id for spot in spots if spot.highlight == "win")
    game_number = rnd.game_number if rnd is not None else 0
    return win_view(
        shown_result.paid,
        shown_result.stake,
        shown_result.handpay,
        game_number,
        credits,
        winning,
        language,
    )


def _lines_text(game: GameRules, results: tuple[WagerResult, ...], language: str) -> str:
    """Stadium: how the blind row and column wagers ended, together ("" when none was bet)."""
    blind = {s.id for s in game.spots if s.group == "blind"}
    lines = [r for r in results if r.spot in blind]
    if not lines:
        return ""
    paid, stake = sum(r.paid for r in lines), sum(r.stake for r in lines)
    if paid > stake:
        result = text(language, "result_win", amount=dollars(paid))
    else:
        result = text(language, "result_push" if paid == stake else "result_lose")
    return text(language, "lines_result", result=result)


def _can_repeat(state: TerminalState) -> bool:
    last = state.last_bets.get(SEAT)
    return last is not None and last.edition == state.selected_edition


def _played_positions(state: TerminalState, bet: SeatBetRecord | None) -> tuple[int, ...]:
    """The positions the shown cards were played with; none once new ones are picked (the
    round's cards would otherwise be ranked for positions that were not played)."""
    if bet is None or state.pending_positions.get(SEAT):
        return ()
    return bet.bet.positions


def _hand_text(
    game: GameRules, cards: list[int], positions: tuple[int, ...], shown: int, language: str
) -> str:
    if shown < game.first_deal or len(cards) < game.first_deal:
        return ""
    return table_family(game).hand_text(game, cards[: game.first_deal], positions, language)


def _dealer_text(game: GameRules, cards: list[int], shown: int, language: str) -> str:
    if not game.second_deal_shared:
        return ""
    start = game.first_deal + game.second_deal_per_seat
    end = start + game.second_deal_shared
    if len(cards) < end or shown < end:
        return ""
    return table_family(game).dealer_text(game, cards[start:end], language)


def _offer_view(
    state: TerminalState,
    rnd: RoundState | None,
    game: GameRules,
    words: GameWords,
    now: int,
    deadline: int | None,
    first_shown: bool,
) -> OfferView | None:
    language = words.language
    if state.phase is not Phase.DECISION or rnd is None or not first_shown:
        return None
    offered = rnd.offers.get(SEAT)
    if offered is None or SEAT in rnd.choices:
        return None
    offer = offered.decision
    amount = dollars(offer.extra_wager)
    total = state.config.decision_seconds if offered.deadline else 0
    end = deadline if deadline is not None else offered.deadline
    left = max(0, min(total, -(-(end - now) // 1000)))
    take, default = offer.take, offer.default
    decline = next(ch for ch in offer.choices if ch != take)
    labels = table_family(game).offer_labels(game, words, take, decline, amount)
    prompt, take_label, decline_label = labels.prompt, labels.take, labels.decline
    default_label = take_label if default == take else decline_label
    can_take = state.credits[SEAT] >= offer.extra_wager
    if not can_take:
        prompt = text(language, "take_short", label=take_label, amount=amount)
    return OfferView(
        kind=offer.kind,
        prompt=prompt,
        take_choice=take,
        take_label=take_label,
        decline_choice=decline,
        decline_label=decline_label,
        seconds_left=left,
        total_seconds=total,
        default_text=(
            text(language, "default_after", choice=default_label, seconds=left) if total else ""
        ),
        can_take=can_take,
        default_label=default_label,
    )


def _jackpots(state: TerminalState, rnd: RoundState | None, shown: bool) -> list[ProgressivePaid]:
    """The progressive hits credited to the seat for the round on show (decision 0066)."""
    if rnd is None or not shown:
        return []
    game = rnd.table_game or rnd.game_number
    return [
        p for p in state.progressive_paid if p.seat == SEAT and p.game == game and not p.handpay
    ]


def _banner(
    language: str, seat_result: SeatResult | None, shown: bool, jackpots: list[ProgressivePaid]
) -> str:
    if seat_result is None or not shown:
        return ""
    if jackpots:  # the jackpot is the news (the round's own result is on its spots)
        return " · ".join(
            text(language, "progressive_won", name=p.outcome, amount=dollars(p.award))
            for p in jackpots
        )
    return round_summary(seat_result.paid, seat_result.stake, language)


def _guide(
    state: TerminalState,
    game: GameRules,
    words: GameWords,
    pending: dict[str, int],
    positions: tuple[int, ...],
    busy: bool,
    offer: OfferView | None,
    banner: str,
) -> str:
    language = words.language
    if offer is not None:
        return offer.prompt
    if busy:
        return text(language, "dealing")
    if not pending and banner:
        return banner
    if state.credits[SEAT] == 0 and not pending:
        return text(language, "no_credits")
    chosen = len(state.pending_positions.get(SEAT, ()))
    if game.positions and chosen != game.positions:
        return text(language, "choose_positions", n=chosen)
    config = state.config
    limits = text(language, "limits", low=dollars(config.min_wager), high=dollars(config.max_wager))
    if not pending:
        return f"{text(language, 'place_wagers')} · {limits}"
    mandatory = next((s for s in game.spots if s.mandatory), None)
    if mandatory is not None and mandatory.id not in pending:
        return text(language, "place_mandatory", spot=words.spot(mandatory))
    return f"{text(language, 'touch_deal')} · {limits}"
