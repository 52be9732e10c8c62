"""Prints the scoring benchmark's ratio table at the end of a run that timed it."""

from __future__ import annotations

from typing import Any

from tests.helpers.scoring_bench import ratio_table


def pytest_terminal_summary(terminalreporter: Any) -> None:
    lines = ratio_table()
    if lines:
        terminalreporter.section("icon scoring ratios")
        for line in lines:
            terminalreporter.write_line(line)
