"""The table bar of a seat (decision 0023): the dealer's steps in words, the countdown, seats in,
the lost link; built from the seat runtime's status records (kiosk.terminal.seat.status)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kiosk.terminal.presentation.i18n import LANGUAGES, text
from kiosk.terminal.presentation.table_bar import (
    CountdownWindow,
    LinkWatch,
    TableStep,
    at_table,
    attendant_reason,
    step_of,
    table_bar,
)
from kiosk.terminal.presentation.table_status import TableStatus, table_status
from kiosk.terminal.seat.status import Connection, SeatStatus, TablePhase
from tests.helpers.presentation_table import Table


class _Seat:
    def __init__(self, status: SeatStatus) -> None:
        self.seat_status = status

    def status(self) -> SeatStatus:
        return self.seat_status


def _status(phase: TablePhase, remaining_ms: int = 0, **fields: object) -> TableStatus:
    """The screen's record of a seated terminal, ``remaining_ms`` left on the countdown."""
    seat = SeatStatus(
        "T1",
        3,
        Connection.SEATED,
        phase=phase,
        game_number=42,
        deadline_ms=1_000_000 if remaining_ms else 0,
        remaining_ms=remaining_ms,
        received_at_ms=0,
        seats_in=4,
    )
    return table_status(_Seat(replace(seat, **fields)), monotonic_ms=0)  # type: ignore[arg-type]


WORDS = {
    (TablePhase.IDLE, False): "Waiting for the dealer",
    (TablePhase.BETTING, False): "Place your bets",
    (TablePhase.BETS_CLOSED, False): "Dealer is dealing",
    (TablePhase.DECIDING, False): "Make your decision",
    (TablePhase.DEALING, True): "Dealer's hand",
    (TablePhase.DEALING, False): "Dealer is dealing",
    (TablePhase.SETTLED, False): "Round over",
    (TablePhase.VOIDED, False): "Round voided: wagers returned",
}


@pytest.mark.parametrize(("phase", "dealer_hand"), list(WORDS))
def test_every_step_of_a_round_in_words(phase: TablePhase, dealer_hand: bool) -> None:
    timed = phase in (TablePhase.BETTING, TablePhase.DECIDING)
    bar = table_bar(
        _status(phase, 9_000 if timed else 0), "en", dealer_hand=dealer_hand, window_ms=15_000
    )
    assert bar.headline == WORDS[(phase, dealer_hand)]
    assert bar.detail == "T1 · Game 42 · 4 seats in"
    assert (bar.seconds, bar.total_seconds) == ((9, 15) if timed else (None, 1))
    assert bar.bets_open is (phase is TablePhase.BETTING)
    assert not bar.lost and bar.lost_panel is None


def test_the_countdown_rounds_up_and_bets_close_at_zero() -> None:
    """1 ms left shows 1 s (never 0 while bets are taken); at 0 the bar says "Bets closed"
    before the controller's BetsClosed arrives, and no new bet is open."""
    last = table_bar(_status(TablePhase.BETTING, 1), "en", dealer_hand=False)
    assert (last.seconds, last.headline, last.bets_open) == (1, "Place your bets", True)
    out = table_bar(_status(TablePhase.BETTING, 0), "en", dealer_hand=False)
    assert (out.step, out.headline, out.bets_open) == (TableStep.BETS_CLOSED, "Bets closed", False)


def test_a_lost_link_disables_bets_and_says_why_in_both_languages() -> None:
    lost = _status(
        TablePhase.BETTING,
        9_000,
        connection=Connection.LOST,
        reason="the table controller does not answer",
    )
    bar = table_bar(lost, "en", dealer_hand=True)
    assert (bar.step, bar.lost, bar.bets_open, bar.seconds) == (TableStep.LOST, True, False, None)
    assert (bar.headline, bar.detail) == ("Bets disabled", "No link to the table")
    panel = bar.lost_panel
    assert panel is not None and panel.title == "Bets disabled"
    assert panel.detail_text == "For the attendant: the table controller does not answer"
    es = table_bar(lost, "es", dealer_hand=True)
    assert (es.headline, es.detail) == ("Apuestas desactivadas", "Sin enlace con la mesa")
    assert es.lost_panel is not None
    assert es.lost_panel.detail_text.startswith("Para el asistente: ")


