"""Many simulated terminals streaming events to one host at once, and a bare echo baseline.

Both servers run in their own process; the terminals are asyncio tasks of this process, one
gRPC channel (with its own client certificate) each.  Every terminal sends ``batches`` Report
calls of ``per_batch`` events back to back; the echo baseline sends byte-identical requests to
a server that only echoes them.  Latency is per call (send to answer).
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc

from kiosk.terminal.hostlink import pki
from kiosk.terminal.hostlink.pki import SERVER_NAME
from proto.turbokiosk.v1 import host_pb2, host_pb2_grpc

ECHO = "/turbokiosk.bench.Echo/Echo"


@dataclass
class LoadResult:
    """Throughput and latency of one run."""

    calls: int
    events: int
    seconds: float
    latencies: list[float]
    request_bytes: int

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Gate:
    """Holds every terminal until all have connected, then lets them go at once."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.arrived = 0
        self.all_here = asyncio.Event()
        self.go = asyncio.Event()

    async def arrive(self) -> None:
        self.arrived += 1
        if self.arrived == self.n:
            self.all_here.set()
        await self.go.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def terminal_names(n: int) -> list[str]:
    return [f"TK-L{i:04d}" for i in range(n)]


def make_pki(root: Path, terminals: list[str]) -> Path:
    directory = root / "pki"
    pki.ensure_pki(directory, tuple(terminals))
    return directory


def batch(terminal: str, number: int, per_batch: int) -> host_pb2.ReportRequest:
    """A batch of realistic events (a game, a note, a meter-free mix), ids unique per terminal,
    with the terminal's journal head."""
    request = host_pb2.ReportRequest(terminal_id=terminal)
    for i in range(per_batch):
        seq = number * per_batch + i + 1
        msg = request.messages.add(
            message_id=f"{terminal}:1:{seq}:0", journal_seq=seq, at_ms=1_800_000_000_000 + seq
        )
        if i % 3 == 0:
            msg.bill_stacked.value_cents = 2000
        else:
            game = msg.game_played
            game.game_number, game.edition = seq, "turbo-football"
            seat = game.seats.add(seat=0, stake_cents=300, paid_cents=600)  # its spots sums
            for spot in ("first_down", "long_pass", "nine_card_bonus"):
                seat.spots.add(spot=spot, stake_cents=100, paid_cents=200, outcome="win")
    last = (number + 1) * per_batch  # the journal head, as every terminal's report carries
    request.head.epoch, request.head.seq = 1, last
    request.head.hash = hashlib.sha256(f"{terminal}:{last}".encode()).digest()
    return request


async def _terminal(
    address: str,
    creds: pki.Credentials,
    terminal: str,
    batches: int,
    per_batch: int,
    echo: bool,
    gate: Gate,
    latencies: list[float],
) -> None:
    channel = grpc.aio.secure_channel(
        address,
        grpc.ssl_channel_credentials(creds.ca, creds.key, creds.cert),
        options=[("grpc.ssl_target_name_override", SERVER_NAME)],
    )
    requests = [batch(terminal, b, per_batch) for b in range(batches)]
    try:
        if echo:
            call: Any = channel.unary_unary(ECHO)
            payloads = [r.SerializeToString() for r in requests]
            await call(b"warm-up")
        else:
            stub = host_pb2_grpc.HostServiceStub(channel)
            await stub.Hello(host_pb2.HelloRequest(terminal_id=terminal, software_version="load"))
        await gate.arrive()
        for i in range(batches):
            t0 = time.perf_counter()
            if echo:
                await call(payloads[i])
            else:
                await stub.Report(requests[i])
            latencies.append(time.perf_counter() - t0)
    finally:
        await channel.close()


async def _run(
    address: str, pki_dir: Path, terminals: list[str], batches: int, per_batch: int, echo: bool
) -> LoadResult:
    gate = Gate(len(terminals))
    latencies: list[float] = []
    tasks = [
        asyncio.create_task(
            _terminal(
                address, pki.credentials(pki_dir, t), t, batches, per_batch, echo, gate, latencies
            )
        )
        for t in terminals
    ]
    await asyncio.wait_for(gate.all_here.wait(), 120)  # every channel connected and said hello
    t0 = time.perf_counter()
    gate.go.set()
    await asyncio.gather(*tasks)
    seconds = time.perf_counter() - t0
    size = batch(terminals[0], 0, per_batch).ByteSize()
    return LoadResult(len(latencies), len(latencies) * per_batch, seconds, latencies, size)


def drive(
    address: str, pki_dir: Path, terminals: list[str], batches: int, per_batch: int, echo: bool
) -> LoadResult:
    return asyncio.run(_run(address, pki_dir, terminals, batches, per_batch, echo))


def start_process(args: list[str]) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    assert process.stdout is not None
    process.stdout.readline()  # "serving"
    return process


def stop_process(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
