"""One client process of the paced floor: a slice of the simulated terminals, kept lean.

Each terminal has its own mutual-TLS connection (its own client certificate) to a host address
(:class:`tests.host.h2_grpc.H2Connection`, the bytes a gRPC client puts on the wire), opens its
link stream (``HostService.Link``) with the hello, as the terminal's link does, and from the
common start reports one game every ``period`` seconds (one ``game_played`` message with its
journal head, acknowledged down the stream), adds a meter snapshot every ``meter_every``
seconds at its own phase, and after ``ticket_chance`` of its games asks for a ticket
(``IssueValidationNumber``, a unary call on the same connection) and reports the
``voucher_printed`` in its next report.  ``--period 0`` is the saturation run: each terminal
sends its next report as soon as the last one is acknowledged (a snapshot every 20 reports).
With ``--echo`` the same bytes go to the bare echo server's ``Stream`` and ``Echo`` instead.

Why it is built this way (the harness shares two cores with the host it measures): nothing
runs per terminal between its messages.  One pacer per process wakes at most every
:data:`TICK` seconds and sends every report then due; the acknowledgement is handled in the
connection's ``data_received`` callback (no task, no future, no timer per report); a report is
a per-terminal protobuf template with only the fields that change set again (message id,
sequence, time, game number, journal head); one sweep a second checks deadlines and sends the
keepalive pings (every 30 s, answer within 20 s, as the terminal's channel).  The collector is
frozen after the connections are made.

A floor is measured in its steady state: each terminal's first contact (connection, hello and
a first report with a power-up snapshot, which gives the host its journal anchor and meter
epoch) is made while connecting, counted in the database check but not in the latencies.

A report that fails (a refused acknowledgement, a broken stream or connection, no answer within
``call_timeout``) is sent again, the same bytes on a new stream, on the next host address when
there are several, until acknowledged, so what the terminals sent can be counted in the host's
database afterwards.  Its latency runs from its first sending to its acknowledgement.

Protocol with the parent (:mod:`tests.host.floor`): the worker prints ``ready`` once every
terminal made its first contact, reads the common start time (epoch seconds) from stdin, plays
``--seconds``, waits for the reports still in flight, and prints one JSON line with its counts,
latencies and its own CPU time over the window (``cpu_s``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import hashlib
import json
import random
import resource
import ssl
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.terminal.hostlink import pki
from kiosk.terminal.hostlink.pki import SERVER_NAME
from proto.turbokiosk.v1 import host_pb2
from tests.host.aio_echo_server import ECHO, STREAM
from tests.host.h2_grpc import H2Connection

LINK = "/turbokiosk.v1.HostService/Link"
TICKET = "/turbokiosk.v1.HostService/IssueValidationNumber"
METERS = ("coin_in", "coin_out", "games_played", "games_won", "bills_in", "tickets_out")
TICK = 0.005  # the pacer's shortest sleep: reports due within it go out together
KEEPALIVE_S, KEEPALIVE_TIMEOUT_S = 30.0, 20.0  # as HOST_CLIENT_KEEPALIVE


@dataclass
class Tally:
    """What this worker's terminals had acknowledged, and how long each report took."""

    reports: int = 0
    games: int = 0
    meters: int = 0
    tickets: int = 0
    vouchers: list[str] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    failovers: int = 0
    retried_reports: int = 0
    first_reports: int = 0  # made while connecting, not timed


@dataclass
class Floor:
    """What a worker's terminals share: the arguments, the tally, the clock of the run."""

    args: argparse.Namespace
    tally: Tally
    addresses: list[tuple[str, int]]
    loop: asyncio.AbstractEventLoop
    playing: bool = False  # inside the timed window: reports are timed
    end: float = 0.0  # epoch seconds: no report is begun after it


