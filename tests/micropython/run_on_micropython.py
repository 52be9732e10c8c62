"""Run the hot path's checks under the real MicroPython unix port, from source and from .mpy.

1. ``kiosk/kernel/scoring.py`` as source (bytecode), with tests/micropython/scoring_checks.py.
2. ``scoring.mpy`` compiled by ``mpy-cross -X emit=native -march=host`` (machine code for this
   machine), alone with the checks.
3. ``scoring.mpy`` compiled by plain ``mpy-cross`` (bytecode: what a port without a native
   emitter, such as 64-bit ARM, runs), alone with the checks.
   The native file's header must name an architecture and the bytecode file's none (the
   header's third byte: architecture << 2 | sub-version): proof that step 2 is machine code.
4. ``mpy-cross -X emit=native`` without an architecture must refuse scoring.py ("arch not
   specified").

Run: ``python tests/micropython/run_on_micropython.py`` (tox -e micropython).  Exits non-zero on
any failure.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.micropython.mp_tools import HERE, SCORING, compile_mpy, run_micropython, stage

CHECKS = HERE / "scoring_checks.py"
RUN = (
    "import scoring, scoring_checks\n"
    "n = scoring_checks.run_checks(scoring)\n"
    "print('passed', n, 'assertions')\n"
)


def _report(label: str, ok: bool, detail: str) -> bool:
    print(f"{'OK  ' if ok else 'FAIL'} {label}: {detail.strip()}")
    return ok


def main() -> int:
    results = []
    with tempfile.TemporaryDirectory(prefix="mp-run-") as tmp:
        work = Path(tmp)
        source = stage(work / "source", {"scoring.py": SCORING, "scoring_checks.py": CHECKS})
        done = run_micropython(source, RUN)
        results.append(
            _report(
                "MicroPython, scoring.py source", done.returncode == 0, done.stdout + done.stderr
            )
        )

        for label, native in (
            ("mpy-cross -X emit=native -march=host", True),
            ("mpy-cross (bytecode)", False),
        ):
            compiled = stage(work / f"compiled-{native}", {"scoring_checks.py": CHECKS})
            built = compile_mpy(SCORING, compiled / "scoring.mpy", native=native)
            if built.returncode != 0:
                results.append(_report(label, False, built.stdout + built.stderr))
                continue
            arch = (compiled / "scoring.mpy").read_bytes()[2] >> 2
            results.append(
                _report(
                    f"{label}: architecture in the .mpy header",
                    (arch != 0) == native,
                    f"{arch} ({'machine code' if arch else 'bytecode only'})",
                )
            )
            done = run_micropython(compiled, RUN)
            results.append(
                _report(
                    f"MicroPython, scoring.mpy ({label})",
                    done.returncode == 0,
                    done.stdout + done.stderr,
                )
            )

        refused = compile_mpy(SCORING, work / "no-arch.mpy", march=None)
        results.append(
            _report(
                "mpy-cross -X emit=native without -march refuses the module",
                refused.returncode != 0 and "arch" in refused.stdout + refused.stderr,
                (refused.stdout + refused.stderr) or f"exit status {refused.returncode}",
            )
        )
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
