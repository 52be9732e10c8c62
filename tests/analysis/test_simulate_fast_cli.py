"""``turbokiosk simulate`` on every core: --jobs, exact standard errors, progress, Ctrl-C."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from kiosk import cli
from kiosk.kernel.analysis import fast_sim, turbo_par
from kiosk.kernel.analysis.table_sim import family_bound
from kiosk.kernel.games import nine_card_bonus
from kiosk.kernel.progress import Progress
from kiosk.tools.cli import simulate as cli_simulate


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_result_of_a_seed_does_not_depend_on_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    games = str(fast_sim.CHUNK_ROUNDS + 500)
    args = ("simulate", "turbo-football", "--games", games, "--seed", "9", "--format", "json")
    code1, one, _ = run(capsys, *args, "--jobs", "1")
    code2, two, _ = run(capsys, *args, "--jobs", "2")
    assert (code1, code2) == (0, 0)
    assert json.loads(one) == json.loads(two)


def test_standard_errors_are_the_par_sheets(capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's case: the 9 Card Bonus's error is sqrt(exact variance / games), whatever
    big pays the run saw; the report names the bound and the error's basis."""
    code, out, _ = run(
        capsys,
        "simulate",
        "turbo-football",
        "--games",
        "20000",
        "--seed",
        "1",
        "--format",
        "json",
        "--jobs",
        "1",
    )
    assert code in (0, 1)
    data = json.loads(out)
    row = data["wagers"][nine_card_bonus.KIND]
    variance = turbo_par.par_sheet("turbo-football").wagers[nine_card_bonus.KIND].variance
    assert row["std_error"] == pytest.approx(math.sqrt(variance / 20000), rel=1e-12)
    assert row["error_basis"] == "exact"
    assert row["bound"] == data["bound"] == family_bound(data["checks"])  # 5 wagers, 1 seat
    assert row["z"] == pytest.approx(
        (row["observed_edge"] - row["exact_edge_float"]) / row["std_error"]
    )


def test_text_report_says_the_bound_and_the_basis(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "simulate",
        "stadium-3cp",
        "--games",
        "3000",
        "--seed",
        "2",
        "--seats",
        "2",
        "--jobs",
        "1",
    )
    assert code in (0, 1)
    bound = f"{family_bound(15 + 1 + 2 * 15):.2f}"  # pooled, a correlation, 2 seats x 15
    assert "46 checks (pooled wagers, checked correlations, every seat's wagers)" in out
    assert f"(|z| <= {bound}, exact error)" in out  # Pairs Plus: exact covariance
    assert f"(|z| <= {bound}, bound error)" in out  # ante and play: covariance <= variance


class _CtrlCOnSecondChunk(Progress):
    def update(self, done: int) -> None:
        super().update(done)
        if done >= 2 * fast_sim.CHUNK_ROUNDS:
            raise KeyboardInterrupt


def test_ctrl_c_prints_the_partial_report_and_exits_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli_simulate, "Progress", _CtrlCOnSecondChunk)
    games = 5 * fast_sim.CHUNK_ROUNDS
    code, out, err = run(
        capsys,
        "simulate",
        "stadium-3cp",
        "--games",
        str(games),
        "--seed",
        "1",
        "--jobs",
        "1",
        "--format",
        "json",
    )
    assert code == 130
    data: dict[str, Any] = json.loads(out)
    assert data["interrupted"] is True
    assert data["games"] == 2 * fast_sim.CHUNK_ROUNDS
    assert data["requested_games"] == games
    assert "interrupted after 65,536 of 163,840 games" in err


def test_progress_lines_go_to_stderr(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    """Off a terminal: plain lines (every few seconds; here every update)."""

    class Often(Progress):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, every=0.0, **kwargs)

    monkeypatch.setattr(cli_simulate, "Progress", Often)
    games = 2 * fast_sim.CHUNK_ROUNDS
    code, out, err = run(
        capsys, "simulate", "turbo-football", "--games", str(games), "--seed", "1", "--jobs", "1"
    )
    assert code in (0, 1)
    assert "simulate: 50% (32,768 of 65,536 games)" in err
    assert "simulate:" not in out
