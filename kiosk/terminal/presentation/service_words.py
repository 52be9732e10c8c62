"""The service pages' words in both languages: the pages' own texts, the meters by the names of
docs/terminal.md ("Total wagered", not ``coin_in``) and the devices' state in words (not the
drivers' fields).  The touchscreen's service pages show these; the command line keeps its
technicians' keys (``turbokiosk meters``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.terminal.presentation.money import dollars
from kiosk.terminal.presentation.service_outcome_texts import OUTCOME_TEXTS

_PAGE_TEXTS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "menu_heading": "SERVICE · {role} · terminal {terminal}",
        "read_only": "(read only)",
        "meter": "Meter",
        "lifetime": "Lifetime",
        "period": "Period",
        "credits_now": "Credits on the terminal",
        "device": "Device",
        "state": "State",
        "validator": "Bill validator",
        "printer": "Voucher printer",
        "host": "Host link",
        "outbox": "Messages waiting for the host",
        "not_here": "not driven by this process",
        "ready": "ready",
        "not_ready": "not ready",
        "enabled": "taking notes",
        "disabled": "not taking notes",
        "paper_out": "out of paper",
        "fault": "fault: {fault}",
        "notes": "notes {notes}",
        "connected": "connected to {address}",
        "down": "no link to {address}",
        "address": "address {address}",
        "none_waiting": "none",
        "waiting": "{count}, the oldest number {oldest}",
        "test_vouchers": "{count} test vouchers printed",
        "cashbox": "cash box {amount}",
        "test_mode": "in test mode",
        "language": "Español",
        "no_game": "No game has been played on this terminal yet.",
        "recall_page": "Game {n} of {count}",
        "older": "OLDER",
        "newer": "NEWER",
        "menu": "Menu",
        "exit": "Exit service mode",
        "role_attendant": "Attendant",
        "role_technician": "Technician",
        "role_operator": "Operator",
        "pin_title_enter": "SERVICE MENU",
        "pin_title_new": "CHANGE PIN",
        "pin_title_set": "SET A ROLE'S PIN",
        "pin_help_enter": "Choose your role and type its PIN.",
        "pin_help_new": "Choose a PIN of 4 to 8 digits.",
        "pin_help_set": "The role must change this PIN at its next entry.",
        "pin_back": "Back",
        "pin_close": "Close (key off)",
        "pin_clear": "Clear",
        "pin_ok": "OK",
        "pin": "PIN",
        "new_pin": "New PIN",
        "new_pin_again": "New PIN again",
        "pins_differ": "The two PINs differ: type the new PIN again",
        "factory_pin": "The {role} PIN is the factory PIN: choose a new one",
        "pin_changed": "The {role} PIN was changed",
        "service_left": "Service mode left: play resumes",
        "type_new_pin": "Type the new PIN",
        "choose_role_pin": "Choose the role, then its PIN",
        "refused": "Refused",
        "act_reset_handpay": "Reset handpay",
        "act_clear_tilt": "Clear {code}",
        "act_start_test": "Start test",
        "act_stop_test": "Stop test",
        "act_edit": "Edit",
        "act_export": "Export",
        "act_seeded_hmac": "Seeded HMAC",
        "act_status": "Status",
        "act_reset_period": "Reset period meters",
        "filter_all": "All",
        "filter_tilts": "Tilts",
        "filter_doors": "Doors",
        "filter_money": "Money",
        "filter_power": "Power",
        "filter_service": "Service",
        "notes_read": "Notes read so far: {count}",
        "item": "Item",
        "value": "Value",
        "st_terminal": "Terminal",
        "st_phase": "Phase",
        "st_stopped": "Stopped by",
        "st_nothing": "nothing (play allowed)",
        "st_credits": "Credits",
        "st_handpay": "Handpay waiting",
        "st_handpay_value": "{amount} {kind}, seat {seat}",
        "st_jackpot": "jackpot",
        "st_progressive": "progressive jackpot",
        "st_cancelled": "cancelled credits",
        "st_tilt": "Tilt {code}",
        "st_tilt_waiting": "waiting to be cleared",
        "st_doors": "Doors open",
        "st_critical": "Critical memory error",
        "st_read_only": "Read only",
        "game_n": "game {n}",
        "phase_idle": "idle",
        "phase_wagering": "wagers placed",
        "phase_dealing": "dealing",
        "phase_decision": "waiting for a decision",
        "phase_settling": "settling",
        "phase_result": "showing the result",
        "phase_cashout": "printing a voucher",
    },
    "es": {
        "menu_heading": "SERVICIO · {role} · terminal {terminal}",
        "read_only": "(solo lectura)",
        "meter": "Contador",
        "lifetime": "Total",
        "period": "Periodo",
        "credits_now": "Créditos en el terminal",
        "device": "Dispositivo",
        "state": "Estado",
        "validator": "Validador de billetes",
        "printer": "Impresora de tickets",
        "host": "Enlace con el host",
        "outbox": "Mensajes pendientes para el host",
        "not_here": "no lo controla este proceso",
        "ready": "lista",
        "not_ready": "no lista",
        "enabled": "acepta billetes",
        "disabled": "no acepta billetes",
        "paper_out": "sin papel",
        "fault": "falla: {fault}",
        "notes": "billetes {notes}",
        "connected": "conectado a {address}",
        "down": "sin enlace con {address}",
        "address": "dirección {address}",
        "none_waiting": "ninguno",
        "waiting": "{count}, el más antiguo n.º {oldest}",
        "test_vouchers": "{count} tickets de prueba impresos",
        "cashbox": "caja {amount}",
        "test_mode": "en modo de prueba",
        "language": "English",
        "no_game": "Todavía no se ha jugado ninguna partida en este terminal.",
        "recall_page": "Partida {n} de {count}",
        "older": "ANTERIOR",
        "newer": "SIGUIENTE",
        "menu": "Menú",
        "exit": "Salir del modo de servicio",
        "role_attendant": "Asistente",
        "role_technician": "Técnico",
        "role_operator": "Operador",
        "pin_title_enter": "MENÚ DE SERVICIO",
        "pin_title_new": "CAMBIAR PIN",
        "pin_title_set": "PIN DE OTRO ROL",
        "pin_help_enter": "Elija su rol y escriba su PIN.",
        "pin_help_new": "Elija un PIN de 4 a 8 dígitos.",
        "pin_help_set": "El rol deberá cambiar este PIN en su próxima entrada.",
        "pin_back": "Volver",
        "pin_close": "Cerrar (sin llave)",
        "pin_clear": "Borrar",
        "pin_ok": "OK",
        "pin": "PIN",
        "new_pin": "PIN nuevo",
        "new_pin_again": "PIN nuevo otra vez",
        "pins_differ": "Los dos PIN no coinciden: escriba otra vez el PIN nuevo",
        "factory_pin": "El PIN de {role} es de fábrica: cámbielo",
        "pin_changed": "Se cambió el PIN de {role}",
        "service_left": "Modo de servicio cerrado: el juego se reanuda",
        "type_new_pin": "Escriba el PIN nuevo",
        "choose_role_pin": "Elija el rol y luego su PIN",
        "refused": "Rechazado",
        "act_reset_handpay": "Pago a mano hecho",
        "act_clear_tilt": "Borrar {code}",
        "act_start_test": "Iniciar prueba",
        "act_stop_test": "Detener prueba",
        "act_edit": "Editar",
        "act_export": "Exportar",
        "act_seeded_hmac": "HMAC con semilla",
        "act_status": "Estado",
        "act_reset_period": "Reiniciar contadores del periodo",
        "filter_all": "Todos",
        "filter_tilts": "Fallas",
        "filter_doors": "Puertas",
        "filter_money": "Dinero",
        "filter_power": "Energía",
        "filter_service": "Servicio",
        "notes_read": "Billetes leídos hasta ahora: {count}",
        "item": "Dato",
        "value": "Valor",
        "st_terminal": "Terminal",
        "st_phase": "Fase",
        "st_stopped": "Detenido por",
        "st_nothing": "nada (se puede jugar)",
        "st_credits": "Créditos",
        "st_handpay": "Pago a mano pendiente",
        "st_handpay_value": "{amount} {kind}, puesto {seat}",
        "st_jackpot": "premio mayor",
        "st_progressive": "premio progresivo",
        "st_cancelled": "créditos cancelados",
        "st_tilt": "Falla {code}",
        "st_tilt_waiting": "pendiente de borrar",
        "st_doors": "Puertas abiertas",
        "st_critical": "Error crítico de memoria",
        "st_read_only": "Solo lectura",
        "game_n": "partida {n}",
        "phase_idle": "en espera",
        "phase_wagering": "apuestas colocadas",
        "phase_dealing": "repartiendo",
        "phase_decision": "esperando una decisión",
        "phase_settling": "liquidando",
        "phase_result": "mostrando el resultado",
        "phase_cashout": "imprimiendo un ticket",
    },
}

#: every text of the service pages, by language
SERVICE_TEXTS: Mapping[str, Mapping[str, str]] = {
    language: {**_PAGE_TEXTS[language], **OUTCOME_TEXTS[language]} for language in _PAGE_TEXTS
}

#: the core meters by the names of docs/terminal.md ("Records")
METER_NAMES: Mapping[str, Mapping[str, str]] = {
    "en": {
        "coin_in": "Total wagered",
        "coin_out": "Total won",
        "bills_in": "Notes in",
        "bills_in_count": "Notes in (count)",
        "tickets_in": "Vouchers in",
        "tickets_in_count": "Vouchers in (count)",
        "tickets_out": "Vouchers out",
        "tickets_out_count": "Vouchers out (count)",
        "handpaid_cancelled_credits": "Handpaid cancelled credits",
        "handpaid_jackpots": "Handpaid jackpots",
        "handpay_count": "Handpays (count)",
        "games_played": "Games played",
        "games_won": "Games won",
        "games_lost": "Games lost",
        "games_pushed": "Games pushed",
        "door_opens": "Door opens",
        "power_resets": "Power resets",
        "tilts": "Tilts",
        "voided_returns": "Voided rounds returned",
        "games_voided": "Games voided",
        "bills_in.": "Notes of {amount} (count)",
        "wager_in.": "Wagered on {spot}",
        "wager_out.": "Won on {spot}",
        "game.in": "{edition} ({tables}): wagered",
        "game.out": "{edition} ({tables}): won",
        "game.played": "{edition} ({tables}): games",
    },
    "es": {
        "coin_in": "Total apostado",
        "coin_out": "Total ganado",
        "bills_in": "Billetes",
        "bills_in_count": "Billetes (cantidad)",
        "tickets_in": "Tickets cobrados",
        "tickets_in_count": "Tickets cobrados (cantidad)",
        "tickets_out": "Tickets emitidos",
        "tickets_out_count": "Tickets emitidos (cantidad)",
        "handpaid_cancelled_credits": "Créditos pagados a mano",
        "handpaid_jackpots": "Premios mayores pagados a mano",
        "handpay_count": "Pagos a mano (cantidad)",
        "games_played": "Partidas jugadas",
        "games_won": "Partidas ganadas",
        "games_lost": "Partidas perdidas",
        "games_pushed": "Partidas empatadas",
        "door_opens": "Aperturas de puerta",
        "power_resets": "Reinicios por corte de energía",
        "tilts": "Fallas",
        "voided_returns": "Rondas anuladas devueltas",
        "games_voided": "Partidas anuladas",
        "bills_in.": "Billetes de {amount} (cantidad)",
        "wager_in.": "Apostado en {spot}",
        "wager_out.": "Ganado en {spot}",
        "game.in": "{edition} ({tables}): apostado",
        "game.out": "{edition} ({tables}): ganado",
        "game.played": "{edition} ({tables}): partidas",
    },
}


def service_text(language: str, key: str, **values: object) -> str:
    """A service page's text in ``language`` (English when the language has none)."""
    table = SERVICE_TEXTS.get(language, SERVICE_TEXTS["en"])
    return table.get(key, SERVICE_TEXTS["en"][key]).format(**values)


