"""One client process of the paced floor on ``grpc.aio`` (the older terminals' unary link, and
``FLOOR_CLIENT=aio``; the lean client is :mod:`tests.host.floor_worker`).

Each terminal is a coroutine with its own gRPC channel (its own client certificate) to each
host address.  It opens its link stream (``HostService.Link``) with the hello, as the
terminal's link does, and from the common start reports one game every ``period`` seconds (one
report of one ``game_played`` message with its journal head, acknowledged down the stream),
adds a meter snapshot every ``meter_every`` seconds and now and then a ticket
(``IssueValidationNumber``, then ``voucher_printed`` in the next report).  ``--period 0`` is
the saturation run: each terminal sends its next report as soon as the last one is
acknowledged (a meter snapshot every 20 reports).  ``--unary`` is the older terminals' link:
``Hello``, the ``Commands`` stream and one unary ``Report`` per report.

A floor is measured in its steady state, as terminals that were already playing: each
terminal's first contact (hello, command stream, and a first report with a power-up meter
snapshot, which gives the host its journal anchor and meter epoch) is made while connecting,
before the timed window, and counted in the database check but not in the latencies; and each
terminal's meter snapshots come at its own phase of the ``meter_every`` period (terminals of a
floor do not power up in the same second), not all in the same few seconds.  With ``--echo`` the
same requests, byte for byte, go to the bare echo server instead: on the stream its ``Stream``
answers each message with its own bytes; unary, ``Echo`` and ``Hold`` for the command stream.

A call that fails (or a stream that breaks) is sent again (the same message ids, on a new
stream) until the host acknowledges it, on the next host address when there are several - as
the terminal's link does - so that what the terminals sent can be counted in the host's
database afterwards.  The worker's own CPU time over the timed window is in its output
(``cpu_s``), so the harness's share is reported apart from the host's.

Protocol with the parent (:mod:`tests.host.floor`): the worker prints ``ready`` once every
terminal said hello and opened its stream, reads the common start time (epoch seconds) from
stdin, runs ``--seconds``, and prints one JSON line with its counts and latencies.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import grpc

from kiosk.terminal.hostlink import pki
from kiosk.terminal.hostlink.channel import HOST_CLIENT_KEEPALIVE
from kiosk.terminal.hostlink.pki import SERVER_NAME
from proto.turbokiosk.v1 import host_pb2, host_pb2_grpc
from tests.host.aio_echo_server import ECHO, HOLD, STREAM
from tests.host.floor_worker import Tally, cpu_seconds, worker_result

LINK = "/turbokiosk.v1.HostService/Link"

METERS = ("coin_in", "coin_out", "games_played", "games_won", "bills_in", "tickets_out")
RETRY = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)


def report_request(
    name: str,
    seq: int,
    meter_values: dict[str, int],
    number: int,
    voucher: tuple[str, int] | None,
    *,
    snapshot: bool,
) -> tuple[host_pb2.ReportRequest, int]:
    """Terminal ``name``'s report after journal record ``seq``: one ``game_played`` (its
    ``meter_values`` moved on), the ``voucher_printed`` of ``voucher``, with ``snapshot`` a
    meter snapshot (``power_up`` for a ``number`` below 0), its journal head; the request and
    the journal's seq after it.  The shape every floor measurement sends."""
    request = host_pb2.ReportRequest(terminal_id=name)
    seq += 1
    msg = request.messages.add(
        message_id=f"{name}:1:{seq}:0", journal_seq=seq, at_ms=int(time.time() * 1000)
    )
    game = msg.game_played
    game.game_number, game.edition = seq, "turbo-football"
    seat = game.seats.add(seat=0, stake_cents=300, paid_cents=600)  # its spots sums
    for spot in ("first_down", "long_pass", "nine_card_bonus"):
        seat.spots.add(spot=spot, stake_cents=100, paid_cents=200, outcome="win")
    for meter in METERS:
        meter_values[meter] += 1
    if voucher is not None:
        seq += 1
        printed = request.messages.add(
            message_id=f"{name}:1:{seq}:0", journal_seq=seq, at_ms=msg.at_ms
        )
        printed.voucher_printed.validation_number = voucher[0]
        printed.voucher_printed.value_cents = voucher[1]
    if snapshot:
        snap = request.messages.add(
            message_id=f"{name}:1:{seq}:m{number}", journal_seq=seq, at_ms=msg.at_ms
        )
        snap.meters.reason = "power_up" if number < 0 else "periodic"
        for meter, value in meter_values.items():
            snap.meters.meters.add(name=meter, value=value)
    digest = hashlib.sha256(f"{name}:{seq}".encode()).digest()
    request.head.epoch, request.head.seq, request.head.hash = 1, seq, digest
    return request, seq


