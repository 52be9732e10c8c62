"""A simulator's script: timed player actions and faults, e.g. ``"500 note 2000; 1500 jam"``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from kiosk.terminal.bridge.cashbox import CashboxRecord


class ScriptError(ValueError):
    """A script that cannot be read (the message is one line for the command line)."""


class SimDevice(Protocol):
    """What both simulated devices offer the runner."""

    cashbox: CashboxRecord

    def receive(self, data: bytes, now_ms: int) -> None: ...
    def transmit(self, now_ms: int) -> bytes: ...
    def insert_note(self, cents: int) -> None: ...
    def insert_ticket(self, barcode: str) -> None: ...
    def jam(self) -> None: ...
    def clear_jam(self, *, into_cashbox: bool = False) -> None: ...
    def set_stacker_full(self, full: bool) -> None: ...
    def remove_cashbox(self) -> None: ...
    def replace_cashbox(self, *, emptied: bool = True) -> None: ...
    def cheat(self) -> None: ...
    def power_cycle(self) -> None: ...
    def garble_next_reply(self) -> None: ...


#: action -> whether it takes an argument
ACTIONS: dict[str, bool] = {
    "note": True,  # cents
    "ticket": True,  # barcode digits
    "reject": True,  # eSSP: last-reject code (0x.. or decimal); EBDS: a reason word
    "jam": False,
    "clear-jam": False,
    "clear-jam-box": False,
    "full": False,
    "not-full": False,
    "remove-box": False,
    "replace-box": False,
    "cheat": False,
    "noise": False,
    "power-cycle": False,
}


@dataclass(frozen=True)
class ScriptStep:
    """``action`` (with ``arg``) at ``at_ms`` after the simulator starts."""

    at_ms: int
    action: str
    arg: str = ""


def parse_script(text: str) -> tuple[ScriptStep, ...]:
    """Steps from ``"MS ACTION [ARG]; ..."``; :class:`ScriptError` on anything else."""
    steps: list[ScriptStep] = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        words = part.split()
        if len(words) < 2 or not words[0].isdigit():
            raise ScriptError(f"script step {part!r}: expected 'MS ACTION [ARG]'")
        action = words[1]
        if action not in ACTIONS:
            raise ScriptError(f"script step {part!r}: unknown action {action!r}")
        if len(words) != (3 if ACTIONS[action] else 2):
            raise ScriptError(f"script step {part!r}: wrong number of arguments")
        if action == "note" and not words[2].isdigit():
            raise ScriptError(f"script step {part!r}: a note is a value in cents")
        steps.append(ScriptStep(int(words[0]), action, words[2] if ACTIONS[action] else ""))
    return tuple(sorted(steps, key=lambda s: s.at_ms))


def apply_step(device: SimDevice, step: ScriptStep, reject: Callable[[str], None]) -> None:
    """Do ``step`` on ``device``; ``reject`` is the device's insert_rejected."""
    action, arg = step.action, step.arg
    if action == "note":
        device.insert_note(int(arg))
    elif action == "ticket":
        device.insert_ticket(arg)
    elif action == "reject":
        reject(arg)
    elif action in ("jam", "cheat"):
        getattr(device, action)()
    elif action in ("clear-jam", "clear-jam-box"):
        device.clear_jam(into_cashbox=action == "clear-jam-box")
    elif action in ("full", "not-full"):
        device.set_stacker_full(action == "full")
    elif action == "remove-box":
        device.remove_cashbox()
    elif action == "replace-box":
        device.replace_cashbox()
    elif action == "noise":
        device.garble_next_reply()
    elif action == "power-cycle":
        device.power_cycle()
