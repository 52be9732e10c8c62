"""The Dealer Terminal's round screen as data: what the dealer reads and may press.

:func:`dealer_view` reads a :class:`~kiosk.table.core.dealer_records.TableSnapshot` (the
controller's round state) and the signed-in role, and nothing else; the Kivy screens (``ui/table``)
only draw it.  Every button's availability is decided here, so a test of the view is a test of what
the dealer can do in each phase.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.kernel.games.registry import load_game
from kiosk.kernel.games.table_phase import IN_ROUND, TablePhase
from kiosk.table.core.dealer_records import (
    PACK_SIZE,
    RecalledSeatLine,
    RecallLine,
    Role,
    SeatLine,
    SeatState,
    TableSnapshot,
)
from kiosk.terminal.presentation.faces import CardFace, face
from kiosk.terminal.presentation.money import dollars

#: the phases a supervisor may void in (a settled round is confirmed, not voided)
VOIDABLE = IN_ROUND - {TablePhase.SETTLED}

#: the phase's title on the Dealer Terminal
PHASE_TITLES: dict[str, str] = {
    TablePhase.IDLE: "READY",
    TablePhase.BETTING: "BETTING",
    TablePhase.BETS_CLOSED: "DEALING",
    TablePhase.DECIDING: "DECISIONS",
    TablePhase.DEALING: "DEALER'S HAND",
    TablePhase.SETTLED: "SETTLED",
}

#: seat state -> (words, colour name: "green", "gold", "grey", "red", "blue")
SEAT_WORDS: dict[SeatState, tuple[str, str]] = {
    SeatState.WATCHING: ("Watching", "grey"),
    SeatState.BETTING: ("Betting", "gold"),
    SeatState.BET: ("Bet in", "green"),
    SeatState.DECIDING: ("Deciding", "gold"),
    SeatState.DECIDED: ("Decided", "green"),
    SeatState.TIMED_OUT: ("Timed out", "red"),
    SeatState.SETTLED: ("Settled", "blue"),
    SeatState.VOIDED: ("Returned", "blue"),
}

SOURCE_WORDS = {
    "virtual": "Virtual deck",
    "shuffler": "Card-reading shuffler",
    "manual": "Cards entered by hand",
}


@dataclass(frozen=True)
class SeatView:
    """One seat's line on the dealer's screen."""

    seat: int
    label: str  # "Seat 3"
    state_text: str  # "Decided: PLAY"
    colour: str
    stake_text: str  # "$15.00" or ""


@dataclass(frozen=True)
class PlaceView:
    """A place on the layout with its cards (None: a card still to come)."""

    title: str  # "Array 1-3", "Dealer's hand"
    cards: tuple[CardFace | None, ...]
    waiting: bool  # the next pack goes here


@dataclass(frozen=True)
class DealerButtons:
    """Which of the dealer's buttons can be pressed now."""

    new_game: bool
    close_bets: bool
    confirm: bool
    pause: bool
    resume: bool
    void: bool
    lay_pack: bool  # the source presented the next pack: the dealer lays it and says so
    enter_cards: bool  # manual cards: the next pack is the dealer's to enter
    reread: bool  # a tilt the supervisor may answer by reading the cards again


@dataclass(frozen=True)
class DealerView:
    """Everything the Dealer Terminal's round screen shows."""

    heading: str  # "Table T1 · Stadium Three Card Poker"
    game_text: str  # "Game 12"
    source_text: str
    role_text: str  # "Dealer signed in" / "Supervisor signed in"
    phase: str
    phase_title: str
    instruction: str  # what the dealer does now
    seconds_left: int | None  # the running countdown (None: none runs)
    total_seconds: int
    bets_text: str  # "3 of 5 seats have bet"
    seats: tuple[SeatView, ...]
    places: tuple[PlaceView, ...]
    buttons: DealerButtons
    paused: bool
    tilt_title: str  # "" when no tilt
    tilt_text: str
    step_text: str  # "Pack 2 of 4: array 4-6" or ""
    presented: tuple[CardFace, ...]  # the cards the source presented for the next pack
    deck_text: str  # the shuffler's deck check
    progressive_text: str = ""  # the table's progressive meter ("" : none)


def location_title(location: str) -> str:
    """A pack's location in the dealer's words: ``"dealer"`` -> ``"Dealer's hand"``."""
    if location == "dealer":
        return "Dealer's hand"
    if location == "community":
        return "Community cards"
    return location[:1].upper() + location[1:]


