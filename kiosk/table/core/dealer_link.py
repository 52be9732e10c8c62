"""The Dealer Terminal's link to its table controller: one ``DealerService`` stream over
mutual TLS (the DT's ``dealer-<n>`` certificate), and the controller's messages as records.

A reader thread takes every :class:`~proto.turbokiosk.v1.dealer_pb2.DealerResponse` off the
stream: a ``TableView`` becomes the latest :class:`~kiosk.table.core.dealer_records.TableSnapshot`
(:meth:`DealerLink.snapshot`), a ``DealerResult`` answers the request of its ``request_id``
(:meth:`DealerLink.call` waits for it), a ``RecallAnswer`` becomes the recall lines.  The
screens never talk to gRPC; they call the link's typed methods.

It is the one Dealer Terminal client: the app's screens read the records, while the tests and
the benches send any request with :meth:`DealerLink.call`, wait on the controller's own
``TableView`` (:meth:`DealerLink.wait_view`) and read recalled rounds as sent
(:meth:`DealerLink.recalled`).
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import grpc

from kiosk.kernel.money_text import dollars
from kiosk.table.core.dealer_records import (
    DealStep,
    LaidPack,
    RecalledSeatLine,
    RecalledWager,
    RecallLine,
    Role,
    SeatLine,
    SeatState,
    SignIn,
    TableSnapshot,
    Tilt,
)
from kiosk.terminal.hostlink import pki
from proto.turbokiosk.v1 import dealer_pb2 as pb
from proto.turbokiosk.v1 import dealer_pb2_grpc

#: how long a request waits for its answer before the DT says the controller did not answer
ANSWER_SECONDS = 5.0
#: recall rounds the DT keeps
RECALL_ROUNDS = 10

_ROLE_TO_PB = {
    Role.DEALER: pb.DEALER_ROLE_DEALER,
    Role.SUPERVISOR: pb.DEALER_ROLE_SUPERVISOR,
}
SEAT_STATES = {
    pb.SEAT_ROUND_STATE_WATCHING: SeatState.WATCHING,
    pb.SEAT_ROUND_STATE_BETTING: SeatState.BETTING,
    pb.SEAT_ROUND_STATE_BET: SeatState.BET,
    pb.SEAT_ROUND_STATE_DECIDING: SeatState.DECIDING,
    pb.SEAT_ROUND_STATE_DECIDED: SeatState.DECIDED,
    pb.SEAT_ROUND_STATE_TIMED_OUT: SeatState.TIMED_OUT,
    pb.SEAT_ROUND_STATE_SETTLED: SeatState.SETTLED,
    pb.SEAT_ROUND_STATE_VOIDED: SeatState.VOIDED,
}


class DealerLinkError(Exception):
    """The controller did not answer (the stream ended or the answer did not come in time)."""


@dataclass(frozen=True)
class Answer:
    """The controller's answer to one request."""

    ok: bool
    repeated: bool = False
    error: str = ""  # the typed error's name on a refusal
    reason: str = ""  # one line for the dealer
    role: Role | None = None
    must_change_pin: bool = False
    locked_until_ms: int = 0


def progressive_text(view: pb.TableView) -> str:
    """The table's progressive in the dealer's words ("" : the table has none)."""
    if not view.HasField("progressive"):
        return ""
    p = view.progressive
    return f"{p.outcome} progressive {dollars(p.meter_cents)}"


