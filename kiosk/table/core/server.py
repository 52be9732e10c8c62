"""The table controller served over gRPC with mutual TLS (``TableService``, a stream per seat).

A seat's identity is its client certificate: the seat role and the canonical common name
``seat-<n>`` (:mod:`kiosk.terminal.hostlink.identity`; ``seat-01`` or a terminal's, a dealer's or
the host's certificate is refused), issued by the same CA tooling as the host link
(:mod:`kiosk.terminal.hostlink.pki`); a stream that joins, or reports, as another seat is refused.
Every command runs under one lock on the :class:`TableController`, which journals its events; only
then are they put on the connected seats' queues (each seat gets
:func:`~kiosk.table.core.messages.step_for_seat` of each, a publication's steps as one list).
Seats' reports that wait for the lock together are carried out together, in order, as one
signed journal commit (decision 0070).  A repeated report is answered with the
record already journaled; a refused one with ``Refused``.  A stream that ends is the seat leaving:
its wagers stay in the round and get the default decision at the timer.  A
ticker thread runs the timers on the controller's clock (epoch milliseconds by default, so the
deadlines a journal holds still mean the same instants after a restart or a reboot).
"""

from __future__ import annotations

import collections
import contextlib
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent import futures
from typing import Any

import grpc

from kiosk.kernel.clock import wall_clock_ms
from kiosk.kernel.games.progressive import Hit
from kiosk.table.core import commands as c
from kiosk.table.core import events as e
from kiosk.table.core.controller import TableController, TableLockedError
from kiosk.table.core.core import Phase
from kiosk.table.core.dealer_access import DealerAccess
from kiosk.table.core.dealer_desk import DealerDesk, DealerServicer
from kiosk.table.core.messages import addressees, command_of, finished_round, step_for_seat
from kiosk.table.core.shuffler_feed import ShufflerFeed
from kiosk.terminal.hostlink import identity
from kiosk.terminal.hostlink.channel import KEEPALIVE
from kiosk.terminal.hostlink.pki import Credentials, listen_mutual_tls
from proto.turbokiosk.v1 import dealer_pb2, dealer_pb2_grpc, table_pb2_grpc
from proto.turbokiosk.v1 import table_pb2 as pb

#: the largest message a seat may send, in bytes
MAX_REQUEST_BYTES = 64 * 1024
#: how often an idle seat stream looks whether it is still active (a stream that ends is also
# told at once, through its callback: this is the backstop)
POLL_SECONDS = 2.0


#: a seat stream's queue: the steps of each publication, in order (None: the stream ends)
Outbox = queue.Queue[list[pb.SeatResponse] | None]


class _Seats:
    """The queues of the connected seats (one stream per seat)."""

    def __init__(self) -> None:
        self.queues: dict[int, Outbox] = {}


class TableServicer(table_pb2_grpc.TableServiceServicer):
    """The seats' streams on one controller."""

    def __init__(self, table: TableServer) -> None:
        self.table = table

    def Seat(  # noqa: N802 (the generated servicer's name)
        self, request_iterator: Iterator[pb.SeatRequest], context: grpc.ServicerContext
    ) -> Iterator[pb.SeatResponse]:
        seat = self._seat_of(context)
        first = next(request_iterator, None)
        if first is None or first.WhichOneof("body") != "join" or first.join.seat != seat:
            context.abort(grpc.StatusCode.PERMISSION_DENIED, f"this stream is seat {seat}'s")
            raise AssertionError("abort returned")  # pragma: no cover
        try:
            outbox = self.table.connect(seat, first)
        except c.TableCommandError as exc:  # another table, or the table is full
            context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(exc))
            raise AssertionError("abort returned") from exc  # pragma: no cover
        context.send_initial_metadata((("seated", str(seat)),))  # the seat knows it is seated
        context.add_callback(lambda: outbox.put(None))  # the stream ended: stop waiting
        reader = threading.Thread(
            target=self.table.read_reports, args=(seat, outbox, request_iterator), daemon=True
        )
        reader.start()
        while context.is_active():
            try:
                steps = outbox.get(timeout=POLL_SECONDS)
            except queue.Empty:
                continue
            if steps is None:
                break
            yield from steps

    def _seat_of(self, context: grpc.ServicerContext) -> int:
        auth: Any = context.auth_context()
        try:
            return identity.require(auth, identity.Role.SEAT).number
        except identity.IdentityError as exc:
            context.abort(grpc.StatusCode.PERMISSION_DENIED, f"not a seat: {exc}")
            raise AssertionError("abort returned") from exc  # pragma: no cover


