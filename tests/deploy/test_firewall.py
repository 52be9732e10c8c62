"""The nftables firewall: it loads (in a throw-away network namespace), drops by default in
every direction, and accepts nothing that does not name the host link."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.deploy.kit import KIT, SAMPLE, in_namespace, need_root, need_tool, render

pytestmark = pytest.mark.deploy


def load(tmp_path: Path, text: str) -> tuple[int, str, dict[str, Any]]:
    """Load ``text`` with nft in a fresh network namespace; exit status, errors, ruleset JSON."""
    nft = need_tool("nft")
    conf = tmp_path / "nftables.conf"
    conf.write_text(text)
    result = in_namespace(f"{nft} -f {conf}; {nft} -j list ruleset", net=True)
    listing = json.loads(result.stdout) if result.returncode == 0 else {}
    return result.returncode, result.stderr, listing


def test_firewall_loads_and_drops_by_default(tmp_path: Path) -> None:
    need_root()
    status, errors, listing = load(tmp_path, render(KIT / "config/nftables.conf.in"))
    assert status == 0, errors
    chains = {c["chain"]["name"]: c["chain"] for c in listing["nftables"] if "chain" in c}
    assert set(chains) == {"input", "forward", "output"}
    assert all(chain["policy"] == "drop" for chain in chains.values())


def test_every_accepted_packet_is_on_the_host_link(tmp_path: Path) -> None:
    """Each accept rule is loopback, an established connection, or names the host interface."""
    need_root()
    _, errors, listing = load(tmp_path, render(KIT / "config/nftables.conf.in"))
    rules = [r["rule"] for r in listing["nftables"] if "rule" in r]
    assert rules, errors
    for rule in rules:
        text = json.dumps(rule["expr"])
        if '"accept"' not in text:
            continue
        assert any(
            mark in text for mark in ('"lo"', "established", f'"{SAMPLE["HOST_INTERFACE"]}"')
        ), text
        if '"daddr"' in text or '"saddr"' in text:
            assert SAMPLE["HOST_ADDRESS"] in text, text
    outgoing = [json.dumps(r["expr"]) for r in rules if r["chain"] == "output"]
    assert any(SAMPLE["HOST_PORT"] in r and SAMPLE["HOST_ADDRESS"] in r for r in outgoing)


def test_nft_rejects_a_broken_file(tmp_path: Path) -> None:
    """The check can fail."""
    need_root()
    text = render(KIT / "config/nftables.conf.in").replace("policy drop;", "policy dropp;", 1)
    status, errors, _ = load(tmp_path, text)
    assert status != 0 and "syntax error" in errors