def snapshot_of(view: pb.TableView, windows: dict[str, int]) -> TableSnapshot:
    """The controller's ``TableView`` as a record; ``windows`` keeps each countdown's full
    length as first seen (phase -> ms), which the view does not carry."""
    phase = view.phase or "idle"
    if phase in ("betting", "deciding") and not view.paused:
        deadline = view.betting_deadline_ms if phase == "betting" else view.decision_deadline_ms
        key = f"{view.game_number}:{phase}"
        windows.setdefault(key, max(1, deadline - view.now_ms))
    step = None
    if view.HasField("next_step"):
        s = view.next_step
        step = DealStep(s.pack, s.packs_in_round, s.location, s.presented, tuple(s.cards))
    tilt = None
    if view.HasField("tilt"):
        tilt = Tilt(view.tilt.reason, view.tilt.pack, tuple(view.tilt.cards))
    check = ""
    if view.HasField("deck_check"):
        d = view.deck_check
        check = f"{d.cards_read} cards, {'passed' if d.passed else 'FAILED'}"
    return TableSnapshot(
        table_id=view.table_id,
        edition=view.edition,
        card_source=view.card_source or "virtual",
        phase=phase,
        game_number=view.game_number,
        now_ms=view.now_ms,
        betting_deadline_ms=view.betting_deadline_ms,
        decision_deadline_ms=view.decision_deadline_ms,
        betting_ms=windows.get(f"{view.game_number}:betting", 0),
        decision_ms=windows.get(f"{view.game_number}:deciding", 0),
        paused=view.paused,
        pause_reason=view.pause_reason,
        paused_left_ms=view.paused_time_left_ms,
        seats=tuple(
            SeatLine(
                seat=s.seat,
                state=SEAT_STATES.get(s.state, SeatState.WATCHING),
                online=s.online,
                stake=s.stake_cents,
                choice=s.choice,
                paid=s.paid_cents,
                returned=s.returned_cents,
            )
            for s in sorted(view.seats, key=lambda s: s.seat)
        ),
        next_step=step,
        packs=tuple(LaidPack(p.pack, p.location, tuple(p.cards)) for p in view.packs),
        first_cards=tuple(view.first_cards),
        shared_cards=tuple(view.shared_cards),
        tilt=tilt,
        deck_check=check,
        voided=view.voided_reason,
        auto_deal=view.auto_deal,
        progressive=progressive_text(view),
    )


def recall_line(r: pb.RecalledRound) -> RecallLine:
    """One recalled round as a record."""
    check = ""
    if r.HasField("deck_check"):
        check = f"{'passed' if r.deck_check.passed else 'FAILED'} {r.deck_check.digest[:12]}"
    return RecallLine(
        game_number=r.game_number,
        cards=tuple(r.first_cards) + tuple(r.shared_cards),
        seats=len(r.seats),
        wagered=sum(s.stake_cents for s in r.seats),
        paid=sum(s.paid_cents for s in r.seats),
        voided=r.voided_reason,
        returned=sum(s.returned_cents for s in r.seats),
        deck_check=check,
        first_cards=tuple(r.first_cards),
        shared_cards=tuple(r.shared_cards),
        seat_lines=tuple(_recalled_seat(s) for s in sorted(r.seats, key=lambda s: s.seat)),
    )


def _recalled_seat(s: pb.RecalledSeat) -> RecalledSeatLine:
    """One seat of a recalled round: each wager with its result (a wager without a result was
    returned or is unknown: its stake, nothing paid)."""
    results = {w.spot: w for w in s.results}
    wagers = tuple(
        RecalledWager(
            w.spot,
            w.cents,
            results[w.spot].paid_cents if w.spot in results else 0,
            results[w.spot].outcome if w.spot in results else "",
        )
        for w in s.wagers
    )
    return RecalledSeatLine(s.seat, wagers, s.choice, s.stake_cents, s.paid_cents, s.returned_cents)


