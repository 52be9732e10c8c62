"""From the dealer's Confirm to every seat's settled message at 100 seats (``tox -e bench``),
with the bare broadcast measured in the same run as its baseline
(:mod:`tests.table.dealer_bench`; the figures are in docs/table.md).  Not a timed assertion:
it checks every round reached every seat, and reports."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.table.dealer_bench import HEADER, measure


@pytest.mark.bench
def test_confirm_to_every_seat_settled_against_a_bare_broadcast(
    benchmark: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seats = 100
    table, bare = benchmark.pedantic(measure, args=(seats, 5, tmp_path), rounds=1, iterations=1)
    assert table.rounds == bare.rounds == 5
    assert len(table.deliveries) == len(bare.deliveries) == 5 * seats
    benchmark.extra_info.update(
        table=table.line("table", seats), bare=bare.line("bare", seats), header=HEADER
    )
    with capsys.disabled():
        print(f"\n{HEADER}\n{table.line('table', seats)}\n{bare.line('bare', seats)}")
