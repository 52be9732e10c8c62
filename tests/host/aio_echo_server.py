"""An asynchronous bare gRPC echo server (same mutual TLS, no work): the paced floor's baseline.

``Stream`` is a bidirectional stream that answers each message with its own bytes (the link
stream's baseline: the same bytes on the same number of streams); ``Echo`` answers the
request bytes; ``Hold`` is a server stream that stays open and sends nothing (an older
terminal's command stream).  Like the host it is ``grpc.aio``, so thousands of open
streams cost it no threads.

python -m tests.host.aio_echo_server --pki DIR --listen 127.0.0.1:PORT
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc

from kiosk.terminal.hostlink import pki
from kiosk.terminal.hostlink.channel import HOST_SERVER_KEEPALIVE

SERVICE = "turbokiosk.bench.Echo"
ECHO = f"/{SERVICE}/Echo"
HOLD = f"/{SERVICE}/Hold"
STREAM = f"/{SERVICE}/Stream"


async def _echo(request: bytes, context: Any) -> bytes:
    return request


async def _stream(requests: AsyncIterator[bytes], context: Any) -> AsyncIterator[bytes]:
    async for request in requests:
        yield request


async def _hold(request: bytes, context: Any) -> AsyncIterator[bytes]:
    await context.send_initial_metadata(())  # the stream is open (as the host's Commands)
    await asyncio.Event().wait()  # until the client cancels
    yield b""  # pragma: no cover


async def serve(pki_dir: Path, listen: str, *, quiet: bool = False) -> None:
    creds = pki.credentials(pki_dir, "host")
    server = grpc.aio.server(options=[*HOST_SERVER_KEEPALIVE, ("grpc.so_reuseport", 1)])
    handler = grpc.method_handlers_generic_handler(
        SERVICE,
        {
            "Echo": grpc.unary_unary_rpc_method_handler(_echo),
            "Hold": grpc.unary_stream_rpc_method_handler(_hold),
            "Stream": grpc.stream_stream_rpc_method_handler(_stream),
        },
    )
    server.add_generic_rpc_handlers((handler,))
    pki.listen_mutual_tls(server, listen, creds)
    await server.start()
    if not quiet:
        print("echo: serving", flush=True)
    stopping = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stopping.set)
    await stopping.wait()
    await server.stop(0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pki", required=True, type=Path)
    parser.add_argument("--listen", required=True)
    parser.add_argument("--processes", type=int, default=1, help="on one port (SO_REUSEPORT)")
    args = parser.parse_args()
    children = []
    for _ in range(args.processes - 1):  # forked before any gRPC object exists
        pid = os.fork()
        if pid == 0:
            asyncio.run(serve(args.pki, args.listen, quiet=True))
            os._exit(0)
        children.append(pid)
    try:
        asyncio.run(serve(args.pki, args.listen))
    finally:
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
            os.waitpid(pid, 0)


if __name__ == "__main__":
    main()
