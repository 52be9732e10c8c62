"""The table at scale: one controller and 10..200 seats on loopback, against a bare broadcast.

    python -m tests.table.scale_bench [--seats 10,50,100,200] [--rounds 6] [--signing]

For each size, a real controller process (``turbokiosk table serve``, Stadium, 1 s betting,
1 s decision, ``--auto-deal 0.1``) and N seat streams (grpc.aio, mutual TLS, each with its own
``seat-<n>`` certificate, all in this process): every seat wagers when a round opens, the even
seats answer their decision (so the window runs its full timer).  Reported per size:

- fan-out: a seat's receipt of the first deal minus the controller's ``now_ms`` stamped when it
  published it (after journaling); p50/p99 over every seat-delivery, and the per-round time
  until **every** seat has it (p50/max over rounds);
- beyond the timers: the last seat's result minus the round's opening minus both timers;
- the controller's CPU (user + system) per round, from ``/proc/<pid>/stat``.

The **baseline** in the same run: a bare gRPC server (same mutual TLS, a thread and a queue per
stream, no controller, no journal, no lock) that broadcasts the same round's messages to the
same number of streams; its fan-out and CPU per round are measured the same way.

``--signing`` (decision 0036): instead of the bare broadcast, the same table with its journal
unsigned (the controller without its signer, as before) is the baseline; signed and unsigned
runs alternate twice in the same run and are pooled.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import queue
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent import futures
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from kiosk.terminal.hostlink import pki
from proto.turbokiosk.v1 import table_pb2 as pb
from proto.turbokiosk.v1 import table_pb2_grpc

REPO = Path(__file__).resolve().parents[2]
BETTING_MS = DECISION_MS = 1000
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def now_ms() -> float:
    return time.time() * 1000


@dataclass
class Figures:
    """One run's measurements."""

    deliveries: list[float] = field(default_factory=list)
    all_seats: list[float] = field(default_factory=list)
    beyond: list[float] = field(default_factory=list)
    cpu_per_round: float = 0.0
    rounds: int = 0

    def line(self, name: str, seats: int) -> str:
        q = statistics.quantiles(self.deliveries, n=100) if len(self.deliveries) > 1 else [0] * 99
        beyond = (
            f"{statistics.median(self.beyond):7.0f} {max(self.beyond):7.0f}"
            if self.beyond
            else "      -       -"
        )
        return (
            f"{name:10} {seats:5} {self.rounds:6} {q[49]:7.1f} {q[98]:7.1f} "
            f"{statistics.median(self.all_seats):7.1f} {max(self.all_seats):7.1f} "
            f"{beyond} {self.cpu_per_round * 1000:8.0f}"
        )


HEADER = (
    "run        seats rounds fan-p50 fan-p99 all-p50 all-max beyond50 beyondmx cpu-ms/rnd\n"
    "                        (ms, per seat)  (ms, every seat) (ms per round)"
)


class Round:
    def __init__(self) -> None:
        self.opened = 0.0
        self.dealt: list[float] = []
        self.settled: list[float] = []


