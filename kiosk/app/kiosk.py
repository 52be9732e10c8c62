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
from kiosk.terminal.config import TerminalConfig


def build_app(
    terminal: Terminal,
    *,
    language: str = "en",
    show_simulator: bool = True,
    speed: float = 1.0,
    on_ready: Any = None,
    service_menu: bool = False,
) -> Any:
    """A :class:`ui.app.KioskApp` on a powered-up ``terminal``; with ``service_menu`` the
    service key (F3) opens the service menu (:mod:`ui.service`)."""
    from ui.app import KioskApp

    session = PlayerSession(terminal.runtime, language=language)
    extensions = []
    if service_menu:

        def install_service(app: Any) -> None:
            from ui.service import install

            app.service_layer = install(app, terminal)

        extensions.append(install_service)
    return KioskApp(
        session,
        TerminalDuties(terminal),
        simulator=DeviceSimulator(terminal),
        show_simulator=show_simulator,
        speed=speed,
        on_ready=on_ready,
        extensions=extensions,
    )


def start_kiosk(
    data_dir: Path,
    *,
    language: str = "en",
    show_simulator: bool = True,
    with_host: bool = True,
    dump_path: Path | None = None,
    exit_after_dump: bool = False,
    started: float | None = None,
) -> int:
    """Power the terminal up on ``data_dir`` and run the kiosk until its window closes.

    By default the reference accounting host runs inside this process
    (:mod:`kiosk.app.embedded_host`) and the terminal reports to it.
    """
    host = None
    if with_host:
        from kiosk.app.embedded_host import start_embedded_host

        host = start_embedded_host(data_dir, TerminalConfig().terminal_id)
    terminal = build_terminal(data_dir, host=host.endpoint if host is not None else None)
    try:
        terminal.runtime.power_up()
        if terminal.host_link is not None:
            terminal.host_link.start()

        def ready(app: Any) -> None:
            if dump_path is not None:
                _dump_when_settled(app, dump_path, exit_after_dump, started)

        app = build_app(
            terminal,
            language=language,
            show_simulator=show_simulator,
            on_ready=ready,
            service_menu=True,
        )
        app.run()
    finally:
        terminal.close()
        if host is not None:
            host.stop()
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
