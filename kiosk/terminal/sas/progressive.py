"""Progressives over SAS: the level broadcasts (80, 86), the win reports (84, 85, 87) and the
progressive win exceptions (54, 56).

A progressive win is read from the progressive's journal (:class:`Progressives`, the meter's
controller on this terminal: :mod:`kiosk.terminal.progressive`), never from a second copy, so
what SAS reports equals the journal to the cent:

- ``84`` *send progressive win amount*: the last win (group, level, amount; zeros before any);
- ``85`` *send SAS progressive win amount*: the oldest win the host has not been sent, then the
  next on the next poll (a repeated poll is answered again from memory: ``REPLAYED``);
- ``87`` *send multiple SAS progressive win amounts*: every win not yet sent (up to 10);
- exception ``56`` *SAS progressive level hit* is queued once per win, and ``54`` *progressive
  win* after it when the win was paid as credits (a handpay win has the handpay flow's ``51``).

Which wins were announced and which were sent are kept in the SAS store's meta (durable), so a
power cut neither repeats nor loses one.  ``80`` and ``86`` (a host-controlled progressive's
level amounts, usually broadcast to address 0) are kept in memory with the time they came
(:attr:`ProgressiveLink.broadcasts`) for the display; they are never answered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from kiosk.kernel.games.progressive import LevelAmount, Win
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.queue import ExceptionQueue, NewException
from kiosk.terminal.sas.wire import LongPollFrame

#: the most wins one 87 carries
MAX_WINS_PER_REPORT = 10
_ANNOUNCED = "progressive_announced"
_SENT = "progressive_sent"


class Progressives(Protocol):
    """This machine's progressive wins, from the progressive's journal."""

    def wins(self) -> tuple[Win, ...]:
        """Every win of this machine, oldest first (``seq`` from 1)."""
        ...


class _Stats(Protocol):
    @property
    def last_poll_at(self) -> float | None: ...


class SasMachine(Protocol):
    """What the progressive polls use of :class:`kiosk.terminal.sas.machine.SasMachine`."""

    @property
    def queue(self) -> ExceptionQueue: ...

    @property
    def progressives(self) -> ProgressiveLink | None: ...

    @property
    def stats(self) -> _Stats: ...

    def respond(self, command: int, data: bytes) -> bytes: ...


class MalformedProgressiveError(ValueError):
    """An 80 or 86 whose data does not parse."""


@dataclass
class ProgressiveLink:
    """The SAS side of this machine's progressives."""

    source: Progressives
    #: (group, level) -> (cents, monotonic seconds) from the host's 80 and 86
    broadcasts: dict[tuple[int, int], tuple[int, float]] = field(default_factory=dict)

    def announce(self, m: SasMachine) -> None:
        """Queue exception 56 (or 54) for every win not yet announced (durable cursor)."""
        done = int(m.queue.get_meta(_ANNOUNCED, "0"))
        new = [w for w in self.source.wins() if w.seq > done]
        if not new:
            return
        codes = [
            code
            for w in new
            for code in (
                (wire.ExceptionCode.SAS_PROGRESSIVE_LEVEL_HIT,)
                if w.handpay
                else (
                    wire.ExceptionCode.SAS_PROGRESSIVE_LEVEL_HIT,
                    wire.ExceptionCode.PROGRESSIVE_WIN,
                )
            )
        ]
        m.queue.push(NewException(code) for code in codes)
        m.queue.set_meta(_ANNOUNCED, str(new[-1].seq))

    def unsent(self, m: SasMachine) -> list[Win]:
        """Wins the host has not been sent by 85 or 87."""
        sent = int(m.queue.get_meta(_SENT, "0"))
        return [w for w in self.source.wins() if w.seq > sent]

    def mark_sent(self, m: SasMachine, win: Win) -> None:
        """The host was sent ``win`` (and every earlier one)."""
        m.queue.set_meta(_SENT, str(win.seq))

    def broadcast(self, frame: LongPollFrame, now: float) -> None:
        """Keep the level amounts of an 80 or 86 (:class:`MalformedProgressiveError`)."""
        for amount in parse_broadcast(frame):
            self.broadcasts[(amount.group, amount.level)] = (amount.cents, now)


