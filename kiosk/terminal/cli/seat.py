"""``turbokiosk seat --table ADDR --seat N``: a real terminal seated at a table, played headless.

The terminal of ``--data-dir`` (its own journal, credits and meters, in-process devices) joins
table ``--table-id`` at ``ADDR`` as ``seat-N`` with the certificate ``seat-N`` of ``--pki-dir``
(``turbokiosk host issue-cert seat-N``), and a seeded player bets in each betting countdown
and answers its decisions (:mod:`kiosk.terminal.seat.player`).  For tests, soak and demos; the
player's own screens are ``turbokiosk run --table`` and ``turbokiosk play --table``.  Runs until
``--rounds`` table rounds are settled or voided on the terminal, or SIGTERM; then prints one
line: ``seat N: credits C rounds R voided V tilts T``.
"""

from __future__ import annotations

import argparse
import signal
import threading
import time
from pathlib import Path

from kiosk.kernel.paths import add_data_dir_argument, data_dir_of
from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.cli.args import check_data_dir, int_type
from kiosk.terminal.cli.guard import CommandLineError
from kiosk.terminal.cli.seat_args import table_address, table_id
from kiosk.terminal.core import commands as c
from kiosk.terminal.core.commands import CommandError
from kiosk.terminal.core.config import ConfigError
from kiosk.terminal.core.tilts import TiltCode
from kiosk.terminal.hostlink import pki
from kiosk.terminal.seat.player import SeatPlayer
from kiosk.terminal.seat.runtime import SeatRuntime


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_data_dir_argument(parser)
    parser.add_argument("--table", type=table_address, required=True, metavar="ADDR")
    parser.add_argument("--table-id", type=table_id, default="T1")
    parser.add_argument("--seat", type=int_type(0, 10_000), required=True, metavar="N")
    parser.add_argument("--pki-dir", type=Path, default=Path("var/host/pki"), metavar="DIR")
    parser.add_argument("--edition", required=True, help="the table's game (an edition id)")
    parser.add_argument("--rounds", type=int_type(0, 10**9), default=0, metavar="R")
    parser.add_argument("--seed", type=int_type(0, 2**63), default=None)


def run(args: argparse.Namespace) -> int:
    data_dir = check_data_dir(data_dir_of(args), write=True)
    try:
        creds = pki.credentials(args.pki_dir, f"seat-{args.seat}")
    except pki.PkiError as exc:
        raise CommandLineError(f"--pki-dir: {exc}") from exc
    terminal = build_terminal(data_dir)
    rt = terminal.runtime
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    seat: SeatRuntime | None = None
    try:
        rt.power_up()
        try:
            rt.state.config.edition(args.edition)
            if rt.state.selected_edition != args.edition:
                rt.execute(c.SelectEdition(args.edition))
        except (ConfigError, CommandError) as exc:
            raise CommandLineError(f"--edition {args.edition}: {exc}") from exc
        from kiosk.terminal.seat.client import SeatClient

        seat = SeatRuntime(
            rt,
            args.table_id,
            args.seat,
            connect=lambda join: SeatClient(args.table, creds, join).start(),
        )
        player = SeatPlayer(rt, seat, terminal.simulated.validator, seed=args.seed)
        start_games = rt.meters["games_played"] + rt.meters["games_voided"]
        print(f"seat {args.seat}: seated at {args.table_id} ({args.table})", flush=True)
        while not stop.is_set():
            rt.pump()
            seat.pump()
            player.step()
            done = rt.meters["games_played"] + rt.meters["games_voided"] - start_games
            last = rt.state.round
            if args.rounds and done >= args.rounds and last and (last.settlement or last.voided):
                break
            time.sleep(0.01)
        s = rt.state
        print(
            f"seat {args.seat}: credits {s.credits[0]} rounds {rt.meters['games_played']} "
            f"voided {rt.meters['games_voided']} "
            f"tilts {sorted(s.tilts)} mismatch {TiltCode.TABLE_RESULT_MISMATCH in s.tilts}",
            flush=True,
        )
    finally:
        if seat is not None:
            seat.close()
        terminal.close()
    return 0
