"""The screen dump on a board whose frames are slower than the dump's polling interval (software
GL on a slow board, the emulated arm64 board of tox -e pi): the PNG shows the screen, once."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from PIL import Image

from kiosk.terminal.app.kiosk import _dump_when_settled

#: longer than the dump's 0.1 s polling interval, as every frame is under QEMU
SLOW_FRAME_SECONDS = 0.15


def test_a_dump_with_slow_frames_shows_the_attract_screen_not_the_emptied_window(
    kiosk_factory: Any, tmp_path: Path
) -> None:
    k = kiosk_factory()
    slow = Clock.schedule_interval(lambda _dt: time.sleep(SLOW_FRAME_SECONDS), 0)
    dump = tmp_path / "attract.json"
    try:
        _dump_when_settled(k.app, k.terminal, dump, True, None)
        k.driver.wait(dump.exists, 20.0, "the dump")
    finally:
        slow.cancel()
    assert json.loads(dump.read_text())["screen"] == "attract"
    with Image.open(dump.with_suffix(".png")) as image:
        colours = image.convert("RGB").getcolors(1 << 24) or []
    # the attract screen has thousands of colours; the emptied window is the felt alone
    assert len(colours) > 1000
