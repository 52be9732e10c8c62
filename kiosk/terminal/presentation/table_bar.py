"""The table bar: what a seat's screen says of its table (decision 0023).

A seat at a table (``turbokiosk run --table ADDR``) shows in its top bar the table's step in
words ("Place your bets", "Dealer is dealing" over "Pack 2: array 4-6", "Dealer's hand",
"Table paused" over its reason, ...), the countdown of the betting and decision windows in
whole seconds (held while the table is paused), the table, the game number and how many
seats are in.  When the link to the controller is lost, new bets are disabled, the bar turns
red and says so, and a panel over the table says why.  :func:`table_bar` makes that
:class:`TableBarView` from the seat runtime's
:class:`~kiosk.terminal.presentation.table_status.TableStatus`, in the player's language; it reads
no clock (the time left is the status's) and draws nothing.  :func:`at_table` closes the chips,
spots and DEAL of a :class:`~kiosk.terminal.presentation.table.TableView` outside the betting
window.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum

from kiosk.kernel.games.table_phase import WINDOWS, TablePhase
from kiosk.kernel.games.table_reasons import PAUSE_REASONS, reason_code
from kiosk.terminal.presentation.i18n import text
from kiosk.terminal.presentation.money import dollars
from kiosk.terminal.presentation.overlays import LockupView
from kiosk.terminal.presentation.table import TableView
from kiosk.terminal.presentation.table_status import TableStatus
from kiosk.terminal.seat.status import Connection


class TableStep(StrEnum):
    """The dealer's steps as a player sees them, in the order of a round."""

    CONNECTING = "connecting"  # not seated yet (first connect, or a reconnect)
    LOST = "lost"  # the link to the controller is lost (or the seat stood up)
    WAITING = "waiting"  # no round: the dealer has not pressed "New Game"
    BETTING = "betting"  # the betting window (countdown)
    BETS_CLOSED = "bets_closed"  # the betting countdown ran out: no more bets
    DEALING = "dealing"  # the first deal (and Turbo's second)
    DECIDING = "deciding"  # the decision window (countdown)
    DEALER_HAND = "dealer_hand"  # Stadium: the dealer's three cards open
    ROUND_OVER = "round_over"  # settled: the results, until the next round opens
    VOIDED = "voided"  # the round was voided: every wager returned
    PAUSED = "paused"  # the dealer paused the table: the countdown holds, no new bets


#: the steps that run a window with a countdown
TIMED = frozenset({TableStep.BETTING, TableStep.DECIDING})

#: the phases whose countdown a pause holds (the bar shows the held seconds)
_WINDOWS = WINDOWS

#: the pause's reason in the bar's detail line: at most this many characters
REASON_CHARS = 32

#: where the controller lays a pack (kiosk.table.core.core.PackSlot.location)
_DEALER_HAND = "dealer"
_ARRAY = re.compile(r"^array (?P<cards>\d+-\d+)$")
_SEAT_CARDS = re.compile(r"^seat (?P<seat>\d+) cards (?P<cards>\d+-\d+)$")


@dataclass(frozen=True)
class TableBarView:
    """The table in the top bar, ready to draw."""

    step: TableStep
    headline: str  # the step in words, or "Bets disabled"
    detail: str  # "T1 · Game 42 · 4 seats in", or why bets are disabled
    #: whole seconds left in the betting or decision window (rounded up); None: no countdown
    seconds: int | None
    #: the window's length in whole seconds (the ring's full circle), at least 1
    total_seconds: int
    #: the link to the controller is lost: the bar turns red
    lost: bool
    #: the panel over the table while the link is lost (why, what happens to the money)
    lost_panel: LockupView | None
    #: the seat may place a new bet now (seated, the betting window open, time left)
    bets_open: bool


def step_of(status: TableStatus, *, dealer_hand: bool) -> TableStep:
    """The step a player is shown (``dealer_hand``: the game has a dealer's hand, Stadium)."""
    connection = Connection(status.connection)
    if connection is Connection.CONNECTING:
        return TableStep.CONNECTING
    if connection is not Connection.SEATED:
        return TableStep.LOST
    if status.paused:
        return TableStep.PAUSED
    phase = TablePhase(status.phase)
    if status.pack and phase in (TablePhase.BETS_CLOSED, TablePhase.DEALING):
        hand = status.pack_location == _DEALER_HAND
        return TableStep.DEALER_HAND if hand else TableStep.DEALING
    if phase is TablePhase.BETTING and status.remaining_ms <= 0:
        return TableStep.BETS_CLOSED  # the controller's BetsClosed is on its way
    return {
        TablePhase.IDLE: TableStep.WAITING,
        TablePhase.BETTING: TableStep.BETTING,
        TablePhase.BETS_CLOSED: TableStep.DEALING,
        TablePhase.DECIDING: TableStep.DECIDING,
        TablePhase.DEALING: TableStep.DEALER_HAND if dealer_hand else TableStep.DEALING,
        TablePhase.SETTLED: TableStep.ROUND_OVER,
        TablePhase.VOIDED: TableStep.VOIDED,
    }[phase]


