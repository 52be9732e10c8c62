"""The terminal's state: everything the events have built up, and its snapshot form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from kiosk.terminal.core.config import (
    UNWRITTEN_AT_DEFAULT,
    WITHDRAWAL_LOCK_HOURS,
    TerminalConfig,
    from_dict,
    to_dict,
)
from kiosk.terminal.core.meters import Meters
from kiosk.terminal.core.pins import factory_records
from kiosk.terminal.core.records import (
    Cashout,
    Handpay,
    LastBet,
    OfferRecord,
    ProgressivePaid,
    SeatBetRecord,
    SeatResult,
    TicketEscrow,
    Tilt,
    TransferRecord,
)
from kiosk.terminal.core.tilts import DISPUTE_TILTS


class Phase(StrEnum):
    """Where the game cycle stands (lockups are kept apart, in :class:`TerminalState`)."""

    IDLE = "idle"  # attract mode: no wager placed
    WAGERING = "wagering"  # wagers placed for the next round, not yet committed
    DEALING = "dealing"  # wagers committed, first cards not yet drawn
    DECISION = "decision"  # awaiting raise / play-fold decisions
    SETTLING = "settling"  # decisions made, second cards not yet drawn
    RESULT = "result"  # the last round's result is on show
    CASHOUT = "cashout"  # a voucher is being printed


class Lockup(StrEnum):
    """Conditions that stop play, most severe first."""

    CRITICAL = "critical_memory_error"
    STORAGE_FULL = "storage_full"
    SERVICE = "service"
    DEVICE_RECORDS = "device_records"  # a device's money record disputes the journal
    HANDPAY = "handpay"
    TILT = "tilt"
    DOOR = "door_open"
    DISABLED = "disabled"


@dataclass
class RoundState:
    """The round in progress (or the last one, for the result display)."""

    game_number: int
    edition: str
    paytables: dict[str, str]
    bets: tuple[SeatBetRecord, ...]  # the seats that bet, in seat order
    credits_before: list[int]
    started_at: int
    first: list[int] = field(default_factory=list)
    seat_cards: list[list[int]] = field(default_factory=list)
    second_shared: list[int] = field(default_factory=list)
    offers: dict[int, OfferRecord] = field(default_factory=dict)
    choices: dict[int, str] = field(default_factory=dict)
    automatic: dict[int, bool] = field(default_factory=dict)
    extra: dict[int, int] = field(default_factory=dict)
    settlement: tuple[SeatResult, ...] = ()
    settled_at: int = 0
    #: a seat's table round (kiosk/terminal/seat): its table and game number; why it was voided
    table_id: str = ""
    table_game: int = 0
    voided: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for snapshots and recall (the snapshot codec: the previous
        release's shape, key for key)."""
        return {
            "game_number": self.game_number,
            "edition": self.edition,
            "paytables": self.paytables,
            "bets": [b.to_json() for b in self.bets],
            "credits_before": self.credits_before,
            "started_at": self.started_at,
            "first": self.first,
            "seat_cards": self.seat_cards,
            "second_shared": self.second_shared,
            "offers": {str(k): v.to_json() for k, v in self.offers.items()},
            "choices": {str(k): v for k, v in self.choices.items()},
            "automatic": {str(k): v for k, v in self.automatic.items()},
            "extra": {str(k): v for k, v in self.extra.items()},
            "settlement": [r.to_json() for r in self.settlement],
            "settled_at": self.settled_at,
            **(
                {"table_id": self.table_id, "table_game": self.table_game, "voided": self.voided}
                if self.table_game
                else {}
            ),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> RoundState:
        """Inverse of :meth:`to_dict`."""
        return cls(
            game_number=d["game_number"],
            edition=d["edition"],
            paytables=dict(d["paytables"]),
            bets=tuple(SeatBetRecord.from_json(b) for b in d["bets"]),
            credits_before=list(d["credits_before"]),
            started_at=d["started_at"],
            first=list(d["first"]),
            seat_cards=[list(c) for c in d["seat_cards"]],
            second_shared=list(d["second_shared"]),
            offers={int(k): OfferRecord.from_json(v) for k, v in d["offers"].items()},
            choices={int(k): v for k, v in d["choices"].items()},
            automatic={int(k): v for k, v in d["automatic"].items()},
            extra={int(k): v for k, v in d["extra"].items()},
            settlement=tuple(SeatResult.from_json(r) for r in d["settlement"]),
            settled_at=d["settled_at"],
            table_id=d.get("table_id", ""),
            table_game=d.get("table_game", 0),
            voided=d.get("voided", ""),
        )


@dataclass
class TerminalState:
    """The durable state (rebuilt from events) plus the player's unsaved wagers."""

    config: TerminalConfig
    phase: Phase = Phase.IDLE
    credits: list[int] = field(default_factory=list)
    lifetime: Meters = field(default_factory=Meters)
    period: Meters = field(default_factory=Meters)
    game_number: int = 0
    round: RoundState | None = None
    last_bets: dict[int, LastBet] = field(default_factory=dict)
    escrow: dict[int, int] = field(default_factory=dict)
    #: a voucher in escrow per seat
    ticket_escrow: dict[int, TicketEscrow] = field(default_factory=dict)
    cashout: Cashout | None = None
    handpay: Handpay | None = None
    #: active tilts by code
    tilts: dict[str, Tilt] = field(default_factory=dict)
    doors_open: list[str] = field(default_factory=list)
    disabled: str | None = None
    service_role: str | None = None
    critical: str | None = None
    selected_edition: str = ""
    last_event_at: int = 0
    #: service PIN records by role name (kiosk/terminal/core/pins.py); None: a store of the previous
    #: release whose pins.json was not taken in (no role can enter)
    pins: dict[str, dict[str, Any]] | None = None
    #: the version of the configuration in force (0: never changed or imported)
    config_version: int = 0
    #: the last electronic funds transfers (SAS AFT and legacy bonus), oldest first
    transfers: list[TransferRecord] = field(default_factory=list)
    #: every progressive hit paid, oldest first (its key: exactly once)
    progressive_paid: list[ProgressivePaid] = field(default_factory=list)
    # not durable: wagers placed for the next round are only taken at Deal
    pending_wagers: dict[int, dict[str, int]] = field(default_factory=dict)
    pending_positions: dict[int, tuple[int, ...]] = field(default_factory=dict)
    #: not durable: the store's disk is full (a write failed; nothing of it was applied)
    storage_full: str | None = None

    def __post_init__(self) -> None:
        if not self.credits:
            self.credits = [0] * self.config.seats
        if not self.selected_edition:
            self.selected_edition = self.config.editions[0].edition

    @classmethod
    def genesis(cls, config: TerminalConfig) -> TerminalState:
        """The state of a new store: nothing happened yet, the factory PINs to be changed."""
        return cls(config, pins=factory_records())

    def lockups(self) -> list[Lockup]:
        """Every active lockup, most severe first."""
        active = []
        if self.critical is not None:
            active.append(Lockup.CRITICAL)
        if self.storage_full is not None:
            active.append(Lockup.STORAGE_FULL)
        if self.service_role is not None:
            active.append(Lockup.SERVICE)
        if not DISPUTE_TILTS.isdisjoint(self.tilts):
            active.append(Lockup.DEVICE_RECORDS)
        if self.handpay is not None:
            active.append(Lockup.HANDPAY)
        if self.tilts:
            active.append(Lockup.TILT)
        if self.doors_open:
            active.append(Lockup.DOOR)
        if self.disabled is not None:
            active.append(Lockup.DISABLED)
        return active

    def pending_total(self, seat: int) -> int:
        """Cents placed on wager spots for the next round, not yet committed."""
        return sum(self.pending_wagers.get(seat, {}).values())

    def to_snapshot(self) -> dict[str, Any]:
        """The durable part, JSON-ready (pending wagers are deliberately left out).

        ``pins``, ``config_version``, ``transfers`` and ``progressive_paid`` are written only
        once they exist, so the
        snapshots of a store made by the previous release still equal its replay.
        """
        config = to_dict(self.config)
        if config["withdrawal_lock_hours"] == WITHDRAWAL_LOCK_HOURS:
            del config["withdrawal_lock_hours"]  # as the releases before it wrote the config
        for name in UNWRITTEN_AT_DEFAULT:
            if not config[name]:
                del config[name]
        snapshot: dict[str, Any] = {
            "config": config,
            "phase": self.phase.value,
            "credits": self.credits,
            "lifetime": self.lifetime.as_dict(),
            "period": self.period.as_dict(),
            "game_number": self.game_number,
            "round": None if self.round is None else self.round.to_dict(),
            "last_bets": {str(k): v.to_json() for k, v in self.last_bets.items()},
            "escrow": {str(k): v for k, v in self.escrow.items()},
            "ticket_escrow": {str(k): v.to_json() for k, v in self.ticket_escrow.items()},
            "cashout": None if self.cashout is None else self.cashout.to_json(),
            "handpay": None if self.handpay is None else self.handpay.to_json(),
            "tilts": {code: t.to_json() for code, t in self.tilts.items()},
            "doors_open": self.doors_open,
            "disabled": self.disabled,
            "service_role": self.service_role,
            "critical": self.critical,
            "selected_edition": self.selected_edition,
            "last_event_at": self.last_event_at,
        }
        if self.pins is not None:
            snapshot["pins"] = self.pins
        if self.config_version:
            snapshot["config_version"] = self.config_version
        if self.transfers:
            snapshot["transfers"] = [t.to_json() for t in self.transfers]
        if self.progressive_paid:
            snapshot["progressive_paid"] = [p.to_json() for p in self.progressive_paid]
        return snapshot

    @classmethod
    def from_snapshot(cls, d: dict[str, Any]) -> TerminalState:
        """Inverse of :meth:`to_snapshot`."""
        return cls(
            config=from_dict(d["config"]),
            phase=Phase(d["phase"]),
            credits=list(d["credits"]),
            lifetime=Meters(d["lifetime"]),
            period=Meters(d["period"]),
            game_number=d["game_number"],
            round=None if d["round"] is None else RoundState.from_dict(d["round"]),
            last_bets={int(k): LastBet.from_json(v) for k, v in d["last_bets"].items()},
            escrow={int(k): v for k, v in d["escrow"].items()},
            ticket_escrow={
                int(k): TicketEscrow.from_json(v) for k, v in d.get("ticket_escrow", {}).items()
            },
            cashout=None if d["cashout"] is None else Cashout.from_json(d["cashout"]),
            handpay=None if d["handpay"] is None else Handpay.from_json(d["handpay"]),
            tilts={code: Tilt.from_json(t) for code, t in d["tilts"].items()},
            doors_open=list(d["doors_open"]),
            disabled=d["disabled"],
            service_role=d["service_role"],
            critical=d["critical"],
            selected_edition=d["selected_edition"],
            last_event_at=d["last_event_at"],
            pins=None if d.get("pins") is None else {k: dict(v) for k, v in d["pins"].items()},
            config_version=d.get("config_version", 0),
            transfers=[TransferRecord.from_json(t) for t in d.get("transfers", [])],
            progressive_paid=[ProgressivePaid.from_json(p) for p in d.get("progressive_paid", [])],
        )
