"""Terminal configuration: what the operator sets, validated with clear errors."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from kiosk.kernel.games.base import RuleError
from kiosk.kernel.games.registry import edition_ids, load_game

#: Notes a US bill validator can accept, in cents.
NOTE_VALUES = (100, 200, 500, 1000, 2000, 5000, 10000)


class ConfigError(ValueError):
    """A configuration value that is not allowed; the message names the field (``key`` and
    ``values``, when given, say it for the service pages' catalogue)."""

    def __init__(self, message: str, key: str = "", **values: object) -> None:
        super().__init__(message)
        self.key = key
        self.values: dict[str, object] = dict(values)


@dataclass(frozen=True)
class EditionConfig:
    """One enabled edition and the pay table chosen for each of its wagers."""

    edition: str
    paytables: Mapping[str, str] = field(default_factory=dict)


#: fields a snapshot leaves out at their default (the releases before them wrote no such key)
UNWRITTEN_AT_DEFAULT = ("responsible_gaming_en", "responsible_gaming_es")
#: the longest responsible-gaming line (one line across the attract screen)
RESPONSIBLE_GAMING_MAX = 80

#: the default of ``withdrawal_lock_hours`` (a snapshot leaves it out at this value, so that the
#: snapshots of the releases before it replay the same: kiosk/terminal/core/state.py)
WITHDRAWAL_LOCK_HOURS = 24


@dataclass(frozen=True)
class TerminalConfig:
    """Everything an operator configures; money in cents, times in seconds."""

    terminal_id: str = "TK-0001"
    venue: str = "Demo Casino"
    denomination: int = 25  # cents per credit; every wager is a whole number of credits
    editions: tuple[EditionConfig, ...] = (
        EditionConfig("turbo-football"),
        EditionConfig("icon-v2"),
        EditionConfig("stadium-3cp"),
    )
    min_wager: int = 100  # per wager spot
    max_wager: int = 10_000  # per wager spot
    table_max: int = 50_000  # all wagers of one seat in one round, decision wager included
    credit_limit: int = 100_000  # a note that would take credits beyond this is returned
    handpay_limit: int = 120_000  # a single win at or above this locks up for an attendant
    ticket_out_limit: int = 1_000_000  # larger cash-outs are paid by hand
    accepted_notes: tuple[int, ...] = NOTE_VALUES
    #: Play/Fold and raise timer: 0 (the default) none, the round waits for the player; when
    #: the operator sets one, the rules' stated default is taken when it runs out, and the
    #: screen shows it counting down (decision 0054)
    decision_seconds: int = 0
    host_timeout_seconds: int = 30  # communication loss beyond this disables play
    seats: int = 1
    language: str = "en"
    host_address: str = "127.0.0.1:50051"
    voucher_expiry_days: int = 30
    #: a second withdrawn head within this many hours locks for the operator (decision 0037)
    withdrawal_lock_hours: int = WITHDRAWAL_LOCK_HOURS
    #: the responsible-gaming line attract mode shows, the operator's words in each language
    #: ("" shows the built-in line); a snapshot leaves them out when "" (see WITHDRAWAL_...)
    responsible_gaming_en: str = ""
    responsible_gaming_es: str = ""

    def __post_init__(self) -> None:
        validate(self)

    def edition(self, edition_id: str) -> EditionConfig:
        """The enabled edition with this id (ConfigError when not enabled)."""
        for ed in self.editions:
            if ed.edition == edition_id:
                return ed
        raise ConfigError(f"editions: {edition_id!r} is not enabled on this terminal")

    def to_json(self) -> str:
        """Canonical JSON text (sorted keys), as exported and signed."""
        return json.dumps(to_dict(self), sort_keys=True, separators=(",", ":"))

    def with_changes(self, **changes: Any) -> TerminalConfig:
        """A validated copy with some fields changed."""
        return replace(self, **changes)


def to_dict(config: TerminalConfig) -> dict[str, Any]:
    """Plain JSON-ready dict of a configuration."""
    data = asdict(config)
    data["editions"] = [
        {"edition": e.edition, "paytables": dict(e.paytables)} for e in config.editions
    ]
    data["accepted_notes"] = list(config.accepted_notes)
    return data


def from_dict(data: Mapping[str, Any]) -> TerminalConfig:
    """A configuration from a dict (unknown or mistyped fields are ConfigErrors)."""
    known = {f.name: f for f in fields(TerminalConfig)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ConfigError(f"{unknown[0]}: unknown configuration field")
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key == "editions":
            if not isinstance(value, list):
                raise ConfigError("editions: must be a list of {edition, paytables}")
            eds = []
            for i, item in enumerate(value):
                if not isinstance(item, Mapping) or not isinstance(item.get("edition"), str):
                    raise ConfigError(f"editions[{i}]: must be an object with an 'edition' name")
                tables = item.get("paytables", {})
                if not isinstance(tables, Mapping) or not all(
                    isinstance(k, str) and isinstance(v, str) for k, v in tables.items()
                ):
                    raise ConfigError(f"editions[{i}].paytables: must map wager ids to names")
                eds.append(EditionConfig(item["edition"], dict(tables)))
            values[key] = tuple(eds)
        elif key == "accepted_notes":
            if not isinstance(value, list):
                raise ConfigError("accepted_notes: must be a list of note values in cents")
            values[key] = tuple(value)
        else:
            values[key] = value
    return TerminalConfig(**values)


def _positive_int(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ConfigError(f"{name}: must be a positive whole number, got {value!r}")
    return value


def validate(config: TerminalConfig) -> None:
    """Raise ConfigError naming the first field that is not allowed."""
    for name in (
        "denomination",
        "min_wager",
        "max_wager",
        "table_max",
        "credit_limit",
        "handpay_limit",
        "ticket_out_limit",
        "host_timeout_seconds",
        "seats",
        "voucher_expiry_days",
        "withdrawal_lock_hours",
    ):
        _positive_int(name, getattr(config, name))
    _validate_player_fields(config)
    for name in ("terminal_id", "venue", "host_address", "language"):
        value = getattr(config, name)
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(f"{name}: must be a non-empty text")
    if not config.terminal_id.isascii() or len(config.terminal_id) > 16:
        raise ConfigError("terminal_id: at most 16 ASCII characters")
    if config.language not in ("en", "es"):
        raise ConfigError(f"language: must be 'en' or 'es', got {config.language!r}")
    for name in ("min_wager", "max_wager", "table_max"):
        if getattr(config, name) % config.denomination:
            raise ConfigError(
                f"{name}: must be a whole number of credits of {config.denomination} cents"
            )
    if config.min_wager > config.max_wager:
        raise ConfigError("min_wager: must not exceed max_wager")
    if config.max_wager > config.table_max:
        raise ConfigError("max_wager: must not exceed table_max")
    if config.credit_limit < config.table_max:
        raise ConfigError("credit_limit: must be at least table_max")
    if config.withdrawal_lock_hours > 24 * 365:
        raise ConfigError("withdrawal_lock_hours: at most a year (8760 hours)")
    if config.seats > 8:
        raise ConfigError("seats: at most 8 seats share one round")
    if not config.accepted_notes:
        raise ConfigError("accepted_notes: at least one note must be accepted")
    for note in config.accepted_notes:
        if note not in NOTE_VALUES:
            raise ConfigError(f"accepted_notes: {note!r} is not a note value (cents)")
    if not config.editions:
        raise ConfigError("editions: at least one edition must be enabled")
    seen: set[str] = set()
    for ed in config.editions:
        if ed.edition in seen:
            raise ConfigError(f"editions: {ed.edition!r} is listed twice")
        seen.add(ed.edition)
        if ed.edition not in edition_ids():
            raise ConfigError(f"editions: unknown edition {ed.edition!r}")
        try:
            load_game(ed.edition, ed.paytables)
        except (RuleError, ValueError) as exc:
            raise ConfigError(f"editions.{ed.edition}.paytables: {exc}") from exc


def _validate_player_fields(config: TerminalConfig) -> None:
    """The decision timer (0: none) and the responsible-gaming lines (decision 0054)."""
    seconds = config.decision_seconds
    if not isinstance(seconds, int) or isinstance(seconds, bool) or not 0 <= seconds <= 600:
        raise ConfigError(
            f"decision_seconds: 0 for no timer, or whole seconds up to 600, got {seconds!r}"
        )
    for name in UNWRITTEN_AT_DEFAULT:
        line = getattr(config, name)
        if not isinstance(line, str) or len(line) > RESPONSIBLE_GAMING_MAX:
            raise ConfigError(f"{name}: a text of at most {RESPONSIBLE_GAMING_MAX} characters")
        if not line.isprintable():
            raise ConfigError(f"{name}: one line of printable characters")
