"""What ``turbokiosk run`` says on its console when it starts: one line for the newcomer (the
window, where the data is, the keys, how to stop) and a line for each configured serial port
that is not there."""

from __future__ import annotations

from pathlib import Path

from kiosk.app.serial_wiring import SerialPorts
from kiosk.devices.serial_port import port_problem


def startup_line(
    window: tuple[int, int],
    player: tuple[int, int],
    where: str,
    data_dir: Path,
    *,
    simulator: bool,
    field: bool,
) -> str:
    """``turbokiosk run: window 950x480 on X11 display :0 ...``: one line, everything a
    newcomer asks first."""
    size = f"window {window[0]}x{window[1]}"
    if simulator:
        size += f" (the player's screen {player[0]}x{player[1]} and the SIMULATOR panel)"
    keys = "F3 service key" if field else "F2 SIMULATOR panel, F3 service key"
    return (
        f"turbokiosk run: {size} on {where}; data in {data_dir}; {keys}; "
        "Ctrl-C here or close the window to stop"
    )


def missing_port_lines(ports: SerialPorts) -> list[str]:
    """A console line for each device whose port cannot be used: the kiosk starts locked up
    (the lockup names the port too) and the device link keeps looking for it."""
    lines = []
    for device, path in (("bill validator", ports.bill_validator), ("printer", ports.printer)):
        problem = port_problem(path)
        if problem is not None:
            lines.append(
                f"turbokiosk run: {device} port: {problem}; the terminal stays locked up "
                "(out of order) until the device answers there"
            )
    return lines