def door_name(door: str, language: str) -> str:
    """A door's name ("Main door"; a door the catalogue does not know: its id)."""
    key = f"door_{door}"
    return service_text(language, key) if key in SERVICE_TEXTS["en"] else door


def role_name(label: str, language: str) -> str:
    """A role's name from its label ("technician" -> "Técnico"); another text as it is."""
    key = f"role_{label}"
    return service_text(language, key) if key in SERVICE_TEXTS["en"] else label


def _spot_name(spot: str) -> str:
    return spot.replace("_", " ").capitalize()


def meter_name(
    meter: str,
    language: str,
    spots: Mapping[str, str] | None = None,
    editions: Mapping[str, str] | None = None,
) -> str:
    """A meter's name: ``coin_in`` -> "Total wagered", ``bills_in.2000`` -> "Notes of $20.00
    (count)", ``game.stadium-3cp.default.in`` -> "Stadium Three Card Poker (default): wagered".
    ``spots`` and ``editions`` name wager spots and editions (their ids otherwise)."""
    names = METER_NAMES.get(language, METER_NAMES["en"])
    if meter in names:
        return names[meter]
    head, _, rest = meter.partition(".")
    if head == "bills_in" and rest.isdigit():
        return names["bills_in."].format(amount=dollars(int(rest)))
    if head in ("wager_in", "wager_out") and rest:
        return names[f"{head}."].format(spot=(spots or {}).get(rest, _spot_name(rest)))
    if head == "game":
        parts = rest.split(".")
        if len(parts) >= 3 and f"game.{parts[-1]}" in names:
            edition = (editions or {}).get(parts[0], parts[0])
            tables = ".".join(parts[1:-1])
            if tables == "default":  # the pay-table set the edition comes with
                tables = service_text(language, "cfg_default")
            return names[f"game.{parts[-1]}"].format(edition=edition, tables=tables)
    return meter


