"""Screen texts of a seat at a table (the table bar, the lost link), in every language (merged
into :data:`kiosk.terminal.presentation.i18n.CATALOGUES`)."""

from __future__ import annotations

from collections.abc import Mapping

TABLE_TEXTS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "table_step_connecting": "Joining the table",
        "table_step_waiting": "Waiting for the dealer",
        "table_step_betting": "Place your bets",
        "table_step_bets_closed": "Bets closed",
        "table_step_dealing": "Dealer is dealing",
        "table_step_deciding": "Make your decision",
        "table_step_dealer_hand": "Dealer's hand",
        "table_step_round_over": "Round over",
        "table_step_voided": "Round voided: wagers returned",
        "table_step_paused": "Table paused",
        "table_pack": "Pack {pack}: {place}",
        "table_place_array": "array {cards}",
        "table_place_seat": "seat {seat} cards {cards}",
        "table_place_community": "community cards",
        "table_game": "{table} · Game {game}",
        "table_name": "Table {table}",
        "table_seats_one": "1 seat in",
        "table_seats": "{n} seats in",
        "table_progressive": "{outcome} progressive {amount}",
        "table_bets_disabled": "Bets disabled",
        "table_no_link": "No link to the table",
        "table_closed": "Not seated at the table",
        "table_lost_advice": "New bets come back with the link. Your credits stay here.",
    },
    "es": {
        "table_step_connecting": "Entrando en la mesa",
        "table_step_waiting": "Esperando al crupier",
        "table_step_betting": "Hagan sus apuestas",
        "table_step_bets_closed": "No va más",
        "table_step_dealing": "El crupier reparte",
        "table_step_deciding": "Tome su decisión",
        "table_step_dealer_hand": "Mano del crupier",
        "table_step_round_over": "Ronda terminada",
        "table_step_voided": "Ronda anulada: apuestas devueltas",
        "table_step_paused": "Mesa en pausa",
        "table_pack": "Paquete {pack}: {place}",
        "table_place_array": "cartas {cards}",
        "table_place_seat": "puesto {seat}, cartas {cards}",
        "table_place_community": "cartas comunitarias",
        "table_game": "{table} · Partida {game}",
        "table_name": "Mesa {table}",
        "table_seats_one": "1 jugador",
        "table_seats": "{n} jugadores",
        "table_progressive": "Progresivo {outcome} {amount}",
        "table_bets_disabled": "Apuestas desactivadas",
        "table_no_link": "Sin enlace con la mesa",
        "table_closed": "Sin puesto en la mesa",
        "table_lost_advice": "Las apuestas vuelven con el enlace. Sus créditos siguen aquí.",
    },
}
