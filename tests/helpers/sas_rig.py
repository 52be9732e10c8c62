"""A SAS machine on a terminal, and framing helpers for the SAS tests."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.terminal.app.wiring import Terminal
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.crc import with_crc
from kiosk.terminal.sas.link import SasLink
from kiosk.terminal.sas.machine import Reply
from kiosk.terminal.textui.session import PlaySession

ADDRESS = 3


@dataclass
class SasRig:
    """A terminal, its text session (to play), its SAS link, and a host that polls it."""

    terminal: Terminal
    session: PlaySession
    link: SasLink
    now: float = 1000.0
    lines: list[str] | None = None

    def play(self, *lines: str) -> None:
        for line in lines:
            self.session.handle(line)

    def send(self, data: bytes) -> list[Reply]:
        """Bytes as the host sends them, each poll after a quiet line."""
        self.now += 0.05
        return self.link.machine.feed(data, self.now)

    def poll(self, data: bytes) -> bytes | None:
        """One poll; the reply's bytes or None."""
        replies = self.send(data)
        assert len(replies) <= 1, replies
        if not replies:
            return None
        return replies[0].data

    def long(self, command: int, data: bytes = b"") -> bytes:
        """A long poll's response data (CRC checked); fails on no answer."""
        reply = self.poll(wire.long_poll(ADDRESS, command, data))
        assert reply is not None, f"no answer to {command:02X}"
        return wire.parse_response(reply, command)

    def general(self) -> int:
        """A general poll's exception; after one, the broadcast general poll (80) that a
        single-machine host sends to acknowledge it (a poll to another address)."""
        reply = self.poll(wire.general_poll(ADDRESS))
        assert reply is not None and len(reply) == 1, reply
        if reply[0]:
            self.acknowledge()
        return reply[0]

    def acknowledge(self) -> None:
        """The sync poll: the general poll of the broadcast address, which no machine answers."""
        assert self.send(b"\x80") == []

    def drain(self) -> list[int]:
        codes = []
        while (code := self.general()) != 0:
            codes.append(code)
        return codes

    def m_poll(self, command: int, body: bytes) -> bytes:
        return self.long(command, bytes([len(body)]) + body)


def crc_frame(*parts: int) -> bytes:
    return with_crc(bytes(parts))
