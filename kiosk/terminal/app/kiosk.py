"""The kiosk's composition: terminal, duties, player session, simulator panel, Kivy app.

Call :func:`ui.terminal.env.prepare` before :func:`build_app` (Kivy reads its settings on import).
"""

from __future__ import annotations

import importlib
import json
import sqlite3
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, cast

from kiosk.kernel.games.progressive import ProgressiveSettings
from kiosk.terminal.app.duties import TerminalDuties
from kiosk.terminal.app.serial_wiring import SerialPorts
from kiosk.terminal.app.simulator import DeviceSimulator, SimulatedDevices
from kiosk.terminal.app.wiring import Terminal
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.hostlink.anchor import ANCHOR_WAIT_REASON
from kiosk.terminal.hostlink.wiring import HostEndpoint
from kiosk.terminal.presentation.session import PlayerSession
from kiosk.terminal.sas.link import SasSettings
from kiosk.terminal.seat.runtime import TableSeating
from kiosk.terminal.seat.status import Connection

#: the demo kiosk's embedded accounting host belongs to the host deployable: it is looked up by
#: name when ``turbokiosk run`` wants it, so no module of the terminal imports the host
#: (decision 0044); a terminal installed without the host runs with ``--no-host`` or ``--host``
EMBEDDED_HOST_MODULE = "kiosk.host.embedded"


class EmbeddedHostError(RuntimeError):
    """This installation has no embedded host (the host deployable is not installed)."""


class EmbeddedHost(Protocol):
    """What the kiosk needs of a running embedded host."""

    @property
    def endpoint(self) -> HostEndpoint: ...

    def stop(self) -> None: ...


