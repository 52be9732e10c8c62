"""The legibility readings of the scripted visit in a process of its own, whose window is made
at the size asked for: Kivy makes its window when first imported, and a window resized later is
not read back faithfully by software OpenGL at 1920x1080.  No Kivy import before
:func:`ui.terminal.env.prepare`."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from ui.terminal import env


class _Visit:
    """A kiosk on a fresh terminal for :func:`main` (what the tests' fixture builds)."""

    def __init__(self, data_dir: Path, size: tuple[int, int]) -> None:
        from kiosk.terminal.app.kiosk import build_app
        from kiosk.tools.tour import tour_terminal
        from ui.terminal.driver import Driver

        self.tour = tour_terminal(data_dir)
        self.app = build_app(
            self.tour.terminal, show_simulator=False, speed=0.15, table_status=self.tour.table
        )
        self.driver = Driver(self.app, size)


def main(argv: list[str] | None = None) -> int:
    """``python -m tests.ui.legibility_run WxH LANGUAGE``: the readings of a visit in a process
    whose window is made at that size, as JSON on stdout."""
    args = sys.argv[1:] if argv is None else argv
    size = env.parse_size(args[0])
    env.prepare(size, headless=True, maxfps=0)
    from tests.helpers.legibility import summary, walk

    with tempfile.TemporaryDirectory() as tmp:
        visit = _Visit(Path(tmp), size)
        try:
            readings = walk(visit, size, args[1])
        finally:
            visit.driver.close()
            visit.tour.terminal.runtime.close()
    failing = [str(r) for r in readings if r.problems()]
    print(json.dumps({"summary": summary(readings), "failing": failing}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
