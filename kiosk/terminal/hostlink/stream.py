"""The terminal's end of the link stream (``HostService.Link``): one long-lived gRPC stream.

:class:`LinkSession` opens the stream with the hello, then sends reports up one at a time and
waits for each one's acknowledgement (the host sends it after the commit that holds the
report), while the host's commands come down the same stream.  One reader thread takes
everything that comes down: the hello's answer and acknowledgements go to whoever waits for
them, commands to :attr:`LinkSession.commands` (the link carries them out on its own thread, so
a slow command never holds an acknowledgement back).

Every failure is a :class:`grpc.RpcError` with ``code()``, ``details()`` and
``trailing_metadata()``, as the unary calls raise, so the link treats a refusal, a throttle
(retry pushback) or a lost host the same way over the stream: a report the host refuses
(bounds, rate limit, records away) comes back as a refused acknowledgement and the stream stays
open; a hello refused (identity) or a stream that breaks ends the session.  An answer not
received within ``timeout`` seconds ends the session too (``DEADLINE_EXCEEDED``): what was
sent stays in the outbox and goes again, once, on the next session.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from typing import Any

import grpc

from proto.turbokiosk.v1 import host_pb2, host_pb2_grpc

#: the trailing metadata key of gRPC's retry pushback (the host's rate limit)
PUSHBACK_KEY = "grpc-retry-pushback-ms"


class LinkError(grpc.RpcError):
    """A failed hello or report on the link stream (the interface of a failed gRPC call)."""

    def __init__(self, code: grpc.StatusCode, details: str, retry_ms: int = 0) -> None:
        super().__init__(f"{code.name}: {details}")
        self._code = code
        self._details = details
        self._retry_ms = retry_ms

    def code(self) -> grpc.StatusCode:
        """The status (as a unary call's)."""
        return self._code

    def details(self) -> str:
        """The host's line."""
        return self._details

    def trailing_metadata(self) -> Any:
        """The retry pushback of a throttled report, if any."""
        return ((PUSHBACK_KEY, str(self._retry_ms)),) if self._retry_ms else ()


_STATUS = {code.value[0]: code for code in grpc.StatusCode}
_CLOSE = object()


class LinkSession:
    """One open link stream (see the module docstring); not reusable once it ended."""

    def __init__(self, stub: host_pb2_grpc.HostServiceStub, timeout: float) -> None:
        self.timeout = timeout
        self.commands: queue.Queue[host_pb2.HostCommand | None] = queue.Queue()
        self._up: queue.Queue[Any] = queue.Queue()
        self._answers: queue.Queue[host_pb2.LinkResponse | grpc.RpcError] = queue.Queue()
        self._number = 0
        self._ended: grpc.RpcError | None = None
        self._call: Any = stub.Link(self._requests())
        self._reader = threading.Thread(target=self._read, name="host-link-reader", daemon=True)
        self._reader.start()

    def _requests(self) -> Iterator[host_pb2.LinkRequest]:
        while (item := self._up.get()) is not _CLOSE:
            yield item

    def _read(self) -> None:
        try:
            for response in self._call:
                if response.WhichOneof("body") == "command":
                    self.commands.put(response.command)
                else:
                    self._answers.put(response)
            ended: grpc.RpcError = LinkError(grpc.StatusCode.UNAVAILABLE, "the host ended the link")
        except grpc.RpcError as exc:
            ended = exc
        self._ended = ended
        self._answers.put(ended)
        self.commands.put(None)

    def _answer(self) -> host_pb2.LinkResponse:
        try:
            answer = self._answers.get(timeout=self.timeout)
        except queue.Empty:
            self.close()
            raise LinkError(
                grpc.StatusCode.DEADLINE_EXCEEDED, f"no answer in {self.timeout:g} s"
            ) from None
        if isinstance(answer, grpc.RpcError):
            self._answers.put(answer)  # every later wait sees the end too
            raise answer
        return answer

    @property
    def open(self) -> bool:
        """Whether the stream is still up."""
        return self._ended is None

    def hello(self, request: host_pb2.HelloRequest) -> host_pb2.HelloResponse:
        """Open the stream with the hello; the host's answer (its identity checks passed)."""
        self._up.put(host_pb2.LinkRequest(hello=request))
        answer = self._answer()
        if answer.WhichOneof("body") != "hello":
            self.close()
            raise LinkError(grpc.StatusCode.INTERNAL, "the host did not answer the hello")
        return answer.hello

    def report(self, request: host_pb2.ReportRequest) -> host_pb2.ReportResponse:
        """Send one report and wait for its acknowledgement (after the host's commit)."""
        self._number += 1
        self._up.put(host_pb2.LinkRequest(number=self._number, report=request))
        answer = self._answer()
        ack = answer.ack
        if answer.WhichOneof("body") != "ack" or ack.number != self._number:
            self.close()
            raise LinkError(grpc.StatusCode.INTERNAL, "acknowledgement out of order")
        if ack.status:
            code = _STATUS.get(ack.status, grpc.StatusCode.UNKNOWN)
            raise LinkError(code, ack.details, ack.retry_ms)
        return ack.response

    def close(self) -> None:
        """End the stream (from any thread)."""
        self._up.put(_CLOSE)
        self._call.cancel()
