"""Host and terminal processes SIGKILLed at random instants: afterwards they agree on everything."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.host.kill_campaign import Campaign


def test_a_few_kills_of_each(tmp_path: Path) -> None:
    result = Campaign(tmp_path, seed=7).run(kills_each=3, pause=(0.8, 1.6))
    assert result.problems == []
    assert result.games > 0 and result.host_events > 0


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_two_hundred_kills_of_each(tmp_path: Path) -> None:
    result = Campaign(tmp_path, seed=2026).run(kills_each=200)
    print(
        f"\nkill campaign: {result.host_kills} host kills, {result.terminal_kills} terminal "
        f"kills in {result.seconds:.0f} s; {result.games} games, {result.notes} notes, "
        f"{result.vouchers_printed} vouchers printed, {result.tickets_redeemed} tickets "
        f"redeemed; {result.host_events} events on the host; problems: {result.problems}"
    )
    assert result.problems == []
    assert result.tickets_redeemed > 0 and result.vouchers_printed > 0
