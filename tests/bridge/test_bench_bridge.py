"""The bridge's figures (``tox -e bench``): note to credit through the bridge against the
direct simulator, and the bridge's idle CPU, each against its baseline in the same run
(tests/bridge/bench_bridge.py; the full run: ``python -m tests.bridge.bench_bridge``)."""

from __future__ import annotations

import json

import pytest

from tests.bridge.bench_bridge import bench


@pytest.mark.bench
def test_bench_bridge_against_the_direct_simulator() -> None:
    figures = bench(notes=20, idle_seconds=10.0, polls=[100])
    print(json.dumps(figures, indent=1))
    bridged = figures["bridge_poll_100ms"]
    assert bridged["p50"] > 0 and figures["direct_ms"]["p50"] > 0
