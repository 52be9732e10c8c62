"""What ``turbokiosk run`` says on its console when it starts: one line for the newcomer (the
window, where the data is, the keys, how to stop) and a line for each configured serial port
that is not there."""

from __future__ import annotations

import sys
from pathlib import Path

from kiosk.terminal.app.serial_wiring import SerialPorts
from kiosk.terminal.devices.serial_port import port_problem


def open_and_announce(
    where: str,
    player: tuple[int, int],
    data_dir: Path,
    hardware: SerialPorts | None,
    *,
    simulator: bool,
) -> tuple[int, int]:
    """Open the window (prepared by :func:`ui.terminal.env.prepare`), then say so: the start-up line
    on standard output, a line on standard error for each serial port that cannot be used.
    :class:`ui.terminal.display.DisplayError` when the window cannot be opened."""
    from ui.terminal.display import open_window

    window = open_window(where)
    field = hardware is not None
    print(
        startup_line(window, player, where, data_dir, simulator=simulator, field=field), flush=True
    )
    for warning in missing_port_lines(hardware) if hardware is not None else ():
        print(warning, file=sys.stderr, flush=True)
    return window


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
        f"turbokiosk run: {size} on {where}; data in {data_dir.absolute()}; {keys}; "
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
