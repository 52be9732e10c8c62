"""ROM signature (long poll 21): the host-seeded CRC over the installed software.

The software is the same list of program files, in the same order, as software
authentication (:func:`kiosk.kernel.integrity.program_files`: every file of the installed ``kiosk``,
``rng``, ``ui`` and ``proto`` packages, by name).  The signature is the SAS CRC-16
(:func:`kiosk.terminal.sas.crc.crc16`) with its register started at the host's 16-bit seed and run
over, for each file in order, its name (UTF-8), one zero byte, its size (8 bytes big-endian) and its
bytes — the message of the keyed check, so a file renamed, moved, cut or changed changes it.

Reading every file takes longer than the 20 ms a machine has to answer, so
:class:`BackgroundSignatures` computes on its own thread: the first 21 with a seed starts it
(no answer), and the machine answers a later general poll (or the 21 repeated) once it is done.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from kiosk.kernel.integrity import program_files
from kiosk.terminal.sas.crc import crc16

_CHUNK = 1 << 16


def rom_signature(seed: int, files: Iterable[tuple[str, Path]]) -> int:
    """The seeded CRC over ``files`` (name, path), in the order given."""
    register = seed
    for name, path in files:
        data = path.read_bytes()
        register = crc16(name.encode() + b"\0" + len(data).to_bytes(8, "big"), register)
        for start in range(0, len(data), _CHUNK):
            register = crc16(data[start : start + _CHUNK], register)
    return register


class BackgroundSignatures:
    """Signatures per seed, computed one at a time on a worker thread (cached by seed)."""

    def __init__(self, files: Callable[[], Iterable[tuple[str, Path]]] = program_files) -> None:
        self._files = files
        self._lock = threading.Lock()
        self._done: dict[int, int] = {}
        self._running: int | None = None

    def request(self, seed: int) -> int | None:
        """The signature for ``seed`` if computed; else start it (once) and return None."""
        with self._lock:
            if seed in self._done:
                return self._done[seed]
            if self._running is None:
                self._running = seed
                threading.Thread(
                    target=self._compute, args=(seed,), name="sas-rom-signature", daemon=True
                ).start()
        return None

    def wait(self, seed: int, timeout: float = 30.0) -> int | None:
        """Block until ``seed``'s signature is done (tests and the technician's command)."""
        deadline = threading.Event()
        for _ in range(int(timeout * 100)):
            value = self.request(seed)
            if value is not None:
                return value
            deadline.wait(0.01)
        return None

    def _compute(self, seed: int) -> None:
        try:
            value = rom_signature(seed, self._files())
        except OSError:
            value = None
        with self._lock:
            if value is not None:
                self._done[seed] = value
            self._running = None
