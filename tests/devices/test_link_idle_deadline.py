"""A link that never hears its peer asks to be woken for its next hello, not at once (a loop
that sleeps until ``next_deadline`` spun at full speed once the link time-out had passed)."""

from __future__ import annotations

from kiosk.terminal.devices.link import Link, LinkConfig
from kiosk.terminal.devices.seal import Role


def test_a_link_alone_sleeps_until_its_next_hello() -> None:
    config = LinkConfig()
    link = Link(7, 1000, config, key=bytes(32), role=Role.DEVICE)
    for now in range(1000, 1000 + 10 * config.link_timeout_ms, 37):
        link.tick(now)
        link.data_to_send()
        assert now < link.next_deadline() <= now + config.retransmit_ms