def test_a_reconnect_keeps_bets_disabled_a_first_connect_only_says_so() -> None:
    first = table_bar(
        _status(TablePhase.IDLE, connection=Connection.CONNECTING), "en", dealer_hand=False
    )
    assert (first.headline, first.lost, first.lost_panel, first.bets_open) == (
        "Joining the table",
        False,
        None,
        False,
    )
    again = _status(TablePhase.IDLE, connection=Connection.CONNECTING, reason="stream reset")
    bar = table_bar(again, "en", dealer_hand=False)
    assert bar.lost and bar.lost_panel is not None and not bar.bets_open


def test_one_seat_and_no_game_yet() -> None:
    bar = table_bar(_status(TablePhase.IDLE, seats_in=1, game_number=0), "en", dealer_hand=False)
    assert bar.detail == "Table T1 · 1 seat in"
    es = table_bar(_status(TablePhase.IDLE, seats_in=5), "es", dealer_hand=False)
    assert es.detail == "T1 · Partida 42 · 5 jugadores"
    unknown = table_bar(_status(TablePhase.BETTING, 5_000, seats_in=0), "en", dealer_hand=False)
    assert unknown.detail == "T1 · Game 42"  # never "0 seats in" before a count came


def test_every_step_has_words_in_every_language() -> None:
    for language in LANGUAGES:
        for step in TableStep:
            if step is not TableStep.LOST:
                assert text(language, f"table_step_{step.value}")
    assert step_of(_status(TablePhase.VOIDED), dealer_hand=False) is TableStep.VOIDED


def test_the_ring_is_the_window_as_first_seen() -> None:
    window = CountdownWindow()
    assert window.length_ms(_status(TablePhase.BETTING, 15_000)) == 15_000
    assert window.length_ms(_status(TablePhase.BETTING, 4_000)) == 15_000
    deciding = _status(TablePhase.DECIDING, 8_000, deadline_ms=2_000_000)
    assert window.length_ms(deciding) == 8_000  # a new window: a seat that joined late
    assert window.length_ms(_status(TablePhase.SETTLED)) == 0


def test_outside_the_betting_window_no_chip_spot_or_deal(table: Table) -> None:
    table.note(2000)
    view = replace(
        table.session.view(), can_bet=True, can_deal=True, can_clear=True, can_repeat=True
    )
    open_ = at_table(
        view, table_bar(_status(TablePhase.BETTING, 5_000), "en", dealer_hand=False), "en"
    )
    assert (open_.can_bet, open_.can_clear, open_.can_repeat) == (True,) * 3
    assert not open_.can_deal and not open_.deal_button  # no DEAL at a seat (decision 0054)
    assert not open_.can_change_game
    for status in (
        _status(TablePhase.BETS_CLOSED),
        _status(TablePhase.BETTING, 5_000, connection=Connection.LOST),
        _status(TablePhase.BETTING, 0),
    ):
        shut = at_table(view, table_bar(status, "en", dealer_hand=False), "en")
        assert (shut.can_bet, shut.can_deal, shut.can_clear, shut.can_repeat) == (False,) * 4


def test_the_decision_counts_down_the_tables_window(table: Table) -> None:
    """The Play or Fold prompt shows the table's seconds, not the terminal's own timer."""
    from kiosk.tools.tour import STADIUM_CARDS

    table.note(2000)
    s = table.session
    assert s.select_edition("stadium-3cp")
    for position in (0, 4, 8):
        assert s.toggle_position(position)
    assert s.place_chip("ante")
    table.deal(STADIUM_CARDS)
    local = s.view().offer
    assert local is not None  # the terminal keeps no timer of its own (decision 0054)
    bar = table_bar(_status(TablePhase.DECIDING, 6_500), "es", dealer_hand=True, window_ms=10_000)
    offer = at_table(s.view(), bar, "es").offer
    assert offer is not None
    assert (offer.seconds_left, offer.total_seconds) == (7, 10)
    assert offer.default_text.endswith(" 7 s") and offer.default_text.startswith(
        offer.decline_label
    )