def start_embedded_host(data_dir: Path) -> EmbeddedHost:
    """Start the embedded host for the terminal of ``data_dir``; :class:`EmbeddedHostError` if
    this installation has none."""
    try:
        module = importlib.import_module(EMBEDDED_HOST_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name is None or not EMBEDDED_HOST_MODULE.startswith(exc.name):
            raise
        raise EmbeddedHostError(
            "this installation has no embedded accounting host (the host is not installed):"
            " run with --no-host, or --host ADDR for the casino's host"
        ) from None
    return cast(
        EmbeddedHost, module.start_embedded_host(data_dir, configured_terminal_id(data_dir))
    )


#: Where a running kiosk says how to reach its simulator programs (ports, control channels).
PERIPHERALS_FILE = "peripherals.json"

Devices = Literal["serial", "inprocess"]
#: ``run``'s exit status when the terminal is locked up (the command line's, decision 0011)
EXIT_LOCKED = 3


def build_app(
    terminal: Terminal,
    *,
    devices: SimulatedDevices | None = None,
    language: str = "en",
    show_simulator: bool = True,
    speed: float = 1.0,
    on_ready: Any = None,
    service_menu: bool = False,
    clock: Callable[[], int] | None = None,
    with_simulator: bool = True,
    table_status: Callable[[], Any] | None = None,
) -> Any:
    """A :class:`ui.terminal.app.KioskApp` on a powered-up ``terminal``; with ``service_menu`` the
    service key (F3) opens the service menu (:mod:`ui.terminal.service`).  ``devices`` is what the
    SIMULATOR panel works (default: the terminal's in-process devices); ``clock`` is the
    player's session clock (epoch ms; the wall clock by default).  ``with_simulator=False``
    (real devices) builds no SIMULATOR panel at all, so no key can bring one up.  A terminal
    seated at a table (``terminal.seat``) shows the table in its top bar (decision 0023);
    ``table_status`` alone feeds that bar (the screenshots' scripted table)."""
    from ui.terminal.app import KioskApp

    session = PlayerSession(
        terminal.runtime, language=language, **({"clock": clock} if clock is not None else {})
    )
    session.seat = terminal.seat
    if terminal.seat is not None:
        from kiosk.terminal.app.seated import status_reader

        table_status = status_reader(terminal.seat)
    extensions = []
    if service_menu:

        def install_service(app: Any) -> None:
            from ui.terminal.service import install

            app.service_layer = install(app, terminal)

        extensions.append(install_service)
    return KioskApp(
        session,
        TerminalDuties(terminal),
        simulator=DeviceSimulator(terminal, devices) if with_simulator else None,
        show_simulator=show_simulator,
        speed=speed,
        on_ready=on_ready,
        extensions=extensions,
        table_status=table_status,
    )


@dataclass(frozen=True)
class _Screen:
    """How the app shows itself (the arguments of :func:`start_kiosk` past the wiring)."""

    language: str
    show_simulator: bool
    dump_path: Path | None
    exit_after_dump: bool
    started: float | None
    table: TableSeating | None = None  # run --table: seated after the power-up
    table_edition: str | None = None  # run --table --edition: the table's game, selected
    progressive: ProgressiveSettings | None = None  # run --progressive: the terminal's own meter


def start_kiosk(
    data_dir: Path,
    *,
    language: str = "en",
    show_simulator: bool = True,
    with_host: bool = True,
    devices: Devices = "serial",
    dump_path: Path | None = None,
    exit_after_dump: bool = False,
    started: float | None = None,
    hardware: SerialPorts | None = None,
    remote_host: HostEndpoint | None = None,
    sas: SasSettings | None = None,
    table: TableSeating | None = None,
    table_edition: str | None = None,
    progressive: ProgressiveSettings | None = None,
) -> int:
    """Power the terminal up on ``data_dir`` and run the kiosk until its window closes.

    By default the reference accounting host runs inside this process
    (:mod:`kiosk.host.embedded`, when the host is installed) and the terminal reports to it,
    and the bill validator and printer simulators run as their own programs on pseudo-terminals
    (:mod:`kiosk.terminal.app.peripherals`), reached over the serial protobuf links; while the kiosk
    runs, ``<data_dir>/peripherals.json`` gives their ports and control addresses.
    ``devices="inprocess"`` keeps in-process devices instead.  Stops in order: host link,
    terminal, simulators, host.

    On a field terminal ``hardware`` names the real devices' serial ports (no simulator is
    started and the SIMULATOR panel is never offered) and ``remote_host`` the casino's
    accounting host (no embedded host).  ``sas`` makes the terminal a SAS gaming machine
    on that port as well (docs/sas.md).  ``table`` seats the terminal at a table controller
    (kiosk.terminal.seat): its rounds are the table's.  ``progressive`` runs a standalone
    progressive on the terminal's own games (:mod:`kiosk.terminal.app.progressive_wiring`).
    """
    from kiosk.terminal.app.wiring import take_lock
    from kiosk.terminal.store.journal import StoreError

    data_dir = Path(data_dir)
    screen = _Screen(
        language,
        show_simulator,
        dump_path,
        exit_after_dump,
        started,
        table,
        table_edition,
        progressive,
    )
    try:
        take_lock(data_dir).release()  # busy: fail before touching its simulators
    except StoreError as exc:  # no usable data directory: the lockup, from no store at all
        reason = f"non-volatile memory unavailable: {exc}"
        say_locked(reason)
        _run_store_lockup(reason, False, screen)
        return EXIT_LOCKED
    host = None
    if with_host and remote_host is None:
        host = start_embedded_host(data_dir)
    try:
        endpoint = host.endpoint if host is not None else remote_host
        if hardware is not None:
            return _run_hardware(data_dir, hardware, endpoint, screen, sas)
        if devices == "serial":
            return _run_serial(data_dir, endpoint, screen, sas)
        from kiosk.terminal.app.wiring import build_terminal

        terminal = build_terminal(data_dir, host=endpoint, sas=sas)
        try:
            return _run(terminal, None, screen)
        finally:
            terminal.close()  # stops the host link first
    finally:
        if host is not None:
            host.stop()


def configured_terminal_id(data_dir: Path) -> str:
    """The terminal id the terminal of ``data_dir`` is configured with (the default for a new
    terminal, or one whose store cannot be read: power-up will say why)."""
    from kiosk.terminal.store.journal import DB_NAME, StoreError
    from kiosk.terminal.store.reader import current_state, open_readonly

    if (Path(data_dir) / DB_NAME).exists():
        try:
            with open_readonly(data_dir) as journal:
                return current_state(journal).state.config.terminal_id
        except (StoreError, ValueError, KeyError, sqlite3.Error, OSError):
            pass
    return TerminalConfig().terminal_id


def _run_serial(
    data_dir: Path, endpoint: HostEndpoint | None, screen: _Screen, sas: SasSettings | None
) -> int:
    """The terminal on the simulator programs' serial links."""
    from kiosk.terminal.app.peripherals import start_simulated_peripherals
    from kiosk.terminal.app.serial_wiring import SerialSetup
    from kiosk.terminal.app.simulator import SimulatorPrograms
    from kiosk.terminal.app.wiring import build_terminal

    status = data_dir / PERIPHERALS_FILE
    with start_simulated_peripherals(data_dir) as peripherals:  # stopped on the way out
        terminal = build_terminal(
            data_dir, devices=SerialSetup(peripherals.ports), host=endpoint, sas=sas
        )
        try:
            ports = peripherals.ports
            info = {
                "ports": {"bill-validator": ports.bill_validator, "printer": ports.printer},
                "controls": peripherals.controls,
            }
            status.write_text(json.dumps(info, indent=1), encoding="utf-8")
            return _run(terminal, SimulatorPrograms(peripherals, terminal.serial.printer), screen)
        finally:
            status.unlink(missing_ok=True)
            terminal.close()


def _run_hardware(
    data_dir: Path,
    ports: SerialPorts,
    endpoint: HostEndpoint | None,
    screen: _Screen,
    sas: SasSettings | None,
) -> int:
    """The terminal on real devices: no simulator, no SIMULATOR panel."""
    from kiosk.terminal.app.serial_wiring import SerialSetup
    from kiosk.terminal.app.wiring import build_terminal

    terminal = build_terminal(data_dir, devices=SerialSetup(ports), host=endpoint, sas=sas)
    try:
        return _run(terminal, None, screen, simulator_allowed=False)
    finally:
        terminal.close()


def _run(
    terminal: Terminal,
    devices: SimulatedDevices | None,
    screen: _Screen,
    *,
    simulator_allowed: bool = True,
) -> int:
    """Power up, start the host link, run the app until its window closes; the exit status
    (:data:`EXIT_LOCKED` when the terminal is locked up as it closes).

    A store that cannot be opened or read at power-up gets the store lockup app instead
    (:mod:`ui.terminal.store_lockup`): the screen shows why, and nothing reads the store again.  Any
    lockup at power-up is also one line on standard error at once (:func:`say_locked`): the
    screen keeps showing it (and the service menu's RAM clear) until the window closes.
    """
    report = terminal.runtime.power_up()
    if report.critical is not None:
        say_locked(report.critical)
    if report.store_failed is not None:
        state = terminal.runtime.state
        full = state.storage_full is not None and state.critical is None
        _run_store_lockup(state.storage_full or state.critical or report.store_failed, full, screen)
        return EXIT_LOCKED
    if screen.progressive is not None:  # after the power-up: its games booked, then each
        from kiosk.terminal.app.progressive_wiring import attach_progressive

        config = terminal.runtime.state.config
        controller = attach_progressive(
            terminal,
            screen.progressive,
            terminal_id=config.terminal_id or "TK-0001",
            handpay_limit=config.handpay_limit,
        )
        if terminal.host_link is not None:  # its meter on the floor dashboard
            from kiosk.terminal.hostlink.progressive_report import standalone_readings

            terminal.host_link.progressive_readings = standalone_readings(
                controller, config.terminal_id or "TK-0001"
            )
    if terminal.host_link is not None:
        terminal.host_link.start()
    if terminal.sas_link is not None:
        from kiosk.terminal.sas.transport import PortError

        try:
            terminal.sas_link.start()
        except PortError as exc:  # the service menu's SAS page shows it too
            print(f"turbokiosk run: {exc}; the SAS link is down", file=sys.stderr)
    if screen.table is not None:
        if screen.table_edition is not None:  # a SeatingError is the command line's to say
            from kiosk.terminal.app.seated import select_table_game

            select_table_game(terminal.runtime, screen.table_edition)
        terminal.seat = screen.table.seat_on(terminal.runtime)
        if terminal.host_link is not None:  # the table's meter on the floor dashboard
            from kiosk.terminal.hostlink.progressive_report import seat_readings

            terminal.host_link.progressive_readings = seat_readings(terminal.seat.status)
        if terminal.sas_link is not None and terminal.sas_link.machine.progressives is None:
            from kiosk.terminal.runtime.progressive_pay import PaidWins
            from kiosk.terminal.sas.progressive import ProgressiveLink

            # the table's progressive hits as this seat's journal paid them (decision 0066)
            terminal.sas_link.machine.progressives = ProgressiveLink(PaidWins(terminal.runtime))

    def ready(app: Any) -> None:
        if screen.dump_path is not None:
            _dump_when_settled(
                app, terminal, screen.dump_path, screen.exit_after_dump, screen.started
            )

    app = build_app(
        terminal,
        devices=devices,
        language=screen.language,
        show_simulator=screen.show_simulator and simulator_allowed,
        on_ready=ready,
        service_menu=True,
        with_simulator=simulator_allowed,
    )
    app.run()
    state = terminal.runtime.state
    return EXIT_LOCKED if state.critical is not None or state.storage_full is not None else 0


def say_locked(reason: str) -> None:
    """The one line ``run`` writes on standard error when its terminal locks up at power-up."""
    text = " ".join(reason.split())
    print(
        f"turbokiosk run: terminal locked: {text} (the screen shows it until the window closes;"
        " exit status 3)",
        file=sys.stderr,
        flush=True,
    )


def _run_store_lockup(reason: str, storage_full: bool, screen: _Screen) -> None:
    """The lockup alone, drawn from its reason (no store, no devices, no touch)."""
    from kiosk.terminal.presentation.overlays import store_lockup_view
    from ui.terminal.store_lockup import StoreLockupApp

    def ready(app: Any) -> None:
        if screen.dump_path is not None:
            from ui.terminal import capture

            path = screen.dump_path
            path.parent.mkdir(parents=True, exist_ok=True)
            capture.save_png(path.with_suffix(".png"))
            path.write_text(json.dumps(app.dump(), indent=1, sort_keys=True), encoding="utf-8")
            if screen.exit_after_dump:
                app.stop()

    view = store_lockup_view(reason, screen.language, storage_full=storage_full)
    StoreLockupApp(view, on_ready=ready).run()


#: How long a dump waits for the device and host links to come up before it shows the screen
#: as it is (a terminal whose links stay down shows their tilt by then).
LINK_WAIT_SECONDS = 20.0


def link_status(terminal: Terminal) -> dict[str, bool | None]:
    """Whether each link is up: the device links (in-process devices always are), the
    host link (None without a host) and, seated at a table, the seat's link to its controller."""
    host = terminal.host_link
    links: dict[str, bool | None] = {
        "bill_validator": bool(getattr(terminal.validator, "link_up", True)),
        "printer": bool(getattr(terminal.printer, "link_up", True)),
        "host": host.connected if host is not None else None,
    }
    if terminal.seat is not None:
        links["table"] = terminal.seat.status().connection is Connection.SEATED
    return links


def _down_links_have_said_why(terminal: Terminal) -> bool:
    """Whether every link still down is a device link whose "not connected" tilt is raised (a
    missing port: waiting longer shows nothing new); a host link still connecting never is."""
    host = terminal.host_link
    if host is not None and not host.connected:
        return False
    down = [d for d in (terminal.validator, terminal.printer) if not getattr(d, "link_up", True)]
    tilts = terminal.runtime.state.tilts
    return bool(down) and all(str(getattr(d, "link_tilt", "")) in tilts for d in down)


def _dump_when_settled(
    app: Any, terminal: Terminal, path: Path, stop: bool, started: float | None
) -> None:
    """Dump the screen once no cards are in flight and every link is up (or
    :data:`LINK_WAIT_SECONDS` have passed).

    Once only: drawing the dump's frame runs the event loop from inside this clock callback,
    and when a frame takes longer than the polling interval (software GL on a slow board, or
    under emulation) the clock calls the callback again, nested.  That nested call used to dump
    and stop the app, and the outer one then drew the emptied window over its PNG: a blank
    screen dump."""
    from kivy.clock import Clock

    from ui.terminal import capture

    waited = 0.0
    dumping = False
    # when the host link's anchor wait was last seen (waited s): a terminal with a host link
    # starts under it (the app opens on the menu behind the lockup)
    anchor_waited_until = 0.0 if terminal.host_link is not None else -1.0

    def attempt(dt: float) -> bool:
        nonlocal waited, dumping, anchor_waited_until
        if dumping:
            return False  # the clock re-entered while the dump draws its frame
        waited += dt
        links = link_status(terminal)
        if terminal.runtime.state.disabled == ANCHOR_WAIT_REASON:
            anchor_waited_until = waited
        # the screen leaves the lockup at its next refresh (at least once a second)
        settling = 0 <= anchor_waited_until > waited - 2.0
        linking = (
            (settling or any(up is False for up in links.values()))
            and waited < LINK_WAIT_SECONDS
            and not _down_links_have_said_why(terminal)  # on the lockup: show it now
        )
        if app.dealing or linking:
            return True  # keep polling
        dumping = True
        extra: dict[str, Any] = {"links": links}
        if started is not None and app.first_frame_at is not None:
            extra["ready_seconds"] = app.first_frame_at - started
        capture.write_dump(app, path, extra)
        if stop:
            app.stop()
        return False

    Clock.schedule_interval(attempt, 0.1)
