"""The kiosk's composition: terminal, duties, player session, simulator panel, Kivy app.

Call :func:`ui.env.prepare` before :func:`build_app` (Kivy reads its settings on import).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk.app.duties import TerminalDuties
from kiosk.app.simulator import DeviceSimulator
from kiosk.app.wiring import Terminal, build_terminal
from kiosk.presentation.session import PlayerSession


def build_app(
    terminal: Terminal,
    *,
    language: str = "en",
    show_simulator: bool = True,
    speed: float = 1.0,
    on_ready: Any = None,
) -> Any:
    """A :class:`ui.app.KioskApp` on a powered-up ``terminal``."""
    from ui.app import KioskApp

    session = PlayerSession(terminal.runtime, language=language)
    return KioskApp(
        session,
        TerminalDuties(terminal),
        simulator=DeviceSimulator(terminal),
        show_simulator=show_simulator,
        speed=speed,
        on_ready=on_ready,
    )


def start_kiosk(
    data_dir: Path,
    *,
    language: str = "en",
    show_simulator: bool = True,
    dump_path: Path | None = None,
    exit_after_dump: bool = False,
    started: float | None = None,
) -> int:
    """Power the terminal up on ``data_dir`` and run the kiosk until its window closes."""
    terminal = build_terminal(data_dir)
    terminal.runtime.power_up()

    def ready(app: Any) -> None:
        if dump_path is not None:
            _dump_when_settled(app, dump_path, exit_after_dump, started)

    app = build_app(terminal, language=language, show_simulator=show_simulator, on_ready=ready)
    try:
        app.run()
    finally:
        terminal.runtime.close()
    return 0


def _dump_when_settled(app: Any, path: Path, stop: bool, started: float | None) -> None:
    from kivy.clock import Clock

    from ui import capture

    def attempt(_dt: float) -> bool:
        if app.dealing:
            return True  # keep polling
        extra = {}
        if started is not None and app.first_frame_at is not None:
            extra["ready_seconds"] = app.first_frame_at - started
        capture.write_dump(app, path, extra)
        if stop:
            app.stop()
        return False

    Clock.schedule_interval(attempt, 0.1)
