"""Run the SSP and EBDS wire codecs' checks under the real MicroPython unix port.

``kiosk/terminal/bridge/essp/wire.py`` and ``kiosk/terminal/bridge/ebds/wire.py`` are staged alone
(as ``ssp_wire.py`` and ``ebds_wire.py``) with tests/micropython/bridge_codec_checks.py, run from
source, then compiled by plain ``mpy-cross`` (bytecode, what every port runs) and run again.

Run: ``python tests/micropython/run_bridge_codecs.py`` (tox -e micropython).  Exits non-zero on
any failure.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.micropython.mp_tools import HERE, ROOT, compile_mpy, run_micropython, stage

SSP = ROOT / "kiosk" / "terminal" / "bridge" / "essp" / "wire.py"
EBDS = ROOT / "kiosk" / "terminal" / "bridge" / "ebds" / "wire.py"
CHECKS = HERE / "bridge_codec_checks.py"
RUN = (
    "import ssp_wire, ebds_wire, bridge_codec_checks\n"
    "n = bridge_codec_checks.run_checks(ssp_wire, ebds_wire)\n"
    "print('passed', n, 'checks')\n"
)


def main() -> int:
    ok = True
    with tempfile.TemporaryDirectory(prefix="mp-bridge-") as tmp:
        work = Path(tmp)
        files = {"ssp_wire.py": SSP, "ebds_wire.py": EBDS, "bridge_codec_checks.py": CHECKS}
        done = run_micropython(stage(work / "source", files), RUN)
        passed = done.returncode == 0 and "passed" in done.stdout
        print(f"{'OK  ' if passed else 'FAIL'} source: {(done.stdout + done.stderr).strip()}")
        ok &= passed
        compiled = stage(work / "mpy", {"bridge_codec_checks.py": CHECKS})
        for name, source in (("ssp_wire", SSP), ("ebds_wire", EBDS)):
            built = compile_mpy(source, compiled / f"{name}.mpy", march=None, native=False)
            if built.returncode != 0:
                print(f"FAIL mpy-cross {name}: {(built.stdout + built.stderr).strip()}")
                ok = False
        done = run_micropython(compiled, RUN)
        passed = done.returncode == 0 and "passed" in done.stdout
        print(f"{'OK  ' if passed else 'FAIL'} bytecode: {(done.stdout + done.stderr).strip()}")
        ok &= passed
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
