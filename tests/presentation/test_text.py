"""Languages, vouchers and recall: the texts a player reads."""

from __future__ import annotations

import string

import pytest

from kiosk.terminal.presentation import i18n
from kiosk.terminal.presentation.overlays import interleaved_2_of_5, validation_text
from kiosk.terminal.presentation.recall import recall_view
from kiosk.terminal.presentation.session import clock_text
from kiosk.tools.tour import STADIUM_CARDS
from tests.helpers.presentation_table import Table


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_language_has_every_text_with_the_same_fields() -> None:
    english = i18n.CATALOGUES["en"]
    for language, catalogue in i18n.CATALOGUES.items():
        assert set(catalogue) == set(english), language
        for key, text in catalogue.items():
            assert _fields(text) == _fields(english[key]), (language, key)


def test_game_words_in_spanish() -> None:
    assert i18n.game_text("es", "Lose (One pair)") == "Pierde (Pareja)"
    assert i18n.game_text("es", "Ante bonus: Straight") == "Bono del Ante: Escalera"
    assert i18n.game_text("es", "Super TD (14+ footballs)") == "Super TD (14+ footballs)"
    assert i18n.game_text("en", "Lose") == "Lose"
    with pytest.raises(ValueError, match="language"):
        i18n.text("fr", "deal")


def test_interleaved_2_of_5_known_symbol() -> None:
    # "12": start 1111, digit 1 bars WNNNW with digit 2 spaces NWNNW, stop 311
    assert interleaved_2_of_5("12") == (1, 1, 1, 1, 3, 1, 1, 3, 1, 1, 1, 1, 3, 3, 3, 1, 1)
    widths = interleaved_2_of_5("123456789012345678")
    assert sum(widths) == 4 + 18 * (3 * 1 + 2 * 3) + 5  # each digit: 3 narrow and 2 wide
    with pytest.raises(ValueError, match="even number"):
        interleaved_2_of_5("123")
    assert validation_text("123456789012345678") == "12-3456-7890-1234-5678"


def test_session_clock_text() -> None:
    nb = "\u00a0"  # a number stays on its unit's line
    assert clock_text(65_000) == f"1{nb}min"
    assert clock_text(3_725_000) == f"1{nb}h 02{nb}min"
    assert clock_text(3_725_000, "es") == f"1{nb}h 02{nb}min"
    assert clock_text(-5) == f"0{nb}min"


def test_recall_shows_the_game_card_by_card(table: Table) -> None:
    s = table.session
    table.note(2000)
    s.select_edition("stadium-3cp")
    for position in (0, 4, 8):
        s.toggle_position(position)
    s.place_chip("ante")
    table.deal(STADIUM_CARDS)
    s.decide(False)
    (record,) = table.rt.journal.recall(5)
    view = recall_view(record, "en")
    assert [f.name for f in view.first] == STADIUM_CARDS.split()[:9]
    assert [f.name for f in view.dealer] == STADIUM_CARDS.split()[9:]
    assert view.positions == (0, 4, 8) and view.hand_text == "Your hand: Pair of Queens"
    assert view.decision_text == "Decision: FOLD"
    assert [r.text for r in view.results] == ["LOSE Fold"]
    assert view.credits_text == "Credit $20.00 → $19.00"
    assert s.history()[0].heading.startswith("Game 1  ·  Stadium Three Card Poker")


def test_session_reminder(table: Table) -> None:
    s = table.session
    table.note(2000)
    assert s.session_text() == "Session 0\u00a0min"
    s.set_reminder(15)
    table.clock.advance(14 * 60)
    s.tick()
    assert not s.reminder_due
    table.clock.advance(61)
    s.tick()
    assert s.reminder_due and s.reminder_text() == "You have been playing for 15 minutes."
    s.dismiss_reminder()
    assert not s.reminder_due
    table.clock.advance(15 * 60)
    s.tick()
    assert s.reminder_due
    with pytest.raises(ValueError, match="reminder"):
        s.set_reminder(7)


def test_memory_is_measured_and_trimmed() -> None:
    from ui.terminal import memory

    assert memory.resident_mb() > 10  # this test process, in MiB
    assert memory.trim()  # glibc (Debian, Raspberry Pi OS): free heap pages go back
