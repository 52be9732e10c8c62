"""A host machine on the master side of a real pty, a simulator (pyserial) on the slave side."""

from __future__ import annotations

import os
import pty
import queue
import threading
import time
import tty
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kiosk.terminal.bridge.cashbox import CashboxRecord
from kiosk.terminal.bridge.native import Condition, NativeEvent, NativeValidator
from kiosk.terminal.bridge.sim.script import ScriptStep


class PtyRig:
    """Drives ``host`` over the pty; ``act`` scripts the simulator live."""

    def __init__(
        self, host: NativeValidator, master: int, control: queue.Queue[ScriptStep]
    ) -> None:
        self.host = host
        self.master = master
        self.control = control
        self.seen: list[NativeEvent] = []
        self._t0 = time.monotonic()
        self._cursor = 0

    def act(self, action: str, arg: str = "") -> None:
        self.control.put(ScriptStep(0, action, arg))

    def _now(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    def until(self, kind: type, timeout_s: float = 8.0) -> Any:
        """Pump until an event of ``kind`` comes out (AssertionError after ``timeout_s``)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            out = self.host.transmit(self._now())
            if out:
                os.write(self.master, out)
            try:
                data = os.read(self.master, 4096)
            except (BlockingIOError, OSError):
                data = b""
            if data:
                self.host.receive(data, self._now())
            else:
                time.sleep(0.003)
            self.seen.extend(self.host.events())
            while self._cursor < len(self.seen):
                event = self.seen[self._cursor]
                self._cursor += 1
                if isinstance(event, kind):
                    return event
        raise AssertionError(f"no {kind.__name__} in {timeout_s} s; saw {self.seen}")

    def condition(self, timeout_s: float = 8.0, **want: bool) -> Condition:
        """The next Condition with the fields in ``want``."""
        deadline = time.monotonic() + timeout_s
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no condition {want}; saw {self.seen}")
            cond: Condition = self.until(Condition, left)
            if all(getattr(cond, k) == v for k, v in want.items()):
                return cond


@contextmanager
def pty_rig(
    host: NativeValidator,
    run_simulator: Callable[..., CashboxRecord],
    record_path: Path,
) -> Iterator[PtyRig]:
    """A simulator thread on a fresh pty, stopped and joined on exit."""
    master, slave = pty.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    stop = threading.Event()
    control: queue.Queue[ScriptStep] = queue.Queue()
    thread = threading.Thread(
        target=run_simulator,
        args=(os.ttyname(slave),),
        kwargs={"record_path": record_path, "stop": stop, "control": control},
        daemon=True,
    )
    thread.start()
    try:
        yield PtyRig(host, master, control)
    finally:
        stop.set()
        thread.join(5)
        os.close(master)
        os.close(slave)
