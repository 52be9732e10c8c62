"""The simulated peripherals' controls (developer panel): what a bill, a door switch, the paper
roll, the accounting host or an attendant's key would do to a terminal.

The bill validator and the printer are reached through a :class:`SimulatedDevices` backend:
:class:`InProcessDevices` for a terminal with in-process devices, :class:`SimulatorPrograms`
for the simulator programs on pseudo-terminals (their control channels, docs/devices.md).
These are device simulations, never player controls; ``turbokiosk run`` shows them in a panel
labelled SIMULATOR.
"""

from __future__ import annotations

from typing import Protocol

from kiosk.terminal.app.peripherals import SimulatedPeripherals
from kiosk.terminal.app.wiring import InProcessDeviceSet, Terminal
from kiosk.terminal.core import commands as c
from kiosk.terminal.core.commands import CommandError
from kiosk.terminal.core.tilts import DISPUTE_TILTS
from kiosk.terminal.devices.printer_driver import PrinterDriver

MAIN_DOOR = "main"


class SimulatorControlError(RuntimeError):
    """A simulator program answered a control command with an error."""


class SimulatedDevices(Protocol):
    """The simulated bill validator and printer, as the panel works them."""

    def insert_note(self, value: int) -> bool:
        """Feed a note of ``value`` cents; False when the validator refused it."""

    def paper_in(self) -> bool:
        """Whether the printer has paper."""

    def set_paper(self, present: bool) -> None:
        """Put the paper roll in or take it out."""


class InProcessDevices:
    """The in-process devices of :func:`kiosk.terminal.app.wiring.build_terminal`."""

    def __init__(self, terminal: Terminal) -> None:
        self.terminal = terminal

    def insert_note(self, value: int) -> bool:
        """The in-process validator takes the note at once (or refuses it)."""
        return self.terminal.simulated.validator.insert(value)

    def paper_in(self) -> bool:
        """The in-process printer's paper flag."""
        return self.terminal.simulated.printer.paper

    def set_paper(self, present: bool) -> None:
        """Set the in-process printer's paper flag."""
        self.terminal.simulated.printer.paper = present


class SimulatorPrograms:
    """The simulator programs, through their control channels; the printer's paper state is
    what its driver last heard from it (no round trip per frame)."""

    def __init__(self, peripherals: SimulatedPeripherals, printer: PrinterDriver) -> None:
        self.peripherals = peripherals
        self.printer = printer

    def insert_note(self, value: int) -> bool:
        """``insert CENTS``: the note is at the bezel; the driver escrows and stacks it."""
        reply = self.peripherals.control("bill-validator", f"insert {value}")
        if not reply.startswith("ok"):
            raise SimulatorControlError(f"insert {value}: {reply}")
        return reply.startswith(("ok escrow", "ok accepting"))  # accepting: an ID-003 acceptor

    def paper_in(self) -> bool:
        """No ``paper_out`` in the printer's last status."""
        status = self.printer.status
        return status is None or not status.paper_out

    def set_paper(self, present: bool) -> None:
        """``fix paper-out`` or ``fault paper-out``."""
        command = f"{'fix' if present else 'fault'} paper-out"
        reply = self.peripherals.control("printer", command)
        if not reply.startswith("ok"):
            raise SimulatorControlError(f"{command}: {reply}")


class DeviceSimulator:
    """Buttons of the SIMULATOR panel; each returns a short log line."""

    def __init__(self, terminal: Terminal, devices: SimulatedDevices | None = None) -> None:
        self.terminal = terminal
        if devices is None:
            if not isinstance(terminal.devices, InProcessDeviceSet):
                raise TypeError("a terminal with serial devices needs its SimulatorPrograms")
            devices = InProcessDevices(terminal)
        self.devices = devices

    def insert_note(self, value: int) -> str:
        """A note is fed into the bill validator (it may refuse it)."""
        try:
            accepted = self.devices.insert_note(value)
        except (SimulatorControlError, OSError) as exc:
            return f"note {value // 100}: {exc}"
        self.terminal.runtime.pump()
        return f"note {value // 100} inserted" if accepted else f"note {value // 100} refused"

    def door_open(self) -> bool:
        """Whether the main door is open."""
        return MAIN_DOOR in self.terminal.runtime.state.doors_open

    def toggle_door(self) -> str:
        """Open or close the main door."""
        opening = not self.door_open()
        self.terminal.runtime.execute(c.SetDoor(door=MAIN_DOOR, open=opening))
        return "door opened" if opening else "door closed"

    def paper_in(self) -> bool:
        """Whether the printer has paper."""
        return self.devices.paper_in()

    def toggle_paper(self) -> str:
        """Take the paper roll out, or put it back."""
        present = not self.devices.paper_in()
        try:
            self.devices.set_paper(present)
        except (SimulatorControlError, OSError) as exc:
            return f"paper: {exc}"
        return "paper in" if present else "paper out"

    def host_enabled(self) -> bool:
        """Whether the (simulated) host lets the terminal play."""
        return self.terminal.runtime.state.disabled is None

    def toggle_host(self) -> str:
        """The accounting host disables play (at the end of the game) or enables it."""
        enable = not self.host_enabled()
        try:
            self.terminal.runtime.execute(
                c.SetEnabled(enabled=enable, reason="" if enable else "disabled by the host")
            )
        except CommandError as exc:  # the host link's anchor wait is the link's to end
            return f"host: {exc}"
        return "host enabled play" if enable else "host disabled play"

    def attendant_key(self) -> str:
        """An attendant pays the handpay by hand and clears the tilts that need a key."""
        rt = self.terminal.runtime
        done = []
        try:
            if rt.state.handpay is not None:
                rt.execute(c.AttendantReset(by="attendant"))
                done.append("handpay paid")
            for code, tilt in list(rt.state.tilts.items()):
                if code in DISPUTE_TILTS:  # no key ends a device records dispute
                    done.append(f"tilt {code} needs the host's confirmation")
                elif tilt.needs_attendant:
                    rt.execute(c.ClearTilt(code=code, by="attendant"))
                    done.append(f"tilt {code} cleared")
        except CommandError as exc:
            return f"attendant: {exc}"
        return "attendant: " + (", ".join(done) or "nothing to do")
