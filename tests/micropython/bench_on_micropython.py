"""Benchmark the hot path under the MicroPython unix port: ns per 9-card hand.

Runs tests/micropython/bench_payload.py inside ``micropython`` (timing with ``time.time_ns``)
over 1000 fixed pseudo-random hands, for ``count_icons`` and ``score_turbo`` from
``scoring.mpy`` (mpy-cross, native code), the same module without its ``@micropython.native``
decorators (bytecode, to show what the native emitter buys), the naive scorer and the empty
call.  Prints ns per hand and the ratios to the empty call and to the naive scorer.

Run: ``python tests/micropython/bench_on_micropython.py [rounds]`` (tox -e bench).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.micropython.mp_tools import HERE, SCORING, compile_mpy, run_micropython, stage

DECORATOR = "@micropython.native\n"
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
        source = SCORING.read_text(encoding="utf-8")
        if source.count(DECORATOR) < 2:
            print("FAIL: scoring.py no longer has the expected @micropython.native decorators")
            return 1
        bytecode = work / "scoring_bytecode.py"
        bytecode.write_text(source.replace(DECORATOR, ""), encoding="utf-8")
        for module, path in (("scoring", SCORING), ("scoring_bytecode", bytecode)):
            built = compile_mpy(path, directory / f"{module}.mpy")
            if built.returncode != 0:
                print(f"FAIL: mpy-cross {path}: {built.stdout}{built.stderr}")
                return 1
        done = run_micropython(directory, BENCH.format(rounds=rounds))
        print(done.stdout + done.stderr, end="")
        return done.returncode


if __name__ == "__main__":
    sys.exit(main(*(int(arg) for arg in sys.argv[1:2])))