class Terminal:
    """One simulated terminal: a state machine driven by its connection's callbacks."""

    def __init__(self, name: str, floor: Floor) -> None:
        self.name = name
        self.floor = floor
        args = floor.args
        self.echo: bool = args.echo
        self.context = ssl.create_default_context(cafile=str(args.pki / pki.CA_CERT))
        self.context.load_cert_chain(args.pki / f"{name}.crt", args.pki / f"{name}.key")
        self.context.set_alpn_protocols(["h2"])
        self.rng = random.Random(f"{args.seed}:{name}")
        self.current = 0  # which host address
        self.link: H2Connection | None = None
        self.stream = 0  # the link stream's id, 0 until the hello is answered
        self.connecting: asyncio.Task[None] | None = None
        self.hello_answered: asyncio.Future[None] | None = None
        self.first_acked: asyncio.Future[None] | None = None
        self.delay = 0.1  # the next reconnection's back-off
        hello = host_pb2.LinkRequest(
            hello=host_pb2.HelloRequest(terminal_id=name, software_version="floor")
        )
        self.hello = hello.SerializeToString()
        # the report in flight: its bytes, first sending, last writing, what it carries
        self.report: bytes | None = None
        self.report_number = 0
        self.sent_at = 0.0
        self.written_at = 0.0
        self.carries_snapshot = False
        self.carries_voucher: tuple[str, int] | None = None
        self.retried = False
        # a ticket in flight (its stream, 0 when none is open) and the voucher printed next
        self.ticket_value = 0
        self.ticket_stream = 0
        self.ticket_wanted = False
        self.voucher: tuple[str, int] | None = None
        self.due = False  # the pacer found a report due while one was in flight
        self.seq = 0
        self.number = 0  # reports sent on the link (their LinkRequest number)
        self.played = 0  # reports of the timed window, for the snapshot phase
        per = 20 if args.period <= 0 else max(1, round(args.meter_every / args.period))
        self.per_snapshot = per
        self.meter_phase = self.rng.randrange(per)
        self.offset = self.rng.uniform(0, args.period) if args.period > 0 else 0.0
        self.next_ping = 0.0
        self._template()

    # --- the report bytes ---------------------------------------------------------------------

    def _template(self) -> None:
        up = host_pb2.LinkRequest()
        report = up.report
        report.terminal_id = self.name
        msg = report.messages.add()
        game = msg.game_played
        game.edition = "turbo-football"
        seat = game.seats.add(seat=0, stake_cents=300, paid_cents=600)  # its spots sums
        for spot in ("first_down", "long_pass", "nine_card_bonus"):
            seat.spots.add(spot=spot, stake_cents=100, paid_cents=200, outcome="win")
        report.head.epoch = 1
        self.up, self.msg, self.game = up, msg, game

    def build(self, *, snapshot: bool, first: bool = False) -> bytes:
        """The next report: one game; the voucher printed since the last; a meter snapshot."""
        self.seq += 1
        self.number += 1
        at_ms = int(time.time() * 1000)
        up, msg = self.up, self.msg
        up.number = self.number
        msg.message_id = f"{self.name}:1:{self.seq}:0"
        msg.journal_seq = self.seq
        msg.at_ms = at_ms
        self.game.game_number = self.seq
        games = self.seq  # every meter moves by one a game (the meters' values in a snapshot)
        voucher, self.voucher = self.voucher, None
        if voucher is not None or snapshot:
            up = host_pb2.LinkRequest()
            up.CopyFrom(self.up)
            if voucher is not None:
                self.seq += 1
                printed = up.report.messages.add(
                    message_id=f"{self.name}:1:{self.seq}:0", journal_seq=self.seq, at_ms=at_ms
                )
                printed.voucher_printed.validation_number = voucher[0]
                printed.voucher_printed.value_cents = voucher[1]
            if snapshot:
                snap = up.report.messages.add(
                    message_id=f"{self.name}:1:{self.seq}:m{-1 if first else self.played}",
                    journal_seq=self.seq,
                    at_ms=at_ms,
                )
                snap.meters.reason = "power_up" if first else "periodic"
                for name in METERS:
                    snap.meters.meters.add(name=name, value=games)
        head = up.report.head
        head.seq = self.seq
        head.hash = hashlib.sha256(f"{self.name}:{self.seq}".encode()).digest()
        self.carries_snapshot = snapshot
        self.carries_voucher = voucher
        return up.SerializeToString()

    # --- sending --------------------------------------------------------------------------------

    def send_report(self, report: bytes) -> None:
        self.report = report
        self.report_number = self.number
        self.sent_at = self.floor.loop.time()
        self.retried = False
        self._transmit()

    def _transmit(self) -> None:
        if self.report is None:
            return
        if self.stream and self.link is not None:
            self.written_at = self.floor.loop.time()
            self.link.send(self.stream, self.report)
        else:
            self._reconnect(after=0.0)

    def _ask_ticket(self) -> None:
        self.ticket_wanted = True
        if not self.stream or self.link is None:
            self._reconnect(after=0.0)
            return
        request = host_pb2.IssueValidationNumberRequest(
            terminal_id=self.name, value_cents=self.ticket_value
        )
        self.written_at = self.floor.loop.time()
        self.ticket_stream = self.link.open(
            ECHO if self.echo else TICKET, request.SerializeToString(), end=True
        )

    def tick(self) -> None:
        """The pacer: a report is due."""
        if self.report is not None or self.ticket_wanted:
            self.due = True
            return
        self.send_report(self._next_report())

    def _next_report(self) -> bytes:
        snapshot = (self.played + self.meter_phase) % self.per_snapshot == 0
        report = self.build(snapshot=snapshot)
        self.played += 1
        return report

    def busy(self) -> bool:
        return self.report is not None or self.ticket_wanted

    # --- what the connection reports ---------------------------------------------------------

    def on_message(self, connection: H2Connection, stream: int, message: bytes) -> None:
        if connection is not self.link:
            return
        if stream == self.stream:
            self._on_link(message)
        elif stream == self.ticket_stream and stream:
            self._on_ticket(message)
        elif not self.stream and self.hello_answered is not None:  # the hello's answer
            if not self.echo:
                answer = host_pb2.LinkResponse.FromString(message)
                if answer.WhichOneof("body") != "hello":
                    self._broken("Link no hello")
                    return
            if not self.hello_answered.done():
                self.hello_answered.set_result(None)

    def _on_link(self, message: bytes) -> None:
        if self.report is None:
            return
        if not self.echo:
            down = host_pb2.LinkResponse.FromString(message)
            if down.WhichOneof("body") != "ack" or down.ack.number != self.report_number:
                return  # a command (or a late answer to a report sent twice)
            if down.ack.status:
                self.floor.tally.errors[f"Link status {down.ack.status}"] += 1
                self.retried = True
                wait = max(self.delay, down.ack.retry_ms / 1000)
                self.floor.loop.call_later(wait, self._transmit)
                self.written_at = self.floor.loop.time() + wait
                return
        self._acked()

    def _acked(self) -> None:
        tally = self.floor.tally
        if self.first_acked is not None:  # the first contact, not timed
            tally.first_reports += 1
            tally.games += 1
            tally.meters += 1
            self.report = None
            if not self.first_acked.done():
                self.first_acked.set_result(None)
            self.first_acked = None
            return
        tally.latencies_ms.append((self.floor.loop.time() - self.sent_at) * 1000)
        tally.reports += 1
        tally.games += 1
        if self.retried:
            tally.retried_reports += 1
        if self.carries_snapshot:
            tally.meters += 1
        if self.carries_voucher is not None:
            tally.tickets += 1
            tally.vouchers.append(self.carries_voucher[0])
        self.report = None
        if self.rng.random() < self.floor.args.ticket_chance:
            self.ticket_value = 100 * self.rng.randint(1, 200)
            self._ask_ticket()
            return
        self._next()

    def _on_ticket(self, message: bytes) -> None:
        if self.echo:  # a made-up number, the same traffic
            number = f"{self.rng.randrange(10**17, 10**18)}"
        else:
            number = str(
                host_pb2.IssueValidationNumberResponse.FromString(message).validation_number
            )
        self.voucher = (number, self.ticket_value)
        self.ticket_stream = 0
        self.ticket_wanted = False
        self._next()

    def _next(self) -> None:
        """After an answer: the next report now if one is due (or back to back)."""
        floor = self.floor
        if not floor.playing or time.time() >= floor.end:
            self.due = False
            return
        if floor.args.period <= 0 or self.due:
            self.due = False
            self.send_report(self._next_report())

    def on_stream_end(self, connection: H2Connection, stream: int) -> None:
        if connection is not self.link:
            return
        if stream == self.stream or (not self.stream and stream == 1):
            self._broken("Link ended")
        elif stream == self.ticket_stream:  # ended with no answer: refused or failed
            self.floor.tally.errors["IssueValidationNumber ended"] += 1
            self.ticket_stream = 0
            self.floor.loop.call_later(self.delay, self._retry_ticket)

    def _retry_ticket(self) -> None:
        if self.ticket_wanted and not self.ticket_stream:
            self._ask_ticket()

    def on_lost(self, connection: H2Connection) -> None:
        if connection is self.link:
            self._broken("Link broken")

    # --- failures and (re)connection -----------------------------------------------------------

    def _broken(self, reason: str) -> None:
        """The connection or the stream failed: count it, drop it, reconnect (next host)."""
        self.floor.tally.errors[reason] += 1
        if self.report is not None:
            self.retried = True
        if self.link is not None:
            self.link.close()
        self.link, self.stream, self.ticket_stream = None, 0, 0
        if self.hello_answered is not None:  # while connecting: _connect goes on from here
            if not self.hello_answered.done():
                self.hello_answered.set_exception(ConnectionError(reason))
            return
        if len(self.floor.addresses) > 1:
            self.current = (self.current + 1) % len(self.floor.addresses)
            self.floor.tally.failovers += 1
        self._reconnect(after=self.delay * (0.5 + self.rng.random()))
        self.delay = min(self.delay * 2, 1.0)

    def _reconnect(self, after: float) -> None:
        if self.connecting is None or self.connecting.done():
            self.connecting = self.floor.loop.create_task(self._connect(after))

    async def _connect(self, after: float) -> None:
        """Connect, open the link with the hello, then resend what was in flight."""
        floor = self.floor
        await asyncio.sleep(after)
        while True:
            host, port = floor.addresses[self.current]
            try:
                _, link = await asyncio.wait_for(
                    floor.loop.create_connection(
                        lambda: H2Connection(self, SERVER_NAME),
                        host,
                        port,
                        ssl=self.context,
                        server_hostname=SERVER_NAME,
                    ),
                    floor.args.call_timeout,
                )
                self.link = link
                self.hello_answered = floor.loop.create_future()
                stream = link.open(STREAM if self.echo else LINK, self.hello, end=False)
                await asyncio.wait_for(self.hello_answered, floor.args.call_timeout)
                if self.link is not link:
                    raise ConnectionError("the link broke at the hello")
                self.stream = stream
                break
            except (OSError, TimeoutError, ConnectionError, ssl.SSLError) as exc:
                floor.tally.errors[f"Link connect {type(exc).__name__}"] += 1
                if self.link is not None:
                    self.link.close()
                    self.link = None
                if len(floor.addresses) > 1:
                    self.current = (self.current + 1) % len(floor.addresses)
                    floor.tally.failovers += 1
                await asyncio.sleep(self.delay * (0.5 + self.rng.random()))
                self.delay = min(self.delay * 2, 1.0)
            finally:
                self.hello_answered = None
        self.delay = 0.1
        self.next_ping = floor.loop.time() + KEEPALIVE_S * (0.5 + self.rng.random())
        if self.report is not None:
            self._transmit()
        elif self.ticket_wanted:
            self._ask_ticket()

    async def connect(self) -> None:
        """The first contact: connected, hello answered, the power-up report acknowledged."""
        self.first_acked = self.floor.loop.create_future()
        self.report = self.build(snapshot=True, first=True)
        self.report_number = self.number
        self.sent_at = self.floor.loop.time()
        self._reconnect(after=0.0)
        await self.first_acked

    def sweep(self, now: float) -> None:
        """Once a second: the call deadline and the keepalive."""
        link = self.link
        if link is None or not self.stream:
            return
        if self.busy() and now - self.written_at > self.floor.args.call_timeout:
            self._broken("Link DEADLINE_EXCEEDED")
            return
        if link.ping_sent_at:
            if now - link.ping_sent_at > KEEPALIVE_TIMEOUT_S:
                self._broken("Link keepalive")
        elif now >= self.next_ping:
            link.ping(now)
            self.next_ping = now + KEEPALIVE_S

    def open(self) -> bool:
        return self.link is not None and bool(self.stream) and not self.link.closed

    def close(self) -> None:
        if self.connecting is not None:
            self.connecting.cancel()
        if self.link is not None:
            if self.stream:
                self.link.finish(self.stream)
            self.link.close()
            self.link = None