async def robot_seat(
    n: int,
    address: str,
    creds: pki.Credentials,
    stop: asyncio.Event,
    *,
    choice: Callable[[int], str | None],
    seen: Callable[[pb.SeatResponse, float], None],
) -> None:
    """One seat stream (its own certificate) that wagers the ante on every round and answers an
    offer with ``choice(n)`` (None: lets the window run out); ``seen(step, receipt_ms)`` is
    told of every step as it arrives."""
    channel = grpc.aio.secure_channel(
        address,
        grpc.ssl_channel_credentials(creds.ca, creds.key, creds.cert),
        options=[("grpc.ssl_target_name_override", pki.TABLE_SERVER_NAME)],
    )
    decided = choice(n)
    out: asyncio.Queue[pb.SeatRequest | None] = asyncio.Queue()
    out.put_nowait(pb.SeatRequest(join=pb.JoinTable(table_id="T1", seat=n)))

    async def requests() -> AsyncIterator[pb.SeatRequest]:
        while (request := await out.get()) is not None:
            yield request

    call = table_pb2_grpc.TableServiceStub(channel).Seat(requests())
    try:
        async for step in call:
            seen(step, now_ms())
            kind = step.WhichOneof("body")
            game = step.game_number
            if kind == "round_opened":
                wager = pb.ReportWager(
                    table_id="T1",
                    game_number=game,
                    seat=n,
                    wagers=[pb.Wager(spot="ante", cents=100)],
                    positions=[0, 4, 8],
                )
                out.put_nowait(pb.SeatRequest(wager=wager))
            elif kind == "first_dealt" and step.first_dealt.HasField("offer") and decided:
                decision = pb.ReportDecision(
                    table_id="T1", game_number=game, seat=n, choice=decided
                )
                out.put_nowait(pb.SeatRequest(decision=decision))
            if stop.is_set():
                break
    except grpc.aio.AioRpcError:
        pass
    finally:
        out.put_nowait(None)
        call.cancel()
        await channel.close()


async def seat(
    n: int, address: str, creds: pki.Credentials, rounds: dict[int, Round], stop: asyncio.Event
) -> None:
    """A robot seat whose even seats fold (the odd ones let the decision window run out),
    noting each round's opening, first-deal fan-out and settled receipts."""

    def seen(step: pb.SeatResponse, got: float) -> None:
        rnd = rounds.setdefault(step.game_number, Round())
        kind = step.WhichOneof("body")
        if kind == "round_opened":
            rnd.opened = step.round_opened.betting_deadline_ms - BETTING_MS
        elif kind == "first_dealt":
            rnd.dealt.append(got - step.first_dealt.now_ms)
        elif kind == "seat_settled":
            rnd.settled.append(got)

    await robot_seat(
        n, address, creds, stop, choice=lambda k: "fold" if k % 2 == 0 else None, seen=seen
    )


async def play(address: str, pki_dir: Path, seats: int, rounds: int, pid: int) -> Figures:
    """Run ``seats`` seats until ``rounds`` rounds were played by every one of them."""
    games: dict[int, Round] = {}
    stop = asyncio.Event()
    creds = [pki.credentials(pki_dir, f"seat-{n}") for n in range(seats)]
    tasks = [asyncio.create_task(seat(n, address, creds[n], games, stop)) for n in range(seats)]
    figures = Figures()
    first_full: int | None = None
    cpu_start = 0.0
    deadline = time.monotonic() + 60 + rounds * 5
    while time.monotonic() < deadline:
        await asyncio.sleep(0.05)
        full = sorted(
            g for g, r in games.items() if len(r.settled) == seats and len(r.dealt) == seats
        )
        if first_full is None and full:
            first_full, cpu_start = full[0], cpu_seconds(pid)
            continue
        done = [g for g in full if first_full is not None and g > first_full]
        if len(done) >= rounds:
            figures.cpu_per_round = (cpu_seconds(pid) - cpu_start) / len(done)
            for g in done[:rounds]:
                r = games[g]
                figures.deliveries += r.dealt
                figures.all_seats.append(max(r.dealt))
                if r.opened:
                    figures.beyond.append(max(r.settled) - r.opened - BETTING_MS - DECISION_MS)
            figures.rounds = rounds
            break
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return figures


# -- the baseline: a bare broadcast ----------------------------------------------------------


