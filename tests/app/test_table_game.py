"""``turbokiosk run --table ... --edition E``: the table's game selected on the terminal before
the seat joins; a game this terminal does not offer is refused (one line from the command
line), and the terminal keeps its own selection."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.terminal.app.seated import SeatingError, select_table_game
from kiosk.terminal.core.config import EditionConfig, TerminalConfig
from kiosk.tools.tour import tour_terminal


def test_the_tables_game_is_selected_and_one_not_offered_is_refused(tmp_path: Path) -> None:
    config = TerminalConfig(
        editions=(EditionConfig("turbo-football"), EditionConfig("stadium-3cp"))
    )
    tour = tour_terminal(tmp_path, config)
    rt = tour.terminal.runtime
    try:
        select_table_game(rt, "stadium-3cp")
        assert rt.state.selected_edition == "stadium-3cp"
        with pytest.raises(SeatingError, match="the table's game turbo-hockey"):
            select_table_game(rt, "turbo-hockey")
        assert rt.state.selected_edition == "stadium-3cp"
    finally:
        rt.close()
