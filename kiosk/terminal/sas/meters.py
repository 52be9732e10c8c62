"""SAS meters from the terminal's own meters: one truth, read through a frozen snapshot.

The SAS link never keeps money of its own.  After every commit the terminal's thread builds a
:class:`MachineSnapshot` from the journaled state (the same lifetime meters the touchscreen,
``turbokiosk meters`` and the gRPC host report) and the link swaps it in whole; the SAS thread
answers from whichever snapshot is current.  The accounting denomination is one cent
(:data:`~kiosk.terminal.sas.wire.DENOMINATION_CODE_1_CENT`), so a SAS credit is a cent and every
money meter is the terminal's meter in cents.

:data:`MACHINE_METERS` is the mapping (documented in docs/sas.md); :func:`meter_value` answers
for the machine (game 0) or one game (an edition's own ``game.<edition>.*`` meters).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from kiosk.terminal.core.records import TransferRecord
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.wire import MeterCode as M


@dataclass(frozen=True)
class GameEntry:
    """One SAS game number: a Turbo edition or Stadium, with its pay tables."""

    number: int  # 1..N
    edition: str
    title: str
    paytable_id: str  # 6 ASCII characters on the wire
    enabled: bool


@dataclass(frozen=True)
class MachineSnapshot:
    """What the SAS polls read, taken from the terminal's state after one commit."""

    meters: Mapping[str, int] = field(default_factory=dict)  # lifetime meters
    credits: int = 0  # seat 0's credits, cents
    games: tuple[GameEntry, ...] = ()
    handpay_value: int = 0  # cents of the handpay waiting, 0 for none
    handpay_kind: str = ""
    enabled: bool = True  # play not stopped by the host
    critical: bool = False
    games_since_power_up: int = 0
    games_since_door_closed: int = 0
    last_bill: int = 0  # cents of the last note stacked, 0 for none
    max_bet: int = 0  # cents, the table maximum
    selected_game: int = 0  # the game number on show, 0 for none
    serial: str = ""  # the terminal id (54's serial number)
    journal_seq: int = 0
    #: the journal's last electronic funds transfers (AFT and legacy bonus), oldest first
    transfers: tuple[TransferRecord, ...] = ()
    #: a transfer could be made now (between rounds, nothing but a host disable stopping play)
    can_transfer: bool = False
    credit_limit: int = 0  # cents
    voucher_expiry_days: int = 0

    def meter(self, name: str) -> int:
        """A terminal meter (0 when it was never advanced)."""
        return self.meters.get(name, 0)

    def game(self, number: int) -> GameEntry | None:
        """The game of ``number`` (1..N), or None."""
        for entry in self.games:
            if entry.number == number:
                return entry
        return None


Reader = Callable[[MachineSnapshot], int]


def _m(name: str) -> Reader:
    return lambda s: s.meter(name)


def _sum(*names: str) -> Reader:
    return lambda s: sum(s.meter(n) for n in names)


def _zero(_: MachineSnapshot) -> int:
    return 0


