"""The shuffler on its serial port: the sealed device link's thread plus the sans-IO session.

:class:`ShufflerFeed` sends the session's commands over a
:class:`~kiosk.terminal.devices.serial_port.LinkChannel` (COBS/CRC frames, the sealed link with the
shuffler's pairing key, retransmission, link loss) and :meth:`ShufflerFeed.poll` hands the
server what arrived: packs presented, faults, and whether the link came (back) up, so the
server can ask again for the round's next pack.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.table.core.shuffler_link import Fault, Presented, ShufflerSession
from kiosk.terminal.devices.link import Delivered, LinkDown, LinkUp
from kiosk.terminal.devices.serial_port import LinkChannel


@dataclass(frozen=True)
class LinkCameUp:
    """The shuffler answers (again): ask for what the round waits for."""


@dataclass(frozen=True)
class LinkLost:
    """The shuffler stopped answering."""


FeedEvent = Presented | Fault | LinkCameUp | LinkLost


class ShufflerFeed:
    """One shuffler on a serial port."""

    def __init__(self, port: str, key: bytes) -> None:
        self.port = port
        self.session = ShufflerSession()
        self.channel = LinkChannel(port, key=key, name="shuffler")
        self.up = False

    def start(self) -> ShufflerFeed:
        self.channel.start()
        return self

    def send(self, payload: bytes) -> None:
        self.channel.send(payload)

    def poll(self) -> list[FeedEvent]:
        """Everything that arrived since the last poll (never waits)."""
        out: list[FeedEvent] = []
        while (event := self.channel.get(0)) is not None:
            if isinstance(event, Delivered):
                got = self.session.receive(event.payload)
                if got is not None:
                    out.append(got)
            elif isinstance(event, LinkUp):
                self.up = True
                out.append(LinkCameUp())
            elif isinstance(event, LinkDown):
                self.up = False
                out.append(LinkLost())
        return out

    def problem(self) -> str:
        """Why the shuffler does not answer (naming the port), or ""."""
        return "" if self.up else self.channel.port_problem()

    def close(self) -> None:
        self.channel.close()
