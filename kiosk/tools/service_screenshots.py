"""Screenshots of every service page, from a scripted visit by touches (headless).

``python -m kiosk.tools.service_screenshots OUT [--size WxH] [--language es]`` writes
``OUT/WxH/NN-name.png`` (``OUT/WxH-es/`` in Spanish) and prints the files; the visit enters each
role with its factory PIN (and changes it), and calls every function from the touchscreen.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

Shot = Callable[[str], None]


def _pin(d: Any, role: str, pin: str) -> None:
    d.tap(f"role:{role}")
    for digit in pin:
        d.tap(f"pin:{digit}")
    d.tap("pin:ok")


def _enter_first_time(d: Any, role: str, factory: str, new: str, shot: Shot, name: str) -> None:
    _pin(d, role, factory)
    shot(name)
    for _ in range(2):
        for digit in new:
            d.tap(f"pin:{digit}")
        d.tap("pin:ok")


def visit(d: Any, tour: Any, shot: Shot, language: str = "en") -> None:
    """Every service page, in a technician's order, in ``language`` from the PIN pad on."""
    from kiosk.terminal.core import commands as c

    terminal = tour.terminal
    rt = terminal.runtime
    app = d.app
    # two games for the recall (a robot at a fixed seed, no faults)
    import random

    from kiosk.terminal.robot import Robot

    robot = Robot(rt, terminal.validator, terminal.printer, random.Random(7), fault_rate=0.0)
    for _ in range(2):
        robot.play_game()
    # something for the attendant: a cancelled-credit handpay and a tilt
    assert terminal.validator.insert(2000)
    rt.pump()
    terminal.printer.fault = "jam"
    rt.cash_out()
    rt.execute(c.RaiseTilt("door_sensor", "door sensor fault", needs_attendant=True))
    terminal.printer.fault = None
    d.frames(3)

    app.dispatch("on_service_key")
    if language != "en":
        app.service_layer.use_language(language)
    d.frames(3)
    shot("01-pin-pad")
    _pin(d, "attendant", "0000")  # a wrong PIN: the gate says why
    shot("01b-wrong-pin")
    _enter_first_time(d, "attendant", "1111", "2468", shot, "02-new-pin")
    shot("03-menu-attendant")
    d.tap("service:status")
    shot("04-status")
    d.tap("action:Reset handpay")
    shot("05-handpay-reset")
    d.tap("action:Status")
    d.tap("action:Clear door_sensor")
    d.tap("action:Menu")
    d.tap("service:meters")
    shot("06-meters")
    d.tap("action:Menu")
    d.tap("service:recall")
    shot("07-recall")
    d.tap("recall:menu")
    if language == "en":
        d.tap("service:language")  # the pages in Spanish, then back
        shot("07b-menu-spanish")
        d.tap("service:meters")
        shot("07c-meters-spanish")
        d.tap("action:Menu")
        d.tap("service:language")
    app.service_layer.call("events")  # a function above the attendant's role: refused
    shot("07d-refused")
    d.tap("action:Menu")
    d.tap("service:exit")

    _enter_first_time(d, "technician", "2222", "1357", shot, "08-new-pin-technician")
    shot("09-menu-technician")
    d.tap("service:events")
    shot("10-events")
    d.tap("action:Tilts")
    shot("11-events-tilts")
    d.tap("action:Menu")
    d.tap("service:audit_log")
    shot("12-audit-log")
    d.tap("action:Menu")
    d.tap("service:bill_test")
    d.tap("action:Start test")
    terminal.validator.insert(2000)
    terminal.validator.insert(500)
    d.frames(40)
    shot("13-bill-test")
    d.tap("action:Stop test")
    d.tap("action:Menu")
    d.tap("service:voucher_test")
    shot("14-voucher-test")
    d.tap("action:Menu")
    d.tap("service:doors")
    shot("15-doors")
    d.tap("action:Menu")
    d.tap("service:devices")
    shot("16-devices")
    d.tap("action:Menu")
    d.tap("service:rng_selftest")
    shot("17-rng-selftest")
    d.tap("action:Menu")
    d.tap("service:software")
    shot("18-software")
    d.tap("action:Seeded HMAC")
    for key in "00112233445566778899aabbccddeeff":
        d.tap(f"key:{key}")
    shot("19-seed-entry")
    d.tap("entry:ok")
    shot("20-software-hmac")
    d.tap("action:Menu")
    d.tap("service:store_check")
    shot("21-store-check")
    d.tap("action:Menu")
    d.tap("service:touch_test")
    grid = _find(d, "targets")
    targets = list(reversed(grid.children))
    for target in targets[:7]:
        d.tap_widget(target)
    shot("22-touch-test")
    for target in targets[7:]:
        d.tap_widget(target)
    shot("23-touch-test-passed")
    d.tap("action:Menu")
    d.tap("service:display_test")
    from kiosk.terminal.service.functions.diagnostics import DISPLAY_PATTERNS

    for number, pattern in enumerate(DISPLAY_PATTERNS):
        shot(f"24-display-{number}-{pattern.name}")
        d.tap_at(app.root.width / 2, app.root.height / 2)
    shot("25-display-verdict")
    d.tap("display:pass")
    shot("26-display-passed")
    d.tap("action:Menu")
    d.tap("service:exit")

    _enter_first_time(d, "operator", "3333", "9753", shot, "27-new-pin-operator")
    shot("28-menu-operator")
    d.tap("service:config")
    shot("29-config")
    d.tap("action:Edit")
    shot("30-config-edit")
    d.tap_widget(_row(d, "max_wager"))
    shot("31-value-entry")
    d.tap("key:clear")
    for key in "50":
        d.tap(f"key:{key}")
    d.tap("entry:ok")
    shot("32-config-changed")
    d.tap("config:save")
    shot("33-config-saved")
    d.tap("action:Menu")
    d.tap("service:paytables")
    shot("34-paytables")
    d.tap("action:Menu")
    d.tap("service:period_reset")
    shot("35-period-reset-confirm")
    d.tap("action:Reset period meters")
    shot("36-period-reset")
    d.tap("action:Menu")
    d.tap("service:config_export")
    shot("37-config-export")
    d.tap("action:Menu")
    d.tap("service:config_import")
    shot("38-config-import")
    d.tap("action:Import")
    shot("38b-config-import-refused")
    d.tap("action:Menu")
    d.tap("service:ram_clear")
    d.app.service_layer.pages.get_screen("entry").value = "board swap"  # the keyboard's
    shot("38c-ram-clear-reason")
    d.tap("entry:ok")
    shot("38d-ram-clear-confirm")
    d.tap("action:Menu")
    d.tap("service:set_pin")
    shot("39-set-pin")
    d.tap("login:close")
    d.tap("service:exit")
    shot("40-after-exit")
    d.tap("login:close")
    d.frames(3)
    shot("41-game-resumed")


