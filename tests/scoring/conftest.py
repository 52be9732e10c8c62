"""Prints the scoring benchmark's ratio table at the end of a run that timed it."""

from __future__ import annotations

from typing import Any

from tests.scoring import test_bench_scoring


def pytest_terminal_summary(terminalreporter: Any) -> None:
    lines = test_bench_scoring.ratio_table()
    if lines:
        terminalreporter.section("icon scoring ratios")
        for line in lines:
            terminalreporter.write_line(line)
