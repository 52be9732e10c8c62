"""Screenshots of every Dealer Terminal screen, by touches, headless and deterministic.

``python -m kiosk.tools.dealer_screenshots OUT [--size WxH ...]`` writes
``OUT/WxH/dealer-NN-name.png``: the DT on its real link (gRPC, mutual TLS, loopback) to a
scripted table (:mod:`kiosk.tools.dealer_table`) whose clock stands still and whose cards and
seats follow the visit, so taking them again changes no file unless a screen changed.  A Kivy
window keeps the size it was opened with, so each size is taken in a process of its own.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

SIZES: tuple[tuple[int, int], ...] = ((1280, 800), (1920, 1080))

Shot = Callable[[str], None]


class Stand:
    """The DT on its link to a scripted table (what the visit and the tests drive)."""

    def __init__(self, tmp: Path, size: tuple[int, int], card_source: str) -> None:
        from kiosk.table.core.dealer_link import DealerLink
        from kiosk.terminal.hostlink import pki
        from kiosk.tools.dealer_table import ScriptedTable, serve
        from ui.table.app import DealerApp
        from ui.table.driver import DealerDriver

        pki_dir = tmp / "pki"
        pki.ensure_pki(pki_dir, ("table-T1", "dealer-1"), host_name=None)
        self.table = ScriptedTable(card_source)
        self.server, address = serve(self.table, pki_dir)
        self.link = DealerLink(address, pki.credentials(pki_dir, "dealer-1"))
        self.app = DealerApp(self.link, clock=lambda: 0.0)  # the countdown stands still
        self.driver = DealerDriver(self.app, size)

    def settle(self) -> None:
        """Wait until the DT has the table's latest view, then redraw."""
        from kiosk.table.core.dealer_link import snapshot_of

        def bare(snap: Any) -> Any:
            return replace(snap, betting_ms=0, decision_ms=0, recall=())

        def arrived() -> bool:
            with self.table.lock:
                expected = bare(snapshot_of(self.table.view, {}))
            got = self.link.snapshot()
            return got is not None and bare(got) == expected

        self.driver.wait(arrived, 20.0, "the table's view")
        self.app.refresh(force=True)
        self.driver.frames(3)

    def close(self) -> None:
        self.driver.close()
        self.link.close()
        self.server.stop(0)


def visit(stand: Stand, shot: Shot, manual: Stand | None = None) -> None:
    """Every DT screen in a dealer's order: sign-in (a wrong PIN, the lock-out), a whole round
    with its countdowns and deal steps, pause, the recall, a card tilt and the supervisor's
    void; with ``manual``, the manual cards' pages on a table of that source."""
    d, table = stand.driver, stand.table
    shot("01-sign-in")
    d.pin("dealer", "1111")
    shot("02-wrong-pin")
    d.pin("dealer", "1111")
    d.pin("dealer", "1111")
    shot("03-locked-out")
    table.tick(31_000)
    d.pin("dealer", "2468")
    stand.settle()
    shot("04-ready")
    d.tap("dt:new_game")
    for seat, cents in ((0, 1000), (2, 500), (3, 2500)):
        table.bet(seat, cents)
    table.tick(6_000)
    table.offline(5)
    stand.settle()
    shot("05-betting")
    d.tap("dt:close_bets")
    stand.settle()
    shot("06-deal-pack-1")
    d.tap("dt:lay_pack")
    d.tap("dt:lay_pack")
    stand.settle()
    shot("07-deal-pack-3")
    d.tap("dt:lay_pack")
    table.decide(0, "play")
    table.tick(4_000)
    stand.settle()
    shot("08-decisions")
    d.tap("dt:pause")  # the reason first
    d.tap("pause:dealer_change")
    shot("23-pause-reason")
    d.tap("pause:confirm")
    stand.settle()
    shot("09-paused")
    d.tap("dt:resume")
    table.decide(2, "fold")
    table.close_decisions()
    stand.settle()
    shot("10-dealer-hand")
    d.tap("dt:lay_pack")
    stand.settle()
    shot("11-confirm")
    d.tap("dt:confirm")
    stand.settle()
    d.tap("dt:new_game")
    table.bet(1, 1500)
    table.bet(4, 500)
    d.tap("dt:close_bets")
    stand.settle()
    table.tilt("Pack 1: card Qh read twice (a misread)")
    stand.settle()
    shot("12-card-tilt")
    d.tap("dt:tilt_void")  # the dealer calls the supervisor
    shot("13-supervisor-sign-in")
    d.pin("supervisor", "1357")
    stand.settle()
    shot("14-tilt-supervisor")
    d.tap("dt:tilt_void")
    d.tap("void:card_check")
    shot("15-void-reason")
    d.tap("void:confirm")
    stand.settle()
    shot("16-voided")
    d.tap("dt:recall")
    d.frames(3)
    shot("17-recall")
    d.tap("recall:back")
    if manual is not None:
        _visit_manual(manual, shot)


