"""The operator's configuration: view, change (validated, only with zero credits and no game),
the pay-table catalogue with house edges, and the period meter reset."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kiosk.kernel.games.registry import edition_ids
from kiosk.terminal.core import commands as c
from kiosk.terminal.core.config import ConfigError, TerminalConfig, from_dict, to_dict
from kiosk.terminal.core.state import Phase, TerminalState
from kiosk.terminal.presentation.money import dollars, parse_dollars
from kiosk.terminal.service.access import Role
from kiosk.terminal.service.functions.base import Context, Outcome, ServiceError, ServiceFunction
from kiosk.terminal.service.functions.house_edge import (
    HouseEdges,
    edition_title,
    percent,
    wager_tables,
)


@dataclass(frozen=True)
class FieldSpec:
    """An operator-editable configuration field and how it is typed and shown."""

    name: str
    label: str
    kind: str  # "money" (cents, typed in dollars), "notes", "seconds", "days", "hours", "text",
    # "choice"
    choices: tuple[str, ...] = ()


FIELDS = (
    FieldSpec("terminal_id", "Terminal id", "text"),
    FieldSpec("venue", "Venue", "text"),
    FieldSpec("denomination", "Denomination (value of a credit)", "money"),
    FieldSpec("min_wager", "Least wager on a spot", "money"),
    FieldSpec("max_wager", "Most on a spot", "money"),
    FieldSpec("table_max", "Most on one round", "money"),
    FieldSpec("credit_limit", "Credit limit", "money"),
    FieldSpec("handpay_limit", "Handpay limit (a single win)", "money"),
    FieldSpec("ticket_out_limit", "Voucher limit (above: handpay)", "money"),
    FieldSpec("accepted_notes", "Notes accepted", "notes"),
    FieldSpec("decision_seconds", "Decision timer (0: none)", "seconds"),
    FieldSpec("host_timeout_seconds", "Host link timeout", "seconds"),
    FieldSpec("voucher_expiry_days", "Voucher expiry", "days"),
    FieldSpec("withdrawal_lock_hours", "Second withdrawn head locks within", "hours"),
    FieldSpec("language", "Default language", "choice", ("en", "es")),
    FieldSpec("host_address", "Host address", "text"),
    FieldSpec("responsible_gaming_en", "Responsible-gaming line (English)", "text"),
    FieldSpec("responsible_gaming_es", "Responsible-gaming line (Spanish)", "text"),
)
FIELD_SPECS = {spec.name: spec for spec in FIELDS}


def parse_field(name: str, text: str) -> Any:
    """The value of a field as typed by a person (ConfigError naming the field)."""
    spec = FIELD_SPECS.get(name)
    if spec is None:
        editable = ", ".join(FIELD_SPECS)
        raise ConfigError(f"{name}: not a field the operator sets (fields: {editable})")
    try:
        if spec.kind == "money":
            return parse_dollars(text)
        if spec.kind == "notes":
            return [parse_dollars(part) for part in text.split(",") if part.strip()]
        if spec.kind in ("seconds", "days", "hours"):
            return int(text)
    except ValueError as exc:
        raise ConfigError(f"{name}: {exc}", "err_field_value", field=name) from None
    return text.strip()


def show_field(name: str, value: Any) -> str:
    """A field's value for people."""
    kind = FIELD_SPECS[name].kind
    if kind == "money":
        return dollars(value)
    if kind == "notes":
        return ", ".join(dollars(v) for v in value)
    if name == "decision_seconds" and value == 0:
        return "none (the round waits for the player)"
    if kind in ("seconds", "days", "hours"):
        return f"{value} {kind}"
    return str(value)


def with_edition(config: Mapping[str, Any], edition: str, enabled: bool) -> dict[str, Any]:
    """The configuration with ``edition`` enabled (appended, default pay tables) or not."""
    new = dict(config)
    eds = [dict(e) for e in config["editions"] if e["edition"] != edition]
    if enabled:
        current = [e for e in config["editions"] if e["edition"] == edition]
        eds.append(dict(current[0]) if current else {"edition": edition, "paytables": {}})
    new["editions"] = eds
    return new


