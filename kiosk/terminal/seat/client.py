"""The seat's gRPC client: one ``TableService.Seat`` stream over mutual TLS, reconnected.

The client owns no state of the round: it carries the controller's steps into an inbox that
the seat's runtime drains on the terminal's thread, and the runtime's reports out.  Each
stream starts with the join that :attr:`SeatClient.join` makes at that moment (the pending
and last settled table games, from the terminal's journal).  When a stream ends (the
controller killed, the network gone, a keepalive unanswered) the inbox gets
``("lost", reason)`` and the client connects again after a pause that grows to
``max_backoff`` seconds.  The identity is the certificate's common name ``seat-<n>`` with the
seat role, issued by the host's CA tooling (``turbokiosk host issue-cert seat-<n>``); the
controller must show a table controller's certificate (``turbokiosk-table``, decision 0035).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

import grpc

from kiosk.terminal.hostlink import pki
from kiosk.terminal.hostlink.channel import KEEPALIVE
from proto.turbokiosk.v1 import table_pb2 as pb
from proto.turbokiosk.v1 import table_pb2_grpc

#: what the inbox holds: ("step", SeatResponse), ("connecting", ""), ("connected", ""),
#: ("lost", reason)
Inbound = tuple[str, pb.SeatResponse | str]


class SeatClient:
    """A seat's stream to its table controller, on a thread of its own."""

    def __init__(
        self,
        address: str,
        credentials: pki.Credentials,
        join: Callable[[], pb.SeatRequest],
        *,
        min_backoff: float = 0.1,
        max_backoff: float = 2.0,
    ) -> None:
        self.address = address
        self.join = join
        self.inbox: queue.Queue[Inbound] = queue.Queue()
        self._credentials = grpc.ssl_channel_credentials(
            credentials.ca, credentials.key, credentials.cert
        )
        self._min, self._max = min_backoff, max_backoff
        self._outbox: queue.Queue[pb.SeatRequest | None] | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._call: Any = None  # the stream (a grpc Call) while it is up
        self._thread = threading.Thread(target=self._run, name="seat-client", daemon=True)

    def start(self) -> SeatClient:
        self._thread.start()
        return self

    def send(self, request: pb.SeatRequest) -> bool:
        """Queue a report on the current stream (False: no stream now; the seat resends by
        its facts when it is seated again)."""
        with self._lock:
            if self._outbox is None:
                return False
            self._outbox.put(request)
            return True

    def close(self) -> None:
        self._stop.set()
        with self._lock:
            if self._outbox is not None:
                self._outbox.put(None)
            call = self._call
        if call is not None:
            call.cancel()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        backoff = self._min
        while not self._stop.is_set():
            self.inbox.put(("connecting", ""))
            reason = self._stream()
            if self._stop.is_set():
                break
            self.inbox.put(("lost", reason))
            self._stop.wait(backoff)
            backoff = min(self._max, backoff * 2) if reason else self._min

    def _stream(self) -> str:
        """One stream until it ends; why it ended."""
        outbox: queue.Queue[pb.SeatRequest | None] = queue.Queue()
        outbox.put(self.join())
        channel = grpc.secure_channel(
            self.address,
            self._credentials,
            options=[("grpc.ssl_target_name_override", pki.TABLE_SERVER_NAME), *KEEPALIVE],
        )
        stub = table_pb2_grpc.TableServiceStub(channel)  # type: ignore[no-untyped-call]

        def requests() -> Iterator[pb.SeatRequest]:
            while (request := outbox.get()) is not None:
                yield request

        call = stub.Seat(requests())
        with self._lock:
            self._outbox, self._call = outbox, call
        reason = "the table controller ended the stream"
        try:
            headers = dict(call.initial_metadata() or ())  # the controller took the join
            if "seated" in headers:  # (none: the call failed, e.g. the handshake; raised below)
                self.inbox.put(("connected", ""))
            for step in call:
                self.inbox.put(("step", step))
        except grpc.RpcError as exc:
            reason = f"the table controller does not answer ({exc.code().name}: {exc.details()})"
        finally:
            with self._lock:
                self._outbox, self._call = None, None
            outbox.put(None)
            channel.close()
        return reason
