"""Lockups cover the table, and the other screens: menu, help, history, language, reminder."""

from __future__ import annotations

from typing import Any

from kiosk.terminal.core import commands as c
from kiosk.terminal.presentation.faces import face
from kiosk.tools.tour import HANDPAY_CARDS, TOUR_CONFIG, TURBO_CARDS
from tests.helpers.ui_kiosk import is_felt
from ui.terminal.felt import FeltSpot, LineSpot
from ui.terminal.widgets.card import CardRow


def test_lockups_cover_the_table_with_their_reason(kiosk: Any) -> None:
    k, d, rt = kiosk, kiosk.driver, kiosk.terminal.runtime
    k.device("note", 2000)
    k.tap("game:turbo-football")
    assert is_felt(k.region("own:0"))
    for action, title in (
        ("door", "DOOR OPEN"),
        ("paper", "PRINTER OUT OF PAPER"),
        ("host", "PLAY DISABLED"),
    ):
        k.device(action)
        d.frames(3)
        assert d.widget("lockup_title").text == title
        assert not is_felt(k.region("own:0"))  # the table is covered
        k.tap("spot:first_down")  # a touch on the covered table places nothing
        assert rt.state.pending_wagers == {}
        k.device(action)  # closed, paper in, enabled again
        d.frames(3)
        assert k.app.lockup_overlay.parent is None
    assert is_felt(k.region("own:0"))
    assert rt.state.tilts == {} and rt.state.doors_open == [] and rt.state.disabled is None


def test_handpay_and_critical_memory_error(kiosk: Any) -> None:
    k, d, rt = kiosk, kiosk.driver, kiosk.terminal.runtime
    k.device("note", 10000)
    k.tap("game:turbo-football", "chip:500", "spot:first_down", "spot:td", "spot:td")
    k.deal_next(HANDPAY_CARDS)  # 26 footballs: Super TD pays 10:1 on $10, above the $100 limit
    k.tap("deal")
    d.wait(lambda: rt.state.handpay is not None, what="the handpay")
    d.settle()
    assert d.widget("lockup_title").text == "HANDPAY"
    assert k.app.lockup_overlay.reason == "Jackpot of $122.50 — an attendant will pay you by hand"
    k.device("attendant")
    assert rt.state.handpay is None and k.app.lockup_overlay.parent is None
    rt.execute(c.ReportCritical(reason="journal hash chain broken"))
    d.frames(3)
    assert d.widget("lockup_title").text == "CRITICAL MEMORY ERROR"
    assert k.app.lockup_overlay.detail == "For the attendant: journal hash chain broken"


def test_menu_lists_every_enabled_game_with_its_icon(kiosk: Any) -> None:
    k, d = kiosk, kiosk.driver
    k.device("note", 2000)
    tiles = [d.widget(f"game:{ed.edition}") for ed in TOUR_CONFIG.editions]
    assert [t.icon for t in tiles] == [
        "football",
        "icon",
        "puck",
        "basketball",
        "baseball",
        "stadium",
    ]
    assert all(t.height >= 48 and t.width >= 48 for t in tiles)  # finger-sized
    k.tap("game:turbo-hockey")
    assert d.widget("spot:first_down").label == "Face-Off"
    assert k.app.title_text == "Turbo Hockey" and k.app.edition_icon == "puck"


def test_touch_targets_are_finger_sized(kiosk: Any) -> None:
    k, d = kiosk, kiosk.driver
    k.device("note", 2000)
    k.tap("game:stadium-3cp", "tab:lines")
    names = ["deal", "clear", "repeat", "cash_out", "help", "history", "games", "language"]
    widgets = [d.widget(n) for n in names] + [d.widget("chip:500"), d.widget("position:4")]
    widgets += [w for w in k.app.root.walk() if isinstance(w, FeltSpot | LineSpot) and w.x >= 0]
    for widget in widgets:
        assert min(widget.size) >= 40, (getattr(widget, "tk_name", ""), widget.size)


def test_language_help_and_history(kiosk: Any) -> None:
    k, d, rt = kiosk, kiosk.driver, kiosk.terminal.runtime
    k.device("note", 2000)
    k.tap("game:turbo-football", "chip:500", "spot:first_down")
    k.deal_next(TURBO_CARDS)
    k.tap("deal")
    d.wait(lambda: k.app.view().offer is not None)
    k.tap("decline")
    d.settle()
    k.tap("language")
    assert d.widget("deal").text == "REPARTIR" and d.widget("cash_out").text == "COBRAR"
    assert k.app.view().win_banner == "GANA $10.00"
    k.tap("help")
    assert d.screen == "help"
    texts = [getattr(w, "text", "") for w in k.app.root.ids.sm.current_screen.all_widgets()]
    assert any("Las cartas de picas llevan balones" in t for t in texts)
    assert "Primer Down" in texts and not any("First Down" in t for t in texts)
    k.tap("back")
    k.tap("history")
    screen = k.app.root.ids.sm.current_screen
    assert screen.heading.startswith("Partida 1  ·  Turbo Fútbol Americano")
    rows = [row for row in screen.ids.cards.children if isinstance(row, CardRow)]
    shown = [card.face for row in rows for card in row.cards]
    expected = {face(code, 0) for code in rt.state.round.first + rt.state.round.seat_cards[0]}
    assert set(shown) == expected
    k.tap("back")
    k.tap("language")
    assert d.widget("deal").text == "DEAL"


def test_reminder_and_attract_mode(kiosk: Any) -> None:
    k, d = kiosk, kiosk.driver
    s = k.app.session
    k.device("note", 2000)
    k.tap("session", "reminder:15")
    assert s.reminder_minutes == 15
    s.session_started -= 16 * 60_000
    s._arm_reminder()
    s._reminder_at = s.clock() - 1
    d.frames(3)
    assert k.app.reminder_dialog.parent is not None
    assert k.app.reminder_dialog.message == "You have been playing for 16 minutes."
    k.tap("reminder_cash_out")
    d.settle()
    k.tap("voucher_ok")
    assert k.runtime.state.credits == [0]
    s.last_activity -= 10 * 60_000  # ten quiet minutes later
    d.wait(lambda: d.screen == "attract", timeout=3, what="attract mode")
