"""A scripted simulator's live control channel (``turbokiosk sim essp|ebds --control ADDR``).

The simulators' line-based TCP protocol (``ok``/``error`` replies): ``insert CENTS`` and
``ticket BARCODE`` put an item at the bezel, any script action (``jam``, ``full``, ...) is done
at once, ``status`` answers the cash box (and whether the device accepts notes) as JSON,
``quit`` stops the simulator.  Each command becomes a
:class:`~kiosk.terminal.bridge.sim.script.ScriptStep` on the runner's queue, so the runner's
thread alone touches the device.
"""

from __future__ import annotations

import contextlib
import json
import queue
import socket
import threading
from collections.abc import Callable

from kiosk.terminal.bridge.sim.script import ScriptError, ScriptStep, parse_script


class ControlServer:
    """Serves control commands on a thread until ``stop`` is set."""

    def __init__(
        self,
        address: tuple[str, int],
        steps: queue.Queue[ScriptStep],
        status: Callable[[], dict[str, object]],
        stop: threading.Event,
    ) -> None:
        self.steps = steps
        self.status = status
        self.stop = stop
        self.server = socket.create_server(address)
        self.server.settimeout(0.2)
        host, port = self.server.getsockname()[:2]
        self.address = f"{host}:{port}"
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def command(self, words: list[str]) -> str:
        """One command; the reply line."""
        match words:
            case []:
                return "error empty command"
            case ["status"]:
                return "ok " + json.dumps(self.status(), sort_keys=True)
            case ["quit"]:
                self.stop.set()
                return "ok"
            case ["insert", cents]:
                words = ["note", cents]
        try:
            (step,) = parse_script("0 " + " ".join(words))
        except ScriptError as exc:
            return f"error {exc}"
        self.steps.put(step)
        return "ok accepting" if step.action in ("note", "ticket") else "ok"

    def _serve(self) -> None:
        with self.server:
            while not self.stop.is_set():
                try:
                    sock, _ = self.server.accept()
                except TimeoutError:
                    continue
                except OSError:
                    return
                threading.Thread(target=self._client, args=(sock,), daemon=True).start()

    def _client(self, sock: socket.socket) -> None:
        with sock, contextlib.suppress(OSError):
            buf = b""
            while not self.stop.is_set():
                data = sock.recv(4096)
                if not data:
                    return
                buf += data
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    reply = self.command(line.decode("utf-8", "replace").split())
                    sock.sendall(reply.encode() + b"\n")
