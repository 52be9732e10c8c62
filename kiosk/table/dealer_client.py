"""A Dealer Terminal's connection to its table controller (``DealerService``, mutual TLS).

:class:`DealerClient` holds one stream with a ``dealer-<n>`` certificate: :meth:`request`
sends one request and waits for its ``DealerResult``; the latest ``TableView`` and the recall
answers are kept as they arrive (:attr:`view`, :meth:`wait_view`), and ``on_view`` is called
with each view (from the reader thread).  The Kivy app and the tests use it the same way.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import grpc

from kiosk.hostlink import pki
from proto.turbokiosk.v1 import dealer_pb2 as pb
from proto.turbokiosk.v1 import dealer_pb2_grpc


class DealerLinkError(Exception):
    """The controller did not answer (the stream ended or timed out)."""


class DealerClient:
    """One Dealer Terminal stream."""

    def __init__(
        self,
        address: str,
        credentials: pki.Credentials,
        *,
        on_view: Callable[[pb.TableView], None] | None = None,
    ) -> None:
        self.channel = grpc.secure_channel(
            address,
            grpc.ssl_channel_credentials(credentials.ca, credentials.key, credentials.cert),
            options=[("grpc.ssl_target_name_override", pki.SERVER_NAME)],
        )
        stub = dealer_pb2_grpc.DealerServiceStub(self.channel)  # type: ignore[no-untyped-call]
        self.on_view = on_view
        self.view: pb.TableView | None = None
        self.error: grpc.RpcError | None = None
        self._ids = itertools.count(1)
        self._requests: queue.Queue[pb.DealerRequest | None] = queue.Queue()
        self._results: dict[int, pb.DealerResult] = {}
        self._recalls: dict[int, pb.RecallAnswer] = {}
        self._changed = threading.Condition()
        self._views = 0
        self._call = stub.Dealer(self._outgoing())
        self._reader = threading.Thread(target=self._read, name="dealer-client", daemon=True)
        self._reader.start()

    def _outgoing(self) -> Iterator[pb.DealerRequest]:
        while (request := self._requests.get()) is not None:
            yield request

    def _read(self) -> None:
        try:
            for response in self._call:
                kind = response.WhichOneof("body")
                with self._changed:
                    if kind == "result":
                        self._results[response.result.request_id] = response.result
                    elif kind == "recall":
                        self._recalls[response.recall.request_id] = response.recall
                    elif kind == "table":
                        self.view = response.table
                        self._views += 1
                    self._changed.notify_all()
                if kind == "table" and self.on_view is not None:
                    self.on_view(response.table)
        except grpc.RpcError as exc:
            if exc.code() is not grpc.StatusCode.CANCELLED:
                self.error = exc
        finally:
            with self._changed:
                self._changed.notify_all()

    def request(self, timeout: float = 10.0, **body: Any) -> pb.DealerResult:
        """Send one request (``new_game=pb.NewGame()``, ...) and wait for its result."""
        request_id = next(self._ids)
        self._requests.put(pb.DealerRequest(request_id=request_id, **body))
        end = time.monotonic() + timeout
        with self._changed:
            while request_id not in self._results:
                left = end - time.monotonic()
                if left <= 0 or not self._reader.is_alive():
                    raise DealerLinkError(f"no answer from the table: {self.error or 'timed out'}")
                self._changed.wait(left)
            return self._results.pop(request_id)

    def recall(self, count: int = 10, game_number: int = 0) -> pb.RecallAnswer:
        """The last ``count`` rounds (or one game) from the controller's recall."""
        result = self.request(recall=pb.RecallRequest(count=count, game_number=game_number))
        if not result.ok:
            raise DealerLinkError(f"{result.error}: {result.reason}")
        with self._changed:
            self._changed.wait_for(lambda: result.request_id in self._recalls, 10.0)
            return self._recalls.pop(result.request_id)

    def wait_view(
        self, predicate: Callable[[pb.TableView], bool], timeout: float = 10.0
    ) -> pb.TableView:
        """Wait until the latest view satisfies ``predicate``; that view."""
        end = time.monotonic() + timeout
        with self._changed:
            while self.view is None or not predicate(self.view):
                left = end - time.monotonic()
                if left <= 0 or not self._reader.is_alive():
                    seen = self.view.phase if self.view is not None else "no view"
                    raise DealerLinkError(f"the table did not get there (last: {seen})")
                self._changed.wait(left)
            return self.view

    def close(self) -> None:
        """End the stream."""
        self._requests.put(None)
        self._call.cancel()
        self.channel.close()
        self._reader.join(timeout=5)
