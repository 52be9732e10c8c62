"""``turbokiosk rng``: evidence collection for the test laboratory.

- ``rng dump --bytes N [--out FILE]`` writes ``N`` raw output bytes, at most
  :data:`MAX_DUMP_BYTES` (``--stream``: until the reader closes the pipe, for
  ``dieharder -g 200``);
- ``rng deal --games N [--out FILE]`` writes one shuffled deck per line (52 card codes), at
  most :data:`MAX_DEAL_GAMES` decks;
- ``rng selftest`` runs the power-up self-tests and prints the health-test cutoffs.

``dump`` and ``deal`` show their progress on standard error (``--quiet``: none); Ctrl-C stops
them after the chunk under way is written, with exit 130.

Every command goes through the production :class:`~rng.generator.Csprng` (OS entropy, health
tests, buffering, reseed policy), :class:`~rng.deck.Deck` and the production scaling.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from kiosk.kernel.interrupts import StepInterrupt
from kiosk.kernel.progress import Progress
from kiosk.terminal.cli.args import int_type, output_file
from kiosk.terminal.cli.guard import EXIT_INTERRUPTED
from rng.deck import Deck
from rng.errors import RngFailure
from rng.generator import Csprng
from rng.health import Cutoffs

CHUNK = 1 << 20
EXIT_RNG_FAILURE = 3
#: the most bytes one ``rng dump --bytes`` writes (16 GiB: far past what SP 800-22 or
#: SP 800-90B need; a battery that wants more reads ``--stream``)
MAX_DUMP_BYTES = 1 << 34
#: the most decks one ``rng deal --games`` writes (about 16 GB of text)
MAX_DEAL_GAMES = 100_000_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Sub-commands of ``turbokiosk rng``."""
    sub = parser.add_subparsers(dest="rng_command", metavar="ACTION", required=True)
    dump = sub.add_parser("dump", help="raw generator output (production path)")
    amount = dump.add_mutually_exclusive_group(required=True)
    amount.add_argument(
        "--bytes",
        type=int_type(0, MAX_DUMP_BYTES),
        metavar="N",
        help=f"bytes to write, at most {MAX_DUMP_BYTES:,} (more: --stream)",
    )
    amount.add_argument(
        "--stream", action="store_true", help="write until the reader closes the pipe"
    )
    dump.add_argument(
        "--out", type=output_file, metavar="FILE", help="output file (default: standard output)"
    )
    dump.add_argument("--quiet", action="store_true", help="no progress on standard error")
    deal = sub.add_parser("deal", help="shuffled decks, one per line (production path)")
    deal.add_argument(
        "--games",
        type=int_type(0, MAX_DEAL_GAMES),
        required=True,
        metavar="N",
        help=f"decks to write, at most {MAX_DEAL_GAMES:,}",
    )
    deal.add_argument(
        "--out", type=output_file, metavar="FILE", help="output file (default: standard output)"
    )
    deal.add_argument("--quiet", action="store_true", help="no progress on standard error")
    sub.add_parser("selftest", help="power-up self-tests and health-test cutoffs")


def run(args: argparse.Namespace) -> int:
    """Run one ``rng`` action; 3 when the generator is in its error state."""
    generator = Csprng()
    try:
        if args.rng_command == "selftest":
            return _selftest(generator)
        if generator.failure is not None:
            raise RngFailure(generator.failure)
        stop = StepInterrupt()
        if args.rng_command == "dump":
            total = None if args.stream else args.bytes
            progress = Progress("rng dump", total, "bytes", enabled=not args.quiet)
            with stop, progress, _output(args.out) as out:
                _dump(generator, total, out, progress, stop)
        else:
            progress = Progress("rng deal", args.games, "decks", enabled=not args.quiet)
            with stop, progress, _output(args.out) as out:
                _deal(generator, args.games, out, progress, stop)
        if stop.requested:
            print(
                f"turbokiosk rng: interrupted after {progress.done:,} {progress.unit}"
                " (all of them written)",
                file=sys.stderr,
            )
            return EXIT_INTERRUPTED
    except RngFailure as failure:
        print(f"turbokiosk rng: generator failure: {failure}", file=sys.stderr)
        return EXIT_RNG_FAILURE
    except BrokenPipeError:
        # The reader (dieharder, head, ...) has what it wanted; keep Python's exit-time flush
        # of standard output from failing again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _dump(
    generator: Csprng,
    n_bytes: int | None,
    out: BinaryIO,
    progress: Progress,
    stop: StepInterrupt,
) -> None:
    left = n_bytes
    while (left is None or left > 0) and not stop.requested:
        size = CHUNK if left is None else min(CHUNK, left)
        out.write(generator.random_bytes(size))
        progress.advance(size)
        if left is not None:
            left -= size


def _deal(
    generator: Csprng, games: int, out: BinaryIO, progress: Progress, stop: StepInterrupt
) -> None:
    deck = Deck(generator)
    lines: list[str] = []
    for _ in range(games):
        deck.new_round()
        lines.append(" ".join(map(str, deck.deal(deck.remaining))))
        if len(lines) == 10_000:
            out.write(("\n".join(lines) + "\n").encode())
            progress.advance(len(lines))
            lines.clear()
            if stop.requested:
                return
    if lines:
        out.write(("\n".join(lines) + "\n").encode())
        progress.advance(len(lines))


def _selftest(generator: Csprng) -> int:
    config = generator.config
    cutoffs = Cutoffs.derive(config.claimed_entropy, config.alpha_log2)
    print(f"claimed min-entropy: {cutoffs.h} bits per byte, alpha = 2**-{cutoffs.alpha_log2}")
    print(f"repetition count test cutoff: {cutoffs.rct}")
    print(f"adaptive proportion test cutoff: {cutoffs.apt} in a window of {cutoffs.apt_window}")
    if generator.failure is not None:
        print(f"self-tests FAILED: {generator.failure}", file=sys.stderr)
        return EXIT_RNG_FAILURE
    print("power-up self-tests (DRBG known answers, health tests, start-up test): passed")
    return 0


@contextlib.contextmanager
def _output(path: Path | None) -> Iterator[BinaryIO]:
    if path is None:
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
    else:
        with open(path, "wb") as handle:
            yield handle
