"""Where a terminal keeps its data, shared by every command that opens a data directory."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

#: Environment variable naming the terminal's data directory.
DATA_DIR_ENV = "TURBOKIOSK_DATA_DIR"
#: The data directory when neither ``--data-dir`` nor the environment names one.
FALLBACK_DATA_DIR = Path("var/terminal")


def default_data_dir() -> Path:
    """``$TURBOKIOSK_DATA_DIR`` when set (and not empty), else ``./var/terminal``."""
    value = os.environ.get(DATA_DIR_ENV, "").strip()
    return Path(value) if value else FALLBACK_DATA_DIR


def add_data_dir_argument(parser: argparse.ArgumentParser) -> None:
    """``--data-dir DIR`` with :func:`default_data_dir` as its default."""
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help=f"the terminal's data directory (default: ${DATA_DIR_ENV} or {FALLBACK_DATA_DIR})",
    )
    add_signer_argument(parser)


def add_signer_argument(parser: argparse.ArgumentParser) -> None:
    """``--signer PATH``: the signer program's socket (default ``$TURBOKIOSK_SIGNER``, else the
    development signer in ``DATA_DIR.signer/``; see kiosk.terminal.signer.client)."""
    parser.add_argument(
        "--signer",
        type=Path,
        default=None,
        metavar="PATH",
        help="the signer's Unix socket (default: $TURBOKIOSK_SIGNER, else the development "
        "signer beside the data directory)",
    )


def data_dir_of(args: argparse.Namespace) -> Path:
    """The data directory the arguments name (the default resolved when the command runs)."""
    given: Path | None = args.data_dir
    return given if given is not None else default_data_dir()
