"""The progressives a terminal tells its host of (decision 0067, docs/host.md "Progressives").

A reading is display data for the floor dashboard, never money (the progressive's journal is
the record): the host link sends one ``progressive`` message per reading with each periodic or
requested meter snapshot, outside the outbox (:attr:`HostLink.progressive_readings`).  Two
sources of readings:

- :func:`standalone_readings`: a terminal's own meter, read from its controller (reset, hits
  and the last award included);
- :func:`seat_readings`: a seat's table progressive as the table last told it (the round's
  opening): name and amount only, the table being the meter's keeper.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from proto.turbokiosk.v1 import host_pb2


@dataclass(frozen=True)
class ProgressiveReading:
    """One progressive meter as this terminal knows it now."""

    name: str
    mode: str  # "standalone" or "table"
    source: str  # where the meter is kept: the terminal id or the table id
    meter_cents: int
    reset_cents: int = 0  # 0: not known here
    hits: int = 0
    last_hit_cents: int = 0
    hits_known: bool = False

    def message(self, message_id: str, seq: int, at: int) -> host_pb2.TerminalMessage:
        """The reading as a store-and-forward message (sent outside the outbox)."""
        msg = host_pb2.TerminalMessage(message_id=message_id, journal_seq=seq, at_ms=at)
        msg.progressive.CopyFrom(
            host_pb2.TerminalMessage.ProgressiveMeter(
                name=self.name,
                mode=self.mode,
                source=self.source,
                meter_cents=self.meter_cents,
                reset_cents=self.reset_cents,
                hits=self.hits,
                last_hit_cents=self.last_hit_cents,
                hits_known=self.hits_known,
            )
        )
        return msg


#: what a link asks for with each snapshot (on the terminal's thread)
Readings = Callable[[], Sequence[ProgressiveReading]]


class _Award(Protocol):
    @property
    def award_cents(self) -> int: ...


class _Round(Protocol):
    @property
    def hits(self) -> Sequence[_Award]: ...


class _Meters(Protocol):
    @property
    def meter_cents(self) -> int: ...

    @property
    def hits(self) -> int: ...


class _MeterSettings(Protocol):
    @property
    def reset_cents(self) -> int: ...


class _Settings(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def meter(self) -> _MeterSettings: ...


class Controller(Protocol):
    """What a reading needs of a progressive controller
    (:class:`kiosk.terminal.progressive.controller.ProgressiveController`)."""

    @property
    def settings(self) -> _Settings: ...

    def meters(self) -> _Meters: ...

    def rounds(self) -> Sequence[_Round]: ...


def standalone_readings(controller: Controller, terminal_id: str) -> Readings:
    """A terminal's own meter, read from its controller at each snapshot."""

    def read() -> list[ProgressiveReading]:
        meters = controller.meters()
        last = 0
        if meters.hits:
            for booked in reversed(controller.rounds()):
                if booked.hits:
                    last = booked.hits[-1].award_cents
                    break
        return [
            ProgressiveReading(
                name=controller.settings.name,
                mode="standalone",
                source=terminal_id,
                meter_cents=meters.meter_cents,
                reset_cents=controller.settings.meter.reset_cents,
                hits=meters.hits,
                last_hit_cents=last,
                hits_known=True,
            )
        ]

    return read


class _SeatStatus(Protocol):
    @property
    def table_id(self) -> str: ...

    @property
    def progressive(self) -> tuple[str, int] | None: ...

    @property
    def progressive_name(self) -> str: ...


def seat_readings(status: Callable[[], _SeatStatus]) -> Readings:
    """A seat's table progressive as the table told it when the last round opened (none before
    a round opens, or at a table without one)."""

    def read() -> list[ProgressiveReading]:
        now = status()
        if now.progressive is None or not now.progressive_name:
            return []
        return [
            ProgressiveReading(
                name=now.progressive_name,
                mode="table",
                source=now.table_id,
                meter_cents=now.progressive[1],
            )
        ]

    return read
