"""Fixtures and hooks for the whole suite: the PostgreSQL server (host and dashboard), and,
under pytest-xdist (decision 0047), a Kivy settings directory per worker and the longest
tests handed out first.

Kivy writes ``config.ini`` into ``KIVY_HOME`` the first time it is imported; two workers must not
write the same file at once, so a worker appends its name (``gw0``, ``gw1``...) before any test
module imports Kivy.

xdist hands tests out in collection order, so a test of a minute or two collected late (the
table's are) would run alone at the end while the other workers sit idle. Under xdist the tests
named in :data:`LONGEST` go first. They are named by function, not path, so a moved module keeps
its place; a name that no longer exists changes nothing. A run without xdist keeps both the
order and ``KIVY_HOME`` as they are.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker and os.environ.get("KIVY_HOME"):
    os.environ["KIVY_HOME"] = f"{os.environ['KIVY_HOME']}-{_worker}"

#: the default run's longest tests (``--durations``, docs/performance.md), longest first
LONGEST = (
    "test_a_few_rounds_every_tamper_refused_and_the_seats_reconcile",
    "test_every_service_page_speaks_spanish",
    "test_every_label_is_legible_at_800x480",
    "test_every_hit_at_a_table_is_paid_on_its_seat_once",
    "test_killed_mid_game_the_kiosk_comes_back_to_the_same_screen",
    "test_a_small_kill_campaign",
    "test_a_small_hits_paid_campaign_pays_every_hit_once",
    "test_the_documented_path_seats_a_kiosk",
    "test_a_few_kills_of_each",
    "test_the_command_line_retires_and_refuses_in_one_line",
    "test_the_documented_table_setup_keeps_its_one_ca",
    "test_a_controller_killed_at_random_instants_recovers",
    "test_a_field_terminal_comes_up_talking_to_its_devices_and_host",
    "test_a_small_kill_campaign_reconciles_to_the_cent",
    "test_the_kiosk_runs_its_own_meter",
    "test_a_table_books_on_the_linked_controller",
    "test_ctrl_c_pressed_again_while_the_kiosk_stops_does_not_cut_the_stop_short",
    "test_serve_deals_for_a_seat_and_recall_shows_the_round",
    "test_small_floor_on_the_stream",
    "test_ctrl_c_stops_the_kiosk_in_order",
    "test_streams_of_seat_commands_ticks_and_kills",
    "test_enrol_list_and_retire_on_the_command_line",
    "test_run_on_a_locked_terminal_says_why_at_once_and_exits_3",
    "test_readers_say_first_that_power_up_refuses_an_old_copy_of_the_store",
    "test_robots_on_an_empty_pki_make_the_ca_where_the_host_looks",
)


def pytest_configure(config: pytest.Config) -> None:
    """Long campaigns draw progress past the capture (tests/helpers/campaign_progress.py)."""
    from tests.helpers import campaign_progress

    campaign_progress.attach(config.pluginmanager.getplugin("capturemanager"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under xdist, the :data:`LONGEST` tests first (a stable sort: the rest keep their order)."""
    if not _worker:  # xdist's workers collect; the controller hands out their items in order
        return
    rank = {name: i for i, name in enumerate(LONGEST)}
    items.sort(key=lambda item: rank.get(getattr(item, "originalname", item.name), len(rank)))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[object]:
    from tests.helpers.postgres import PostgresServer, binaries

    if binaries() is None:
        pytest.skip("PostgreSQL server binaries not installed (Debian package postgresql)")
    server = PostgresServer()
    yield server
    server.stop()