def round_messages(game: int) -> list[pb.SeatResponse]:
    """What a Stadium seat is told of one round, as the controller tells it."""
    offer = pb.Offer(
        choices=["play", "fold"], default_choice="fold", take="play", extra_wager_cents=100
    )
    bodies: list[tuple[str, Any]] = [
        ("round_opened", pb.RoundOpened(betting_deadline_ms=0)),
        ("wager_accepted", pb.WagerAccepted(wagers=[pb.Wager(spot="ante", cents=100)])),
        ("bets_closed", pb.BetsClosed(seats=range(200))),
        ("first_dealt", pb.FirstDealt(cards=range(9), offer=offer)),
        ("decisions_closed", pb.DecisionsClosed(choice="fold", defaulted=True)),
        ("second_dealt", pb.SecondDealt(shared_cards=[9, 10, 11])),
        ("seat_settled", pb.SeatSettled(stake_cents=100)),
        ("round_closed", pb.RoundClosed()),
    ]
    out = []
    for seq, (kind, body) in enumerate(bodies, 1):
        message = pb.SeatResponse(table_id="T1", game_number=game, journal_seq=seq)
        getattr(message, kind).CopyFrom(body)
        out.append(message)
    return out


def drain(requests: Iterator[pb.SeatRequest]) -> None:
    """Read a stream's requests until it ends."""
    try:
        for _ in requests:
            pass
    except grpc.RpcError:
        pass


class Broadcaster(table_pb2_grpc.TableServiceServicer):
    """A thread and a queue per stream; every message put on every queue."""

    def __init__(self) -> None:
        self.queues: list[queue.Queue[pb.SeatResponse]] = []
        self.lock = threading.Lock()

    def Seat(  # noqa: N802 (the generated servicer's name)
        self, request_iterator: Iterator[pb.SeatRequest], context: grpc.ServicerContext
    ) -> Iterator[pb.SeatResponse]:
        next(request_iterator)
        outbox: queue.Queue[pb.SeatResponse] = queue.Queue()
        with self.lock:
            self.queues.append(outbox)
        threading.Thread(target=drain, args=(request_iterator,), daemon=True).start()
        while context.is_active():
            try:
                yield outbox.get(timeout=0.2)
            except queue.Empty:
                continue

    def broadcast(self, game: int) -> None:
        for message in round_messages(game):
            if message.WhichOneof("body") == "first_dealt":
                message.first_dealt.now_ms = int(now_ms())
            if message.WhichOneof("body") == "round_opened":
                message.round_opened.betting_deadline_ms = int(now_ms()) + BETTING_MS
            with self.lock:
                for outbox in self.queues:
                    outbox.put(message)
            time.sleep(0.05)


def serve_broadcast(pki_dir: Path, seats: int, broadcaster: Broadcaster | None = None) -> None:
    """The baseline server process: broadcast a round every 0.5 s once ``seats`` streams are in
    (with ``broadcaster``'s messages: a plain :class:`Broadcaster` by default)."""
    creds = pki.credentials(pki_dir, "table-T1")
    broadcaster = broadcaster or Broadcaster()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=seats + 16))
    table_pb2_grpc.add_TableServiceServicer_to_server(broadcaster, server)
    port = server.add_secure_port(
        "127.0.0.1:0",
        grpc.ssl_server_credentials(
            [(creds.key, creds.cert)], root_certificates=creds.ca, require_client_auth=True
        ),
    )
    server.start()
    print(f"serving on 127.0.0.1:{port}", flush=True)
    while len(broadcaster.queues) < seats:
        time.sleep(0.05)
    game = 1
    while True:
        broadcaster.broadcast(game)
        game += 1
        time.sleep(0.1)


def started(command: list[str]) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    if "serving on" not in line:
        process.kill()
        raise RuntimeError(f"the server did not start: {line!r}")
    return process, line.split()[-1]


