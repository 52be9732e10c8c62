"""Every service function's outcome as the touchscreen pages show it, in the pages' language:
made from the outcome's data (the codes the records keep), never from its English lines, which
stay the command line's (``turbokiosk service``).  Also the refusals, by their catalogue keys."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from kiosk.kernel.time_text import date_time
from kiosk.terminal.presentation.money import dollars
from kiosk.terminal.presentation.service_words import (
    SERVICE_TEXTS,
    device_rows,
    door_name,
    meter_rows,
    role_name,
    service_text,
    status_rows,
)
from kiosk.terminal.sas import status as sas_status


@dataclass(frozen=True)
class ServiceTable:
    """A page's table: its heading, its rows, each column's share of the width and the columns
    of figures (right-aligned)."""

    header: tuple[str, ...]
    rows: Sequence[tuple[str, ...]]
    widths: tuple[float, ...] = ()
    numbers: frozenset[int] = frozenset()


@dataclass(frozen=True)
class OutcomeView:
    """What an outcome page shows: its title ("" keeps the function's), lines or a table."""

    title: str = ""
    lines: tuple[str, ...] = ()
    table: ServiceTable | None = None


@dataclass(frozen=True)
class ServiceNames:
    """The names the pages give what the data holds by id, in the pages' language."""

    functions: Mapping[str, str] = field(default_factory=dict)  # function name -> title
    fields: Mapping[str, str] = field(default_factory=dict)  # field name -> kind, in order
    spots: Mapping[str, str] = field(default_factory=dict)
    editions: Mapping[str, str] = field(default_factory=dict)
    wagers: Mapping[tuple[str, str], str] = field(default_factory=dict)  # (edition, wager)


def _known(key: str) -> bool:
    return key in SERVICE_TEXTS["en"]


class _Words:
    """The texts of one language, with the codes of the data put in words."""

    def __init__(self, language: str, names: ServiceNames) -> None:
        self.language, self.names = language, names

    def __call__(self, key: str, **values: object) -> str:
        return service_text(self.language, key, **values)

    def role(self, label: object) -> str:
        text = str(label or "")
        head = text.split(" ", 1)[0]  # "operator via ssh, session 3fa9": the role
        return role_name(head, self.language) if head else "-"

    def field(self, name: str) -> str:
        return self(f"field_{name}") if _known(f"field_{name}") else name

    def phase(self, code: object) -> str:
        key = f"phase_{code}"
        return self(key) if _known(key) else str(code)

    def function(self, name: object) -> str:
        return self.names.functions.get(str(name), str(name))

    def edition(self, edition: str, title: str = "") -> str:
        return self.names.editions.get(edition, title or edition)

    def wager(self, edition: str, wager: str, label: str = "") -> str:
        return self.names.wagers.get((edition, wager), label or wager)

    def setting(self, name: str, value: Any) -> str:
        """A setting's value for people ("$5.00", "20 seconds", "Spanish")."""
        kind = self.names.fields.get(name, "text")
        if name == "editions":
            return ", ".join(self.edition(str(e.get("edition", ""))) for e in value or ())
        if kind == "money":
            return dollars(int(value))
        if kind == "notes":
            return ", ".join(dollars(int(v)) for v in value or ())
        if name == "decision_seconds" and value == 0:
            return self("cfg_no_timer")
        if kind in ("seconds", "days", "hours"):
            return self(f"cfg_{kind}", n=value)
        if kind == "choice" and _known(f"lang_{value}"):
            return self(f"lang_{value}")
        return str(value)


def refusal_text(
    key: str, values: Mapping[str, object], message: str, language: str, names: ServiceNames
) -> str:
    """A refusal (ServiceError, AccessDeniedError, PinPolicyError, ConfigError) in the pages'
    language from its key; one with no key is the terminal's English in English, and a plain
    "refused" sentence in another language."""
    w = _Words(language, names)
    if not key or not _known(key):
        return message if language == "en" else w("err_other")
    shown: dict[str, object] = {}
    for name, value in values.items():
        if name.endswith("role"):
            shown[name] = w.role(value)
        elif name == "function":
            shown[name] = w.function(value)
        elif name == "phase":
            shown[name] = w.phase(value)
        elif name == "cents":
            shown[name] = dollars(int(str(value)))
        elif name in ("field", "name"):
            shown[name] = w.field(str(value))
        else:
            shown[name] = value
    return w(key, **shown)


# --- the outcomes ------------------------------------------------------------------------------

View = Callable[[_Words, Mapping[str, Any], bool], OutcomeView]


#: the devices the journal names in English, by their catalogue key
_DEVICES = {"printer": "printer", "bill validator": "validator", "validator": "validator"}


def _event_details(w: _Words, kind: str, d: Mapping[str, Any]) -> str:
    amount = dollars(int(d.get("value", d.get("cashable", 0)) or 0))
    seat = d.get("seat", 0)
    if kind in ("BillStacked", "BillReturned", "FundsTransferred"):
        return w("ev_seat_value", amount=amount, seat=seat)
    if kind in ("TicketRedeemed", "CashoutStarted", "VoucherPrinted", "VoucherFailed"):
        number = d.get("validation_number", "")
        return w("ev_voucher", amount=amount, seat=seat, number=number)
    if kind in ("HandpayLocked", "HandpayReset"):
        handpay_kind = w("st_jackpot" if d.get("kind") == "jackpot" else "st_cancelled")
        if kind == "HandpayReset":
            return w(
                "ev_handpay_by", amount=amount, kind=handpay_kind, seat=seat, by=w.role(d["by"])
            )
        return w("st_handpay_value", amount=amount, kind=handpay_kind, seat=seat)
    if kind == "PoweredUp":
        version = d.get("software_version", "")
        return w("ev_recovered" if d.get("recovered") else "ev_software", version=version)
    if kind == "CriticalMemoryError":
        return w("ev_critical")
    if kind == "StorageFull":
        return w("ev_since", time=date_time(int(d.get("since", 0))))
    if kind == "RamCleared":
        return w("ev_ram", epoch=d.get("epoch"), by=w.role(d.get("by")), reason=d.get("reason"))
    if kind == "HeadWithdrawn":
        return w("ev_head", seq=d.get("seq"), store_seq=d.get("store_seq"))
    if kind == "ConfigChanged":
        before, after = d.get("before") or {}, d.get("after") or {}
        changed = [w.field(k) for k in sorted(after) if before.get(k) != after.get(k)]
        return w("ev_config", by=w.role(d.get("by")), fields=", ".join(changed) or "-")
    if kind == "PeriodMetersReset":
        return w("ev_by", by=w.role(d.get("by")))
    if kind == "TiltRaised":
        code = d.get("code", "")
        return w("ev_tilt_attendant" if d.get("needs_attendant") else "ev_tilt", code=code)
    if kind == "TiltCleared":
        return w("ev_tilt_by", code=d.get("code", ""), by=w.role(d.get("by")))
    if kind == "DoorChanged":
        door = door_name(str(d.get("door", "")), w.language)
        return w("ev_door_open" if d.get("open") else "ev_door_closed", door=door)
    if kind == "EnableChanged":
        return w("ev_play_enabled" if d.get("enabled") else "ev_play_disabled")
    if kind == "ServiceChanged":
        if d.get("active"):
            return w("ev_service_on", role=w.role(d.get("role")))
        return w("ev_service_off")
    if kind == "DeviceBaselineRecorded":
        device = str(d.get("device", ""))
        key = _DEVICES.get(device)
        return w(key) if key else w("ev_device", device=device)
    return ""


def _events(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    rows = []
    for event in data.get("events") or ():
        kind = str(event.get("kind", ""))
        name = w(f"kind_{kind}") if _known(f"kind_{kind}") else kind
        details = _event_details(w, kind, event.get("data") or {})
        rows.append((str(event.get("seq", "")), date_time(int(event["at"])), name, details))
    if not rows:
        return OutcomeView(lines=(w("ev_none"),))
    header = (w("col_number"), w("col_time"), w("col_event"), w("col_details"))
    return OutcomeView(table=ServiceTable(header, rows, (0.7, 1.4, 1.6, 2.6)))


def _audit(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    rows = []
    for entry in data.get("entries") or ():
        action = str(entry.get("action", ""))
        entry_or_exit = action in ("enter", "exit")
        action_text = w(f"au_{action}") if entry_or_exit else w.function(action)
        outcome = str(entry.get("outcome", ""))
        result = w(f"au_{outcome}") if _known(f"au_{outcome}") else outcome
        when = date_time(int(entry.get("at", 0)))
        role = w.role(entry.get("role")) if entry.get("role") else "-"
        rows.append((str(entry.get("number", "")), when, role, action_text, result))
    if not rows:
        return OutcomeView(lines=(w("au_none"),))
    header = (w("col_number"), w("col_time"), w("col_role"), w("col_action"), w("col_result"))
    return OutcomeView(table=ServiceTable(header, rows, (0.6, 1.4, 1.1, 2.2, 1.1)))


def _handpay_text(w: _Words, handpay: Mapping[str, Any]) -> str:
    kind = w("st_jackpot" if handpay.get("kind") == "jackpot" else "st_cancelled")
    amount = dollars(int(handpay.get("value", 0)))
    return w("st_handpay_value", amount=amount, kind=kind, seat=handpay.get("seat", 0))


def _handpay_reset(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    title = w("t_handpay_paid", handpay=_handpay_text(w, data.get("handpay") or {}))
    return OutcomeView(title, (title,))


def _clear_tilt(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    title = w("t_tilt_cleared", code=data.get("code", ""))
    return OutcomeView(title, (title,))


def _set_pin(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    title = w("t_pin_set", role=w.role(data.get("role")))
    return OutcomeView(title, (title,))


def _bill_test(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    notes = list(data.get("notes") or ())
    lines = [w("bt_running" if data.get("running") else "bt_stopped")]
    if notes:
        shown = ", ".join(dollars(int(v)) for v in notes)
        lines.append(w("bt_notes_list", count=len(notes), notes=shown))
    else:
        lines.append(w("bt_notes", count=0))
    if "tickets" in data:
        lines.append(w("bt_tickets", count=len(data["tickets"])))
    return OutcomeView(lines=tuple(lines))


def _voucher_test(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    if data.get("printed"):
        title = w("t_voucher_printed")
    else:
        problem = str(data.get("problem", ""))
        shown = w("problem_paper") if problem == "paper out" else w("problem_fault", fault=problem)
        title = w("t_voucher_not_printed", problem=shown)
    return OutcomeView(title, (title,))


def _touch_test(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    key = "t_touch_passed" if data.get("passed") else "t_touch_failed"
    title = w(key, hit=data.get("hit", 0), cells=data.get("cells", 0))
    return OutcomeView(title, (title,))


def _display_test(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    patterns = ", ".join(pattern_title(w.language, str(p)) for p in data.get("patterns") or ())
    key = "t_display_pass" if data.get("verdict") == "pass" else "t_display_fail"
    return OutcomeView(w(key), (w("display_patterns", patterns=patterns),))


def _doors(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    doors = ", ".join(door_name(str(d), w.language) for d in data.get("doors_open") or ())
    rows = [
        (w("dr_key"), w("dr_key_on" if data.get("key_on") else "dr_key_off")),
        (w("dr_doors"), doors or w("dr_none")),
        (w("dr_openings"), f"{int(data.get('door_opens', 0)):,}"),
    ]
    return OutcomeView(table=ServiceTable((w("item"), w("value")), rows))


def _rng(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    title = w("rng_passed" if data.get("passed") else "rng_failed")
    rows: list[tuple[str, str]] = []
    for result in data.get("results") or ():
        if result.get("kind") == "health":
            test = w(
                "rng_health", rct=result["rct"], apt=result["apt"], window=result["apt_window"]
            )
        else:
            test = w("rng_known_answer", source=result.get("source", ""))
        rows.append((test, w("rng_pass" if result.get("passed") else "rng_fail")))
    status = data.get("status")
    if status:
        rows.append(
            (w("rng_generator"), w("rng_healthy" if status["healthy"] else "rng_unhealthy"))
        )
        rows.append((w("rng_reseeds"), f"{int(status['reseeds']):,}"))
        since = w(
            "rng_since_value",
            requests=f"{int(status['requests_since_reseed']):,}",
            seconds=f"{float(status['seconds_since_reseed']):.0f}",
        )
        rows.append((w("rng_since"), since))
        rows.append((w("rng_bytes"), f"{int(status['bytes_out']):,}"))
    else:
        rows.append((w("rng_generator"), w("rng_elsewhere")))
    cutoffs = data.get("cutoffs")
    if cutoffs:
        value = w("rng_cutoffs_value", h=cutoffs["h"], alpha=cutoffs["alpha_log2"])
        rows.append((w("rng_cutoffs"), value))
    return OutcomeView(title, table=ServiceTable((w("col_test"), w("col_result")), rows, (3, 1.4)))


def hex_groups(digits: str) -> str:
    """Hex digits in groups of eight ("b2a0d08a 85f529cd ..."): read and compared group by group,
    and a line breaks between groups, never inside one."""
    return " ".join(digits[i : i + 8] for i in range(0, len(digits), 8))


def _software(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    rows = [
        (w("sw_packages"), ", ".join(data.get("packages") or ())),
        (w("sw_files"), f"{int(data.get('files', 0)):,}"),
        (w("sw_digest"), hex_groups(str(data.get("digest", "")))),
    ]
    return OutcomeView(table=ServiceTable((w("item"), w("value")), rows, (1, 2.4)))


def _software_hmac(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    rows = [
        (w("sw_seed"), hex_groups(str(data.get("seed", "")))),
        ("HMAC-SHA256", hex_groups(str(data.get("hmac", "")))),
    ]
    return OutcomeView(table=ServiceTable((w("item"), w("value")), rows, (1, 2.4)))


def _store_check(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    title = w("sc_passed" if data.get("ok") else "sc_failed")
    lines = [w("sc_checks", count=len(data.get("checks") or ())), w("sc_check_list")]
    problems = list(data.get("problems") or ())
    if problems:
        lines.append(w("sc_problems", count=len(problems)))
        if w.language == "en":  # the store's own words, English
            lines += [str(p) for p in problems]
    return OutcomeView(title, tuple(lines))


def _config(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    values: Mapping[str, Any] = data.get("config") or {}
    rows = [(w.field(name), w.setting(name, values[name])) for name in w.names.fields]
    if "seats" in values:
        rows.append((w.field("seats"), w("cfg_seats_value", seats=values["seats"])))
    rows.append((w("cfg_games"), ""))
    for edition in data.get("editions") or ():
        rows.append((w.edition(edition["edition"], edition.get("title", "")), ""))
        for wager in edition.get("wagers") or ():
            key = "cfg_table_default" if wager.get("default") else "cfg_table_value"
            edge = wager.get("house_edge_percent", "")
            label = w.wager(edition["edition"], wager["wager"], wager.get("label", ""))
            rows.append((f"    {label}", w(key, table=wager["table"], edge=edge)))
    return OutcomeView(table=ServiceTable((w("col_setting"), w("value")), rows, (1.2, 1.6)))


def _paytables(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    rows: list[tuple[str, str]] = []
    seen: tuple[str, str] = ("", "")
    for table in data.get("tables") or ():
        edition, wager = str(table["edition"]), str(table["wager"])
        if edition != seen[0]:
            rows.append((w.edition(edition), ""))
        if (edition, wager) != seen:
            rows.append((f"  {w.wager(edition, wager, str(table.get('label', '')))}", ""))
        seen = (edition, wager)
        name = str(table["table"])
        if table.get("default"):
            name = w("pt_default", table=name)
        rows.append((f"    {name}", str(table.get("house_edge_percent", ""))))
    header = (w("col_table"), w("col_edge"))
    return OutcomeView(table=ServiceTable(header, rows, (2.6, 1), frozenset({1})))


def _changes(w: _Words, data: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    return [
        (w.field(f["field"]), w.setting(f["field"], f["before"]), w.setting(f["field"], f["after"]))
        for f in data.get("fields") or ()
        if f["field"] in w.names.fields or f["field"] == "editions"
    ]


def _config_change(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    header = (w("col_setting"), w("col_before"), w("col_after"))
    table = ServiceTable(header, list(_changes(w, data)), (1.4, 1, 1))
    return OutcomeView(w("cfg_changed"), table=table)


def _config_import(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    rows = list(_changes(w, data))
    if "version" in data:
        version = w("cfg_version_value", before=int(data["version"]) - 1, after=data["version"])
        rows.append((w("cfg_version"), "", version))
    header = (w("col_setting"), w("col_before"), w("col_after"))
    return OutcomeView(w("cfg_imported"), table=ServiceTable(header, rows, (1.4, 1, 1)))


def _config_export(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    name = PurePath(str(data.get("path", ""))).name
    line = w("cfg_exported_line", version=data.get("version", ""), file=name)
    return OutcomeView(w("cfg_exported"), (line,))


def _period_reset(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    return OutcomeView(w("pr_done"), (w("pr_line"),))


def _ram_clear(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    lines = (
        w("rc_kept", epoch=data["previous_epoch"], seq=data["previous_seq"], kept=data["kept_as"]),
        w("rc_new", epoch=data["epoch"]),
        w("rc_host"),
    )
    return OutcomeView(w("rc_done"), lines)


def _sas(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    rows = []
    for name in sas_status.SHOWN_FIELDS:
        value = data.get(name)
        if isinstance(value, bool):
            shown = w("yes" if value else "no")
        elif value is None or value == "":
            shown = "-"
        else:
            shown = str(value)
        rows.append((w(f"sas_{name}"), shown))
    return OutcomeView(table=ServiceTable((w("item"), w("value")), rows))


def _sas_address(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    return OutcomeView(w("sas_address_set"), (w("sas_address_line", address=data.get("address")),))


def _aft(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    return OutcomeView(w("aft_acknowledged"), (w("aft_line", asset=data.get("asset")),))


def _status(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    rows = list(status_rows(data, w.language))
    return OutcomeView(table=ServiceTable((w("item"), w("value")), rows))


def _devices(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    rows = list(device_rows(data, w.language))
    return OutcomeView(table=ServiceTable((w("device"), w("state")), rows))


def _meters(w: _Words, data: Mapping[str, Any], ok: bool) -> OutcomeView:
    rows = list(meter_rows(data, w.language, w.names.spots, w.names.editions))
    header = (w("meter"), w("lifetime"), w("period"))
    return OutcomeView(table=ServiceTable(header, rows, (2, 1, 1), frozenset({1, 2})))


_VIEWS: Mapping[str, View] = {
    "status": _status,
    "meters": _meters,
    "devices": _devices,
    "handpay_reset": _handpay_reset,
    "clear_tilt": _clear_tilt,
    "set_pin": _set_pin,
    "events": _events,
    "audit_log": _audit,
    "bill_test": _bill_test,
    "voucher_test": _voucher_test,
    "touch_test": _touch_test,
    "display_test": _display_test,
    "doors": _doors,
    "rng_selftest": _rng,
    "software": _software,
    "software_hmac": _software_hmac,
    "store_check": _store_check,
    "config": _config,
    "paytables": _paytables,
    "config_change": _config_change,
    "config_import": _config_import,
    "config_export": _config_export,
    "period_reset": _period_reset,
    "ram_clear": _ram_clear,
    "sas": _sas,
    "sas_address": _sas_address,
    "sas_aft_acknowledge": _aft,
}


def outcome_view(
    function: str, data: Mapping[str, Any], ok: bool, language: str, names: ServiceNames
) -> OutcomeView | None:
    """Function ``function``'s outcome (its data) as its page shows it in ``language``; None
    for a function with no page of its own here (the recall, the PIN change)."""
    view = _VIEWS.get(function)
    return None if view is None else view(_Words(language, names), data, ok)


def has_view(function: str) -> bool:
    """Whether :func:`outcome_view` shows ``function``'s outcome."""
    return function in _VIEWS


def setting_text(name: str, value: Any, language: str, names: ServiceNames) -> str:
    """A setting's value as the settings page shows it ("$5.00", "20 seconds", "Spanish")."""
    return _Words(language, names).setting(name, value)


def field_label(name: str, language: str) -> str:
    """A setting's label ("Most on a spot"; a field the catalogue does not know: its name)."""
    return _Words(language, ServiceNames()).field(name)


def pattern_title(language: str, pattern: str) -> str:
    """A display test pattern's name."""
    key = f"pattern_{pattern}"
    return service_text(language, key) if _known(key) else pattern


def pattern_caption(language: str, pattern: str) -> str:
    """What to look for on a display test pattern, and how to go on."""
    look = service_text(language, f"look_{pattern}") if _known(f"look_{pattern}") else pattern
    return service_text(
        language, "display_caption", title=pattern_title(language, pattern), look_for=look
    )
