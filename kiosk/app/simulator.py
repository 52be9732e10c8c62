"""The simulated peripherals' controls (developer panel): what a bill, a door switch, the paper
roll, the accounting host or an attendant's key would do to a terminal with in-process devices.

These are device simulations, never player controls; ``turbokiosk run`` shows them in a panel
labelled SIMULATOR.
"""

from __future__ import annotations

from kiosk.app.wiring import Terminal
from kiosk.terminal import commands as c
from kiosk.terminal.commands import CommandError

#: Notes the panel can insert, in cents.
NOTES = (100, 500, 2_000, 10_000)
MAIN_DOOR = "main"


class DeviceSimulator:
    """Buttons of the SIMULATOR panel; each returns a short log line."""

    def __init__(self, terminal: Terminal) -> None:
        self.terminal = terminal

    def insert_note(self, value: int) -> str:
        """A note is fed into the bill validator (it may refuse it)."""
        accepted = self.terminal.validator.insert(value)
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
        return self.terminal.printer.paper

    def toggle_paper(self) -> str:
        """Take the paper roll out, or put it back."""
        printer = self.terminal.printer
        printer.paper = not printer.paper
        return "paper in" if printer.paper else "paper out"

    def host_enabled(self) -> bool:
        """Whether the (simulated) host lets the terminal play."""
        return self.terminal.runtime.state.disabled is None

    def toggle_host(self) -> str:
        """The accounting host disables play (at the end of the game) or enables it."""
        enable = not self.host_enabled()
        self.terminal.runtime.execute(
            c.SetEnabled(enabled=enable, reason="" if enable else "disabled by the host")
        )
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
                if tilt.get("needs_attendant"):
                    rt.execute(c.ClearTilt(code=code, by="attendant"))
                    done.append(f"tilt {code} cleared")
        except CommandError as exc:
            return f"attendant: {exc}"
        return "attendant: " + (", ".join(done) or "nothing to do")
