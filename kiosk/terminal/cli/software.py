"""``turbokiosk software``: the installed software's manifest digest and seeded HMAC.

The same computation (kiosk/kernel/integrity.py) answers the host's software authentication, so an
inspector can check a terminal by hand: ``turbokiosk software --seed <hex>`` prints the HMAC the
terminal returns to the host for that seed.
"""

from __future__ import annotations

import argparse
import json
import sys

from kiosk.kernel import integrity


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``turbokiosk software``."""
    parser.add_argument("--seed", help="also the HMAC-SHA256 for this seed (hex, 1-64 bytes)")
    parser.add_argument("--manifest", action="store_true", help="list every file with its SHA-256")
    parser.add_argument("--json", action="store_true", help="machine-readable")


def run(args: argparse.Namespace) -> int:
    """Print the manifest digest (and the manifest, the seeded HMAC)."""
    made = integrity.manifest()
    result: dict[str, object] = {"files": len(made.entries), "signature": made.digest}
    if args.seed is not None:
        try:
            result["hmac"] = integrity.keyed_check(integrity.parse_seed(args.seed))
        except ValueError as exc:
            print(f"software: {exc}", file=sys.stderr)
            return 2
    if args.json:
        if args.manifest:
            result["manifest"] = [
                {"path": e.path, "size": e.size, "sha256": e.sha256} for e in made.entries
            ]
        print(json.dumps(result, indent=2))
        return 0
    if args.manifest:
        sys.stdout.write(made.text())
    print(f"files: {result['files']}")
    print(f"signature (SHA-256 of the manifest): {result['signature']}")
    if "hmac" in result:
        print(f"HMAC-SHA256 with the seed: {result['hmac']}")
    return 0
