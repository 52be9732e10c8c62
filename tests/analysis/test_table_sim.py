"""Table simulations (kiosk.kernel.analysis.table_sim) and the commands that show the per-seat math:
``turbokiosk par-sheet --seats/--mode`` and ``turbokiosk simulate --seats/--mode``."""

from __future__ import annotations

import json
import random

import pytest

from kiosk import cli
from kiosk.kernel.analysis import stadium_table, table_sim
from kiosk.kernel.analysis.table_sim import (
    family_bound,
    simulate_stadium_table,
    simulate_turbo_table,
)
from kiosk.kernel.games import stadium, turbo


def _assert_agrees(sim: table_sim.TableSimulation) -> None:
    assert sim.agrees(), [
        (r.wager_id, r.z) for r in sim.pooled + tuple(x for s in sim.per_seat for x in s)
    ]
    assert len(sim.per_seat) == sim.seats


@pytest.mark.parametrize(("mode", "seats", "games"), [("table", 8, 1500), ("stadium", 16, 800)])
def test_turbo_table_agrees_at_every_seat(mode, seats, games):
    sim = simulate_turbo_table(turbo.load("turbo-football"), games, random.Random(21), seats, mode)
    _assert_agrees(sim)
    checked = [c for c in sim.correlations if c.checked]
    assert {c.wager_id for c in checked} == {"first_down", "long_pass", "field_goal", "td"}
    assert all(c.exact is not None and c.agrees() for c in checked)
    bonus = next(c for c in sim.correlations if c.wager_id == "nine_card_bonus")
    assert not bonus.checked and bonus.z is None  # 8 and 9 suited cards are unseen here


def test_stadium_table_agrees_and_seats_are_correlated():
    rules = stadium.load({})
    sim = simulate_stadium_table(
        rules,
        600,
        random.Random(8),
        12,
        stadium_table.wager_pars(rules),
        stadium_table.exact_correlations(rules),
    )
    _assert_agrees(sim)
    corr = {c.wager_id: c for c in sim.correlations}
    assert corr["pairs_plus"].checked and corr["pairs_plus"].z is not None
    # one dealer hand for every seat: the ante/play results move together
    assert corr["ante_play"].observed > 0.15


def test_seats_given_the_same_cards_break_the_checks(monkeypatch):
    """A wrong deal (every seat the first seat's cards) keeps each seat's edge but makes the
    seats perfectly correlated: the correlation checks fail."""
    real = table_sim.deal_turbo

    def shared(*args, **kwargs):
        community, hands = real(*args, **kwargs)
        return community, tuple(hands[0] for _ in hands)

    monkeypatch.setattr(table_sim, "deal_turbo", shared)
    sim = simulate_turbo_table(turbo.load("icon-v2"), 600, random.Random(2), 4, "table")
    assert not sim.agrees()
    assert all(c.observed == pytest.approx(1.0) for c in sim.correlations)


def test_stadium_mode_seats_drawing_from_the_full_deck_break_the_checks(monkeypatch):
    """Seats whose own shuffle ignored the community would hold community cards: the game
    refuses such a hand, so a wrong stadium deal cannot pass silently."""
    real = table_sim.deal_turbo

    def leaky(*args, **kwargs):
        community, hands = real(*args, **kwargs)
        return community, tuple(community + hand[3:] for hand in hands)

    monkeypatch.setattr(table_sim, "deal_turbo", leaky)
    with pytest.raises(Exception, match="repeat"):
        simulate_turbo_table(turbo.load("icon-v2"), 10, random.Random(2), 3, "stadium")


def test_family_bound():
    assert family_bound(1) == 3.0
    assert 3.9 < family_bound(40) < 4.1
    assert family_bound(150) > family_bound(40)


def test_correlation_standard_error_shrinks():
    rules = turbo.load("icon-v2")
    short = simulate_turbo_table(rules, 400, random.Random(1), 6, "stadium")
    long = simulate_turbo_table(rules, 1600, random.Random(1), 6, "stadium")
    for a, b in zip(short.correlations[:3], long.correlations[:3], strict=True):
        assert b.std_error < a.std_error


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_par_sheet_with_seats(capsys):
    code, out, _ = run(capsys, "par-sheet", "icon-v2", "--seats", "8", "--format", "json")
    assert code == 0
    table = json.loads(out)["table"]
    assert (table["seats"], table["mode"]) == (8, "table")
    bet_a = table["wagers"]["bet_a"]
    assert bet_a["house_edge_per_seat"]["exact"] == "73288623/1839537700"
    assert bet_a["correlation_method"] == "exact"
    assert bet_a["correlation_between_seats"] == pytest.approx(0.125818, abs=1e-6)
    code, out, _ = run(capsys, "par-sheet", "icon-v2", "--seats", "100", "--mode", "stadium")
    assert code == 0
    assert "Table of 100 seat(s), stadium mode" in out
    assert "own shuffle of the 49 cards" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["icon-v2", "--seats", "9"], "at most 8 Turbo seats"),
        (["icon-v2", "--mode", "stadium"], "--mode needs --seats"),
        (["stadium-3cp", "--seats", "3", "--mode", "table"], "is for Turbo editions"),
        (["turbo-curling", "--seats", "3"], "unknown edition"),
    ],
)
def test_par_sheet_seat_errors(capsys, argv, message):
    code, out, err = run(capsys, "par-sheet", *argv)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_par_sheet_bad_seat_count_exits_2(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["par-sheet", "icon-v2", "--seats", "0"])
    assert exit_.value.code == 2
    assert "--seats" in capsys.readouterr().err


def test_simulate_many_seats_text_and_json(capsys):
    code, out, _ = run(
        capsys, "simulate", "icon-v2", "--games", "300", "--seats", "20", "--mode", "stadium",
        "--seed", "5",
    )  # fmt: skip
    assert code == 0, out
    assert "300 games, 20 seat(s), stadium mode" in out
    assert "20/20 seats within the bound" in out
    assert "correlation of 2 seats" in out
    code, out, _ = run(
        capsys, "simulate", "stadium-3cp", "--games", "200", "--seats", "6", "--seed", "5",
        "--format", "json",
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["ok"] is True
    assert len(data["per_seat"]) == 6
    assert data["correlations"]["pairs_plus"]["exact"] is not None


@pytest.mark.slow
@pytest.mark.parametrize(
    ("edition", "mode", "seats", "games"),
    [
        ("turbo-football", "table", 8, 100_000),
        ("turbo-football", "stadium", 50, 20_000),
        ("icon-v2", "table", 8, 60_000),
    ],
)
def test_long_turbo_table(edition, mode, seats, games):
    sim = simulate_turbo_table(turbo.load(edition), games, random.Random(1414), seats, mode)
    _assert_agrees(sim)
    assert sum(c.checked for c in sim.correlations) >= 3


@pytest.mark.slow
def test_long_stadium_table():
    rules = stadium.load({})
    sim = simulate_stadium_table(
        rules,
        10_000,
        random.Random(1414),
        50,
        stadium_table.wager_pars(rules),
        stadium_table.exact_correlations(rules),
    )
    _assert_agrees(sim)
