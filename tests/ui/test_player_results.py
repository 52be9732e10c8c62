"""Issue 26, the player's game: what the table shows between rounds and after one, driven by
touches on the real app (items 1, 4 and 7)."""

from __future__ import annotations

from typing import Any

from kiosk.tools.tour import STADIUM_CARDS, TURBO_CARDS


def _stadium(k: Any, wagers: tuple[str, ...], choice: str = "take") -> None:
    """A $100 note, Stadium, positions 0, 4, 8 (a pair of Queens and a Seven), ``wagers`` (chip
    and spot names, in order), dealt against King high; ``choice`` is the decision's button."""
    d = k.driver
    k.device("note", 10000)
    d.wait(lambda: d.screen == "menu")
    k.tap("game:stadium-3cp", "position:0", "position:4", "position:8", *wagers)
    k.deal_next(STADIUM_CARDS)
    k.tap("deal")
    d.wait(lambda: k.app.view().offer is not None, what="Play or Fold")
    d.settle()
    k.tap(choice)
    d.settle()


def test_stadium_picker_shows_empty_numbered_positions_between_rounds(kiosk: Any) -> None:
    """Item 1: once the next round is begun, the array is nine empty numbered positions, not
    the last round's cards face up (the next round deals new ones)."""
    k, d = kiosk, kiosk.driver
    _stadium(k, ("chip:500", "spot:ante"))
    assert all(card is not None for card in k.app.view().first)  # the round, with its result
    k.tap("position:1")
    view = k.app.view()
    assert view.first == (None,) * 9
    assert view.dealer == (None,) * 3
    cells = [d.widget(f"position:{p}") for p in range(9)]
    assert [cell.face for cell in cells] == [None] * 9
    assert [cell.marker for cell in cells] == [str(p + 1) for p in range(9)]
    assert [p for p, cell in enumerate(cells) if cell.selected] == [1]
    assert not any(spot.results for spot in view.spots)  # the last result went with its cards


def test_a_partial_return_is_not_celebrated_as_a_win(kiosk: Any) -> None:
    """Item 4: $6 bet, $2 back (Ante $2 folded, Pairs Plus $1 pays on the pair, 6-Card Bonus
    $3 loses): no "YOU WIN", no lit WIN meter, no banner; the return said plainly."""
    k, d = kiosk, kiosk.driver
    wagers = ("chip:100", "spot:ante", "spot:ante", "spot:pairs_plus")
    _stadium(
        k, (*wagers, "spot:six_card_bonus", "spot:six_card_bonus", "spot:six_card_bonus"), "decline"
    )
    view = k.app.view()
    assert (view.wager_text, view.win_text) == ("$6.00", "$2.00")
    assert view.guide_text == "Returned $2.00 of $6.00"
    assert not view.won and view.win is None
    assert not k.app.won  # the WIN meter is not lit
    assert d.widget("spot:pairs_plus").highlight == "win"
    assert d.widget("spot:ante").highlight == "lose"
    k.tap("language")
    assert k.app.view().guide_text == "Se devuelven $2.00 de $6.00"


def test_a_spot_is_lit_by_what_its_wagers_did_together(kiosk: Any) -> None:
    """Item 4: the Ante's spot (the Ante and its bonus) is green only on a net win, and the
    round's summary follows the round's sum; a push says PUSH."""
    k = kiosk
    _stadium(k, ("chip:500", "spot:ante", "spot:pairs_plus"), "decline")
    view = k.app.view()
    # Ante $5 folded (lost), Pairs Plus $5 paid $10 on the pair: $10 back on $10
    assert view.guide_text == "PUSH — $10.00 returned"
    assert not view.won and not k.app.won
    by_id = {spot.id: spot for spot in view.spots}
    assert by_id["ante"].highlight == "lose" and by_id["pairs_plus"].highlight == "win"


def test_stadium_results_name_the_hands_and_the_paying_lines(kiosk: Any) -> None:
    """Item 7: the hands with their ranks, the winner first; each winning side wager with
    the hand that paid it and its odds; the same in history and in Spanish."""
    k = kiosk
    _stadium(k, ("chip:500", "spot:ante", "spot:pairs_plus"))
    view = k.app.view()
    assert view.hand_text == "Your hand: Pair of Queens"
    assert view.reasons == (
        "Pair of Queens beats King high",
        "Pair of Queens: Pairs Plus pays 1 to 1",
    )
    # the guide line opens on why a win paid; a touch turns to the next page, then the summary
    assert k.driver.widget("why").text == "Pair of Queens beats King high  (2/3) ›"
    k.tap("why")
    assert k.driver.widget("why").text == "Pair of Queens: Pairs Plus pays 1 to 1  (3/3) ›"
    k.tap("why")
    assert k.driver.widget("why").text == "YOU WIN $30.00  (1/3) ›"
    k.tap("language")
    assert k.app.view().reasons == (
        "Pareja de reinas gana a carta alta: rey",
        "Pareja de reinas: Parejas Plus paga 1 a 1",
    )
    k.tap("history")
    screen = k.app.root.ids.sm.current_screen
    lines = [w.text for w in reversed(screen.ids.lines.children)]
    assert "Pareja de reinas gana a carta alta: rey" in lines, lines


def test_turbo_results_name_the_count_and_the_pay_line(kiosk: Any) -> None:
    """Item 7: each paying Turbo wager with the footballs that paid it and the odds of the
    edition's own pay table."""
    k, d = kiosk, kiosk.driver
    k.device("note", 10000)
    d.wait(lambda: d.screen == "menu")
    k.tap("game:turbo-football", "chip:100", "spot:field_goal", "spot:first_down")
    k.deal_next(TURBO_CARDS)
    k.tap("deal")
    d.wait(lambda: k.app.view().offer is not None, what="the Double offer")
    d.settle()
    k.tap("decline")
    d.settle()
    view = k.app.view()
    assert view.icon_count_text == "15 footballs"
    assert view.reasons == (
        "15 footballs: First Down pays 1 to 1",
        "15 footballs: Field Goal pays 6 to 1",
    )
