"""The Stadium family on screen: the 3x3 array dealt in packs of three, the chosen hand, the
dealer's hand, play or fold, the blind row and column wagers, the three pay tables."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from kiosk.kernel.games import poker3
from kiosk.kernel.games.base import GameRules, WagerResult, WagerSpot
from kiosk.kernel.games.stadium import ANTE, ANTE_BONUS, FAMILY_ID, PLAY, StadiumRules
from kiosk.kernel.games.stadium_paytables import PAIRS_PLUS
from kiosk.terminal.presentation.families import (
    GameWordsLike,
    HelpContent,
    OfferLabels,
    PayTable,
    RoundCards,
    TableFamily,
    odds_words,
    register,
    stadium_help,
)
from kiosk.terminal.presentation.families.stadium_hands import dealer_qualifies as dealer_qualifies
from kiosk.terminal.presentation.families.stadium_hands import ranked_name, showdown_text
from kiosk.terminal.presentation.families.stadium_hands import three_card_name as three_card_name
from kiosk.terminal.presentation.help_pictures import HelpPictures
from kiosk.terminal.presentation.i18n import game_text, text
from kiosk.terminal.presentation.spots import odds_range, odds_text

#: the array is dealt a row (three cards) at a time
PACK = 3


def _rules(game: GameRules) -> StadiumRules:
    assert isinstance(game, StadiumRules), f"{game.game_id} is not a Stadium game"
    return game


def blind_line(spot_id: str, words: GameWordsLike) -> tuple[str, str]:
    """A blind spot's wager name and line name, e.g. ("Pairs Plus", "Row 1")."""
    wager, line, number = spot_id.rsplit("_", 2)
    kind = "Pairs Plus" if wager == "pairs_plus" else "6-Card Bonus"
    return words(kind), text(words.language, "row" if line == "row" else "col", n=number)


def _category_rows(
    pays: Mapping[int, Fraction], names: tuple[str, ...], language: str
) -> tuple[tuple[str, str], ...]:
    return tuple(
        (game_text(language, names[cat]), odds_text(pays[cat]))
        for cat in sorted(pays, reverse=True)
    )