class Terminal:
    """One simulated terminal."""

    def __init__(self, name: str, args: argparse.Namespace, tally: Tally) -> None:
        self.name = name
        self.args = args
        self.tally = tally
        creds = pki.credentials(args.pki, name)
        channel_credentials = grpc.ssl_channel_credentials(creds.ca, creds.key, creds.cert)
        options = [("grpc.ssl_target_name_override", SERVER_NAME), *HOST_CLIENT_KEEPALIVE]
        self.channels = [
            grpc.aio.secure_channel(address, channel_credentials, options=options)
            for address in args.addresses.split(",")
        ]
        self.current = 0
        self.seq = 0
        self.rng = random.Random(f"{args.seed}:{name}")
        self.meter_values = dict.fromkeys(METERS, 0)
        self.stream: asyncio.Task[None] | None = None
        self.streaming = asyncio.Event()
        self.link: Any = None  # the open link stream
        self.number = 0
        self.meter_phase = self.rng.randrange(self._per_snapshot())

    def _per_snapshot(self) -> int:
        if self.args.period <= 0:  # saturation: a snapshot every 20 reports
            return 20
        return max(1, round(float(self.args.meter_every) / float(self.args.period)))

    # --- the link stream -------------------------------------------------------------------

    async def _open_link(self) -> Any:
        """Open the link stream on the current host with the hello (its answer read)."""
        channel = self.channels[self.current]
        hello = host_pb2.LinkRequest(
            hello=host_pb2.HelloRequest(terminal_id=self.name, software_version="floor")
        )
        if self.args.echo:
            call: Any = channel.stream_stream(STREAM)()
            await call.write(hello.SerializeToString())
        else:
            call = channel.stream_stream(
                LINK,
                request_serializer=host_pb2.LinkRequest.SerializeToString,
                response_deserializer=host_pb2.LinkResponse.FromString,
            )()
            await call.write(hello)
        answer = await asyncio.wait_for(call.read(), self.args.call_timeout)
        if answer is grpc.aio.EOF:
            raise ConnectionError("the host ended the link at the hello")
        return call

    async def _link_report(self, request: host_pb2.ReportRequest) -> None:
        """Send a report on the stream until acknowledged (a new stream after a failure)."""
        delay = 0.1
        while True:
            try:
                if self.link is None:
                    self.link = await self._open_link()
                self.number += 1
                up = host_pb2.LinkRequest(number=self.number, report=request)
                await self.link.write(up.SerializeToString() if self.args.echo else up)
                while True:  # commands may come down before the acknowledgement
                    down = await asyncio.wait_for(self.link.read(), self.args.call_timeout)
                    if down is grpc.aio.EOF:
                        raise ConnectionError("the host ended the link")
                    if self.args.echo or down.WhichOneof("body") == "ack":
                        break
                if not self.args.echo and down.ack.status:
                    self.tally.errors[f"Link status {down.ack.status}"] += 1
                    raise ConnectionError(down.ack.details)
                return
            except (
                TimeoutError,
                grpc.aio.AioRpcError,
                ConnectionError,
                asyncio.InvalidStateError,  # written to a stream the host's death ended
            ) as exc:
                name = exc.code().name if isinstance(exc, grpc.aio.AioRpcError) else "broken"
                self.tally.errors[f"Link {name}"] += 1
                if self.link is not None:
                    self.link.cancel()
                    self.link = None
                if len(self.channels) > 1:
                    self.current = (self.current + 1) % len(self.channels)
                    self.tally.failovers += 1
                await asyncio.sleep(delay * (0.5 + self.rng.random()))
                delay = min(delay * 2, 1.0)

    async def report(self, request: host_pb2.ReportRequest) -> None:
        """One report, acknowledged: on the stream, or unary (``--unary``)."""
        if self.args.unary:
            await self._call("Report", request, host_pb2.ReportResponse)
        else:
            await self._link_report(request)

    # --- calls with fail-over -------------------------------------------------------------

    async def _call(self, method: str, request: Any, response: Any) -> Any:
        """Send until answered; the next host address after each unreachable one."""
        delay = 0.1
        while True:
            channel = self.channels[self.current]
            try:
                if self.args.echo:
                    data = request.SerializeToString()
                    await channel.unary_unary(ECHO)(data, timeout=self.args.call_timeout)
                    return None
                call = channel.unary_unary(
                    f"/turbokiosk.v1.HostService/{method}",
                    request_serializer=type(request).SerializeToString,
                    response_deserializer=response.FromString,
                )
                return await call(request, timeout=self.args.call_timeout)
            except grpc.aio.AioRpcError as exc:
                self.tally.errors[f"{method} {exc.code().name}"] += 1
                if exc.code() not in RETRY and exc.code() != grpc.StatusCode.CANCELLED:
                    raise
                if len(self.channels) > 1:
                    self.current = (self.current + 1) % len(self.channels)
                    self.tally.failovers += 1
                await asyncio.sleep(delay * (0.5 + self.rng.random()))
                delay = min(delay * 2, 1.0)

    async def _hold_stream(self) -> None:
        """Keep the command stream open on the current host (reopened when it breaks)."""
        while True:
            channel = self.channels[self.current]
            try:
                if self.args.echo:
                    hold: Any = channel.unary_stream(HOLD)
                    call: Any = hold(b"")
                else:
                    stub = host_pb2_grpc.HostServiceStub(channel)
                    call = stub.Commands(host_pb2.CommandsRequest(terminal_id=self.name))
                await call.wait_for_connection()
                self.streaming.set()
                async for _ in call:
                    pass
            except grpc.aio.AioRpcError as exc:
                if exc.code() != grpc.StatusCode.CANCELLED:
                    self.tally.errors[f"Commands {exc.code().name}"] += 1
            await asyncio.sleep(0.5)

    async def connect(self) -> None:
        if self.args.unary:
            hello = host_pb2.HelloRequest(terminal_id=self.name, software_version="floor")
            await self._call("Hello", hello, host_pb2.HelloResponse)
            self.stream = asyncio.create_task(self._hold_stream())
            await self.streaming.wait()
        first = self._report(-1, None, snapshot=True)  # power-up: anchor and meter epoch
        await self.report(first)
        self.tally.first_reports += 1
        self.tally.games += 1
        self.tally.meters += 1

    # --- paced play -----------------------------------------------------------------------

    def _report(
        self, number: int, voucher: tuple[str, int] | None, *, snapshot: bool
    ) -> host_pb2.ReportRequest:
        request, self.seq = report_request(
            self.name, self.seq, self.meter_values, number, voucher, snapshot=snapshot
        )
        return request

    async def play(self, start: float, end: float) -> None:
        loop = asyncio.get_running_loop()
        offset = self.rng.uniform(0, self.args.period)
        voucher: tuple[str, int] | None = None
        number = 0
        while True:
            due = start + offset + number * self.args.period
            if due >= end or time.time() >= end:  # (back to back: every report is due)
                return
            await asyncio.sleep(max(0.0, due - time.time()))
            snapshot = (number + self.meter_phase) % self._per_snapshot() == 0
            request = self._report(number, voucher, snapshot=snapshot)
            t0 = loop.time()
            errors_before = sum(self.tally.errors.values())
            await self.report(request)
            self.tally.latencies_ms.append((loop.time() - t0) * 1000)
            if sum(self.tally.errors.values()) != errors_before:
                self.tally.retried_reports += 1
            self.tally.reports += 1
            self.tally.games += 1
            if voucher is not None:
                self.tally.tickets += 1
                self.tally.vouchers.append(voucher[0])
            if any(m.WhichOneof("body") == "meters" for m in request.messages):
                self.tally.meters += 1
            voucher = None
            if self.rng.random() < self.args.ticket_chance:
                voucher = await self._ticket()
            number += 1

    async def _ticket(self) -> tuple[str, int]:
        value = 100 * self.rng.randint(1, 200)
        request = host_pb2.IssueValidationNumberRequest(terminal_id=self.name, value_cents=value)
        answer = await self._call(
            "IssueValidationNumber", request, host_pb2.IssueValidationNumberResponse
        )
        if answer is None:  # the echo: a made-up number, the same traffic
            return f"{self.rng.randrange(10**17, 10**18)}", value
        return str(answer.validation_number), value

    def open(self) -> bool:
        """Whether its stream (the link, or unary the command stream) is open."""
        if self.args.unary:
            return self.stream is not None and not self.stream.done()
        return self.link is not None and not self.link.done()

    async def close(self) -> None:
        if self.stream is not None:
            self.stream.cancel()
        if self.link is not None:
            with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                await self.link.done_writing()
            self.link.cancel()
        for channel in self.channels:
            await channel.close()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tally = Tally()
    names = [f"{args.prefix}{i:05d}" for i in range(args.first, args.first + args.count)]
    terminals = [Terminal(name, args, tally) for name in names]
    gate = asyncio.Semaphore(args.connect_parallel)

    async def connect(terminal: Terminal) -> None:
        async with gate:
            await terminal.connect()

    t0 = time.monotonic()
    await asyncio.gather(*(connect(t) for t in terminals))
    connect_seconds = time.monotonic() - t0
    print("ready", flush=True)
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    start = float(line)
    end = start + args.seconds
    await asyncio.sleep(max(0.0, start - time.time()))
    cpu_before = cpu_seconds()
    await asyncio.gather(*(t.play(start, end) for t in terminals))
    cpu_s = cpu_seconds() - cpu_before
    streams_open = sum(1 for t in terminals if t.open())
    for terminal in terminals:
        await terminal.close()
    return worker_result(tally, len(terminals), connect_seconds, streams_open, cpu_s)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--addresses", required=True, help="HOST:PORT[,HOST:PORT...]")
    parser.add_argument("--pki", required=True, type=Path)
    parser.add_argument("--prefix", default="TK-F")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--echo", action="store_true")
    parser.add_argument("--unary", action="store_true", help="the unary link (older terminals)")
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
