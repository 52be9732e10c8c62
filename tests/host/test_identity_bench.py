"""What the role check costs the host per call, against the common-name lookup it replaced,
measured in the same run (``tox -e bench``; printed as a ratio)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from kiosk.host.accounting.registry import Registry
from kiosk.terminal.hostlink import identity, pki

CALLS = 200_000


def _old_caller(auth: dict[str, Any], claimed: str) -> str:
    """The base's check: the certificate's common name equals the claimed id."""
    name = bytes(auth["x509_common_name"][0]).decode()
    assert name == claimed
    return name


def _new_caller(auth: dict[str, Any], claimed: str, registry: Registry) -> str:
    """The role, the canonical name, the claimed id and the registry's snapshot."""
    who = identity.require(auth, identity.Role.TERMINAL)
    assert who.name == claimed and registry.state(who.name) == "enrolled"
    return who.name


def _seconds(function: Any, *args: Any) -> float:
    start = time.perf_counter()
    for _ in range(CALLS):
        function(*args)
    return time.perf_counter() - start


@pytest.mark.bench
def test_the_role_check_per_call_against_the_common_name_lookup(tmp_path: Path) -> None:
    pki.ensure_pki(tmp_path / "pki", ("TK-0001",))
    cert = (tmp_path / "pki" / "TK-0001.crt").read_bytes()
    auth = {"x509_common_name": [b"TK-0001"], "x509_pem_cert": [cert]}
    registry = Registry(lambda: {"TK-0001": "enrolled"})
    registry.refresh()
    old = min(_seconds(_old_caller, auth, "TK-0001") for _ in range(3))
    new = min(_seconds(_new_caller, auth, "TK-0001", registry) for _ in range(3))
    per_call_us = new / CALLS * 1e6
    print(
        f"\nrole check: {per_call_us:.2f} us per call, {new / old:.1f}x the common-name lookup"
        f" ({old / CALLS * 1e6:.2f} us) in the same run"
    )
    assert new > 0 and old > 0