async def pace(terminals: list[Terminal], start: float, end: float, period: float) -> None:
    """One pacer for the process: each terminal's report at start + offset + k * period."""
    order = sorted(terminals, key=lambda t: t.offset)
    if period <= 0:  # back to back: each starts now, the next on each acknowledgement
        for terminal in order:
            terminal.tick()
        await asyncio.sleep(max(0.0, end - time.time()))
        return
    i, rounds, n = 0, 0, len(order)
    while True:
        due = start + order[i].offset + rounds * period
        if due >= end:
            return
        now = time.time()
        if due > now:
            await asyncio.sleep(max(TICK, due - now))
            now = time.time()
        while due <= now:
            order[i].tick()
            i += 1
            if i == n:
                i, rounds = 0, rounds + 1
            due = start + order[i].offset + rounds * period
            if due >= end:
                return


async def sweeper(terminals: list[Terminal], loop: asyncio.AbstractEventLoop) -> None:
    while True:
        await asyncio.sleep(1.0)
        now = loop.time()
        for terminal in terminals:
            terminal.sweep(now)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    addresses = []
    for address in args.addresses.split(","):
        host, _, port = address.rpartition(":")
        addresses.append((host, int(port)))
    floor = Floor(args, Tally(), addresses, loop)
    names = [f"{args.prefix}{i:05d}" for i in range(args.first, args.first + args.count)]
    terminals = [Terminal(name, floor) for name in names]
    gate = asyncio.Semaphore(args.connect_parallel)

    async def connect(terminal: Terminal) -> None:
        async with gate:
            await terminal.connect()

    t0 = time.monotonic()
    sweeping = loop.create_task(sweeper(terminals, loop))
    await asyncio.gather(*(connect(t) for t in terminals))
    connect_seconds = time.monotonic() - t0
    gc.collect()
    gc.freeze()  # the connections and templates: never scanned again
    print("ready", flush=True)
    line = await loop.run_in_executor(None, sys.stdin.readline)
    start = float(line)
    floor.end = start + args.seconds
    await asyncio.sleep(max(0.0, start - time.time()))
    cpu_before = cpu_seconds()
    floor.playing = True
    await pace(terminals, start, floor.end, args.period)
    while any(t.busy() for t in terminals):  # the reports still in flight
        await asyncio.sleep(0.05)
    floor.playing = False
    cpu_s = cpu_seconds() - cpu_before
    streams_open = sum(1 for t in terminals if t.open())
    sweeping.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await sweeping
    for terminal in terminals:
        terminal.close()
    await asyncio.sleep(0.1)  # the transports' closing callbacks
    return worker_result(floor.tally, len(terminals), connect_seconds, streams_open, cpu_s)


