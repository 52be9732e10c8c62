"""A scripted table behind a real ``DealerService`` port, for the Dealer Terminal's screenshots.

The screenshots must be the same every time they are taken: the controller's clock stands
still, its cards come in a fixed order and its seats bet and decide when the visit says so.
:class:`ScriptedTable` answers a DT's stream over real gRPC and mutual TLS (the DT's own
:class:`~kiosk.table.core.dealer_link.DealerLink`) with the protocol's messages, following the
round's phases the way the controller does; it is a picture stand, not the controller (which
is ``turbokiosk table serve``, tested against the DT in ``tests/dealer``).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from concurrent import futures
from pathlib import Path

import grpc

from kiosk.kernel.cards import cards
from kiosk.kernel.games.table_phase import TablePhase
from kiosk.terminal.hostlink import pki
from proto.turbokiosk.v1 import dealer_pb2 as pb
from proto.turbokiosk.v1 import dealer_pb2_grpc

#: the controller's clock in the pictures (2026-11-26 18:00:00 UTC)
EPOCH_MS = 1_795_716_000_000
#: the PINs of the pictures' roles
PINS = {pb.DEALER_ROLE_DEALER: "2468", pb.DEALER_ROLE_SUPERVISOR: "1357"}
#: the cards of the pictures' rounds, in deal order: the array's three packs, the dealer's
DECK = cards("Qh 9s 4d Ks Kd 7c Ah 2h Js Jc 8c 5d")
PACKS = ("array 1-3", "array 4-6", "array 7-9", "dealer")
WRONG_PINS_BEFORE_LOCK = 3
LOCK_MS = 30_000


class ScriptedTable(dealer_pb2_grpc.DealerServiceServicer):
    """One table's dealer port with scripted seats and cards."""

    def __init__(self, card_source: str = "shuffler", seats: int = 6) -> None:
        self.lock = threading.Lock()
        self.view = pb.TableView(
            table_id="T1",
            edition="stadium-3cp",
            card_source=card_source,
            phase=TablePhase.IDLE.value,
            game_number=41,
            now_ms=EPOCH_MS,
        )
        for n in range(seats):
            self.view.seats.add(seat=n, state=pb.SEAT_ROUND_STATE_WATCHING, online=True)
        self.view.seats_in = seats
        self.rounds: list[pb.RecalledRound] = []
        self.wrong: dict[int, int] = {}
        self.locked_until: dict[int, int] = {}
        self.outboxes: list[queue.Queue[pb.DealerResponse | None]] = []
        self.role = pb.DEALER_ROLE_UNSPECIFIED
        self.requests: list[pb.DealerRequest] = []  # every request, for the tests

    # -- the stream ----------------------------------------------------------------------------

    def Dealer(  # noqa: N802 (the generated servicer's name)
        self, request_iterator: Iterator[pb.DealerRequest], context: grpc.ServicerContext
    ) -> Iterator[pb.DealerResponse]:
        outbox: queue.Queue[pb.DealerResponse | None] = queue.Queue()
        with self.lock:
            self.outboxes.append(outbox)

        def read() -> None:
            try:
                for request in request_iterator:
                    with self.lock:
                        self.requests.append(request)
                        result = self._handle(request)
                        outbox.put(pb.DealerResponse(result=result))
                        self._publish()
            except grpc.RpcError:
                pass  # the DT went away
            outbox.put(None)

        threading.Thread(target=read, daemon=True).start()
        while context.is_active():
            try:
                response = outbox.get(timeout=0.2)
            except queue.Empty:
                continue
            if response is None:
                break
            yield response

    def _publish(self) -> None:
        """Send the view to every stream (called under the lock)."""
        if self.role == pb.DEALER_ROLE_UNSPECIFIED:
            return
        self.view.role = self.role
        for outbox in self.outboxes:
            view = pb.TableView()
            view.CopyFrom(self.view)
            outbox.put(pb.DealerResponse(table=view))

    def push(self) -> None:
        """Publish the view after the visit changed it."""
        with self.lock:
            self._publish()

    # -- requests ------------------------------------------------------------------------------

    def _handle(self, request: pb.DealerRequest) -> pb.DealerResult:
        rid = request.request_id
        kind = request.WhichOneof("body")
        if kind == "sign_in":
            return self._sign_in(rid, request.sign_in)
        if self.role == pb.DEALER_ROLE_UNSPECIFIED:
            return pb.DealerResult(request_id=rid, error="NotSignedIn", reason="Sign in first")
        if kind == "sign_out":
            self.role = pb.DEALER_ROLE_UNSPECIFIED
            return pb.DealerResult(request_id=rid, ok=True)
        if kind == "recall":
            for outbox in self.outboxes:
                answer = pb.RecallAnswer(request_id=rid, rounds=reversed(self.rounds))
                outbox.put(pb.DealerResponse(recall=answer))
            return pb.DealerResult(request_id=rid, ok=True)
        refusal = getattr(self, f"_{kind}")(request)
        if refusal:
            return pb.DealerResult(request_id=rid, error="Refused", reason=refusal)
        return pb.DealerResult(request_id=rid, ok=True)

    def _sign_in(self, rid: int, sign_in: pb.SignIn) -> pb.DealerResult:
        role, now = sign_in.role, self.view.now_ms
        if self.locked_until.get(role, 0) > now:
            left = -(-(self.locked_until[role] - now) // 1000)
            return pb.DealerResult(
                request_id=rid,
                error="RoleLockedOut",
                reason=f"Locked out after {WRONG_PINS_BEFORE_LOCK} wrong PINs: wait {left} s",
                locked_until_ms=self.locked_until[role],
            )
        if PINS.get(role) != sign_in.pin:
            self.wrong[role] = self.wrong.get(role, 0) + 1
            if self.wrong[role] >= WRONG_PINS_BEFORE_LOCK:
                self.locked_until[role] = now + LOCK_MS
                return pb.DealerResult(
                    request_id=rid,
                    error="RoleLockedOut",
                    reason=f"Wrong PIN: locked out for {LOCK_MS // 1000} s",
                    locked_until_ms=self.locked_until[role],
                )
            left = WRONG_PINS_BEFORE_LOCK - self.wrong[role]
            return pb.DealerResult(
                request_id=rid,
                error="PinRefused",
                reason=f"Wrong PIN: {left} more wrong PIN{'s' if left > 1 else ''} lock it out",
            )
        self.wrong[role] = 0
        self.role = role
        return pb.DealerResult(request_id=rid, ok=True, role=role)

    def _seats(self, state: pb.SeatRoundState, only_bet: bool = False) -> None:
        for seat in self.view.seats:
            if not only_bet or seat.stake_cents:
                seat.state = state

    def _new_game(self, _request: pb.DealerRequest) -> str:
        v = self.view
        if v.phase != TablePhase.IDLE or v.paused:
            return "A round is open"
        v.phase, v.game_number, v.voided_reason = TablePhase.BETTING.value, v.game_number + 1, ""
        v.betting_deadline_ms = v.now_ms + 15_000
        del v.first_cards[:], v.shared_cards[:], v.packs[:]
        for seat in v.seats:
            seat.stake_cents = seat.paid_cents = seat.returned_cents = 0
            seat.choice = ""
        self._seats(pb.SEAT_ROUND_STATE_BETTING)
        return ""

    def _close_bets(self, request: pb.DealerRequest) -> str:
        v = self.view
        if v.phase != TablePhase.BETTING:
            return "Bets are not open"
        v.phase = TablePhase.BETS_CLOSED.value
        for seat in v.seats:
            if not seat.stake_cents:
                seat.state = pb.SEAT_ROUND_STATE_WATCHING
        v.seats_bet = sum(1 for s in v.seats if s.stake_cents)
        if v.card_source == "shuffler":
            v.deck_check.CopyFrom(
                pb.DeckCheck(shuffle=318, cards_read=52, passed=True, digest="5f0c2a9e41d7b3c8")
            )
        self._step(1)
        return ""

    def _step(self, pack: int) -> None:
        v = self.view
        v.ClearField("next_step")
        if pack > len(PACKS):
            return
        step = v.next_step
        step.pack, step.packs_in_round, step.packs_in_deal = pack, len(PACKS), 3 if pack < 4 else 1
        step.location = PACKS[pack - 1]
        step.presented = v.card_source != "manual"
        if step.presented:
            step.cards.extend(DECK[(pack - 1) * 3 : pack * 3])

    def _lay_pack(self, request: pb.DealerRequest) -> str:
        v, lay = self.view, request.lay_pack
        if not v.HasField("next_step") or v.HasField("tilt"):
            return "No pack is expected"
        if lay.pack != v.next_step.pack:
            return f"Pack {lay.pack} is out of turn (expected {v.next_step.pack})"
        laid = list(lay.cards) if v.card_source == "manual" else list(v.next_step.cards)
        if len(laid) != 3:
            return "A pack is 3 cards"
        on_layout = set(v.first_cards) | set(v.shared_cards)
        twice = [c for c in laid if c in on_layout or laid.count(c) > 1]
        if twice:
            return f"Card {twice[0]} is already on the layout"
        v.packs.add(pack=lay.pack, location=v.next_step.location, cards=laid)
        if lay.pack <= 3:
            v.first_cards.extend(laid)
        self._step(lay.pack + 1)
        if lay.pack == 3:
            v.phase = TablePhase.DECIDING.value
            v.decision_deadline_ms = v.now_ms + 10_000
            self._seats(pb.SEAT_ROUND_STATE_DECIDING, only_bet=True)
            v.ClearField("next_step")
        if lay.pack == 4:  # physical cards: Confirm settles the round
            v.ClearField("next_step")
        return ""

    def _settle(self) -> None:
        v = self.view
        if v.phase == TablePhase.DEALING:
            v.shared_cards.extend(v.packs[-1].cards)
            for seat in v.seats:
                if seat.stake_cents:
                    seat.state = pb.SEAT_ROUND_STATE_SETTLED
                    won = seat.choice == "play" and seat.seat % 2 == 0
                    seat.paid_cents = seat.stake_cents * 2 if won else 0

    def _confirm(self, _request: pb.DealerRequest) -> str:
        v = self.view
        if v.phase not in (TablePhase.SETTLED, TablePhase.DEALING) or v.HasField("next_step"):
            return "Nothing to confirm"
        self._settle()
        self._finish("")
        return ""

    def _finish(self, voided: str) -> None:
        v = self.view
        rnd = pb.RecalledRound(
            game_number=v.game_number,
            first_cards=v.first_cards,
            shared_cards=v.shared_cards,
            voided_reason=voided,
            packs=v.packs,
            card_source=v.card_source,
            deck_check=v.deck_check if v.HasField("deck_check") else None,
        )
        for seat in v.seats:
            if seat.stake_cents:
                row = rnd.seats.add(
                    seat=seat.seat,
                    stake_cents=seat.stake_cents,
                    paid_cents=seat.paid_cents,
                    returned_cents=seat.stake_cents if voided else 0,
                    choice=seat.choice,
                )
                # the stand's seats stake the Ante alone (a wager and its result, as a
                # controller's recall has them)
                row.wagers.add(spot="ante", cents=seat.stake_cents)
                if not voided:
                    row.results.add(
                        spot="ante", stake_cents=seat.stake_cents, paid_cents=seat.paid_cents
                    )
        self.rounds.append(rnd)
        v.phase, v.voided_reason = TablePhase.IDLE.value, voided
        v.ClearField("next_step")
        v.ClearField("tilt")
        v.ClearField("deck_check")

    def _pause(self, request: pb.DealerRequest) -> str:
        v = self.view
        if v.paused:
            return "Already paused"
        deadline: dict[str, int] = {
            TablePhase.BETTING: v.betting_deadline_ms,
            TablePhase.DECIDING: v.decision_deadline_ms,
        }
        v.paused, v.pause_reason = True, request.pause.reason
        v.paused_time_left_ms = max(0, deadline.get(v.phase, 0) - v.now_ms)
        return ""

    def _resume(self, _request: pb.DealerRequest) -> str:
        v = self.view
        if not v.paused:
            return "Not paused"
        v.paused, v.pause_reason, v.paused_time_left_ms = False, "", 0
        return ""

    def _void_round(self, request: pb.DealerRequest) -> str:
        v = self.view
        if self.role != pb.DEALER_ROLE_SUPERVISOR:
            return "Only a supervisor voids a round"
        if v.phase in (TablePhase.IDLE, TablePhase.SETTLED):
            return "No round to void"
        for seat in v.seats:
            if seat.stake_cents:
                seat.state, seat.returned_cents = pb.SEAT_ROUND_STATE_VOIDED, seat.stake_cents
        self._finish(request.void_round.reason)
        return ""

    def _reread(self, _request: pb.DealerRequest) -> str:
        v = self.view
        if self.role != pb.DEALER_ROLE_SUPERVISOR or not v.HasField("tilt"):
            return "Nothing to read again"
        pack = v.tilt.pack
        v.ClearField("tilt")
        self._step(pack)
        return ""

    def _change_pin(self, _request: pb.DealerRequest) -> str:
        return "Not at this stand"

    # -- what the visit does to the seats -------------------------------------------------------

    def bet(self, seat: int, cents: int) -> None:
        with self.lock:
            s = self.view.seats[seat]
            s.stake_cents, s.state = cents, pb.SEAT_ROUND_STATE_BET
            self.view.seats_bet = sum(1 for x in self.view.seats if x.stake_cents)
            self._publish()

    def decide(self, seat: int, choice: str) -> None:
        with self.lock:
            s = self.view.seats[seat]
            s.choice, s.state = choice, pb.SEAT_ROUND_STATE_DECIDED
            if choice == "play":
                s.stake_cents += s.stake_cents // 2
            self._publish()

    def offline(self, seat: int) -> None:
        with self.lock:
            self.view.seats[seat].online = False
            self._publish()

    def close_decisions(self) -> None:
        """The decision window ran out: the rest fold; the dealer's pack is next."""
        with self.lock:
            v = self.view
            for s in v.seats:
                if s.state == pb.SEAT_ROUND_STATE_DECIDING:
                    s.state, s.choice = pb.SEAT_ROUND_STATE_TIMED_OUT, "fold"
            v.phase = TablePhase.DEALING.value
            self._step(4)
            self._publish()

    def tilt(self, reason: str) -> None:
        """The card check stops the round at the next pack."""
        with self.lock:
            v = self.view
            pack = v.next_step.pack
            v.ClearField("next_step")
            v.tilt.reason, v.tilt.pack, v.tilt.at_ms = reason, pack, v.now_ms
            self._publish()

    def tick(self, ms: int) -> None:
        with self.lock:
            self.view.now_ms += ms
            self._publish()


def serve(table: ScriptedTable, pki_dir: Path) -> tuple[grpc.Server, str]:
    """The table's dealer port on loopback with mutual TLS; the server and its address."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    dealer_pb2_grpc.add_DealerServiceServicer_to_server(table, server)  # type: ignore[no-untyped-call]
    credentials = pki.credentials(pki_dir, "table-T1")  # a table controller's own identity
    _port, address = pki.listen_mutual_tls(server, "127.0.0.1:0", credentials)
    server.start()
    return server, address
