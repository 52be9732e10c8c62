"""A notice on screen follows the player's language (it was left in the language it was said in)."""

from __future__ import annotations

from tests.helpers.presentation_table import Table


def test_a_notice_is_reworded_when_the_player_changes_language(table: Table) -> None:
    table.note(10_000)
    assert table.session.notice is not None
    assert table.session.notice.text == "$100.00 added"
    until = table.session.notice.until
    table.session.set_language("es")
    assert table.session.notice.text == "$100.00 añadidos"
    assert table.session.notice.until == until  # re-worded, not shown for longer
    table.session.set_language("en")
    assert table.session.notice.text == "$100.00 added"


def test_a_refusal_is_reworded_too(table: Table) -> None:
    table.session.set_language("es")
    assert not table.session.deal()  # no wager on the table
    assert table.session.notice is not None
    spanish = table.session.notice.text
    table.session.set_language("en")
    assert table.session.notice.text != spanish
    assert spanish == "Eso no se puede hacer ahora"  # not the terminal's "Deal is not allowed..."
    assert table.session.notice.text == "That cannot be done now"