def worker_result(
    tally: Tally, terminals: int, connect_seconds: float, streams_open: int, cpu_s: float
) -> dict[str, Any]:
    """The line a worker prints for the harness: its tally, its streams and its CPU."""
    return {
        "terminals": terminals,
        "connect_seconds": round(connect_seconds, 2),
        "reports": tally.reports,
        "first_reports": tally.first_reports,
        "games": tally.games,
        "meters": tally.meters,
        "tickets": tally.tickets,
        "vouchers": tally.vouchers,
        "latencies_ms": [round(x, 3) for x in tally.latencies_ms],
        "errors": dict(tally.errors),
        "failovers": tally.failovers,
        "retried_reports": tally.retried_reports,
        "streams_open": streams_open,
        "cpu_s": round(cpu_s, 3),
    }


def cpu_seconds() -> float:
    """This process's user and system CPU seconds."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--addresses", required=True, help="HOST:PORT[,HOST:PORT...]")
    parser.add_argument("--pki", required=True, type=Path)
    parser.add_argument("--prefix", default="TK-F")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--echo", action="store_true")
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--period", type=float, default=3.0)
    parser.add_argument("--meter-every", type=float, default=60.0)
    parser.add_argument("--ticket-chance", type=float, default=0.01)
    parser.add_argument("--call-timeout", type=float, default=20.0)
    parser.add_argument("--connect-parallel", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result = asyncio.run(run(args))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