def parse_broadcast(frame: LongPollFrame) -> list[LevelAmount]:
    """The levels of an 80 (group, level, 5 BCD) or an 86 (length, group, n x (level, 5 BCD))."""
    data = frame.data
    try:
        if frame.command == wire.LongPoll.SINGLE_LEVEL_PROGRESSIVE_BROADCAST:
            return [LevelAmount(data[0], _level(data[1]), wire.from_bcd(data[2:7]))]
        body = data[1:]
        if len(body) < 7 or (len(body) - 1) % 6 or data[0] != len(body):
            raise MalformedProgressiveError(f"86 with {len(body)} data bytes")
        group = body[0]
        return [
            LevelAmount(group, _level(body[i]), wire.from_bcd(body[i + 1 : i + 6]))
            for i in range(1, len(body), 6)
        ]
    except wire.BcdError as exc:
        raise MalformedProgressiveError(str(exc)) from exc


def _level(value: int) -> int:
    if not 1 <= value <= 32:
        raise MalformedProgressiveError(f"level {value} is not 1..32")
    return value


def _amount(win: Win | None) -> bytes:
    if win is None:
        return bytes([0, 0]) + wire.to_bcd(0, 5)
    return bytes([win.amount.group, win.amount.level]) + wire.to_bcd(win.amount.cents, 5)


def _link(m: SasMachine) -> ProgressiveLink | None:
    return m.progressives


def _broadcast(m: SasMachine, frame: LongPollFrame) -> bytes | None:
    link = _link(m)
    if link is not None:
        link.broadcast(frame, m.stats.last_poll_at or 0.0)
    return None  # never answered


def _win_amount(m: SasMachine, frame: LongPollFrame) -> bytes | None:
    link = _link(m)
    if link is None:
        return None
    wins = link.source.wins()
    return m.respond(frame.command, _amount(wins[-1] if wins else None))


def _sas_win_amount(m: SasMachine, frame: LongPollFrame) -> bytes | None:
    link = _link(m)
    if link is None:
        return None
    unsent = link.unsent(m)
    if not unsent:
        return m.respond(frame.command, _amount(None))
    link.mark_sent(m, unsent[0])
    return m.respond(frame.command, _amount(unsent[0]))


def _multiple_win_amounts(m: SasMachine, frame: LongPollFrame) -> bytes | None:
    link = _link(m)
    if link is None:
        return None
    wins = link.unsent(m)[:MAX_WINS_PER_REPORT]
    group = wins[0].amount.group if wins else 0
    wins = [w for w in wins if w.amount.group == group]  # one group a report
    body = bytes([group, len(wins)]) + b"".join(
        bytes([w.amount.level]) + wire.to_bcd(w.amount.cents, 5) for w in wins
    )
    if wins:
        link.mark_sent(m, wins[-1])
    return m.respond(frame.command, bytes([len(body)]) + body)


P = wire.LongPoll
Handler = Callable[[SasMachine, LongPollFrame], bytes | None]

#: the progressive long polls (merged into :data:`kiosk.terminal.sas.machine.LONG_POLLS`)
LONG_POLLS: dict[int, Handler] = {
    P.SINGLE_LEVEL_PROGRESSIVE_BROADCAST: _broadcast,
    P.MULTIPLE_LEVEL_PROGRESSIVE_BROADCAST: _broadcast,
    P.SEND_PROGRESSIVE_WIN_AMOUNT: _win_amount,
    P.SEND_SAS_PROGRESSIVE_WIN_AMOUNT: _sas_win_amount,
    P.SEND_MULTIPLE_SAS_PROGRESSIVE_WIN_AMOUNTS: _multiple_win_amounts,
}
#: the ones answered again from memory when repeated at once (they move the sent cursor)
REPLAYED = frozenset(
    {P.SEND_SAS_PROGRESSIVE_WIN_AMOUNT, P.SEND_MULTIPLE_SAS_PROGRESSIVE_WIN_AMOUNTS}
)
#: the ones acted on when broadcast to address 0
BROADCASTS = frozenset(
    {P.SINGLE_LEVEL_PROGRESSIVE_BROADCAST, P.MULTIPLE_LEVEL_PROGRESSIVE_BROADCAST}
)