def is_money(meter: str) -> bool:
    """Whether a meter counts cents (else a count)."""
    if meter.startswith("bills_in.") or meter.endswith(("_count", ".played")):
        return False
    if meter.startswith(("game.", "wager_in.", "wager_out.")):
        return True
    return meter in {
        "coin_in",
        "coin_out",
        "bills_in",
        "tickets_in",
        "tickets_out",
        "handpaid_cancelled_credits",
        "handpaid_jackpots",
        "voided_returns",
    }


def meter_rows(
    data: Mapping[str, Any],
    language: str,
    spots: Mapping[str, str] | None = None,
    editions: Mapping[str, str] | None = None,
) -> list[tuple[str, str, str]]:
    """The meters outcome's data (``meters_json``) as rows: name, lifetime, period; the credits
    on the terminal first."""
    lifetime: Mapping[str, int] = data.get("lifetime", {})
    period: Mapping[str, int] = data.get("period", {})
    units: Mapping[str, str] = data.get("units", {})
    rows = [
        (
            service_text(language, "credits_now"),
            dollars(sum(data.get("credits", []))),
            "",
        )
    ]
    for meter in [*lifetime, *(m for m in period if m not in lifetime)]:
        money = units.get(meter) == "cents" if meter in units else is_money(meter)

        def shown(value: int, money: bool = money) -> str:
            return dollars(value) if money else f"{value:,}"

        rows.append(
            (
                meter_name(meter, language, spots, editions),
                shown(int(lifetime.get(meter, 0))),
                shown(int(period.get(meter, 0))),
            )
        )
    return rows


