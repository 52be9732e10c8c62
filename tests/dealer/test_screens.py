"""Every Dealer Terminal screen at both sizes, in both languages: legible by the rules of
decisions 0018 and 0025, and the screenshots deterministic (each size in a process of its own;
tox -e slow)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.tools.dealer_screenshots import SIZES

ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "SDL_VIDEODRIVER": "offscreen",
        "SDL_AUDIODRIVER": "dummy",
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_CONSOLELOG": "1",
    }


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("size", [f"{w}x{h}" for w, h in SIZES])
def test_every_dealer_screen_is_legible(size: str, language: str) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tests.dealer.legibility_run", size, language],
        capture_output=True,
        text=True,
        env=_env(),
        cwd=ROOT,
        timeout=600,
        check=True,
    )
    result = json.loads(out.stdout.splitlines()[-1])
    assert result["summary"]["labels"] > 300
    assert result["failing"] == []


@pytest.mark.slow
def test_dealer_screenshots_are_the_committed_ones(tmp_path: Path) -> None:
    """Taken again, every picture equals the one in docs/screenshots (nothing moved)."""
    subprocess.run(
        [sys.executable, "-m", "kiosk.tools.dealer_screenshots", str(tmp_path)],
        capture_output=True,
        env=_env(),
        cwd=ROOT,
        timeout=900,
        check=True,
    )
    for w, h in SIZES:
        taken = sorted((tmp_path / f"{w}x{h}").glob("dealer-*.png"))
        assert len(taken) == 23
        for path in taken:
            committed = ROOT / "docs" / "screenshots" / f"{w}x{h}" / path.name
            assert path.read_bytes() == committed.read_bytes(), path.name