def _find(d: Any, widget_id: str) -> Any:
    layer = d.app.service_layer
    return layer.pages.current_screen.ids[widget_id]


def _row(d: Any, field: str) -> Any:
    rows = _find(d, "rows")
    return next(row for row in rows.children if row.field == field)


def take(out: Path, size: tuple[int, int] = (800, 480), language: str = "en") -> list[Path]:
    """Write the screenshots of the visit in ``language``; the files written."""
    from ui.terminal import env

    env.prepare(size, headless=True)
    from kiosk.terminal.app.kiosk import build_app
    from kiosk.tools.tour import tour_terminal
    from ui.terminal import capture
    from ui.terminal.driver import Driver
    from ui.terminal.service import install

    written: list[Path] = []
    folder = out / (f"{size[0]}x{size[1]}" + ("" if language == "en" else f"-{language}"))
    with tempfile.TemporaryDirectory(prefix="turbokiosk-service-") as tmp:
        tour = tour_terminal(Path(tmp))
        app = build_app(tour.terminal, show_simulator=False, speed=0.25)
        driver = Driver(app, size)
        app.service_layer = install(app, tour.terminal)

        def shot(name: str) -> None:
            driver.frames(2)
            written.append(capture.save_png(folder / f"{name}.png", driver.frame()))

        try:
            visit(driver, tour, shot, language)
        finally:
            tour.terminal.runtime.close()  # the process ends here: the window goes with it
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m kiosk.tools.service_screenshots OUT [--size WxH]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--language", default="en", choices=("en", "es"))
    args = parser.parse_args(argv)
    from ui.terminal.env import parse_size

    for path in take(args.out, parse_size(args.size), args.language):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
