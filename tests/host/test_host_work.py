"""The in-process measurement of the host's own work (:mod:`tests.host.host_work`) runs and
says what it measured; bad options get one line and exit 2."""

from __future__ import annotations

import re

import pytest

from tests.host import host_work


def test_host_work_measures_the_host_beside_its_baseline(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert host_work.main(["--terminals", "5", "--seconds", "0.5"]) == 0
    line = capsys.readouterr().out.strip()
    found = re.search(
        r"5 terminals back to back, ([\d,]+) reports .* whole ([\d.]+) ms \(event loop ([\d.]+),"
        r" writer ([\d.]+)\); baseline .* ([\d.]+) ms; the host's work ([-\d.]+) ms",
        line,
    )
    assert found is not None, line
    reports = int(found.group(1).replace(",", ""))
    whole, loop, writer, base, work = (float(found.group(i)) for i in range(2, 7))
    assert reports > 0
    assert whole > base > 0 and work == pytest.approx(whole - base, abs=1e-3)
    assert loop > 0 and writer >= 0  # (thread CPU in clock ticks: no finer comparison)


def test_host_work_refuses_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert host_work.main(["--terminals", "0"]) == 2
    assert capsys.readouterr().err.strip() == (
        "host_work: --terminals at least 1, --seconds above 0"
    )
