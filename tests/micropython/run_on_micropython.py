"""Run the hot path's checks under the real MicroPython unix port, from source and from .mpy.

1. ``kiosk/scoring.py`` as source, with tests/micropython/scoring_checks.py, under MicroPython.
2. ``scoring.mpy`` compiled by ``mpy-cross -march=host`` (native code for this machine), alone
   with the checks, under MicroPython.
3. ``mpy-cross`` without an architecture must refuse scoring.py ("invalid arch"): proof that the
   compiler sees the ``@micropython.native`` decorators (through the in-file shim) and emits
   machine code for them.

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

        compiled = stage(work / "compiled", {"scoring_checks.py": CHECKS})
        built = compile_mpy(SCORING, compiled / "scoring.mpy")
        if built.returncode != 0:
            results.append(_report("mpy-cross -march=host", False, built.stdout + built.stderr))
        else:
            done = run_micropython(compiled, RUN)
            results.append(
                _report(
                    "MicroPython, scoring.mpy (mpy-cross -march=host)",
                    done.returncode == 0,
                    done.stdout + done.stderr,
                )
            )

        refused = compile_mpy(SCORING, work / "no-arch.mpy", march=None)
        results.append(
            _report(
                "mpy-cross without -march refuses the native functions",
                refused.returncode != 0 and "invalid arch" in refused.stdout + refused.stderr,
                (refused.stdout + refused.stderr) or f"exit status {refused.returncode}",
            )
        )
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
