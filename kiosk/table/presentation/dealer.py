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
from kiosk.table.presentation.dealer_refusals import stop_words
from kiosk.table.presentation.dealer_words import (
    choice_words,
    location_title,
    pause_reason_words,
    spot_words,
    void_reason_words,
)
from kiosk.table.presentation.i18n_dealer import text
from kiosk.terminal.presentation.faces import CardFace, face
from kiosk.terminal.presentation.money import dollars

#: the phases a supervisor may void in (a settled round is confirmed, not voided)
VOIDABLE = IN_ROUND - {TablePhase.SETTLED}

#: the phase's title on the Dealer Terminal (a catalogue key)
PHASE_TITLES: dict[str, str] = {
    TablePhase.IDLE: "phase_idle",
    TablePhase.BETTING: "phase_betting",
    TablePhase.BETS_CLOSED: "phase_bets_closed",
    TablePhase.DECIDING: "phase_deciding",
    TablePhase.DEALING: "phase_dealing",
    TablePhase.SETTLED: "phase_settled",
}

#: seat state -> (catalogue key of its words, colour name: "green", "gold", "grey", "red", "blue")
SEAT_WORDS: dict[SeatState, tuple[str, str]] = {
    SeatState.WATCHING: ("seat_watching", "grey"),
    SeatState.BETTING: ("seat_betting", "gold"),
    SeatState.BET: ("seat_bet", "green"),
    SeatState.DECIDING: ("seat_deciding", "gold"),
    SeatState.DECIDED: ("seat_decided", "green"),
    SeatState.TIMED_OUT: ("seat_timed_out", "red"),
    SeatState.SETTLED: ("seat_settled", "blue"),
    SeatState.VOIDED: ("seat_voided", "blue"),
}

#: the card sources with words in the catalogue ("source_<name>")
SOURCES = ("virtual", "shuffler", "manual")


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
    supervisor: bool = False  # the supervisor is signed in (void, re-read)


def edition_title(edition: str) -> str:
    """The edition's name as printed on its felt (the id when it is unknown)."""
    try:
        return str(load_game(edition).title)
    except (ValueError, KeyError, OSError):
        return edition


def layout_places(snapshot: TableSnapshot, lang: str = "en") -> tuple[PlaceView, ...]:
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
            location_title(name, lang),
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


def seat_view(line: SeatLine, lang: str = "en") -> SeatView:
    """One seat's words (short enough for its line) and colour."""
    key, colour = SEAT_WORDS[line.state]
    words = text(lang, key)
    if line.choice and line.state in (SeatState.DECIDED, SeatState.TIMED_OUT):
        words = text(lang, "seat_choice", words=words, choice=choice_words(line.choice, lang))
    if line.state is SeatState.SETTLED:
        words = (
            text(lang, "seat_paid", amount=dollars(line.paid))
            if line.paid
            else text(lang, "seat_lost")
        )
    if line.state is SeatState.VOIDED:
        words = text(lang, "seat_returned", amount=dollars(line.returned))
    if not line.online:
        words, colour = text(lang, "seat_offline"), "red"
    return SeatView(
        line.seat,
        text(lang, "seat", seat=line.seat),
        words,
        colour,
        dollars(line.stake) if line.stake else "",
    )


def bets_text(snapshot: TableSnapshot, lang: str = "en") -> str:
    """``"3 of 5 seats have bet"``; idle: how many seats are online."""
    if not snapshot.seats:
        return text(lang, "bets_no_seat")
    online = sum(1 for s in snapshot.seats if s.online)
    if snapshot.phase == TablePhase.IDLE:
        return text(lang, "bets_online", online=online, seats=len(snapshot.seats))
    bet = sum(1 for s in snapshot.seats if s.stake)
    counted = sum(1 for s in snapshot.seats if s.online or s.stake)
    return text(lang, "bets_one" if counted == 1 else "bets_many", bet=bet, seats=counted)


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


def instruction(snapshot: TableSnapshot, lang: str = "en") -> str:
    """What the dealer does now, in the dealer's words."""
    if snapshot.tilt is not None:
        return text(lang, "do_tilt")
    if snapshot.paused:
        if snapshot.pause_reason:
            return text(
                lang, "do_paused_why", reason=pause_reason_words(snapshot.pause_reason, lang)
            )
        return text(lang, "do_paused")
    phase = snapshot.phase
    step = snapshot.next_step
    if every_pack_laid(snapshot):
        return text(lang, "do_all_laid")
    if step is not None and phase in (TablePhase.BETS_CLOSED, TablePhase.DEALING):
        where = location_title(step.location, lang)
        if snapshot.card_source == "manual":
            return text(lang, "do_enter", pack=step.pack, place=where)
        if not step.presented:
            return text(lang, "do_wait_shuffler", pack=step.pack)
        return text(lang, "do_lay", pack=step.pack, place=where)
    if phase == TablePhase.IDLE:
        if snapshot.voided:
            return text(lang, "do_voided", reason=void_reason_words(snapshot.voided, lang))
        return text(lang, "do_new_game")
    if phase == TablePhase.BETTING:
        return text(lang, "do_betting")
    if phase == TablePhase.DECIDING:
        return text(lang, "do_deciding")
    if phase == TablePhase.SETTLED:
        if snapshot.card_source == "virtual":  # nothing is laid on a virtual deck's table
            return text(lang, "do_confirm_virtual")
        return text(lang, "do_confirm")
    return text(lang, "do_dealt")