def test_the_reconnect_attempts_after_a_loss_keep_bets_disabled_and_the_reason() -> None:
    """The client says "connecting" (no reason) before each new try: the bar stays red with
    the loss's reason until the seat is seated again."""
    watch = LinkWatch()
    first = watch.seen(_status(TablePhase.IDLE, connection=Connection.CONNECTING))
    assert table_bar(first, "en", dealer_hand=False).lost_panel is None  # a first connect
    assert watch.seen(_status(TablePhase.IDLE)).connection == "seated"
    why = "the table controller does not answer (UNAVAILABLE)"
    watch.seen(_status(TablePhase.BETTING, connection=Connection.LOST, reason=why))
    again = watch.seen(_status(TablePhase.BETTING, connection=Connection.CONNECTING))
    bar = table_bar(again, "en", dealer_hand=False)
    assert bar.lost and bar.lost_panel is not None and not bar.bets_open
    assert bar.lost_panel.detail_text.endswith(why)
    watch.seen(_status(TablePhase.IDLE))
    after = watch.seen(_status(TablePhase.IDLE, connection=Connection.CONNECTING))
    assert after.reason == ""  # seated in between: the old loss is forgotten


def test_the_attendant_gets_the_clients_words_and_the_code_not_grpcs_details() -> None:
    long = (
        "the table controller does not answer (UNAVAILABLE: failed to connect to all "
        "addresses; last error: UNKNOWN: ipv4:127.0.0.1:43215: Failed to connect to remote "
        "host: connect: Connection refused (111))"
    )
    assert attendant_reason(long) == "the table controller does not answer (UNAVAILABLE)"
    assert attendant_reason("the table controller ended the stream") == (
        "the table controller ended the stream"
    )
    bar = table_bar(
        _status(TablePhase.IDLE, connection=Connection.LOST, reason=long), "en", dealer_hand=False
    )
    assert bar.lost_panel is not None
    assert bar.lost_panel.detail == "the table controller does not answer (UNAVAILABLE)"


def test_the_attendant_reads_the_seats_own_words_in_the_screens_language() -> None:
    long = "the table controller does not answer (UNAVAILABLE: failed to connect)"
    assert attendant_reason(long, "es") == "el controlador de la mesa no responde (UNAVAILABLE)"
    assert attendant_reason("the table controller ended the stream", "es") == (
        "el controlador de la mesa cerró el enlace"
    )
    assert attendant_reason("the table refused a report: late", "es") == (
        "la mesa rechazó un informe: late"
    )
    assert attendant_reason("a controller's own words", "es") == "a controller's own words"
    bar = table_bar(
        _status(TablePhase.IDLE, connection=Connection.LOST, reason=long), "es", dealer_hand=False
    )
    assert bar.lost_panel is not None
    assert bar.lost_panel.detail_text == (
        "Para el asistente: el controlador de la mesa no responde (UNAVAILABLE)"
    )


def test_a_paused_table_holds_the_countdown_closes_bets_and_says_why() -> None:
    paused = _status(TablePhase.BETTING, 7_400, paused=True, pause_reason="shuffler jam")
    assert paused.remaining_ms == 7_400 and not paused.bets_open
    bar = table_bar(paused, "en", dealer_hand=False, window_ms=15_000)
    assert (bar.step, bar.headline, bar.detail) == (
        TableStep.PAUSED,
        "Table paused",
        "shuffler jam",
    )
    assert (bar.seconds, bar.total_seconds, bar.bets_open, bar.lost) == (8, 15, False, False)
    es = table_bar(paused, "es", dealer_hand=False)
    assert es.headline == "Mesa en pausa"
    long = _status(TablePhase.BETS_CLOSED, paused=True, pause_reason="the supervisor " * 10)
    cut = table_bar(long, "en", dealer_hand=False)
    assert (cut.seconds, len(cut.detail), cut.detail[-1]) == (None, 32, "…")
    silent = table_bar(_status(TablePhase.IDLE, paused=True), "en", dealer_hand=False)
    assert silent.detail == "T1 · Game 42 · 4 seats in"  # no reason given: where the seat is