class DealerLink:
    """One Dealer Terminal's stream to its controller."""

    def __init__(self, address: str, credentials: pki.Credentials) -> None:
        self.address = address
        self.channel = grpc.secure_channel(
            address,
            grpc.ssl_channel_credentials(credentials.ca, credentials.key, credentials.cert),
            options=[("grpc.ssl_target_name_override", pki.TABLE_SERVER_NAME)],
        )
        self._ids = itertools.count(1)
        self._requests: queue.Queue[pb.DealerRequest | None] = queue.Queue()
        self._lock = threading.Condition()
        self._answers: dict[int, Answer] = {}
        self._windows: dict[str, int] = {}
        self._snapshot: TableSnapshot | None = None
        self._recall: tuple[RecallLine, ...] = ()
        self._recalled: dict[int, tuple[pb.RecalledRound, ...] | None] = {}  # by recalled()
        self.view: pb.TableView | None = None  # the controller's latest view, as sent
        self.revision = 0  # grows with every view or recall received
        self.down: str = ""  # why the stream ended ("" while it runs)
        self.error: grpc.RpcError | None = None  # the stream's error, if it failed
        stub = dealer_pb2_grpc.DealerServiceStub(self.channel)  # type: ignore[no-untyped-call]
        self._call = stub.Dealer(self._outgoing())
        self._reader = threading.Thread(target=self._read, name="dealer-link", daemon=True)
        self._reader.start()

    # -- the stream -------------------------------------------------------------------------

    def _outgoing(self) -> Iterator[pb.DealerRequest]:
        while (request := self._requests.get()) is not None:
            yield request

    def _read(self) -> None:
        try:
            for response in self._call:
                self._take(response)
            reason = "the controller ended the stream"
        except grpc.RpcError as exc:
            self.error = exc
            code: Any = exc.code() if hasattr(exc, "code") else None
            details: Any = exc.details() if hasattr(exc, "details") else ""
            name = code.name if code is not None else "error"
            reason = f"no link to the controller ({name}: {details})"
        with self._lock:
            self.down = reason
            self.revision += 1
            self._lock.notify_all()

    def _take(self, response: pb.DealerResponse) -> None:
        kind = response.WhichOneof("body")
        with self._lock:
            if kind == "table":
                self.view = response.table
                self._snapshot = snapshot_of(response.table, self._windows)
                self.revision += 1
            elif kind == "recall":
                self._recall = tuple(recall_line(r) for r in response.recall.rounds)
                if response.recall.request_id in self._recalled:
                    self._recalled[response.recall.request_id] = tuple(response.recall.rounds)
                self.revision += 1
                self._answers[response.recall.request_id] = Answer(ok=True)
            elif kind == "result":
                r = response.result
                role = {v: k for k, v in _ROLE_TO_PB.items()}.get(r.role)
                self._answers[r.request_id] = Answer(
                    r.ok, r.repeated, r.error, r.reason, role, r.must_change_pin, r.locked_until_ms
                )
            self._lock.notify_all()

    def call(self, timeout: float = ANSWER_SECONDS, **body: Any) -> Answer:
        """Send one request (``new_game=pb.NewGame()``...) and wait for its answer;
        :class:`DealerLinkError` when none comes."""
        return self._answer(self._send(next(self._ids), **body), timeout)

    def _send(self, rid: int, **body: Any) -> int:
        with self._lock:
            if self.down:
                raise DealerLinkError(self.down)
        self._requests.put(pb.DealerRequest(request_id=rid, **body))
        return rid

    def _answer(self, rid: int, timeout: float) -> Answer:
        end = time.monotonic() + timeout
        with self._lock:
            while rid not in self._answers:
                left = end - time.monotonic()
                if self.down:
                    raise DealerLinkError(self.down)
                if left <= 0:
                    raise DealerLinkError("the controller did not answer in time")
                self._lock.wait(left)
            return self._answers.pop(rid)

    def wait_view(
        self, predicate: Callable[[pb.TableView], bool], timeout: float = ANSWER_SECONDS
    ) -> pb.TableView:
        """Wait until the controller's latest view satisfies ``predicate``; that view."""
        end = time.monotonic() + timeout
        with self._lock:
            while self.view is None or not predicate(self.view):
                left = end - time.monotonic()
                if left <= 0 or self.down:
                    seen = self.view.phase if self.view is not None else "no view"
                    raise DealerLinkError(
                        f"the table did not get there (last: {seen}) {self.down}".rstrip()
                    )
                self._lock.wait(left)
            return self.view

    def recalled(
        self, count: int = RECALL_ROUNDS, game_number: int = 0, timeout: float = ANSWER_SECONDS
    ) -> tuple[pb.RecalledRound, ...]:
        """The last ``count`` rounds (or game ``game_number``) from the controller's recall,
        as it sent them."""
        rid = next(self._ids)
        with self._lock:
            self._recalled[rid] = None  # wanted: the reader keeps its rounds
        try:
            self._send(rid, recall=pb.RecallRequest(count=count, game_number=game_number))
            answer = self._answer(rid, timeout)
            if not answer.ok:
                raise DealerLinkError(f"{answer.error}: {answer.reason}")
            end = time.monotonic() + timeout
            with self._lock:
                while (rounds := self._recalled[rid]) is None:
                    left = end - time.monotonic()
                    if left <= 0 or self.down:
                        raise DealerLinkError(self.down or "the controller sent no recall")
                    self._lock.wait(left)
                return rounds
        finally:
            with self._lock:
                self._recalled.pop(rid, None)

    # -- what the DT reads -------------------------------------------------------------------

    def snapshot(self) -> TableSnapshot | None:
        """The latest table view (with the recall last asked for), or None before the first."""
        with self._lock:
            if self._snapshot is None:
                return None
            return replace(self._snapshot, recall=self._recall)

    def wait_for(self, revision: int, timeout: float = ANSWER_SECONDS) -> int:
        """Wait until something newer than ``revision`` arrived; the new revision."""
        end = time.monotonic() + timeout
        with self._lock:
            while self.revision <= revision and not self.down:
                left = end - time.monotonic()
                if left <= 0:
                    break
                self._lock.wait(left)
            return self.revision

    # -- the dealer's requests -----------------------------------------------------------------

    def sign_in(self, role: Role, pin: str) -> SignIn:
        """A PIN for ``role``: accepted, refused, or the role locked out."""
        answer = self.call(sign_in=pb.SignIn(role=_ROLE_TO_PB[role], pin=pin))
        return SignIn(
            accepted=answer.ok,
            role=answer.role or role,
            message=answer.reason,
            locked_until_ms=answer.locked_until_ms,
            must_change_pin=answer.must_change_pin,
        )

    def sign_out(self) -> Answer:
        return self.call(sign_out=pb.SignOut())

    def change_pin(self, new_pin: str) -> Answer:
        return self.call(change_pin=pb.ChangeDealerPin(new_pin=new_pin))

    def new_game(self) -> Answer:
        return self.call(new_game=pb.NewGame())

    def close_bets(self, game_number: int) -> Answer:
        return self.call(close_bets=pb.CloseBets(game_number=game_number))

    def lay_pack(self, game_number: int, pack: int, cards: tuple[int, ...] = ()) -> Answer:
        return self.call(lay_pack=pb.LayPack(game_number=game_number, pack=pack, cards=cards))

    def confirm(self, game_number: int) -> Answer:
        return self.call(confirm=pb.ConfirmRound(game_number=game_number))

    def pause(self, reason: str = "Paused by the dealer") -> Answer:
        return self.call(pause=pb.PauseTable(reason=reason))

    def resume(self) -> Answer:
        return self.call(resume=pb.ResumeTable())

    def void(self, game_number: int, reason: str) -> Answer:
        return self.call(void_round=pb.VoidRoundRequest(game_number=game_number, reason=reason))

    def reread(self, game_number: int, pack: int) -> Answer:
        return self.call(reread=pb.ReRead(game_number=game_number, pack=pack))

    def recall(self, count: int = RECALL_ROUNDS) -> Answer:
        return self.call(recall=pb.RecallRequest(count=count))

    def close(self) -> None:
        """End the stream and the channel."""
        self._requests.put(None)
        self._call.cancel()
        self.channel.close()
        self._reader.join(timeout=5)
