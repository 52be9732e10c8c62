"""``turbokiosk par-sheet`` and ``turbokiosk simulate`` for the Turbo editions, and their
dispatch of Stadium Three Card Poker."""

import json

import pytest

from kiosk import cli
from kiosk.tools.cli import par_sheet as cli_par_sheet


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_par_sheet_json(capsys):
    code, out, _ = run(
        capsys, "par-sheet", "icon-v2", "--paytable", "bet_b=flat", "--format", "json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["edition"] == "icon-v2"
    assert list(data["wagers"]) == ["bet_a", "bet_b", "bet_c", "nine_card_bonus"]
    assert data["wagers"]["bet_b"]["paytable"] == "flat"
    assert data["wagers"]["bet_b"]["house_edge"] == "1899382/35375725"
    assert data["wagers"]["bet_a"]["strategy"].startswith("Raise exactly when")


def test_par_sheet_text_flags_long_odds(capsys):
    code, out, _ = run(
        capsys,
        "par-sheet",
        "turbo-hockey",
        "--paytable",
        "nine_card_bonus=2-10-50-200-1000-5000-sf-10000-500000",
    )
    assert code == 0
    assert "Turbo Hockey (turbo-hockey)" in out
    assert "NOTE: '9-card straight flush' odds 1 in 613,179,233" in out


def test_par_sheet_without_the_bonus(capsys):
    code, out, _ = run(
        capsys,
        "par-sheet",
        "turbo-football",
        "--paytable",
        "nine_card_bonus=off",
        "--format",
        "json",
    )
    assert code == 0
    assert "nine_card_bonus" not in json.loads(out)["wagers"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["turbo-curling"], "unknown edition 'turbo-curling'; known: "),
        (["icon-v2", "--paytable", "bet_b"], "--paytable wants WAGER=NAME_OR_FILE"),
        (["icon-v2", "--paytable", "bet_b=flat", "--paytable", "bet_b=standard"], "twice"),
        (["icon-v2", "--paytable", "bet_b=gold"], "no pay table named 'gold'"),
        (["icon-v2", "--paytable", "td=standard"], "no wager 'td'"),
        (["icon-v2", "--paytable", "nine_card_bonus=/nonexistent/x.toml"], "cannot be read"),
    ],
)
def test_par_sheet_errors(capsys, argv, message):
    code, out, err = run(capsys, "par-sheet", *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("turbokiosk par-sheet: error: ")
    assert message in err


def test_stadium_is_dispatched_to_its_own_module():
    from kiosk.kernel.analysis import stadium_par

    assert cli_par_sheet.par_sheet_function("stadium-3cp") is stadium_par.par_sheet
    assert "stadium-3cp" in cli_par_sheet.edition_ids()


def test_simulate_agrees(capsys):
    code, out, _ = run(
        capsys, "simulate", "turbo-football", "--games", "1500", "--seed", "3", "--seats", "2"
    )
    assert code == 0
    assert "1,500 games, 2 seat(s), table mode, PCG64 chunks, seed 3" in out
    assert "all wagers agree" in out


def test_simulate_json(capsys):
    code, out, _ = run(
        capsys, "simulate", "icon-v2", "--games", "500", "--seed", "4", "--format", "json"
    )
    data = json.loads(out)
    assert code == 0
    assert data["ok"] is True
    assert data["wagers"]["bet_a"]["exact_edge"] == "73288623/1839537700"
    assert set(data["wagers"]) == {"bet_a", "bet_b", "bet_c", "nine_card_bonus"}


def test_simulate_from_the_csprng(capsys):
    code, out, _ = run(capsys, "simulate", "turbo-baseball", "--games", "200", "--seed-from-os")
    assert code in (0, 1)  # random by design; 1 would mean a (rare) 3-SE excursion
    assert "drawn from the OS (repeat: --seed)" in out


def test_simulate_exits_1_on_disagreement(capsys, monkeypatch):
    import dataclasses

    from kiosk.kernel.analysis import fast_sim, simulate

    real = fast_sim.report

    def shifted(*args, **kwargs):
        sim = real(*args, **kwargs)
        pooled = tuple(
            simulate.SimulatedWager(
                r.wager_id, r.games, r.observed_edge + 1, r.std_error, r.exact_edge
            )
            for r in sim.pooled
        )
        return dataclasses.replace(sim, pooled=pooled)

    monkeypatch.setattr(fast_sim, "report", shifted)
    code, out, _ = run(capsys, "simulate", "icon-v2", "--games", "100", "--seed", "1")
    assert code == 1
    assert "OUTSIDE" in out
    assert "DISAGREEMENT" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["turbo-curling", "--games", "10"], "unknown edition"),
        (["icon-v2", "--games", "1"], "at least 2 games"),
        (["icon-v2", "--games", "10", "--seats", "9"], "at most 8 Turbo seats"),
        (["stadium-3cp", "--games", "10", "--seats", "2", "--mode", "table"], "Turbo editions"),
    ],
)
def test_simulate_errors(capsys, argv, message):
    code, _, err = run(capsys, "simulate", *argv)
    assert code == 2
    assert message in err