class TableServer:
    """A controller on a gRPC port with mutual TLS, its timers on a ticker thread."""

    def __init__(
        self,
        controller: TableController,
        credentials: Credentials,
        address: str = "127.0.0.1:0",
        *,
        clock: Callable[[], int] = wall_clock_ms,
        tick_seconds: float = 0.02,
        auto_deal_ms: int | None = None,
        dealer_access: DealerAccess | None = None,
        card_feed: ShufflerFeed | None = None,
    ) -> None:
        """``auto_deal_ms``: press the dealer's buttons that long after each round's end and
        each settlement (a table without a dealer terminal); ``dealer_access``: the Dealer
        Terminal's PIN checks; ``card_feed``: the shuffler of a ``shuffler`` table."""
        self.controller = controller
        self.auto_deal_ms = auto_deal_ms
        #: the table's progressive as the Dealer Terminal shows it, (name, winning outcome,
        # meter cents), or None (set by ``table serve --progressive``; never blocks: a feed's
        # last known meter, kiosk/table/progressive/feed.py)
        self.progressive: Callable[[], tuple[str, str, int] | None] = lambda: None
        #: every progressive hit of this table's seats known, by key (sent on each join)
        self._hits: dict[str, pb.SeatResponse] = {}
        self._phase_since = (controller.state.phase, clock())
        self.table_id = controller.state.config.table_id
        self.clock = clock
        self.tick_seconds = tick_seconds
        self._lock = threading.Lock()
        self.lock = self._lock  # the table's one lock (the dealer desk takes it too)
        self._seats = _Seats()
        self._round_steps: list[tuple[int, e.Event]] = []
        #: the seats' reports waiting for the lock, in their order of arrival
        self._reports: collections.deque[tuple[int, Outbox, pb.SeatRequest]] = collections.deque()
        last = controller.state.round
        if last is not None:  # a restarted controller: the round in progress, read once
            self._round_steps = [
                (seq, event)
                for seq, event in enumerate(controller.journal.events(), 1)
                if getattr(event, "game_number", None) == last.game_number
            ]
        self._stopping = threading.Event()
        #: why the controller locked while serving (the server then stopped), or None
        self.locked: str | None = None
        self._ticker = threading.Thread(target=self._tick, name="table-ticker", daemon=True)
        self.server = grpc.server(  # each seat's stream holds a worker for its lifetime
            futures.ThreadPoolExecutor(
                max_workers=controller.state.config.max_seats + 16, thread_name_prefix="table-rpc"
            ),
            options=[*KEEPALIVE, ("grpc.max_receive_message_length", MAX_REQUEST_BYTES)],
        )
        table_pb2_grpc.add_TableServiceServicer_to_server(  # type: ignore[no-untyped-call]
            TableServicer(self), self.server
        )
        self.desk = DealerDesk(self, dealer_access or DealerAccess(), card_feed)
        dealer_pb2_grpc.add_DealerServiceServicer_to_server(  # type: ignore[no-untyped-call]
            DealerServicer(self.desk, self._stopping.is_set), self.server
        )
        self.port, self.address = listen_mutual_tls(self.server, address, credentials)

    def _show_progressive(self, opened: pb.RoundOpened) -> None:
        """Put the table's progressive (as last known) on a round's opening step."""
        shown = self.progressive()
        if shown is not None:
            name, outcome, cents = shown
            opened.progressive.CopyFrom(
                pb.SeatProgressive(name=name, outcome=outcome, meter_cents=cents)
            )

    def offer_hits(self, name: str, outcome: str, hits: Sequence[Hit], source: str) -> None:
        """The progressive booked ``hits`` (keys ``source/game/seat/spot``): send each to its
        seat now if it is connected, and on its every join (the seat pays a key once).  Takes
        the table's lock: call it from the progressive feed's thread, never from a hook of the
        controller (those run under the lock)."""
        with self._lock:
            for hit in hits:
                if not hit.key.startswith(f"{source}/"):
                    continue
                _, game, seat, _ = hit.key.split("/")
                body = pb.SeatProgressiveHit(
                    key=hit.key,
                    progressive=name,
                    outcome=outcome,
                    award_cents=hit.award_cents,
                    handpay=hit.handpay,
                )
                step = pb.SeatResponse(
                    table_id=self.table_id,
                    game_number=int(game),
                    seat=int(seat),
                    progressive_hit=body,
                )
                self._hits[hit.key] = step
                outbox = self._seats.queues.get(int(seat))
                if outbox is not None:
                    outbox.put([step])

    def progressive_display(self) -> dealer_pb2.ProgressiveDisplay | None:
        """The progressive line of the Dealer Terminal's view (None: no progressive)."""
        shown = self.progressive()
        if shown is None:
            return None
        name, outcome, cents = shown
        return dealer_pb2.ProgressiveDisplay(name=name, outcome=outcome, meter_cents=cents)

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def current_game(self) -> int:
        """The round in progress (0: none)."""
        rnd = self.controller.state.round
        return rnd.game_number if rnd is not None else 0

    def online_seats(self) -> set[int]:
        """The seats connected now."""
        return set(self._seats.queues)

    def start(self) -> TableServer:
        if self.desk.feed is not None:
            self.desk.feed.start()
        with self._lock:
            self._publish(self.controller.resume(self.clock()))
            self.desk.resync()
        self.server.start()
        self._ticker.start()
        return self

    def stop(self, grace: float = 0.5) -> None:
        self._stopping.set()
        with self._lock:
            for outbox in self._seats.queues.values():
                outbox.put(None)
            for stream in self.desk.streams:
                stream.outbox.put(None)
        self.server.stop(grace).wait()
        if self._ticker.is_alive():
            self._ticker.join()
        if self.desk.feed is not None:
            self.desk.feed.close()

    # -- the dealer's buttons -------------------------------------------------------------

    def open_round(self) -> list[e.Event]:
        return self.execute(c.OpenRound())

    def close_round(self) -> list[e.Event]:
        return self.execute(c.CloseRound())

    def execute(self, cmd: c.Command) -> list[e.Event]:
        """Run ``cmd`` on the controller and tell the seats (after it is journaled)."""
        with self._lock:
            return self.execute_locked(cmd)

    def execute_locked(self, cmd: c.Command, audit: e.DealerAudited | None = None) -> list[e.Event]:
        """:meth:`execute` for a caller that holds the lock (with the dealer's audit record)."""
        # each commit told to the seats as soon as it is journaled: the bets' close goes out
        # while the first deal is drawn and journaled (decision 0070)
        return self.controller.execute(cmd, self.clock(), audit, journaled=self._publish)

    # -- the seats --------------------------------------------------------------------------

    def connect(self, seat: int, join: pb.SeatRequest) -> Outbox:
        """A seat's stream opened: its queue, with the steps of the round in progress."""
        outbox: Outbox = queue.Queue()
        with self._lock:
            old = self._seats.queues.pop(seat, None)
            if old is not None:
                old.put(None)  # a seat has one stream: the newer wins
            self._publish(self.controller.execute(command_of(join, self.table_id), self.clock()))
            self._seats.queues[seat] = outbox
            replay = self._current_round()
            told: list[pb.SeatResponse] = []
            for seq, event in replay:
                step = step_for_seat(event, seq, self.table_id, seat, self.clock())
                if step is not None:
                    told.append(step)
            pause = self._pause_now(seat, replay)
            if pause is not None:
                told.append(pause)
            told += [hit for hit in self._hits.values() if hit.seat == seat]
            rnd = self.controller.state.round
            for game in sorted({join.join.pending_game, join.join.last_settled_game} - {0}):
                if rnd is None or rnd.game_number != game:  # ended while the seat was away
                    told.append(finished_round(self.controller, self.table_id, seat, game))
            if told:
                outbox.put(told)
            self.desk.changed()  # the seat is online now
        return outbox

    def read_reports(
        self,
        seat: int,
        outbox: Outbox,
        requests: Iterator[pb.SeatRequest],
    ) -> None:
        """Carry out a seat's reports until its stream ends; then the seat has left (unless a
        newer stream of the same seat took over)."""
        try:
            for request in requests:
                self._report(seat, outbox, request)
        except grpc.RpcError:
            pass
        finally:
            with self._lock:
                if self._seats.queues.get(seat) is outbox:
                    del self._seats.queues[seat]
                    outbox.put(None)
                    if not self._stopping.is_set():
                        self._publish(self.controller.execute(c.Leave(seat), self.clock()))

    def _report(self, seat: int, outbox: Outbox, request: pb.SeatRequest) -> None:
        """Carry out a seat's report: it waits in line, and whichever reader takes the lock
        carries out every report waiting then, in order, journaled together (decision 0070)."""
        self._reports.append((seat, outbox, request))
        with self._lock:
            self._carry_out_reports()

    def _carry_out_reports(self) -> None:
        """The reports waiting, in their order of arrival (under the lock): one journal commit
        for the run (:meth:`TableController.execute_reports`), then each one's answer."""
        batch = []
        while self._reports:
            batch.append(self._reports.popleft())
        if not batch or self._stopping.is_set():  # closing: nothing more is carried out
            return
        read: list[tuple[int, Outbox, int, c.Command | c.TableCommandError]] = []
        for seat, outbox, request in batch:
            try:
                asked = command_of(request, self.table_id)
                if getattr(asked, "seat", seat) != seat:
                    raise c.InvalidArgumentError(f"this stream is seat {seat}'s")
                read.append((seat, outbox, getattr(asked, "game_number", 0), asked))
            except c.TableCommandError as exc:
                read.append((seat, outbox, 0, exc))
        cmds = [cmd for _, _, _, cmd in read if not isinstance(cmd, c.TableCommandError)]
        seq = self.controller.journal.head[0] + 1  # the run's first row
        results = iter(self.controller.execute_reports(cmds, self.clock()))
        for seat, outbox, game, cmd in read:
            result: list[e.Event] | c.TableCommandError = (
                cmd if isinstance(cmd, c.TableCommandError) else next(results)
            )
            if isinstance(result, list):
                self._publish(result, seq)
                seq += len(result)
            elif isinstance(result, c.DuplicateReportError) and not isinstance(
                cmd, c.TableCommandError
            ):
                outbox.put(self._journaled_answer(seat, cmd))
            else:
                refused = pb.Refused(reason=str(result))
                outbox.put(
                    [
                        pb.SeatResponse(
                            table_id=self.table_id, game_number=game, seat=seat, refused=refused
                        )
                    ]
                )

    def _pause_now(self, seat: int, replay: list[tuple[int, e.Event]]) -> pb.SeatResponse | None:
        """For a seat that connects: the pause in force, or the deadlines a resume moved (the
        replayed steps carry the deadlines the round's windows opened with); None: neither."""
        state = self.controller.state
        head, now, game = self.controller.journal.head[0], self.clock(), self.current_game()
        if state.paused is not None:
            return step_for_seat(state.paused, head, self.table_id, seat, now, game_number=game)
        rnd = state.round
        if rnd is None:
            return None
        moved = any(
            (isinstance(ev, e.RoundOpened) and ev.betting_deadline != rnd.betting_deadline)
            or (isinstance(ev, e.FirstDealt) and ev.decision_deadline != rnd.decision_deadline)
            for _, ev in replay
        )
        if not moved:
            return None
        resumed = e.TableResumed(now, 0, "", rnd.betting_deadline, rnd.decision_deadline)
        return step_for_seat(resumed, head, self.table_id, seat, now, game_number=game)

    def _journaled_answer(self, seat: int, cmd: c.Command) -> list[pb.SeatResponse]:
        """The journaled record a repeated report gets again."""
        kind = e.WagerAccepted if isinstance(cmd, c.ReportWager) else e.DecisionMade
        out = []
        for seq, event in self._current_round():
            if isinstance(event, kind) and event.seat == seat:
                step = step_for_seat(event, seq, self.table_id, seat)
                if step is not None:
                    out.append(step)
        return out

    def _current_round(self) -> list[tuple[int, e.Event]]:
        """The journaled steps of the round in progress (kept as they are published)."""
        rnd = self.controller.state.round
        if rnd is None:
            return []
        return [
            (seq, event)
            for seq, event in self._round_steps
            if getattr(event, "game_number", None) == rnd.game_number
        ]

    def _publish(self, events: list[e.Event], first_seq: int | None = None) -> None:
        """Put journaled events (rows ``first_seq``...; by default the journal's last) on the
        queue of every connected seat they concern (called under the lock)."""
        if first_seq is None:
            first_seq = self.controller.journal.head[0] - len(events) + 1
        now = self.clock()
        game = self.current_game()
        queues = self._seats.queues
        told: dict[int, list[pb.SeatResponse]] = {}
        for seq, event in enumerate(events, first_seq):
            if isinstance(event, e.RoundOpened):
                self._round_steps = []
            if not isinstance(event, e.SeatJoined | e.SeatLeft):
                self._round_steps.append((seq, event))
            for seat in addressees(event, queues):
                step = step_for_seat(event, seq, self.table_id, seat, now, game_number=game)
                if step is not None:
                    if step.HasField("round_opened"):
                        step.round_opened.seats_in = len(self.controller.state.seats)
                        self._show_progressive(step.round_opened)
                    told.setdefault(seat, []).append(step)
        for seat, steps in told.items():  # every step built first: one wake-up for each seat
            queues[seat].put(steps)
        if events:
            self.desk.after(events)
            self.desk.changed()

    def _tick(self) -> None:
        while not self._stopping.wait(self.tick_seconds):
            with self._lock:
                with contextlib.suppress(TableLockedError):  # the fault is looked at below
                    self.execute_locked(c.Tick())
                    self.desk.tick()
                    if self.auto_deal_ms is not None:
                        self._deal_automatically(self.auto_deal_ms)
                    self.desk.flush_views()
                if self.controller.fault is not None:
                    self._lock_up(self.controller.fault)
                    return

    def _lock_up(self, reason: str) -> None:
        """The controller is locked (a step could not be journaled or signed): every stream
        ends and the server stops; :attr:`locked` says why (under the lock)."""
        self.locked = reason
        self._stopping.set()
        for outbox in self._seats.queues.values():
            outbox.put(None)
        for stream in self.desk.streams:
            stream.outbox.put(None)
        threading.Thread(target=self.server.stop, args=(0.5,), daemon=True).start()

    def _deal_automatically(self, pause_ms: int) -> None:
        """Open a round after ``pause_ms`` idle, lay each pack a shuffler presents, confirm a
        settled (or fully laid) round after ``pause_ms``; under the lock."""
        if self.desk.deal_automatically():
            return
        state = self.controller.state
        phase, now = state.phase, self.clock()
        if phase is not self._phase_since[0]:
            self._phase_since = (phase, now)
        elif now - self._phase_since[1] >= pause_ms and state.paused is None:
            laid = phase is Phase.DEALING and state.round is not None and state.round.tilt is None
            try:
                if phase is Phase.IDLE:
                    self.execute_locked(c.OpenRound())
                elif phase is Phase.SETTLED or (laid and self.controller.core.next_pack() is None):
                    self.execute_locked(c.CloseRound())
            except c.TableCommandError:
                pass  # not ready (e.g. a card tilt waits for the supervisor)
