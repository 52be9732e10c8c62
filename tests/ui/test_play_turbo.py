"""A whole Turbo Football game by touches: a note in, wagers, the deal, the Double, the result,
the cash-out voucher; checked on the terminal's state and on the rendered pixels."""

from __future__ import annotations

from typing import Any

from kiosk.tools.tour import TURBO_CARDS
from tests.helpers.ui_kiosk import is_card_white, is_felt

#: community As Ks 9d carries 4 + 4 + 0 = 8 footballs: more than 5, so no Double
NO_DOUBLE_CARDS = "As Ks 9d 2h 3h 4h 5h 6h 7h"


def test_turbo_game_from_note_to_voucher(kiosk: Any) -> None:
    k, d, rt = kiosk, kiosk.driver, kiosk.terminal.runtime
    assert d.screen == "attract"
    k.device("note", 2000)
    d.wait(lambda: d.screen == "menu", what="the menu after a note")
    assert rt.state.credits == [2000]
    assert d.widget("credit").value == "$20.00"

    k.tap("game:turbo-football")
    assert d.screen == "turbo"
    k.tap("chip:500", "spot:first_down", "chip:100", "spot:long_pass")
    assert rt.state.pending_wagers == {0: {"first_down": 500, "long_pass": 100}}
    assert d.widget("spot:first_down").amount_text == "$5.00"
    assert is_felt(k.region("community:0"))

    k.deal_next(TURBO_CARDS)  # Js 4h 9d: 4 footballs, the Double is offered
    k.tap("deal")
    d.wait(lambda: k.app.view().offer is not None, what="the Double offer")
    d.settle()
    assert rt.state.phase.value == "decision"
    assert all(is_card_white(k.region(f"community:{i}")) for i in range(3))
    assert is_felt(k.region("own:0"))
    assert d.widget("icon_count").text == "4 footballs"
    assert d.widget("take").text == "DOUBLE"

    k.tap("take")
    d.settle()
    rnd = rt.state.round
    assert rnd is not None and rnd.choices == {0: "raise"}
    assert all(is_card_white(k.region(f"own:{i}")) for i in range(6))
    paid = {r.spot: r.paid for r in rnd.settlement[0].results}
    # 15 footballs: First Down and the Double 1:1, Long Pass Super TD 4:1
    assert paid == {"first_down": 1000, "raise": 1000, "long_pass": 500}
    assert rt.state.credits == [2000 - 1100 + 2500]
    assert d.widget("credit").value == "$34.00"
    assert k.app.win_text == "$25.00"
    assert d.widget("icon_count").text == "15 footballs"
    assert d.widget("spot:long_pass").highlight == "win"

    k.tap("cash_out")
    d.settle()
    assert d.widget("voucher_amount").text == "$34.00"
    assert is_card_white(k.region("voucher_amount"))
    k.tap("voucher_ok")
    assert rt.state.credits == [0]
    (voucher,) = k.terminal.printer.printed().values()
    assert voucher["value"] == 3400
    assert k.app.voucher_overlay.parent is None


def test_no_double_prompt_when_the_community_has_too_many_icons(kiosk: Any) -> None:
    k, d, rt = kiosk, kiosk.driver, kiosk.terminal.runtime
    k.device("note", 2000)
    d.wait(lambda: d.screen == "menu")
    k.tap("game:turbo-football", "chip:100", "spot:first_down")
    k.deal_next(NO_DOUBLE_CARDS)
    k.tap("deal")
    seen_offer = False
    for _ in range(200):
        d.frames(1)
        seen_offer = seen_offer or k.app.view().offer is not None
        if not k.app.dealing:
            break
    d.settle()
    assert not seen_offer
    rnd = rt.state.round
    assert rnd is not None and rnd.offers == {} and rnd.settled_at
    assert d.widget("take").x < 0  # the decision row never came on screen


def test_result_waits_for_the_cards(kiosk: Any) -> None:
    """While the six own cards are still being dealt the win and its credits are not shown."""
    k, d, rt = kiosk, kiosk.driver, kiosk.terminal.runtime
    k.device("note", 2000)
    d.wait(lambda: d.screen == "menu")
    k.tap("game:turbo-football", "chip:500", "spot:first_down")
    k.deal_next(TURBO_CARDS)
    k.tap("deal")
    d.wait(lambda: k.app.view().offer is not None)
    k.tap("decline")
    assert rt.state.phase.value == "result"  # the terminal settled at once ...
    view = k.app.view()
    assert view.revealed < view.cards_total  # ... the screen is still dealing
    assert view.win_text == "$0.00" and view.credit_text == "$15.00"
    assert all(not s.results for s in view.spots)
    d.settle()
    view = k.app.view()
    assert view.win_text == "$10.00" and view.credit_text == "$25.00"
