"""A table controller's link to the progressive controller (a :class:`ProgressiveBook`).

The client checks the server's role in the handshake (the table-controller server name) and
presents its own table-controller certificate; its source is that certificate's name.  Calls
carry a deadline; a failed call raises :class:`ProgressiveUnavailableError` and the feed
(:mod:`kiosk.table.progressive.feed`) books the round again later (idempotent).
"""

from __future__ import annotations

from collections.abc import Sequence

import grpc

from kiosk.kernel.games.progressive import MeterState
from kiosk.table.progressive.wire import booked_of, meters_of
from kiosk.terminal.hostlink import pki
from kiosk.terminal.progressive.controller import WagerIn
from kiosk.terminal.progressive.journal import BookedRound
from proto.turbokiosk.v1 import progressive_pb2 as pb
from proto.turbokiosk.v1 import progressive_pb2_grpc

#: seconds a call may take
DEADLINE = 5.0


class ProgressiveUnavailableError(ConnectionError):
    """The progressive controller did not answer (or refused): the round is not booked yet."""


class RemoteProgressive:
    """The progressive controller over gRPC with mutual TLS."""

    def __init__(self, address: str, credentials: pki.Credentials, source: str) -> None:
        """``source``: this client's certificate name (the controller books under it)."""
        self.source = source
        self.channel = grpc.secure_channel(
            address,
            grpc.ssl_channel_credentials(credentials.ca, credentials.key, credentials.cert),
            options=[("grpc.ssl_target_name_override", pki.TABLE_SERVER_NAME)],
        )
        self.stub = progressive_pb2_grpc.ProgressiveServiceStub(self.channel)  # type: ignore[no-untyped-call]

    def book_round(
        self, source: str, game: int, wagers: Sequence[WagerIn], handpay_limit: int | None
    ) -> BookedRound:
        """Book a settled round; ``source`` must be this client's certificate name."""
        if source != self.source:
            raise ValueError(f"this link books as {self.source!r}, not {source!r}")
        request = pb.BookRoundRequest(
            game_number=game,
            wagers=[
                pb.ProgressiveWager(seat=w.seat, spot=w.spot, cents=w.cents, won=w.won)
                for w in wagers
            ],
            handpay_limit_cents=handpay_limit or 0,
        )
        try:
            reply = self.stub.BookRound(request, timeout=DEADLINE)
        except grpc.RpcError as exc:
            raise ProgressiveUnavailableError(f"the progressive controller: {exc}") from exc
        return booked_of(source, game, reply)

    def _meters(self) -> pb.MetersResponse:
        try:
            reply: pb.MetersResponse = self.stub.Meters(pb.MetersRequest(), timeout=DEADLINE)
        except grpc.RpcError as exc:
            raise ProgressiveUnavailableError(f"the progressive controller: {exc}") from exc
        return reply

    def meters(self) -> MeterState:
        """The meters now."""
        return meters_of(self._meters().meters)

    def last_game(self, source: str) -> int:
        """The highest game booked from this client's source."""
        if source != self.source:
            raise ValueError(f"this link books as {self.source!r}, not {source!r}")
        return int(self._meters().last_game)

    def close(self) -> None:
        """Close the channel."""
        self.channel.close()