def with_paytable(
    config: Mapping[str, Any], edition: str, wager: str, table: str
) -> dict[str, Any]:
    """The configuration with ``table`` for ``wager`` of the enabled ``edition``.

    The default table is kept as no entry, so the meters of a pay-table set never split.
    """
    new = dict(config)
    eds = []
    found = False
    for e in config["editions"]:
        e = {"edition": e["edition"], "paytables": dict(e["paytables"])}
        if e["edition"] == edition:
            found = True
            spec = {w.wager: w for w in wager_tables(edition)}.get(wager)
            if spec is None:
                raise ConfigError(f"editions.{edition}: no wager {wager!r} with a pay table")
            if table == spec.default:
                e["paytables"].pop(wager, None)
            else:
                e["paytables"][wager] = table
        eds.append(e)
    if not found:
        raise ConfigError(f"editions: {edition!r} is not enabled")
    new["editions"] = eds
    return new


def changes_allowed(state: TerminalState) -> str | None:
    """Why the configuration cannot change now, or None."""
    if any(state.credits):
        return f"configuration changes need zero credits (credits: {dollars(sum(state.credits))})"
    if any(state.escrow.values()) or state.cashout or state.handpay:
        return "configuration changes need no note in escrow, cash-out or handpay pending"
    if state.phase not in (Phase.IDLE, Phase.RESULT):
        return f"configuration changes need no game in progress (now: {state.phase.value})"
    return None


def _changes_refusal(state: TerminalState, problem: str) -> ServiceError:
    """:func:`changes_allowed`'s answer with its catalogue key."""
    if any(state.credits):
        return ServiceError(problem, "err_config_credits", cents=sum(state.credits))
    if state.phase not in (Phase.IDLE, Phase.RESULT) and not (
        any(state.escrow.values()) or state.cashout or state.handpay
    ):
        return ServiceError(problem, "err_config_game", phase=state.phase.value)
    return ServiceError(problem, "err_config_pending")


def _edges(ctx: Context) -> HouseEdges:
    return HouseEdges(ctx.service_dir / "house-edges.json", ctx.progress)


def edition_lines(ctx: Context, config: TerminalConfig) -> tuple[list[str], list[dict[str, Any]]]:
    """Each enabled edition with the table of each wager and its house edge."""
    edges = _edges(ctx)
    lines, data = [], []
    for ed in config.editions:
        lines.append(f"  {edition_title(ed.edition)} ({ed.edition})")
        wagers = []
        for spec in wager_tables(ed.edition):
            table = ed.paytables.get(spec.wager, spec.default)
            edge = edges.edge(ed.edition, spec.wager, table)
            mark = " (default)" if table == spec.default else ""
            lines.append(f"    {spec.label:<28} {table}{mark:<10}  house edge {percent(edge)}")
            wagers.append(
                {
                    "wager": spec.wager,
                    "label": spec.label,
                    "table": table,
                    "default": table == spec.default,
                    "house_edge": None if edge is None else str(edge),
                    "house_edge_percent": percent(edge),
                }
            )
        data.append({"edition": ed.edition, "title": edition_title(ed.edition), "wagers": wagers})
    return lines, data


