"""An asynchronous bare gRPC echo server (same mutual TLS, no work): the paced floor's baseline.

``Echo`` answers the request bytes; ``Hold`` is a server stream that stays open and sends
nothing (a terminal's command stream).  Like the host it is ``grpc.aio``, so thousands of open
streams cost it no threads.

python -m tests.host.aio_echo_server --pki DIR --listen 127.0.0.1:PORT
"""

from __future__ import annotations

import argparse
import asyncio
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


async def _echo(request: bytes, context: Any) -> bytes:
    return request


async def _hold(request: bytes, context: Any) -> AsyncIterator[bytes]:
    await context.send_initial_metadata(())  # the stream is open (as the host's Commands)
    await asyncio.Event().wait()  # until the client cancels
    yield b""  # pragma: no cover


async def serve(pki_dir: Path, listen: str) -> None:
    creds = pki.credentials(pki_dir, "host")
    server = grpc.aio.server(options=HOST_SERVER_KEEPALIVE)
    handler = grpc.method_handlers_generic_handler(
        SERVICE,
        {
            "Echo": grpc.unary_unary_rpc_method_handler(_echo),
            "Hold": grpc.unary_stream_rpc_method_handler(_hold),
        },
    )
    server.add_generic_rpc_handlers((handler,))
    pki.listen_mutual_tls(server, listen, creds)
    await server.start()
    print("echo: serving", flush=True)
    stopping = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stopping.set)
    await stopping.wait()
    await server.stop(0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pki", required=True, type=Path)
    parser.add_argument("--listen", required=True)
    args = parser.parse_args()
    asyncio.run(serve(args.pki, args.listen))


if __name__ == "__main__":
    main()
