"""The CPU of the sealed terminal's commits, for a machine too busy to time them (issue 23).

``python -m tests.faults.commit_cost ROUNDS [DIR]`` plays ``ROUNDS`` Stadium rounds (2
commits each) with the development signer, in a new directory under ``DIR`` (``/dev/shm``:
the syncs cost next to nothing, only the CPU is left), and prints the process's CPU time per
commit.  Its instructions per commit do not depend on the machine's load: run it under
callgrind for two sizes and divide the difference by the commits between them::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null python -m tests.faults.commit_cost 10
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python -m tests.faults.commit_cost 60

(``Collected`` of the second minus the first, over 100 commits.)  The wall-clock figure
against the durable writes is ``tests/faults/test_bench_sealed_commits.py``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.state import Phase
from tests.helpers.terminal_rig import Rig


def play(rounds: int, where: str | None = None) -> float:
    """CPU seconds per commit of ``rounds`` Stadium rounds on a fresh terminal."""
    rig = Rig(Path(tempfile.mkdtemp(dir=where)) / "t", TerminalConfig(credit_limit=10_000_000))
    rt = rig.runtime
    rt.execute(c.InsertTicket("9" * 18, value=9_000_000))
    rt.execute(c.TicketStackedReport("9" * 18))
    rt.execute(c.SelectEdition("stadium-3cp"))
    commits = 0
    start = time.process_time()
    for _ in range(rounds):
        rt.execute(c.SelectPositions((0, 1, 2)))
        rt.execute(c.PlaceWager("ante", 100))
        rt.execute(c.Deal())
        commits += 1
        if rt.state.phase is Phase.DECISION:
            rt.execute(c.Decide("play"))
            commits += 1
    spent = time.process_time() - start
    rt.close()
    return spent / max(commits, 1)


def main(argv: list[str]) -> int:
    rounds = int(argv[0]) if argv else 300
    where = argv[1] if len(argv) > 1 else None
    print(f"{rounds} Stadium rounds: {play(rounds, where) * 1e3:.3f} ms of CPU per commit")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
