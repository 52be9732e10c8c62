"""A man in the middle on a real serial line (pseudo-terminals) between the terminal and the
bill validator simulator: he rewrites the value in a ``Stacked`` frame, with a good CRC, and
replays an old frame.  Both are refused, the tamper tilt names the device and the count, and
nothing is credited but the note that went into the cash box.

The rewrite is the one a stream cipher without authentication would let through: the attacker
knows where the note's value sits in the packet and flips exactly those bits of the ciphertext
($5 becomes $100, same length).  The test uses the pairing key only to find that frame and
those bytes, as an attacker who knows the protocol's layout would.
"""

from __future__ import annotations

import contextlib
import json
import os
import pty
import select
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cobs import cobs

from kiosk.terminal.app.peripherals import spawn_simulator, wait_ready
from kiosk.terminal.app.serial_wiring import SerialPorts, SerialSetup
from kiosk.terminal.app.wiring import Terminal, build_terminal
from kiosk.terminal.devices.framing import CRC_BYTES, encode_frame
from kiosk.terminal.devices.pairing import load_pairing_key
from kiosk.terminal.devices.seal import HEADER_BYTES, LinkSeal, Opened, Role
from kiosk.terminal.devices.sim.program import control
from proto.turbokiosk.v1.device_pb2 import EscrowItem, LinkPacket, ValidatorEvent

FIVE = EscrowItem(note_value=500).SerializeToString()  # 08 f4 03
HUNDRED = EscrowItem(note_value=10_000).SerializeToString()  # 08 90 4e: the same length


class ManInTheMiddle:
    """Sits between the simulator's pty and a pty of his own that the terminal opens."""

    def __init__(self, device_end: str, terminal_end: Path, key: bytes) -> None:
        self.device = os.open(device_end, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self.device)
        self.master, self._slave = pty.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self.master, False)
        terminal_end.symlink_to(os.ttyname(self._slave))
        self.snoop = LinkSeal(key, Role.TERMINAL, 1)  # only to find the Stacked frame
        self.rewrite_stacked = False
        self.rewritten = 0
        self.stacked_frames: list[bytes] = []  # genuine Stacked frames seen, as sent
        self.inject: list[bytes] = []
        self._buf = b""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self.device, self.master], [], [], 0.02)
            if self.master in ready:
                with contextlib.suppress(BlockingIOError, OSError):
                    os.write(self.device, os.read(self.master, 4096))  # terminal -> device
            if self.device in ready:
                with contextlib.suppress(BlockingIOError):
                    self._from_device(os.read(self.device, 4096))
            while self.inject:
                os.write(self.master, self.inject.pop(0))

    def _from_device(self, data: bytes) -> None:
        self._buf += data
        *frames, self._buf = self._buf.split(b"\x00")
        for frame in frames:
            os.write(self.master, self._meddle(frame) + b"\x00")

    def _meddle(self, frame: bytes) -> bytes:
        try:
            body = cobs.decode(frame)[:-CRC_BYTES]
        except cobs.DecodeError:
            return frame
        opened = self.snoop.open(body)
        if not isinstance(opened, Opened):
            return frame
        pkt = LinkPacket.FromString(opened.packet)
        event = ValidatorEvent.FromString(pkt.payload) if pkt.payload else ValidatorEvent()
        if event.WhichOneof("event") != "stacked":
            return frame
        self.stacked_frames.append(frame + b"\x00")
        if not self.rewrite_stacked or FIVE not in opened.packet:
            return frame
        self.rewrite_stacked = False
        at = HEADER_BYTES + opened.packet.index(FIVE)
        forged = bytearray(body)
        for i, (old, new) in enumerate(zip(FIVE, HUNDRED, strict=True)):
            forged[at + i] ^= old ^ new  # the plaintext under it becomes $100
        self.rewritten += 1
        return encode_frame(bytes(forged), 4096)[:-1]  # a good CRC

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        for fd in (self.device, self.master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)


class Rig:
    def __init__(self, base: Path) -> None:
        self.sims = base / "sims"
        self.procs = []
        controls = {}
        for device in ("bill-validator", "printer"):
            proc, ready = spawn_simulator(device, self.sims)
            self.procs.append(proc)
            controls[device] = wait_ready(proc, ready, 15)["control"]
        self.controls = controls
        key_file = self.sims / "keys" / "bill-validator.key"
        self.mitm = ManInTheMiddle(
            str(self.sims / "bill-validator.tty"), base / "mitm.tty", load_pairing_key(key_file)
        )
        ports = SerialPorts(
            bill_validator=str(base / "mitm.tty"),
            printer=str(self.sims / "printer.tty"),
            validator_key=key_file,
            printer_key=self.sims / "keys" / "printer.key",
        )
        self.terminal: Terminal = build_terminal(base / "terminal", devices=SerialSetup(ports))
        self.runtime = self.terminal.runtime
        self.runtime.power_up()
        self.until(lambda: self.status()["enabled"] and self.terminal.printer.ready())

    def bv(self, command: str) -> str:
        return control(self.controls["bill-validator"], command)

    def status(self) -> dict[str, Any]:
        status: dict[str, Any] = json.loads(self.bv("status")[3:])
        return status

    def until(self, done: Callable[[], bool], timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < deadline, f"timed out; tilts {self.runtime.state.tilts}"
            self.runtime.pump()
            time.sleep(0.01)

    def settle(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.runtime.pump()
            time.sleep(0.01)

    def close(self) -> None:
        self.terminal.close()
        self.mitm.close()
        for proc in self.procs:
            proc.terminate()
            proc.wait(5)


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = Rig(tmp_path)
    yield r
    r.close()


def test_a_rewritten_stacked_frame_and_a_replayed_one_are_refused_and_tilt(rig: Rig):
    rig.mitm.rewrite_stacked = True
    assert rig.bv("insert 500").startswith("ok escrow")
    tilt = "bill_validator_tampered"
    rig.until(lambda: tilt in rig.runtime.state.tilts)
    assert rig.mitm.rewritten == 1
    raised = rig.runtime.state.tilts[tilt]
    assert raised.needs_attendant
    assert raised.reason == (
        "bill validator link tampered: 1 frame refused (last: failed authentication)"
    )
    # the validator sends its Stacked again (newly sealed): the $5 in the cash box is credited
    rig.until(lambda: rig.runtime.state.credits == [500])
    rig.until(lambda: rig.status()["unacked"] == [])
    assert rig.status()["cashbox"]["notes"] == [500]

    # replay the genuine Stacked frame of that note: refused, never credited twice
    assert rig.mitm.stacked_frames
    rig.mitm.inject.append(rig.mitm.stacked_frames[-1])
    rig.until(lambda: "2 frames" in rig.runtime.state.tilts[tilt].reason)
    assert "replayed or reordered" in rig.runtime.state.tilts[tilt].reason
    rig.settle(0.5)
    assert rig.runtime.state.credits == [500]
    assert rig.runtime.state.lifetime["bills_in"] == 500
    stats = rig.terminal.serial.channels[0].stats()
    assert (stats["tampered"], stats["forged"], stats["replayed"]) == (2, 1, 1)

    # a frame of line noise (bad CRC) is dropped, and is not tampering
    rig.mitm.inject.append(bytes(range(1, 60)) + b"\x00")
    rig.settle(0.3)
    assert rig.terminal.serial.channels[0].stats()["tampered"] == 2
    assert (
        rig.terminal.serial.channels[0].stats()["frames_crc_errors"]
        + rig.terminal.serial.channels[0].stats()["frames_cobs_errors"]
        >= 1
    )
