"""Group commit: many terminals' reports recorded in one transaction, each answered once durable.

The host's RPC handlers :meth:`GroupCommitter.submit` a :class:`~kiosk.host.accounting.db.Report`
and wait on the future it returns.  ``writers`` threads each take everything queued (up to
``max_reports``) and record it with :meth:`HostDb.record_reports` in one transaction; only
after that commit returned are the futures resolved, so no report is acknowledged before it is
durable.  While one group commits the next one gathers, so the group grows with the load: one
fsync carries as many reports as arrived during the previous one.

``gather_ms`` holds the next group until that long has passed since the previous one started
(or ``max_reports`` are queued): at most one group every ``gather_ms``, each report waiting at
most that long more; a report that finds the window already passed (a quiet host) is not held.
The library's default is 0 (decision 0072); ``host serve`` takes :data:`SERVE_GATHER_MS`:
each group costs the host about 0.7 ms of CPU beside its reports' own (the statements, the
commit, the wake-ups), and at 5,000 paced terminals the window cut the host's CPU a report by
a quarter (decision 0075).

A report whose call was cancelled (its deadline passed) before a writer took it is not
recorded (the terminal sends it again); once taken, it can no longer be cancelled.

If the group's transaction fails (a PostgreSQL deadlock with another host process, one
malformed report, the database briefly away) nothing of it was recorded; each report is then
recorded in its own transaction and only the ones that fail again get the error.

One writer is the default (the largest groups; several writers only contend for the
interpreter: on the 2-core test machine 2,000 paced terminals on PostgreSQL had p50 1.4 s with
one writer, 2.2 s with four); PostgreSQL can take several (``--writers``), each on its own
connection; SQLite serialises them anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Union

from kiosk.host.accounting.db import HostDb, Report, ReportResult

log = logging.getLogger(__name__)

#: the gathering window (ms; decision 0072): 0, each group as soon as a report is queued
GATHER_MS = 0.0
#: the floor server's window (``host serve``; decision 0075): at most 100 groups a second
SERVE_GATHER_MS = 10.0

#: who waits for a report: a thread (a concurrent future) or a coroutine (an asyncio future)
Waiter = Union[Future[ReportResult], "asyncio.Future[ReportResult]"]


@dataclass(frozen=True)
class CommitStats:
    """Counters since the committer started (read by the progress log and the health check)."""

    reports: int
    messages: int
    groups: int
    queued: int
    largest_group: int


class GroupCommitter:
    """Queues reports and records them in groups (see the module docstring)."""

    def __init__(
        self,
        db: HostDb,
        *,
        writers: int = 1,
        max_reports: int = 2_000,
        gather_ms: float = GATHER_MS,
    ) -> None:
        if gather_ms < 0:
            raise ValueError(f"gather_ms {gather_ms}: at least 0")
        self.db = db
        self.max_reports = max_reports
        self.gather_seconds = gather_ms / 1000
        self._started = 0.0  # when the last group began (time.monotonic), for the gathering
        self._queue: deque[tuple[Report, Waiter]] = deque()
        self._cond = threading.Condition()
        self._stopping = False
        self._idle = 0  # writers waiting for a first report
        self._reports = self._messages = self._groups = self._largest = 0
        self._threads = [
            threading.Thread(target=self._run, name=f"host-commit-{i}", daemon=True)
            for i in range(writers)
        ]

    def start(self) -> GroupCommitter:
        """Start the writer threads."""
        for thread in self._threads:
            thread.start()
        return self

    def stop(self) -> None:
        """Record what is queued, then stop the writers."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        for thread in self._threads:
            if thread.is_alive():
                thread.join(timeout=30)

    def submit(self, report: Report) -> Future[ReportResult]:
        """Queue a report; the future holds its result once committed (or the error)."""
        future: Future[ReportResult] = Future()
        self._enqueue(report, future)
        return future

    def submit_async(self, report: Report) -> asyncio.Future[ReportResult]:
        """Queue a report from a coroutine; await the future for its result.

        The group's writer settles all of one event loop's futures with one
        ``call_soon_threadsafe`` (one wake-up of the loop per group, not one per report).
        A future cancelled before a writer took its report (the call's deadline passed) drops
        the report, as :meth:`submit` does.
        """
        future: asyncio.Future[ReportResult] = asyncio.get_running_loop().create_future()
        self._enqueue(report, future)
        return future

    def _enqueue(self, report: Report, waiter: Waiter) -> None:
        with self._cond:
            if self._stopping:
                waiter.set_exception(RuntimeError("the host is stopping"))
                return
            self._queue.append((report, waiter))
            # a gathering writer is woken only by a full group (not once a report)
            if self._idle or len(self._queue) >= self.max_reports:
                self._cond.notify()

    def stats(self) -> CommitStats:
        """The counters now."""
        with self._cond:
            return CommitStats(
                self._reports, self._messages, self._groups, len(self._queue), self._largest
            )

    def _take(self) -> list[tuple[Report, Waiter]] | None:
        with self._cond:
            while not self._queue:
                if self._stopping:
                    return None
                self._idle += 1
                try:
                    self._cond.wait(0.5)
                finally:
                    self._idle -= 1
            self._gather()
            group: list[tuple[Report, Waiter]] = []
            while self._queue and len(group) < self.max_reports:
                report, waiter = self._queue.popleft()
                if _take_waiter(waiter):  # else its call was cancelled
                    group.append((report, waiter))
            return group

    def _gather(self) -> None:
        """Wait (the condition held) until ``gather_ms`` since the last group began, unless
        a full group is queued or the committer stops."""
        opens = self._started + self.gather_seconds
        while len(self._queue) < self.max_reports and not self._stopping:
            left = opens - time.monotonic()
            if left <= 0:
                break
            self._cond.wait(left)
        self._started = time.monotonic()

    def _run(self) -> None:
        while (group := self._take()) is not None:
            if group:
                self._commit(group)

    def _commit(self, group: list[tuple[Report, Waiter]]) -> None:
        reports = [report for report, _ in group]
        try:
            results = self.db.record_reports(reports)
        except Exception as exc:  # nothing of the group was recorded
            if len(group) > 1:
                log.warning("group of %d reports failed (%s); one by one", len(group), exc)
            settled = [(waiter, self._commit_one(report)) for report, waiter in group]
            _settle(settled)
            return
        _settle([(waiter, result) for (_, waiter), result in zip(group, results, strict=True)])
        self._count(reports)

    def _commit_one(self, report: Report) -> ReportResult | Exception:
        for attempt in range(3):
            try:
                (result,) = self.db.record_reports([report])
            except Exception as exc:  # the RPC answers the error
                if attempt == 2:
                    return exc
                time.sleep(0.05 * (attempt + 1))
                continue
            self._count([report])
            return result
        raise AssertionError("unreachable")  # pragma: no cover

    def _count(self, reports: list[Report]) -> None:
        with self._cond:
            self._reports += len(reports)
            self._messages += sum(len(r.messages) for r in reports)
            self._groups += 1
            self._largest = max(self._largest, len(reports))


def _take_waiter(waiter: Waiter) -> bool:
    """True when the report is still wanted; a concurrent future can no longer be cancelled."""
    if isinstance(waiter, Future):
        return waiter.set_running_or_notify_cancel()
    return not waiter.cancelled()  # a late cancel only loses the answer: the terminal resends


def _settle(outcomes: list[tuple[Waiter, ReportResult | Exception]]) -> None:
    """Give each waiter its result or error; one wake-up per event loop."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[ReportResult], Any]]] = {}
    for waiter, outcome in outcomes:
        if isinstance(waiter, Future):
            if isinstance(outcome, Exception):
                waiter.set_exception(outcome)
            else:
                waiter.set_result(outcome)
        else:
            by_loop.setdefault(waiter.get_loop(), []).append((waiter, outcome))
    for loop, pairs in by_loop.items():
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(_settle_in_loop, pairs)


def _settle_in_loop(pairs: list[tuple[asyncio.Future[ReportResult], Any]]) -> None:
    for future, outcome in pairs:
        if future.done():  # cancelled after it was taken
            continue
        if isinstance(outcome, Exception):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)
