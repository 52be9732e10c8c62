"""What players hit on the touchscreen (issue 13), each driven by touches as a player would."""

from __future__ import annotations

from typing import Any

from kiosk.tools.tour import STADIUM_CARDS, TURBO_CARDS
from tests.helpers import legibility
from ui.terminal import capture
from ui.terminal.theme import BAR


def _stadium_round(k: Any, positions: tuple[int, ...] = (0, 4, 8)) -> None:
    """A $100 note, the Stadium table, a $5 Ante on ``positions``, dealt and played."""
    d = k.driver
    k.device("note", 10000)
    d.wait(lambda: d.screen == "menu")
    k.tap("game:stadium-3cp")
    for position in positions:
        k.tap(f"position:{position}")
    k.tap("chip:500", "spot:ante")
    k.deal_next(STADIUM_CARDS)
    k.tap("deal")
    d.wait(lambda: k.app.view().offer is not None, what="Play or Fold")
    d.settle()
    k.tap("take")
    d.settle()


def test_stadium_repeat_keeps_the_positions_picked_for_this_round(kiosk: Any) -> None:
    k, rt = kiosk, kiosk.terminal.runtime
    _stadium_round(k)
    for position in (1, 3, 5):
        k.tap(f"position:{position}")
    k.tap("repeat")
    assert rt.state.pending_positions == {0: (1, 3, 5)}
    assert rt.state.pending_wagers == {0: {"ante": 500}}
    chosen = [p for p in range(9) if k.driver.widget(f"position:{p}").selected]
    assert chosen == [1, 3, 5]


def test_new_positions_are_not_ranked_against_the_last_rounds_cards(kiosk: Any) -> None:
    k = kiosk
    _stadium_round(k)
    screen = k.app.root.ids.sm.current_screen
    assert screen.hand_text == "Your hand: Pair of Queens"  # the hand played, beside its result
    for position in (1, 2, 3):
        k.tap(f"position:{position}")
    assert k.app.view().hand_text == ""
    assert screen.hand_text == ""


def test_printer_out_of_paper_cash_out_says_and_does_a_handpay(kiosk: Any) -> None:
    k, d, rt = kiosk, kiosk.driver, kiosk.terminal.runtime
    k.device("note", 2000)
    k.tap("game:turbo-football")
    k.device("paper")
    d.frames(3)
    assert d.widget("lockup_title").text == "PRINTER OUT OF PAPER"
    overlay = k.app.lockup_overlay
    assert overlay.reason == "The voucher printer is out of paper"
    assert overlay.advice.startswith("Touch CASH OUT to be paid by an attendant")
    button = d.widget("cash_out")
    assert not button.disabled and button.text == "CASH OUT\nBY HAND"
    k.tap("cash_out")
    d.frames(3)
    assert rt.state.handpay is not None and rt.state.handpay.kind == "cancelled_credits"
    assert d.widget("lockup_title").text == "HANDPAY"
    assert overlay.reason == "Cash-out of $20.00 — an attendant will pay you by hand"
    k.tap("language")
    assert d.widget("cash_out").text == "COBRAR" and d.widget("cash_out").disabled


def test_lockups_read_in_spanish_and_leave_the_bars_lit(kiosk: Any) -> None:
    k, d = kiosk, kiosk.driver
    k.device("note", 2000)
    k.tap("game:turbo-football")
    credit_before = k.region("credit")
    k.device("door")
    d.frames(3)
    assert k.region("credit") == credit_before  # the credit meter is not dimmed
    for name in ("help", "history", "games", "session"):
        assert d.widget(name).disabled, name  # they look disabled, as they are
    k.tap("help")
    assert d.screen == "turbo"
    k.tap("language")  # the language works during a lockup
    overlay = k.app.lockup_overlay
    assert (overlay.title, overlay.reason) == ("PUERTA ABIERTA", "Abierta: puerta principal")
    assert overlay.advice == "Por favor, llame a un asistente"
    k.device("door")
    k.device("host")
    assert overlay.title == "JUEGO DESACTIVADO"
    assert overlay.reason == "El sistema del casino ha detenido el juego en este terminal"
    k.device("host")
    assert k.app.lockup_overlay.parent is None
    assert not d.widget("help").disabled and not d.widget("history").disabled


def test_double_is_disabled_when_the_credits_cannot_cover_it(kiosk: Any) -> None:
    k, d, rt = kiosk, kiosk.driver, kiosk.terminal.runtime
    k.device("note", 500)
    k.tap("game:turbo-football", "chip:500", "spot:first_down")
    k.deal_next(TURBO_CARDS)
    k.tap("deal")
    d.wait(lambda: k.app.view().offer is not None, what="the Double offer")
    d.settle()
    assert rt.state.credits == [0]
    take = d.widget("take")
    assert take.text == "DOUBLE" and take.disabled
    assert k.app.view().guide_text == "Not enough credits for DOUBLE ($5.00)"
    k.tap("take")
    notice = k.app.session.notice
    assert notice is None or notice.kind != "error"  # no refusal after the touch
    assert rt.state.round is not None and rt.state.round.extra == {}