def _seconds(ms: int) -> int:
    """Whole seconds, rounded up (1 ms left shows 1, never 0 while the window is open)."""
    return max(0, -(-ms // 1000))


def table_bar(
    status: TableStatus, language: str, *, dealer_hand: bool, window_ms: int = 0
) -> TableBarView:
    """The bar for ``status`` in ``language``; ``window_ms`` is the running window's length
    (:class:`CountdownWindow`), the full circle of the ring."""
    step = step_of(status, dealer_hand=dealer_hand)
    held = step is TableStep.PAUSED and TablePhase(status.phase) in _WINDOWS
    seconds = _seconds(status.remaining_ms) if step in TIMED or held else None
    total = 1 if seconds is None else max(1, _seconds(window_ms), seconds)
    lost = step is TableStep.LOST
    reconnecting = step is TableStep.CONNECTING and bool(status.reason)
    if lost or reconnecting:
        headline = text(language, "table_bets_disabled")
        closed = status.connection == Connection.CLOSED.value
        detail = text(language, "table_closed" if closed else "table_no_link")
    elif step is TableStep.PAUSED:
        headline = text(language, "table_step_paused")
        detail = _short(pause_words(status.pause_reason, language)) or _where(status, language)
    elif step is TableStep.DEALING and status.pack:  # the pack in the detail: the bar is narrow
        headline = text(language, "table_step_dealing")
        place = pack_place(status.pack_location, language)
        detail = text(language, "table_pack", pack=status.pack, place=place)
    else:
        headline = text(language, f"table_step_{step.value}")
        detail = _where(status, language)
    panel = None
    if lost or reconnecting:
        reason = attendant_reason(status.reason, language)
        panel = LockupView(
            kind="table_link",
            title=text(language, "table_bets_disabled"),
            reason=detail,
            advice=text(language, "table_lost_advice"),
            severity="wait",
            detail=reason,
            detail_text=text(language, "attendant_detail", detail=reason) if reason else "",
        )
    return TableBarView(
        step=step,
        headline=headline,
        detail=detail,
        seconds=seconds,
        total_seconds=total,
        lost=lost or reconnecting,
        lost_panel=panel,
        bets_open=status.bets_open and step is TableStep.BETTING,
    )


#: the seat client's words for a failed stream: "... does not answer (UNAVAILABLE: <gRPC's
#: own details, a line or more>)"
_RPC_DETAILS = re.compile(r"^(?P<what>.*?) \((?P<code>[A-Z_]+): .*\)$", re.DOTALL)
#: the seat's own words for a lost link (kiosk/terminal/seat/client.py, machine.py)
_NO_ANSWER = "the table controller does not answer"
_ENDED = "the table controller ended the stream"
_REFUSED = "the table refused a report: "


def attendant_reason(reason: str, language: str = "en") -> str:
    """The link's reason as the panel gives it to the attendant, in ``language``: the client's
    words and the gRPC status code, without gRPC's own details (a line or more of addresses and
    errno, which would not fit the panel; the seat's log keeps them).  Words that are not the
    seat's own (a controller's refusal) are shown as they came."""
    reason = " ".join(reason.split())
    rpc = _RPC_DETAILS.match(reason)
    if rpc is not None and rpc["what"] == _NO_ANSWER:
        return text(language, "table_link_no_answer", code=rpc["code"])
    if rpc is not None:
        return f"{rpc['what']} ({rpc['code']})"
    if reason == _ENDED:
        return text(language, "table_link_ended")
    if reason.startswith(_REFUSED):
        return text(language, "table_link_refused", why=reason.removeprefix(_REFUSED))
    return reason


def pack_place(location: str, language: str) -> str:
    """Where the controller lays a pack, in ``language`` ("array 4-6", "seat 2 cards 1-3",
    "community"; another place as the controller names it)."""
    array = _ARRAY.match(location)
    if array is not None:
        return text(language, "table_place_array", cards=array["cards"])
    seat = _SEAT_CARDS.match(location)
    if seat is not None:
        return text(language, "table_place_seat", seat=seat["seat"], cards=seat["cards"])
    if location == "community":
        return text(language, "table_place_community")
    return location


def pause_words(reason: str, language: str) -> str:
    """A pause's reason in the seat's language (a dealer's own words as they came)."""
    code = reason_code(reason)
    if code in PAUSE_REASONS:
        return text(language, f"table_pause_reason_{PAUSE_REASONS.index(code)}")
    return reason


def _short(reason: str) -> str:
    """The pause's reason on one line of the bar (cut with "…" when it does not fit)."""
    reason = " ".join(reason.split())
    return reason if len(reason) <= REASON_CHARS else reason[: REASON_CHARS - 1].rstrip() + "…"


def _where(status: TableStatus, language: str) -> str:
    """ "T1 · Game 42 · 4 seats in" (no count until the controller has given one)."""
    if status.game_number > 0:
        where = text(language, "table_game", table=status.table_id, game=status.game_number)
    else:
        where = text(language, "table_name", table=status.table_id)
    if status.progressive is not None:  # the table's progressive meter as the round opened
        outcome, cents = status.progressive
        meter = text(language, "table_progressive", outcome=outcome, amount=dollars(cents))
        where = f"{where} · {meter}"
    n = status.seats_in
    if n <= 0:
        return where
    seats = text(language, "table_seats_one") if n == 1 else text(language, "table_seats", n=n)
    return f"{where} · {seats}"


class CountdownWindow:
    """The length of the running window, for the ring: the most time left seen in it (a seat
    that joins mid-window takes the rest as the whole)."""

    def __init__(self) -> None:
        self._key: tuple[int, str, int] | None = None
        self._ms = 0

    def length_ms(self, status: TableStatus) -> int:
        """The window's length as far as seen, ``status`` included (0: no window runs)."""
        if not status.deadline_ms:
            self._key, self._ms = None, 0
            return 0
        key = (status.game_number, status.phase, status.deadline_ms)
        if key != self._key:
            self._key, self._ms = key, 0
        self._ms = max(self._ms, status.remaining_ms)
        return self._ms


class LinkWatch:
    """Keeps a lost link's reason through the reconnect attempts that follow it: the seat's
    client reports "connecting" (no reason) before each new try, and the player must go on
    seeing that bets are disabled, and why, until the seat is seated again."""

    def __init__(self) -> None:
        self._lost_reason = ""

    def seen(self, status: TableStatus) -> TableStatus:
        """``status``, a reconnect after a loss carrying the loss's reason."""
        connection = Connection(status.connection)
        if connection is Connection.SEATED:
            self._lost_reason = ""
        elif connection is Connection.LOST:
            self._lost_reason = status.reason or self._lost_reason
        elif connection is Connection.CONNECTING and not status.reason and self._lost_reason:
            return replace(status, reason=self._lost_reason)
        return status


def at_table(
    view: TableView, bar: TableBarView, language: str, *, past_round: bool = False
) -> TableView:
    """``view`` as a seat shows it: the chips, spots, CLEAR and REPEAT only while the table
    takes bets (a lost link disables new bets); no DEAL (the chips on the felt when bets close
    are the wager, decision 0054); the decision's countdown is the table's (its window, not the
    terminal's); no change of game (the table deals one game).  The guide says the table's
    step in the bar's own words, never "Dealing…" beside "Place your bets".  ``past_round``:
    the view's round is an earlier game than the table's current one (the seat did not play
    this one): its cards and results are not shown over the table's round."""
    if past_round:
        view = _without_round(view)
    shut = not bar.bets_open
    offer = view.offer
    counting = bar.step in (TableStep.DECIDING, TableStep.PAUSED)
    if offer is not None and counting and bar.seconds is not None:
        default = offer.default_label
        offer = replace(
            offer,
            seconds_left=bar.seconds,
            total_seconds=bar.total_seconds,
            default_text=text(language, "default_after", choice=default, seconds=bar.seconds),
        )
    return replace(
        view,
        offer=offer,
        can_bet=view.can_bet and not shut,
        can_deal=False,
        deal_button=False,
        can_clear=view.can_clear and not shut,
        can_repeat=view.can_repeat and not shut,
        can_change_game=False,
        guide_text=_seat_guide(view, bar, language, offer is not None),
    )


def _seat_guide(view: TableView, bar: TableBarView, language: str, deciding: bool) -> str:
    """The guide line at a seat: while the dealer has paused the table, the bar's "Table
    paused" (the table refuses wagers and decisions then, so no invitation to play); the
    decision's prompt; a wager ready on the felt while bets are open plays when they close;
    while the terminal waits on the table, the bar's own words for the step; else the view's
    guide (place your wagers, the last result)."""
    guide = view.guide_text
    if bar.step is TableStep.PAUSED:
        return bar.headline
    if deciding:
        return guide
    busy = guide == text(language, "dealing")
    ready = guide.startswith(text(language, "touch_deal"))
    if bar.step is TableStep.BETTING:
        if busy:
            return text(language, "table_wager_in", step=bar.headline)
        return text(language, "table_chips_play") if ready else guide
    return bar.headline if busy or ready else guide


def _without_round(view: TableView) -> TableView:
    """``view`` without its round's cards and results (an earlier game than the table's)."""
    spots = tuple(replace(spot, results=(), highlight="", total_text="") for spot in view.spots)
    return replace(
        view,
        first=tuple(None for _ in view.first),
        own=tuple(None for _ in view.own),
        dealer=tuple(None for _ in view.dealer),
        dealer_face_down=False,
        spots=spots,
        hand_text="",
        dealer_text="",
        lines_text="",
        reasons=(),
        win_banner="",
        won=False,
        win=None,
        icon_count=0,
        icon_count_text="",
        positions=(),
        cards_total=0,
        revealed=0,
    )