def config_view(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Every field, and the enabled editions with pay tables and house edges."""
    config = ctx.terminal.state().config
    values = to_dict(config)
    width = max(len(spec.label) for spec in FIELDS)
    lines = [
        f"{spec.label:<{width}}  {show_field(spec.name, values[spec.name])}" for spec in FIELDS
    ]
    lines.append(f"{'Seats':<{width}}  {config.seats} (fixed at installation)")
    lines.append("Editions enabled:")
    more, editions = edition_lines(ctx, config)
    data = {"config": values, "editions": editions}
    return Outcome("Configuration", tuple(lines + more), data)


def paytables(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Every pay table of every edition (or of ``edition``) with its house edge."""
    wanted = args.get("edition")
    ids = [wanted] if wanted else list(edition_ids())
    unknown = [e for e in ids if e not in edition_ids()]
    if unknown:
        raise ServiceError(
            f"edition: unknown {unknown[0]!r} (editions: {', '.join(edition_ids())})"
        )
    edges = _edges(ctx)
    lines, data = [], []
    for edition in ids:
        lines.append(f"{edition_title(edition)} ({edition})")
        for spec in wager_tables(edition):
            lines.append(f"  {spec.label} ({spec.wager})")
            for table in spec.tables:
                edge = edges.edge(edition, spec.wager, table)
                mark = "  default" if table == spec.default else ""
                lines.append(f"    {table:<40} {percent(edge):>8}{mark}")
                data.append(
                    {
                        "edition": edition,
                        "wager": spec.wager,
                        "table": table,
                        "default": table == spec.default,
                        "house_edge": None if edge is None else str(edge),
                        "house_edge_percent": percent(edge),
                        "label": spec.label,
                    }
                )
    return Outcome("Pay tables and house edges", tuple(lines), {"tables": data})


def _config_watch(ctx: Context, args: Mapping[str, Any]) -> dict[str, Any]:
    return to_dict(ctx.terminal.state().config)


def diff_lines(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """``"max_wager: $100.00 -> $50.00"`` per changed field."""
    lines = []
    for name in sorted(after):
        if before.get(name) == after[name]:
            continue
        if name in FIELD_SPECS:
            old, new = show_field(name, before.get(name)), show_field(name, after[name])
        else:
            old, new = repr(before.get(name)), repr(after[name])
        lines.append(f"{name}: {old} -> {new}")
    return lines


def apply_config(
    ctx: Context, new: Mapping[str, Any], *, version: int = 0, source: str = "service menu"
) -> Outcome:
    """Validate ``new`` (the whole configuration) and send it as one change.

    ``version`` 0 makes the version in force one more; an import gives its file's version.
    """
    state = ctx.terminal.state()
    current = to_dict(state.config)
    unknown = sorted(set(new) - set(current))
    if unknown:
        raise ConfigError(f"{unknown[0]}: unknown configuration field")
    if new.get("seats", current["seats"]) != current["seats"]:
        raise ConfigError("seats: the number of seats is fixed at installation")
    checked = to_dict(from_dict(new))  # ConfigError names the first field not allowed
    changes = diff_lines(current, checked)
    if not changes:
        raise ServiceError("nothing to change", "err_nothing_to_change")
    problem = changes_allowed(state)
    if problem is not None:
        raise _changes_refusal(state, problem)
    ctx.execute(c.ChangeConfig(config=checked, by=ctx.role.label, version=version, source=source))
    fields = [
        {"field": name, "before": current.get(name), "after": checked[name]}
        for name in sorted(checked)
        if current.get(name) != checked[name]
    ]
    return Outcome("Configuration changed", tuple(changes), {"changes": changes, "fields": fields})


def config_change(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Change fields (``changes``: field -> value, money in cents; ``editions`` as in to_dict)."""
    changes = args.get("changes")
    if not isinstance(changes, Mapping) or not changes:
        raise ServiceError("changes: the fields to change, with their new values", "err_no_changes")
    current = to_dict(ctx.terminal.state().config)
    return apply_config(ctx, {**current, **changes})


def _period_watch(ctx: Context, args: Mapping[str, Any]) -> dict[str, Any]:
    return {"period": ctx.terminal.state().period.as_dict()}


def period_reset(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Clear the period meters (the lifetime meters never are)."""
    state = ctx.terminal.state()
    if state.phase not in (Phase.IDLE, Phase.WAGERING, Phase.RESULT):
        raise ServiceError(
            f"period meters are reset between games (now: {state.phase.value})",
            "err_period_game",
            phase=state.phase.value,
        )
    ctx.execute(c.ResetPeriodMeters(by=ctx.role.label))
    return Outcome("Period meters reset", ("Period meters reset to zero.",), {})


FUNCTIONS = (
    ServiceFunction(
        "config",
        "Configuration",
        Role.OPERATOR,
        config_view,
        help="every setting, editions and pay tables with house edges",
    ),
    ServiceFunction(
        "paytables",
        "Pay tables and house edges",
        Role.OPERATOR,
        paytables,
        help="every pay table's house edge",
    ),
    ServiceFunction(
        "config_change",
        "Change configuration",
        Role.OPERATOR,
        config_change,
        watch=_config_watch,
        writes=True,
        help="change settings (args: changes); zero credits and no game only",
    ),
    ServiceFunction(
        "period_reset",
        "Period meter reset",
        Role.OPERATOR,
        period_reset,
        watch=_period_watch,
        writes=True,
        help="clear the period meters",
    ),
)
