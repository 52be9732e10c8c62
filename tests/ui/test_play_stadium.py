"""A whole Stadium Three Card Poker game by touches, and the Fold the timer takes."""

from __future__ import annotations

from typing import Any

from kiosk.terminal.core.config import EditionConfig, TerminalConfig
from kiosk.tools.tour import STADIUM_CARDS
from tests.helpers.ui_kiosk import is_card_white, is_felt


def test_stadium_game_from_note_to_voucher(kiosk: Any) -> None:
    k, d, rt = kiosk, kiosk.driver, kiosk.terminal.runtime
    k.device("note", 10000)
    d.wait(lambda: d.screen == "menu")
    k.tap("game:stadium-3cp")
    assert d.screen == "stadium"
    for position in (0, 4, 8):
        k.tap(f"position:{position}")
    assert rt.state.pending_positions == {0: (0, 4, 8)}
    k.tap("chip:500", "spot:ante", "tab:lines", "chip:100", "spot:pairs_plus_row_3", "tab:hand")
    assert rt.state.pending_wagers == {0: {"ante": 500, "pairs_plus_row_3": 100}}
    assert is_felt(k.region("position:1"))

    k.deal_next(STADIUM_CARDS)
    k.tap("deal")
    d.wait(lambda: k.app.view().offer is not None, what="Play or Fold")
    d.settle()
    assert all(is_card_white(k.region(f"position:{p}")) for p in range(9))
    r, g, _b = k.region("dealer:0")  # face down: the red back
    assert r > g + 40
    assert k.app.view().hand_text == "Your hand: Pair of Queens"
    assert d.widget("take").text == "PLAY $5.00"
    assert k.app.view().offer.default_text == ""  # no timer unless the operator sets one

    k.tap("take")
    d.settle()
    assert all(is_card_white(k.region(f"dealer:{i}")) for i in range(3))
    view = k.app.view()
    assert view.dealer_text == "Dealer: King high — qualifies"
    rnd = rt.state.round
    assert rnd is not None
    paid = {r.spot: r.paid for r in rnd.settlement[0].results}
    assert paid == {"ante": 1000, "play": 1000, "pairs_plus_row_3": 0}
    assert rt.state.credits == [10000 - 1100 + 2000]
    assert d.widget("credit").value == "$109.00"
    assert d.widget("spot:ante").highlight == "win"

    k.tap("cash_out")
    d.settle()
    assert d.widget("voucher_amount").text == "$109.00"
    k.tap("voucher_ok")
    assert rt.state.credits == [0]
    assert [v["value"] for v in k.terminal.printer.printed().values()] == [10900]


def test_fold_when_the_countdown_runs_out(kiosk_factory: Any) -> None:
    config = TerminalConfig(editions=(EditionConfig("stadium-3cp"),), decision_seconds=2)
    k = kiosk_factory(config)
    d, rt = k.driver, k.runtime
    k.device("note", 2000)
    d.wait(lambda: d.screen == "menu")
    k.tap("game:stadium-3cp", "position:2", "position:5", "position:8", "chip:500", "spot:ante")
    k.deal_next(STADIUM_CARDS)
    k.tap("deal")
    d.wait(lambda: k.app.view().offer is not None)
    assert "FOLD in" in k.app.view().offer.default_text
    d.wait(lambda: rt.state.phase.value == "result", timeout=10, what="the automatic fold")
    d.settle()
    rnd = rt.state.round
    assert rnd is not None and rnd.choices == {0: "fold"} and rnd.automatic == {0: True}
    assert rt.state.credits == [1500]
    assert d.widget("spot:ante").result_text == "LOSE"
    assert d.widget("decision_spot").amount_text == ""  # no chips went to Play
