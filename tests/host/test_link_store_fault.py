"""The host link outlives its own store failing: a full disk when the outbox is acknowledged.

The host committed the batch, the terminal could not delete it from its outbox (no space for
the write): the batch stays and is sent again, the host keeps each message once, and once
space is back the outbox empties.  Before, the sender thread died on the store error and the
terminal never reported to the host again (nor noticed the link as lost).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.helpers.host_rig import HostRig, TerminalRig
from tests.helpers.store_faults import fill, mounted


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs for the terminal's data directory."""
    with mounted(tmp_path / "small", "-t", "tmpfs", "-o", "size=1m", "tmpfs") as disk:
        yield disk


def test_a_full_disk_at_the_acknowledgement_delays_delivery_and_loses_nothing(
    host: HostRig, small_disk: Path, make_terminal: Callable[..., TerminalRig]
) -> None:
    rig = make_terminal(host.endpoint(), name=str(small_disk / "terminal")).start()
    rig.pump_until(lambda: rig.link.connected and rig.outbox_empty())
    host.stop()
    assert rig.validator.insert(2000)
    rig.pump_until(lambda: not rig.outbox_empty())  # the note journaled, owed to the host
    sent = rig.link.delivered
    filler = small_disk / "filler"
    assert fill(filler) > 0
    host.start()
    # delivered twice: the host took it, the outbox could not forget it, it went again
    rig.pump_until(lambda: rig.link.delivered >= sent + 4, timeout=30)
    assert not rig.outbox_empty()
    filler.unlink()
    rig.pump_until(rig.outbox_empty, timeout=30)
    assert all(thread.is_alive() for thread in rig.link._threads)
    assert host.db is not None
    notes = [r for r in host.db.events("TK-A", last=100) if r.kind == "bill_stacked"]
    assert [r.body["value_cents"] for r in notes] == [2000]
