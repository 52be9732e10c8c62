"""The CPU of the sealed terminal's commits, for a machine too busy to time them (issue 23).

``python -m tests.faults.commit_cost ROUNDS [DIR]`` plays ``ROUNDS`` Stadium rounds (2
commits each) with the development signer, in a new directory under ``DIR`` (``/dev/shm``:
the syncs cost next to nothing, only the CPU is left), and prints the process's CPU time per
commit: the whole step, and the share spent inside the store's commit (encoding, chain,
signature, rows; on ``/dev/shm`` no sync).  What is left is the game's own step (rules, the
scratch copy of the state, the draw, the projections).  Its instructions per commit do not
depend on the machine's load: run it under callgrind for two sizes and divide the difference
by the commits between them::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null python -m tests.faults.commit_cost 10
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python -m tests.faults.commit_cost 60

(``Collected`` of the second minus the first, over 100 commits.)  The wall-clock figure
against the durable writes is ``tests/faults/test_bench_sealed_commits.py``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.state import Phase
from kiosk.terminal.store.journal import Journal
from tests.helpers.terminal_rig import Rig


@dataclass(frozen=True)
class CommitCpu:
    """CPU seconds per commit: the whole step, and the part inside the store's commit."""

    step: float
    store: float

    @property
    def game(self) -> float:
        """The step outside the store's commit."""
        return self.step - self.store


def play(rounds: int, where: str | None = None) -> CommitCpu:
    """CPU per commit of ``rounds`` Stadium rounds on a fresh terminal."""
    rig = Rig(Path(tempfile.mkdtemp(dir=where)) / "t", TerminalConfig(credit_limit=10_000_000))
    rt = rig.runtime
    rt.execute(c.InsertTicket("9" * 18, value=9_000_000))
    rt.execute(c.TicketStackedReport("9" * 18))
    rt.execute(c.SelectEdition("stadium-3cp"))
    original = Journal.commit
    inside = 0.0
    commits = 0

    def timed(self: Journal, *args: Any, **kwargs: Any) -> int:
        nonlocal inside, commits
        before = time.process_time()
        try:
            return original(self, *args, **kwargs)
        finally:
            inside += time.process_time() - before
            commits += 1

    Journal.commit = timed  # type: ignore[method-assign]
    try:
        start = time.process_time()
        for _ in range(rounds):
            rt.execute(c.SelectPositions((0, 1, 2)))
            rt.execute(c.PlaceWager("ante", 100))
            rt.execute(c.Deal())
            if rt.state.phase is Phase.DECISION:
                rt.execute(c.Decide("play"))
        spent = time.process_time() - start
    finally:
        Journal.commit = original  # type: ignore[method-assign]
        rt.close()
    n = max(commits, 1)
    return CommitCpu(spent / n, inside / n)


def main(argv: list[str]) -> int:
    rounds = int(argv[0]) if argv else 300
    where = argv[1] if len(argv) > 1 else None
    cpu = play(rounds, where)
    print(
        f"{rounds} Stadium rounds: {cpu.step * 1e3:.3f} ms of CPU per commit, of which "
        f"{cpu.store * 1e3:.3f} ms inside the store's commit and {cpu.game * 1e3:.3f} ms "
        "in the game's step around it"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