def _notes(values: Any) -> str:
    return " ".join(dollars(int(v)).removesuffix(".00") for v in values or ())


def device_rows(data: Mapping[str, Any], language: str) -> list[tuple[str, str]]:
    """The devices outcome's data as rows: the device, its state in words."""

    def t(key: str, **values: object) -> str:
        return service_text(language, key, **values)

    rows = []
    validator: Mapping[str, Any] = data.get("validator", {})
    if validator.get("connected", True) is None:
        rows.append((t("validator"), t("not_here")))
    else:
        words = [t("enabled") if validator.get("enabled") else t("disabled")]
        if validator.get("notes"):
            words.append(t("notes", notes=_notes(validator["notes"])))
        if validator.get("test_mode"):
            words.append(t("test_mode"))
        if validator.get("cashbox_total") is not None:
            words.append(t("cashbox", amount=dollars(int(validator["cashbox_total"]))))
        if validator.get("fault"):
            words.append(t("fault", fault=validator["fault"]))
        rows.append((t("validator"), ", ".join(words)))
    printer: Mapping[str, Any] = data.get("printer", {})
    if printer.get("connected", True) is None:
        rows.append((t("printer"), t("not_here")))
    else:
        words = [t("ready") if printer.get("ready") else t("not_ready")]
        if printer.get("paper") is False:
            words.append(t("paper_out"))
        if printer.get("fault"):
            words.append(t("fault", fault=printer["fault"]))
        if printer.get("test_vouchers"):
            words.append(t("test_vouchers", count=printer["test_vouchers"]))
        rows.append((t("printer"), ", ".join(words)))
    host: Mapping[str, Any] = data.get("host", {})
    address = host.get("address") or "-"
    if "connected" in host:
        link = t("connected" if host["connected"] else "down", address=address)
    else:
        link = t("address", address=address)
    rows.append((t("host"), link))
    pending = int(host.get("outbox_pending") or 0)
    oldest = host.get("outbox_oldest_id")
    waiting = t("waiting", count=pending, oldest=oldest) if pending else t("none_waiting")
    rows.append((t("outbox"), waiting))
    return rows


