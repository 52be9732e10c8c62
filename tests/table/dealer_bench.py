"""From the dealer's Confirm to every seat's result, at 100 seats, against a bare broadcast.

    python -m tests.table.dealer_bench [--seats 100] [--rounds 6]

The table run: a real controller process (``turbokiosk table serve --card-source manual``,
Stadium) and, in this process, N seat streams (grpc.aio, mutual TLS, each with its own
``seat-<n>`` certificate) and one Dealer Terminal stream (``dealer-1``,
:class:`~kiosk.table.core.dealer_link.DealerLink`).
Each round the dealer signs in once, presses New Game, closes bets when every seat has bet,
enters the three array packs, waits for every seat's decision (all seats answer at once), lays
the dealer's hand and presses **Confirm**; the clock starts just before Confirm is sent and
stops at each seat's ``SeatSettled`` (the settlement it credits its meter from).  Reported:
per seat-delivery p50/p99, and per round the time until **every** seat has it (p50/max).

The **baseline** in the same run: a bare gRPC server (same mutual TLS, a thread and a queue
per stream, no controller, journal, lock or dealer) that broadcasts the same round's messages
to the same number of streams, stamping the settled message when it starts putting it on the
queues (in its ``journal_seq``, a bench-only use); measured the same way.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.table.core.dealer_link import DealerLink
from kiosk.terminal.hostlink import pki
from proto.turbokiosk.v1 import dealer_pb2 as dpb
from proto.turbokiosk.v1 import table_pb2 as pb
from tests.table.scale_bench import (
    Broadcaster,
    now_ms,
    robot_seat,
    round_messages,
    serve_broadcast,
    started,
)

DEALER_PIN = "2468"


@dataclass
class Figures:
    """Confirm (or the baseline's stamp) to each seat's settled message, in ms."""

    deliveries: list[float] = field(default_factory=list)
    every_seat: list[float] = field(default_factory=list)
    rounds: int = 0

    def line(self, name: str, seats: int) -> str:
        q = statistics.quantiles(self.deliveries, n=100) if len(self.deliveries) > 1 else [0] * 99
        return (
            f"{name:10} {seats:5} {self.rounds:6} {q[49]:8.1f} {q[98]:8.1f} "
            f"{statistics.median(self.every_seat):8.1f} {max(self.every_seat):8.1f}"
        )


HEADER = (
    "run        seats rounds  set-p50  set-p99  all-p50  all-max\n"
    "                        (ms, per seat)     (ms, every seat)"
)


@dataclass
class Seats:
    """What the seat streams saw: game -> receipt times (ms) of each seat's settled message."""

    settled: dict[int, list[float]] = field(default_factory=dict)
    stamped: dict[int, float] = field(default_factory=dict)  # the baseline's own stamps


async def seat(
    n: int, address: str, creds: pki.Credentials, seen: Seats, stop: asyncio.Event
) -> None:
    """A robot seat that plays on odd seats and folds on even ones, noting its settled
    receipts (and the baseline's stamps)."""

    def settled(step: pb.SeatResponse, got: float) -> None:
        if step.WhichOneof("body") == "seat_settled":
            seen.settled.setdefault(step.game_number, []).append(got)
            if step.journal_seq > 10**12:  # the baseline's stamp
                seen.stamped[step.game_number] = float(step.journal_seq)

    await robot_seat(
        n, address, creds, stop, choice=lambda k: "play" if k % 2 else "fold", seen=settled
    )


def deal(dealer: DealerLink, seats: int, rounds: int, seen: Seats) -> dict[int, float]:
    """Run ``rounds`` rounds as the dealer; game -> the instant Confirm was sent (ms)."""
    rng = random.Random(5)

    def ok(**body: Any) -> None:
        result = dealer.call(timeout=60, **body)
        if not result.ok:
            raise RuntimeError(f"{result.error}: {result.reason}")

    first = dealer.call(timeout=60, sign_in=dpb.SignIn(role=dpb.DEALER_ROLE_DEALER, pin="4444"))
    if first.ok and first.must_change_pin:
        ok(change_pin=dpb.ChangeDealerPin(new_pin=DEALER_PIN))
    elif not first.ok:
        ok(sign_in=dpb.SignIn(role=dpb.DEALER_ROLE_DEALER, pin=DEALER_PIN))
    dealer.wait_view(lambda v: v.seats_in == seats and v.phase == "idle", 120)
    confirmed: dict[int, float] = {}
    for _ in range(rounds):
        ok(new_game=dpb.NewGame())
        view = dealer.wait_view(lambda v: v.phase == "betting" and v.seats_bet == seats, 60)
        game = view.game_number
        ok(close_bets=dpb.CloseBets(game_number=game))
        cards = rng.sample(range(52), 12)
        for pack in (1, 2, 3):
            laid = cards[3 * pack - 3 : 3 * pack]
            ok(lay_pack=dpb.LayPack(game_number=game, pack=pack, cards=laid))
        dealer.wait_view(lambda v: v.phase == "dealing", 60)
        ok(lay_pack=dpb.LayPack(game_number=game, pack=4, cards=cards[9:]))
        confirmed[game] = now_ms()
        ok(confirm=dpb.ConfirmRound(game_number=game))
        end = time.monotonic() + 60
        while len(seen.settled.get(game, ())) < seats and time.monotonic() < end:
            time.sleep(0.005)
    return confirmed


async def play(address: str, pki_dir: Path, seats: int, rounds: int, table: bool) -> Figures:
    seen = Seats()
    stop = asyncio.Event()
    creds = [pki.credentials(pki_dir, f"seat-{n}") for n in range(seats)]
    tasks = [asyncio.create_task(seat(n, address, creds[n], seen, stop)) for n in range(seats)]
    if table:
        dealer = DealerLink(address, pki.credentials(pki_dir, "dealer-1"))
        try:
            starts = await asyncio.to_thread(deal, dealer, seats, rounds + 1, seen)
        finally:
            dealer.close()
    else:
        end = time.monotonic() + 60 + rounds * 5
        while len([g for g, t in seen.settled.items() if len(t) == seats]) < rounds + 2:
            if time.monotonic() > end:
                break
            await asyncio.sleep(0.05)
        starts = dict(seen.stamped)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    figures = Figures()
    full = sorted(g for g in starts if len(seen.settled.get(g, ())) == seats)[1:]  # warm-up
    for game in full[:rounds]:
        got = [t - starts[game] for t in seen.settled[game]]
        figures.deliveries += got
        figures.every_seat.append(max(got))
        figures.rounds += 1
    return figures


class StampingBroadcaster(Broadcaster):
    """The bare broadcast, its settled message stamped when it starts going out."""

    def broadcast(self, game: int) -> None:
        for message in round_messages(game):
            if message.WhichOneof("body") == "seat_settled":
                message.journal_seq = int(now_ms())
            with self.lock:
                for outbox in self.queues:
                    outbox.put(message)
            time.sleep(0.05)


def measure(seats: int, rounds: int, work: Path) -> tuple[Figures, Figures]:
    """(the table's figures, the bare broadcast's) for ``seats`` seats."""
    pki_dir = work / "pki"
    pki.ensure_pki(pki_dir, ("table-T1", *(f"seat-{n}" for n in range(seats)), "dealer-1"))
    table_cmd = [
        sys.executable,
        "-c",
        "from kiosk.cli import main; raise SystemExit(main())",
        "table",
        "--data-dir",
        str(work / f"table-{seats}"),
        "serve",
        "--edition",
        "stadium-3cp",
        "--card-source",
        "manual",
        "--pki-dir",
        str(pki_dir),
        "--listen",
        "127.0.0.1:0",
        "--betting-seconds",
        "60",
        "--decision-seconds",
        "60",
    ]
    bare_cmd = [sys.executable, "-m", "tests.table.dealer_bench", "--broadcast", str(pki_dir)]
    results = []
    for command, is_table in ((table_cmd, True), ([*bare_cmd, str(seats)], False)):
        process, address = started(command)
        try:
            results.append(asyncio.run(play(address, pki_dir, seats, rounds, is_table)))
        finally:
            process.terminate()
            process.wait(timeout=30)
    return results[0], results[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seats", default="100")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--broadcast", nargs=2, metavar=("PKI_DIR", "SEATS"), default=None)
    args = parser.parse_args(argv)
    if args.broadcast:
        serve_broadcast(Path(args.broadcast[0]), int(args.broadcast[1]), StampingBroadcaster())
        return 0
    import tempfile

    work = args.work or Path(tempfile.mkdtemp(prefix="dealer-bench-"))
    print(HEADER, flush=True)
    for seats in (int(s) for s in args.seats.split(",")):
        table, bare = measure(seats, args.rounds, work)
        print(table.line("table", seats), flush=True)
        print(bare.line("bare", seats), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
