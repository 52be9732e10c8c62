"""The Turbo family on screen: icons on the cards of the edition's suit, the raise (Double)
of the mandatory wager, icon pay tables and the 9 Card Bonus."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from kiosk.kernel.cards import SUIT_NAMES
from kiosk.kernel.games.base import GameRules, WagerResult, WagerSpot
from kiosk.kernel.games.paytable import Translations, merged
from kiosk.kernel.games.turbo import FAMILY_ID, RAISE, TurboRules
from kiosk.kernel.games.turbo_edition import IconPaytable
from kiosk.kernel.scoring import count_icons
from kiosk.terminal.presentation.families import (
    GameWordsLike,
    HelpContent,
    OfferLabels,
    PayTable,
    RoundCards,
    TableFamily,
    odds_words,
    register,
)
from kiosk.terminal.presentation.help_pictures import HelpPictures
from kiosk.terminal.presentation.i18n import game_text, text
from kiosk.terminal.presentation.spots import odds_range, odds_text


def _rules(game: GameRules) -> TurboRules:
    assert isinstance(game, TurboRules), f"{game.game_id} is not a Turbo game"
    return game


def _icon_rows(table: IconPaytable, words: GameWordsLike) -> tuple[tuple[str, str], ...]:
    tiers = sorted(table.tiers, key=lambda t: t.odds, reverse=True)
    return tuple((words(t.outcome), odds_text(t.odds)) for t in tiers)


class TurboTable(TableFamily):
    """The Turbo family's :class:`~kiosk.terminal.presentation.families.TableFamily`."""

    id = FAMILY_ID

    def translations(self, game: GameRules) -> Translations:
        """The edition's, its chosen tables' and its raise table's translations."""
        turbo = _rules(game)
        tables = (table.translations for table in turbo.paytables.values())
        edition = turbo.edition
        return merged(edition.translations, *tables, edition.raise_rule.paytable.translations)

    def suit(self, game: GameRules) -> int | None:
        """The edition's icon suit."""
        return _rules(game).suit

    def icon_names(self, game: GameRules) -> tuple[str, str] | None:
        """("football", "footballs")."""
        edition = _rules(game).edition
        return edition.icon, edition.icons

    def card_icon(self, game: GameRules) -> str:
        """The edition's icon."""
        return _rules(game).edition.icon

    def tile_icon(self, game: GameRules) -> str:
        """The edition's icon."""
        return _rules(game).edition.icon

    def menu_text(self, game: GameRules, words: GameWordsLike) -> str:
        """``"Count the footballs in your 9 cards"``."""
        icons = words(_rules(game).edition.icons)
        return text(words.language, "menu_turbo", icons=icons)

    def extra_label(self, game: GameRules, spot: str, words: GameWordsLike) -> str:
        """The raise by the edition's name for it ("Double")."""
        return words(_rules(game).raise_label) if spot == RAISE else words(spot)

    def host_spot(self, game: GameRules, result_spot: str) -> str:
        """The raise rides on the mandatory wager's spot."""
        return _rules(game).edition.main.id if result_spot == RAISE else result_spot

    def pays_text(self, game: GameRules, spot: WagerSpot) -> str:
        """An icon wager's distinct odds, or the 9 Card Bonus's range."""
        turbo = _rules(game)
        if spot.id in turbo.paytables:
            tiers = sorted(turbo.paytables[spot.id].tiers, key=lambda t: t.odds)
            return " · ".join(dict.fromkeys(odds_text(t.odds) for t in tiers))
        table = turbo.nine_card_bonus
        if table is not None:
            pays = [Fraction(p) for p in table.pays]
            pays += [Fraction(p) for p in (table.straight_flush_8, table.straight_flush_9) if p]
            return odds_range(pays)
        return ""

    def reasons(
        self,
        game: GameRules,
        results: Sequence[WagerResult],
        cards: RoundCards,
        label: Callable[[str], str],
        words: GameWordsLike,
    ) -> tuple[str, ...]:
        """Each winning wager with the count that paid it and the pay table's odds:
        ``"12 footballs: Field Goal pays 3 to 1"``, ``"6 footballs in the community: First
        Down pays 3 to 2"``, ``"5 suited cards: 9 Card Bonus pays 8 to 1"``."""
        turbo = _rules(game)
        language = words.language
        in_nine = count_icons((*cards.first, *cards.own), turbo.suit)
        in_community = count_icons(cards.first, turbo.suit)
        out = []
        for r in results:
            if r.paid <= r.stake:
                continue
            table = self._table(turbo, r.spot)
            if table is None:  # the 9 Card Bonus: its outcome says what paid
                why = words(r.outcome)
            elif _scope(table, r.outcome) == "community":
                icons = words(turbo.edition.icons)
                why = text(language, "icons_in_community", count=in_community, icons=icons)
            else:
                why = self.icon_count_text(game, in_nine, words)
            name, odds = label(r.spot), odds_words(r, words)
            out.append(text(language, "pays_because", why=why, name=name, odds=odds))
        return tuple(out)

    @staticmethod
    def _table(turbo: TurboRules, spot: str) -> IconPaytable | None:
        if spot == RAISE:
            return turbo.edition.raise_rule.paytable
        return turbo.paytables.get(spot)

    def decision_spot(self, game: GameRules) -> tuple[str, str] | None:
        """The raise, beside the mandatory wager."""
        return _rules(game).edition.main.id, RAISE

    def help_pictures(self, game: GameRules, language: str) -> HelpPictures | None:
        """Icon tables with the icon and its count, a round worked out."""
        from kiosk.terminal.presentation.families import turbo_help

        return turbo_help.pictures(_rules(game), language)

    def offer_labels(
        self, game: GameRules, words: GameWordsLike, take: str, decline: str, amount: str
    ) -> OfferLabels:
        """``"Double your First Down for $5.00?"``: DOUBLE or NO THANKS."""
        turbo = _rules(game)
        language = words.language
        label = words(turbo.raise_label)
        main = words(turbo.edition.main.label)
        prompt = text(language, "raise_prompt", label=label, main=main, amount=amount)
        return OfferLabels(prompt, label.upper(), text(language, "no_thanks"))

    def help(self, game: GameRules, language: str, words: GameWordsLike) -> HelpContent:
        """The icon rules, the deal, the raise; every icon table, the raise's, the bonus."""
        turbo = _rules(game)
        ed = turbo.edition
        rule = ed.raise_rule
        suit = game_text(language, SUIT_NAMES[turbo.suit])
        icons, main, label = words(ed.icons), words(ed.main.label), words(rule.label)
        default = text(language, "no_thanks")  # the raise's default choice is to decline
        paragraphs = [
            text(language, "help_turbo_icons", suit=suit, icons=icons),
            text(language, "help_turbo_deal", main=main),
            text(
                language,
                "help_turbo_raise",
                max=rule.max_community_icons,
                icons=icons,
                label=label,
                main=main,
                default=default,
            ),
            text(language, "help_turbo_own"),
            text(language, "help_only_best"),
        ]
        tables = [
            PayTable(words(w.label), _icon_rows(turbo.paytables[w.id], words)) for w in ed.wagers
        ]
        raise_title = text(
            language, "help_raise_table", label=label, max=rule.max_community_icons, icons=icons
        )
        tables.insert(1, PayTable(raise_title, _icon_rows(rule.paytable, words)))
        bonus = turbo.nine_card_bonus
        if bonus is not None:
            rows: list[tuple[str, str]] = []
            for n, sf in ((9, bonus.straight_flush_9), (8, bonus.straight_flush_8)):
                if sf is not None:
                    rows.append(
                        (text(language, "help_sf", n=n, suit=suit), odds_text(Fraction(sf)))
                    )
            for n in range(9, 3, -1):
                rows.append(
                    (
                        text(language, "help_nine_suited", n=n, suit=suit),
                        odds_text(Fraction(bonus.pays[n - 4])),
                    )
                )
            tables.append(PayTable(words(ed.nine_card_bonus_label), tuple(rows)))
        return HelpContent(tuple(paragraphs), tuple(tables), ed.icon)


register(TurboTable())


def _scope(table: IconPaytable, outcome: str) -> str:
    """Whether the tier paid on ``outcome`` counts the 9 cards ("hand") or the community."""
    return next((t.scope for t in table.tiers if t.outcome == outcome), "hand")
