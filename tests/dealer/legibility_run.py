"""Legibility of every Dealer Terminal screen, measured as the kiosk's are (decision 0018, with
the DT's own least capital height, decision 0025), in a process whose window is made at the
size asked for: ``python -m tests.dealer.legibility_run WxH [en|es]`` prints JSON (a summary and the
failing labels)."""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ui.terminal import env


def labels(app: Any) -> Iterator[Any]:
    """The labels of the current page that could be seen (text, not transparent, on it)."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    from tests.helpers.legibility import _opacity, _overlaps, _rect

    page = app.root.current_screen
    for widget in page.walk(restrict=True):
        if not isinstance(widget, Label) or not widget.text.strip():
            continue
        if _opacity(widget) < 0.02 or widget.width < 1 or widget.height < 1:
            continue
        if not _overlaps(_rect(widget), (0, 0, *Window.size)):
            continue
        yield widget


def read(app: Any, screen: str) -> list[Any]:
    """Every visible label of the current page, measured as drawn now."""
    from tests.helpers.legibility import measure
    from ui.table import theme

    return measure(list(labels(app)), screen, theme.MIN_CAP_PX * float(app.u))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    size = env.parse_size(args[0])
    language = args[1] if len(args) > 1 else "en"  # the DT's language (its language button)
    env.prepare(size, headless=True, maxfps=0)
    from kiosk.tools.dealer_screenshots import Stand, _visit_manual, visit
    from tests.helpers.legibility import summary

    readings: list[Any] = []
    with tempfile.TemporaryDirectory() as tmp:
        stands: list[Stand] = []
        current: list[Stand] = []

        def shot(name: str) -> None:
            current[0].driver.frames(3)
            readings.extend(read(current[0].app, name))

        try:
            for source in ("shuffler", "manual"):
                stand = Stand(Path(tmp) / source, size, source)
                stand.app.lang = language
                stands.append(stand)
                current[:] = [stand]
                (visit if source == "shuffler" else _visit_manual)(stand, shot)
                stand.close()
                stands.remove(stand)
        finally:
            for stand in stands:
                stand.close()
    failing = [str(r) for r in readings if r.problems()]
    print(json.dumps({"summary": summary(readings), "failing": failing}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
