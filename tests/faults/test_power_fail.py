"""A real terminal process killed with SIGKILL at random instants loses nothing."""

import pytest

from tests.faults.power_fail import run_campaign, summary


def test_six_random_kills_lose_nothing(tmp_path):
    """The default run's few kills (the thousand are in tox -e slow)."""
    campaign = run_campaign(tmp_path, kills=6, seed=20261125, kills_per_dir=6)
    print(summary(campaign))
    assert campaign.kills == campaign.restarts == 6
    assert campaign.games > 0


@pytest.mark.slow
@pytest.mark.timeout(4 * 3600)
def test_one_thousand_random_kills_lose_nothing(tmp_path):
    campaign = run_campaign(tmp_path, kills=1000, seed=1000, kills_per_dir=100)
    print(summary(campaign))
    assert campaign.kills == campaign.restarts == 1000
