"""The frame every simulator process shares: its control server, the ready line (and file), the
loop until ``quit`` or SIGTERM, and leaving when its parent dies.  A subclass opens its line and
machine, calls :meth:`SimProcess.open_control` and provides ``_step`` (one turn of its loop)."""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import socket
from pathlib import Path
from typing import Any, Protocol


class ClosableLine(Protocol):
    """The serial line a simulator runs on."""

    def close(self) -> None: ...


class SimProcess:
    """A simulator's process frame (see the module)."""

    line: ClosableLine

    def open_control(
        self,
        port: str,
        control: tuple[str, int],
        ready_file: Path | None,
        exit_with_parent: bool,
    ) -> None:
        """Listen on ``control`` and say where: ``ready`` (printed by :meth:`run`) and, atomically,
        ``ready_file``.  ``exit_with_parent``: a parent that dies (even by SIGKILL) leaves the
        child to init, so its ppid changes and the loop ends."""
        self._parent = os.getppid() if exit_with_parent else None
        self.running = True
        self.sel = selectors.DefaultSelector()
        self.server = socket.create_server(control)
        self.server.setblocking(False)
        self.sel.register(self.server, selectors.EVENT_READ, "accept")
        self._buffers: dict[socket.socket, bytes] = {}
        host, cport = self.server.getsockname()[:2]
        self.control_address = f"{host}:{cport}"
        self.ready: dict[str, Any] = {
            "port": port,
            "control": self.control_address,
            "pid": os.getpid(),
        }
        if ready_file is not None:
            tmp = ready_file.with_name(ready_file.name + ".tmp")
            tmp.write_text(json.dumps(self.ready), encoding="utf-8")
            tmp.replace(ready_file)

    def run(self) -> int:
        """The event loop."""
        signal.signal(signal.SIGTERM, lambda *_: self.stop())
        print(json.dumps(self.ready), flush=True)
        try:
            while self.running:
                if self._parent is not None and os.getppid() != self._parent:
                    break
                self._step()
        finally:
            self.close()
        return 0

    def stop(self) -> None:
        """Leave the loop at the next turn."""
        self.running = False

    def close(self) -> None:
        """Release the line and the sockets."""
        for sock in list(self._buffers):
            sock.close()
        self.server.close()
        self.sel.close()
        self.line.close()

    def command(self, words: list[str]) -> str:
        """One control command; the reply line (each simulator's own)."""
        raise NotImplementedError

    def _accept(self) -> None:
        """A control client connected: read its lines from now on."""
        with contextlib.suppress(BlockingIOError):
            sock, _ = self.server.accept()
            sock.setblocking(False)
            self._buffers[sock] = b""
            self.sel.register(sock, selectors.EVENT_READ, "client")

    def _client(self, sock: socket.socket) -> None:
        """A control client's lines, each answered by :meth:`command`; EOF closes it."""
        try:
            data = sock.recv(4096)
        except BlockingIOError:
            return
        except ConnectionError:
            data = b""
        if not data:
            self.sel.unregister(sock)
            self._buffers.pop(sock, None)
            sock.close()
            return
        buf = self._buffers[sock] + data
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            reply = self.command(line.decode("utf-8", "replace").split())
            with contextlib.suppress(OSError):
                sock.sendall(reply.encode() + b"\n")
        self._buffers[sock] = buf

    def _step(self) -> None:
        raise NotImplementedError
