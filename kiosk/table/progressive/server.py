"""The progressive controller served over gRPC with mutual TLS (``ProgressiveService``).

It runs in the table deployable and serves with a table-controller certificate (its name
``table-<id>``, e.g. ``table-progressive``); it takes only table-controller clients, and the
source of every round a client books is the client's own certificate name, so one table can
never book (or replay) another's rounds.  Each call runs under the controller's lock, which
journals before it answers (:mod:`kiosk.terminal.progressive.controller`).
"""

from __future__ import annotations

from concurrent import futures
from typing import Any

import grpc

from kiosk.kernel.games.progressive import ProgressiveError
from kiosk.table.progressive.wire import booked_pb, meters_pb
from kiosk.terminal.hostlink import identity
from kiosk.terminal.hostlink.pki import Credentials, listen_mutual_tls
from kiosk.terminal.progressive.controller import (
    ProgressiveController,
    ProgressiveLockedError,
    WagerIn,
)
from proto.turbokiosk.v1 import progressive_pb2 as pb
from proto.turbokiosk.v1 import progressive_pb2_grpc

#: the largest request, in bytes (a round of a few hundred seats)
MAX_REQUEST_BYTES = 256 * 1024


class ProgressiveServicer(progressive_pb2_grpc.ProgressiveServiceServicer):
    """The service on one controller."""

    def __init__(self, controller: ProgressiveController) -> None:
        self.controller = controller

    def _source(self, context: grpc.ServicerContext) -> str:
        auth: Any = context.auth_context()
        try:
            return identity.require(auth, identity.Role.TABLE).name
        except identity.IdentityError as exc:
            context.abort(grpc.StatusCode.PERMISSION_DENIED, str(exc))
            raise AssertionError("abort returned") from exc  # pragma: no cover

    def BookRound(  # noqa: N802 (the generated servicer's name)
        self, request: pb.BookRoundRequest, context: grpc.ServicerContext
    ) -> pb.BookRoundResponse:
        source = self._source(context)
        wagers = [WagerIn(w.seat, w.spot, w.cents, w.won) for w in request.wagers]
        limit = request.handpay_limit_cents or None
        try:
            row = self.controller.book_round(source, request.game_number, wagers, limit)
        except ProgressiveError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
            raise AssertionError("abort returned") from exc  # pragma: no cover
        except ProgressiveLockedError as exc:
            context.abort(grpc.StatusCode.UNAVAILABLE, str(exc))
            raise AssertionError("abort returned") from exc  # pragma: no cover
        return booked_pb(row, self.controller.settings.name, self.controller.meters())

    def Meters(  # noqa: N802 (the generated servicer's name)
        self, request: pb.MetersRequest, context: grpc.ServicerContext
    ) -> pb.MetersResponse:
        source = self._source(context)
        return pb.MetersResponse(
            meters=meters_pb(self.controller.settings.name, self.controller.meters()),
            last_game=self.controller.last_game(source),
        )


def serve(
    controller: ProgressiveController, address: str, credentials: Credentials
) -> tuple[grpc.Server, str]:
    """Start serving ``controller`` on ``address`` (``host:0``: any port); the server and the
    address it listens on."""
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=8),
        options=[("grpc.max_receive_message_length", MAX_REQUEST_BYTES)],
    )
    progressive_pb2_grpc.add_ProgressiveServiceServicer_to_server(  # type: ignore[no-untyped-call]
        ProgressiveServicer(controller), server
    )
    _, bound = listen_mutual_tls(server, address, credentials)
    server.start()
    return server, bound