class StadiumTable(TableFamily):
    """The Stadium family's :class:`~kiosk.terminal.presentation.families.TableFamily`."""

    id = FAMILY_ID

    def tile_icon(self, game: GameRules) -> str:
        """The array, drawn (``"stadium"``)."""
        return FAMILY_ID

    def menu_text(self, game: GameRules, words: GameWordsLike) -> str:
        """``"Pick 3 of 9 cards and beat the dealer"``."""
        return text(words.language, "menu_stadium")

    def spot_label(self, game: GameRules, spot: WagerSpot, words: GameWordsLike) -> str:
        """A blind spot as its wager and line ("Pairs Plus Row 1")."""
        if spot.group == "blind":
            kind, line = blind_line(spot.id, words)
            return f"{kind} {line}"
        return words(spot.label)

    def extra_label(self, game: GameRules, spot: str, words: GameWordsLike) -> str:
        """The play wager and the ante bonus by name."""
        return words({PLAY: "Play", ANTE_BONUS: "Ante bonus"}.get(spot, spot))

    def host_spot(self, game: GameRules, result_spot: str) -> str:
        """The play wager and the ante bonus are shown on the ante."""
        return ANTE if result_spot in (PLAY, ANTE_BONUS) else result_spot

    def decision_spot(self, game: GameRules) -> tuple[str, str] | None:
        """Play, beside the ante."""
        return ANTE, PLAY

    def help_pictures(self, game: GameRules, language: str) -> HelpPictures | None:
        """A hand drawn on every pay row, a round worked out."""
        return stadium_help.pictures(_rules(game), language)

    def pays_text(self, game: GameRules, spot: WagerSpot) -> str:
        """The ante's 1:1 and bonus range, a side wager's range."""
        rules = _rules(game)
        if spot.id == ANTE:  # Ante and Play 1:1, the ante bonus up to its top
            return odds_range([Fraction(1), *rules.ante_bonus.pays.values()])
        side = rules.pairs_plus if spot.id.startswith("pairs_plus") else rules.six_card_bonus
        return odds_range(list(side.pays.values()))

    def line_fields(
        self, game: GameRules, spot: WagerSpot, words: GameWordsLike
    ) -> tuple[str, str, str]:
        """A blind spot's line ("row_1"), wager name and line name."""
        if spot.group != "blind":
            return "", "", ""
        _wager, line, number = spot.id.rsplit("_", 2)
        kind, label = blind_line(spot.id, words)
        return f"{line}_{number}", kind, label

    def first_deal_steps(self, game: GameRules) -> tuple[int, ...]:
        """The array a row at a time."""
        return tuple(range(PACK, game.first_deal + 1, PACK))

    def hand_text(
        self, game: GameRules, first: Sequence[int], positions: Sequence[int], language: str
    ) -> str:
        """``"Your hand: Pair"`` once the array is dealt and three positions are chosen."""
        if len(positions) != game.positions or len(first) < game.first_deal:
            return ""
        hand = [first[p] for p in positions]
        return text(language, "your_hand", hand=ranked_name(hand, language))

    def dealer_text(self, game: GameRules, dealer: Sequence[int], language: str) -> str:
        """``"Dealer: King high — qualifies"``."""
        if len(dealer) < game.second_deal_shared:
            return ""
        qualifies = text(language, "qualifies" if dealer_qualifies(dealer) else "not_qualifies")
        return text(
            language, "dealer_hand", hand=three_card_name(dealer, language), qualifies=qualifies
        )

    def reasons(
        self,
        game: GameRules,
        results: Sequence[WagerResult],
        cards: RoundCards,
        label: Callable[[str], str],
        words: GameWordsLike,
    ) -> tuple[str, ...]:
        """The hands compared when the seat played (``"Pair of Jacks beats Pair of
        Sevens"``, or the dealer not qualifying), then each winning side wager with the hand
        that paid it: ``"Pair of Queens: Pairs Plus pays 1 to 1"``."""
        language = words.language
        complete = len(cards.positions) == game.positions and len(cards.first) >= game.first_deal
        hand = [cards.first[p] for p in cards.positions] if complete else []
        dealer = list(cards.shared)
        out: list[str] = []
        played = any(r.spot == PLAY for r in results)
        if played and hand and len(dealer) == game.second_deal_shared:
            if dealer_qualifies(dealer):
                out.append(showdown_text(hand, dealer, language))
            else:
                hand_name = ranked_name(dealer, language)
                if language == "es":  # inside the sentence: "(carta alta: jota)"
                    hand_name = hand_name[:1].lower() + hand_name[1:]
                out.append(text(language, "dealer_not_qualify", hand=hand_name))
        for r in results:
            if r.spot in (ANTE, PLAY) or r.paid <= r.stake:
                continue
            own_hand = r.spot in (ANTE_BONUS, PAIRS_PLUS) and hand
            why = ranked_name(hand, language) if own_hand else words(r.outcome)
            name, odds = label(r.spot), odds_words(r, words)
            out.append(text(language, "pays_because", why=why, name=name, odds=odds))
        return tuple(out)

    def offer_labels(
        self, game: GameRules, words: GameWordsLike, take: str, decline: str, amount: str
    ) -> OfferLabels:
        """``"Play for $5.00 — or fold?"``: PLAY $5.00 or FOLD."""
        language = words.language
        return OfferLabels(
            text(language, "play_prompt", amount=amount),
            text(language, "play", amount=amount),
            text(language, "fold"),
        )

    def help(self, game: GameRules, language: str, words: GameWordsLike) -> HelpContent:
        """Picking the hand, the deal, the dealer; the ante bonus, Pairs Plus and 6-Card
        Bonus tables."""
        rules = _rules(game)
        paragraphs = (
            text(language, "help_stadium_pick"),
            text(language, "help_stadium_deal"),
            text(language, "help_stadium_dealer"),
        )
        c3, c5 = poker3.CATEGORY3_NAMES, poker3.CATEGORY5_NAMES
        tables = (
            PayTable(
                text(language, "help_stadium_bonus"),
                _category_rows(rules.ante_bonus.pays, c3, language),
            ),
            PayTable(
                text(language, "help_pairs_plus"),
                _category_rows(rules.pairs_plus.pays, c3, language),
            ),
            PayTable(
                text(language, "help_six_card"),
                _category_rows(rules.six_card_bonus.pays, c5, language),
            ),
        )
        return HelpContent(paragraphs, tables)


register(StadiumTable())
