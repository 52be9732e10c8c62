"""The host's serial line on a real pty: raw bytes both ways, the latency probe."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.host.sas.line import HostLine, LineError, WakeupMode
from kiosk.host.sas.timing import percentile, probe
from tests.helpers.cli_process import REPO as ROOT


def test_pty_is_plain_bytes_and_probe_times_an_echo(echo_port: Path) -> None:
    line = HostLine(str(echo_port))
    try:
        assert line.mode is WakeupMode.GAP
        line.send(b"\x01\xff\x00\x1a")
        got = b""
        while len(got) < 4:
            chunk = line.read(2.0)
            assert chunk, "the echo did not answer"
            got += chunk
        assert got == b"\x01\xff\x00\x1a"  # nothing added, nothing escaped
        stats = probe(line, b"\x81", 1, 200)
        assert (
            stats.answered == 200 and stats.first_p50_ms < 20
        )  # a loaded machine: the tail may not be
        assert 0 < stats.first_p50_ms <= stats.whole_p99_ms
    finally:
        line.close()


def test_not_a_port(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    with pytest.raises(LineError, match="not a serial port"):
        HostLine(str(tmp_path / "f"))
    with pytest.raises(LineError, match="No such file"):
        HostLine(str(tmp_path / "missing"))


def test_percentile_nearest_rank() -> None:
    samples = [float(i) for i in range(1, 101)]
    assert percentile(samples, 0.5) == 50.0
    assert percentile(samples, 0.99) == 99.0
    assert percentile([], 0.5) == 0.0


def test_created_pty_far_end_opened_by_another_process(tmp_path: Path) -> None:
    link = tmp_path / "sas"
    line = HostLine.create_pty(link)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.sas.host.echo_pty", "--open", str(link)], cwd=ROOT
    )
    try:
        assert line.mode is WakeupMode.GAP and link.is_symlink()
        for _ in range(100):  # until the echo has opened its end (it flushes what came before)
            if probe(line, b"\x81", 1, 1, timeout_s=0.1).answered:
                break
        stats = probe(line, b"\x81", 1, 100, timeout_s=2.0)
        assert stats.answered == 100
    finally:
        proc.terminate()
        proc.wait(5)
        line.close()
    assert not link.exists()
