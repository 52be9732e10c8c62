"""A bare gRPC echo server (same mutual TLS, no work): the load benchmark's baseline.

python -m tests.host.echo_server --pki DIR --listen 127.0.0.1:PORT
"""

from __future__ import annotations

import argparse
import signal
from concurrent import futures

import grpc

from kiosk.hostlink import pki
from kiosk.hostlink.channel import KEEPALIVE

METHOD = "/turbokiosk.bench.Echo/Echo"


def _echo(request: bytes, context: grpc.ServicerContext) -> bytes:
    return request


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pki", required=True)
    parser.add_argument("--listen", required=True)
    parser.add_argument("--max-workers", type=int, default=512)
    args = parser.parse_args()
    creds = pki.credentials(__import__("pathlib").Path(args.pki), "host")
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=args.max_workers), options=KEEPALIVE
    )
    handler = grpc.method_handlers_generic_handler(
        "turbokiosk.bench.Echo", {"Echo": grpc.unary_unary_rpc_method_handler(_echo)}
    )
    server.add_generic_rpc_handlers((handler,))
    server.add_secure_port(
        args.listen,
        grpc.ssl_server_credentials(
            [(creds.key, creds.cert)], root_certificates=creds.ca, require_client_auth=True
        ),
    )
    server.start()
    print("echo: serving", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: server.stop(0))
    server.wait_for_termination()


if __name__ == "__main__":
    main()
