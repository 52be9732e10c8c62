"""The player's languages: English and Spanish texts of the screen, chosen by the player.

Screen texts are looked up by key (:func:`text`).  Game data (edition titles, wager names and
the pay tables' outcome texts) come from the edition and pay-table files, which carry their own
translations (:class:`kiosk.terminal.presentation.words.GameWords` shows them); :func:`game_text`
holds the words the code itself defines: poker hands, results, suits, the Stadium game's names and
the 9 Card Bonus outcomes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from kiosk.kernel.games.paytable import LANGUAGES
from kiosk.terminal.presentation.i18n_player import PLAYER_TEXTS
from kiosk.terminal.presentation.i18n_show import SHOW_TEXTS
from kiosk.terminal.presentation.i18n_staff import STAFF_TEXTS
from kiosk.terminal.presentation.i18n_table import TABLE_TEXTS

__all__ = [
    "CATALOGUES",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "catalogue",
    "check_language",
    "game_text",
    "other_language",
    "text",
]
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "es": "Español"}

_EN: dict[str, str] = {
    "attract_title": "TURBO SPORTS & STADIUM POKER",
    "attract_touch": "TOUCH THE SCREEN TO PLAY",
    "attract_insert": "Insert a bill to play",
    "menu_title": "Choose your game",
    "menu_turbo": "Count the {icons} in your 9 cards",
    "menu_stadium": "Pick 3 of 9 cards and beat the dealer",
    "credit": "CREDIT",
    "bet": "BET",
    "win": "WIN",
    "cash_out": "CASH OUT",
    "deal": "DEAL",
    "clear": "CLEAR",
    "repeat": "REPEAT",
    "help": "HELP",
    "history": "HISTORY",
    "games": "GAMES",
    "back": "BACK",
    "close": "CLOSE",
    "session": "Session {time}",
    "chips": "Chip value",
    "place_wagers": "Touch a chip, then a wager spot",
    "place_mandatory": "Place the {spot} wager to play",
    "touch_deal": "Touch DEAL to play",
    "choose_positions": "Touch 3 array positions for your hand ({n} chosen)",
    "dealing": "Dealing…",
    "no_credits": "Insert a bill to play",
    "you_win": "YOU WIN {amount}",
    "push": "PUSH — {amount} returned",
    "no_win": "No win this game",
    "community": "COMMUNITY",
    "your_cards": "YOUR CARDS",
    "dealer": "DEALER",
    "array": "STADIUM ARRAY",
    "your_hand": "Your hand: {hand}",
    "dealer_hand": "Dealer: {hand} — {qualifies}",
    "qualifies": "qualifies",
    "not_qualifies": "does not qualify",
    "icon_count": "{count} {icons}",
    "hand_tab": "MY HAND",
    "lines_tab": "ROWS & COLUMNS",
    "row": "Row {n}",
    "col": "Column {n}",
    "rows": "ROWS",
    "columns": "COLUMNS",
    "lines_result": "Rows & columns: {result}",
    "raise_prompt": "{label} your {main} for {amount}?",
    "no_thanks": "NO THANKS",
    "take_short": "Not enough credits for {label} ({amount})",
    "play_prompt": "Play for {amount} — or fold?",
    "play": "PLAY {amount}",
    "fold": "FOLD",
    "default_after": "{choice} in {seconds} s",
    "raise_not_offered": "No {label}: more than {max} {icons} in the community",
    "result_win": "WIN {amount}",
    "result_push": "PUSH",
    "result_lose": "LOSE",
    "lock_critical_memory_error": "CRITICAL MEMORY ERROR",
    "lock_storage_full": "STORAGE FULL",
    "lock_service": "SERVICE MODE",
    "lock_handpay": "HANDPAY",
    "lock_tilt": "OUT OF ORDER",
    "lock_device_records": "RECORDS DISAGREE",
    "lock_door_open": "DOOR OPEN",
    "lock_disabled": "PLAY DISABLED",
    "lock_printer": "PRINTER OUT OF PAPER",
    "call_attendant": "Please call an attendant",
    "wait_service": "Play resumes when the condition is cleared",
    "handpay_jackpot": "Jackpot of {amount} — an attendant will pay you by hand",
    "handpay_cancelled_credits": "Cash-out of {amount} — an attendant will pay you by hand",
    "handpay_progressive": (
        "{name} progressive jackpot of {amount} — an attendant will pay you by hand"
    ),
    "progressive_won": "PROGRESSIVE JACKPOT! {name}: {amount} credited",
    "doors": "Open: {doors}",
    "door_main": "main door",
    "lock_printer_fault": "PRINTER FAULT",
    "tilt_paper": "The voucher printer is out of paper",
    "tilt_printer": "The voucher printer is not working",
    "tilt_validator": "The bill validator is not working",
    "lock_validator_fault": "BILL VALIDATOR FAULT",
    "tilt_bill_jam": "A note is jammed in the bill validator",
    "tilt_cashbox_full": "The bill validator's cash box is full",
    "tilt_cashbox_removed": "The bill validator's cash box has been removed",
    "tilt_cheated": "The bill validator detected a cheating attempt",
    "tilt_validator_link": "The bill validator is not answering",
    "tilt_printer_jam": "The voucher printer is jammed",
    "tilt_head_open": "The voucher printer's head is open",
    "tilt_printer_link": "The voucher printer is not answering",
    "paper_low": "The voucher printer's paper is running low",
    "tilt_rng": "The game's random number generator failed its check",
    "tilt_voucher": "A voucher is being checked with the casino system",
    "tilt_config": "This terminal's settings need an attendant",
    "tilt_table": "This seat's result differs from the table's: an attendant checks the round",
    "tilt_device": "A device reported something the terminal did not expect",
    "tilt_door_sensor": "A door sensor is not working",
    "tilt_records": "This terminal's records need the operator",
    "tilt_fault": "A fault has stopped the game",
    "disabled_host": "The casino system has stopped play on this terminal",
    "disabled_link": "The terminal lost contact with the casino system",
    "disabled_anchor": "The casino system is checking this terminal's records",
    "device_records_reason": "A device's money record differs from the terminal's: "
    "the casino system must confirm it",
    "service_reason": "A technician is working on this terminal",
    "critical_reason": "The terminal found an error in its memory and stopped",
    "storage_full_reason": "The terminal's storage is full",
    "attendant_detail": "For the attendant: {detail}",
    "cash_out_by_hand": "Touch CASH OUT to be paid by an attendant, or wait for the printer",
    "cash_out_handpay": "CASH OUT\nBY HAND",
    "voucher_title": "CASHOUT VOUCHER",
    "voucher_printing": "Printing your voucher…",
    "voucher_take": "Please take your voucher",
    "voucher_validation": "VALIDATION {number}",
    "voucher_expires": "Void after {days} days",
    "voucher_terminal": "Terminal {terminal}  ·  voucher #{sequence}",
    "note_in": "{amount} added",
    "note_returned": "{amount} note returned: {reason}",
    "voucher_failed": "Voucher not printed ({reason}) — your credits stay on the terminal",
    "reminder_title": "Time check",
    "reminder_text": "You have been playing for {minutes} minutes.",
    "reminder_continue": "KEEP PLAYING",
    "reminder_setting": "Reminder",
    "reminder_off": "Off",
    "reminder_every": "{minutes} min",
    "help_title": "{title} — rules and pays",
    "help_how": "How to play",
    "help_pays": "Pay tables",
    "help_limits": "Limits: {min} to {max} per wager spot, in credits of {denom}; at most "
    "{table} per game, decision wager included.",
    "help_outcome": "Outcome",
    "help_pays_col": "Pays",
    "help_only_best": "Each wager pays only its highest award; a win returns the stake too.",
    "help_turbo_icons": "Cards of {suit} carry {icons}: 2 to 5 carry 1, 6 to 10 carry 2, "
    "J Q K A carry 4. Other suits carry none.",
    "help_turbo_deal": "Place the {main} wager (required) and any others, then touch DEAL. "
    "Three community cards are dealt.",
    "help_turbo_raise": "With at most {max} {icons} among them you may {label} your {main}: "
    "a second wager of the same amount, paid on your 9 cards. {default} is taken when the "
    "timer runs out.",
    "help_turbo_own": "Then you receive 6 cards of your own; every wager is paid on your 9 cards.",
    "help_raise_table": "{label} (offered with at most {max} {icons} in the community)",
    "help_nine_suited": "{n} {suit} in your 9 cards",
    "help_sf": "{n}-card straight flush in {suit}",
    "help_stadium_pick": "Before the deal, touch 3 of the 9 array positions: they become "
    "your hand. Place the Ante (required) and, if you like, Pairs Plus and the 6-Card Bonus "
    "on your hand, or blind on the array's rows and columns.",
    "help_stadium_deal": "Nine cards are dealt into the array in three packs of three. Then "
    "PLAY (a wager equal to the Ante) or FOLD; FOLD is taken when the timer runs out.",
    "help_stadium_dealer": "The dealer qualifies with Queen high or better. If not, the Ante "
    "wins 1 to 1 and Play pushes; otherwise the better hand wins Ante and Play 1 to 1, and a "
    "tie pushes.",
    "help_stadium_bonus": "Ante bonus (paid when you play, whatever the dealer holds)",
    "help_pairs_plus": "Pairs Plus (your hand, or a row or column)",
    "help_six_card": "6-Card Bonus (best 5 of the 3 cards and the dealer's 3)",
    "history_title": "GAME HISTORY",
    "history_none": "No game has been played on this terminal yet.",
    "history_game": "Game {number}  ·  {title}  ·  {time}",
    "history_page": "{page} of {pages}",
    "history_older": "OLDER",
    "history_newer": "NEWER",
    "history_wagers": "Wagers",
    "history_decision": "Decision: {choice}",
    "history_auto": "(timer)",
    "history_credits": "Credit {before} → {after}",
    "in_play": "in play",
    "simulator": "SIMULATOR — simulated devices, not player controls",
    "rank_2": "Two",
    "rank_3": "Three",
    "rank_4": "Four",
    "rank_5": "Five",
    "rank_6": "Six",
    "rank_7": "Seven",
    "rank_8": "Eight",
    "rank_9": "Nine",
    "rank_T": "Ten",
    "rank_J": "Jack",
    "rank_Q": "Queen",
    "rank_K": "King",
    "rank_A": "Ace",
    "high_card": "{rank} high",
    "err_credits": "Not enough credits",
    "err_no_wager": "Place a wager first",
    "err_min": "The least on one wager spot is {amount}",
    "err_max": "The most on one wager spot is {amount}",
    "err_table": "The most on one game is {amount}",
    "err_repeat": "No previous wager of this game to repeat",
    "err_positions": "Choose 3 array positions first",
    "err_mandatory": "Place the required wager first",
    "err_denomination": "Wagers are whole credits of {amount}",
    "err_locked": "The terminal is locked",
    "err_no_decision": "There is no decision to make",
    "err_not_now": "That cannot be done now",
}

_ES: dict[str, str] = {
    "attract_title": "TURBO SPORTS Y STADIUM POKER",
    "attract_touch": "TOQUE LA PANTALLA PARA JUGAR",
    "attract_insert": "Introduzca un billete para jugar",
    "menu_title": "Elija su juego",
    "menu_turbo": "Cuente los {icons} en sus 9 cartas",
    "menu_stadium": "Elija 3 de 9 cartas y gane a la banca",
    "credit": "CRÉDITO",
    "bet": "APUESTA",
    "win": "GANANCIA",
    "cash_out": "COBRAR",
    "deal": "REPARTIR",
    "clear": "BORRAR",
    "repeat": "REPETIR",
    "help": "AYUDA",
    "history": "HISTORIAL",
    "games": "JUEGOS",
    "back": "VOLVER",
    "close": "CERRAR",
    "session": "Sesión {time}",
    "chips": "Valor de ficha",
    "place_wagers": "Toque una ficha y luego una apuesta",
    "place_mandatory": "Apueste en {spot} para jugar",
    "touch_deal": "Toque REPARTIR para jugar",
    "choose_positions": "Toque 3 posiciones del tablero para su mano ({n} elegidas)",
    "dealing": "Repartiendo…",
    "no_credits": "Introduzca un billete para jugar",
    "you_win": "GANA {amount}",
    "push": "EMPATE — se devuelven {amount}",
    "no_win": "Sin premio esta vez",
    "community": "COMUNES",
    "your_cards": "SUS CARTAS",
    "dealer": "BANCA",
    "array": "TABLERO STADIUM",
    "your_hand": "Su mano: {hand}",
    "dealer_hand": "Banca: {hand} — {qualifies}",
    "qualifies": "califica",
    "not_qualifies": "no califica",
    "icon_count": "{count} {icons}",
    "hand_tab": "MI MANO",
    "lines_tab": "FILAS Y COLUMNAS",
    "row": "Fila {n}",
    "col": "Columna {n}",
    "rows": "FILAS",
    "columns": "COLUMNAS",
    "lines_result": "Filas y columnas: {result}",
    "raise_prompt": "¿{label}? Otra apuesta de {amount} a su {main}",
    "no_thanks": "NO, GRACIAS",
    "take_short": "Créditos insuficientes para {label} ({amount})",
    "play_prompt": "¿Jugar por {amount} o retirarse?",
    "play": "JUGAR {amount}",
    "fold": "RETIRARSE",
    "default_after": "{choice} en {seconds} s",
    "raise_not_offered": "Sin {label}: más de {max} {icons} en las comunes",
    "result_win": "GANA {amount}",
    "result_push": "EMPATE",
    "result_lose": "PIERDE",
    "lock_critical_memory_error": "ERROR CRÍTICO DE MEMORIA",
    "lock_storage_full": "ALMACENAMIENTO LLENO",
    "lock_service": "MODO SERVICIO",
    "lock_handpay": "PAGO MANUAL",
    "lock_tilt": "FUERA DE SERVICIO",
    "lock_device_records": "REGISTROS DISTINTOS",
    "lock_door_open": "PUERTA ABIERTA",
    "lock_disabled": "JUEGO DESACTIVADO",
    "lock_printer": "IMPRESORA SIN PAPEL",
    "call_attendant": "Por favor, llame a un asistente",
    "wait_service": "El juego continúa cuando se resuelva la situación",
    "handpay_jackpot": "Premio mayor de {amount}: un asistente se lo pagará en mano",
    "handpay_cancelled_credits": "Cobro de {amount}: un asistente se lo pagará en mano",
    "handpay_progressive": (
        "Premio progresivo {name} de {amount}: un asistente se lo pagará en mano"
    ),
    "progressive_won": "¡PREMIO PROGRESIVO! {name}: {amount} acreditados",
    "doors": "Abierta: {doors}",
    "door_main": "puerta principal",
    "lock_printer_fault": "FALLO DE IMPRESORA",
    "tilt_paper": "La impresora de vales no tiene papel",
    "tilt_printer": "La impresora de vales no funciona",
    "tilt_validator": "El lector de billetes no funciona",
    "lock_validator_fault": "FALLO DEL LECTOR DE BILLETES",
    "tilt_bill_jam": "Hay un billete atascado en el lector de billetes",
    "tilt_cashbox_full": "La caja de billetes del lector está llena",
    "tilt_cashbox_removed": "Se ha retirado la caja de billetes del lector",
    "tilt_cheated": "El lector de billetes detectó un intento de fraude",
    "tilt_validator_link": "El lector de billetes no responde",
    "tilt_printer_jam": "La impresora de vales está atascada",
    "tilt_head_open": "El cabezal de la impresora de vales está abierto",
    "tilt_printer_link": "La impresora de vales no responde",
    "paper_low": "A la impresora de vales le queda poco papel",
    "tilt_rng": "El generador de números aleatorios no superó su control",
    "tilt_voucher": "Se está verificando un vale con el sistema del casino",
    "tilt_config": "La configuración de este terminal requiere un asistente",
    "tilt_table": (
        "El resultado de este puesto difiere del de la mesa: un asistente revisa la ronda"
    ),
    "tilt_device": "Un dispositivo informó algo que el terminal no esperaba",
    "tilt_door_sensor": "Un sensor de puerta no funciona",
    "tilt_records": "Los registros de este terminal requieren al operador",
    "tilt_fault": "Una avería ha detenido el juego",
    "disabled_host": "El sistema del casino ha detenido el juego en este terminal",
    "disabled_link": "El terminal perdió la conexión con el sistema del casino",
    "disabled_anchor": "El sistema del casino está verificando los registros del terminal",
    "device_records_reason": "El registro de dinero de un dispositivo difiere del terminal: "
    "el sistema del casino debe confirmarlo",
    "service_reason": "Un técnico está trabajando en este terminal",
    "critical_reason": "El terminal encontró un error en su memoria y se detuvo",
    "storage_full_reason": "El almacenamiento del terminal está lleno",
    "attendant_detail": "Para el asistente: {detail}",
    "cash_out_by_hand": "Toque COBRAR para que un asistente le pague, o espere a la impresora",
    "cash_out_handpay": "COBRAR\nEN MANO",
    "voucher_title": "VALE DE COBRO",
    "voucher_printing": "Imprimiendo su vale…",
    "voucher_take": "Por favor, retire su vale",
    "voucher_validation": "VALIDACIÓN {number}",
    "voucher_expires": "Caduca a los {days} días",
    "voucher_terminal": "Terminal {terminal}  ·  vale n.º {sequence}",
    "note_in": "{amount} añadidos",
    "note_returned": "Billete de {amount} devuelto: {reason}",
    "voucher_failed": "Vale no impreso ({reason}): sus créditos siguen en el terminal",
    "reminder_title": "Control del tiempo",
    "reminder_text": "Lleva {minutes} minutos jugando.",
    "reminder_continue": "SEGUIR JUGANDO",
    "reminder_setting": "Aviso",
    "reminder_off": "No",
    "reminder_every": "{minutes} min",
    "help_title": "{title}: reglas y pagos",
    "help_how": "Cómo se juega",
    "help_pays": "Tablas de pago",
    "help_limits": "Límites: de {min} a {max} por apuesta, en créditos de {denom}; como "
    "máximo {table} por partida, incluida la apuesta de decisión.",
    "help_outcome": "Resultado",
    "help_pays_col": "Paga",
    "help_only_best": "Cada apuesta paga solo su premio más alto; un premio devuelve también "
    "la apuesta.",
    "help_turbo_icons": "Las cartas de {suit} llevan {icons}: del 2 al 5 llevan 1, del 6 al 10 "
    "llevan 2, J Q K A llevan 4. Los demás palos no llevan.",
    "help_turbo_deal": "Apueste en {main} (obligatorio) y en las demás que quiera; toque "
    "REPARTIR. Se reparten tres cartas comunes.",
    "help_turbo_raise": "Con {max} {icons} o menos entre ellas puede elegir {label}: una "
    "segunda apuesta igual a su {main}, pagada con sus 9 cartas. Si se acaba el tiempo se toma "
    "«{default}».",
    "help_turbo_own": "Después recibe 6 cartas propias; cada apuesta se paga con sus 9 cartas.",
    "help_raise_table": "{label} (con {max} {icons} o menos en las comunes)",
    "help_nine_suited": "{n} de {suit} en sus 9 cartas",
    "help_sf": "Escalera de color de {n} cartas en {suit}",
    "help_stadium_pick": "Antes de repartir toque 3 de las 9 posiciones del tablero: serán su "
    "mano. Haga el Ante (obligatorio) y, si quiere, Parejas Plus y Bono 6 Cartas sobre su mano, "
    "o a ciegas sobre las filas y columnas del tablero.",
    "help_stadium_deal": "Se reparten nueve cartas en el tablero en tres paquetes de tres. "
    "Luego JUGAR (una apuesta igual al Ante) o RETIRARSE; si se acaba el tiempo se retira.",
    "help_stadium_dealer": "La banca califica con Q alta o mejor. Si no califica, el Ante gana "
    "1 a 1 y la Jugada empata; si califica, la mejor mano gana Ante y Jugada 1 a 1, y el "
    "empate devuelve las apuestas.",
    "help_stadium_bonus": "Bono del Ante (se paga si juega, tenga lo que tenga la banca)",
    "help_pairs_plus": "Parejas Plus (su mano, o una fila o columna)",
    "help_six_card": "Bono 6 Cartas (las 5 mejores entre sus 3 cartas y las 3 de la banca)",
    "history_title": "HISTORIAL DE PARTIDAS",
    "history_none": "Todavía no se ha jugado ninguna partida en este terminal.",
    "history_game": "Partida {number}  ·  {title}  ·  {time}",
    "history_page": "{page} de {pages}",
    "history_older": "ANTERIOR",
    "history_newer": "SIGUIENTE",
    "history_wagers": "Apuestas",
    "history_decision": "Decisión: {choice}",
    "history_auto": "(tiempo)",
    "history_credits": "Crédito {before} → {after}",
    "in_play": "en juego",
    "simulator": "SIMULADOR: dispositivos simulados, no son controles del jugador",
    "rank_2": "dos",
    "rank_3": "tres",
    "rank_4": "cuatro",
    "rank_5": "cinco",
    "rank_6": "seis",
    "rank_7": "siete",
    "rank_8": "ocho",
    "rank_9": "nueve",
    "rank_T": "diez",
    "rank_J": "jota",
    "rank_Q": "reina",
    "rank_K": "rey",
    "rank_A": "as",
    "high_card": "Carta alta: {rank}",
    "err_credits": "Créditos insuficientes",
    "err_no_wager": "Haga primero una apuesta",
    "err_min": "Lo mínimo por apuesta es {amount}",
    "err_max": "Lo máximo por apuesta es {amount}",
    "err_table": "Lo máximo por partida es {amount}",
    "err_repeat": "No hay apuesta anterior de este juego para repetir",
    "err_positions": "Elija primero 3 posiciones del tablero",
    "err_mandatory": "Haga primero la apuesta obligatoria",
    "err_denomination": "Las apuestas son créditos enteros de {amount}",
    "err_locked": "El terminal está bloqueado",
    "err_no_decision": "No hay ninguna decisión pendiente",
    "err_not_now": "Eso no se puede hacer ahora",
}

CATALOGUES: Mapping[str, Mapping[str, str]] = {
    "en": {
        **_EN,
        **SHOW_TEXTS["en"],
        **TABLE_TEXTS["en"],
        **STAFF_TEXTS["en"],
        **PLAYER_TEXTS["en"],
    },
    "es": {
        **_ES,
        **SHOW_TEXTS["es"],
        **TABLE_TEXTS["es"],
        **STAFF_TEXTS["es"],
        **PLAYER_TEXTS["es"],
    },
}

#: Spanish for the game words the code defines (poker hands, results, suits, Stadium's names).
_ES_GAME: Mapping[str, str] = {
    "Stadium Three Card Poker": "Stadium Póquer de Tres Cartas",
    "Ante": "Ante",
    "Pairs Plus": "Parejas Plus",
    "6-Card Bonus": "Bono 6 Cartas",
    "High card": "Carta alta",
    "Pair": "Pareja",
    "One pair": "Pareja",
    "Two pair": "Doble pareja",
    "Flush": "Color",
    "Straight": "Escalera",
    "Three of a kind": "Trío",
    "Straight flush": "Escalera de color",
    "Four of a kind": "Póquer",
    "Full house": "Full",
    "Royal flush": "Escalera real",
    "Lose": "Pierde",
    "Win": "Gana",
    "Fold": "Retirado",
    "Tie: push": "Empate",
    "Dealer does not qualify": "La banca no califica",
    "Dealer does not qualify: push": "La banca no califica: empate",
    "Ante bonus": "Bono del Ante",
    "Play": "Jugada",
    "spades": "picas",
    "hearts": "corazones",
    "diamonds": "diamantes",
    "clubs": "tréboles",
    "raise": "doblar",
    "no_raise": "no doblar",
    "play": "jugar",
    "fold": "retirarse",
}
_PREFIXED = re.compile(r"^(Lose|Ante bonus) ?[(:] ?(.+?)\)?$")
#: The 9 Card Bonus outcomes (kiosk.kernel.games.nine_card_bonus) in Spanish.
_ES_SUITED = re.compile(r"^(\d+) suited cards$")
_ES_RUN = re.compile(r"^(\d+)-card straight flush$")


def check_language(language: str) -> str:
    """``language`` when it is one of :data:`LANGUAGES`; ValueError otherwise."""
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
    return language


def catalogue(language: str) -> Mapping[str, str]:
    """Every screen text of a language, by key."""
    return CATALOGUES[check_language(language)]


def text(language: str, key: str, **values: object) -> str:
    """The screen text ``key`` in ``language``, with ``{name}`` fields filled from ``values``."""
    return catalogue(language)[key].format(**values)


def game_text(language: str, words: str, suit: str = "") -> str:
    """A game word the code defines (outcome, hand name, suit) in ``language``; ``suit`` names
    the suit of "5 suited cards"; unknown words unchanged."""
    if language == "en":
        return words
    if words in _ES_GAME:
        return _ES_GAME[words]
    suited = _ES_SUITED.match(words)
    if suited is not None:
        return f"{suited[1]} cartas de {suit}" if suit else f"{suited[1]} cartas del palo"
    run = _ES_RUN.match(words)
    if run is not None:
        return f"Escalera de color de {run[1]} cartas"
    match = _PREFIXED.match(words)
    if match is not None:
        head, inner = match[1], match[2]
        joiner = ": " if head == "Ante bonus" else " ("
        tail = "" if head == "Ante bonus" else ")"
        return f"{_ES_GAME[head]}{joiner}{_ES_GAME.get(inner, inner)}{tail}"
    return words


def other_language(language: str) -> str:
    """The language a one-touch language button switches to."""
    return LANGUAGES[(LANGUAGES.index(check_language(language)) + 1) % len(LANGUAGES)]
