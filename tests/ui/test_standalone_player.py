"""Issue 26 item 8, a standalone terminal as a player meets it: no decision timer unless the
operator sets one, the limits and pays on the felt, attract mode's responsible-gaming line,
the reminder with no credits, the session clock with its unit."""

from __future__ import annotations

from typing import Any

from kiosk.tools.tour import STADIUM_CARDS, TOUR_CONFIG


def test_attract_mode_shows_the_operators_responsible_gaming_line(kiosk_factory: Any) -> None:
    config = TOUR_CONFIG.with_changes(
        responsible_gaming_en="Know your limit: 0800 123 456",
        responsible_gaming_es="Conozca su límite: 0800 123 456",
    )
    k = kiosk_factory(config)
    d = k.driver
    assert d.screen == "attract"
    line = d.widget("responsible_gaming")
    assert line.text == "Know your limit: 0800 123 456"
    k.tap("language")
    assert d.widget("responsible_gaming").text == "Conozca su límite: 0800 123 456"


def test_attract_mode_has_a_responsible_gaming_line_by_default(kiosk: Any) -> None:
    d = kiosk.driver
    assert d.screen == "attract"
    assert d.widget("responsible_gaming").text == "Play responsibly · Help: 1-800-522-4700"


def test_the_reminder_at_no_credit_says_when_it_starts(kiosk: Any) -> None:
    k, d = kiosk, kiosk.driver
    assert d.widget("session").text == "Reminder"
    k.tap("session")
    assert k.app.reminder_picker.parent is not None  # it opens
    explain = d.widget("reminder_explain").text
    assert explain.startswith("The session clock starts with your first credit")
    k.tap("reminder:15")
    assert k.app.session.reminder_minutes == 15
    k.device("note", 2000)
    assert d.widget("session").text == "Session 0\u00a0min"  # a unit, not "0:00"
    assert k.app.session._reminder_at is not None  # armed from the first credit


def test_the_felt_shows_the_limits_and_what_each_spot_pays(kiosk: Any) -> None:
    k, d = kiosk, kiosk.driver
    k.device("note", 2000)
    d.wait(lambda: d.screen == "menu")
    k.tap("game:turbo-football")
    assert k.app.view().guide_text == "Touch a chip, then a wager spot · MIN $1.00 MAX $100.00"
    assert d.widget("spot:long_pass").shown_pays == "2:1 · 4:1"
    assert d.widget("spot:field_goal").shown_pays == "3:1 · 6:1"
    k.tap("language")
    assert k.app.view().guide_text.endswith("MÍN $1.00 MÁX $100.00")
    k.tap("chip:100", "spot:long_pass")
    assert d.widget("spot:long_pass").ids.result_label.text == "$1.00"  # the stake, once bet


def test_no_decision_timer_unless_the_operator_sets_one(kiosk: Any) -> None:
    """The Play or Fold prompt waits for the player: no countdown, no FOLD taken for them."""
    k, d, rt = kiosk, kiosk.driver, kiosk.runtime
    k.device("note", 2000)
    d.wait(lambda: d.screen == "menu")
    k.tap("game:stadium-3cp", "position:0", "position:4", "position:8", "chip:500", "spot:ante")
    k.deal_next(STADIUM_CARDS)
    k.tap("deal")
    d.wait(lambda: k.app.view().offer is not None, what="Play or Fold")
    d.settle()
    offer = k.app.view().offer
    assert offer.default_text == "" and offer.total_seconds == 0
    screen = k.app.root.ids.sm.current_screen
    assert not screen.timed  # the countdown ring is not shown
    assert rt.decision_deadline() is None
    rt.clock = lambda: 10**13  # long after any timer would have run out
    assert rt.pump() == []
    assert rt.state.phase.value == "decision" and rt.state.round.choices == {}


def test_help_opens_on_a_picture_and_turns_its_pages(kiosk: Any) -> None:
    """Help opens on the icons the cards carry and the first pay table drawn, not on
    paragraphs; NEXT and PREVIOUS turn the pages; the rules in words come last."""
    from ui.terminal.screens.help import IconValuesView, Paragraph, PictureRowView

    k, d = kiosk, kiosk.driver
    k.device("note", 2000)
    d.wait(lambda: d.screen == "menu")
    k.tap("game:turbo-football", "help")
    screen = k.app.root.ids.sm.current_screen
    first = list(reversed(screen.ids.body.children))
    assert isinstance(first[1], IconValuesView) and not any(isinstance(w, Paragraph) for w in first)
    assert any(isinstance(w, PictureRowView) for w in first)
    assert screen.page_count >= 4
    assert d.widget("help_page").text == f"Page 1 of {screen.page_count}"
    assert d.widget("help_previous").disabled
    k.tap("help_next")
    assert screen.page_number == 1 and d.widget("help_page").text.startswith("Page 2 of")
    for _ in range(screen.page_count):
        k.tap("help_next")
    last = list(reversed(screen.ids.body.children))
    assert last and all(isinstance(w, Paragraph) for w in last)  # the rules, last
    assert d.widget("help_next").disabled
    k.tap("language")
    assert d.widget("help_page").text.startswith("Página")