def edition_title(edition: str) -> str:
    """The edition's name as printed on its felt (the id when it is unknown)."""
    try:
        return str(load_game(edition).title)
    except (ValueError, KeyError, OSError):
        return edition


def layout_places(snapshot: TableSnapshot) -> tuple[PlaceView, ...]:
    """The layout's places with the cards known on them, named as the controller's pack plan
    names them: an array's locations ("array 1-3", ...) or the community cards, then the
    dealer's hand."""
    try:
        game = load_game(snapshot.edition)
    except (ValueError, KeyError, OSError):
        return ()
    step = snapshot.next_step if snapshot.tilt is None else None
    waiting = step.location if step is not None else ""
    laid: dict[str, tuple[int, ...]] = {}
    for pack in snapshot.packs:  # physical cards: what each pack put where
        laid[pack.location] = laid.get(pack.location, ()) + pack.cards
    places: list[tuple[str, tuple[int, ...], int]] = []
    if game.first_deal > PACK_SIZE:  # the controller's pack plan: an array in packs of three
        for start in range(0, game.first_deal, PACK_SIZE):
            title = f"array {start + 1}-{start + PACK_SIZE}"
            places.append((title, snapshot.first_cards[start : start + PACK_SIZE], PACK_SIZE))
    else:
        places.append(("community", snapshot.first_cards, game.first_deal))
    if game.second_deal_shared:
        places.append(("dealer", snapshot.shared_cards, game.second_deal_shared))
    places = [(name, laid.get(name, known) or known, count) for name, known, count in places]
    if step is not None and step.presented and not snapshot.paused:
        # the pack the source presented, shown where it goes: the dealer lays these cards there
        places = [
            (name, cards or (step.cards if name == waiting else ()), count)
            for name, cards, count in places
        ]
    return tuple(
        PlaceView(
            location_title(name),
            tuple(face(x) for x in cards) + (None,) * max(0, count - len(cards)),
            name == waiting,
        )
        for name, cards, count in places
    )


