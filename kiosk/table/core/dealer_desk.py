"""The Dealer Terminal's side of the table server: ``DealerService`` (dealer.proto).

One stream per Dealer Terminal, its identity its client certificate: the dealer role and the
canonical common name ``dealer-<n>`` (:mod:`kiosk.terminal.hostlink.identity`; the same CA tooling
as the seats).  Nothing but a sign-in is carried out before a
role signed in with its PIN (:mod:`kiosk.table.core.dealer_access`); a role whose PIN is a factory
PIN may only change it.  Each command is checked against the least role it needs, turned into
the core's command and carried out under the server's one lock; its audit record
(``DealerAudited``) is journaled **in the same transaction** as the command's events, and a
refusal's on its own.  Every request with a ``request_id`` gets one ``DealerResult``; every
signed-in stream gets a ``TableView`` after each journaled step.

The desk also drives the card source: it asks the shuffler for the round's packs when bets
close, for the next pack when one is laid, to read a pack again on the supervisor's re-read,
and turns a shuffler fault into a card tilt (``SourceFault``).
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import grpc

from kiosk.table.core import commands as c
from kiosk.table.core import events as e
from kiosk.table.core.controller import TableController
from kiosk.table.core.core import CardSource, Phase
from kiosk.table.core.dealer_access import (
    LEAST_ROLE,
    DealerAccess,
    DealerRole,
    PinPolicyError,
)
from kiosk.table.core.dealer_view import recalled, table_view
from kiosk.table.core.shuffler_feed import LinkCameUp, ShufflerFeed
from kiosk.terminal.hostlink import identity
from proto.turbokiosk.v1 import dealer_pb2 as pb
from proto.turbokiosk.v1 import dealer_pb2_grpc


class DeskTable(Protocol):
    """What the dealer desk needs of its table (:class:`kiosk.table.core.server.TableServer`
    satisfies it; passed in, so the desk does not import the server: decision 0050)."""

    @property
    def controller(self) -> TableController: ...
    @property
    def clock(self) -> Callable[[], int]: ...
    @property
    def lock(self) -> threading.Lock: ...
    @property
    def auto_deal_ms(self) -> int | None: ...
    @property
    def stopping(self) -> bool: ...
    def current_game(self) -> int: ...
    def online_seats(self) -> set[int]: ...
    def progressive_display(self) -> pb.ProgressiveDisplay | None: ...
    def execute_locked(
        self, cmd: c.Command, audit: e.DealerAudited | None = None
    ) -> list[e.Event]: ...


#: the most rounds one recall request returns
MAX_RECALL = 50

_ROLES = {
    pb.DEALER_ROLE_DEALER: DealerRole.DEALER,
    pb.DEALER_ROLE_SUPERVISOR: DealerRole.SUPERVISOR,
}
_PB_ROLE = {v: k for k, v in _ROLES.items()}


class DealerRefusedError(Exception):
    """A dealer request refused before it reaches the core: ``error`` names the kind."""

    def __init__(self, error: str, reason: str) -> None:
        super().__init__(reason)
        self.error = error


@dataclass(eq=False)
class DealerStream:
    """One connected Dealer Terminal."""

    name: str
    outbox: queue.Queue[pb.DealerResponse | None] = field(default_factory=queue.Queue)
    role: DealerRole | None = None
    must_change: bool = False


class DealerDesk:
    """The dealer streams of one table server, and its card source."""

    def __init__(self, table: DeskTable, access: DealerAccess, feed: ShufflerFeed | None) -> None:
        self.table = table
        self.access = access
        self.feed = feed
        self.streams: list[DealerStream] = []
        self._dirty = False

    @property
    def core(self) -> Any:
        return self.table.controller.core

    # -- streams ----------------------------------------------------------------------------

    def connect(self, stream: DealerStream) -> None:
        with self.table.lock:
            self.streams.append(stream)

    def disconnect(self, stream: DealerStream) -> None:
        with self.table.lock:
            if stream in self.streams:
                self.streams.remove(stream)
                if stream.role is not None and not self.table.stopping:
                    self._audit_alone(stream, "disconnect", "ok", "")
            stream.outbox.put(None)

    def changed(self) -> None:
        """The table changed: the views go out at the next tick (under the lock).  A burst of
        steps (a hundred seats' wagers) makes one view, not one per step, and no view is
        built on the way from a step to the seats."""
        self._dirty = True

    def flush_views(self) -> None:
        """Send the views if the table changed since the last (the ticker, under the lock)."""
        if self._dirty:
            self.push_views()

    def push_views(self) -> None:
        """Send every signed-in stream the table as it is now (called under the lock)."""
        self._dirty = False
        signed = [s for s in self.streams if s.role is not None]
        if not signed:
            return
        view = self.view()
        seq = self.table.controller.journal.head[0]
        for stream in signed:
            mine = pb.TableView()
            mine.CopyFrom(view)
            mine.role = _PB_ROLE[stream.role]  # type: ignore[index]
            stream.outbox.put(pb.DealerResponse(journal_seq=seq, table=mine))

    def view(self) -> pb.TableView:
        presented = None
        if self.feed is not None and self.feed.session.presented is not None:
            got = self.feed.session.presented
            if got.game_number == self.table.current_game():
                presented = (got.pack, got.cards)
        return table_view(
            self.core,
            self.table.clock(),
            self.table.online_seats(),
            auto_deal=self.table.auto_deal_ms is not None,
            presented=presented,
            progressive=self.table.progressive_display(),
        )

    # -- requests ---------------------------------------------------------------------------

    def handle(self, stream: DealerStream, request: pb.DealerRequest) -> None:
        """Carry out one request from ``stream`` and answer it."""
        result = pb.DealerResult(request_id=request.request_id)
        try:
            self._handle(stream, request, result)
        except DealerRefusedError as exc:
            result.ok, result.error, result.reason = False, exc.error, str(exc)
        if request.request_id:
            stream.outbox.put(pb.DealerResponse(result=result))

    def _handle(
        self, stream: DealerStream, request: pb.DealerRequest, result: pb.DealerResult
    ) -> None:
        kind = request.WhichOneof("body")
        if kind is None:
            raise DealerRefusedError("EmptyRequest", "an empty request")
        if kind == "sign_in":
            self._sign_in(stream, request.sign_in, result)
            return
        if stream.role is None:
            raise DealerRefusedError("NotSignedIn", "sign in with a PIN first")
        if kind == "sign_out":
            with self.table.lock:
                self._audit_alone(stream, "sign_out", "ok", "")
                stream.role = None
            result.ok = True
            return
        if kind == "change_pin":
            self._change_pin(stream, request.change_pin.new_pin, result)
            return
        if stream.must_change:
            raise DealerRefusedError("MustChangePin", "choose your own PIN first")
        if kind == "recall":
            stream.outbox.put(pb.DealerResponse(recall=self._recall(request)))
            result.ok = True
            return
        self._command(stream, kind, getattr(request, kind), result)

    def _sign_in(self, stream: DealerStream, body: pb.SignIn, result: pb.DealerResult) -> None:
        role = _ROLES.get(body.role)
        if role is None:
            raise DealerRefusedError("InvalidArgument", "sign in as dealer or supervisor")
        with self.table.lock:
            record = self.access.record(self.table.controller.state, role)
        now = self.table.clock()
        # the memory-hard check runs outside the table's lock (about 0.2 s)
        matched = record.locked_until <= now and self.access.matches(record, body.pin)
        with self.table.lock:
            state = self.table.controller.state
            if self.access.record(state, role).pin != record.pin:  # changed meanwhile
                matched = self.access.matches(self.access.record(state, role), body.pin)
            outcome = self.access.sign_in(
                state, role, body.pin, stream.name, self.table.clock(), matched=matched
            )
            self.table.controller.record(outcome.events)
            if outcome.ok:
                stream.role, stream.must_change = role, outcome.must_change
            result.role = _PB_ROLE[role]
            result.must_change_pin = outcome.must_change
            result.locked_until_ms = outcome.locked_until
            if outcome.ok:
                result.ok = True
                self.push_views()
                return
        raise DealerRefusedError(outcome.error, outcome.reason)

    def _change_pin(self, stream: DealerStream, new_pin: str, result: pb.DealerResult) -> None:
        role = stream.role
        assert role is not None
        with self.table.lock:
            try:
                events = self.access.change_pin(
                    self.table.controller.state, role, new_pin, stream.name, self.table.clock()
                )
            except PinPolicyError as exc:
                self._audit_alone(stream, "change_pin", "refused", str(exc))
                raise DealerRefusedError("PinPolicy", str(exc)) from exc
            self.table.controller.record(events)
            stream.must_change = False
            result.ok = True
            result.role = _PB_ROLE[role]

    def _recall(self, request: pb.DealerRequest) -> pb.RecallAnswer:
        ask = request.recall
        answer = pb.RecallAnswer(request_id=request.request_id)
        with self.table.lock:
            if ask.game_number:
                record = self.table.controller.recall(ask.game_number)
                records = [record] if record is not None else []
            else:
                count = min(ask.count or 10, MAX_RECALL)
                records = list(reversed(self.table.controller.state.recall[-count:]))
        answer.rounds.extend(recalled(r) for r in records)
        return answer

    def _command(self, stream: DealerStream, kind: str, body: Any, result: pb.DealerResult) -> None:
        with self.table.lock:
            try:
                cmd = self._command_of(stream, kind, body)
            except c.TableCommandError as exc:
                self._audit_alone(stream, kind, "refused", str(exc))
                raise DealerRefusedError(type(exc).__name__, str(exc)) from exc
            role = stream.role
            assert role is not None
            least = LEAST_ROLE.get(type(cmd), DealerRole.DEALER)
            if role < least:
                reason = f"{kind} needs a {least.label}"
                self._audit_alone(stream, kind, "refused", reason)
                raise DealerRefusedError("NotAllowed", reason)
            audit = e.DealerAudited(self.table.clock(), stream.name, role.label, kind, "ok", "")
            try:
                self.table.execute_locked(cmd, audit)
            except c.DuplicateReportError as exc:
                self._audit_alone(stream, kind, "repeated", str(exc))
                result.ok, result.repeated = True, True
                return
            except c.TableCommandError as exc:
                self._audit_alone(stream, kind, "refused", str(exc))
                raise DealerRefusedError(type(exc).__name__, str(exc)) from exc
            result.ok = True

    def _command_of(self, stream: DealerStream, kind: str, body: Any) -> c.Command:
        """The core command a dealer request asks for (a typed error if it cannot be)."""
        by = stream.name
        if kind == "new_game":
            return c.OpenRound()
        if kind == "close_bets":
            return c.CloseBets(body.game_number)
        if kind == "pause":
            return c.PauseTable(body.reason, by)
        if kind == "resume":
            return c.ResumeTable(by)
        if kind == "reread":
            return c.ReRead(body.game_number, body.pack, by)
        game = self.table.current_game()
        if body.game_number != game:
            raise c.StaleReportError(f"game {body.game_number} is not the table's current round")
        if kind == "confirm":
            return c.CloseRound()
        if kind == "void_round":
            if not body.reason.strip():
                raise c.InvalidArgumentError("a void needs a reason")
            return c.VoidRound(body.reason.strip()[:200])
        if kind == "lay_pack":
            return self._lay(body)
        raise c.InvalidArgumentError(f"unknown request {kind}")

    def _lay(self, body: pb.LayPack) -> c.Command:
        source = self.core.config.card_source
        cards = tuple(int(x) for x in body.cards)
        if source is CardSource.MANUAL:
            if len(cards) > 8:
                raise c.InvalidArgumentError("a pack is 3 cards")
            return c.LayPack(body.game_number, body.pack, cards, body.pack)
        if source is CardSource.VIRTUAL:
            raise c.IllegalCommandError("a virtual table deals its own cards: no pack is laid")
        if cards:
            raise c.InvalidArgumentError("the shuffler reads the cards: none are entered")
        assert self.feed is not None
        laid = {p.pack: p for p in (self.core.state.round.packs if self.core.state.round else [])}
        if body.pack in laid:  # a repeat: the core answers it as a duplicate
            return c.LayPack(body.game_number, body.pack, laid[body.pack].cards, body.pack)
        got = self.feed.session.presented
        if got is None or got.game_number != body.game_number:
            why = self.feed.problem() or "it has not presented the pack yet"
            raise c.IllegalCommandError(f"no pack from the shuffler: {why}")
        return c.LayPack(body.game_number, body.pack, got.cards, got.pack, self.feed.session.deck)

    def _audit_alone(self, stream: DealerStream, action: str, outcome: str, detail: str) -> None:
        """Journal one audit record on its own (a refusal, a sign-out); under the lock."""
        role = stream.role.label if stream.role is not None else ""
        event = e.DealerAudited(self.table.clock(), stream.name, role, action, outcome, detail)
        self.table.controller.record([event])

    # -- the card source ----------------------------------------------------------------------

    def after(self, events: list[e.Event]) -> None:
        """What the card source is asked after journaled ``events`` (under the lock)."""
        feed = self.feed
        if feed is None:
            return
        for event in events:
            if isinstance(event, e.BetsClosed):
                if self.core.state.phase is Phase.BETS_CLOSED:
                    feed.send(feed.session.start_round(event.game_number))
            elif isinstance(event, e.PackLaid):
                feed.send(feed.session.take(event.pack))
            elif isinstance(event, e.TiltCleared):
                feed.send(feed.session.read_again(event.pack))
            elif isinstance(event, e.RoundClosed | e.RoundVoided):
                feed.send(feed.session.end_round())

    def resync(self) -> None:
        """Ask the shuffler for what the round waits for (at start, and when its link comes
        up); under the lock."""
        feed, rnd = self.feed, self.core.state.round
        if (
            feed is None
            or rnd is None
            or self.core.state.phase
            not in (
                Phase.BETS_CLOSED,
                Phase.DEALING,
            )
        ):
            return
        slot = self.core.next_pack()
        if slot is not None:
            feed.send(feed.session.start_round(rnd.game_number, slot.pack))

    def tick(self) -> None:
        """Take what the shuffler reported; a fault it reported is a card tilt as soon as the
        round waits for a pack (a jam while the players decide stops the dealer's hand)."""
        feed = self.feed
        if feed is None:
            return
        changed = False
        for got in feed.poll():
            changed = True
            if isinstance(got, LinkCameUp):
                self.resync()
        fault, rnd = feed.session.fault, self.core.state.round
        waiting = self.core.state.phase in (Phase.BETS_CLOSED, Phase.DEALING)
        game = rnd.game_number if rnd is not None and rnd.tilt is None else None
        if fault is not None and waiting and fault.game_number == game:
            cmd = c.SourceFault(fault.game_number, fault.pack, fault.reason)
            with contextlib.suppress(c.TableCommandError):
                self.table.execute_locked(cmd)
        if changed:
            self.changed()

    def deal_automatically(self) -> bool:
        """Lay the pack the shuffler presents (a table without a dealer); whether it did."""
        feed, rnd = self.feed, self.core.state.round
        if feed is None or rnd is None or self.core.state.paused is not None:
            return False
        slot, got = self.core.next_pack(), feed.session.presented
        if slot is None or got is None or got.game_number != rnd.game_number:
            return False
        cmd = c.LayPack(rnd.game_number, slot.pack, got.cards, got.pack, feed.session.deck)
        try:
            self.table.execute_locked(cmd)
        except c.TableCommandError:
            return False
        return True


class DealerServicer(dealer_pb2_grpc.DealerServiceServicer):
    """The Dealer Terminals' streams on one table server."""

    def __init__(self, desk: DealerDesk, stopping: Callable[[], bool]) -> None:
        self.desk = desk
        self.stopping = stopping

    def Dealer(  # noqa: N802 (the generated servicer's name)
        self, request_iterator: Iterator[pb.DealerRequest], context: grpc.ServicerContext
    ) -> Iterator[pb.DealerResponse]:
        auth: Any = context.auth_context()
        try:
            name = identity.require(auth, identity.Role.DEALER).name
        except identity.IdentityError as exc:
            context.abort(grpc.StatusCode.PERMISSION_DENIED, f"not a dealer: {exc}")
            raise AssertionError("abort returned") from exc  # pragma: no cover
        stream = DealerStream(name)
        self.desk.connect(stream)
        reader = threading.Thread(
            target=self._read, args=(stream, request_iterator), daemon=True, name=f"{name}-rx"
        )
        reader.start()
        while context.is_active() and not self.stopping():
            try:
                out = stream.outbox.get(timeout=0.2)
            except queue.Empty:
                continue
            if out is None:
                break
            yield out

    def _read(self, stream: DealerStream, requests: Iterator[pb.DealerRequest]) -> None:
        try:
            for request in requests:
                if self.stopping():
                    break
                self.desk.handle(stream, request)
        except grpc.RpcError:
            pass
        finally:
            self.desk.disconnect(stream)
