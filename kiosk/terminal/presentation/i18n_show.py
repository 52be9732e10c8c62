"""Screen texts of the win presentation, the felt and the picture help, in every language
(merged into :data:`kiosk.terminal.presentation.i18n.CATALOGUES`)."""

from __future__ import annotations

from collections.abc import Mapping

SHOW_TEXTS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "win_tier_win": "WIN",
        "win_tier_big": "BIG WIN",
        "win_tier_huge": "HUGE WIN",
        "win_tier_top": "TOP WIN",
        "win_skip": "Touch to continue",
        "felt_lines_hint": "Each row and column of the array is a hand",
        "help_pays_title": "Pay tables",
        "help_example_title": "One round, worked out",
        "help_example_wager": "You bet {amount} on {spot}",
        "help_example_cards": "The cards",
        "help_example_count": "{count} {icons}: {outcome}",
        "help_example_pays": "{spot} pays {odds}: you get {amount} back",
        "help_example_loses": "{spot} loses",
        "help_example_total": "Total back: {amount} on {bet} bet",
        "help_example_hand": "Your hand: {hand}",
        "help_example_dealer": "Dealer: {hand}",
        "help_icon_values": "Icons on each card of {suit}",
    },
    "es": {
        "win_tier_win": "PREMIO",
        "win_tier_big": "GRAN PREMIO",
        "win_tier_huge": "PREMIO ENORME",
        "win_tier_top": "PREMIO MAYOR",
        "win_skip": "Toque para seguir",
        "felt_lines_hint": "Cada fila y columna del tablero es una mano",
        "help_pays_title": "Tablas de pago",
        "help_example_title": "Una partida, paso a paso",
        "help_example_wager": "Apuesta {amount} en {spot}",
        "help_example_cards": "Las cartas",
        "help_example_count": "{count} {icons}: {outcome}",
        "help_example_pays": "{spot} paga {odds}: recibe {amount}",
        "help_example_loses": "{spot} pierde",
        "help_example_total": "Recibe en total: {amount} por {bet} apostados",
        "help_example_hand": "Su mano: {hand}",
        "help_example_dealer": "Banca: {hand}",
        "help_icon_values": "Iconos en cada carta de {suit}",
    },
}
