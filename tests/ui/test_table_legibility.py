"""Legibility of the table screens of a seat (decision 0023, rules of decision 0018): the
scripted table visit (:func:`kiosk.tools.table_tour.visit_table`: both families, every kind of
step, the lost link, English and Spanish) measured at 800x480.  In the slow run (about 10 s
a language); at 1920x1080 the table visit is part of ``test_legibility``'s slow visit
(``tests/ui/legibility_run.py`` seats its kiosk at the scripted table).  The default run reads
the lost link's screen in ``test_table_seat``."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.terminal.app.kiosk import build_app
from kiosk.tools.table_tour import visit_table
from kiosk.tools.tour import tour_terminal
from tests.helpers import legibility
from tests.helpers.ui_kiosk import SPEED
from ui.terminal.driver import Driver


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "es"])
def test_the_table_screens_are_legible_at_800x480(tmp_path: Path, language: str) -> None:
    tour = tour_terminal(tmp_path)
    app = build_app(tour.terminal, show_simulator=False, speed=SPEED, table_status=tour.table)
    d = Driver(app, (800, 480))
    try:
        d.tap_at(app.root.width / 2, app.root.height / 2)
        if language != "en":
            app.set_language(language)
        readings: list[legibility.Reading] = []
        shots: list[str] = []

        def shot(name: str) -> None:
            d.frames(2)
            shots.append(name)
            readings.extend(legibility.read(app, name))

        visit_table(d, tour.table, shot, lambda cards: setattr(tour, "script", cards))
        assert len(shots) == 8
        bar = [r for r in readings if "TableBar" in r.where]
        assert len(bar) >= 16, legibility.summary(readings)  # the bar was measured on each
        failing = [str(r) for r in readings if r.problems()]
        assert not failing, "\n".join([str(legibility.summary(readings)), *failing])
    finally:
        d.close()
        tour.terminal.runtime.close()


def test_no_earlier_notice_shows_on_the_table_screens(tmp_path: Path) -> None:
    """Issue 26: screenshot 31 showed the note's "$100.00 added" from the step before it."""
    tour = tour_terminal(tmp_path, fixed=True)
    app = build_app(tour.terminal, show_simulator=False, speed=SPEED, table_status=tour.table)
    d = Driver(app, (800, 480))
    notices: dict[str, str] = {}
    try:
        d.tap_at(app.root.width / 2, app.root.height / 2)

        def shot(name: str) -> None:
            d.frames(2)
            notices[name] = app.notice_text

        visit_table(d, tour.table, shot, lambda cards: setattr(tour, "script", cards))
        assert notices["31-table-stadium-betting"] == "", notices
        assert not [n for n, said in notices.items() if "added" in said or "añadid" in said]
    finally:
        d.close()
        tour.terminal.runtime.close()
