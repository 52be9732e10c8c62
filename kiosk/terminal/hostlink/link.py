"""The terminal's host link: store-and-forward delivery, host commands, communication loss.

The link is one long-lived gRPC stream (``HostService.Link``,
:mod:`kiosk.terminal.hostlink.stream`): the hello opens it, reports go up, each one's
acknowledgement (after the host's commit) and the host's commands come down.  Two background
threads use it; neither touches the terminal core, which is single-threaded: whatever must
change the terminal is posted to the runtime (:meth:`LinkedRuntime.post`,
:mod:`kiosk.terminal.hostlink.runtime_port`) and runs at its next ``pump()``.

- **sender**: opens the stream with the hello, then drains the outbox (its own connection to
  the journal) oldest first in batches, and forgets a batch only after the host has answered
  that it committed it.
  A failure (of the call, or of the outbox's own store: a full disk at the acknowledgement)
  keeps the batch and retries with exponential back-off, so delivery is at least once
  and the host's de-duplication by message id makes it exactly once in the host's records.  An
  idle link sends an empty batch (heartbeat) every ``min(5 s, timeout / 3)``.
- **commands**: carries out each command that comes down the stream (answered with the unary
  ``CompleteCommand``).

A stream that breaks, or an answer that does not come within ``timeout``, ends the session;
the sender opens a new one (on the next host address when the host could not be reached) and
sends what the outbox still holds, oldest first.

The host's anchor before the first game: :meth:`HostLink.start` disables play
(:data:`~kiosk.terminal.hostlink.anchor.ANCHOR_WAIT_REASON`) until the first hello has compared this
store with the host's acknowledged head; a store behind or beside it is the critical memory
lockup, one in line is enabled again.  With the host unreachable the terminal does not play.

Communication loss: when no call has succeeded for longer than the terminal's
``host_timeout_seconds`` the link posts ``SetEnabled(False, "host link lost")`` -- the core lets
the game in progress finish and then stops play, showing the reason -- and when a call succeeds
again it posts ``SetEnabled(True)``, but only if the terminal is still disabled for that reason
(a disable by the host or an operator stays).
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc

from kiosk.kernel import integrity
from kiosk.kernel.clock import wall_clock_ms
from kiosk.terminal.core import commands as c
from kiosk.terminal.core.commands import CommandError
from kiosk.terminal.hostlink.anchor import (
    ANCHOR_WAIT_REASON,
    JournalHead,
    anchor_problem,
    hash_at,
    read_head,
)
from kiosk.terminal.hostlink.client import HostClient
from kiosk.terminal.hostlink.command_kinds import HostCommandKind
from kiosk.terminal.hostlink.messages import meters_body, outbox_message, snapshot_message
from kiosk.terminal.hostlink.progressive_report import Readings
from kiosk.terminal.hostlink.runtime_port import LinkedRuntime
from kiosk.terminal.hostlink.stream import LinkError, LinkSession
from kiosk.terminal.store.faults import StoreError
from kiosk.terminal.store.journal import Journal
from proto.turbokiosk.v1 import host_pb2

log = logging.getLogger(__name__)

LINK_LOST_REASON = "host link lost"
#: the start of the disable reason while the host refuses this terminal's reports
REFUSED_REASON = "host refused a report"
REFUSALS = (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.RESOURCE_EXHAUSTED)
#: the start of the disable reason while the host refuses this terminal itself (its identity:
#: not enrolled, retired, not a terminal's certificate; decision 0035)
IDENTITY_REFUSED_REASON = c.IDENTITY_REFUSED
HOST_DISABLED_REASON = "disabled by the host"
#: a failed call with one of these moves the link to its next host address
FAIL_OVER = (
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.CANCELLED,
)


def pushback_ms(exc: grpc.RpcError) -> int | None:
    """A ``RESOURCE_EXHAUSTED`` with gRPC's retry pushback (``grpc-retry-pushback-ms``): the
    host's rate limit, milliseconds to wait before sending again; None for any other error."""
    code = exc.code() if callable(getattr(exc, "code", None)) else None
    if code != grpc.StatusCode.RESOURCE_EXHAUSTED:
        return None
    trailing: Any = getattr(exc, "trailing_metadata", None)
    for key, value in (trailing() if callable(trailing) else None) or ():
        if key == "grpc-retry-pushback-ms":
            text = value.decode() if isinstance(value, bytes) else str(value)
            return int(text) if text.isdigit() else None
    return None