def _visit_manual(stand: Stand, shot: Shot) -> None:
    d, table = stand.driver, stand.table
    d.pin("dealer", "2468")
    stand.settle()
    d.tap("dt:new_game")
    table.bet(0, 1000)
    d.tap("dt:close_bets")
    stand.settle()
    shot("18-manual-pack")
    d.tap("dt:enter_cards")
    for rank, suit in ((10, 1), (7, 0)):  # Q of hearts, 9 of spades
        d.tap(f"rank:{rank}")
        d.tap(f"suit:{suit}")
    d.tap("rank:10")
    shot("19-manual-entry")
    d.tap("suit:1")  # Q of hearts again: refused
    shot("20-manual-refused")
    d.tap("rank:2")
    d.tap("suit:2")  # 4 of diamonds
    shot("21-manual-pack-whole")
    d.tap("cards:confirm")
    stand.settle()
    shot("22-manual-pack-2")


def take_here(out: Path, size: tuple[int, int]) -> list[Path]:
    """The screenshots at ``size`` in this process (its first Kivy window)."""
    import os
    import time

    from ui.terminal import env

    os.environ["TZ"] = "UTC"
    time.tzset()
    env.prepare(size, headless=True, maxfps=0)
    from kiosk.tools.screenshots import still_frame
    from ui.terminal import capture

    written: list[Path] = []
    folder = out / f"{size[0]}x{size[1]}"
    with tempfile.TemporaryDirectory(prefix="turbokiosk-dealer-") as tmp:
        stands: list[Any] = []
        try:
            virtual = Stand(Path(tmp) / "v", size, "shuffler")
            stands.append(virtual)
            current = [virtual]

            def shot(name: str) -> None:
                d = current[0].driver
                d.frames(2)
                path = folder / f"dealer-{name}.png"
                written.append(capture.save_png(path, still_frame(d)))

            visit(virtual, shot)
            virtual.close()
            stands.remove(virtual)
            manual = Stand(Path(tmp) / "m", size, "manual")
            stands.append(manual)
            current[0] = manual
            _visit_manual(manual, shot)
        finally:
            for stand in stands:
                stand.close()
    return written


def take(out: Path, sizes: Sequence[tuple[int, int]] = SIZES) -> list[Path]:
    """Every size, each in a fresh process; the files written."""
    written: list[Path] = []
    for size in sizes:
        command = [sys.executable, "-m", "kiosk.tools.dealer_screenshots", str(out)]
        result = subprocess.run(
            [*command, "--size", f"{size[0]}x{size[1]}", "--here"],
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            raise RuntimeError(f"the screenshots at {size[0]}x{size[1]} failed:\n{result.stderr}")
        written += [Path(line) for line in result.stdout.split()]
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m kiosk.tools.dealer_screenshots OUT [--size WxH ...]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--size", action="append", default=[])
    parser.add_argument("--here", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    from ui.terminal.env import parse_size

    sizes = [parse_size(s) for s in args.size] or list(SIZES)
    paths = take_here(args.out, sizes[0]) if args.here else take(args.out, sizes)
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
