"""Benchmark the hot path under the MicroPython unix port: ns per 9-card hand.

Runs tests/micropython/bench_payload.py inside ``micropython`` (timing with ``time.time_ns``)
over 1000 fixed pseudo-random hands, for ``count_icons`` and ``score_turbo`` from
``scoring.mpy`` (``mpy-cross -X emit=native``, machine code), the same module compiled to
bytecode (to show what the native emitter buys; 64-bit ARM has no native emitter), the
naive scorer and the empty call.  Prints ns per hand and the ratios to the empty call and to
the naive scorer.

Run: ``python tests/micropython/bench_on_micropython.py [rounds]`` (tox -e bench).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.micropython.mp_tools import HERE, SCORING, compile_mpy, run_micropython, stage

BENCH = """
import sys
import bench_payload as b
import scoring
import scoring_bytecode
print(sys.implementation, "mpy", sys.implementation._mpy)
rows = b.run_bench(
    [
        ("empty", b.empty),
        ("naive", b.naive_count_icons),
        ("count_icons", scoring.count_icons),
        ("score_turbo", scoring.score_turbo),
        ("count_icons (bytecode)", scoring_bytecode.count_icons),
        ("score_turbo (bytecode)", scoring_bytecode.score_turbo),
    ],
    {rounds},
)
b.print_table("MicroPython, ns per 9-card hand (best of {rounds} rounds of 1000 hands)", rows)
"""


def main(rounds: int = 200) -> int:
    with tempfile.TemporaryDirectory(prefix="mp-bench-") as tmp:
        work = Path(tmp)
        directory = stage(work / "bench", {"bench_payload.py": HERE / "bench_payload.py"})
        for module, native in (("scoring", True), ("scoring_bytecode", False)):
            built = compile_mpy(SCORING, directory / f"{module}.mpy", native=native)
            if built.returncode != 0:
                print(f"FAIL: mpy-cross {module}: {built.stdout}{built.stderr}")
                return 1
        done = run_micropython(directory, BENCH.format(rounds=rounds))
        print(done.stdout + done.stderr, end="")
        return done.returncode


if __name__ == "__main__":
    sys.exit(main(*(int(arg) for arg in sys.argv[1:2])))
