"""The par sheet's progressive figures: exact, and confirmed by a simulation of real hands
through the meter within 3 standard errors."""

from __future__ import annotations

import json
from fractions import Fraction

from kiosk.kernel.analysis import progressive_par as pp
from kiosk.kernel.analysis import stadium_par
from kiosk.kernel.games import progressive, stadium
from tests.helpers.cli_process import turbokiosk
from tests.helpers.progressive import frequent


def test_return_at_reset_and_break_even_are_exact() -> None:
    rules = stadium.load({})
    wager = stadium_par.side_wager_par(rules.six_card_bonus)
    par = pp.progressive_par(wager, progressive.load("stadium-6cb-royal"))
    assert par.probability == Fraction(1, 108290)
    # at the break-even meter the wager returns exactly 100%
    assert par.return_at(par.break_even_meter) == 1
    # the fixed royal pay (1000 to 1 on 500 cents) gives back the pay table's own edge
    assert 1 - par.return_at(500 * 1000) == wager.house_edge
    assert par.long_run_return == par.return_at_reset + Fraction(3, 100)


def test_the_long_run_return_is_confirmed_by_simulation() -> None:
    rules = stadium.load({})
    wager = stadium_par.side_wager_par(rules.six_card_bonus)
    settings = frequent()
    par = pp.progressive_par(wager, settings)
    run = pp.simulate_meter(settings, par, pp.six_card_hands(rules.six_card_bonus), 30_000, seed=60)
    assert run.hits > 500
    assert run.z < 3, (float(run.observed), float(run.exact), run.std_error)


def test_par_sheet_command_shows_the_progressive() -> None:
    table = "nine_card_bonus=2-10-50-200-1000-5000-sf-10000-500000"
    done = turbokiosk(
        "par-sheet",
        "turbo-football",
        "--paytable",
        table,
        "--progressive",
        "ncb-straight-flush-9",
        "--format",
        "json",
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)["wagers"]["nine_card_bonus"]["progressive"]
    assert figures["outcome"] == "9-card straight flush"
    assert figures["return_at_reset"]["exact"] == "87794464/91976885"
    bad = turbokiosk("par-sheet", "turbo-football", "--progressive", "stadium-6cb-royal")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
