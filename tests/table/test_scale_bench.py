"""The table at scale (``tox -e bench``): one controller with 10, 50, 100 and 200 seats on
loopback, with the bare broadcast measured in the same run as its baseline
(:mod:`tests.table.scale_bench`; the figures are in docs/table.md and docs/performance.md).
Not a timed assertion: it checks every round reached every seat, and reports."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.table.scale_bench import HEADER, measure, measure_signing


@pytest.mark.bench
@pytest.mark.parametrize("seats", [10, 50, 100, 200])
def test_table_fan_out_against_a_bare_broadcast(
    seats: int, benchmark: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table, bare = benchmark.pedantic(measure, args=(seats, 5, tmp_path), rounds=1, iterations=1)
    assert table.rounds == bare.rounds == 5
    assert len(table.deliveries) == len(bare.deliveries) == 5 * seats
    benchmark.extra_info.update(
        table=table.line("table", seats), bare=bare.line("bare", seats), header=HEADER
    )
    with capsys.disabled():
        print(f"\n{HEADER}\n{table.line('table', seats)}\n{bare.line('bare', seats)}")


@pytest.mark.bench
def test_signed_table_fan_out_against_the_unsigned(
    benchmark: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Decision 0036: the fan-out at 100 seats with the signed table journal, and without it
    (the controller unsigned) in the same run, alternated twice."""
    signed, unsigned = benchmark.pedantic(
        measure_signing, args=(100, 5, tmp_path), rounds=1, iterations=1
    )
    assert signed.rounds == unsigned.rounds == 10
    assert len(signed.deliveries) == len(unsigned.deliveries) == 10 * 100
    benchmark.extra_info.update(
        signed=signed.line("signed", 100), unsigned=unsigned.line("unsigned", 100), header=HEADER
    )
    with capsys.disabled():
        print(f"\n{HEADER}\n{signed.line('signed', 100)}\n{unsigned.line('unsigned', 100)}")
