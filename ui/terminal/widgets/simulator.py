"""The SIMULATOR panel: device simulations for a kiosk without hardware (toggled with F2)."""

from __future__ import annotations

from typing import Protocol

from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

#: Notes the panel can insert, in cents.
NOTES = (100, 500, 2_000, 10_000)


class DeviceSimulator(Protocol):
    """What the panel works (:class:`kiosk.terminal.app.simulator.DeviceSimulator` in the kiosk):
    each
    action answers one line for the panel's log."""

    def door_open(self) -> bool: ...

    def paper_in(self) -> bool: ...

    def host_enabled(self) -> bool: ...

    def insert_note(self, value: int) -> str: ...

    def toggle_door(self) -> str: ...

    def toggle_paper(self) -> str: ...

    def toggle_host(self) -> str: ...

    def attendant_key(self) -> str: ...


class SimulatorPanel(BoxLayout):
    """Notes into the bill validator, the door, the paper, the host, the attendant's key."""

    simulator = ObjectProperty(None, allownone=True)
    door_open = BooleanProperty(False)
    paper_in = BooleanProperty(True)
    host_on = BooleanProperty(True)
    log = StringProperty("")
    notes = NOTES

    def sync(self) -> None:
        """Follow the devices' state (the buttons show what a touch would do)."""
        sim: DeviceSimulator | None = self.simulator
        if sim is None:
            return
        self.door_open = sim.door_open()
        self.paper_in = sim.paper_in()
        self.host_on = sim.host_enabled()

    def act(self, action: str, value: int = 0) -> None:
        """Run one simulated device action."""
        sim: DeviceSimulator | None = self.simulator
        if sim is None:
            return
        if action == "note":
            self.log = sim.insert_note(value)
        elif action == "door":
            self.log = sim.toggle_door()
        elif action == "paper":
            self.log = sim.toggle_paper()
        elif action == "host":
            self.log = sim.toggle_host()
        elif action == "attendant":
            self.log = sim.attendant_key()
        self.sync()
