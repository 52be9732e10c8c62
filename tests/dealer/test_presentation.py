"""The Dealer Terminal's screens as data (no Kivy): what each phase shows and allows."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kiosk.kernel.cards import card, cards
from kiosk.table.core.dealer_records import (
    DealStep,
    RecallLine,
    Role,
    SeatLine,
    SeatState,
    TableSnapshot,
    Tilt,
)
from kiosk.table.presentation.dealer import dealer_view, recall_views
from kiosk.table.presentation.dealer_entry import PackEntry

NOW = 1_000_000


def table(**fields: object) -> TableSnapshot:
    base = TableSnapshot(
        table_id="T1",
        edition="stadium-3cp",
        card_source="virtual",
        phase="idle",
        game_number=7,
        now_ms=NOW,
        seats=(
            SeatLine(0, SeatState.WATCHING),
            SeatLine(1, SeatState.WATCHING),
            SeatLine(2, SeatState.WATCHING, online=False),
        ),
    )
    return replace(base, **fields)  # type: ignore[arg-type]


def test_idle_offers_new_game_only_to_a_running_table() -> None:
    view = dealer_view(table(), Role.DEALER)
    b = view.buttons
    assert (b.new_game, b.close_bets, b.confirm, b.void, b.lay_pack) == (
        True,
        False,
        False,
        False,
        False,
    )
    assert view.phase_title == "READY"
    assert view.bets_text == "2 of 3 seats online"
    assert view.seconds_left is None
    assert not dealer_view(table(paused=True), Role.DEALER).buttons.new_game
    assert not dealer_view(table(auto_deal=True), Role.DEALER).buttons.new_game


def test_betting_counts_down_and_counts_the_seats_that_bet() -> None:
    seats = (
        SeatLine(0, SeatState.BET, stake=1000),
        SeatLine(1, SeatState.BETTING),
        SeatLine(2, SeatState.BETTING, online=False),
    )
    snap = table(phase="betting", betting_deadline_ms=NOW + 8_200, betting_ms=15_000, seats=seats)
    view = dealer_view(snap, Role.DEALER)
    assert view.seconds_left == 9 and view.total_seconds == 15
    assert view.bets_text == "1 of 2 seats have bet"  # the offline seat without a bet not counted
    assert view.buttons.close_bets and not view.buttons.new_game
    assert [s.state_text for s in view.seats] == ["Bet in", "Betting", "Offline"]
    assert view.seats[0].stake_text == "$10.00"
    # paused: the time it had left, not the deadline's
    paused = dealer_view(replace(snap, paused=True, paused_left_ms=4_000), Role.DEALER)
    assert paused.seconds_left == 4 and paused.phase_title == "PAUSED"
    assert paused.buttons.resume and not paused.buttons.pause and not paused.buttons.close_bets


def test_decisions_show_each_seats_state() -> None:
    seats = (
        SeatLine(0, SeatState.DECIDED, stake=1500, choice="play"),
        SeatLine(1, SeatState.DECIDING, stake=500),
        SeatLine(2, SeatState.TIMED_OUT, stake=500, choice="fold"),
        SeatLine(3, SeatState.DECIDING, online=False, stake=500),
    )
    view = dealer_view(
        table(phase="deciding", decision_deadline_ms=NOW + 1, seats=seats), Role.DEALER
    )
    assert [s.state_text for s in view.seats] == [
        "Decided: PLAY",
        "Deciding",
        "Timed out: FOLD",
        "Offline",
    ]
    assert [s.colour for s in view.seats] == ["green", "gold", "red", "red"]
    assert view.seconds_left == 1


def test_deal_steps_by_card_source() -> None:
    first = cards("Qh 9s 4d")
    step = DealStep(2, 4, "array 4-6", presented=True, cards=cards("Ks Kd 7c"))
    snap = table(phase="bets_closed", next_step=step, first_cards=first)
    view = dealer_view(snap, Role.DEALER)
    assert view.step_text == "Pack 2 of 4: Array 4-6"
    assert view.buttons.lay_pack and not view.buttons.enter_cards
    assert [p.title for p in view.places] == [
        "Array 1-3",
        "Array 4-6",
        "Array 7-9",
        "Dealer's hand",
    ]
    assert [p.waiting for p in view.places] == [False, True, False, False]
    assert [c.name if c else None for c in view.places[0].cards] == ["Qh", "9s", "4d"]
    assert [c.name if c else None for c in view.places[1].cards] == ["Ks", "Kd", "7c"]
    assert [c.name for c in view.presented] == ["Ks", "Kd", "7c"]
    assert view.places[2].cards == (None, None, None)
    waiting = dealer_view(
        replace(snap, card_source="shuffler", next_step=replace(step, presented=False)),
        Role.DEALER,
    )
    assert not waiting.buttons.lay_pack
    assert "Waiting for the shuffler" in waiting.instruction
    manual = dealer_view(
        replace(snap, card_source="manual", next_step=replace(step, presented=False)),
        Role.DEALER,
    )
    assert manual.buttons.enter_cards and not manual.buttons.lay_pack


def test_a_tilt_stops_the_dealer_and_offers_the_supervisor_reread_or_void() -> None:
    snap = table(phase="bets_closed", tilt=Tilt("card Qh twice in the round", pack=2))
    dealer = dealer_view(snap, Role.DEALER)
    assert dealer.tilt_title == "CARD CHECK FAILED" and dealer.phase_title == "STOPPED"
    assert not (dealer.buttons.reread or dealer.buttons.void or dealer.buttons.lay_pack)
    assert dealer.instruction.startswith("Stop dealing. Call the supervisor")
    supervisor = dealer_view(snap, Role.SUPERVISOR)
    assert supervisor.buttons.reread and supervisor.buttons.void
    assert supervisor.instruction == "Re-read the pack, or void the round."


def test_only_a_supervisor_voids_and_never_a_settled_round() -> None:
    for phase in ("betting", "bets_closed", "deciding", "dealing"):
        assert dealer_view(table(phase=phase), Role.SUPERVISOR).buttons.void
        assert not dealer_view(table(phase=phase), Role.DEALER).buttons.void
    settled = dealer_view(table(phase="settled"), Role.SUPERVISOR)
    assert not settled.buttons.void and settled.buttons.confirm


def test_recall_newest_first_with_voids() -> None:
    snap = table(
        recall=(
            RecallLine(5, cards("As Kd 2c"), 2, 3000, 4500),
            RecallLine(6, (), 1, 1000, 0, voided="Misdeal", returned=1000),
        )
    )
    views = recall_views(snap)
    assert [v.title for v in views] == ["Game 6", "Game 5"]
    assert views[0].voided and views[0].summary.startswith("VOIDED: Misdeal")
    assert views[1].summary == "2 seats · wagered $30.00 · paid $45.00"


def test_manual_pack_refuses_a_card_on_the_layout_or_twice() -> None:
    entry = PackEntry(2, "array 4-6", 3, frozenset(cards("Qh 9s 4d")))
    entry = entry.press_rank(10).press_suit(1)  # Q of hearts: on the layout
    assert entry.refused and entry.cards == () and "Queen of hearts" in entry.prompt()
    entry = entry.press_suit(0).press_rank(11)  # K of spades, suit first
    assert entry.cards == (card("Ks"),) and not entry.refused
    entry = entry.press_rank(11).press_suit(0)
    assert entry.refused and entry.prompt() == "King of spades is already in this pack"
    entry = entry.press_rank(11).press_suit(2).press_rank(5).press_suit(3)
    assert entry.ready and entry.cards == cards("Ks Kd 7c")
    full = entry.press_rank(0).press_suit(0)
    assert full.refused and full.cards == entry.cards
    assert entry.undo().cards == cards("Ks Kd")


@pytest.mark.parametrize("edition", ["turbo-football"])
def test_turbo_layout_is_the_community_cards(edition: str) -> None:
    view = dealer_view(table(edition=edition, first_cards=cards("2s 3s")), Role.DEALER)
    assert [p.title for p in view.places] == ["Community cards"]
    assert len(view.places[0].cards) == 3


def test_physical_cards_confirm_once_every_pack_is_laid() -> None:
    from kiosk.table.core.dealer_records import LaidPack

    packs = (
        LaidPack(1, "array 1-3", cards("Qh 9s 4d")),
        LaidPack(4, "dealer", cards("Jc 8c 5d")),
    )
    snap = table(
        phase="dealing", card_source="shuffler", packs=packs, first_cards=cards("Qh 9s 4d")
    )
    view = dealer_view(snap, Role.DEALER)
    assert view.buttons.confirm and view.phase_title == "CONFIRM"
    assert [c.name if c else None for c in view.places[3].cards] == ["Jc", "8c", "5d"]
    step = DealStep(4, 4, "dealer", presented=True, cards=cards("Jc 8c 5d"))
    assert not dealer_view(replace(snap, next_step=step), Role.DEALER).buttons.confirm
    assert not dealer_view(replace(snap, card_source="virtual"), Role.DEALER).buttons.confirm


def test_pause_and_void_reasons_are_codes_shown_in_each_language() -> None:
    """Decision 0064: what is journalled is a code; each screen says it in its language; a
    journal of before the codes (English words) reads the same; a dealer's own words as given."""
    from kiosk.table.presentation.dealer_words import pause_reason_words, void_reason_words
    from kiosk.terminal.presentation.table_bar import pause_words

    assert pause_reason_words("pause:break", "es") == "Descanso"
    assert pause_reason_words("pause:break", "en") == "Break"
    assert pause_reason_words("Break", "es") == "Descanso"  # an older journal's words
    assert pause_reason_words("cards changed", "es") == "cards changed"
    assert void_reason_words("void:misdeal", "es") == "Reparto erróneo"
    assert void_reason_words("Table fault", "es") == "Avería de la mesa"
    assert pause_words("pause:supervisor", "es") == "Supervisor avisado"
    assert pause_words("pause:supervisor", "en") == "Supervisor called"