def test_history_lists_wagers_in_table_order_in_the_buttons_words_to_the_last_line(
    kiosk: Any,
) -> None:
    k, d = kiosk, kiosk.driver
    k.device("note", 10000)
    k.tap("game:turbo-football", "chip:100")
    k.tap("spot:nine_card_bonus", "spot:td", "spot:field_goal", "spot:long_pass")
    k.tap("chip:500", "spot:first_down")
    k.deal_next(TURBO_CARDS)
    k.tap("deal")
    d.wait(lambda: k.app.view().offer is not None, what="the Double offer")
    d.settle()
    k.tap("take")
    d.settle()
    k.tap("history")
    screen = k.app.root.ids.sm.current_screen
    lines = [w.text for w in reversed(screen.ids.lines.children)]
    assert "Decision: DOUBLE" in lines, lines
    labels = [line.split(" $")[0] for line in lines if " $" in line and ": " in line]
    table_order = ["First Down", "Double", "Long Pass", "Field Goal", "TD", "9 Card Bonus"]
    assert labels[: len(table_order)] == table_order, lines
    scroll = screen.ids.lines_scroll
    scroll.scroll_y = 0  # the player drags to the end
    d.frames(3)
    last = screen.ids.lines.children[0]
    _x, bottom = last.to_window(last.x, last.y)
    _x, view_bottom = scroll.to_window(scroll.x, scroll.y)
    older = d.widget("older")
    assert bottom >= view_bottom - 1 and bottom >= older.to_window(older.x, older.top)[1]
    assert scroll.bar_inactive_color[3] > 0  # the bar shows there is more to see


def _rect(widget: Any) -> tuple[float, float, float, float]:
    x, y = widget.to_window(widget.x, widget.y)
    return x, y, x + widget.width, y + widget.height


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_the_voucher_leaves_the_win_meter_and_says_take_it_on_its_own_panel(kiosk: Any) -> None:
    k, d = kiosk, kiosk.driver
    k.device("note", 2000)
    k.tap("game:turbo-football", "chip:500", "spot:first_down", "spot:long_pass")
    k.tap("cash_out")
    d.settle()
    close, win = d.widget("voucher_ok"), d.widget("win")
    assert not close.disabled and not _overlap(_rect(close), _rect(win))
    status = d.widget("voucher_status")
    assert status.text == "Please take your voucher"
    # drawn on its own opaque panel, not over the table (a chip on a spot) under the dim cover
    (reading,) = [r for r in legibility.read(k.app, "voucher") if r.text == status.text]
    assert reading.contrast is not None and reading.contrast >= legibility.MIN_CONTRAST
    frame = capture.render()
    x0, y0, x1, y1 = (int(v) for v in _rect(status))
    panel = {frame.pixel(x, y) for x in range(x0 + 2, x1 - 2, 7) for y in (y0 + 2, y1 - 3)}
    bar = tuple(round(c * 255) for c in BAR[:3])
    assert all(max(abs(p - q) for p, q in zip(px, bar, strict=True)) <= 3 for px in panel)


def test_titles_fit_the_top_bar_at_800x480(kiosk: Any) -> None:
    k, d = kiosk, kiosk.driver
    k.device("note", 2000)
    k.tap("game:stadium-3cp")
    title = d.widget("title")
    for language, text in (
        ("en", "Stadium Three Card Poker"),
        ("es", "Stadium Póquer de Tres Cartas"),
    ):
        if k.app.session.language != language:
            k.tap("language")
        d.frames(3)
        assert title.text == text
        assert not title.is_shortened and title.texture_size[1] <= title.height
        assert title.texture_size[0] <= title.width
    k.tap("games", "game:turbo-football")
    d.frames(3)
    assert title.text == "Turbo Fútbol Americano" and not title.is_shortened
    assert title.texture_size[1] <= title.height


def test_a_notice_shows_over_the_guide_line_not_over_the_title(kiosk: Any) -> None:
    k, d = kiosk, kiosk.driver
    k.device("note", 2000)
    k.tap("game:turbo-football")
    k.device("note", 500)
    notice = next(w for w in k.app.root.walk() if type(w).__name__ == "NoticeToast")
    assert notice.text == "$5.00 added" and notice.opacity == 1
    guide = k.app.root.ids.sm.current_screen.ids.footer.children[-1]  # the guide line
    assert _overlap(_rect(notice), _rect(guide))
    assert not _overlap(_rect(notice), _rect(d.widget("title")))


def test_a_spot_with_its_double_shows_its_result_whole(kiosk: Any) -> None:
    """First Down and its Double, each on its own printed spot of the felt, say how they ended
    in words and amount ("WIN $10.00" twice: the $20.00 the spot won), nothing cut off
    ("Double: W…"), in English and Spanish; a side spot's result is whole too."""
    k, d = kiosk, kiosk.driver
    k.device("note", 10000)
    k.tap("game:turbo-football", "chip:500", "spot:first_down", "spot:nine_card_bonus")
    k.deal_next(TURBO_CARDS)
    k.tap("deal")
    d.wait(lambda: k.app.view().offer is not None, what="the Double offer")
    d.settle()
    k.tap("take")
    d.settle()
    for language in ("en", "es"):
        if k.app.session.language != language:
            k.tap("language")
        d.frames(3)
        for name in ("spot:first_down", "decision_spot", "spot:nine_card_bonus"):
            spot = d.widget(name)
            line = spot.ids.result_label
            assert line.text == spot.shown_result and line.text in (
                spot.result_text,
                spot.result_short,
            ), name
            assert "…" not in line.text and not line.is_shortened, name
            assert line.texture_size[0] <= line.width and line.texture_size[1] <= line.height
        win = {"en": "WIN $10.00", "es": "GANA $10.00"}[language]
        main, double = d.widget("spot:first_down"), d.widget("decision_spot")
        assert double.label == {"en": "Double", "es": "Doblar"}[language]
        assert main.shown_result == win and double.shown_result == win
