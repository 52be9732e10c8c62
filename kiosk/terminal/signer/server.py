"""``turbokiosk signer serve``: the signer's Unix socket server (one thread per connection)."""

from __future__ import annotations

import os
import signal
import socket
import socketserver
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from google.protobuf.message import DecodeError

from kiosk.terminal.signer.framing import FramingError, recv_frame, send_frame
from kiosk.terminal.signer.keeper import Keeper
from proto.turbokiosk.v1 import signer_pb2 as pb

#: the socket's mode: the signer's user and the group it is given (the installer: turbokiosk)
SOCKET_MODE = 0o660


class _Handler(socketserver.BaseRequestHandler):
    server: _Server

    def handle(self) -> None:
        sock: socket.socket = self.request
        while True:
            try:
                frame = recv_frame(sock)
            except (FramingError, OSError):
                return
            request = pb.SignerRequest()
            try:
                request.ParseFromString(frame)
            except DecodeError:
                response = pb.SignerResponse(refused="not a SignerRequest")
            else:
                response = self.server.keeper.answer(request)
            try:
                send_frame(sock, response.SerializeToString())
            except OSError:
                return


class _Server(socketserver.ThreadingUnixStreamServer):
    daemon_threads = True

    def __init__(self, path: Path, keeper: Keeper) -> None:
        self.keeper = keeper
        super().__init__(str(path), _Handler)


def serve(socket_path: Path, state_dir: Path, ready: Callable[[str], None] | None = None) -> int:
    """Serve until SIGTERM or SIGINT; 0 on a clean stop."""
    keeper = Keeper(state_dir)
    socket_path = Path(socket_path)
    if socket_path.exists() or socket_path.is_symlink():
        if not stat.S_ISSOCK(socket_path.lstat().st_mode):
            raise OSError(f"{socket_path} exists and is not a socket")
        socket_path.unlink()  # a stale socket of a signer that ended
    socket_path.parent.mkdir(parents=True, exist_ok=True)
    old_umask = os.umask(0o117)
    try:
        server = _Server(socket_path, keeper)
    finally:
        os.umask(old_umask)
    os.chmod(socket_path, SOCKET_MODE)

    def stop(signum: int, frame: FrameType | None) -> None:
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if ready is not None:
        ready(str(socket_path))
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()
        socket_path.unlink(missing_ok=True)
    return 0