def table_command(seats: int, work: Path, pki_dir: Path, *, unsigned: bool = False) -> list[str]:
    """``table serve`` for the bench (``unsigned``: the controller without its signer, as
    before decision 0036, through :func:`serve_unsigned`: the baseline of the signing figure)."""
    launcher = (
        ["-m", "tests.table.scale_bench", "--unsigned-serve"]
        if unsigned
        else ["-c", "from kiosk.cli import main; raise SystemExit(main())"]
    )
    return [
        sys.executable,
        *launcher,
        "table",
        "--data-dir",
        str(work / f"table-{seats}{'-unsigned' if unsigned else ''}"),
        "serve",
        "--edition",
        "stadium-3cp",
        "--pki-dir",
        str(pki_dir),
        "--listen",
        "127.0.0.1:0",
        "--betting-seconds",
        "1",
        "--decision-seconds",
        "1",
        "--auto-deal",
        "0.1",
    ]


def serve_unsigned(argv: list[str]) -> int:
    """``turbokiosk`` with the table controller's signer taken away (the bench's baseline
    only: ``table serve`` itself always signs)."""
    import kiosk.table.core.record
    from kiosk.cli import main

    kiosk.table.core.record.table_signer = lambda *a, **k: None  # type: ignore[assignment]
    return main(argv)


def run_table(command: list[str], pki_dir: Path, seats: int, rounds: int) -> Figures:
    process, address = started(command)
    try:
        return asyncio.run(play(address, pki_dir, seats, rounds, process.pid))
    finally:
        process.terminate()
        process.wait(timeout=30)


def measure_signing(
    seats: int, rounds: int, work: Path, repeats: int = 2
) -> tuple[Figures, Figures]:
    """(signed, unsigned): the table with its signed journal and without, alternated
    ``repeats`` times in the same run (so that both see the same load), pooled."""
    pki_dir = work / "pki"
    pki.ensure_pki(pki_dir, ("table-T1", *(f"seat-{n}" for n in range(seats))))
    pooled = (Figures(), Figures())
    for _ in range(repeats):
        for unsigned, into in ((False, pooled[0]), (True, pooled[1])):
            command = table_command(seats, work, pki_dir, unsigned=unsigned)
            got = run_table(command, pki_dir, seats, rounds)
            into.deliveries += got.deliveries
            into.all_seats += got.all_seats
            into.beyond += got.beyond
            into.cpu_per_round += got.cpu_per_round / repeats
            into.rounds += got.rounds
    return pooled


def measure(seats: int, rounds: int, work: Path) -> tuple[Figures, Figures]:
    """(the table's figures, the bare broadcast's) for ``seats`` seats."""
    pki_dir = work / "pki"
    pki.ensure_pki(pki_dir, ("table-T1", *(f"seat-{n}" for n in range(seats))))
    table_cmd = table_command(seats, work, pki_dir)
    results = []
    for command in (
        table_cmd,
        [sys.executable, "-m", "tests.table.scale_bench", "--broadcast", str(pki_dir), str(seats)],
    ):
        process, address = started(command)
        try:
            results.append(asyncio.run(play(address, pki_dir, seats, rounds, process.pid)))
        finally:
            process.terminate()
            process.wait(timeout=30)
    table, bare = results
    bare.beyond = []
    return table, bare


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", default="10,50,100,200")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--broadcast", nargs=2, metavar=("PKI_DIR", "SEATS"), default=None)
    parser.add_argument(
        "--signing", action="store_true", help="the signed journal against the unsigned one"
    )
    if argv is None and sys.argv[1:2] == ["--unsigned-serve"]:
        return serve_unsigned(sys.argv[2:])
    args = parser.parse_args(argv)
    if args.broadcast:
        serve_broadcast(Path(args.broadcast[0]), int(args.broadcast[1]))
        return 0
    import tempfile

    work = args.work or Path(tempfile.mkdtemp(prefix="table-scale-"))
    print(HEADER, flush=True)
    for seats in (int(s) for s in args.seats.split(",")):
        if args.signing:
            signed, unsigned = measure_signing(seats, args.rounds, work)
            print(signed.line("signed", seats), flush=True)
            print(unsigned.line("unsigned", seats), flush=True)
            continue
        table, bare = measure(seats, args.rounds, work)
        print(table.line("table", seats), flush=True)
        print(bare.line("bare", seats), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