def test_a_paused_table_holds_a_running_countdown_on_the_seats_clock() -> None:
    seat = SeatStatus(
        "T1", 3, Connection.SEATED, phase=TablePhase.DECIDING, game_number=42,
        deadline_ms=1_000_000, remaining_ms=6_000, received_at_ms=0, paused=True,
    )  # fmt: skip
    later = table_status(_Seat(seat), monotonic_ms=120_000)
    assert (later.remaining_ms, later.deadline_ms, later.paused) == (6_000, 1_000_000, True)
    running = table_status(_Seat(replace(seat, paused=False)), monotonic_ms=4_000)
    assert running.remaining_ms == 2_000


def test_a_laid_pack_is_shown_with_its_place_in_both_languages() -> None:
    array = _status(TablePhase.BETS_CLOSED, pack=2, pack_location="array 4-6")
    bar = table_bar(array, "en", dealer_hand=True)
    assert (bar.step, bar.headline, bar.detail) == (
        TableStep.DEALING,
        "Dealer is dealing",
        "Pack 2: array 4-6",
    )
    assert not bar.bets_open
    es = table_bar(array, "es", dealer_hand=True)
    assert (es.headline, es.detail) == ("El crupier reparte", "Paquete 2: cartas 4-6")
    seat = _status(TablePhase.DEALING, pack=4, pack_location="seat 3 cards 1-3")
    assert table_bar(seat, "es", dealer_hand=False).detail == "Paquete 4: puesto 3, cartas 1-3"
    community = _status(TablePhase.BETS_CLOSED, pack=1, pack_location="community")
    assert table_bar(community, "en", dealer_hand=False).detail == "Pack 1: community cards"
    hand = _status(TablePhase.DEALING, pack=5, pack_location="dealer")
    for language, words in (("en", "Dealer's hand"), ("es", "Mano del crupier")):
        shown = table_bar(hand, language, dealer_hand=False)
        assert (shown.step, shown.headline) == (TableStep.DEALER_HAND, words)


def test_a_pause_in_the_decision_window_holds_the_offers_seconds(table: Table) -> None:
    from kiosk.tools.tour import STADIUM_CARDS

    table.note(2000)
    s = table.session
    assert s.select_edition("stadium-3cp")
    for position in (0, 4, 8):
        assert s.toggle_position(position)
    assert s.place_chip("ante")
    table.deal(STADIUM_CARDS)
    held = _status(TablePhase.DECIDING, 3_200, paused=True, pause_reason="x")
    bar = table_bar(held, "en", dealer_hand=True, window_ms=10_000)
    offer = at_table(s.view(), bar, "en").offer
    assert offer is not None and (offer.seconds_left, offer.total_seconds) == (4, 10)


def test_a_paused_table_does_not_invite_the_player_to_play(table: Table) -> None:
    """Issue 26: while the dealer has paused the table (it refuses wagers and decisions), the
    seat's guide says the table is paused in the bar's words, in both languages, never "Place
    your wagers", "Your chips play when bets close" or the decision's prompt."""
    from kiosk.tools.tour import STADIUM_CARDS

    table.note(2000)
    s = table.session
    assert s.select_edition("stadium-3cp")
    empty = s.view()  # nothing on the felt: "Place your wagers"
    for position in (0, 4, 8):
        assert s.toggle_position(position)
    assert s.place_chip("ante")
    ready = s.view()  # a wager on the felt: "Touch DEAL to play"
    table.deal(STADIUM_CARDS)
    deciding = s.view()  # the Play or Fold prompt
    for language in LANGUAGES:
        paused = text(language, "table_step_paused")
        for view, phase in (
            (empty, TablePhase.BETTING),
            (ready, TablePhase.BETTING),
            (deciding, TablePhase.DECIDING),
        ):
            status = _status(phase, 5_000, paused=True, pause_reason="shuffler jam")
            bar = table_bar(status, language, dealer_hand=True)
            shown = at_table(view, bar, language)
            assert shown.guide_text == paused, (language, phase, shown.guide_text)
            assert not shown.can_bet
        running = at_table(
            empty, table_bar(_status(TablePhase.BETTING, 5_000), "en", dealer_hand=True), "en"
        )
        assert running.guide_text != text("en", "table_step_paused")  # only while paused
