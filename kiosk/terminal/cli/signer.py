"""``turbokiosk signer init|serve|status``: the terminal's signer program.

- ``init --state-dir DIR``: create the Ed25519 key (mode 0600) if there is none; print the
  public key as 64 hex digits and its fingerprint;
- ``serve --socket PATH --state-dir DIR``: answer the kiosk on a Unix socket (mode 0660) until
  SIGTERM (exit 0);
- ``status --socket PATH``: the key's fingerprint, the epoch and the last signed head.

Exit status: 0 done, 1 the signer or its state cannot be used (one line on stderr).
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

from kiosk.terminal.signer.client import SocketSigner
from kiosk.terminal.signer.records import fingerprint
from kiosk.terminal.signer.state import SignerStateError, create_key, load_anchor, load_key
from kiosk.terminal.store.journal import StoreError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The sub-commands."""
    sub = parser.add_subparsers(dest="signer_command", metavar="COMMAND", required=True)
    init = sub.add_parser("init", help="create the key if missing; print the public key")
    init.add_argument("--state-dir", type=Path, required=True, metavar="DIR")
    serve = sub.add_parser("serve", help="serve the kiosk on a Unix socket until SIGTERM")
    serve.add_argument("--socket", type=Path, required=True, metavar="PATH")
    serve.add_argument("--state-dir", type=Path, required=True, metavar="DIR")
    status = sub.add_parser("status", help="key fingerprint, epoch and last signed head")
    status.add_argument("--socket", type=Path, required=True, metavar="PATH")


def _error(text: str) -> int:
    print(f"turbokiosk signer: {text}", file=sys.stderr)
    return 1


def run(args: argparse.Namespace) -> int:
    """Run the sub-command."""
    try:
        if args.signer_command == "init":
            return _init(args.state_dir)
        if args.signer_command == "serve":
            from kiosk.terminal.signer.server import serve

            return serve(
                args.socket, args.state_dir, ready=lambda p: print(f"serving on {p}", flush=True)
            )
        return _status(args.socket)
    except (SignerStateError, StoreError) as exc:
        return _error(str(exc))
    except OSError as exc:
        return _error(f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": "))


def _init(state_dir: Path) -> int:
    created = create_key(state_dir)
    public = load_key(state_dir).public_key().public_bytes_raw()
    anchor = load_anchor(state_dir)
    print(f"public key (Ed25519, hex): {public.hex()}")
    print(f"fingerprint: {fingerprint(public)}")
    print(("created" if created else "already there") + f": {state_dir}/signer.key")
    print(f"anchor: epoch {anchor.epoch} row {anchor.seq}")
    return 0


def _status(socket_path: Path) -> int:
    signer = SocketSigner(socket_path)
    try:
        status = signer.status()
    finally:
        signer.close()
    anchor = status.anchor
    print(f"public key (Ed25519, hex): {status.public_key.hex()}")
    print(f"fingerprint: {status.fingerprint}")
    print(f"epoch: {anchor.epoch}")
    print(f"last signed head: row {anchor.seq} {anchor.chain_hash.hex()}")
    previous = anchor.previous
    print(
        "head before it: "
        + ("none" if previous is None else f"row {previous.seq} {previous.chain_hash.hex()}")
    )
    times = ", ".join(_utc(ms) for ms in anchor.withdrawn_at) or "none"
    print(f"heads withdrawn at power-up (newest last): {times}")
    seal = status.seal
    print(
        "round sealed: "
        + (
            "none"
            if seal is None
            else f"game {seal.game_number}, {seal.dealt} of {len(seal.cards)} cards dealt"
        )  # never the cards themselves
    )
    return 0


def _utc(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