def dealer_view(snapshot: TableSnapshot, role: Role, lang: str = "en") -> DealerView:
    """The round screen for ``snapshot`` as ``role`` sees it, in ``lang``."""
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
        step_text = text(
            lang,
            "step",
            pack=s.pack,
            packs=s.packs_in_round,
            place=location_title(s.location, lang),
        )
    presented: tuple[CardFace, ...] = ()
    if step is not None and step.presented:
        presented = tuple(face(x) for x in step.cards)
    return DealerView(
        heading=text(
            lang, "heading", table=snapshot.table_id, game=edition_title(snapshot.edition)
        ),
        game_text=text(lang, "game", game=snapshot.game_number)
        if snapshot.game_number
        else text(lang, "no_game"),
        source_text=text(lang, f"source_{snapshot.card_source}")
        if snapshot.card_source in SOURCES
        else snapshot.card_source,
        role_text=text(lang, f"signed_in_{role.value}"),
        phase=phase,
        phase_title=text(lang, "phase_stopped")
        if tilted
        else text(lang, "phase_paused")
        if snapshot.paused
        else text(lang, "phase_confirm")
        if every_pack_laid(snapshot)
        else text(lang, PHASE_TITLES[phase])
        if phase in PHASE_TITLES
        else phase.upper(),
        instruction=text(lang, "do_tilt_supervisor")
        if tilted and supervisor
        else instruction(snapshot, lang),
        seconds_left=left,
        total_seconds=total,
        bets_text=bets_text(snapshot, lang),
        seats=tuple(seat_view(s, lang) for s in snapshot.seats),
        places=layout_places(snapshot, lang),
        buttons=buttons,
        paused=snapshot.paused,
        tilt_title=text(lang, "tilt_title") if tilted else "",
        tilt_text=stop_words(snapshot.tilt.reason, lang) if snapshot.tilt is not None else "",
        step_text=step_text,
        presented=presented,
        deck_text=snapshot.deck_check,
        progressive_text=snapshot.progressive,
        supervisor=supervisor,
    )


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


def recall_seat_text(seat: RecalledSeatLine, names: dict[str, str], lang: str = "en") -> str:
    """One seat of a recalled round: its choice, each wager with its result, what it got."""
    parts = [text(lang, "seat", seat=seat.seat)]
    if seat.choice:
        parts.append(choice_words(seat.choice, lang))
    for w in seat.wagers:
        name = spot_words(names.get(w.spot, w.spot.replace("_", " ").capitalize()), lang)
        if seat.returned and not seat.paid:
            result = text(lang, "result_returned")
        elif w.paid > w.stake:
            result = text(lang, "result_won", amount=dollars(w.paid))
        elif w.paid == w.stake and w.paid:
            result = text(lang, "result_push")
        elif w.paid:
            result = text(lang, "result_back", amount=dollars(w.paid))
        else:
            result = text(lang, "result_lost")
        parts.append(f"{name} {dollars(w.stake)} {result}")
    if not seat.wagers:  # a recall that names no wager: the seat's totals
        parts.append(
            text(lang, "recall_staked", stake=dollars(seat.stake), paid=dollars(seat.paid))
            if seat.stake
            else text(lang, "recall_no_wager")
        )
    return " · ".join(parts)


def recall_places(line: RecallLine, lang: str = "en") -> tuple[RecallPlace, ...]:
    """The round's cards split as they lay: the array (or the community cards), then the
    dealer's hand."""
    first, shared = line.first_cards, line.shared_cards
    if not first and not shared:
        return (
            (RecallPlace(text(lang, "recall_cards"), tuple(face(x) for x in line.cards)),)
            if line.cards
            else ()
        )
    places = []
    if first:
        places.append(
            RecallPlace(
                text(lang, "recall_array")
                if len(first) > PACK_SIZE
                else text(lang, "place_community"),
                tuple(face(x) for x in first),
            )
        )
    if shared:
        places.append(RecallPlace(location_title("dealer", lang), tuple(face(x) for x in shared)))
    return tuple(places)


def recall_view(line: RecallLine, edition: str = "", lang: str = "en") -> RecallView:
    """One recall line in the dealer's words."""
    seats = text(lang, "recall_seats_one" if line.seats == 1 else "recall_seats", n=line.seats)
    if line.voided:
        summary = text(
            lang,
            "recall_voided",
            reason=void_reason_words(line.voided, lang),
            seats=seats,
            amount=dollars(line.returned),
        )
    else:
        summary = text(
            lang,
            "recall_summary",
            seats=seats,
            wagered=dollars(line.wagered),
            paid=dollars(line.paid),
        )
    if line.deck_check:
        summary = text(lang, "recall_deck", summary=summary, check=line.deck_check)
    names = _spot_names(edition) if edition else {}
    return RecallView(
        text(lang, "game", game=line.game_number),
        summary,
        tuple(face(x) for x in line.cards),
        bool(line.voided),
        recall_places(line, lang),
        tuple(recall_seat_text(seat, names, lang) for seat in line.seat_lines),
    )


def recall_views(
    snapshot: TableSnapshot, last: int = 5, lang: str = "en"
) -> tuple[RecallView, ...]:
    """The last ``last`` rounds, newest first."""
    lines = sorted(snapshot.recall, key=lambda r: r.game_number, reverse=True)[:last]
    return tuple(recall_view(line, snapshot.edition, lang) for line in lines)
