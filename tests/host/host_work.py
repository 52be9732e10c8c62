"""The host's own work a report, with no gRPC: ``python -m tests.host.host_work``.

``N`` coroutine terminals (default 200) send reports back to back for ``--seconds`` straight
into :meth:`HostServicer._link_ack` (the link stream's handler of one report: rate limit,
bounds, conversion, plausibility, the group commit and its answer) on a real SQLite file in a
temporary directory, fsync on, one writer thread.  Each report is the floor harness's: one
``game_played`` with three spots, a meter snapshot every 20th, its journal head; built,
serialised and parsed again as the stream would.

The baseline, measured first in the same run: building, serialising and parsing the same
requests and an answer, with no host.  Printed: reports a second, the CPU a report of the whole
process, of the event loop's thread and of the writer thread, the baseline's, and the host's
work a report (the whole less the baseline).  The figures are what the host spends beyond
gRPC: the floor's streaming echo measures gRPC's own share (docs/host.md, "Issue 27, eighth
look").
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import threading
import time
from concurrent import futures
from pathlib import Path

from kiosk.host.accounting.db import SqliteHostDb
from kiosk.host.accounting.group_commit import GroupCommitter
from kiosk.host.accounting.server import CommandDispatcher, HostServicer, HostSettings
from proto.turbokiosk.v1 import host_pb2
from tests.host.floor_worker_aio import METERS, report_request


class Terminal:
    """One terminal's reports, as the floor harness builds them."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.seq = 0
        self.number = 0
        self.meters = dict.fromkeys(METERS, 0)

    def next_request(self) -> bytes:
        """The next report on the link stream, serialised: a meter snapshot every 20th, the
        first a power-up one."""
        number = self.number if self.number else -1
        request, self.seq = report_request(
            self.name, self.seq, self.meters, number, None, snapshot=self.number % 20 == 0
        )
        self.number += 1
        return host_pb2.LinkRequest(number=self.number, report=request).SerializeToString()


def thread_cpu(tid: int) -> float:
    """CPU seconds of thread ``tid`` of this process."""
    stat = Path(f"/proc/self/task/{tid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _writer_id() -> int:
    """The native thread id of the group commit's one writer."""
    (writer,) = [t for t in threading.enumerate() if t.name == "host-commit-0"]
    assert writer.native_id is not None
    return writer.native_id


async def _baseline(terminals: list[Terminal], seconds: float) -> int:
    """The requests and an answer built, serialised and parsed; no host."""
    count = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for t in terminals:
            request = host_pb2.LinkRequest.FromString(t.next_request())
            ack = host_pb2.LinkAck(number=request.number)
            host_pb2.LinkResponse(ack=ack).SerializeToString()
            count += 1
        await asyncio.sleep(0)
    return count


async def _host(servicer: HostServicer, terminals: list[Terminal], seconds: float) -> int:
    """Each terminal back to back through the link's handler of one report."""
    counts = [0] * len(terminals)

    async def play(i: int, t: Terminal, end: float) -> None:
        while time.monotonic() < end:
            request = host_pb2.LinkRequest.FromString(t.next_request())
            ack = await servicer._link_ack(t.name, request)
            if ack.status:
                raise SystemExit(f"host_work: {t.name}'s report refused: {ack.details}")
            host_pb2.LinkResponse(ack=ack).SerializeToString()
            counts[i] += 1

    end = time.monotonic() + seconds
    await asyncio.gather(*(play(i, t, end) for i, t in enumerate(terminals)))
    return sum(counts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.host.host_work", description=__doc__)
    parser.add_argument("--terminals", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args(argv)
    if args.terminals < 1 or args.seconds <= 0:
        print("host_work: --terminals at least 1, --seconds above 0", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as directory:
        db = SqliteHostDb(Path(directory) / "host.sqlite3")
        names = [f"HW{i:05d}" for i in range(args.terminals)]
        for name in names:
            db.enroll(name, 0)
            db.hello(name, "host_work", "", 0)
        committer = GroupCommitter(db).start()
        pool = futures.ThreadPoolExecutor(2)
        servicer = HostServicer(db, CommandDispatcher(db), HostSettings(), committer, pool)
        servicer.pay_book.preload()
        try:
            figures = asyncio.run(_measure(servicer, names, args.seconds))
        finally:
            committer.stop()
            pool.shutdown()
            db.close()
    print(figures)
    return 0


async def _measure(servicer: HostServicer, names: list[str], seconds: float) -> str:
    warm = [Terminal(n) for n in names]
    await _host(servicer, warm, 0.5)  # first contact: anchors and meter epochs
    c0 = time.process_time()
    base = await _baseline([Terminal(f"B{n}") for n in names], seconds)
    base_ms = (time.process_time() - c0) * 1000 / base
    loop_tid, writer_tid = threading.get_native_id(), _writer_id()
    loop0, writer0 = thread_cpu(loop_tid), thread_cpu(writer_tid)
    c0, w0 = time.process_time(), time.monotonic()
    reports = await _host(servicer, warm, seconds)
    cpu, wall = time.process_time() - c0, time.monotonic() - w0
    loop_ms = (thread_cpu(loop_tid) - loop0) * 1000 / reports
    writer_ms = (thread_cpu(writer_tid) - writer0) * 1000 / reports
    total_ms = cpu * 1000 / reports
    return (
        f"host_work: {len(names)} terminals back to back, {reports:,} reports in {wall:.1f} s"
        f" ({reports / wall:,.0f} a second); CPU a report: whole {total_ms:.4f} ms (event loop"
        f" {loop_ms:.4f}, writer {writer_ms:.4f}); baseline (requests and answers, no host)"
        f" {base_ms:.4f} ms; the host's work {total_ms - base_ms:.4f} ms a report"
    )


if __name__ == "__main__":
    raise SystemExit(main())