def countdown(snapshot: TableSnapshot) -> tuple[int | None, int]:
    """Whole seconds left on the running window (rounded up; None: none runs) and its full
    length in seconds.  Paused, the time it had left when the table paused."""
    if snapshot.phase == TablePhase.BETTING:
        deadline, window = snapshot.betting_deadline_ms, snapshot.betting_ms
    elif snapshot.phase == TablePhase.DECIDING:
        deadline, window = snapshot.decision_deadline_ms, snapshot.decision_ms
    else:
        return None, 1
    left = snapshot.paused_left_ms if snapshot.paused else deadline - snapshot.now_ms
    return -(-max(0, left) // 1000), max(1, -(-window // 1000))


def seat_view(line: SeatLine) -> SeatView:
    """One seat's words (short enough for its line) and colour."""
    words, colour = SEAT_WORDS[line.state]
    if line.choice and line.state in (SeatState.DECIDED, SeatState.TIMED_OUT):
        words = f"{words}: {line.choice.upper()}"
    if line.state is SeatState.SETTLED:
        words = f"Paid {dollars(line.paid)}" if line.paid else "Lost"
    if line.state is SeatState.VOIDED:
        words = f"Returned {dollars(line.returned)}"
    if not line.online:
        words, colour = "Offline", "red"
    return SeatView(
        line.seat, f"Seat {line.seat}", words, colour, dollars(line.stake) if line.stake else ""
    )


def bets_text(snapshot: TableSnapshot) -> str:
    """``"3 of 5 seats have bet"``; idle: how many seats are online."""
    if not snapshot.seats:
        return "No seat at the table"
    online = sum(1 for s in snapshot.seats if s.online)
    if snapshot.phase == TablePhase.IDLE:
        return f"{online} of {len(snapshot.seats)} seats online"
    bet = sum(1 for s in snapshot.seats if s.stake)
    counted = sum(1 for s in snapshot.seats if s.online or s.stake)
    return f"{bet} of {counted} {'seat has' if counted == 1 else 'seats have'} bet"


def every_pack_laid(snapshot: TableSnapshot) -> bool:
    """Physical cards: the last pack is laid and the controller waits for Confirm (which
    settles the round)."""
    return (
        snapshot.phase == TablePhase.DEALING
        and snapshot.card_source != "virtual"
        and snapshot.next_step is None
        and snapshot.tilt is None
        and bool(snapshot.packs)
    )


def instruction(snapshot: TableSnapshot) -> str:
    """What the dealer does now, in the dealer's words."""
    if snapshot.tilt is not None:
        return "Stop dealing. Call the supervisor: re-read the pack, or void the round."
    if snapshot.paused:
        why = f" ({snapshot.pause_reason})" if snapshot.pause_reason else ""
        return f"The table is paused{why}. Press Resume to go on."
    phase = snapshot.phase
    step = snapshot.next_step
    if every_pack_laid(snapshot):
        return "Every pack is laid: check the layout against the screen, then press Confirm."
    if step is not None and phase in (TablePhase.BETS_CLOSED, TablePhase.DEALING):
        where = location_title(step.location)
        if snapshot.card_source == "manual":
            return f"Enter pack {step.pack}'s cards for {where}, bottom card first."
        if not step.presented:
            return f"Waiting for the shuffler to present pack {step.pack}."
        return f"Lay pack {step.pack} on {where}, bottom card first, then press Pack laid."
    if phase == TablePhase.IDLE:
        if snapshot.voided:
            return f"The last round was voided ({snapshot.voided}). Press New Game."
        return "Press New Game to open the bets."
    if phase == TablePhase.BETTING:
        return "Seats are betting. Close bets early, or wait for the countdown."
    if phase == TablePhase.DECIDING:
        return "Seats are deciding. The window closes by itself."
    if phase == TablePhase.SETTLED:
        if snapshot.card_source == "virtual":  # nothing is laid on a virtual deck's table
            return "The round is settled: press Confirm to close it."
        return "Check the layout against the screen, then press Confirm."
    return "The cards are being dealt."


def dealer_view(snapshot: TableSnapshot, role: Role) -> DealerView:
    """The round screen for ``snapshot`` as ``role`` sees it."""
    phase = snapshot.phase
    left, total = countdown(snapshot)
    tilted = snapshot.tilt is not None
    supervisor = role is Role.SUPERVISOR
    running = not snapshot.paused and not tilted
    step = (
        snapshot.next_step
        if phase in (TablePhase.BETS_CLOSED, TablePhase.DEALING) and running
        else None
    )
    manual = snapshot.card_source == "manual"
    buttons = DealerButtons(
        new_game=running and phase == TablePhase.IDLE and not snapshot.auto_deal,
        close_bets=running and phase == TablePhase.BETTING,
        confirm=running and (phase == TablePhase.SETTLED or every_pack_laid(snapshot)),
        pause=not snapshot.paused and not tilted,
        resume=snapshot.paused,
        void=supervisor and phase in VOIDABLE,
        lay_pack=step is not None and not manual and step.presented,
        enter_cards=step is not None and manual,
        reread=supervisor and tilted,
    )
    step_text = ""
    if snapshot.next_step is not None and phase in (TablePhase.BETS_CLOSED, TablePhase.DEALING):
        s = snapshot.next_step
        step_text = f"Pack {s.pack} of {s.packs_in_round}: {location_title(s.location)}"
    presented: tuple[CardFace, ...] = ()
    if step is not None and step.presented:
        presented = tuple(face(x) for x in step.cards)
    return DealerView(
        heading=f"Table {snapshot.table_id} · {edition_title(snapshot.edition)}",
        game_text=f"Game {snapshot.game_number}" if snapshot.game_number else "No game yet",
        source_text=SOURCE_WORDS.get(snapshot.card_source, snapshot.card_source),
        role_text=f"{role.value.capitalize()} signed in",
        phase=phase,
        phase_title="STOPPED"
        if tilted
        else "PAUSED"
        if snapshot.paused
        else "CONFIRM"
        if every_pack_laid(snapshot)
        else PHASE_TITLES.get(phase, phase.upper()),
        instruction="Re-read the pack, or void the round."
        if tilted and supervisor
        else instruction(snapshot),
        seconds_left=left,
        total_seconds=total,
        bets_text=bets_text(snapshot),
        seats=tuple(seat_view(s) for s in snapshot.seats),
        places=layout_places(snapshot),
        buttons=buttons,
        paused=snapshot.paused,
        tilt_title="CARD CHECK FAILED" if tilted else "",
        tilt_text=snapshot.tilt.reason if snapshot.tilt is not None else "",
        step_text=step_text,
        presented=presented,
        deck_text=snapshot.deck_check,
        progressive_text=snapshot.progressive,
    )


#: the reasons the dealer gives for a pause (each shown on the seats: 32 characters at most)
PAUSE_REASONS = ("Dealer change", "Break", "Table check", "Supervisor called")

#: the suit keys of manual entry: (symbol, word, colour name), in the order of kiosk.kernel.cards
SUIT_KEYS = (
    ("♠", "Spades", "black"),
    ("♥", "Hearts", "red"),
    ("♦", "Diamonds", "red"),
    ("♣", "Clubs", "black"),
)


@dataclass(frozen=True)
class RecallPlace:
    """A place of a recalled round's layout and its cards."""

    title: str  # "Array", "Dealer's hand"
    cards: tuple[CardFace, ...]


@dataclass(frozen=True)
class RecallView:
    """One finished round on the recall page."""

    title: str  # "Game 12"
    summary: str  # "4 seats · wagered $40.00 · paid $35.00" or "VOIDED: misdeal"
    cards: tuple[CardFace, ...]
    voided: bool
    places: tuple[RecallPlace, ...] = ()  # the array (or community cards), the dealer's hand
    seat_lines: tuple[str, ...] = ()  # "Seat 2 · PLAY · Ante $5.00 won $10.00 · ..."


def _spot_names(edition: str) -> dict[str, str]:
    try:
        return {spot.id: spot.label for spot in load_game(edition).spots}
    except (ValueError, KeyError, OSError):
        return {}


def recall_seat_text(seat: RecalledSeatLine, names: dict[str, str]) -> str:
    """One seat of a recalled round: its choice, each wager with its result, what it got."""
    parts = [f"Seat {seat.seat}"]
    if seat.choice:
        parts.append(seat.choice.upper())
    for w in seat.wagers:
        name = names.get(w.spot, w.spot.replace("_", " ").capitalize())
        if seat.returned and not seat.paid:
            result = "returned"
        elif w.paid > w.stake:
            result = f"won {dollars(w.paid)}"
        elif w.paid == w.stake and w.paid:
            result = "push"
        elif w.paid:
            result = f"{dollars(w.paid)} back"
        else:
            result = "lost"
        parts.append(f"{name} {dollars(w.stake)} {result}")
    if not seat.wagers:  # a recall that names no wager: the seat's totals
        parts.append(
            f"staked {dollars(seat.stake)} · paid {dollars(seat.paid)}"
            if seat.stake
            else "no wager"
        )
    return " · ".join(parts)


def recall_places(line: RecallLine) -> tuple[RecallPlace, ...]:
    """The round's cards split as they lay: the array (or the community cards), then the
    dealer's hand."""
    first, shared = line.first_cards, line.shared_cards
    if not first and not shared:
        return (RecallPlace("Cards", tuple(face(x) for x in line.cards)),) if line.cards else ()
    places = []
    if first:
        places.append(
            RecallPlace(
                "Array" if len(first) > PACK_SIZE else "Community cards",
                tuple(face(x) for x in first),
            )
        )
    if shared:
        places.append(RecallPlace(location_title("dealer"), tuple(face(x) for x in shared)))
    return tuple(places)


def recall_view(line: RecallLine, edition: str = "") -> RecallView:
    """One recall line in the dealer's words."""
    seats = f"{line.seats} seat" + ("" if line.seats == 1 else "s")
    if line.voided:
        summary = f"VOIDED: {line.voided} · {seats} · returned {dollars(line.returned)}"
    else:
        summary = f"{seats} · wagered {dollars(line.wagered)} · paid {dollars(line.paid)}"
    if line.deck_check:
        summary += f" · deck check {line.deck_check}"
    names = _spot_names(edition) if edition else {}
    return RecallView(
        f"Game {line.game_number}",
        summary,
        tuple(face(x) for x in line.cards),
        bool(line.voided),
        recall_places(line),
        tuple(recall_seat_text(seat, names) for seat in line.seat_lines),
    )


def recall_views(snapshot: TableSnapshot, last: int = 5) -> tuple[RecallView, ...]:
    """The last ``last`` rounds, newest first."""
    lines = sorted(snapshot.recall, key=lambda r: r.game_number, reverse=True)[:last]
    return tuple(recall_view(line, snapshot.edition) for line in lines)
