"""The controller's side of the shuffler link (sans-IO): what to ask, what was presented.

:class:`ShufflerSession` turns the table's needs into ``ShufflerCommand`` payloads and the
shuffler's ``ShufflerReport`` payloads into what the controller knows: the deck read for the
round (:class:`~kiosk.table.core.commands.DeckReading`), the pack presented now, and a fault (a jam,
an empty deck).  It believes nothing: every presented pack goes through the core's one card
check when the dealer lays it.  A payload that is not a report, or a report of another round,
is dropped and counted.  The transport is :class:`kiosk.terminal.devices.serial_port.LinkChannel`
(the sealed device link, paired like the validator and the printer).
"""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import DecodeError

from kiosk.table.core.commands import DeckReading
from proto.turbokiosk.v1 import shuffler_pb2 as pb


@dataclass(frozen=True)
class Presented:
    """A pack the shuffler presents (under the number it gives it)."""

    game_number: int
    pack: int
    cards: tuple[int, ...]
    shuffle: int


@dataclass(frozen=True)
class Fault:
    """The shuffler cannot present pack ``pack``."""

    game_number: int
    pack: int
    reason: str


class ShufflerSession:
    """What the controller has asked of its shuffler and what it has reported, for one round."""

    def __init__(self) -> None:
        self.game = 0
        self.deck: DeckReading | None = None
        self.presented: Presented | None = None
        self.fault: Fault | None = None
        self.dropped = 0

    def start_round(self, game_number: int, next_pack: int = 1) -> bytes:
        """Ask for a round's packs (again after a restart: the round's deck, ``next_pack``)."""
        if game_number != self.game:
            self.game, self.deck = game_number, None
        self.presented = self.fault = None
        return _cmd(start_round=pb.StartRound(game_number=game_number, next_pack=next_pack))

    def take(self, pack: int) -> bytes:
        """The dealer took pack ``pack``: the next one, please."""
        self.presented = None
        return _cmd(take_pack=pb.TakePack(game_number=self.game, pack=pack))

    def read_again(self, pack: int) -> bytes:
        """Present pack ``pack`` again (the supervisor's re-read)."""
        self.presented = self.fault = None
        return _cmd(read_again=pb.ReadAgain(game_number=self.game, pack=pack))

    def end_round(self) -> bytes:
        """The round is over."""
        self.presented = self.fault = None
        return _cmd(end_round=pb.EndRound(game_number=self.game))

    def receive(self, payload: bytes) -> Presented | Fault | None:
        """Take a report; the pack or fault it brings (None: a deck read, or dropped)."""
        try:
            report = pb.ShufflerReport.FromString(payload)
        except DecodeError:
            self.dropped += 1
            return None
        kind = report.WhichOneof("body")
        if kind == "deck_read" and report.deck_read.game_number == self.game:
            read = report.deck_read
            self.deck = DeckReading(read.shuffle, tuple(read.cards))
            return None
        if kind == "pack_presented" and report.pack_presented.game_number == self.game:
            got = report.pack_presented
            self.presented = Presented(self.game, got.pack, tuple(got.cards), got.shuffle)
            self.fault = None
            return self.presented
        if kind == "fault" and report.fault.game_number == self.game:
            detail = report.fault.detail or pb.ShufflerFault.Kind.Name(report.fault.kind)
            self.fault = Fault(self.game, report.fault.pack, f"shuffler: {detail}")
            self.presented = None
            return self.fault
        self.dropped += 1
        return None


def _cmd(**body: object) -> bytes:
    return pb.ShufflerCommand(**body).SerializeToString()  # type: ignore[arg-type]
