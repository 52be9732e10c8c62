"""``turbokiosk screenshots [--out DIR] [--size WxH ...]``: every screen, as the player sees it.

Plays a scripted visit of every screen by simulated touches, headless (SDL offscreen, software
OpenGL), and writes ``DIR/WxH/NN-screen.png`` (default ``docs/screenshots``, 800x480 and
1920x1080).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kiosk.terminal.cli.args import check_data_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"), metavar="DIR")
    parser.add_argument(
        "--size",
        action="append",
        metavar="WxH",
        help="a window size (repeatable; default 800x480 and 1920x1080)",
    )


def run(args: argparse.Namespace) -> int:
    """Write the screenshots and list them."""
    from kiosk.tools.screenshots import SIZES, take
    from ui.terminal.env import parse_size

    try:
        sizes = [parse_size(s) for s in args.size] if args.size else list(SIZES)
    except ValueError as exc:
        print(f"turbokiosk screenshots: {exc}", file=sys.stderr)
        return 2
    check_data_dir(args.out, write=True, option="--out")
    for path in take(args.out, sizes):
        print(path)
    return 0