#: SAS meter code -> how it is read from the terminal's meters (cents or counts)
MACHINE_METERS: dict[int, Reader] = {
    M.TOTAL_COIN_IN: _m("coin_in"),
    M.TOTAL_COIN_OUT: _m("coin_out"),
    M.TOTAL_JACKPOT: _sum("handpaid_jackpots", "handpaid_progressive"),
    M.TOTAL_HANDPAID_CANCELLED_CREDITS: _m("handpaid_cancelled_credits"),
    M.TOTAL_CANCELLED_CREDITS: _sum("tickets_out", "handpaid_cancelled_credits"),
    M.GAMES_PLAYED: _m("games_played"),
    M.GAMES_WON: _m("games_won"),
    M.GAMES_LOST: _m("games_lost"),
    M.TOTAL_CREDITS_FROM_COIN_ACCEPTOR: _zero,
    M.TOTAL_CREDITS_PAID_FROM_HOPPER: _zero,
    M.TOTAL_CREDITS_FROM_COINS_TO_DROP: _zero,
    M.TOTAL_CREDITS_FROM_BILLS_ACCEPTED: _m("bills_in"),
    M.CURRENT_CREDITS: lambda s: s.credits,
    M.TOTAL_CASHABLE_TICKET_IN_CENTS: _m("tickets_in"),
    M.TOTAL_CASHABLE_TICKET_OUT_CENTS: _m("tickets_out"),
    M.TOTAL_RESTRICTED_TICKET_IN_CENTS: _zero,
    M.TOTAL_RESTRICTED_TICKET_OUT_CENTS: _zero,
    M.TOTAL_CASHABLE_TICKET_IN_COUNT: _m("tickets_in_count"),
    M.TOTAL_CASHABLE_TICKET_OUT_COUNT: _m("tickets_out_count"),
    M.TOTAL_RESTRICTED_TICKET_IN_COUNT: _zero,
    M.TOTAL_RESTRICTED_TICKET_OUT_COUNT: _zero,
    M.TOTAL_TICKET_IN_CREDITS: _m("tickets_in"),
    M.TOTAL_TICKET_OUT_CREDITS: _m("tickets_out"),
    M.TOTAL_ELECTRONIC_TRANSFERS_TO_MACHINE: _sum("aft_in", "aft_bonus"),
    M.TOTAL_ELECTRONIC_TRANSFERS_TO_HOST: _m("aft_out"),
    M.TOTAL_MACHINE_PAID_EXTERNAL_BONUS_WIN: _sum("aft_bonus", "legacy_bonus"),
    M.TOTAL_ATTENDANT_PAID_EXTERNAL_BONUS_WIN: _zero,
    M.TOTAL_MACHINE_PAID_PAYTABLE_WIN: _m("coin_out"),
    M.TOTAL_MACHINE_PAID_PROGRESSIVE_WIN: _m("progressive_won"),
    M.TOTAL_ATTENDANT_PAID_PAYTABLE_WIN: _m("handpaid_jackpots"),
    M.TOTAL_ATTENDANT_PAID_PROGRESSIVE_WIN: _m("handpaid_progressive"),
    M.TOTAL_WON_CREDITS: _sum(
        "coin_out", "handpaid_jackpots", "progressive_won", "handpaid_progressive"
    ),
    M.TOTAL_HANDPAID_CREDITS: _sum(
        "handpaid_cancelled_credits", "handpaid_jackpots", "handpaid_progressive"
    ),
    M.TOTAL_DROP: _sum("bills_in", "tickets_in"),
    M.GAMES_SINCE_POWER_RESET: lambda s: s.games_since_power_up,
    M.GAMES_SINCE_SLOT_DOOR_CLOSURE: lambda s: s.games_since_door_closed,
    M.TOTAL_REGULAR_CASHABLE_TICKET_IN_CREDITS: _m("tickets_in"),
    M.TOTAL_CASHABLE_TICKET_OUT_CREDITS: _m("tickets_out"),
    M.REGULAR_CASHABLE_TICKET_IN_CENTS: _m("tickets_in"),
    M.REGULAR_CASHABLE_TICKET_IN_COUNT: _m("tickets_in_count"),
    M.REGULAR_CASHABLE_TICKET_OUT_CENTS: _m("tickets_out"),
    M.REGULAR_CASHABLE_TICKET_OUT_COUNT: _m("tickets_out_count"),
    M.AFT_CASHABLE_IN_CENTS: _m("aft_in"),
    M.AFT_CASHABLE_IN_COUNT: _m("aft_in_count"),
    M.AFT_BONUS_CASHABLE_IN_CENTS: _m("aft_bonus"),
    M.AFT_BONUS_CASHABLE_IN_COUNT: _m("aft_bonus_count"),
    M.AFT_CASHABLE_OUT_CENTS: _m("aft_out"),
    M.AFT_CASHABLE_OUT_COUNT: _m("aft_out_count"),
    **{
        0x40 + code: _m(f"bills_in.{cents}") for cents, code in wire.BILL_DENOMINATION_CODES.items()
    },
}

#: meters a single game (an edition) keeps: ``game.<edition>.<tables>.played|in|out``
_GAME_METERS: dict[int, str] = {
    M.TOTAL_COIN_IN: "in",
    M.TOTAL_COIN_OUT: "out",
    M.GAMES_PLAYED: "played",
    M.TOTAL_MACHINE_PAID_PAYTABLE_WIN: "out",
}


def meter_value(snapshot: MachineSnapshot, code: int, game: int = 0) -> int | None:
    """SAS meter ``code`` of the machine (``game`` 0) or of game number ``game``; None when
    that meter is not kept (for the machine, or for a single game)."""
    if game == 0:
        reader = MACHINE_METERS.get(code)
        return None if reader is None else reader(snapshot)
    entry = snapshot.game(game)
    suffix = _GAME_METERS.get(code)
    if entry is None or suffix is None:
        return None
    prefix = f"game.{entry.edition}."
    return sum(
        value
        for name, value in snapshot.meters.items()
        if name.startswith(prefix) and name.endswith("." + suffix)
    )


def bill_count(snapshot: MachineSnapshot, cents: int) -> int:
    """How many notes of ``cents`` were stacked."""
    return snapshot.meter(f"bills_in.{cents}")