def status_rows(data: Mapping[str, Any], language: str) -> list[tuple[str, str]]:
    """The status outcome's data as rows: what, its state in words (the tilts by code, their
    reasons being the terminal's English)."""

    def t(key: str, **values: object) -> str:
        return service_text(language, key, **values)

    phase = str(data.get("phase") or "")
    phase_text = t(f"phase_{phase}") if f"phase_{phase}" in SERVICE_TEXTS["en"] else phase
    if data.get("game_number"):
        phase_text += ", " + t("game_n", n=data["game_number"])
    lockups = ", ".join(
        t(f"lockup_{code}") if f"lockup_{code}" in SERVICE_TEXTS["en"] else str(code)
        for code in data.get("lockups") or ()
    )
    lockups = lockups or t("st_nothing")
    rows = [
        (t("st_terminal"), str(data.get("terminal_id", ""))),
        (t("st_phase"), phase_text),
        (t("st_stopped"), lockups),
        (t("st_credits"), dollars(sum(data.get("credits") or ()))),
    ]
    handpay: Mapping[str, Any] | None = data.get("handpay")
    if handpay:
        kinds = {"jackpot": "st_jackpot", "progressive": "st_progressive"}
        kind = t(kinds.get(str(handpay.get("kind")), "st_cancelled"))
        amount = dollars(int(handpay.get("value", 0)))
        value = t("st_handpay_value", amount=amount, kind=kind, seat=handpay.get("seat", 0))
        rows.append((t("st_handpay"), value))
    for code in sorted(data.get("tilts") or {}):
        rows.append((t("st_tilt", code=code), t("st_tilt_waiting")))
    if data.get("doors_open"):
        rows.append((t("st_doors"), ", ".join(door_name(d, language) for d in data["doors_open"])))
    # the terminal's own English words for these in English; in another language what they mean
    english = language == "en"
    if data.get("critical"):
        rows.append((t("st_critical"), str(data["critical"]) if english else t("ev_critical")))
    if data.get("read_only"):
        shown = str(data["read_only"]) if english else t("st_other_process")
        rows.append((t("st_read_only"), shown))
    return rows