class AdjustableClock:
    """The terminal's clock: wall-clock epoch ms plus an offset the host sets (kept in a file)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.offset_ms = 0
        if path is not None and path.exists():
            with contextlib.suppress(ValueError, OSError, KeyError):
                self.offset_ms = int(json.loads(path.read_text())["offset_ms"])

    def __call__(self) -> int:
        return wall_clock_ms() + self.offset_ms

    def set(self, epoch_ms: int) -> None:
        """Make the clock read ``epoch_ms`` now."""
        self.offset_ms = epoch_ms - wall_clock_ms()
        if self.path is not None:
            tmp = self.path.with_suffix(".tmp")
            with open(tmp, "w", encoding="utf-8") as fh:
                json.dump({"offset_ms": self.offset_ms}, fh)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)


class HostLink:
    """Runs a terminal's host link in two daemon threads (see the module docstring)."""

    def __init__(
        self,
        runtime: LinkedRuntime,
        client: HostClient,
        *,
        batch_size: int = 200,
        retry_seconds: tuple[float, float] = (0.1, 2.0),
        set_time: Callable[[int], None] | None = None,
        signature: Callable[[], str] = lambda: integrity.manifest().digest,
        seeded_hmac: Callable[[bytes], bytes] = lambda seed: bytes.fromhex(
            integrity.keyed_check(seed)
        ),
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.runtime = runtime
        self.client = client
        self.terminal_id = client.terminal_id
        self.batch_size = batch_size
        self.retry_seconds = retry_seconds
        self.set_time = set_time
        self.signature = signature
        self.seeded_hmac = seeded_hmac
        self.monotonic = monotonic
        self.meter_period = 60.0
        self.delivered = 0  # messages the host acknowledged
        self.last_authentication: bool | None = None
        #: why this store is out of line with the host's anchor (then only heartbeats are sent)
        self.anchor_problem: str | None = None
        #: why the host refuses this terminal's reports (play is disabled meanwhile)
        self.refusal: str | None = None
        self.identity_refusal: str | None = None  # the host refuses this terminal itself
        #: the progressives this terminal knows, read on its thread with each periodic or
        #: requested meter snapshot and sent beside it (None: none here)
        self.progressive_readings: Readings | None = None
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._hello_done = threading.Event()
        self._lock = threading.Lock()
        self._snapshots: collections.deque[host_pb2.TerminalMessage] = collections.deque()
        self._tags = itertools.count()
        self._epoch = 0
        self._last_contact = monotonic()
        self._connected = False
        self._lost = False
        self._message: tuple[str, float | None] | None = None
        self._session: LinkSession | None = None
        self._threads = [
            threading.Thread(target=self._send_loop, name="host-sender", daemon=True),
            threading.Thread(target=self._command_loop, name="host-commands", daemon=True),
        ]
        runtime.subscribe(lambda _events: self._wake.set())

    # --- life cycle ---------------------------------------------------------------------------

    def start(self) -> HostLink:
        """Start both threads (call on the terminal's thread after the runtime powered up):
        play is disabled until the first hello has checked the host's anchor."""
        self._hold_for_anchor()
        self._last_contact = self.monotonic()
        for thread in self._threads:
            thread.start()
        return self

    def stop(self) -> None:
        """Stop both threads (the outbox keeps what was not delivered)."""
        self._stop.set()
        self._wake.set()
        self._end_session()
        for thread in self._threads:
            if thread.is_alive():
                thread.join(timeout=10)

    # --- status ------------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        """Whether the last call to the host succeeded."""
        return self._connected

    def status(self) -> dict[str, Any]:
        """What a technician checks: where the link goes, as whom, whether it is up, what
        it delivered and when the host last answered."""
        return {
            "address": self.client.address,
            "terminal_id": self.terminal_id,
            "connected": self._connected,
            "play_disabled_by_loss": self._lost,
            "delivered": self.delivered,
            "seconds_since_contact": round(self.monotonic() - self._last_contact, 1),
            "last_authentication": self.last_authentication,
        }

    def player_message(self) -> str | None:
        """The host's message to the player, while it is to be shown."""
        with self._lock:
            if self._message is None:
                return None
            text, until = self._message
            if until is not None and self.monotonic() > until:
                self._message = None
                return None
            return text

    def timeout_seconds(self) -> float:
        """Communication loss beyond this disables play (the terminal's configuration)."""
        return float(self.runtime.state.config.host_timeout_seconds)

    def heartbeat_seconds(self) -> float:
        """How often an idle link proves it is up."""
        return min(5.0, self.timeout_seconds() / 3)

    # --- contact and loss -----------------------------------------------------------------------

    def _contact(self) -> None:
        self._last_contact = self.monotonic()
        if not self._connected or self._lost:
            self._connected = True
            self._lost = False
            self.runtime.post(self._enable_after_loss)

    def _failure(self) -> None:
        self._connected = False
        self._watch()

    def _watch(self) -> None:
        if self._lost:
            return
        if self.monotonic() - self._last_contact > self.timeout_seconds():
            self._lost = True
            self.runtime.post(self._disable_for_loss)

    def _hold_for_anchor(self) -> None:
        """No game until the host's anchor is checked (a terminal already disabled, for the
        host or a lost link, is enabled only after the check: the jobs run in order)."""
        state = self.runtime.state
        if state.disabled is None and state.critical is None:
            with contextlib.suppress(CommandError, StoreError):  # a lockup shows why
                self.runtime.execute(c.SetEnabled(enabled=False, reason=ANCHOR_WAIT_REASON))

    def _anchor_checked(self) -> None:
        """The first hello's check is done (run after it, on the terminal's thread): play
        again, unless the check locked the terminal up."""
        state = self.runtime.state
        if state.disabled == ANCHOR_WAIT_REASON and state.critical is None:
            self.runtime.execute(c.SetEnabled(enabled=True, reason=c.ANCHOR_CHECKED))

    def _disable_for_loss(self) -> None:
        if (self.runtime.state.disabled or "").startswith(IDENTITY_REFUSED_REASON):
            return  # the host's own refusal says more than "lost"
        self.runtime.execute(c.SetEnabled(enabled=False, reason=LINK_LOST_REASON))

    def _enable_after_loss(self) -> None:
        if self.runtime.state.disabled == LINK_LOST_REASON:
            self.runtime.execute(c.SetEnabled(enabled=True, reason="host link back"))

    def _refused(self, exc: grpc.RpcError) -> None:
        """The host refused a call as out of bounds: play stops until a report is accepted
        (the outbox keeps the batch; its events are not accounted for meanwhile)."""
        code = exc.code() if callable(getattr(exc, "code", None)) else None
        if code is grpc.StatusCode.PERMISSION_DENIED:
            self._identity_refused(exc)
            return
        if code not in REFUSALS or self.refusal is not None:
            return
        details = exc.details() if callable(getattr(exc, "details", None)) else None
        self.refusal = str(details or code)
        reason = f"{REFUSED_REASON}: {self.refusal}"[:240]
        self.runtime.post(lambda: self.runtime.execute(c.SetEnabled(enabled=False, reason=reason)))

    def _identity_refused(self, exc: grpc.RpcError) -> None:
        """The host refuses this terminal (not enrolled, retired...): play stops with the
        host's line until it is served again."""
        details = exc.details() if callable(getattr(exc, "details", None)) else None
        reason = f"{IDENTITY_REFUSED_REASON}: {details or 'permission denied'}"[:240]
        if reason == self.identity_refusal:
            return
        self.identity_refusal = reason
        self.runtime.post(lambda: self.runtime.execute(c.SetEnabled(enabled=False, reason=reason)))

    def _served(self) -> None:
        """The host answered a Hello: a refusal of this terminal is over."""
        if self.identity_refusal is None:
            return
        self.identity_refusal = None

        def enable() -> None:
            if (self.runtime.state.disabled or "").startswith(IDENTITY_REFUSED_REASON):
                # posted after this hello's anchor check (:meth:`_hello`): the check is done
                self.runtime.execute(c.SetEnabled(enabled=True, reason=c.ANCHOR_CHECKED))

        self.runtime.post(enable)

    def _fail_over(self, exc: grpc.RpcError) -> None:
        """A host that cannot be reached: the next configured host address (if any); the
        command stream follows when it breaks."""
        code = exc.code() if callable(getattr(exc, "code", None)) else None
        if code in FAIL_OVER and len(self.client.addresses) > 1:
            self.client.fail_over()

    def _end_session(self) -> None:
        """End the link stream (the next hello opens a new one)."""
        self._hello_done.clear()
        session, self._session = self._session, None
        if session is not None:
            session.close()

    def _accepted(self) -> None:
        if self.refusal is None:
            return
        self.refusal = None

        def enable() -> None:
            if (self.runtime.state.disabled or "").startswith(REFUSED_REASON):
                self.runtime.execute(c.SetEnabled(enabled=True, reason="host accepts reports"))

        self.runtime.post(enable)

    # --- sender ---------------------------------------------------------------------------------

    def _pause(self, seconds: float) -> None:
        self._stop.wait(seconds)

    def _send_loop(self) -> None:
        journal, opened_for = Journal(self.runtime.data_dir), self.runtime.journal
        retry = self.retry_seconds[0]
        next_meters = self.monotonic() + self.meter_period
        try:
            signature = self.signature()
            while not self._stop.is_set():
                if self.runtime.journal is not opened_for:  # a RAM clear: a new store
                    journal.close()
                    journal, opened_for = Journal(self.runtime.data_dir), self.runtime.journal
                    self._epoch = 0
                self._epoch = self._epoch or journal.created_at()
                if not self._epoch:  # the terminal has not created its journal yet
                    self._pause(0.05)
                    continue
                try:
                    if not self._hello_done.is_set():
                        self._hello(signature, journal)
                        # the host's period from the first snapshot on, not the default's
                        next_meters = min(next_meters, self.monotonic() + self.meter_period)
                    busy = self._deliver(journal)
                except grpc.RpcError as exc:
                    wait_ms = pushback_ms(exc)
                    if wait_ms is not None:  # throttled: the host is there, send it later
                        self._contact()
                        self._pause(min(wait_ms / 1000, self.retry_seconds[1] * 5))
                        continue
                    self._end_session()
                    self._refused(exc)
                    self._fail_over(exc)
                    self._failure()
                    self._pause(retry)
                    retry = min(retry * 2, self.retry_seconds[1])
                    continue
                except (StoreError, sqlite3.Error):
                    # the outbox could not be read or acknowledged (a full disk, a busy
                    # store): what was sent stays in the outbox and goes again, once, since
                    # the host keeps each message id once; the sender never stops for it
                    self._watch()
                    self._pause(retry)
                    retry = min(retry * 2, self.retry_seconds[1])
                    continue
                retry = self.retry_seconds[0]
                self._watch()
                if self.monotonic() >= next_meters:
                    next_meters = self.monotonic() + self.meter_period
                    self.runtime.post(lambda: self._snapshot("periodic"))
                if not busy:
                    self._wake.wait(min(0.5, self.heartbeat_seconds()))
                    self._wake.clear()
        finally:
            self._end_session()
            journal.close()

    def _hello(self, signature: str, journal: Journal) -> None:
        self._end_session()
        session, answer = self.client.open_link(
            self.runtime.software_version, signature, self.runtime.clock()
        )
        self._session = session
        if answer.meter_period_seconds:
            self.meter_period = float(answer.meter_period_seconds)
        acknowledged = JournalHead.from_proto(answer.acknowledged_head)
        if acknowledged is not None:
            self._check_anchor(acknowledged, journal)
        self.runtime.post(self._anchor_checked)  # after the check, which was posted first
        self._hello_done.set()
        self._served()
        self._contact()

    def _check_anchor(self, acknowledged: JournalHead, journal: Journal) -> None:
        """Compare this store with the host's anchor; the terminal locks up on its own thread.

        The link's own comparison (its reader connection) only decides whether it goes on
        delivering: a store out of line sends heartbeats, never its outbox, whose message ids
        the host may already hold for other events.
        """
        own = read_head(journal)
        problem = anchor_problem(own.epoch, own.seq, lambda n: hash_at(journal, n), acknowledged)
        if problem is not None:
            self.anchor_problem = problem
        epoch, seq, digest = acknowledged.epoch, acknowledged.seq, acknowledged.hash
        self.runtime.post(lambda: self.runtime.check_host_anchor(epoch, seq, digest))

    def _deliver(self, journal: Journal) -> bool:
        """Send one batch (or a heartbeat when due); True when there may be more to send."""
        held = self.anchor_problem is not None
        rows = [] if held else journal.outbox(self.batch_size)
        extra: list[host_pb2.TerminalMessage] = []
        while not held and self._snapshots and len(extra) < 16:
            extra.append(self._snapshots.popleft())
        idle = self.monotonic() - self._last_contact >= self.heartbeat_seconds()
        if not rows and not extra and not idle:
            return False
        batch = [outbox_message(self.terminal_id, self._epoch, row) for row in rows]
        head = read_head(journal)  # read after the rows: every row sent is within it
        session = self._session
        request = host_pb2.ReportRequest(messages=[*batch, *extra], head=head.to_proto())
        try:
            if session is None:  # ended by a fail-over or a stop meanwhile
                raise LinkError(grpc.StatusCode.UNAVAILABLE, "the link stream ended")
            session.report(request)
        except grpc.RpcError:
            self._snapshots.extendleft(reversed(extra))
            raise
        self._accepted()
        self.delivered += len(batch) + len(extra)
        self._contact()  # the host answered, whether or not the acknowledgement is written
        if rows:
            journal.ack_outbox([row.id for row in rows])
        return bool(rows) or bool(self._snapshots)

    def _snapshot(self, reason: str) -> None:
        """Queue a meter snapshot (runs on the terminal's thread)."""
        rt = self.runtime
        seq = rt.journal.head()[0]
        tag = f"{reason[0]}{next(self._tags)}-{rt.clock()}"
        body = meters_body(rt.state, reason)
        msg = snapshot_message(self.terminal_id, self._epoch, seq, rt.clock(), body, tag)
        self._snapshots.append(msg)
        if self.progressive_readings is not None:
            try:
                readings = list(self.progressive_readings())
            except Exception:  # display data: a reader's fault never stops the terminal
                log.exception("host link: the progressive readings could not be read")
                readings = []
            for i, reading in enumerate(readings):
                message_id = f"{self.terminal_id}:{self._epoch}:{seq}:{tag}-p{i}"
                self._snapshots.append(reading.message(message_id, seq, rt.clock()))
        self._wake.set()

    # --- commands -------------------------------------------------------------------------------

    def _command_loop(self) -> None:
        finished: LinkSession | None = None  # the session whose commands ended
        while not self._stop.is_set():
            session = self._session
            if session is None or session is finished or not self._hello_done.wait(0.2):
                self._pause(0.05)
                continue
            while (cmd := session.commands.get()) is not None:
                self._carry_out(cmd)
            finished = session

    def _on_terminal(self, job: Callable[[], object], timeout: float = 10.0) -> str:
        """Run ``job`` on the terminal's thread and wait for it: "" when it was carried out,
        else why not.  A job the terminal has not run within ``timeout`` never runs."""
        lock = threading.Lock()
        done = threading.Event()
        outcome: list[str] = []

        def run() -> None:
            with lock:
                if outcome:  # given up on: the host was told it was not carried out
                    return
                try:
                    job()
                    outcome.append("")
                except (CommandError, StoreError) as exc:
                    outcome.append(str(exc) or type(exc).__name__)
                finally:
                    done.set()

        self.runtime.post(run)
        done.wait(timeout)
        with lock:
            if not outcome:
                outcome.append("the terminal did not carry the command out")
        return outcome[0]

    def _carry_out(self, cmd: host_pb2.HostCommand) -> None:
        kind = cmd.WhichOneof("body")
        error = ""
        mac = b""
        if kind == HostCommandKind.SET_ENABLED:
            enabled = cmd.set_enabled.enabled
            reason = cmd.set_enabled.reason or ("" if enabled else HOST_DISABLED_REASON)
            self.runtime.post(
                lambda: self.runtime.execute(c.SetEnabled(enabled=enabled, reason=reason))
            )
        elif kind == HostCommandKind.REQUEST_METERS:
            self.runtime.post(lambda: self._snapshot("requested"))
        elif kind == HostCommandKind.AUTHENTICATE_SOFTWARE:
            try:
                mac = self.seeded_hmac(cmd.authenticate_software.seed)
            except (ValueError, OSError) as exc:
                error = f"software authentication failed: {exc}"
        elif kind == HostCommandKind.SET_TIME:
            if self.set_time is None:
                error = "this terminal's clock cannot be set"
            else:
                self.set_time(cmd.set_time.epoch_ms)
        elif kind == HostCommandKind.CONFIRM_DEVICE_RECORDS:
            confirm = cmd.confirm_device_records
            by = f"host operator {confirm.operator} (command {cmd.command_id})"
            error = self._on_terminal(
                lambda: self.runtime.confirm_device_records(
                    confirm.tilt, by=by, reason=confirm.reason
                )
            )
        elif kind == HostCommandKind.PLAYER_MESSAGE:
            seconds = cmd.player_message.seconds
            until = self.monotonic() + seconds if seconds else None
            with self._lock:
                self._message = (
                    (cmd.player_message.text, until) if cmd.player_message.text else None
                )
        else:
            error = f"unknown command {kind!r}"
        with contextlib.suppress(grpc.RpcError):
            answer = self.client.complete(cmd.command_id, error=error, software_hmac=mac)
            if kind == HostCommandKind.AUTHENTICATE_SOFTWARE and not error:
                self.last_authentication = answer.software_match
