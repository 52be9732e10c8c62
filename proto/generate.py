"""Generate the Python code for ``proto/turbokiosk/v1/*.proto`` with grpcio-tools.

    python -m proto.generate            # rewrite the generated modules in place
    python -m proto.generate --check    # exit 1 if the committed modules are stale

protoc writes absolute imports (``from turbokiosk.v1 import host_pb2``) that only work with
``proto/`` itself on ``sys.path``; the one post-processing step turns them into package-relative
imports (``from . import host_pb2``) so the code lives inside the ``proto`` package.  That rewrite
is mechanical and part of generation: nothing generated is ever edited by hand.
"""

from __future__ import annotations

import argparse
import filecmp
import re
import sys
import tempfile
from pathlib import Path

PROTO_ROOT = Path(__file__).resolve().parent
PACKAGE_DIR = PROTO_ROOT / "turbokiosk" / "v1"
GENERATED_SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py")
_ABSOLUTE_IMPORT = re.compile(r"^from turbokiosk\.v1 import ", re.MULTILINE)


def sources() -> list[Path]:
    """Every .proto file of the package, in a stable order."""
    return sorted(PACKAGE_DIR.glob("*.proto"))


def generate(out_root: Path) -> list[Path]:
    """Run protoc (python, pyi and grpc outputs) into ``out_root``; the files written."""
    import grpc_tools
    from grpc_tools import protoc

    well_known = Path(grpc_tools.__file__).resolve().parent / "_proto"
    files = [str(p.relative_to(PROTO_ROOT)) for p in sources()]
    if not files:
        return []
    args = [
        "protoc",
        f"--proto_path={PROTO_ROOT}",
        f"--proto_path={well_known}",
        f"--python_out={out_root}",
        f"--pyi_out={out_root}",
        f"--grpc_python_out={out_root}",
        *files,
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    written = sorted(
        p for p in (out_root / "turbokiosk" / "v1").iterdir() if p.name.endswith(GENERATED_SUFFIXES)
    )
    for path in written:
        text = path.read_text(encoding="utf-8")
        path.write_text(_ABSOLUTE_IMPORT.sub("from . import ", text), encoding="utf-8")
    return written


def stale_files() -> list[str]:
    """Generated files that differ from a fresh generation (or are missing or left over)."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = {p.name: p for p in generate(Path(tmp))}
        committed = {
            p.name: p for p in PACKAGE_DIR.iterdir() if p.name.endswith(GENERATED_SUFFIXES)
        }
        problems = sorted(set(fresh) ^ set(committed))
        for name in sorted(set(fresh) & set(committed)):
            if not filecmp.cmp(fresh[name], committed[name], shallow=False):
                problems.append(name)
        return problems


def main(argv: list[str] | None = None) -> int:
    """Command line: regenerate, or check with ``--check``."""
    parser = argparse.ArgumentParser(prog="python -m proto.generate", description=__doc__)
    parser.add_argument("--check", action="store_true", help="only report stale files")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_files()
        for name in stale:
            print(f"stale: proto/turbokiosk/v1/{name}")
        return 1 if stale else 0
    for path in PACKAGE_DIR.iterdir():
        if path.name.endswith(GENERATED_SUFFIXES):
            path.unlink()
    written = generate(PROTO_ROOT)
    for path in written:
        print(f"generated {path.relative_to(PROTO_ROOT.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