#: the service functions' titles in Spanish (English: the functions' own titles)
FUNCTION_TITLES_ES: Mapping[str, str] = {
    "status": "Estado",
    "meters": "Contadores",
    "recall": "Historial de partidas",
    "handpay_reset": "Pago a mano hecho",
    "clear_tilt": "Borrar falla",
    "change_pin": "Cambiar PIN",
    "events": "Registro de eventos",
    "audit_log": "Registro de servicio",
    "bill_test": "Prueba del validador",
    "voucher_test": "Ticket de prueba",
    "touch_test": "Prueba de la pantalla táctil",
    "display_test": "Patrones de prueba de pantalla",
    "doors": "Puertas y llave",
    "devices": "Dispositivos y enlace con el host",
    "rng_selftest": "Autoprueba del RNG",
    "software": "Autenticación del software",
    "software_hmac": "HMAC del software con semilla",
    "store_check": "Integridad del almacén",
    "sas": "Enlace SAS",
    "sas_address": "Dirección SAS",
    "config": "Configuración",
    "paytables": "Tablas de pago y ventaja",
    "config_change": "Cambiar la configuración",
    "period_reset": "Reiniciar contadores del periodo",
    "config_export": "Exportar la configuración",
    "config_import": "Importar la configuración",
    "set_pin": "PIN de otro rol",
    "ram_clear": "Borrado de RAM",
}


def function_title(name: str, title: str, language: str) -> str:
    """A service function's title on its menu button and its page, in ``language``."""
    if language == "es":
        return FUNCTION_TITLES_ES.get(name, title)
    return title


def wager_names(language: str) -> dict[tuple[str, str], str]:
    """Every shipped edition's wagers with a pay table, by (edition, wager), in ``language``
    (the game's own words; the service catalogue's where the game has none)."""
    from kiosk.kernel.games.registry import edition_ids, family_of, load_game
    from kiosk.terminal.presentation.words import GameWords

    names: dict[tuple[str, str], str] = {}
    for edition in edition_ids():
        try:
            game = load_game(edition)
        except (ValueError, KeyError, OSError):
            continue
        words = GameWords(game, language)
        for choice in family_of(edition).paytable_choices(edition):
            name = words(choice.label)
            key = f"wager_{choice.wager}"
            if name == choice.label and key in SERVICE_TEXTS["en"]:
                name = service_text(language, key)
            names[(edition, choice.wager)] = name
    return names


#: the result lines of wagers made after the deal, which the meters count as spots
_RESULT_LINES = ("raise", "play", "ante_bonus")


def spot_and_edition_names(language: str) -> tuple[dict[str, str], dict[str, str]]:
    """Every shipped edition's wager spots and titles in ``language``, for the meters' names
    (a spot id shared by editions takes the first edition's name)."""
    from kiosk.kernel.games.registry import edition_ids, load_game
    from kiosk.terminal.presentation.families import table_family
    from kiosk.terminal.presentation.words import GameWords

    spots: dict[str, str] = {}
    editions: dict[str, str] = {}
    for edition in edition_ids():
        try:
            game = load_game(edition)
        except (ValueError, KeyError, OSError):
            continue
        words = GameWords(game, language)
        editions[edition] = words.title
        for spot in game.spots:
            spots.setdefault(spot.id, words.spot(spot))
        family = table_family(game)
        for line in _RESULT_LINES:  # wagers made after the deal: the family names them
            name = family.extra_label(game, line, words)
            if name and name != line:
                spots.setdefault(line, name[:1].upper() + name[1:])
    return spots, editions
