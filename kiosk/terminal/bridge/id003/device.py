"""A JCM ID-003 acceptor's firmware, simulated wire-exact and sans-IO (``turbokiosk sim id003``).

Notes and tickets come from the control channel (a player at the bezel), requests from the host
on the line, time through ``now`` (ms).  Its non-volatile memory (``id003.json``) keeps the
cash box, the item in its path and how far it got, so a simulator killed at any instant comes
back as the real acceptor does: ``POWER UP WITH BILL IN ACCEPTOR`` (returned at the host's
``RESET``) or ``POWER UP WITH BILL IN STACKER`` (stacked at ``RESET``, then ``VEND VALID`` again
until the host's ``ACK``).  A note is counted in the cash box when it reaches ``VEND VALID``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kiosk.terminal.bridge.id003 import codes as k
from kiosk.terminal.bridge.id003.codec import Decoder, Frame, encode
from kiosk.terminal.devices.sim.memory import DeviceMemory

VERSION = "TK-ID003-SIM USA-ID003-05 V1.00"
#: denomination code -> (base, exponent) in dollars, as CURRENCY ASSIGN answers it
ASSIGN = {
    0x61: (1, 0),
    0x62: (2, 0),
    0x63: (5, 0),
    0x64: (1, 1),
    0x65: (2, 1),
    0x66: (5, 1),
    0x67: (1, 2),
}
NOTE_CODES = {base * 10**exp * 100: code for code, (base, exp) in ASSIGN.items()}
#: control fault name -> the status byte it shows (and its data)
FAULTS: dict[str, tuple[int, bytes]] = {
    "jam": (k.JAM_IN_ACCEPTOR, b""),
    "stacker-jam": (k.JAM_IN_STACKER, b""),
    "cashbox-full": (k.STACKER_FULL, b""),
    "cashbox-removed": (k.STACKER_OPEN, b""),
    "cheat": (k.CHEATED, b""),
    "failure": (k.FAILURE, bytes([0xA2])),
}


class Id003Device:
    """The acceptor: a path (accepting, escrow, stacking...), a cash box, its settings."""

    def __init__(
        self,
        state_dir: Path,
        now: int,
        *,
        accept_ms: int = 200,
        stack_ms: int = 150,
        return_ms: int = 150,
        reject_ms: int = 200,
        init_ms: int = 100,
        escrow_timeout_ms: int = 10_000,
    ) -> None:
        self.accept_ms, self.stack_ms, self.return_ms = accept_ms, stack_ms, return_ms
        self.reject_ms, self.init_ms = reject_ms, init_ms
        self.escrow_timeout_ms = escrow_timeout_ms
        self.mem = DeviceMemory(
            state_dir / "id003.json",
            {
                "path": None,  # {"item": {"note": cents} | {"ticket": digits}, "stage": ...}
                "cashbox": {"notes": {}, "tickets": 0},
                "lifetime": {"notes": [0, 0], "tickets": 0},
                "stacked": [],  # the last 50 items stacked
                "handed_back": [],  # the last 50 items returned or rejected, and why
                "removals": 0,
                "faults": [],
            },
        )
        self.decoder = Decoder()
        self.silent = False  # "fault mute": answers nothing (a cut line)
        self.last_stacked_at = 0  # when the last note reached the cash box (ms, the clock given)
        self.inhibited = True
        self.denomination_mask = 0
        self.bar_inhibit = 0xFF
        self._out = bytearray()
        self._since = now
        self._reject = 0
        self._reject_next = 0
        path = self.mem.data["path"]
        if path is None:
            self.phase, self.power_up = "power_up", k.POWER_UP
        elif path["stage"] == "escrow":
            self.phase, self.power_up = "power_up", k.POWER_UP_BILL_IN_ACCEPTOR
        else:
            self.phase, self.power_up = "power_up", k.POWER_UP_BILL_IN_STACKER

    # --- the line -------------------------------------------------------------------------

    def receive(self, data: bytes, now: int) -> None:
        """Bytes from the host; answers pile up for :meth:`take_output`."""
        for frame in self.decoder.feed(data):
            self.tick(now)
            reply = self._request(frame, now)
            if reply is not None and not self.silent:
                self._out += encode(reply)

    def take_output(self) -> bytes:
        """What to write on the line."""
        out, self._out = bytes(self._out), bytearray()
        return out

    # --- time -----------------------------------------------------------------------------

    def tick(self, now: int) -> None:
        """Move the item along its path: a phase that has lasted its time gives way to the
        next (:meth:`_dwell`)."""
        if self._faulted():
            self._since = now  # the path stands still while a fault shows
            return
        wait = self._dwell().get(self.phase)
        if wait is None or now - self._since < wait:
            return
        match self.phase:
            case "accepting":
                self._to("escrow", now)
            case "escrow":
                self._hand_back("escrow timeout", now)
            case "stacking":
                self._into_cashbox()
                self.last_stacked_at = now
                self._to("vend_valid", now)
            case _:  # initialising, stacked, returning, rejecting: done
                self._to("idle", now)

    def next_deadline(self) -> int | None:
        """When :meth:`tick` has something to do."""
        wait = self._dwell().get(self.phase)
        return None if wait is None or self._faulted() else self._since + wait

    def _dwell(self) -> dict[str, int]:
        """How long each timed phase lasts (ms)."""
        return {
            "initialize": self.init_ms,
            "accepting": self.accept_ms,
            "escrow": self.escrow_timeout_ms,
            "stacking": self.stack_ms,
            "stacked": 50,
            "returning": self.return_ms,
            "rejecting": self.reject_ms,
        }

    # --- the bezel and the technician -----------------------------------------------------

    def control(self, words: list[str], now: int) -> str:
        """A control command; the reply starts with ``ok`` or ``error``."""
        match words:
            case ["insert", value] if value.isdigit():
                return self._insert({"note": int(value)}, now)
            case ["ticket", number]:
                return self._insert({"ticket": number}, now)
            case ["fault", name] if name in FAULTS:
                return self._fault(name, True)
            case ["fix", name] if name in FAULTS:
                return self._fault(name, False)
            case ["fault", "mute"] | ["fix", "mute"]:
                self.silent = words[0] == "fault"
                return "ok"
            case ["reject-next", code] if code.isdigit() and 0x71 <= int(code) <= 0x7F:
                self._reject_next = int(code)
                return "ok"
            case ["status"]:
                return "ok " + json.dumps(self.snapshot(), sort_keys=True)
        return (
            "error commands: insert CENTS | ticket NUMBER | fault NAME | fix NAME | "
            f"reject-next CODE | status (NAME: {', '.join(FAULTS)}, mute)"
        )

    def snapshot(self) -> dict[str, Any]:
        """The acceptor's state and memory."""
        return {
            "phase": self.phase,
            "inhibited": self.inhibited,
            "status": f"0x{self._status()[0]:02X}",
            **{key: self.mem.data[key] for key in ("path", "cashbox", "lifetime", "removals")},
            "faults": self.mem.data["faults"],
            "handed_back": self.mem.data["handed_back"],
            "stacked": self.mem.data["stacked"],
            "last_stacked_at": self.last_stacked_at,
        }

    # --- inside -----------------------------------------------------------------------------

    def _faulted(self) -> bool:
        return bool(self.mem.data["faults"])

    def _to(self, phase: str, now: int) -> None:
        self.phase, self._since = phase, now

    def _status(self) -> tuple[int, bytes]:
        if self.phase == "power_up":
            return self.power_up, b""
        faults = self.mem.data["faults"]
        if faults and self.phase != "vend_valid":
            return FAULTS[faults[-1]]
        path = self.mem.data["path"]
        match self.phase:
            case "initialize":
                return k.INITIALIZE, b""
            case "idle":
                return (k.DISABLE if self.inhibited else k.ENABLE), b""
            case "accepting":
                return k.ACCEPTING, b""
            case "escrow":
                item = path["item"]
                if "ticket" in item:
                    return k.ESCROW, bytes([k.BARCODE_TICKET]) + item["ticket"].encode()
                return k.ESCROW, bytes([NOTE_CODES[item["note"]]])
            case "stacking":
                return k.STACKING, b""
            case "vend_valid":
                return k.VEND_VALID, b""
            case "stacked":
                return k.STACKED, b""
            case "returning":
                return k.RETURNING, b""
        return k.REJECTING, bytes([self._reject])

    def _request(self, frame: Frame, now: int) -> Frame | None:
        cmd = frame.cmd
        if cmd == k.STATUS_REQUEST:
            status, data = self._status()
            return Frame(status, data)
        if cmd == k.ACK:
            if self.phase == "vend_valid":
                self.mem.data["path"] = None
                self.mem.save()
                self._to("stacked", now)
            return None  # the host's ACK is not answered
        if cmd == k.RESET:
            self._reset(now)
            return Frame(k.ACK)
        if self.phase == "power_up" and cmd not in k.SETTINGS | k.REQUESTS:
            return Frame(k.INVALID_COMMAND)
        if cmd in (k.STACK_1, k.STACK_2):
            if self.phase != "escrow":
                return Frame(k.INVALID_COMMAND)
            self.mem.data["path"]["stage"] = "stacking"
            self.mem.save()
            self._to("stacking", now)
            return Frame(k.ACK)
        if cmd == k.RETURN:
            if self.phase != "escrow":
                return Frame(k.INVALID_COMMAND)
            self._hand_back("returned by the host", now)
            return Frame(k.ACK)
        if cmd == k.HOLD:
            if self.phase != "escrow":
                return Frame(k.INVALID_COMMAND)
            self._since = now  # the escrow timer starts again
            return Frame(k.ACK)
        if cmd == k.WAIT:
            return Frame(k.ACK)
        if cmd in k.SETTINGS:
            return self._setting(frame)
        if cmd == k.VERSION_REQUEST:
            return Frame(cmd, VERSION.encode())
        if cmd == k.BOOT_VERSION_REQUEST:
            return Frame(cmd, b"TK-BOOT V1.00")
        if cmd == k.CURRENCY_ASSIGN_REQUEST:
            table = b"".join(bytes([c, k.COUNTRY_USD, b, e]) for c, (b, e) in ASSIGN.items())
            return Frame(cmd, table)
        return Frame(k.INVALID_COMMAND)

    def _setting(self, frame: Frame) -> Frame:
        data = frame.data
        if frame.cmd == k.SET_INHIBIT and len(data) == 1:
            self.inhibited = data[0] != 0
        elif frame.cmd == k.SET_DENOMINATIONS and len(data) == 2:
            self.denomination_mask = data[0] | data[1] << 8
        elif frame.cmd == k.SET_BAR_INHIBIT and len(data) == 1:
            self.bar_inhibit = data[0]
        return Frame(frame.cmd, data)  # a setting is echoed

    def _reset(self, now: int) -> None:
        path = self.mem.data["path"]
        self.inhibited, self.bar_inhibit, self.denomination_mask = True, 0xFF, 0
        self._to("initialize", now)
        if path is None:
            return
        if path["stage"] == "escrow":
            self._remember_handed_back(path["item"], "returned at power-up")
            self.mem.data["path"] = None
            self.mem.save()
        elif path["stage"] == "stacking":
            self._into_cashbox()
            self._to("vend_valid", now)
        else:  # "vend": counted already, the host has not acknowledged it
            self._to("vend_valid", now)

    def _insert(self, item: dict[str, Any], now: int) -> str:
        if self.phase != "idle" or self.inhibited or self._faulted() or self.silent:
            return f"ok not taken: the acceptor is not accepting ({self.phase})"
        reason = self._refusal(item)
        if reason:
            self._reject = reason
            self._remember_handed_back(item, k.reject_reason(reason)[0])
            self.mem.save()
            self._to("rejecting", now)
            return f"ok rejected 0x{reason:02X} {k.reject_reason(reason)[0]}"
        self.mem.data["path"] = {"item": item, "stage": "escrow"}
        self.mem.save()
        self._to("accepting", now)
        return "ok accepting"

    def _refusal(self, item: dict[str, Any]) -> int:
        if self._reject_next:
            reason, self._reject_next = self._reject_next, 0
            return reason
        if "ticket" in item:
            number = item["ticket"]
            if len(number) != k.TICKET_DIGITS or not number.isdigit():
                return 0x7F
            return 0x79 if self.bar_inhibit & 0x02 else 0
        code = NOTE_CODES.get(item["note"])
        if code is None:
            return 0x76
        if self.bar_inhibit & 0x01 or self.denomination_mask & (1 << (code - 0x61)):
            return 0x79
        return 0

    def _into_cashbox(self) -> None:
        path = self.mem.data["path"]
        item = path["item"]
        box, life = self.mem.data["cashbox"], self.mem.data["lifetime"]
        if "ticket" in item:
            box["tickets"] += 1
            life["tickets"] += 1
        else:
            key = str(item["note"])
            box["notes"][key] = box["notes"].get(key, 0) + 1
            life["notes"] = [life["notes"][0] + 1, life["notes"][1] + item["note"]]
        self.mem.data["stacked"] = [*self.mem.data["stacked"][-49:], item]
        path["stage"] = "vend"
        self.mem.save()

    def _hand_back(self, why: str, now: int) -> None:
        self._remember_handed_back(self.mem.data["path"]["item"], why)
        self.mem.data["path"] = None
        self.mem.save()
        self._to("returning", now)

    def _remember_handed_back(self, item: dict[str, Any], why: str) -> None:
        self.mem.data["handed_back"] = [*self.mem.data["handed_back"][-49:], {**item, "why": why}]

    def _fault(self, name: str, on: bool) -> str:
        faults: list[str] = self.mem.data["faults"]
        if on and name not in faults:
            faults.append(name)
            if name == "cashbox-removed":  # taken away to be counted: it comes back empty
                self.mem.data["cashbox"] = {"notes": {}, "tickets": 0}
                self.mem.data["removals"] += 1
        elif not on and name in faults:
            faults.remove(name)
        self.mem.save()
        return "ok"
