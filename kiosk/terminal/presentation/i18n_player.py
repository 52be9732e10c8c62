"""Screen texts of issue 26's player fixes (results that say why, partial returns, the
standalone terminal's timer, limits and attract line), in every language; merged last into
:data:`kiosk.terminal.presentation.i18n.CATALOGUES`, so a key here replaces an older one."""

from __future__ import annotations

from collections.abc import Mapping

PLAYER_TEXTS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "returned": "Returned {paid} of {stake}",
        "session": "Session {time}",
        "session_minutes": "{minutes} min",
        "session_hours": "{hours} h {minutes} min",
        "reminder_explain": "Set a reminder: every 15, 30 or 60 minutes of play",
        "pays_to": "{count} {icons}: {name} pays {odds}",
        "pays_hand": "{hand}: {name} pays {odds}",
        "beats": "{winner} beats {loser}",
        "ties": "{hand} ties {other}",
        "folded": "Folded: {hand}",
        "dealer_not_qualify": "Dealer {hand} does not qualify",
        "limits": "MIN {low} · MAX {high}",
        "no_timer": "Take your time",
        "help_page": "Page {page} of {pages}",
        "help_next": "NEXT",
        "help_previous": "PREVIOUS",
        "table_seat_step": "{step}",
        "attract_responsible": "Play responsibly. Gambling problem? Call 1-800-522-4700",
    },
    "es": {
        "returned": "Se devuelven {paid} de {stake}",
        "session": "Sesión {time}",
        "session_minutes": "{minutes} min",
        "session_hours": "{hours} h {minutes} min",
        "reminder_explain": "Ponga un aviso: cada 15, 30 o 60 minutos de juego",
        "pays_to": "{count} {icons}: {name} paga {odds}",
        "pays_hand": "{hand}: {name} paga {odds}",
        "beats": "{winner} gana a {loser}",
        "ties": "{hand} empata con {other}",
        "folded": "Retirado: {hand}",
        "dealer_not_qualify": "La banca ({hand}) no califica",
        "limits": "MÍN {low} · MÁX {high}",
        "no_timer": "Sin prisa",
        "help_page": "Página {page} de {pages}",
        "help_next": "SIGUIENTE",
        "help_previous": "ANTERIOR",
        "table_seat_step": "{step}",
        "attract_responsible": "Juegue con responsabilidad. ¿Problemas con el juego? "
        "Llame al 1-800-522-4700",
    },
}
